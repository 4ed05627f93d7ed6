/*
 * MMIO boxes whose windows a PCI device's config registers give (struct mmio_place): the Ice Lake-SP
 * iMC channels (Linux icx_uncore_imc_init_box -> snr_uncore_mmio_map), and the controller bases of the
 * Sapphire Rapids family's free-running IMC counters (spr_family.c).  The device is found per socket
 * through the bus map, as the driver finds it (snr_uncore_get_mc_dev: uncore_pcibus_to_dieid).
 */
#include "discover.h"
#include "util/error.h"

int mmio_place_base(struct access *a, const struct mmio_place *m, const struct pci_loc *loc, int c, uint64_t *base)
{
	uint32_t hi, lo;
	if (a->ops->pci_read(a, loc, m->base_off, &hi, 4) ||
	    a->ops->pci_read(a, loc, (uint32_t)m->mem_off + (uint32_t)m->mem_step * (uint32_t)c, &lo, 4))
		return uc_err_prefix("reading the MMIO base of controller %d from %02x:%02x.%d: ", c, loc->bus, loc->dev,
				     loc->fn);
	if (hi == 0xffffffffu || lo == 0xffffffffu)
		return uc_err("the MMIO base registers of %02x:%02x.%d read all-ones: the device is hidden or broken",
			      loc->bus, loc->dev, loc->fn);
	*base = (uint64_t)(hi & m->base_mask) << m->base_shift | (uint64_t)(lo & m->mem_mask) << m->mem_shift;
	return 0;
}

/* A window no real register is at: below 1 MiB (where a BIOS that leaves the registers 0 puts it) or
 * beyond the 52-bit physical address space. */
static int implausible(uint64_t addr, uint64_t span) { return addr & 3 || addr < 0x100000 || addr + span > 1ull << 52; }

/* Has socket s (die) boxes of type t already: a second device of the id on the socket's buses? */
static int placed(const struct disc_ctx *c, const struct box_type *t, int s, int die)
{
	for (int i = 0; i < c->n; i++)
		if (c->v[i].t == t && c->v[i].socket == s && c->v[i].die == die)
			return 1;
	return 0;
}

int mmio_place_boxes(struct access *a, const struct host_info *h, const struct platform_desc *p, struct disc_ctx *c,
		     int ti)
{
	const struct box_type *t = p->types[ti];
	const struct mmio_place *m = t->mmio;
	/* the highest register a channel has: its last counter or the fixed counter's control */
	uint64_t span = t->ctr0 + (uint64_t)t->nctr * t->ctr_stride;
	span = t->fixed_ctl + 4 > span ? t->fixed_ctl + 4 : span;
	for (int i = 0; c->mapped > 0 && i < c->ndev; i++) {
		const struct pci_devinfo *d = &c->devs[i];
		int s;
		if (d->vendor != UC_PCI_VENDOR_INTEL || d->device != m->devid || d->loc.dom != 0)
			continue;
		s = c->map.socket[d->loc.bus];
		if (s < 0 || s >= h->nsockets) {
			if (s != BUS_OFFLINE) /* an offline die's: said once, by pci_map_buses */
				uc_warn("%s: device 8086:%04x at %02x:%02x.%d is on no socket's bus; its boxes are skipped", t->name,
				m->devid, d->loc.bus, d->loc.dev, d->loc.fn);
			continue;
		}
		if (placed(c, t, s, c->map.die[d->loc.bus])) { /* the driver takes the first it finds */
			uc_warn("%s: a second device 8086:%04x on socket %d (at %02x:%02x.%d) is ignored", t->name, m->devid, s,
				d->loc.bus, d->loc.dev, d->loc.fn);
			continue;
		}
		for (int k = 0; k < m->nctrl; k++) {
			uint64_t base;
			if (mmio_place_base(a, m, &d->loc, k, &base))
				return -1;
			for (int ch = 0; ch < m->nchan; ch++) {
				uint64_t at = base + m->box_off + (uint64_t)m->chan_step * (uint64_t)ch;
				int id = k * m->nchan + ch;
				struct box b = { .t = t, .type_idx = ti, .socket = s, .die = c->map.die[d->loc.bus], .idx = id,
						 .unit_id = id, .gsp = -1, .cpu = -1 };
				if (implausible(at, span)) {
					uc_warn("%s %d of socket %d: MMIO address 0x%llx (from %02x:%02x.%d) is not a plausible "
						"register address; skipped", t->name, id, s, (unsigned long long)at,
						d->loc.bus, d->loc.dev, d->loc.fn);
					continue;
				}
				box_regs_static(t, id, &b.r);
				b.r.rel = at;
				b.r.box_ctl += at;
				b.r.ctl0 += at;
				b.r.ctr0 += at;
				b.r.status = t->status ? b.r.status + at : 0;
				if (ch == 0 && t->nfr) {
					b.fr_base = base;
					b.nfr = t->nfr;
				}
				if (box_list_add(c, &b))
					return -1;
			}
		}
	}
	return 0;
}
