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
	int found = 0, next = -1, next_die = 0, ndies = 0, nubox = 0;
	for (int s = 0; s < h->nsockets; s++)
		ndies += h->socket_dies[s];
	for (int b = 0; b < 256; b++)
		m->socket[b] = -1, m->die[b] = 0;
	for (int i = 0; i < n; i++)
		nubox += devs[i].vendor == UC_PCI_VENDOR_INTEL && devs[i].device == p->ubox_devid && devs[i].loc.dom == dom;
	/* more UBoxes than online dies: a die's CPUs are all offline (its uncore is still there).  GIDNIDMAP's
	 * groups are then the physical dies, which the dies' die_id place (Linux a16d1ec4dd0c) */
	int per_socket = nubox > ndies && nubox % h->nsockets == 0 ? nubox / h->nsockets : 0;
	for (int i = 0; i < n; i++) {
		uint32_t nodeid, map;
		const struct pci_devinfo *d = &devs[i];
		int sock = -1, die = 0, g = 0, r;
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
		r = g == 8 ? -1 : per_socket ? host_physical_die(h, g, per_socket, &sock, &die) : host_logical_die(h, g, &sock, &die);
		if (r > 0) { /* the die is there, its CPUs are not: its boxes cannot be read on it */
			uc_warn("the UBox of bus %02x is socket %d's die %d, none of whose CPUs is online: its units are not "
				"counted", d->loc.bus, sock, g % per_socket);
			m->socket[d->loc.bus] = BUS_OFFLINE;
			continue;
		}
		if (r < 0)
			return uc_err("the UBox of bus %02x names node %u, which GIDNIDMAP 0x%08x maps to no %s of the %d "
				      "found", d->loc.bus, nodeid, map, ndies > h->nsockets ? "die" : "socket",
				      ndies > h->nsockets ? ndies : h->nsockets);
		m->socket[d->loc.bus] = sock;
		m->die[d->loc.bus] = die;
		found++;
	}
	/* buses without a UBox belong to the socket (and die) of the next bus up that has one, or on platforms
	 * that fill forward (Linux snbep_pci2phy_map_init reverse=false) of the next bus down; those of an
	 * offline die to none */
	for (int i = 0; i < 256; i++) {
		int b = p->busmap_forward ? i : 255 - i;
		if (m->socket[b] != -1)
			next = m->socket[b], next_die = m->die[b];
		else
			m->socket[b] = next, m->die[b] = next_die;
	}
	return found;
}

