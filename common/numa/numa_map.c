/*
 * The channel-to-node map: the kernel's nodes (numa_topo.c) placed on sockets and SNC domains, each domain's
 * iMC channels from the platform's geometry (its descriptor's snc tables), HBM and CXL memory as the memory-only nodes nearest
 * their socket's CPUs.  A node is refused, with why, where the two do not fit: a socket whose nodes with CPUs
 * are not the SNC domains its L3 says (Linux 6.12's test, resctrl snc_get_config: the L3's CPUs over a node's;
 * Linux 7.0 counts the package's nodes, which is k here, so both must agree), a domain no public table
 * places channels in, a node with CPUs but no memory, a memory-only node of no known kind or several of one
 * kind where the channels of each are not known.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "numa.h"
#include <unistd.h>
#include "handle/handle.h"
#include "node/node.h"
#include "access/access.h"
#include "util/error.h"

static void refuse(struct numa_map_node *v, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void refuse(struct numa_map_node *v, const char *fmt, ...)
{
	va_list ap;
	if (v->why[0])
		return; /* the first reason stands */
	va_start(ap, fmt);
	vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
	v->pub.refused = v->why;
}

static int unit_named(const uncore_t *u, const char *name)
{
	for (int i = 0; i < uncore_num_units(u); i++) {
		struct uncore_unit_info ui;
		if (!uncore_unit_info(u, i, &ui) && !strcmp(ui.name, name))
			return i;
	}
	return -1;
}

static int boxes_of(const uncore_t *u, const char *unit, int socket)
{
	int k = unit_named(u, unit);
	return k < 0 ? 0 : uncore_unit_boxes(u, k, socket);
}

/* A socket's nodes with CPUs, in the order of their first CPU: the domains 0.. */
static int socket_nodes(const struct numa_topo *t, int socket, int *list)
{
	int k = 0;
	for (int n = 0; n < t->n; n++)
		if (t->node[n].present && t->node[n].ncpus && t->node[n].socket == socket) {
			int i = k++;
			for (; i > 0 && t->node[list[i - 1]].first_cpu > t->node[n].first_cpu; i--)
				list[i] = list[i - 1];
			list[i] = n;
		}
	return k;
}

int numa_geom_domain(const struct platform_desc *p, int snc, int box, const char **source, char *why, size_t len)
{
	for (const struct snc_geom *g = p ? p->snc : NULL; g && g->snc && box >= 0; g++)
		if (g->snc == snc) {
			*source = g->source;
			return g->dom[box % g->period];
		}
	snprintf(why, len, "no public table says which memory channels serve which domain of SNC%d on %s (perf's "
		 "tools/perf/arch/x86/util/pmu.c has none for it)", snc, p ? p->name : "this platform");
	return -1;
}

static void place_cpu_nodes(uncore_t *u, struct numa_map *m, const struct numa_topo *t, int s)
{
	int list[UC_MAX_NODES], k = socket_nodes(t, s, list), l3 = t->l3_cpus[s];
	int per = k ? t->node[list[0]].ncpus : 0, seen = l3 && per ? l3 / per : 0;
	const char *plat = u->plat->name, *src = NULL;
	char why[256] = "";
	m->snc[s] = 1;
	if (k > 1 && seen == k)
		m->snc[s] = k;
	else if (k > 1 && seen == 1 && k == uncore_socket_dies(u, s))
		m->by_die[s] = 1;
	else if (k > 1)
		snprintf(why, sizeof(why), "socket %d has %d nodes with CPUs, but its L3 is shared by %d CPUs, %s a node's "
			 "%d: SNC%s as Linux 6.12's resctrl snc_get_config tells it, so which node a channel serves "
			 "cannot be told", s, k, l3, seen == 1 ? "as many as" : "not a whole number of times", per,
			 seen == 1 ? " is off" : " is unknown");
	if (m->snc[s] > 1)
		snprintf(m->source, sizeof(m->source), "SNC%d of %s: %s", m->snc[s], plat,
			 numa_geom_domain(u->plat, m->snc[s], 0, &src, why, sizeof(why)) >= 0 ? src : "no public table (refused)");
	for (int d = 0; d < k && d < UC_MAX_DIES; d++) {
		struct numa_map_node *v = &m->v[list[d]];
		for (int c = 0; m->snc[s] > 1 && c < UC_MAX_CPUS; c++)
			if (t->cpu_node[c] == list[d])
				m->cpu_domain[c] = (int8_t)d;
		m->ddr[s][d] = list[d];
		v->pub.socket = s;
		v->pub.domain = d;
		v->pub.snc = m->snc[s];
		if (why[0])
			refuse(v, "%s", why);
		if (!t->node[list[d]].mem_bytes)
			refuse(v, "node %d has CPUs but no memory blocks (/sys/devices/system/node/node%d/memory*): the map's "
			       "channels serve no memory of it", list[d], list[d]);
	}
}

