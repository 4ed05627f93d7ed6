/* The NUMA map's public face (uncore.h): the nodes, and a metric's value summed over a node's channels. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "numa.h"
#include "handle/handle.h"
#include "node/node.h"
#include "session/session_priv.h"
#include "metrics/metrics.h"
#include "util/error.h"

int uncore_numa_nodes(uncore_t *u, struct uncore_numa_node *out, int max)
{
	struct numa_map *m = numa_map_get(u);
	int k = 0;
	if (!m)
		return -1;
	for (int n = 0; n < m->n; n++)
		if (m->v[n].pub.node >= 0 && k++ < max && out)
			out[k - 1] = m->v[n].pub;
	return k;
}

const char *uncore_numa_source(uncore_t *u)
{
	struct numa_map *m = numa_map_get(u);
	return m ? m->source : NULL;
}

/* Whether metric mi, of its unit's boxes ub, has a value on node: as uncore_numa_metric_serves. */
static int serves(const struct numa_map *m, const struct uncore_metric_info *mi, const struct numa_unit_boxes *ub, int node)
{
	if (node < 0 || node >= m->n || m->v[node].pub.node < 0)
		return uc_err("no NUMA node %d (the kernel shows nodes 0..%d)", node, m->n - 1);
	if (!ub || ub->kind < 0)
		return uc_err("metric %s is not of memory channels (or of more than %d boxes): it has no value per NUMA node",
			      mi->name, NUMA_UNIT_BOXES);
	if (ub->kind != m->v[node].pub.kind)
		return 0; /* another kind of memory than the node's */
	if (m->v[node].why[0])
		return uc_err("node %d: %s", node, m->v[node].why);
	return 1;
}

/* A metric's name and unit under the handle's lock (as uncore_metric_info: api.c is above this folder) */
static int metric_info(uncore_t *u, int info, struct uncore_metric_info *mi)
{
	handle_lock(u);
	int rc = uncore_metric_info_impl(u, info, mi);
	handle_unlock(u);
	return rc;
}

int uncore_numa_metric_serves(uncore_t *u, int info, int node)
{
	struct numa_map *m = numa_map_get(u);
	struct uncore_metric_info mi;
	if (!m)
		return -1;
	if (metric_info(u, info, &mi))
		return uc_err("no metric %d", info);
	return serves(m, &mi, mi.box_unit < 0 ? NULL : numa_unit_table(m, mi.box_unit), node);
}

/* (under the handle's lock, api.c: the map and the session's values of one moment) */
int uncore_session_node_value_impl(uncore_session_t *s, int mi_idx, int node, int window, double *out)
{
	const struct numa_map *m = node_fact(s->u, NODE_NUMA); /* built at plan: a read builds nothing */
	const struct session_metric *sm = m ? session_metric_get(s, mi_idx) : NULL;
	int sk[NUMA_UNIT_BOXES], bx[NUMA_UNIT_BOXES], nb = 0, rc;
	*out = NAN;
	if (!m)
		return -1;
	if (!sm)
		return uc_err("no metric %d in the session", mi_idx);
	const struct uc_metric *mt = &s->u->metrics[sm->metric];
	const struct uncore_metric_info mi = { .name = mt->name, .box_unit = mt->type_idx };
	const struct numa_unit_boxes *ub = mi.box_unit < 0 ? NULL : numa_unit_table(m, mi.box_unit);
	if ((rc = serves(m, &mi, ub, node)) <= 0)
		return rc < 0 ? -1 : 1;
	for (int i = 0; i < ub->n; i++) {
		if (m->v[node].pub.socket >= 0 && ub->b[i].socket != m->v[node].pub.socket)
			continue; /* another socket's */
		if (ub->b[i].node == -2) { /* refused: the boxes before it summed first, then its reason again */
			if ((rc = session_metric_sum(s, mi_idx, sk, bx, nb, window, out)))
				return rc;
			*out = NAN;
			return uc_err("node %d: %s", node, ub->why[ub->b[i].socket]);
		}
		if (ub->b[i].node == node) {
			sk[nb] = ub->b[i].socket;
			bx[nb++] = ub->b[i].box;
		}
	}
	return nb ? session_metric_sum(s, mi_idx, sk, bx, nb, window, out) : 1;
}

double uncore_estimate_node_sums_ns(uncore_t *u, const struct uncore_series *series, int n)
{
	struct numa_map *m = numa_map_get(u);
	struct uncore_metric_info mi;
	int values = 0;
	for (int k = 0; k < n && m; k++) {
		const struct numa_unit_boxes *ub;
		if (!series[k].by_node || metric_info(u, series[k].info, &mi) || mi.box_unit < 0 ||
		    !(ub = numa_unit_table(m, mi.box_unit)))
			continue;
		for (int i = 0; i < ub->n; i++) /* the channels uncore_session_node_value sums */
			values += ub->b[i].node == series[k].node;
	}
	return (double)values * UNCORE_NODE_SUM_NS;
}

/* the bytes metrics of each kind of memory (UNCORE_NODE_*): read, write */
const char *uncore_numa_bytes_metric(int memory, int write)
{
	static const char *const names[3][2] = {
		{ "mem_read_bytes", "mem_write_bytes" }, { "hbm_read_bytes", "hbm_write_bytes" }, { "cxl_read_bytes", "cxl_write_bytes" },
	};
	return memory >= 0 && memory < 3 ? names[memory][!!write] : NULL;
}

const char *uncore_numa_kind_name(int kind)
{
	static const char *const names[] = { "ddr", "hbm", "cxl" };
	return kind >= 0 && kind < 3 ? names[kind] : "?";
}
