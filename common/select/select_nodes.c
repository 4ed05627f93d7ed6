/*
 * The default set's NUMA node series (issue 67 point 1, doc/numa.md): each node's memory bytes read and written,
 * summed over the channels that serve it (uncore_session_node_value), one series a node, kind of memory counted
 * and direction.  They come from the bytes metrics of each kind (mem_, hbm_, cxl_read_bytes, ..._write_bytes),
 * which count the events of the memory group's bandwidths: the session programs an event once, so they add no
 * counter to a read.  A refused node has none; uncore_numa_nodes() gives its reason to the front end.
 */
#include <stdlib.h>
#include <string.h>
#include "uncore.h"
#include "select.h"
#include "access/access.h" /* UC_MAX_NODES */
#include "util/error.h"

/* The session's metric name, added when not there yet: its index, or -1. */
static int session_metric(uncore_session_t *s, const char *name)
{
	for (int m = 0; m < uncore_session_num_metrics(s); m++)
		if (!strcmp(uncore_session_metric_name(s, m), name))
			return m;
	return uncore_session_add_metric(s, name);
}

/* The series of node v's memory of the kind its metric info counts, read or written. */
static int node_series(uncore_t *u, uncore_session_t *s, const struct uncore_numa_node *v, int info,
		       struct uncore_series **series, int *n)
{
	struct uncore_metric_info mi;
	int m;
	if (uncore_metric_info(u, info, &mi) || (m = session_metric(s, mi.name)) < 0)
		return -1;
	struct uncore_series *ns = realloc(*series, (size_t)(*n + 1) * sizeof(*ns));
	if (!ns)
		return uc_err("out of memory");
	*series = ns;
	ns[(*n)++] = (struct uncore_series){ .metric = m, .info = info, .event = -1, .socket = v->socket,
					     .unit = mi.box_unit, .box = -1, .name = mi.name, .by_node = 1, .node = v->node };
	return 0;
}

double select_node_sums_ns(uncore_t *u, unsigned sockets)
{
	uncore_session_t *probe = NULL; /* the series as select_node_series makes them, on a session of their own */
	struct uncore_series *se = NULL;
	int n = 0;
	double ns = uncore_session_new(u, &probe) || select_node_series(u, probe, sockets, &se, &n) ? -1 :
		    uncore_estimate_node_sums_ns(u, se, n);
	free(se);
	uncore_session_free(probe);
	return ns;
}

int select_node_series(uncore_t *u, uncore_session_t *s, unsigned sockets, struct uncore_series **series, int *n)
{
	struct uncore_numa_node v[UC_MAX_NODES];
	int nn;
	/* a node's metric counts every socket, so with some sockets selected there are none; nor without a
	 * topology to map (a replayed snapshot keeps none) */
	if (sockets || (nn = uncore_numa_nodes(u, v, UC_MAX_NODES)) <= 0)
		return 0;
	for (int i = 0; i < nn && i < UC_MAX_NODES; i++) {
		if (v[i].refused || v[i].socket < 0) /* refused, or one node over several sockets (numa=off) */
			continue;
		for (int k = 0; k < 3; k++)
			for (int w = 0; w < 2; w++) {
				int info = uncore_metric_find(u, uncore_numa_bytes_metric(k, w));
				if (info < 0 || uncore_metric_here(u, info) <= 0 || uncore_numa_metric_serves(u, info, v[i].node) != 1)
					continue; /* no such memory here, or not of the node's kind */
				if (node_series(u, s, &v[i], info, series, n))
					return -1;
			}
	}
	return 0;
}
