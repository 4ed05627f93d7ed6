/*
 * uncore stat --per-node (issue 67 point 1): each NUMA node's memory bytes read and written over --duration S,
 * with the bandwidths: DDR by the node whose channels serve it under sub-NUMA clustering, Xeon Max's HBM and
 * CXL memory by their own nodes (uncore_numa_nodes, uncore_session_node_value), and each socket's total, which
 * its nodes' rows add up to; a node whose channels cannot be known says why instead.  With -M/--metric-group
 * (as perf stat --per-node -M), those metrics instead, each node's share and each socket's total; a metric
 * whose boxes serve no node (an LLC or link metric) is said once, not split.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_window.h"

#define MAX_NODES 64


static int parse(int argc, char **argv, double *duration, int *json, char **metrics, char **groups)
{
	*duration = -1;
	*json = 0;
	for (int i = 1; i < argc; i++) {
		char *end = NULL;
		if (!strcmp(argv[i], "--per-node"))
			continue;
		if (!strcmp(argv[i], "--json")) {
			*json = 1;
			continue;
		}
		char **list = !strcmp(argv[i], "-M") || !strcmp(argv[i], "--metrics") ? metrics
			      : !strcmp(argv[i], "--metric-group") ? groups : NULL;
		if (list && i + 1 < argc && !*list) {
			*list = argv[++i];
			continue;
		}
		if (!strcmp(argv[i], "-e") || !strcmp(argv[i], "--event")) {
			fprintf(stderr, "uncore stat --per-node: -e: an event counts on its boxes, which a node's share is not "
					"defined for; give -M METRIC of memory bytes or bandwidth (uncore list --metrics)\n");
			return 2;
		}
		if (!strcmp(argv[i], "--duration") && i + 1 < argc && (*duration = strtod(argv[i + 1], &end)) > 0 && !*end &&
		    *duration <= 1e7) {
			i++;
			continue;
		}
		fprintf(stderr, "uncore stat --per-node: %s: expected --duration SECONDS (a positive number), -M METRIC[,...], "
				"--metric-group GROUP[,...] or --json\n", argv[i]);
		return 2;
	}
	if (*duration <= 0) {
		fprintf(stderr, "uncore stat --per-node: give --duration SECONDS\n");
		return 2;
	}
	return 0;
}

/* The session's metrics of each kind, -1 where the machine has none. */
static int add_metrics(uncore_t *u, uncore_session_t *s, int idx[3][2])
{
	for (int k = 0; k < 3; k++)
		for (int w = 0; w < 2; w++) {
			const char *name = uncore_numa_bytes_metric(k, w);
			int m = uncore_metric_find(u, name);
			idx[k][w] = -1;
			if (m >= 0 && uncore_metric_here(u, m) > 0 && (idx[k][w] = uncore_session_add_metric(s, name)) < 0)
				return -1;
		}
	return idx[0][0] < 0 ? (fprintf(stderr, "uncore stat --per-node: %s counts no memory bytes\n",
					uncore_platform_name(u)), -1) : 0;
}

/* A DDR node's bandwidth as a share of its peak (uncore_memory_node_peak), after its row: JSON peak_bw and
 * peak_share (null, with peak_unknown, where the peak is not known); the text a line where it is. */
static void node_share(uncore_t *u, const struct uncore_numa_node *v, double bytes, double secs, int json)
{
	double peak;
	int rc = uncore_memory_node_peak(u, v->node, &peak);
	if (json) {
		if (rc || !(peak > 0)) {
			printf(", \"peak_bw\": %s, \"peak_share\": null, \"peak_unknown\": ", rc ? "null" : "0");
			out_json_str(stdout, rc ? uncore_error() : "no channel of the node holds a DIMM");
		} else
			printf(", \"peak_bw\": %.17g, \"peak_share\": %.17g", peak, bytes / secs / peak);
	} else if (!rc && peak > 0)
		printf("node%-3d socket%-2d ddr peak %9.4f GB/s: read and written %8.4f %% of it\n", v->node, v->socket,
		       peak / 1e9, 100 * bytes / secs / peak);
}

