/*
 * The devices grouped by IIO stack and root port: a stack's root bus holds its root ports (bridges) and
 * the stack's own functions; everything below a root port, through any switch, is that port's group.  A
 * group is never split: the port's counters count its devices together.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dev_map.h"
#include "dev_files.h"
#include "handle/handle.h"
#include "node/node.h"
#include "platform/platform.h"
#include "util/error.h"
#include "util/memfs_text.h"

struct dev_group {
	struct uncore_device_group pub;
	int *dev; /* indexes into the tree */
};
struct dev_map {
	struct dev_tree t;
	struct dev_group *g;
	int ng; /* the groups, once found (get) */
};

/* The groups let go (a map being built again, or freed) */
static void unbuild(struct dev_map *m)
{
	for (int i = 0; i < m->ng; i++)
		free(m->g[i].dev);
	free(m->g);
	free(m->t.v);
	m->g = NULL, m->t.v = NULL, m->ng = m->t.n = m->t.cap = 0;
}

static void map_free(void *p)
{
	struct dev_map *m = p;
	if (!m)
		return;
	unbuild(m);
	free(m);
}

/* The handle's map, kept by its node (node/node.h), its groups maybe not yet found: NULL out of memory (said) */
static struct dev_map *holder(uncore_t *u, struct node_slot **sp)
{
	struct node_slot *s = node_slot(u, NODE_DEVICES);
	if (!s)
		return NULL;
	if (!s->fact) {
		if (!(s->fact = calloc(1, sizeof(struct dev_map)))) {
			uc_err("out of memory");
			return NULL;
		}
		s->release = map_free;
	}
	if (sp)
		*sp = s;
	return s->fact;
}

/* The function on the root bus that i is below (itself when it is there); -1 past a loop in the parents */
static int top_of(const struct dev_tree *t, int i)
{
	for (int hops = 0; t->v[i].parent >= 0; hops++) {
		if (hops > DEV_MAX_DEPTH)
			return -1;
		i = t->v[i].parent;
	}
	return i;
}

static struct dev_group *new_group(struct dev_map *m)
{
	struct dev_group *g = realloc(m->g, (size_t)(m->ng + 1) * sizeof(*g));
	if (!g)
		return NULL;
	m->g = g;
	memset(&g[m->ng], 0, sizeof(*g));
	g[m->ng].pub.behind = "";
	return &g[m->ng++];
}

/* The endpoints below top (bridges apart) into g; placed marks them taken.  A bridge right below the root port
 * top says what holds them (dev_bridge.c): a switch where any such bridge is one, else the bridge's kind. */
static int fill(const struct dev_fs *fs, struct dev_map *m, struct dev_group *g, int top, char *placed)
{
	const struct dev_tree *t = &m->t;
	g->dev = calloc((size_t)t->n + 1, sizeof(int));
	if (!g->dev)
		return -1;
	for (int i = 0; i < t->n; i++) {
		if (placed[i] || top_of(t, i) != top)
			continue;
		if (t->v[i].bridge) {
			const char *k = i == top || t->v[i].parent != top ? NULL : dev_bridge_kind(fs, t, i);
			if (k && (!*g->pub.behind || k == DEV_BEHIND_SWITCH || g->pub.behind == DEV_BEHIND_BRIDGE))
				g->pub.behind = k;
			g->pub.behind_switch = g->pub.behind == DEV_BEHIND_SWITCH;
			continue;
		}
		placed[i] = 1;
		g->dev[g->pub.ndevices++] = i;
	}
	return 0;
}

/* An uncore register function on a root bus: read for the stacks' buses (dev_regs.c) or the uncore's own
 * configuration, they move no data of their own: no group of the map.  Ice Lake-SP's Mesh2IIO MMAP/SAD
 * function of each stack (8086:09a2, Linux 6.12 uncore_snbep.c SNR_ICX_MESH2IIO_MMAP_DID), the MSM (8086:09a6,
 * pcm src/types.h SPR_MSM_DEV_ID) and Sapphire Rapids' PCU CR3 (8086:325b, pcm-iio-topology.cpp
 * SPR_PCU_CR3_DID), of class 0x0880 (PCI_CLASS_SYSTEM_OTHER, pci_ids.h), and the platform's own list
 * (platform_desc.own_fns) by id, whatever their class (Skylake-SP's UBox 0x2015 is 0x1101, its IOAPIC 0x0800,
 * its DMI3 registers 0x0600: platforms/skx/board.c).  Other functions of that class stay, as they move data through their stack:
 * the data streaming and analytics accelerators (DSA 8086:0b25, IAA 0cfe: pci_ids.h PCI_DEVICE_ID_INTEL_DSA_SPR0,
 * PCI_DEVICE_ID_INTEL_IAX_SPR0) are 0x0880 too, as is Skylake-SP's CBDMA (0x2021, ioatdma). */
