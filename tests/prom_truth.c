/*
 * Test helper: what each of uncore-exporter's socket series must be on a simulated machine, in the names
 * the exporter gives them (exporter/ue_names.c) and base units: for a counter its rate() per second, for
 * a gauge its value.  One line per series: NAME LABELS rate|value TRUTH, e.g.
 *   uncore_memory_read_bytes_total socket="0" rate 6.4e+09
 * The truth is the simulator's profile (tests/sim_truth.h), not the library's evaluation.
 *   prom_truth 'sim:emr,profile=FILE' [energy]
 * With "energy", uncore_energy_joules_total's too (doc/energy.md): its rate is the profile's watts.  Where the
 * simulated board models its memory, each socket's peak DRAM bandwidth and its share (doc/memory.md).
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
	if (argc < 2 || argc > 3 || strncmp(argv[1], "sim:", 4) || (argc == 3 && strcmp(argv[2], "energy"))) {
		fprintf(stderr, "usage: prom_truth 'sim:<platform>[,profile=FILE]' [energy]\n");
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
	/* the peak DRAM bandwidth where the simulated board models its memory and EDAC shows it (doc/memory.md): the
	 * channels the simulator populated x the board's configured MT/s x 8 bytes, and the bytes a second the
	 * profile moves (mem_bw_total's truth) as a share of it */
	for (int s = 0; sim->mem && sim->dimms_on && !sim->edac_off && s < uncore_num_sockets(u); s++) {
		struct uncore_metric_info mi;
		int populated = 0;
		for (int b = 0; b < SIM_DIMM_BOXES; b++)
			populated += sim->dimms[s][b] > 0;
		double peak = (double)populated * sim->mem->mts * 1e6 * 8;
		struct truth t = truth_of(sim, "mem_bw_total", s);
		if (!(peak > 0) || uncore_metric_info(u, uncore_metric_find(u, "mem_bw_total"), &mi) || isnan(t.v))
			continue;
		printf("uncore_memory_peak_bytes_per_second socket=\"%d\" value %.9g\n", s, peak);
		printf("uncore_memory_peak_share_ratio socket=\"%d\" value %.9g\n", s, t.v / mi.scale / peak);
	}
	/* the package's watts and DRAM's, idle and by the memory's bytes a second (common/sim/sim_rapl.c, sim_traffic.c;
	 * tests/sim_truth.h truth_energy_j), as the joules counter's rate */
	for (int s = 0; argc == 3 && s < uncore_num_sockets(u); s++) {
		const struct sim_profile *p = &sim->prof;
		printf("uncore_energy_joules_total socket=\"%d\",domain=\"pkg\" rate %.9g\n", s, p->pkg_w[s]);
		printf("uncore_energy_joules_total socket=\"%d\",domain=\"dram\" rate %.9g\n", s,
		       p->dram_idle_w[s] + p->dram_w_per_gbps[s] * (p->mem_read_bps[s] + p->mem_write_bps[s]) / 1e9);
	}
	uncore_close(u);
	return 0;
}