/* A memory-only node: HBM or CXL memory of the socket whose CPU node is nearest (the SLIT's distances). */
static void place_memory_node(uncore_t *u, struct numa_map *m, const struct numa_topo *t, int n)
{
	struct numa_map_node *v = &m->v[n];
	int best = -1, tie = 0, s, d;
	for (int c = 0; c < t->n; c++)
		if (t->node[c].present && t->node[c].ncpus && t->node[n].dist[c] > 0) {
			if (best < 0 || t->node[n].dist[c] < t->node[n].dist[best])
				best = c, tie = 0;
			else if (t->node[n].dist[c] == t->node[n].dist[best] && t->node[c].socket != t->node[best].socket)
				tie = 1;
		}
	if (best < 0 || tie || t->node[best].socket < 0) {
		refuse(v, "memory-only node %d is nearest no one socket's CPUs (nodeX/distance): its socket is unknown", n);
		return;
	}
	s = v->pub.socket = t->node[best].socket;
	d = v->pub.domain = m->v[best].pub.domain;
	v->pub.snc = m->snc[s];
	if (boxes_of(u, "hbm", s)) {
		v->pub.kind = UNCORE_NODE_HBM;
		if (m->hbm[s][d] >= 0) {
			refuse(v, "socket %d has two HBM nodes nearest node %d", s, best);
			refuse(&m->v[m->hbm[s][d]], "socket %d has two HBM nodes nearest node %d", s, best);
		}
		m->hbm[s][d] = n;
		if (m->snc[s] > 1)
			refuse(v, "which HBM channels serve which of socket %d's %d HBM nodes (SNC%d) is in no public table", s,
			       m->snc[s], m->snc[s]);
	} else if (boxes_of(u, "cxlcm", s)) {
		v->pub.kind = UNCORE_NODE_CXL;
		if (m->cxl[s] >= 0) {
			refuse(v, "socket %d has several CXL memory nodes: which ports serve which is not known", s);
			refuse(&m->v[m->cxl[s]], "socket %d has several CXL memory nodes: which ports serve which is not known", s);
		}
		m->cxl[s] = n;
	} else
		refuse(v, "memory-only node %d of socket %d: neither HBM nor CXL memory is counted there", n, s);
}

static int build(uncore_t *u, struct numa_map *m, const struct dev_fs *fs)
{
	struct numa_topo *t = malloc(sizeof(*t));
	int list[UC_MAX_NODES];
	if (!t)
		return uc_err("out of memory");
	if (numa_topo_read(fs, &u->host, t))
		return free(t), -1;
	memset(m->ddr, -1, sizeof(m->ddr));
	memset(m->hbm, -1, sizeof(m->hbm));
	memset(m->cxl, -1, sizeof(m->cxl));
	m->n = t->n;
	snprintf(m->source, sizeof(m->source), "SNC off: a socket's channels serve its node");
	for (int n = 0; n < t->n; n++) {
		struct numa_map_node *v = &m->v[n];
		v->pub = (struct uncore_numa_node){ .node = t->node[n].present ? n : -1, .socket = -1, .kind = UNCORE_NODE_DRAM,
						    .snc = 1, .ncpus = t->node[n].ncpus, .mem_bytes = t->node[n].mem_bytes };
	}
	/* one node with every CPU (numa=off): every channel of every socket serves it */
	if (socket_nodes(t, -2, list) == 1) {
		for (int s = 0; s < u->host.nsockets; s++)
			m->ddr[s][0] = list[0], m->snc[s] = 1;
		m->v[list[0]].pub.domain = 0;
	} else
		for (int s = 0; s < u->host.nsockets; s++)
			place_cpu_nodes(u, m, t, s);
	for (int n = 0; n < t->n; n++)
		if (t->node[n].present && !t->node[n].ncpus)
			place_memory_node(u, m, t, n);
	for (int s = 0; s < u->host.nsockets; s++) /* HBM as a memory-side cache: its channels serve the DDR node */
		m->hbm_cache[s] = boxes_of(u, "hbm", s) && m->hbm[s][0] < 0;
	free(t);
	return 0;
}

static void release(void *m) { free(m); }

