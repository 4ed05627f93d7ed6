/*
 * Boxes of a discovery platform: every valid unit entry becomes a box of the
 * platform's box type with that discovery type; its addresses are checked
 * against the PMON MSR range, the PCI devices present and the physical
 * address space before use, then the platform's quirks run (fixup).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "discover.h"
#include "util/error.h"



static int ignored(const struct platform_desc *p, int disc_type)
{
	for (const int *i = p->disc_ignore; i && *i >= 0; i++)
		if (*i == disc_type)
			return 1;
	return 0;
}

/* Address checks; returns 0 or writes why the entry cannot be used. */
static int check_addresses(const struct disc_ctx *c, const struct disc_unit *d, const struct box_type *bt,
			   char *why, size_t len)
{
	const struct platform_desc *p = c->u->plat;
	uint64_t last_ctl = d->ctl_off + (uint64_t)(d->nctr - 1) * bt->ctl_stride;
	uint64_t last_ctr = d->ctr_off + (uint64_t)(d->nctr - 1) * bt->ctr_stride;
	/* past the last register: an MSR is one address (Granite Rapids' UBox ends at 0x3FF9, PCM 202502's
	 * BHS_UBOX_MSR_PMON_CTR1_ADDR, the last below the PMON range's end), a PCI or MMIO register up to 8 bytes */
	uint64_t span = (last_ctl > last_ctr ? last_ctl : last_ctr) + (d->access == DISC_MSR ? 1 : 8);
	static const enum disc_access access_of_space[] = { [UC_MSR] = DISC_MSR, [UC_MMIO] = DISC_MMIO, [UC_PCI] = DISC_PCI };
	if (d->access != access_of_space[bt->space])
		return snprintf(why, len, "access type %s, but %s units are %s", disc_access_name(d->access), bt->name,
				disc_access_name(access_of_space[bt->space])), -1;
	switch (d->access) {
	case DISC_MSR:
		if (d->box_ctl < p->pmon_msr_lo || d->box_ctl + span > (uint64_t)p->pmon_msr_hi + 1)
			return snprintf(why, len, "MSR 0x%llx..0x%llx is outside the PMON range 0x%x..0x%x",
					(unsigned long long)d->box_ctl, (unsigned long long)(d->box_ctl + span - 1),
					p->pmon_msr_lo, p->pmon_msr_hi), -1;
		return 0;
	case DISC_MMIO:
		if (d->box_ctl & 3 || d->box_ctl < 0x100000 || d->box_ctl + span > (1ull << 52))
			return snprintf(why, len, "MMIO address 0x%llx is not a plausible register address",
					(unsigned long long)d->box_ctl), -1;
		return 0;
	default:
		if (d->reg + span > 0x1000)
			return snprintf(why, len, "PCI config offset 0x%x + 0x%llx runs past the 4 KiB config space",
					d->reg, (unsigned long long)span), -1;
		for (int i = 0; i < c->ndev; i++)
			if (!memcmp(&c->devs[i].loc, &d->loc, sizeof(d->loc)))
				return 0;
		return snprintf(why, len, "PCI device %04x:%02x:%02x.%d does not exist", d->loc.dom, d->loc.bus,
				d->loc.dev, d->loc.fn), -1;
	}
}

static void unit_box(const struct disc_ctx *c, const struct disc_unit *d, int t, const struct disc_table *tb,
		     struct box *b)
{
	const struct box_type *bt = c->u->plat->types[t];
	const struct host_info *h = &c->u->host;
	memset(b, 0, sizeof(*b));
	b->t = bt;
	b->type_idx = t;
	b->socket = tb->socket;
	b->die = tb->die;
	b->idx = b->unit_id = d->id;
	b->gsp = d->gsp;
	/* the table's die: its MSRs answer only that die's CPUs */
	b->cpu = host_die_cpu(h, tb->socket, tb->die);
	b->r.box_ctl = b->r.rel = d->access == DISC_PCI ? d->reg : d->box_ctl;
	b->r.ctl0 = b->r.rel + d->ctl_off;
	b->r.ctr0 = b->r.rel + d->ctr_off;
	b->r.status = b->r.rel + d->status_off;
	b->r.ctl_stride = bt->ctl_stride;
	b->r.ctr_stride = bt->ctr_stride;
	b->r.nctr = d->nctr;
	b->r.width = d->width;
	if (d->access == DISC_PCI)
		b->pci = d->loc;
}

int boxes_from_discovery(uncore_t *u)
{
	struct disc_ctx c = { .u = u };
	struct disc_table *tables = NULL;
	struct disc_unit *units = NULL;
	int ntables = 0, nunits = 0;
	unsigned warned_types[8] = { 0 };
	struct access *a = u->acc;
	if (a->ops->pci_list(a, &c.devs, &c.ndev))
		return -1;
	if (u->plat->ubox_devid) {
		c.mapped = pci_map_buses(a, u->plat, c.devs, c.ndev, &u->host, 0, &c.map);
		if (c.mapped < 0)
			goto fail;
	}
	if (disc_read_tables(&c, &tables, &ntables, &units, &nunits))
		goto fail;
	if (!ntables) {
		uc_err("no PMON discovery table (PCIe DVSEC capability 0x23, id 1) was found on any PCI device%s",
		       c.ndev ? "" : ": no PCI devices are visible (is /sys/bus/pci mounted?)");
		goto fail;
	}
	if (((!u->plat->ntypes || u->plat->disc_unnamed) && platform_generic_types(u, units, nunits)) ||
	    platform_entry_access(u, units, nunits))
		goto fail;
	for (int i = 0; i < nunits; i++) {
		const struct disc_unit *d = &units[i];
		int t = disc_type_index(u->plat, d->type);
		char why[200], label[64], tname[48];
		struct box b;
		if (ignored(u->plat, d->type))
			continue; /* replaced by the platform's fixup */
		if (t < 0) {
			if (d->type < 256 && !(warned_types[d->type / 32] & (1u << (d->type % 32)))) {
				warned_types[d->type / 32] |= 1u << (d->type % 32);
				uc_warn("discovery lists units of type %d, which %s does not describe; they are left out",
					d->type, u->plat->name);
			}
			continue;
		}
		if (check_addresses(&c, d, u->plat->types[t], why, sizeof(why))) {
			uc_warn("discovery table of %s, entry %d (%s): %s; the unit is left out",
				host_die_name(&u->host, tables[d->table].socket, tables[d->table].die, tname, sizeof(tname)),
				d->entry, disc_unit_label(u->plat, d, label, sizeof(label)), why);
			continue;
		}
		unit_box(&c, d, t, &tables[d->table], &b);
		if (box_list_add(&c, &b))
			goto fail;
	}
	if (u->plat->fixup && u->plat->fixup(&c))
		goto fail;
	box_list_finish(&c);
	free(tables);
	free(units);
	free(c.devs);
	u->boxes = c.v;
	u->nboxes = c.n;
	return 0;
fail:
	free(tables);
	free(units);
	free(c.devs);
	free(c.v);
	return -1;
}
