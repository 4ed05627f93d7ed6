/*
 * Which die a PCI discovery table serves.  Linux 6.12 (uncore_discovery.c intel_uncore_has_discovery_tables,
 * get_device_die_id) places a table by its device's NUMA node: the logical die of the first online CPU of
 * that node (uncore.c uncore_device_to_die), no die when the node has no online CPU -- the table is skipped,
 * as is one whose die is beyond uncore_max_dies() (7b568e9eba2f, in 6.12.y too).  A device without a node
 * (NUMA_NO_NODE: numa=off, firmware without proximity data) gets the next die in the order the tables are
 * found (logical_die_id++).  SPR and EMR read the same tables; Linux maps their buses through the UBox
 * (spr_uncore_pci_init) only for the UPI/M3UPI replacement and the iMC free-running counters, never for a
 * table.  So the node decides here too; the UBox map of the table's bus is the fallback where the device
 * has no node, since it says where the table is whatever the order, and the order is the last resort.
 */
#include <stdio.h>
#include <stdlib.h>
#include "discover.h"
#include "util/error.h"

/* A die: socket -1 none known; die -1 a die without an online CPU. */
struct place {
	int socket, die;
};

static const struct place unknown = { -1, 0 }, offline = { -1, -1 };

static int known(struct place p) { return p.socket >= 0 || p.die < 0; }

static int same(struct place a, struct place b) { return a.socket == b.socket && a.die == b.die; }

static const char *place_name(const struct host_info *h, struct place p, char *buf, size_t len)
{
	if (p.die < 0)
		snprintf(buf, len, "a die with no online CPU");
	else if (p.socket < 0)
		snprintf(buf, len, "no die (more tables than the host has dies)");
	else
		host_die_name(h, p.socket, p.die, buf, len);
	return buf;
}

int disc_table_place(const struct disc_ctx *c, const struct pci_devinfo *d, int *nodeless, struct disc_table *t,
		     char *why, size_t len)
{
	const struct host_info *h = &c->u->host;
	int node = d->node >= 0 && d->node < UC_MAX_NODES ? h->node_die[d->node] : -1;
	int mapped = d->loc.dom != 0 ? -1 : c->map.socket[d->loc.bus]; /* c->map holds sockets where c->mapped */
	struct place by_node = unknown, by_map = unknown, by_order = unknown, p;
	char a[48], b[48];
	int order = -1;
	if (c->mapped <= 0 && mapped != BUS_OFFLINE)
		mapped = -1;
	if (node == HOST_NODE_NO_CPU)
		by_node = offline;
	else if (node >= 0)
		by_node = (struct place){ node / UC_MAX_DIES, node % UC_MAX_DIES };
	if (mapped == BUS_OFFLINE)
		by_map = offline;
	else if (mapped >= 0)
		by_map = (struct place){ mapped, c->map.die[d->loc.bus] };
	if (!known(by_node)) { /* Linux counts the tables without a node (one whose CPUs cannot be read here: as none) */
		order = (*nodeless)++;
		if (host_logical_die(h, order, &by_order.socket, &by_order.die))
			by_order = unknown;
	}
	p = known(by_node) ? by_node : known(by_map) ? by_map : by_order;
	why[0] = 0;
	if (known(by_node) && known(by_map) && !same(by_node, by_map))
		snprintf(why, len, "its NUMA node %d is on %s, the UBox map of bus %02x says %s: the node decides, as in "
			 "Linux (get_device_die_id)", d->node, place_name(h, by_node, a, sizeof(a)), d->loc.bus,
			 place_name(h, by_map, b, sizeof(b)));
	else if (!known(by_node) && known(by_map) && !same(by_map, by_order))
		snprintf(why, len, "its device has no NUMA node whose CPUs can be read (numa_node %d: numa=off?): the UBox "
			 "map of bus %02x places it on %s, where Linux takes the order the tables are found in and gives "
			 "it %s (get_device_die_id)",
			 d->node, d->loc.bus, place_name(h, by_map, a, sizeof(a)), place_name(h, by_order, b, sizeof(b)));
	t->socket = p.socket;
	t->die = p.die < 0 ? -1 : p.die;
	if (p.die < 0)
		return -1; /* an offline die's table: nothing of it can be read on it */
	return t->socket >= 0 && t->socket < h->nsockets && t->die < h->socket_dies[t->socket] ? 0 : -1;
}

static int by_location(const void *x, const void *y)
{
	const struct pci_loc *a = &(*(const struct pci_devinfo *const *)x)->loc;
	const struct pci_loc *b = &(*(const struct pci_devinfo *const *)y)->loc;
	int ka = a->bus << 8 | a->dev << 3 | a->fn, kb = b->bus << 8 | b->dev << 3 | b->fn;
	return a->dom != b->dom ? (a->dom > b->dom) - (a->dom < b->dom) : (ka > kb) - (ka < kb);
}

const struct pci_devinfo **disc_pci_order(const struct disc_ctx *c)
{
	const struct pci_devinfo **v = malloc((size_t)(c->ndev ? c->ndev : 1) * sizeof(*v));
	if (!v)
		return uc_err("out of memory"), NULL;
	for (int i = 0; i < c->ndev; i++)
		v[i] = &c->devs[i];
	qsort(v, (size_t)c->ndev, sizeof(*v), by_location);
	return v;
}
