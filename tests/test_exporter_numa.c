/*
 * The exporter's memory by NUMA node (issue 67 point 1): on sim: and perf+sim: of Sapphire Rapids with SNC2 and
 * Granite Rapids with SNC3, the default set exports every node's bytes read and written
 * (uncore_numa_node_read_bytes_total{numa_node,socket,kind,memory}) equal to the simulator's truth for the node
 * (sim_node_truth: its domain's deliberately uneven share) within 1 %, a socket's nodes add up to its
 * uncore_memory_read_bytes_total, and the node series take no counter (the memory group's events count them):
 * the default set reads what it read without them, inside its limit.  On SNC4 (no public channel table) no
 * node has a byte series, and uncore_numa_node_info carries each node's reason.
 */
#include <math.h>
#include <string.h>
#include "sim_helpers.h"
#include "sim/sim.h"
#include "sim/sim_numa.h"
#include "select/select.h"
#include "../exporter/ue.h"

static double value_of(const struct ue_state *st, const char *fam, const char *labels)
{
	for (int i = 0; i < st->nseries; i++)
		if (!strcmp(st->fams[st->series[i].fam].name, fam) && !strcmp(st->series[i].labels, labels))
			return st->series[i].have ? st->series[i].value : NAN;
	return NAN;
}

static int open_exporter(const char *backend, struct ue_config *c, struct ue_state *st)
{
	char *argv[] = { "uncore-exporter", "--backend", (char *)backend, NULL }, err[1024];
	if (ue_options(c, 3, argv, err, sizeof(err)) || ue_plan(c, st, err, sizeof(err)) || ue_start(st, err, sizeof(err))) {
		fprintf(stderr, "%s: %s\n", backend, err);
		return -1;
	}
	return 0;
}

/* The counters a session of the exporter's metrics reads less those of one without the node series' own: 0 when
 * the node series take none (both sessions by name: the device series' metrics name every box). */
static int node_counters(const struct ue_state *st)
{
	uncore_session_t *with = NULL, *without = NULL;
	int n = uncore_num_sockets(st->u), d = -1;
	if (uncore_session_new(st->u, &with) || uncore_session_new(st->u, &without))
		goto out;
	for (int m = 0; m < uncore_session_num_metrics(st->s); m++) {
		const char *name = uncore_session_metric_name(st->s, m);
		int own = 0;
		for (int k = 0; k < 3; k++)
			own |= !strcmp(name, uncore_numa_bytes_metric(k, 0)) || !strcmp(name, uncore_numa_bytes_metric(k, 1));
		if (uncore_session_add_metric(with, name) < 0 || (!own && uncore_session_add_metric(without, name) < 0))
			goto out;
	}
	d = select_counters(with, n) - select_counters(without, n);
out:
	uncore_session_free(with);
	uncore_session_free(without);
	return d;
}