static int uncore_function(const struct platform_desc *pl, const struct dev_node *n)
{
	if (n->parent >= 0 || n->d.vendor != 0x8086 || n->bridge)
		return 0;
	if (n->d.class_code >= 0 && (n->d.class_code >> 8) == 0x0880 &&
	    (n->d.device == DEV_ICX_SAD_DID || n->d.device == DEV_MSM_DID || n->d.device == DEV_SPR_PCU_CR3_DID))
		return 1;
	for (const struct pci_id_range *r = pl ? pl->own_fns : NULL; r && r->hi; r++)
		if (n->d.device >= r->lo && n->d.device <= r->hi)
			return 1;
	return 0;
}

/* The counter port of a function on stack st's root bus that is its own port's, no root port above it: an
 * accelerator stack's DSA, IAA, QAT, DLB, or a DMI stack's DMA engine (dev_ports.c); -1 for any other */
static int endpoint_port(uncore_t *u, const struct dev_stack *st, const struct dev_node *n)
{
	if (st->hc)
		return dev_accel_port(&u->host, st->hc - 1, n->d.vendor, n->dev, n->fn);
	return dev_cbdma_port(&u->host, st->stack, n->d.vendor, n->dev);
}

static int by_stack(const void *a, const void *b)
{
	const struct dev_stack *x = a, *y = b;
	return x->socket != y->socket ? x->socket - y->socket : x->die != y->die ? x->die - y->die : x->stack - y->stack;
}

static int build(uncore_t *u, struct dev_map *m, struct memfs *rec)
{
	struct dev_fs fs;
	struct dev_stack *st = NULL;
	char *placed = NULL;
	int rc = -1, nst;
	if (dev_fs_of(u, &fs))
		return -1;
	fs.rec = rec;
	if (dev_walk(&fs, &m->t) || (nst = dev_stacks(u, &fs, &m->t, &st)) < 0)
		goto out;
	if (nst > 1)
		qsort(st, (size_t)nst, sizeof(*st), by_stack);
	if (!(placed = calloc((size_t)m->t.n + 1, 1))) {
		uc_err("out of memory grouping the PCI devices");
		goto out;
	}
	/* the CPU's platform: a handle opened for its topology alone has none of its own (no_uncore) */
	const struct platform_desc *pl = u->plat && u->plat->own_fns ? u->plat :
					 strcmp(u->host.vendor, "GenuineIntel") ? NULL :
					 platform_by_cpu(u->host.family, u->host.model, u->host.stepping);
	for (int i = 0; i < m->t.n; i++)
		placed[i] = (char)uncore_function(pl, &m->t.v[i]); /* in the tree, in no group */
	for (int k = 0; k < nst; k++) {
		/* root ports, then an accelerator stack's endpoints that have a counter port, then the stack's own
		 * functions */
		for (int pass = 0; pass < 3; pass++)
			for (int i = 0; i < m->t.n; i++) {
				const struct dev_node *n = &m->t.v[i];
				int ap = -1;
				if (n->parent >= 0 || n->root_dom != st[k].dom || n->root_bus != st[k].bus || placed[i] ||
				    n->bridge != !pass)
					continue;
				if (pass == 1 && (ap = endpoint_port(u, &st[k], n)) < 0)
					continue;
				struct dev_group *g = new_group(m);
				if (!g || fill(&fs, m, g, pass == 2 ? -2 : i, placed)) {
					uc_err("out of memory grouping the PCI devices");
					goto out;
				}
				g->pub.socket = st[k].socket, g->pub.die = st[k].die, g->pub.stack = st[k].stack;
				g->pub.source = st[k].source;
				snprintf(g->pub.root_bus, sizeof(g->pub.root_bus), "%04x:%02x", st[k].dom, st[k].bus);
				g->pub.port_why = "";
				int dmi = dev_dmi_port(&u->host, st[k].stack, st[k].dom, st[k].bus);
				if (!pass) { /* the counter port of its device number (dev_ports.c) */
					g->pub.port = dmi >= 0 ? dmi : dev_counter_port(&u->host, n->dev, n->fn,
												  &g->pub.port_why);
					snprintf(g->pub.root_port, sizeof(g->pub.root_port), "%s", n->d.bdf);
				} else if (pass == 1) { /* an endpoint with a port of its own (dev_ports.c), with the other
							 * functions of its device at that port: the CBDMA's eight engines one group */
					g->pub.port = ap;
					snprintf(g->pub.root_port, sizeof(g->pub.root_port), "%s", n->d.bdf);
					for (int j = i + 1; j < m->t.n; j++) {
						const struct dev_node *o = &m->t.v[j];
						if (!placed[j] && o->parent < 0 && !o->bridge && o->root_dom == n->root_dom &&
						    o->root_bus == n->root_bus && o->dev == n->dev && endpoint_port(u, &st[k], o) == ap) {
							placed[j] = 1;
							g->dev[g->pub.ndevices++] = j;
						}
					}
				} else { /* one group of the stack's own functions: add them all (on a DMI stack its port's) */
					g->pub.port = dmi;
					if (dmi >= 0)
						snprintf(g->pub.root_port, sizeof(g->pub.root_port), "%04x:%02x:00.0", st[k].dom,
							 st[k].bus);
					for (int j = i; j < m->t.n; j++)
						if (!placed[j] && m->t.v[j].parent < 0 && !m->t.v[j].bridge &&
						    m->t.v[j].root_dom == st[k].dom && m->t.v[j].root_bus == st[k].bus) {
							placed[j] = 1;
							g->dev[g->pub.ndevices++] = j;
						}
					break;
				}
			}
	}
	/* what no counted stack holds: one group, so that nothing is dropped */
	int rest = 0;
	for (int i = 0; i < m->t.n; i++)
		rest += !placed[i] && !m->t.v[i].bridge;
	if (rest) {
		struct dev_group *g = new_group(m);
		if (!g || !(g->dev = calloc((size_t)rest, sizeof(int)))) {
			uc_err("out of memory grouping the PCI devices");
			goto out;
		}
		g->pub.socket = g->pub.die = g->pub.stack = g->pub.port = -1;
		g->pub.source = g->pub.port_why = "";
		for (int i = 0; i < m->t.n; i++)
			if (!placed[i] && !m->t.v[i].bridge)
				g->dev[g->pub.ndevices++] = i;
	}
	rc = fs.rec_failed ? uc_err("out of memory keeping the device tree") : 0;
out:
	free(placed);
	free(st);
	return rc;
}

