/*
 * check_numa.c: the channel-to-node map proved on this node (issue 67 point 2, doc/numa.md).  Where a socket
 * is several NUMA nodes (sub-NUMA clustering, HBM or CXL memory nodes), a streaming read runs with its buffer
 * on each node in turn (libnuma, gen_prepare_on; on the simulator, uncore_sim_workload_on "nodeN"), counted
 * in a session of the node's bytes metric: the node must be given the bytes read (less 0.1 %, more by 5 % and
 * 16 MiB) and each other node of its socket no more than 5 % of them and 16 MiB, each net of its idle rate
 * (measured first): a map the traffic contradicts -- a node whose memory another node's channels count --
 * fails.  A node whose values are refused is skipped with the reason.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "../cli.h"

#define NUMA_NODES 64
#define SHORT 0.001
#define OVER 0.05
#define SLACK (16.0 * 1048576)

static const char *const read_metric[] = { "mem_read_bytes", "hbm_read_bytes", "cxl_read_bytes" };

/* Every node's bytes of metric m over the session's last interval (NAN: not of that kind, or refused). */
static void node_bytes(uncore_session_t *s, const struct uncore_numa_node *v, int n, const int m[3], double *out)
{
	for (int i = 0; i < n; i++) {
		out[i] = NAN;
		if (m[v[i].kind] >= 0 && uncore_session_node_value(s, m[v[i].kind], v[i].node, UNCORE_LAST_INTERVAL, &out[i]))
			out[i] = NAN;
	}
}

static int several(const struct uncore_numa_node *v, int n)
{
	for (int i = 0; i < n; i++)
		if (v[i].snc > 1 || v[i].kind != UNCORE_NODE_DRAM)
			return 1;
	return 0;
}

/* One node's read and its rows. */
static int prove(struct check *c, uncore_session_t *s, const struct uncore_numa_node *v, int n, int i, const int m[3],
		 const double *idle, size_t bytes)
{
	char check[96], exp[96], got[96], a[32], b[32], err[256], mem[16];
	struct gen g;
	double cnt[NUMA_NODES];
	snprintf(check, sizeof(check), "node %d (socket %d): its memory on its channels", v[i].node, v[i].socket);
	if (v[i].refused)
		return verdict_add(c->t, V_SKIP, check, "-", "-", "%s", v[i].refused);
	if (gen_prepare_on(&g, GEN_READ, -1, c->sim ? -1 : v[i].node, bytes, err, sizeof(err)))
		return verdict_add(c->t, V_SKIP, check, "-", "-", "%s", err);
	if (uncore_session_read(s) < 0)
		goto fail;
	uint64_t t0 = uncore_session_elapsed_ns(s);
	gen_go(&g);
	snprintf(mem, sizeof(mem), "node%d", v[i].node);
	if (c->sim && uncore_sim_workload_on(c->u, v[i].socket, mem, (double)g.read_bytes, 0, g.ns))
		goto fail;
	if (uncore_session_read(s) < 0)
		goto fail;
	double secs = (double)(uncore_session_elapsed_ns(s) - t0) / 1e9, gen = (double)g.read_bytes;
	node_bytes(s, v, n, m, cnt);
	for (int k = 0; k < n; k++)
		cnt[k] -= idle[k] * secs;
	check_mib(a, sizeof(a), gen * (1 - SHORT));
	check_mib(b, sizeof(b), gen * (1 + OVER) + SLACK);
	snprintf(exp, sizeof(exp), "%s .. %s", a, b);
	check_mib(got, sizeof(got), cnt[i]);
	if (!(cnt[i] >= gen * (1 - SHORT) && cnt[i] <= gen * (1 + OVER) + SLACK))
		verdict_add(c->t, V_FAIL, check, exp, got, "%s of the bytes read on node %d were counted by the channels the "
			    "map gives it: another node's channels count its memory (a wrong map)", cnt[i] < gen ? "less" : "more",
			    v[i].node);
	else
		verdict_add(c->t, V_PASS, check, exp, got, "%s", "");
	for (int k = 0; k < n; k++) {
		if (k == i || v[k].socket != v[i].socket || v[k].kind != v[i].kind || cnt[k] != cnt[k])
			continue;
		snprintf(check, sizeof(check), "node %d's memory: node %d's channels", v[i].node, v[k].node);
		check_mib(b, sizeof(b), gen * OVER + SLACK);
		snprintf(exp, sizeof(exp), "<= %s", b);
		check_mib(got, sizeof(got), cnt[k]);
		if (cnt[k] > gen * OVER + SLACK)
			verdict_add(c->t, V_FAIL, check, exp, got, "node %d's channels counted node %d's memory: the map gives "
				    "them the wrong node", v[k].node, v[i].node);
		else
			verdict_add(c->t, V_PASS, check, exp, got, "%s", "");
	}
	gen_free(&g);
	return 0;
fail:
	gen_free(&g);
	return -1;
}

int check_numa_rows(struct check *c, int socket, size_t bytes)
{
	const char *title = "NUMA nodes: each node's memory on its channels";
	struct uncore_numa_node v[NUMA_NODES];
	uncore_session_t *s = NULL;
	double idle[NUMA_NODES];
	int m[3] = { -1, -1, -1 }, n = uncore_numa_nodes(c->u, v, NUMA_NODES), rc = -1;
	if (n < 0)
		return verdict_add(c->t, V_SKIP, title, "-", "-", "%s", uncore_error());
	if (n > NUMA_NODES || !several(v, n))
		return 0; /* a node a socket: the bytes rows prove it */
	if (c->sim_shared)
		return verdict_add(c->t, V_SKIP, title, "-", "-", "a simulated machine shared with other processes (shared=) "
				   "counts no workload of the check's: give the check a machine of its own");
	if (uncore_session_new(c->u, &s))
		goto out;
	for (int k = 0; k < 3; k++) {
		int idx = uncore_metric_find(c->u, read_metric[k]);
		if (idx >= 0 && uncore_metric_here(c->u, idx) > 0 && (m[k] = uncore_session_add_metric(s, read_metric[k])) < 0)
			goto out;
	}
	if (uncore_session_start(s) || uncore_session_read(s) < 0)
		goto out;
	/* each node's idle rate, taken off what it counts while a node's memory is read */
	uint64_t t0 = uncore_session_elapsed_ns(s);
	uncore_sleep_ns(c->u, (uint64_t)(c->seconds * 1e9));
	if (uncore_session_read(s) < 0)
		goto out;
	double secs = (double)(uncore_session_elapsed_ns(s) - t0) / 1e9;
	node_bytes(s, v, n, m, idle);
	for (int k = 0; k < n; k++)
		idle[k] = secs > 0 && idle[k] == idle[k] ? idle[k] / secs : 0;
	rc = 0;
	for (int i = 0; i < n && !rc && !cli_stopped(); i++)
		if (socket < 0 || v[i].socket == socket)
			rc = prove(c, s, v, n, i, m, idle, bytes);
out:
	if (rc < 0)
		rc = verdict_add(c->t, V_FAIL, title, "each node counted", "failed", "%s", uncore_error());
	uncore_session_free(s);
	return rc;
}
