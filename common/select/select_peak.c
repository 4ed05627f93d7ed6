/*
 * The peak beyond a socket's (issue 91 point 4, doc/memory.md): a NUMA node's -- the iMC channels the NUMA map
 * gives it (numa.h: under SNC a socket's channels split over its domains by the platform's table; without SNC a
 * node is its socket) -- and, for the front ends, a session's DRAM bandwidth as a share of a socket's peak.  Among
 * the clients of the public calls (select/), since it reads the NUMA map, the population and a session.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memory/memory.h"
#include "numa/numa.h"
#include "handle/handle.h"
#include "session/session.h"
#include "session/session_priv.h"
#include "util/error.h"

int uncore_memory_node_peak(uncore_t *u, int node, double *bytes_per_s)
{
	const struct mem_pop *p = mem_pop_get(u);
	struct numa_map *m = p ? numa_map_get(u) : NULL;
	int unit = uncore_unit_find(u, "imc"), nboxes = 0;
	char why[1024];
	*bytes_per_s = 0;
	if (!m)
		return -1;
	if (node < 0 || node >= m->n || m->v[node].pub.node < 0)
		return uc_err("memory peak of NUMA node %d: no such node (the kernel shows nodes 0..%d)", node, m->n - 1);
	const struct numa_map_node *v = &m->v[node];
	if (v->pub.kind != UNCORE_NODE_DRAM)
		return uc_err("memory peak of NUMA node %d: its memory is %s, not DDR channels'", node,
			      uncore_numa_kind_name(v->pub.kind)), 1;
	if (unit < 0)
		return uc_err("memory peak of NUMA node %d: the platform has no iMC channel boxes", node), 1;
	if (v->why[0] && v->pub.ncpus > 0 && !v->pub.mem_bytes && v->pub.socket >= 0 && v->pub.socket < UC_MAX_SOCKETS) {
		/* CPUs and no memory (a BIOS that mapped the socket's DIMMs out, issue 98): 0, as the socket's peak is,
		 * where the population counts no DIMM of the socket either */
		int sock = v->pub.socket, boxes[MEM_MAX_BOXES], n = 0;
		double bps = -1;
		for (int k = 0; k < uncore_unit_boxes(u, unit, sock) && n < MEM_MAX_BOXES; k++)
			boxes[n++] = uncore_box_number(u, unit, sock, k);
		if (!mem_pop_peak(p, sock, boxes, n, &bps, why, sizeof(why)) && bps == 0)
			return 0;
	}
	if (v->why[0])
		return uc_err("memory peak of NUMA node %d: %s", node, v->why), 1;
	for (int sock = 0; sock < uncore_num_sockets(u) && sock < UC_MAX_SOCKETS; sock++) {
		int boxes[MEM_MAX_BOXES], n = 0;
		double bps;
		if (v->pub.socket >= 0 && sock != v->pub.socket)
			continue; /* (numa=off: one node of every socket's channels) */
		for (int k = 0; k < uncore_unit_boxes(u, unit, sock) && n < MEM_MAX_BOXES; k++) {
			int box = uncore_box_number(u, unit, sock, k), to = numa_box_node(m, unit, sock, box);
			if (to == -2) /* (its reason in uncore_error, copied before the next call writes it) */
				return snprintf(why, sizeof(why), "%s", uncore_error()),
				       uc_err("memory peak of NUMA node %d: %s", node, why), 1;
			if (to == node)
				boxes[n++] = box;
		}
		if (!n)
			continue;
		if (mem_pop_peak(p, sock, boxes, n, &bps, why, sizeof(why)))
			return *bytes_per_s = 0, uc_err("memory peak of NUMA node %d: %s", node, why), 1;
		*bytes_per_s += bps;
		nboxes += n;
	}
	if (!nboxes)
		return uc_err("memory peak of NUMA node %d: no iMC channel serves it", node), 1;
	return 0;
}

/* The session's metric named name, -1 where it has none. */
static int session_has(const uncore_session_t *s, const char *name)
{
	for (int m = 0; m < uncore_session_num_metrics(s); m++)
		if (!strcmp(uncore_session_metric_name(s, m), name))
			return m;
	return -1;
}