static void print_node(uncore_t *u, uncore_session_t *s, const struct uncore_numa_node *v, int idx[3][2], double secs,
		       int json)
{
	for (int k = 0; k < 3; k++) {
		double b[2] = { NAN, NAN };
		int rc[2] = { 1, 1 };
		for (int w = 0; w < 2; w++)
			rc[w] = idx[k][w] < 0 ? 1 : uncore_session_node_value(s, idx[k][w], v->node, UNCORE_SINCE_START, &b[w]);
		if (rc[0] == 1 && rc[1] == 1)
			continue;
		const char *why = v->refused ? v->refused : rc[0] < 0 || rc[1] < 0 ? uncore_error() : NULL;
		if (json) {
			printf("{\"node\": %d, \"socket\": %d, \"kind\": \"%s\", \"memory\": \"%s\", \"domain\": %d, \"snc\": %d, "
			       "\"cpus\": %d, \"mem_bytes\": %llu, ", v->node, v->socket, uncore_numa_kind_name(v->kind), uncore_numa_kind_name(k), v->domain, v->snc,
			       v->ncpus, (unsigned long long)v->mem_bytes);
			if (why) {
				printf("\"refused\": ");
				out_json_str(stdout, why);
				printf("}\n");
			} else {
				printf("\"read_bytes\": %.17g, \"write_bytes\": %.17g, \"seconds\": %.9g, \"read_bw\": %.17g, "
				       "\"write_bw\": %.17g", b[0], b[1], secs, b[0] / secs, b[1] / secs);
				if (k == UNCORE_NODE_DRAM && v->kind == UNCORE_NODE_DRAM)
					node_share(u, v, b[0] + b[1], secs, json);
				printf("}\n");
			}
		} else if (why)
			printf("node%-3d socket%-2d %s: refused: %s\n", v->node, v->socket, uncore_numa_kind_name(k), why);
		else /* the memory counted, once; where it is not the node's own (Xeon Max's HBM caching a DDR node), both */
			printf("node%-3d socket%-2d %s%s%s read %14.0f B %9.4f GB/s  write %14.0f B %9.4f GB/s\n", v->node,
			       v->socket, uncore_numa_kind_name(k), k == v->kind ? "" : " caching ",
			       k == v->kind ? "" : uncore_numa_kind_name(v->kind), b[0], b[0] / secs / 1e9, b[1], b[1] / secs / 1e9);
		if (!why && !json && k == UNCORE_NODE_DRAM && v->kind == UNCORE_NODE_DRAM)
			node_share(u, v, b[0] + b[1], secs, json);
	}
}

/* Each socket's total of each kind: what its nodes add up to. */
static void print_sockets(uncore_t *u, uncore_session_t *s, int idx[3][2], const int lr[2][2], double secs, int json)
{
	for (int sock = 0; sock < uncore_num_sockets(u); sock++)
		for (int k = 0; k < 3; k++) {
			double b[2] = { 0, 0 };
			if (idx[k][0] < 0 || uncore_session_metric_value(s, idx[k][0], sock, -1, UNCORE_SINCE_START, &b[0]) ||
			    idx[k][1] < 0 || uncore_session_metric_value(s, idx[k][1], sock, -1, UNCORE_SINCE_START, &b[1]))
				continue;
			if (json)
				printf("{\"node\": null, \"socket\": %d, \"memory\": \"%s\", \"read_bytes\": %.17g, \"write_bytes\": "
				       "%.17g, \"seconds\": %.9g, \"read_bw\": %.17g, \"write_bw\": %.17g", sock, uncore_numa_kind_name(k), b[0],
				       b[1], secs, b[0] / secs, b[1] / secs);
			else
				printf("total   socket%-2d %s read %14.0f B %9.4f GB/s  write %14.0f B %9.4f GB/s\n", sock,
				       uncore_numa_kind_name(k), b[0], b[0] / secs / 1e9, b[1], b[1] / secs / 1e9);
			if (k == UNCORE_NODE_DRAM) /* DDR's local versus remote, where the platform tells them apart */
				pernode_lr_print(u, s, lr, sock, secs, json);
			if (json)
				printf("}\n");
		}
}

