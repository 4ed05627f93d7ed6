/*
 * Memory by NUMA node (issue 67): on sim: and perf+sim: of SPR, GNR and Xeon Max with sub-NUMA clustering,
 * every node's bytes equal the simulator's truth for the node (sim_node_truth: its domain's share of the
 * socket's traffic, deliberately uneven) within 1 %, and a socket's nodes add up to the socket's count; where
 * the channels of a node cannot be known (SNC4, HBM nodes under SNC, an L3 that says SNC is off) the node is
 * refused with the reason, and a map the hardware contradicts (fault swapped:sncmap) shows as values off
 * the truth, which the library alone cannot see (uncore check's proof, issue 67 point 2, is still to come).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "uncore.h"
#include "handle/handle.h"
#include "sim/sim.h"
#include "sim/sim_numa.h"

#define MAX_NODES 32

struct run {
	uncore_t *u;
	uncore_session_t *s;
	struct uncore_numa_node nodes[MAX_NODES];
	int n;
	double secs;
	int m[2]; /* the read and write metrics of a kind */
};

/* Count a second of the machine's steady traffic with the bytes metrics of DDR and (Xeon Max) HBM. */
static int run_open(struct run *r, const char *spec)
{
	memset(r, 0, sizeof(*r));
	if (uncore_open(spec, &r->u)) {
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
		return -1;
	}
	r->n = uncore_numa_nodes(r->u, r->nodes, MAX_NODES);
	if (r->n < 0 || r->n > MAX_NODES || uncore_session_new(r->u, &r->s)) {
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
		return -1;
	}
	static const char *const names[] = { "mem_read_bytes", "mem_write_bytes", "hbm_read_bytes", "hbm_write_bytes" };
	for (int i = 0; i < 4; i++) {
		int k = uncore_metric_find(r->u, names[i]);
		if (k >= 0 && uncore_metric_here(r->u, k) > 0 && uncore_session_add_metric(r->s, names[i]) < 0)
			return -1;
	}
	if (uncore_session_start(r->s))
		return -1;
	uncore_sleep_ns(r->u, 1000000000ull);
	if (uncore_session_read(r->s) || uncore_session_stop(r->s))
		return -1;
	r->secs = (double)uncore_session_elapsed_ns(r->s) / 1e9;
	return 0;
}

static void run_close(struct run *r)
{
	uncore_session_free(r->s);
	uncore_close(r->u);
}

/* Every node that is not refused within 1 % of the truth, the nodes of each socket adding up to it; returns the
 * nodes refused. */
static int check_truth(const char *spec, int want_nodes, int want_ok)
{
	struct run r;
	int refused = 0, ok = 0;
	if (run_open(&r, spec)) {
		CU_FAIL("open and count");
		return -1;
	}
	struct sim *s = sim_of(r.u->acc);
	CU_ASSERT_FATAL(s != NULL);
	if (r.n != want_nodes)
		fprintf(stderr, "%s: %d nodes, want %d\n", spec, r.n, want_nodes);
	CU_ASSERT_EQUAL(r.n, want_nodes);
	for (int m = 0; m < uncore_session_num_metrics(r.s); m++) {
		double sum[UC_MAX_SOCKETS] = { 0 };
		int counted[UC_MAX_SOCKETS] = { 0 }, write = m % 2;
		for (int i = 0; i < r.n; i++) {
			double v, rd, wr;
			int rc = uncore_session_node_value(r.s, m, r.nodes[i].node, UNCORE_SINCE_START, &v);
			if (rc == 1)
				continue;
			if (r.nodes[i].refused) {
				CU_ASSERT(rc < 0 && strstr(uncore_error(), r.nodes[i].refused));
				refused += !m || m == 2;
				continue;
			}
			if (rc < 0 && strstr(uncore_error(), "HBM caches DDR here (cache mode): which HBM channels cache which")) {
				refused += m == 2; /* the node's HBM cache alone: its DDR is given */
				continue;
			}
			CU_ASSERT_FATAL(rc == 0);
			/* an HBM metric: what the HBM channels serving the node moved (cache mode: the DDR node's cache) */
			int hbm = !strncmp(uncore_session_metric_name(r.s, m), "hbm", 3);
			CU_ASSERT_FATAL((hbm ? sim_node_hbm_truth : sim_node_truth)(s, r.nodes[i].node, &rd, &wr) == 0);
			double want = (write ? wr : rd) * r.secs;
			if (!(fabs(v - want) <= 0.01 * want))
				fprintf(stderr, "%s: node %d %s %.0f bytes, the truth %.0f\n", spec, r.nodes[i].node,
					uncore_session_metric_name(r.s, m), v, want);
			CU_ASSERT(fabs(v - want) <= 0.01 * want);
			ok += !m || m == 2;
			if (r.nodes[i].socket >= 0) {
				sum[r.nodes[i].socket] += v;
				counted[r.nodes[i].socket] = 1;
			}
		}
		for (int k = 0; k < uncore_num_sockets(r.u); k++) {
			double whole;
			if (!counted[k] || refused)
				continue;
			CU_ASSERT_FATAL(uncore_session_metric_value(r.s, m, k, -1, UNCORE_SINCE_START, &whole) == 0);
			if (!(fabs(sum[k] - whole) <= 1e-9 * whole + 64))
				fprintf(stderr, "%s: socket %d's nodes add up to %.0f, the socket counted %.0f\n", spec, k, sum[k], whole);
			CU_ASSERT(fabs(sum[k] - whole) <= 1e-9 * whole + 64);
		}
	}
	if (ok != want_ok)
		fprintf(stderr, "%s: %d nodes held to the truth, want %d\n", spec, ok, want_ok);
	CU_ASSERT_EQUAL(ok, want_ok);
	run_close(&r);
	return refused;
}

