/*
 * Finding the boxes of an SNB-EP-style platform: MSR boxes per socket from the
 * CPU topology; PCI boxes by device ID, with each bus mapped to its socket
 * through the UBox CPUNODEID / GIDNIDMAP registers -- never by enumeration
 * order (see ../shared/notes/snbep_ivbep.md section 5; Linux snbep_pci2phy_map_init).
 */
#include <stdlib.h>
#include <string.h>
#include "discover.h"
#include "util/error.h"


int pci_map_buses(struct access *a, const struct platform_desc *p, const struct pci_devinfo *devs, int n,
		     const struct host_info *h, int dom, struct busmap *m)
{
	int found = 0, next = -1, next_die = 0, ndies = 0;
	for (int s = 0; s < h->nsockets; s++)
		ndies += h->socket_dies[s];
	for (int b = 0; b < 256; b++)
		m->socket[b] = -1, m->die[b] = 0;
	for (int i = 0; i < n; i++) {
		uint32_t nodeid, map;
		const struct pci_devinfo *d = &devs[i];
		int sock = -1, die = 0, g = 0;
		if (d->vendor != UC_PCI_VENDOR_INTEL || d->device != p->ubox_devid || d->loc.dom != dom)
			continue;
		if (a->ops->pci_read(a, &d->loc, p->cpunodeid, &nodeid, 4) ||
		    a->ops->pci_read(a, &d->loc, p->gidnidmap, &map, 4))
			return uc_err_prefix("reading the UBox node-id registers of bus %02x: ", d->loc.bus);
		if (nodeid == 0xffffffffu || map == 0xffffffffu)
			return uc_err("the UBox of bus %02x reads all-ones: the device is hidden or broken", d->loc.bus);
		nodeid &= 0x7;
		while (g < 8 && ((map >> (3 * g)) & 0x7) != nodeid)
			g++;
		if (g == 8 || host_logical_die(h, g, &sock, &die))
			return uc_err("the UBox of bus %02x names node %u, which GIDNIDMAP 0x%08x maps to no %s of the %d "
				      "found", d->loc.bus, nodeid, map, ndies > h->nsockets ? "die" : "socket",
				      ndies > h->nsockets ? ndies : h->nsockets);
		m->socket[d->loc.bus] = sock;
		m->die[d->loc.bus] = die;
		found++;
	}
	/* buses without a UBox belong to the socket (and die) of the next bus up that has one */
	for (int b = 255; b >= 0; b--) {
		if (m->socket[b] >= 0)
			next = m->socket[b], next_die = m->die[b];
		else
			m->socket[b] = next, m->die[b] = next_die;
	}
	return found;
}

int box_list_add(struct disc_ctx *c, const struct box *b)
{
	if (c->n == c->cap) {
		int nc = c->cap ? c->cap * 2 : 64;
		struct box *nv = realloc(c->v, (size_t)nc * sizeof(*nv));
		if (!nv)
			return uc_err("out of memory");
		c->v = nv;
		c->cap = nc;
	}
	c->v[c->n++] = *b;
	return 0;
}

static int box_known(const struct disc_ctx *c, const struct box *b)
{
	for (int i = 0; i < c->n; i++)
		if (c->v[i].t == b->t && c->v[i].socket == b->socket && c->v[i].die == b->die && c->v[i].unit_id == b->unit_id)
			return 1;
	return 0;
}

static int box_cmp(const void *x, const void *y)
{
	const struct box *a = x, *b = y;
	if (a->type_idx != b->type_idx)
		return a->type_idx - b->type_idx;
	if (a->socket != b->socket)
		return a->socket - b->socket;
	if (a->die != b->die)
		return a->die - b->die;
	return a->unit_id - b->unit_id;
}

void box_list_finish(struct disc_ctx *c)
{
	if (c->n > 1)
		qsort(c->v, (size_t)c->n, sizeof(*c->v), box_cmp);
	box_number_dies(c->v, c->n);
}