static void nodes_on(const char *backend, int want_nodes, double node_peak)
{
	struct ue_config c;
	struct ue_state st;
	if (open_exporter(backend, &c, &st)) {
		CU_FAIL("the exporter starts");
		return;
	}
	struct sim *sim = sim_of(st.u->acc);
	uncore_sleep_ns(st.u, 2000000000ull);
	CU_ASSERT_FATAL(ue_read(&st) == 0);
	double secs = (double)uncore_session_elapsed_ns(st.s) / 1e9, sum[2][UC_MAX_SOCKETS] = { { 0 } };
	int held = 0;
	CU_ASSERT_EQUAL(st.nnodes, want_nodes);
	for (int i = 0; i < st.nnodes; i++) {
		const struct uncore_numa_node *v = &st.nodes[i];
		double truth[2];
		char l[160];
		CU_ASSERT(v->refused == NULL);
		CU_ASSERT_FATAL(sim_node_truth(sim, v->node, &truth[0], &truth[1]) == 0 && v->socket >= 0 && v->socket < UC_MAX_SOCKETS);
		snprintf(l, sizeof(l), "numa_node=\"%d\",socket=\"%d\",kind=\"ddr\",memory=\"ddr\"", v->node, v->socket);
		for (int w = 0; w < 2; w++) {
			double got = value_of(&st, w ? "uncore_numa_node_write_bytes" : "uncore_numa_node_read_bytes", l);
			double want = truth[w] * secs;
			if (!(fabs(got - want) <= 0.01 * want))
				fprintf(stderr, "%s: node %d %s %.0f B, the truth %.0f\n", backend, v->node, w ? "written" : "read", got, want);
			CU_ASSERT(fabs(got - want) <= 0.01 * want);
			sum[w][v->socket] += got;
			held += fabs(got - want) <= 0.01 * want;
		}
	}
	CU_ASSERT_EQUAL(held, 2 * want_nodes);
	/* each node's peak (issue 91): the channels of its domain, as the board populates them, worked out by the
	 * caller; absent where the board is not modelled (node_peak 0) */
	for (int i = 0; i < st.nnodes; i++) {
		char l[64];
		snprintf(l, sizeof(l), "numa_node=\"%d\",socket=\"%d\"", st.nodes[i].node, st.nodes[i].socket);
		double got = value_of(&st, "uncore_numa_node_peak_bytes_per_second", l);
		int ok = node_peak > 0 ? fabs(got - node_peak) <= 1e-9 * node_peak : isnan(got);
		if (!ok)
			fprintf(stderr, "%s: node %d's peak %.6g B/s, %.6g wanted\n", backend, st.nodes[i].node, got, node_peak);
		CU_ASSERT(ok);
	}
	for (int k = 0; k < uncore_num_sockets(st.u); k++)
		for (int w = 0; w < 2; w++) {
			char l[32];
			snprintf(l, sizeof(l), "socket=\"%d\"", k);
			double whole = value_of(&st, w ? "uncore_memory_write_bytes" : "uncore_memory_read_bytes", l);
			if (!(fabs(sum[w][k] - whole) <= 1e-9 * whole + 64 * want_nodes))
				fprintf(stderr, "%s: socket %d's nodes add up to %.0f B, the socket %.0f\n", backend, k, sum[w][k], whole);
			CU_ASSERT(fabs(sum[w][k] - whole) <= 1e-9 * whole + 64 * want_nodes);
		}
	/* no counter more, the default set inside its limit */
	int more = node_counters(&st), all = select_counters(st.s, uncore_num_sockets(st.u));
	if (more || all > UNCORE_DEFAULT_COUNTERS)
		fprintf(stderr, "%s: the node series read %d counters more, %d in all\n", backend, more, all);
	CU_ASSERT(more == 0 && all <= UNCORE_DEFAULT_COUNTERS);
	/* rendered: the families with their labels, each node's info without a reason */
	struct ue_snapshot *snap = ue_render(&st, 1);
	CU_ASSERT_FATAL(snap != NULL);
	CU_ASSERT(strstr(snap->text, "# TYPE uncore_numa_node_read_bytes_total counter\n") != NULL);
	CU_ASSERT(strstr(snap->om, "uncore_numa_node_write_bytes_total{numa_node=\"1\",socket=\"0\",kind=\"ddr\",memory=\"ddr\"} ") != NULL);
	CU_ASSERT(strstr(snap->text, "uncore_numa_node_info{numa_node=\"1\",socket=\"0\",kind=\"ddr\",domain=\"1\",snc=") != NULL);
	CU_ASSERT(strstr(snap->text, "refused=\"\"} 1\n") != NULL);
	free(snap->text);
	free(snap->om);
	free(snap);
	ue_teardown(&st);
	ue_config_free(&c);
}

static void test_snc(void)
{
	/* SPR: the DL380 Gen11's 8 DDR5-4800 channels a socket, four a domain with SNC2: 4 x 4800 MT/s x 8 B each
	 * (doc/memory.md); GNR: no board modelled, its peak unknown */
	nodes_on("sim:spr,clock=manual,snc=2", 4, 4 * 4800e6 * 8);
	nodes_on("perf+sim:spr,clock=manual,snc=2", 4, 4 * 4800e6 * 8);
	nodes_on("sim:gnr,clock=manual,snc=3", 6, 0);
	nodes_on("perf+sim:gnr,clock=manual,snc=3", 6, 0);
}

/* SNC4 on Sapphire Rapids: no public table maps its channels, so no node has bytes; each says why. */
static void test_refused(void)
{
	struct ue_config c;
	struct ue_state st;
	CU_ASSERT_FATAL(open_exporter("sim:spr,clock=manual,snc=4", &c, &st) == 0);
	uncore_sleep_ns(st.u, 1000000000ull);
	CU_ASSERT_FATAL(ue_read(&st) == 0);
	CU_ASSERT_EQUAL(st.nnodes, 8);
	for (int i = 0; i < st.nseries; i++)
		CU_ASSERT(st.series[i].node < 0);
	struct ue_snapshot *snap = ue_render(&st, 1);
	CU_ASSERT_FATAL(snap != NULL);
	CU_ASSERT(strstr(snap->text, "uncore_numa_node_read_bytes") == NULL);
	const char *info = strstr(snap->text, "uncore_numa_node_info{numa_node=\"7\",socket=\"1\",kind=\"ddr\",domain=\"3\",snc=\"4\",refused=\"");
	CU_ASSERT(info && strstr(info, "SNC4 on spr") && strstr(info, "SNC4 on spr") < strchr(info, '\n'));
	free(snap->text);
	free(snap->om);
	free(snap);
	ue_teardown(&st);
	ue_config_free(&c);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "node series within 1 % of the truth, adding up to the socket's, no counter more", test_snc },
		{ "SNC4: no node series, each node's reason in uncore_numa_node_info", test_refused },
		{ 0, 0 },
	};
	return run_suite("exporter_numa", tests);
}
