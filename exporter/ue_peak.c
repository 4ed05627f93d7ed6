/*
 * The memory's peak in the exporter (issue 91, doc/prometheus.md "Peak bandwidth"): per socket,
 *   uncore_memory_peak_bytes_per_second{socket}  its populated channels x their configured MT/s x 8 bytes
 *                                                (uncore_memory_peak), and
 *   uncore_memory_peak_share_ratio{socket}       its DRAM bandwidth over the last read's interval as a share of
 *                                                that, from 0 to 1 (uncore_session_peak_share: the session's
 *                                                mem_bw_total, its events the memory series' own),
 * both gauges, with the memory series (a selection that counts DRAM bytes read and written), and absent -- not
 * 0 -- on a socket whose peak is not known (no EDAC driver, no SMBIOS speed, a platform no board is modelled of).
 * Beside each DDR NUMA node's byte series (the default set's, ue_nodes.c),
 *   uncore_numa_node_peak_bytes_per_second{numa_node,socket}  the channels that serve the node (its SNC domain's;
 *                                                             its socket's without SNC) x MT/s x 8 bytes
 *                                                             (uncore_memory_node_peak),
 * whose share Prometheus takes from the node's byte counters (the recording rule
 * intel_uncore:numa_node_memory_peak_share:ratio of prometheus/intel_uncore_rules.yml).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ue.h"
#include "ue_log.h"

/* Whether a series of node's bytes is planned (the default set's node series). */
static int node_counted(const struct ue_state *st, int node)
{
	for (int i = 0; i < st->nseries; i++)
		if (st->series[i].node == node)
			return 1;
	return 0;
}

/* uncore_numa_node_peak_bytes_per_second of each DDR node with byte series whose peak is known (said once where
 * one is not). */
static int ue_node_peaks(struct ue_state *st, char *err, size_t len)
{
	struct ue_family f = { .counter = 0, .unit = "bytes_per_second" };
	int fam = -1, said = 0;
	snprintf(f.name, sizeof(f.name), "uncore_numa_node_peak_bytes_per_second");
	snprintf(f.help, sizeof(f.help), "The NUMA node's peak DRAM bandwidth: the channels that serve it (its SNC "
		 "domain's, its socket's without SNC) holding DIMMs x their configured MT/s x 8 bytes (doc/memory.md)");
	for (int i = 0; i < st->nnodes; i++) {
		const struct uncore_numa_node *v = &st->nodes[i];
		double bps;
		int rc;
		char labels[64];
		if (v->kind != UNCORE_NODE_DRAM || v->refused || !node_counted(st, v->node))
			continue;
		if ((rc = uncore_memory_node_peak(st->u, v->node, &bps)) || !(bps > 0)) {
			if (!said++)
				ue_log("no %s{numa_node=\"%d\"}: %s", f.name, v->node,
					rc ? uncore_error() : "no channel of it holds a DIMM");
			continue;
		}
		if (fam < 0 && (fam = ue_plan_family(st, &f, err, len)) < 0)
			return -1;
		snprintf(labels, sizeof(labels), "numa_node=\"%d\",socket=\"%d\"", v->node, v->socket);
		struct ue_series se = { .fam = fam, .labels = strdup(labels), .metric = UE_PEAK_SERIES, .event = -1,
					.socket = v->socket, .box = -1, .node = -1, .window = UNCORE_LAST_INTERVAL, .to_base = 1,
					.value = bps, .have = 1 };
		if (!se.labels)
			return ue_fail(err, len, "out of memory");
		if (ue_plan_series(st, &se, err, len))
			return -1;
	}
	return 0;
}

int ue_peak_plan(const struct ue_config *c, struct ue_state *st, char *err, size_t len)
{
	struct ue_family peak = { .counter = 0, .unit = "bytes_per_second" }, share = { .counter = 0, .unit = "ratio" };
	int fam[2] = { -1, -1 }, said = 0;
	snprintf(peak.name, sizeof(peak.name), "uncore_memory_peak_bytes_per_second");
	snprintf(peak.help, sizeof(peak.help), "The socket's peak DRAM bandwidth: its channels holding DIMMs (EDAC) x "
		 "their configured MT/s (SMBIOS type 17) x 8 bytes (doc/memory.md); absent where either is not known");
	snprintf(share.name, sizeof(share.name), "uncore_memory_peak_share_ratio");
	snprintf(share.help, sizeof(share.help), "The socket's DRAM bandwidth (read and written) over the last read's "
		 "interval as a share of uncore_memory_peak_bytes_per_second, from 0 to 1 (doc/memory.md)");
	for (int s = 0; s < uncore_num_sockets(st->u); s++) {
		double bps;
		int rc, m;
		if (c->sockets && !(c->sockets >> s & 1))
			continue;
		/* (--sockets: the memory's metrics are each socket's, and so the share's) */
		if ((m = uncore_session_add_peak_share(st->s, c->sockets ? s : -1)) < 0)
			continue; /* no DRAM bytes counted: no share of them */
		if ((rc = uncore_memory_peak(st->u, s, &bps)) || !(bps > 0)) {
			if (!said++) /* (once: the reason is the node's, as a rule) */
				ue_log("no %s{socket=\"%d\"}: %s", peak.name, s,
					rc ? uncore_error() : "no channel holds a DIMM");
			continue;
		}
		for (int k = 0; k < 2; k++) {
			char labels[32];
			if (fam[k] < 0 && (fam[k] = ue_plan_family(st, k ? &share : &peak, err, len)) < 0)
				return -1;
			snprintf(labels, sizeof(labels), "socket=\"%d\"", s);
			/* the peak is known now and stays; the share comes with the second read (an interval) */
			struct ue_series se = { .fam = fam[k], .labels = strdup(labels), .metric = UE_PEAK_SERIES, .event = k ? m : -1,
						.socket = s, .box = -1, .node = -1, .window = UNCORE_LAST_INTERVAL, .to_base = 1,
						.value = k ? 0 : bps, .have = !k };
			if (!se.labels)
				return ue_fail(err, len, "out of memory");
			if (ue_plan_series(st, &se, err, len))
				return -1;
		}
	}
	return ue_node_peaks(st, err, len);
}

void ue_peak_read(struct ue_state *st, uint64_t lib, uint64_t real)
{
	for (int i = 0; i < st->nseries; i++) {
		struct ue_series *se = &st->series[i];
		double v;
		if (se->metric != UE_PEAK_SERIES || se->event < 0 || se->failed)
			continue;
		int rc = uncore_session_peak_share(st->s, se->event, se->socket, UNCORE_LAST_INTERVAL, &v);
		if (rc == UNCORE_BOX_FAILED) { /* its memory series go too (ue_read) */
			se->failed = 1;
			se->have = 0;
		}
		if (rc) /* nothing this time (no interval yet, multiplexed out): the last value stays */
			continue;
		se->value = v;
		se->t_ns = ue_stamp(lib, real, uncore_session_metric_read_time_ns(st->s, se->event, se->socket, -1));
		se->have = 1;
	}
}
