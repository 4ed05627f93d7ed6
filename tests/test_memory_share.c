/*
 * The peak's API beyond a socket's (issue 91 point 4, common/memory/mem_peak.c): a NUMA node's peak against the
 * boards' figures worked out here (doc/memory.md: sim:spr's DDR5-4800, 8 bytes a transfer; SNC2 gives channels
 * {0,1,4,5} to domain 0 and {2,3,6,7} to domain 1, perf's spr_emr_snc2_map), unknown with why, never 0; and the
 * front ends' share: mem_bw_total added to a session that counts DRAM bytes takes no counter more (on every
 * socket, or one socket's where the session's metrics are one socket's), is taken back where it would, and the
 * share is the profile's bandwidth over the peak.
 */
#include "sim_helpers.h"

static void peak_is(uncore_t *u, int node, double want)
{
	double bps = -1;
	int rc = uncore_memory_node_peak(u, node, &bps);
	if (rc || bps != want)
		fprintf(stderr, "node %d: %d, %.17g B/s (want %.17g): %s\n", node, rc, bps, want, rc ? uncore_error() : "");
	CU_ASSERT(rc == 0 && bps == want);
}

static void test_node_peaks(void)
{
	/* channels 0 1 2 4 5 hold a DIMM: domain 0 four of {0,1,4,5}, domain 1 one of {2,3,6,7} */
	uncore_t *u = open_sim("sim:spr,snc=2,dimms=11101100");
	double bps = -1;
	peak_is(u, 0, 4 * 4800e6 * 8);
	peak_is(u, 1, 1 * 4800e6 * 8);
	peak_is(u, 2, 4 * 4800e6 * 8);
	peak_is(u, 3, 1 * 4800e6 * 8);
	CU_ASSERT(uncore_memory_node_peak(u, 4, &bps) == -1 && strstr(uncore_error(), "no such node"));
	CU_ASSERT(uncore_memory_node_peak(u, -1, &bps) == -1);
	uncore_close(u);
	u = open_sim("sim:icx"); /* SNC off: a node is its socket, 8 x 3200 x 8 */
	peak_is(u, 0, 8 * 3200e6 * 8);
	peak_is(u, 1, 8 * 3200e6 * 8);
	uncore_close(u);
	u = open_sim("sim:icx,edac=off");
	CU_ASSERT(uncore_memory_node_peak(u, 0, &bps) == 1 && bps == 0 && strstr(uncore_error(), "no EDAC driver loaded"));
	uncore_close(u);
	u = open_sim("sim:spr,snc=4"); /* no public table maps SNC4's channels */
	CU_ASSERT(uncore_memory_node_peak(u, 0, &bps) == 1 && strstr(uncore_error(), "SNC4"));
	uncore_close(u);
	u = open_sim("sim:spr,hbm=flat"); /* Xeon Max's HBM node: no DDR channel */
	struct uncore_numa_node v[8];
	int n = uncore_numa_nodes(u, v, 8), hbm = 0;
	for (int i = 0; i < n && i < 8; i++)
		if (v[i].kind == UNCORE_NODE_HBM && ++hbm)
			CU_ASSERT(uncore_memory_node_peak(u, v[i].node, &bps) == 1 && strstr(uncore_error(), "hbm"));
	CU_ASSERT(hbm > 0);
	uncore_close(u);
}