/* The map with its groups, built once: a build that failed is not tried again at each read (node_ready says why) */
static struct dev_map *get(uncore_t *u)
{
	struct node_slot *s = NULL;
	struct dev_map *m = holder(u, &s);
	int ready = m ? node_ready(s) : -1;
	if (!ready) {
		ready = build(u, m, NULL) ? -1 : 1;
		if (ready < 0)
			unbuild(m);
		node_built(u, s, NODE_DEVICES, ready < 0);
	}
	return ready > 0 ? m : NULL;
}

int dev_map_build(uncore_t *u)
{
	get(u); /* (a failure kept with its reason) */
	return 0;
}

int dev_map_capture(uncore_t *u, char **text, size_t *len)
{
	struct memfs rec = { 0 };
	struct dev_map *m = calloc(1, sizeof(*m));
	int rc = !m ? uc_err("out of memory") : build(u, m, &rec) ? -1 : memfs_text(&rec, text, len);
	map_free(m);
	memfs_free(&rec);
	return rc;
}

int uncore_num_device_groups(uncore_t *u)
{
	struct dev_map *m = get(u);
	return m ? m->ng : -1;
}

int uncore_device_group_info(uncore_t *u, int group, struct uncore_device_group *out)
{
	struct dev_map *m = get(u);
	if (!m || group < 0 || group >= m->ng)
		return m ? uc_err("no device group %d (there are %d)", group, m->ng) : -1;
	*out = m->g[group].pub;
	return 0;
}

int uncore_device_info(uncore_t *u, int group, int i, struct uncore_device *out)
{
	struct dev_map *m = get(u);
	if (!m || group < 0 || group >= m->ng || i < 0 || i >= m->g[group].pub.ndevices)
		return m ? uc_err("no device %d in device group %d", i, group) : -1;
	*out = m->t.v[m->g[group].dev[i]].d;
	return 0;
}

int dev_map_dir(uncore_t *u, int group, int i, char *buf, size_t len)
{
	struct dev_map *m = get(u);
	if (!m || group < 0 || group >= m->ng || i < 0 || i >= m->g[group].pub.ndevices)
		return -1;
	const struct dev_tree *t = &m->t;
	int chain[DEV_MAX_DEPTH + 1], n = 0, at = m->g[group].dev[i];
	do /* up from the device (an index of the tree) to its root bus */
		chain[n++] = at;
	while ((at = t->v[at].parent) >= 0 && n <= DEV_MAX_DEPTH);
	if (at >= 0)
		return -1;
	size_t k = (size_t)snprintf(buf, len, "/sys/devices/pci%04x:%02x", t->v[chain[0]].root_dom, t->v[chain[0]].root_bus);
	while (n-- > 0 && k < len)
		k += (size_t)snprintf(buf + k, len - k, "/%s", t->v[chain[n]].d.bdf);
	return k < len ? 0 : -1;
}
