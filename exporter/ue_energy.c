/*
 * Energy in the exporter (doc/energy.md): uncore_energy_joules_total{socket,domain}, a counter per socket and
 * RAPL domain (pkg, dram, psys) that --metrics (energy_pkg, power_dram...) or --groups energy names, read with the uncore's counters at every --interval (at most 60 s, within every
 * part's wrap time; the library refuses a longer one).  A node whose energy cannot be read (no RAPL, no
 * permission) says why once and exports the rest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ue.h"
#include "ue_log.h"

int ue_energy_plan(struct ue_state *st, unsigned domains, double interval, char *err, size_t len)
{
	struct ue_family f = { .counter = 1, .unit = "joules" };
	int fam = -1;
	if (!domains)
		return 0;
	if (uncore_energy_new(st->u, NULL, &st->energy)) {
		ue_log("no uncore_energy_joules: %s", uncore_error());
		return 0;
	}
	st->energy_interval_ns = (uint64_t)(interval * 1e9);
	snprintf(f.name, sizeof(f.name), "uncore_energy_joules");
	snprintf(f.help, sizeof(f.help), "Energy of the socket's RAPL domain (pkg: package, dram: its DRAM, psys: "
		 "platform) since the exporter started counting, from %s", uncore_energy_source(st->energy));
	for (int s = 0; s < uncore_num_sockets(st->u); s++)
		for (int d = 0; d < UNCORE_ENERGY_DOMAINS; d++) {
			char labels[64];
			if (!(domains & (1u << d)) || !uncore_energy_has(st->energy, s, d))
				continue;
			if (fam < 0 && (fam = ue_plan_family(st, &f, err, len)) < 0)
				return -1;
			snprintf(labels, sizeof(labels), "socket=\"%d\",domain=\"%s\"", s, uncore_energy_domain_name(d));
			struct ue_series se = { .fam = fam, .labels = strdup(labels), .metric = UE_ENERGY_SERIES, .event = d,
						.socket = s, .box = -1, .node = -1, /* no NUMA node's */
						.window = UNCORE_SINCE_START, .to_base = 1 };
			if (!se.labels)
				return ue_fail(err, len, "out of memory");
			if (ue_plan_series(st, &se, err, len))
				return -1;
		}
	return 0;
}

int ue_energy_start(struct ue_state *st, char *err, size_t len)
{
	if (st->energy && uncore_energy_start(st->energy, st->energy_interval_ns))
		return ue_fail(err, len, "energy: %s", uncore_error());
	return 0;
}

void ue_energy_read(struct ue_state *st, uint64_t lib, uint64_t real)
{
	if (!st->energy)
		return;
	if (uncore_energy_read(st->energy))
		ue_log("%s", uncore_error());
	for (int i = 0; i < st->nseries; i++) {
		struct ue_series *se = &st->series[i];
		double j;
		if (se->metric != UE_ENERGY_SERIES || uncore_energy_value(st->energy, se->socket, se->event,
									  UNCORE_SINCE_START, &j) < 0)
			continue;
		if (se->have && j < se->value) /* a counter never goes back */
			continue;
		se->value = j;
		se->t_ns = ue_stamp(lib, real, uncore_energy_read_time_ns(st->energy));
		se->have = 1;
	}
}

void ue_energy_stop(struct ue_state *st)
{
	uncore_energy_free(st->energy);
	st->energy = NULL;
}