const struct pci_devinfo *pci_find(const struct disc_ctx *c, uint16_t device, int bus, int dev, int fn)
{
	for (int i = 0; i < c->ndev; i++) {
		const struct pci_loc *l = &c->devs[i].loc;
		if (c->devs[i].vendor == UC_PCI_VENDOR_INTEL && c->devs[i].device == device && l->dom == 0 && l->bus == bus &&
		    (dev < 0 || l->dev == dev) && (fn < 0 || l->fn == fn))
			return &c->devs[i];
	}
	return NULL;
}

int boxes_discover(struct access *a, const struct host_info *h, const struct platform_desc *p, struct box **out,
		   int *nout)
{
	struct disc_ctx c = { 0 };
	int need_pci = 0;

	for (int t = 0; t < p->ntypes; t++) {
		const struct box_type *bt = p->types[t];
		if (bt->space != UC_MSR) {
			need_pci = 1;
			continue;
		}
		for (int s = 0; s < h->nsockets; s++) {
			int count = bt->max_boxes;
			/* one CBo per core: parts with fewer cores have fewer usable CBos (L410-413) */
			if (bt->max_boxes > 1 && h->socket_cores[s] > 0 && h->socket_cores[s] < count)
				count = h->socket_cores[s];
			for (int i = 0; i < count; i++) {
				struct box b = { .t = bt, .type_idx = t, .socket = s, .idx = i, .unit_id = i, .gsp = -1,
						 .cpu = h->socket_cpu[s] };
				box_regs_static(bt, i, &b.r);
				if (box_list_add(&c, &b))
					goto fail;
			}
		}
	}
	if (need_pci) {
		int mapped;
		if (a->ops->pci_list(a, &c.devs, &c.ndev))
			goto fail;
		mapped = pci_map_buses(a, p, c.devs, c.ndev, h, 0, &c.map);
		if (mapped < 0)
			goto fail;
		if (mapped == 0)
			uc_warn("no UBox PCI device (8086:%04x) found: the PCI boxes (HA, iMC, QPI, R2PCIe, R3QPI) "
				"are unavailable", p->ubox_devid);
		for (int i = 0; mapped > 0 && i < c.ndev; i++) {
			const struct pci_devinfo *d = &c.devs[i];
			if (d->vendor != UC_PCI_VENDOR_INTEL || d->loc.dom != 0)
				continue;
			for (int t = 0; t < p->ntypes; t++) {
				const struct box_type *bt = p->types[t];
				if (bt->space != UC_PCI)
					continue;
				for (int k = 0; k < bt->max_boxes; k++) {
					struct box b = { .t = bt, .type_idx = t, .idx = k, .unit_id = k, .gsp = -1, .cpu = -1,
							 .pci = d->loc };
					if (bt->pci_ids[k] != d->device)
						continue;
					box_regs_static(bt, k, &b.r);
					b.socket = c.map.socket[d->loc.bus];
					if (b.socket < 0) {
						uc_warn("%s %d at %02x:%02x.%d: no UBox maps its bus to a socket; skipped",
							bt->name, k, d->loc.bus, d->loc.dev, d->loc.fn);
						continue;
					}
					if (bt->companion_ids) {
						const struct pci_devinfo *cd =
							pci_find(&c, bt->companion_ids[k], d->loc.bus, -1, -1);
						if (cd) {
							b.comp = cd->loc;
							b.has_comp = 1;
						}
					}
					if (box_known(&c, &b)) {
						uc_warn("%s %d of socket %d appears twice (again at %02x:%02x.%d); the "
							"second is ignored", bt->name, k, b.socket, d->loc.bus, d->loc.dev,
							d->loc.fn);
						continue;
					}
					if (box_list_add(&c, &b))
						goto fail;
				}
			}
		}
	}
	free(c.devs);
	box_list_finish(&c);
	*out = c.v;
	*nout = c.n;
	return 0;
fail:
	free(c.devs);
	free(c.v);
	return -1;
}
