/*
 * Finding the boxes of an SNB-EP-style platform: MSR boxes per socket from the
 * CPU topology; PCI boxes by device ID, with each bus mapped to its socket
 * through the UBox CPUNODEID / GIDNIDMAP registers -- never by enumeration
 * order (see ../shared/notes/snbep_ivbep.md section 5; Linux snbep_pci2phy_map_init).
 */
#include <stdlib.h>
#include <string.h>
#include "platform.h"
#include "error.h"

#define INTEL 0x8086

struct busmap {
	int socket[256]; /* per bus of segment 0..; -1 = unknown */
};

static int map_buses(struct access *a, const struct platform_desc *p, const struct pci_devinfo *devs, int n,
		     int nsockets, int dom, struct busmap *m)
{
	int found = 0, next = -1;
	for (int b = 0; b < 256; b++)
		m->socket[b] = -1;
	for (int i = 0; i < n; i++) {
		uint32_t nodeid, map;
		const struct pci_devinfo *d = &devs[i];
		int sock = -1;
		if (d->vendor != INTEL || d->device != p->ubox_devid || d->loc.dom != dom)
			continue;
		if (a->ops->pci_read(a, &d->loc, p->cpunodeid, &nodeid, 4) ||
		    a->ops->pci_read(a, &d->loc, p->gidnidmap, &map, 4))
			return uc_err_prefix("reading the UBox node-id registers of bus %02x: ", d->loc.bus);
		if (nodeid == 0xffffffffu || map == 0xffffffffu)
			return uc_err("the UBox of bus %02x reads all-ones: the device is hidden or broken", d->loc.bus);
		nodeid &= 0x7;
		for (int g = 0; g < 8; g++)
			if (((map >> (3 * g)) & 0x7) == nodeid) {
				sock = g;
				break;
			}
		if (sock < 0 || sock >= nsockets)
			return uc_err("the UBox of bus %02x names node %u, which GIDNIDMAP 0x%08x maps to no socket "
				      "of the %d found", d->loc.bus, nodeid, map, nsockets);
		m->socket[d->loc.bus] = sock;
		found++;
	}
	/* buses without a UBox belong to the socket of the next bus up that has one */
	for (int b = 255; b >= 0; b--) {
		if (m->socket[b] >= 0)
			next = m->socket[b];
		else
			m->socket[b] = next;
	}
	return found;
}

static int add_box(struct box **v, int *n, int *cap, const struct box *b)
{
	if (*n == *cap) {
		int nc = *cap ? *cap * 2 : 32;
		struct box *nv = realloc(*v, (size_t)nc * sizeof(**v));
		if (!nv)
			return uc_err("out of memory");
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = *b;
	return 0;
}

static int box_known(const struct box *v, int n, const struct box *b)
{
	for (int i = 0; i < n; i++)
		if (v[i].t == b->t && v[i].socket == b->socket && v[i].idx == b->idx)
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
	return a->idx - b->idx;
}

static const struct pci_devinfo *find_companion(const struct pci_devinfo *devs, int n, const struct pci_loc *at,
						uint16_t id)
{
	for (int i = 0; i < n; i++)
		if (devs[i].vendor == INTEL && devs[i].device == id && devs[i].loc.dom == at->dom &&
		    devs[i].loc.bus == at->bus)
			return &devs[i];
	return NULL;
}

int boxes_discover(struct access *a, const struct host_info *h, const struct platform_desc *p, struct box **out,
		   int *nout)
{
	struct pci_devinfo *devs = NULL;
	struct box *v = NULL;
	int ndev = 0, n = 0, cap = 0, need_pci = 0;
	struct busmap map;

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
				struct box b = { .t = bt, .type_idx = t, .socket = s, .idx = i,
						 .cpu = h->socket_cpu[s], .msr_off = (uint32_t)i * bt->box_stride };
				if (add_box(&v, &n, &cap, &b))
					goto fail;
			}
		}
	}
	if (need_pci) {
		int mapped;
		if (a->ops->pci_list(a, &devs, &ndev))
			goto fail;
		mapped = map_buses(a, p, devs, ndev, h->nsockets, 0, &map);
		if (mapped < 0)
			goto fail;
		if (mapped == 0)
			uc_warn("no UBox PCI device (8086:%04x) found: the PCI boxes (HA, iMC, QPI, R2PCIe, R3QPI) "
				"are unavailable", p->ubox_devid);
		for (int i = 0; mapped > 0 && i < ndev; i++) {
			const struct pci_devinfo *d = &devs[i];
			if (d->vendor != INTEL || d->loc.dom != 0)
				continue;
			for (int t = 0; t < p->ntypes; t++) {
				const struct box_type *bt = p->types[t];
				if (bt->space != UC_PCI)
					continue;
				for (int k = 0; k < bt->max_boxes; k++) {
					struct box b = { .t = bt, .type_idx = t, .idx = k, .cpu = -1, .pci = d->loc };
					if (bt->pci_ids[k] != d->device)
						continue;
					b.socket = map.socket[d->loc.bus];
					if (b.socket < 0) {
						uc_warn("%s %d at %02x:%02x.%d: no UBox maps its bus to a socket; skipped",
							bt->name, k, d->loc.bus, d->loc.dev, d->loc.fn);
						continue;
					}
					if (bt->companion_ids) {
						const struct pci_devinfo *c =
							find_companion(devs, ndev, &d->loc, bt->companion_ids[k]);
						if (c) {
							b.comp = c->loc;
							b.has_comp = 1;
						}
					}
					if (box_known(v, n, &b)) {
						uc_warn("%s %d of socket %d appears twice (again at %02x:%02x.%d); the "
							"second is ignored", bt->name, k, b.socket, d->loc.bus, d->loc.dev,
							d->loc.fn);
						continue;
					}
					if (add_box(&v, &n, &cap, &b))
						goto fail;
				}
			}
		}
	}
	free(devs);
	qsort(v, (size_t)n, sizeof(*v), box_cmp);
	*out = v;
	*nout = n;
	return 0;
fail:
	free(devs);
	free(v);
	return -1;
}