static void test_snc_off(void)
{
	check_truth("sim:spr,clock=manual", 2, 2);
	check_truth("sim:gnr,clock=manual", 2, 2);
}

static void test_snc(void)
{
	static const char *const b[] = { "sim", "perf+sim" };
	char spec[128];
	for (int i = 0; i < 2; i++) {
		snprintf(spec, sizeof(spec), "%s:spr,clock=manual,snc=2", b[i]);
		CU_ASSERT(check_truth(spec, 4, 4) == 0);
		snprintf(spec, sizeof(spec), "%s:emr,clock=manual,snc=2", b[i]);
		CU_ASSERT(check_truth(spec, 4, 4) == 0);
		snprintf(spec, sizeof(spec), "%s:gnr,clock=manual,snc=3", b[i]);
		CU_ASSERT(check_truth(spec, 6, 6) == 0);
	}
}

static void test_xeon_max(void)
{
	static const char *const b[] = { "sim", "perf+sim" };
	char spec[128];
	for (int i = 0; i < 2; i++) {
		/* flat mode, SNC off: a DDR node with the CPUs and an HBM node a socket, each counted whole */
		snprintf(spec, sizeof(spec), "%s:spr,clock=manual,hbm=flat", b[i]);
		CU_ASSERT(check_truth(spec, 4, 4) == 0);
		/* SNC2: the DDR nodes by perf's table; which HBM channels serve which HBM node is known nowhere */
		snprintf(spec, sizeof(spec), "%s:spr,clock=manual,hbm=flat,snc=2", b[i]);
		CU_ASSERT(check_truth(spec, 8, 4) == 4);
		/* SNC4: no public table for SNC4: every node refused */
		snprintf(spec, sizeof(spec), "%s:spr,clock=manual,hbm=flat,snc=4", b[i]);
		CU_ASSERT(check_truth(spec, 16, 0) == 16);
		/* cache mode, SNC off: no HBM node; a socket's HBM channels cache its DDR node, whose HBM row is what
		 * they moved (hits, fills, writes: sim_traffic.c's memory-side cache) */
		snprintf(spec, sizeof(spec), "%s:spr,clock=manual,hbm=cache", b[i]);
		CU_ASSERT(check_truth(spec, 2, 4) == 0);
		/* cache mode, SNC2: the DDR nodes by perf's table; which HBM channels cache which node is known nowhere */
		snprintf(spec, sizeof(spec), "%s:spr,clock=manual,hbm=cache,snc=2", b[i]);
		CU_ASSERT(check_truth(spec, 4, 4) == 4);
	}
}

static void test_refused(void)
{
	uncore_t *u;
	struct uncore_numa_node v[MAX_NODES];
	/* SNC4 on Sapphire Rapids and SNC3 on Sierra Forest: no public channel table */
	CU_ASSERT_FATAL(uncore_open("sim:spr,snc=4", &u) == 0);
	CU_ASSERT(uncore_numa_nodes(u, v, MAX_NODES) == 8 && v[0].refused && strstr(v[0].refused, "SNC4 on spr"));
	uncore_close(u);
	CU_ASSERT_FATAL(uncore_open("sim:srf,snc=3", &u) == 0);
	CU_ASSERT(uncore_numa_nodes(u, v, MAX_NODES) == 6 && v[5].refused && strstr(v[5].refused, "SNC3 on srf"));
	uncore_close(u);
	/* SNC on while the kernel's L3 says off (every node an L3 of its own): refused, saying so */
	CU_ASSERT_FATAL(uncore_open("sim:gnr,snc=3,fault=hidden:snc", &u) == 0);
	CU_ASSERT(uncore_numa_nodes(u, v, MAX_NODES) == 6 && v[0].refused && strstr(v[0].refused, "SNC is off"));
	uncore_close(u);
	/* what the simulator does not build */
	CU_ASSERT(uncore_open("sim:gnr,snc=2", &u) < 0 && strstr(uncore_error(), "allows snc=1, 3"));
	CU_ASSERT(uncore_open("sim:skx,snc=2", &u) < 0 && strstr(uncore_error(), "simulated on spr"));
	CU_ASSERT(uncore_open("sim:spr,fault=swapped:sncmap", &u) < 0 && strstr(uncore_error(), "needs sub-NUMA"));
}

/* A map the hardware contradicts: domains 0 and 1 trade channels, so nodes 0 and 1 read each other's bytes
 * (2 and 1 parts of 3); the socket's sum stays right.  Only placing memory on each node shows it (uncore
 * check's proof, not done yet): here the test sees the values leave the truth. */
static void test_wrong_map(void)
{
	struct run r;
	double v0, rd, wr;
	CU_ASSERT_FATAL(run_open(&r, "sim:gnr,clock=manual,snc=3,fault=swapped:sncmap") == 0);
	struct sim *s = sim_of(r.u->acc);
	CU_ASSERT_FATAL(uncore_session_node_value(r.s, 0, 0, UNCORE_SINCE_START, &v0) == 0);
	CU_ASSERT_FATAL(sim_node_truth(s, 0, &rd, &wr) == 0);
	CU_ASSERT(fabs(v0 / (rd * r.secs) - 2) < 0.01); /* node 0 shows domain 1's two parts for its one */
	run_close(&r);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "SNC off: a node a socket", test_snc_off },
		{ "SNC2 and SNC3 on sim and perf+sim: each node's bytes", test_snc },
		{ "Xeon Max flat and cache modes: HBM nodes, HBM caching DDR nodes", test_xeon_max },
		{ "nodes refused with the reason", test_refused },
		{ "a wrong map leaves the truth", test_wrong_map },
		{ 0, 0 },
	};
	return run_suite("numa", tests);
}
