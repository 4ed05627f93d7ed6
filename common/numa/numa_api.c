/* The NUMA map's public face (uncore.h): the nodes, and a metric's value summed over a node's channels. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "numa.h"
#include "handle/handle.h"
#include "session/session_priv.h"
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

/* The kind of node a memory unit's boxes serve (-1: none): HBM in cache mode serves the DDR node. */
static int unit_kind(uncore_t *u, const struct numa_map *m, int unit)
{
	struct uncore_unit_info ui;
	if (uncore_unit_info(u, unit, &ui))
		return -1;
	if (!strcmp(ui.name, "imc"))
		return UNCORE_NODE_DRAM;
	if (!strcmp(ui.name, "hbm"))
		return m->hbm_cache[0] ? UNCORE_NODE_DRAM : UNCORE_NODE_HBM;
	if (!strcmp(ui.name, "cxlcm") || !strcmp(ui.name, "cxldp"))
		return UNCORE_NODE_CXL;
	return -1;
}

int uncore_numa_metric_serves(uncore_t *u, int info, int node)
{
	struct numa_map *m = numa_map_get(u);
	struct uncore_metric_info mi;
	int kind;
	if (!m)
		return -1;
	if (uncore_metric_info(u, info, &mi))
		return uc_err("no metric %d", info);
	if (node < 0 || node >= m->n || m->v[node].pub.node < 0)
		return uc_err("no NUMA node %d (the kernel shows nodes 0..%d)", node, m->n - 1);
	if (mi.box_unit < 0 || (kind = unit_kind(u, m, mi.box_unit)) < 0)
		return uc_err("metric %s is not of memory channels: it has no value per NUMA node", mi.name);
	if (kind != m->v[node].pub.kind)
		return 0; /* another kind of memory than the node's */
	if (m->v[node].why[0])
		return uc_err("node %d: %s", node, m->v[node].why);
	return 1;
}

int uncore_session_node_value(uncore_session_t *s, int mi_idx, int node, int window, double *out)
{
	uncore_t *u = s->u;
	struct numa_map *m = numa_map_get(u);
	struct uncore_metric_info mi;
	double sum = 0;
	int any = 0, serves;
	*out = NAN;
	if (!m)
		return -1;
	if (mi_idx < 0 || mi_idx >= uncore_session_num_metrics(s) ||
	    uncore_metric_info(u, uncore_metric_find(u, uncore_session_metric_name(s, mi_idx)), &mi))
		return uc_err("no metric %d in the session", mi_idx);
	if ((serves = uncore_numa_metric_serves(u, uncore_metric_find(u, mi.name), node)) <= 0)
		return serves < 0 ? -1 : 1;
	for (int sock = 0; sock < uncore_num_sockets(u); sock++)
		for (int k = 0; (m->v[node].pub.socket < 0 || sock == m->v[node].pub.socket) &&
				k <  uncore_unit_boxes(u, mi.box_unit, sock); k++) {
			int box = uncore_box_number(u, mi.box_unit, sock, k), n = numa_box_node(u, m, mi.box_unit, sock, box), rc;
			double v;
			if (n == -2) { /* (the message copied: uc_err writes where uncore_error reads) */
				char why[512];
				snprintf(why, sizeof(why), "%s", uncore_error());
				return uc_err("node %d: %s", node, why);
			}
			if (n != node)
				continue;
			if ((rc = uncore_session_metric_value(s, mi_idx, sock, box, window, &v)))
				return rc;
			sum += v;
			any = 1;
		}
	if (!any)
		return 1;
	*out = sum;
	return 0;
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