/* The node box box of memory unit name serves, from the map: >= 0; -2 refused, with why. */
static int box_node(uncore_t *u, const struct numa_map *m, const char *name, int unit, int socket, int box, char *why,
		    size_t len)
{
	const char *src;
	int d = 0, node = -1;
	if (!strcmp(name, "imc")) {
		int die = m->by_die[socket] ? uncore_box_die(u, unit, socket, box) : 0;
		if (die > 0)
			d = die;
		else if (!m->by_die[socket] && m->snc[socket] > 1 &&
			 (d = numa_geom_domain(u->plat, m->snc[socket], box, &src, why, len)) < 0)
			return -2;
		node = d < UC_MAX_DIES ? m->ddr[socket][d] : -1;
	} else if (!strcmp(name, "hbm")) {
		if (m->hbm_cache[socket] && m->snc[socket] > 1)
			return snprintf(why, len, "HBM caches DDR here (cache mode): which HBM channels cache which of socket "
					"%d's %d SNC nodes is in no public table", socket, m->snc[socket]), -2;
		node = m->hbm_cache[socket] ? m->ddr[socket][0] : m->hbm[socket][0];
	} else
		node = m->cxl[socket];
	if (node < 0)
		return snprintf(why, len, "%s %d of socket %d serves no node the kernel shows", name, box, socket), -2;
	return node;
}

/* Each memory unit's boxes, every socket's, with the node each serves: the table a node's sum indexes. */
static void unit_tables(uncore_t *u, struct numa_map *m)
{
	static const char *const names[NUMA_UNITS] = { "imc", "hbm", "cxlcm", "cxldp" };
	for (int k = 0; k < NUMA_UNITS; k++) {
		struct numa_unit_boxes *c = &m->ub[m->nub];
		int unit = unit_named(u, names[k]), n = 0;
		if (unit < 0)
			continue;
		memset(c, 0, sizeof(*c));
		c->unit = unit;
		/* HBM in cache mode serves the DDR node */
		c->kind = k == 0 || (k == 1 && m->hbm_cache[0]) ? UNCORE_NODE_DRAM : k == 1 ? UNCORE_NODE_HBM : UNCORE_NODE_CXL;
		for (int sock = 0; sock < uncore_num_sockets(u) && sock < UC_MAX_SOCKETS; sock++)
			for (int i = 0; i < uncore_unit_boxes(u, unit, sock); i++, n++) {
				int box = uncore_box_number(u, unit, sock, i);
				char why[256];
				if (n >= NUMA_UNIT_BOXES || box > SHRT_MAX)
					goto next;
				c->b[n].socket = (short)sock;
				c->b[n].box = (short)box;
				c->b[n].node = (short)box_node(u, m, names[k], unit, sock, box, why, sizeof(why));
				if (c->b[n].node == -2 && !c->why[sock][0])
					snprintf(c->why[sock], sizeof(c->why[sock]), "%s", why);
			}
		c->n = n;
		m->nub++;
	next:;
	}
}

/* The map, from the node's files: NULL with the reason */
static struct numa_map *make(uncore_t *u)
{
	struct dev_fs fs = { 0 };
	struct numa_map *m;
	const char *why;
	if (access_files(u->acc, &fs.mem)) /* a simulated machine's own files, a replayed node's */
		return NULL;
	/* replay: and perf+replay: a snapshot taken before snapshots kept the node's memory (numa_capture.c) */
	if ((why = dev_fs_unknown(&fs, "/sys/devices/system/memory")))
		return uc_err("%s", why), NULL;
	if (!(m = calloc(1, sizeof(*m))))
		return uc_err("out of memory"), NULL;
	if (build(u, m, &fs))
		return free(m), NULL;
	unit_tables(u, m);
	return m;
}

int numa_map_build(uncore_t *u)
{
	struct node_slot *s = node_slot(u, NODE_NUMA);
	if (s && !s->state) { /* built once, kept by the node (node.h) */
		s->fact = make(u);
		s->release = release;
		node_built(u, s, NODE_NUMA, s->fact ? 0 : -1);
	}
	return 0;
}

struct numa_map *numa_map_get(uncore_t *u)
{
	numa_map_build(u);
	return node_fact(u, NODE_NUMA);
}

const struct numa_unit_boxes *numa_unit_table(const struct numa_map *m, int unit)
{
	for (int i = 0; i < m->nub; i++)
		if (m->ub[i].unit == unit)
			return &m->ub[i];
	return NULL;
}

int numa_box_node(const struct numa_map *m, int unit, int socket, int box)
{
	const struct numa_unit_boxes *c = numa_unit_table(m, unit);
	for (int i = 0; c && i < c->n; i++)
		if (c->b[i].socket == socket && c->b[i].box == box)
			return c->b[i].node == -2 ? uc_err("%s", c->why[socket]), -2 : c->b[i].node;
	return -1;
}
