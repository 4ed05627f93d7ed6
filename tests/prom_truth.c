/*
 * Test helper: what each of uncore-exporter's socket series must be on a simulated machine, in the names
 * the exporter gives them (exporter/ue_names.c) and base units: for a counter its rate() per second, for
 * a gauge its value.  One line per series: NAME LABELS rate|value TRUTH, e.g.
 *   uncore_memory_read_bytes_total socket="0" rate 6.4e+09
 * The truth is the simulator's profile (tests/sim_truth.h), not the library's evaluation.
 *   prom_truth 'sim:emr,profile=FILE'
 */
#include <math.h>
#include <stdio.h>
#include "open/uncore_priv.h"
#include "sim/sim.h"
#include "sim_truth.h"
#include "../exporter/ue.h"

int main(int argc, char **argv)
{
	uncore_t *u;
	if (argc != 2 || strncmp(argv[1], "sim:", 4)) {
		fprintf(stderr, "usage: prom_truth 'sim:<platform>[,profile=FILE]'\n");
		return 2;
	}
	if (uncore_open(argv[1], &u)) {
		fprintf(stderr, "prom_truth: %s\n", uncore_error());
		return 1;
	}
	struct sim *sim = sim_of(u->acc);
	for (int i = 0; i < uncore_num_metrics(u); i++) {
		struct uncore_metric_info mi;
		struct ue_family f;
		double to_base;
		int port;
		if (uncore_metric_info(u, i, &mi))
			continue;
		ue_family_of(&mi, &f, &to_base, &port);
		int rate = f.counter && strstr(mi.unit, "/s"), totals = f.counter && !rate;
		for (int s = 0; s < uncore_num_sockets(u); s++) {
			struct truth t = truth_of(sim, mi.name, s);
			if (isnan(t.v))
				continue;
			char labels[64];
			snprintf(labels, sizeof(labels), port >= 0 ? "socket=\"%d\",port=\"%d\"" : "socket=\"%d\"", s, port);
			/* an integral count's truth is its rate a second already (sim_truth.h: times the window) */
			printf("%s%s %s %s %.9g\n", f.name, f.counter ? "_total" : "", labels, f.counter ? "rate" : "value",
			       totals ? t.v : t.v * to_base);
		}
	}
	uncore_close(u);
	return 0;
}