static int box_known(const struct disc_ctx *c, const struct box *b)
{
	for (int i = 0; i < c->n; i++)
		if (c->v[i].t == b->t && c->v[i].socket == b->socket && c->v[i].die == b->die && c->v[i].unit_id == b->unit_id)
			return 1;
	return 0;
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

/* Boxes of an MSR type on socket s by the type's count rule: a capability register's set bits (read on
 * the socket's buses; none found: no box, as Linux's skx_count_chabox), or a limit where its bits are clear
 * (none found: no limit, as Linux's hswep_has_limit_sbox), else max_boxes, which the types without a count
 * cap by the socket's cores (one CBo per core, seed 000 L410-413). */
static int count_dev_socket(const struct disc_ctx *c, const struct platform_desc *p, const struct box_count *r,
			    const struct pci_devinfo *d)
{
	/* the socket of the UBox one bus down; where there is none, the bus's own (a layout no board listed) */
	if (r->ubox_below && d->loc.bus > 0 && pci_find(c, p->ubox_devid, d->loc.bus - 1, -1, -1))
		return c->map.socket[d->loc.bus - 1];
	return c->map.socket[d->loc.bus];
}

/* A count register reading all ones holds all ones: a 28-CHA Skylake-SP's CAPID6 with its bits 31:28 set too
 * (skx_count_chabox masks them, GENMASK(27, 0)), a 40-CHA Ice Lake-SP's CAPID6 (icx_count_chabox counts hweight64
 * of CAPID6 and CAPID7), a Haswell-EP's CAPID4 (hswep_has_limit_sbox reads its chop, bits 7:6, whatever the
 * rest).  A hidden or removed function reads all ones everywhere, its vendor and device id dword too (PCI: a
 * configuration read no function claims completes with all ones): that dword tells the two apart.  Non-zero
 * with a message: the function is gone. */
static int count_dev_gone(struct access *a, const struct box_type *bt, const struct pci_devinfo *d)
{
	uint32_t id;
	if (a->ops->pci_read(a, &d->loc, 0, &id, 4))
		return uc_err_prefix("reading the id of the %s count device %02x:%02x.%d: ", bt->name, d->loc.bus, d->loc.dev,
				     d->loc.fn);
	if (id != ((uint32_t)d->device << 16 | d->vendor))
		return uc_err("the %s count device 8086:%04x at %02x:%02x.%d reads all-ones, its id dword 0x%08x: the "
			      "device is hidden or broken", bt->name, d->device, d->loc.bus, d->loc.dev, d->loc.fn, id);
	return 0;
}

static int msr_box_count(struct access *a, const struct disc_ctx *c, const struct host_info *h,
			 const struct platform_desc *p, const struct box_type *bt, int s)
{
	const struct box_count *r = bt->count;
	int count = bt->max_boxes;
	if (!r || r->limit_if_clear) {
		if (bt->max_boxes > 1 && h->socket_cores[s] > 0 && h->socket_cores[s] < count)
			count = h->socket_cores[s];
		if (!r)
			return count;
	}
	if (!r->devid)
		return count;
	for (int i = 0; i < c->ndev; i++) {
		const struct pci_devinfo *d = &c->devs[i];
		uint32_t v, hi = 0;
		if (d->vendor != UC_PCI_VENDOR_INTEL || d->device != r->devid || d->loc.dom != 0 ||
		    count_dev_socket(c, p, r, d) != s)
			continue;
		if (a->ops->pci_read(a, &d->loc, r->off, &v, 4) || (r->off_hi && a->ops->pci_read(a, &d->loc, r->off_hi, &hi, 4)))
			return uc_err_prefix("reading the %s count (8086:%04x offset 0x%x): ", bt->name, r->devid, r->off);
		if ((v == 0xffffffffu || hi == 0xffffffffu) && count_dev_gone(a, bt, d))
			return -1;
		if (r->limit_if_clear)
			return (((uint64_t)hi << 32 | v) & r->mask) || r->limited > count ? count : r->limited;
		count = __builtin_popcountll(((uint64_t)hi << 32 | v) & r->mask);
		return count < bt->max_boxes ? count : bt->max_boxes;
	}
	if (r->limit_if_clear)
		return count; /* no capability register: the part's own count */
	uc_warn("no PCI device 8086:%04x on socket %d gives its %s count: none counted", r->devid, s, bt->name);
	return 0;
}

/* Does PCI device d hold box k of type bt: its device id, and where ids repeat its device/function too? */
static int pci_box_at(const struct box_type *bt, int k, const struct pci_devinfo *d)
{
	return bt->pci_ids[k] == d->device && (!bt->pci_devfn || bt->pci_devfn[k] == (d->loc.dev << 3 | d->loc.fn));
}

int boxes_discover(struct access *a, const struct host_info *h, const struct platform_desc *p, struct box **out,
		   int *nout)
{
	struct disc_ctx c = { 0 };
	int need_pci = 0, mapped = 0;

	for (int t = 0; t < p->ntypes; t++)
		need_pci |= p->types[t]->space != UC_MSR || (p->types[t]->count && p->types[t]->count->devid);
	if (need_pci) { /* the bus map first: MSR box counts may come from PCI registers */
		if (a->ops->pci_list(a, &c.devs, &c.ndev))
			goto fail;
		mapped = c.mapped = pci_map_buses(a, p, c.devs, c.ndev, h, 0, &c.map);
		if (mapped < 0)
			goto fail;
		if (mapped == 0)
			uc_warn("no UBox PCI device (8086:%04x) found: the PCI boxes (HA, iMC, QPI, R2PCIe, R3QPI) "
				"are unavailable", p->ubox_devid);
	}
	for (int t = 0; t < p->ntypes; t++) {
		const struct box_type *bt = p->types[t];
		if (bt->space != UC_MSR)
			continue;
		for (int s = 0; s < h->nsockets; s++) {
			int count = msr_box_count(a, &c, h, p, bt, s);
			if (count < 0)
				goto fail;
			for (int i = 0; i < count; i++) {
				struct box b = { .t = bt, .type_idx = t, .socket = s, .idx = i, .unit_id = i, .gsp = -1,
						 .cpu = h->socket_cpu[s], .nfr = bt->nfr };
				box_regs_static(bt, i, &b.r);
				if (box_list_add(&c, &b))
					goto fail;
			}
		}
	}
	for (int t = 0; t < p->ntypes; t++)
		if (p->types[t]->space == UC_MMIO && p->types[t]->mmio && mmio_place_boxes(a, h, p, &c, t))
			goto fail;
	if (need_pci) {
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
					if (!pci_box_at(bt, k, d))
						continue;
					box_regs_static(bt, k, &b.r);
					b.socket = c.map.socket[d->loc.bus];
					if (b.socket < 0) {
						if (b.socket != BUS_OFFLINE) /* an offline die's: said once, by pci_map_buses */
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