static void test_share_takes_no_counter(void)
{
	uncore_t *u = open_sim("sim:icx,clock=manual");
	uncore_session_t *s;
	double share = -1;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT(uncore_session_add_peak_share(s, -1) == -1); /* no DRAM bytes counted: nothing added */
	CU_ASSERT(uncore_session_num_metrics(s) == 0 && uncore_session_num_events(s) == 0);
	/* one socket's bytes: the share of every socket would take socket 0's counters, and is taken back */
	CU_ASSERT_FATAL(uncore_session_add_metric(s, "mem_bw_read:socket=1") == 0);
	CU_ASSERT_FATAL(uncore_session_add_metric(s, "mem_bw_write:socket=1") == 1);
	int nev = uncore_session_num_events(s);
	CU_ASSERT(uncore_session_add_peak_share(s, -1) == -1 && strstr(uncore_error(), "not the session's own"));
	CU_ASSERT(uncore_session_num_metrics(s) == 2 && uncore_session_num_events(s) == nev);
	int m = uncore_session_add_peak_share(s, 1);
	CU_ASSERT(m == 2 && uncore_session_num_events(s) == nev);
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	/* socket 1 moves the simulator's default bandwidth: its share of 204.8e9 over a second */
	struct sim *sim = sim_of(u->acc);
	double want = (sim->prof.mem_read_bps[1] + sim->prof.mem_write_bps[1]) / (8 * 3200e6 * 8);
	CU_ASSERT(uncore_session_peak_share(s, m, 1, UNCORE_LAST_INTERVAL, &share) == 1); /* no interval yet */
	uncore_sleep_ns(u, 1000000000ull);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	CU_ASSERT(uncore_session_peak_share(s, m, 1, UNCORE_LAST_INTERVAL, &share) == 0);
	check_truth("socket 1's share", share, want);
	uncore_session_free(s);
	/* every socket's bytes: mem_bw_total shares their events */
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT_FATAL(uncore_session_add_metric(s, "mem_read_bytes") == 0 && uncore_session_add_metric(s, "mem_write_bytes") == 1);
	nev = uncore_session_num_events(s);
	m = uncore_session_add_peak_share(s, -1);
	CU_ASSERT(m == 2 && uncore_session_num_events(s) == nev);
	CU_ASSERT(uncore_session_add_peak_share(s, -1) == m); /* once */
	uncore_session_free(s);
	uncore_close(u);
	/* where the peak is unknown: the share is said unknown (1), not 0 */
	u = open_sim("sim:icx,clock=manual,edac=off");
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT_FATAL(uncore_session_add_metric(s, "mem_bw_read") == 0 && uncore_session_add_metric(s, "mem_bw_write") == 1);
	m = uncore_session_add_peak_share(s, -1);
	CU_ASSERT_FATAL(m == 2 && uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 1000000000ull);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	CU_ASSERT(uncore_session_peak_share(s, m, 0, UNCORE_LAST_INTERVAL, &share) == 1 && isnan(share));
	uncore_session_free(s);
	uncore_close(u);
}

/* The node's peak and share (socket -1): on sim:icx with socket 0's eight channels and socket 1's first four
 * populated (DDR4-3200, 8 bytes a transfer: 8 and 4 x 25.6e9 B/s), the node's peak is 12 x 25.6e9 and its share
 * both sockets' bytes a second over it -- not the mean of the sockets' shares; a socket of no DIMM adds neither its
 * bytes nor a peak; a socket's unknown peak makes the node's unknown. */
/* A session of every socket's DRAM bandwidth and the node's share (its metric *m), read once a second later. */
static uncore_session_t *node_share_session(uncore_t *u, int *m)
{
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT_FATAL(uncore_session_add_metric(s, "mem_bw_read") == 0 && uncore_session_add_metric(s, "mem_bw_write") == 1);
	*m = uncore_session_add_peak_share(s, -1);
	CU_ASSERT_FATAL(*m == 2 && uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 1000000000ull);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	return s;
}

static void node_share_is(const char *spec, double peak, int with0, int with1)
{
	uncore_t *u = open_sim(spec);
	struct sim *sim = sim_of(u->acc);
	double bps = -1, share = -1;
	CU_ASSERT(uncore_memory_peak(u, -1, &bps) == 0 && bps == peak);
	if (bps != peak)
		fprintf(stderr, "%s: the node's peak %.17g, want %.17g (%s)\n", spec, bps, peak, uncore_error());
	int m;
	uncore_session_t *s = node_share_session(u, &m);
	double bytes = with0 * (sim->prof.mem_read_bps[0] + sim->prof.mem_write_bps[0]) +
		       with1 * (sim->prof.mem_read_bps[1] + sim->prof.mem_write_bps[1]);
	CU_ASSERT(uncore_session_peak_share(s, m, -1, UNCORE_LAST_INTERVAL, &share) == 0);
	check_truth(spec, share, bytes / peak);
	uncore_session_free(s);
	uncore_close(u);
}

static void test_node_share(void)
{
	node_share_is("sim:icx,clock=manual,dimms=11111111/11110000", 12 * 3200e6 * 8, 1, 1);
	node_share_is("sim:icx,clock=manual,dimms=11111111/00000000", 8 * 3200e6 * 8, 1, 0);
	uncore_t *u = open_sim("sim:icx,clock=manual,edac=off");
	double bps = -1, share = -1;
	CU_ASSERT(uncore_memory_peak(u, -1, &bps) == 1 && strstr(uncore_error(), "socket 0"));
	int m;
	uncore_session_t *s = node_share_session(u, &m);
	CU_ASSERT(uncore_session_peak_share(s, m, -1, UNCORE_LAST_INTERVAL, &share) == 1 && isnan(share));
	uncore_session_free(s);
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "a NUMA node's peak: its SNC domain's populated channels, its socket's without SNC, unknown with why",
		  test_node_peaks },
		{ "the share: mem_bw_total on the session's own counters, taken back where not, the profile's share", test_share_takes_no_counter },
		{ "the node's peak and share: its sockets' bytes over their peaks summed, unknown where a socket's is", test_node_share },
		{ NULL, NULL },
	};
	return run_suite("memory share", tests);
}