/* The command's state through its window (cli_window.h) */
struct pernode {
	struct uncore_numa_node v[MAX_NODES];
	uncore_t *u;
	uncore_session_t *s;
	char *metrics, *groups; /* -M, --metric-group: the user's metrics in place of the memory bytes */
	int idx[3][2], lr[2][2], json, n;
};

/* After a node's mem_bw_total (bps, in B/s; node >= 0) its share of the node's peak, or after a socket's (node -1)
 * the session's mem_bw_total m over the library's socket peak (uncore_session_peak_share): a row where the peak is
 * known, none where not (as uncore stat's by socket, doc/memory.md). */
static void user_share(struct pernode *p, int m, int node, int sock, double bps, double secs)
{
	double peak, v;
	if (node < 0) {
		if (uncore_session_peak_share(p->s, m, sock, UNCORE_SINCE_START, &v))
			return;
		v *= 100;
	} else if (uncore_memory_node_peak(p->u, node, &peak) || !(peak > 0))
		return;
	else
		v = 100 * bps / peak;
	char where[16] = "total  ";
	if (node >= 0)
		snprintf(where, sizeof(where), "node%-3d", node);
	if (!p->json)
		printf("%s socket%-2d %-32s %20.4f %%\n", where, sock, "mem_bw_peak_share", v);
	else if (node >= 0)
		printf("{\"node\": %d, \"socket\": %d, \"metric\": \"mem_bw_peak_share\", \"unit\": \"%%\", \"seconds\": %.9g, "
		       "\"value\": %.17g}\n", node, sock, secs, v);
	else
		printf("{\"node\": null, \"socket\": %d, \"metric\": \"mem_bw_peak_share\", \"unit\": \"%%\", \"seconds\": "
		       "%.9g, \"value\": %.17g}\n", sock, secs, v);
}

/* One of the user's metrics on each node and each socket.  A metric every node refuses for one reason (an LLC
 * or link metric: its boxes serve no node) is said once, then given by socket. */