int uncore_session_add_peak_share(uncore_session_t *s, int socket)
{
	char spec[48];
	int have = socket < 0 ? session_has(s, "mem_bw_total") : -1, before = uncore_session_num_events(s), m;
	if (have >= 0)
		return have;
	/* mem_bw_total is mem_bw_read + mem_bw_write, CAS counts of the read and write metrics (platforms/<p>/
	 * metrics.json): added to a session counting both, on the same sockets, its events are theirs */
	if ((session_has(s, "mem_bw_read") < 0 && session_has(s, "mem_read_bytes") < 0) ||
	    (session_has(s, "mem_bw_write") < 0 && session_has(s, "mem_write_bytes") < 0) ||
	    uncore_metric_find(s->u, "mem_bw_total") < 0)
		return -1;
	snprintf(spec, sizeof(spec), socket < 0 ? "mem_bw_total" : "mem_bw_total:socket=%d", socket);
	if ((m = uncore_session_add_metric(s, spec)) < 0 || uncore_session_num_events(s) == before)
		return m;
	/* it took events of its own (the session counts DRAM bytes on other sockets, or by other events): taken
	 * back, the session as it was -- the share costs no counter */
	handle_lock(s->u);
	int *n;
	struct session_metric **list = session_metrics(s, &n);
	free((*list)[*n - 1].ev);
	(*n)--;
	session_truncate(s, before);
	handle_unlock(s->u);
	return uc_err("mem_bw_total%s: its events are not the session's own", socket < 0 ? "" : " of one socket"), -1;
}

/* The node's share: each socket's bytes over the node's peak (its sockets' summed), a socket of no DIMM adding
 * neither; unknown where a socket's peak is. */
static int node_share(uncore_session_t *s, int m, int window, double *share)
{
	const uncore_t *u = s->u;
	double sum = 0, peak = 0, sh;
	for (int k = 0; k < u->host.nsockets && k < UC_MAX_SOCKETS; k++) {
		double p = u->mem_peak_set ? u->mem_peak_socket[k] : NAN;
		if (!(p > 0) && !isnan(p))
			continue;
		int rc = uncore_session_peak_share(s, m, k, window, &sh);
		if (rc)
			return rc;
		sum += sh * p;
		peak += p;
	}
	if (!(peak > 0))
		return uc_err("memory peak of the node: no channel of any socket holds a DIMM"), 1;
	*share = sum / peak;
	return 0;
}

int uncore_session_peak_share(uncore_session_t *s, int m, int socket, int window, double *share)
{
	const uncore_t *u = s->u;
	struct uncore_metric_info mi;
	double v = NAN;
	int rc;
	*share = NAN;
	if (socket == -1)
		return node_share(s, m, window, share);
	/* the socket's peak as the population handed it down when the front end planned (handle.h mem_peak) */
	if (socket < 0 || socket >= u->host.nsockets || socket >= UC_MAX_SOCKETS)
		return uc_err("memory peak of socket %d: the machine has %d", socket, u->host.nsockets);
	if (!u->mem_peak_set)
		return uc_err("memory peak of socket %d: the memory population was not built when the front end "
			      "planned (uncore_node_build)", socket), 1;
	double peak = u->mem_peak_socket[socket];
	if (isnan(peak))
		return uc_err("memory peak of socket %d: %s", socket, u->mem_peak_why[socket]), 1;
	if (!(peak > 0))
		return uc_err("memory peak of socket %d: no channel holds a DIMM", socket), 1;
	const char *name = uncore_session_metric_name(s, m);
	if (!name || uncore_metric_info(s->u, uncore_metric_find(s->u, name), &mi) || !(mi.scale > 0))
		return uc_err("session metric %d: not a bandwidth (uncore_session_add_peak_share gives it)", m);
	if ((rc = uncore_session_metric_value(s, m, socket, -1, window, &v)))
		return rc;
	if (!isfinite(v))
		return uc_err("socket %d's DRAM bandwidth: no value yet", socket), 1;
	*share = v / mi.scale / peak; /* (mem_bw_total in its scale, 1e-9GB/s: into B/s) */
	return 0;
}
