/* The NUMA map's public face (uncore.h): the nodes, and a metric's value summed over a node's channels. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "numa.h"
#include "handle/handle.h"
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

/* The boxes of a memory unit with the node each serves, found once; NULL for a unit that is no memory, or one of
 * more boxes than the cache holds. */
static const struct numa_unit_boxes *unit_boxes(uncore_t *u, struct numa_map *m, int unit)
{
	struct numa_unit_boxes *c = NULL;
	for (int i = 0; i < 4 && !c; i++)
		if (m->ub[i].found && m->ub[i].unit == unit)
			return &m->ub[i];
		else if (!m->ub[i].found)
			c = &m->ub[i];
	int n = 0, kind = unit_kind(u, m, unit);
	if (!c || kind < 0) /* (four kinds of memory unit at most: imc, hbm, cxlcm, cxldp) */
		return NULL;
	for (int sock = 0; sock < uncore_num_sockets(u); sock++)
		for (int k = 0; k < uncore_unit_boxes(u, unit, sock); k++, n++) {
			int box = uncore_box_number(u, unit, sock, k);
			if (n >= NUMA_UNIT_BOXES || box > SHRT_MAX)
				return NULL;
			c->b[n].socket = (short)sock;
			c->b[n].box = (short)box;
			c->b[n].node = (short)numa_box_node(u, m, unit, sock, box);
		}
	c->kind = kind;
	c->unit = unit;
	c->n = n;
	c->found = 1;
	return c;
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

int uncore_numa_metric_serves(uncore_t *u, int info, int node)
{
	struct numa_map *m = numa_map_get(u);
	struct uncore_metric_info mi;
	if (!m)
		return -1;
	if (uncore_metric_info(u, info, &mi))
		return uc_err("no metric %d", info);
	return serves(m, &mi, mi.box_unit < 0 ? NULL : unit_boxes(u, m, mi.box_unit), node);
}

/* Session metric mi_idx's name and unit, from the metric it binds (not looked up again by its name: a node's sum
 * is called for every node series at every read). */
static int session_metric_info(uncore_session_t *s, int mi_idx, struct uncore_metric_info *mi)
{
	handle_lock(s->u);
	const struct session_metric *sm = session_metric_get(s, mi_idx);
	if (sm)
		*mi = (struct uncore_metric_info){ .name = s->u->metrics[sm->metric].name,
						   .box_unit = s->u->metrics[sm->metric].type_idx };
	handle_unlock(s->u);
	return sm ? 0 : -1;
}

/* The node's boxes' values summed (session_metric_sum), under the handle's lock as a value of each. */
static int node_sum(uncore_session_t *s, int mi_idx, const int *sk, const int *bx, int nb, int window, double *out)
{
	handle_lock(s->u);
	int rc = session_metric_sum(s, mi_idx, sk, bx, nb, window, out);
	handle_unlock(s->u);
	return rc;
}

int uncore_session_node_value(uncore_session_t *s, int mi_idx, int node, int window, double *out)
{
	uncore_t *u = s->u;
	struct numa_map *m = numa_map_get(u);
	const struct numa_unit_boxes *ub;
	struct uncore_metric_info mi;
	int sk[NUMA_UNIT_BOXES], bx[NUMA_UNIT_BOXES], nb = 0, rc;
	*out = NAN;
	if (!m)
		return -1;
	if (session_metric_info(s, mi_idx, &mi))
		return uc_err("no metric %d in the session", mi_idx);
	ub = mi.box_unit < 0 ? NULL : unit_boxes(u, m, mi.box_unit);
	if ((rc = serves(m, &mi, ub, node)) <= 0)
		return rc < 0 ? -1 : 1;
	for (int i = 0; i < ub->n; i++) {
		if (m->v[node].pub.socket >= 0 && ub->b[i].socket != m->v[node].pub.socket)
			continue; /* another socket's */
		if (ub->b[i].node == -2) { /* refused: the boxes before it summed first, then its reason again (the
					     * message copied: uc_err writes where uncore_error reads) */
			char why[512];
			if ((rc = node_sum(s, mi_idx, sk, bx, nb, window, out)))
				return rc;
			numa_box_node(u, m, mi.box_unit, ub->b[i].socket, ub->b[i].box);
			snprintf(why, sizeof(why), "%s", uncore_error());
			*out = NAN;
			return uc_err("node %d: %s", node, why);
		}
		if (ub->b[i].node == node) {
			sk[nb] = ub->b[i].socket;
			bx[nb++] = ub->b[i].box;
		}
	}
	if (!nb)
		return 1;
	return node_sum(s, mi_idx, sk, bx, nb, window, out);
}

double uncore_estimate_node_sums_ns(uncore_t *u, const struct uncore_series *series, int n)
{
	struct numa_map *m = numa_map_get(u);
	struct uncore_metric_info mi;
	int values = 0;
	for (int k = 0; k < n && m; k++) {
		const struct numa_unit_boxes *ub;
		if (!series[k].by_node || uncore_metric_info(u, series[k].info, &mi) || mi.box_unit < 0 ||
		    !(ub = unit_boxes(u, m, mi.box_unit)))
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