static void print_user(struct pernode *p, int m, double secs)
{
	const char *name = uncore_session_metric_name(p->s, m);
	struct uncore_metric_info mi = { .unit = "" };
	double x[MAX_NODES];
	int rc[MAX_NODES], n = p->n < MAX_NODES ? p->n : MAX_NODES, same = n > 0;
	char why[MAX_NODES][256];
	uncore_metric_info(p->u, uncore_metric_find(p->u, name), &mi);
	for (int i = 0; i < n; i++) {
		const struct uncore_numa_node *v = &p->v[i];
		rc[i] = uncore_session_node_value(p->s, m, v->node, UNCORE_SINCE_START, &x[i]);
		snprintf(why[i], sizeof(why[i]), "%s", rc[i] < 0 ? (v->refused ? v->refused : uncore_error()) : "");
		same &= rc[i] < 0 && !strcmp(why[i], why[0]);
	}
	if (same) {
		if (p->json) {
			printf("{\"node\": null, \"metric\": \"%s\", \"refused\": ", name);
			out_json_str(stdout, why[0]);
			printf("}\n");
		} else
			printf("%s: not split by node: %s\n", name, why[0]);
	}
	for (int i = 0; i < n && !same; i++) {
		const struct uncore_numa_node *v = &p->v[i];
		if (rc[i] == 1)
			continue; /* not of this node's memory */
		if (p->json) {
			printf("{\"node\": %d, \"socket\": %d, \"metric\": \"%s\", \"unit\": \"%s\", \"seconds\": %.9g, ", v->node,
			       v->socket, name, mi.unit, secs);
			if (rc[i]) {
				printf("\"refused\": ");
				out_json_str(stdout, why[i]);
				printf("}\n");
			} else
				printf("\"value\": %.17g}\n", x[i]);
		} else if (rc[i])
			printf("node%-3d socket%-2d %s: refused: %s\n", v->node, v->socket, name, why[i]);
		else
			printf("node%-3d socket%-2d %-32s %20.*f %s\n", v->node, v->socket, name, strcmp(mi.unit, "B") ? 4 : 0, x[i],
			       mi.unit);
		if (!rc[i] && !strcmp(name, "mem_bw_total"))
			user_share(p, m, v->node, v->socket, x[i] / (mi.scale > 0 ? mi.scale : 1), secs); /* (1e-9GB/s) */
	}
	for (int sock = 0; sock < uncore_num_sockets(p->u); sock++) {
		double t;
		if (uncore_session_metric_value(p->s, m, sock, -1, UNCORE_SINCE_START, &t))
			continue;
		if (p->json)
			printf("{\"node\": null, \"socket\": %d, \"metric\": \"%s\", \"unit\": \"%s\", \"seconds\": %.9g, "
			       "\"value\": %.17g}\n", sock, name, mi.unit, secs, t);
		else
			printf("total   socket%-2d %-32s %20.*f %s\n", sock, name, strcmp(mi.unit, "B") ? 4 : 0, t, mi.unit);
		if (!strcmp(name, "mem_bw_total"))
			user_share(p, m, -1, sock, 0, secs);
	}
}

static int pernode_plan(uncore_t *u, void *arg)
{
	struct pernode *p = arg;
	p->u = u;
	if ((p->n = uncore_numa_nodes(u, p->v, MAX_NODES)) < 0 || uncore_session_new(u, &p->s))
		return -1;
	if (p->metrics || p->groups) {
		int rc = cli_add_metrics(p->s, u, p->metrics, p->groups);
		if (rc)
			return rc; /* -2: said */
	} else if (add_metrics(u, p->s, p->idx) || pernode_lr_add(u, p->s, p->lr))
		return -1;
	if (!p->json) {
		cli_banner(stdout, u);
		printf("# channel map: %s\n", uncore_numa_source(u));
	}
	return 0;
}

static int pernode_start(void *arg)
{
	if (uncore_session_start(((struct pernode *)arg)->s))
		return -1;
	cli_warnings();
	return 0;
}

static int pernode_stop(void *arg, uint64_t t_ns)
{
	struct pernode *p = arg;
	(void)t_ns;
	if (uncore_session_read(p->s) || uncore_session_stop(p->s))
		return -1;
	double secs = (double)uncore_session_elapsed_ns(p->s) / 1e9;
	if (!p->json)
		printf("# %.3f s elapsed\n", secs);
	if (p->metrics || p->groups) {
		for (int m = 0; m < uncore_session_num_metrics(p->s); m++)
			print_user(p, m, secs);
		return 0;
	}
	for (int i = 0; i < p->n && i < MAX_NODES; i++)
		print_node(p->u, p->s, &p->v[i], p->idx, secs, p->json);
	print_sockets(p->u, p->s, p->idx, p->lr, secs, p->json);
	return 0;
}

static void pernode_release(void *arg) { uncore_session_free(((struct pernode *)arg)->s); }

int cmd_stat_per_node(int argc, char **argv)
{
	struct pernode p = { 0 };
	double duration;
	int rc = parse(argc, argv, &duration, &p.json, &p.metrics, &p.groups);
	if (rc)
		return rc;
	struct cli_window w = { .total_ns = (uint64_t)(duration * 1e9), .every_ns = UINT64_MAX, .step_ns = UINT64_MAX,
				.plan = pernode_plan, .start = pernode_start, .stop = pernode_stop, .release = pernode_release };
	return cli_window_run(&w, &p);
}
