/*
 * The simulated discovery tables (sim_disc.h).  Entry layout: seed 001 Table 1-14 (word 0: access 63:62,
 * status offset 39:32, counter 0 offset 31:24, width 23:16, control 0 offset 15:8, counters 7:0; word 1:
 * unit control address; word 2: Global Status Position 63:32, unit id 31:16, type 15:0); global block
 * Table 1-13.  The discovery device (Linux UNCORE_DISCOVERY_TABLE_DEVICE 0x09A7) has the PMON DVSEC (BIR 0)
 * first, at 0x100, as real boards list it ("Designated Vendor-Specific: Vendor=8086 ID=0001" at 0x100: the
 * HPE DL380 Gen11's 75:03.1 and f2:03.1, tests/snapshots/field/spr-dl380g11-mcc.source; Granite Rapids'
 * 00:03.1 and 80:03.1, gnr-birchstream-2s.source), then a DVSEC of another id (Intel's PMT telemetry, id 2,
 * which the same function carries: Linux intel_vsec) after it, which a walk for a further PMON DVSEC reads and
 * passes over.
 */
#include <stdlib.h>
#include <string.h>
#include "sim/sim_disc.h"
#include "sim/sim_disc_map.h"
#include "util/error.h"
#include "sim/sim_numa.h"

/* The unit control every discovery unit has (sim_disc_map.h). */
const struct sim_boxctl sim_disc_bc = { .rst_ctrl = 1u << 8, .rst_ctrs = 1u << 9, .frz = 1u << 0 };
const struct sim_fld sim_disc_cha_fld[1] = { { "tid", 0, 0, 10 } };

void sim_disc_put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }
uint64_t sim_disc_get64(const uint8_t *p)
{
	uint64_t v;
	memcpy(&v, p, 8);
	return v;
}

uint8_t *sim_disc_entry(const struct sim_disc_table *t, int i) { return t->data + (size_t)(i + 1) * SIM_DISC_STRIDE * 8; }

/* Where a unit's register at map address a sits relative to its unit control (the table's offsets). */
static uint64_t rel(const struct sim_unit *u, uint32_t a) { return a - u->box_ctl; }

/* Append box b's entry, its unit control at box_ctl: 0, or -1 with a message when the table has no room (a
 * machine of more cores than its kind's table holds). */
static int table_add(struct sim_disc_table *t, struct sim_box *b, int access, uint64_t box_ctl)
{
	const struct sim_unit *u = b->u;
	if (t->n >= t->max)
		return uc_err("simulator: more than %d units in a discovery table: ask for fewer cores", t->max);
	uint8_t *e = sim_disc_entry(t, t->n);
	uint64_t st_off = u->status ? rel(u, u->status) : 0;
	sim_disc_put64(e, (uint64_t)access << 62 | st_off << 32 | rel(u, u->ctr0) << 24 | (uint64_t)b->width << 16 |
				  rel(u, u->ctl0) << 8 | (uint64_t)u->nctr);
	sim_disc_put64(e + 8, box_ctl);
	sim_disc_put64(e + 16, (uint64_t)t->gsp << 32 | (uint64_t)b->idx << 16 | (uint64_t)u->disc_type);
	b->disc_blob = t->blob;
	b->disc_entry = t->n++;
	b->gsp = t->gsp++;
	return 0;
}

struct sim_box *sim_disc_placed(struct sim *s, struct sim_disc_table *t, const struct sim_unit *u, int sock, int id,
				uint64_t ctl)
{
	struct sim_box *b = sim_add_box(s, u, sock, id);
	if (!b)
		return uc_err("simulator: more than %d boxes: ask for fewer sockets, dies or cores", SIM_MAX_BOXES), NULL;
	b->base = ctl;
	return table_add(t, b, u->space == SIM_MSR ? 0 : 1, ctl) ? NULL : b;
}

int sim_disc_listed(struct sim_disc_table *t, const struct sim_unit *u, int id, uint64_t ctl)
{
	struct sim_box ghost = { .u = u, .idx = id, .width = 48 };
	return table_add(t, &ghost, u->space == SIM_MSR ? 0 : 1, ctl);
}

struct sim_box *sim_disc_pci(struct sim *s, struct sim_disc_table *t, const struct sim_unit *u, int sock, int id,
			     int bus, int dev, int fn)
{
	struct sim_box *b = sim_add_box(s, u, sock, id);
	struct sim_dev *d = b ? sim_add_dev(s, bus, dev, fn, u->ids[id < SIM_MAX_IDS ? id : 0]) : NULL;
	if (!d)
		return uc_err("simulator: more than %d boxes or %d PCI functions: ask for fewer sockets, dies or cores",
			      SIM_MAX_BOXES, SIM_MAX_DEVS), NULL;
	d->box = b;
	return table_add(t, b, 2, t->pci_enable | (uint64_t)bus << 20 | (uint64_t)(dev << 3 | fn) << 12 | u->box_ctl) ? NULL : b;
}

static void put32(uint8_t *cfg, int off, uint32_t v) { memcpy(cfg + off, &v, 4); }

int sim_disc_device(struct sim *s, int bus, uint64_t bar, int scope, uint16_t id)
{
	struct sim_dev *d = sim_add_dev(s, bus, 0, 2, id);
	if (!d)
		return -1;
	d->info.node = sim_node_of_scope(s, scope); /* its die's (first) node, as Linux's get_device_die_id expects */
	/* A memory BAR, 32-bit where it lies below 4 GiB, as Sapphire Rapids' 09A7 lists it ("reg 0x10: [mem
	 * 0x93200000-0x9327ffff]", no "64bit", in the boot logs of real ones); else 64-bit.  PCM 202502 reads its
	 * low dword alone (pci.h processDVSEC). */
	put32(d->cfg, 0x10, (uint32_t)(bar & 0xfffff000u) | (bar >> 32 ? 0x4 : 0));
	put32(d->cfg, 0x14, (uint32_t)(bar >> 32));
	/* Status: a capabilities list (bit 4), the PCI Express capability at 0x40 (a root complex integrated endpoint,
	 * type 9, version 2), as every PCIe function has: PCM 202502 walks the extended capabilities only where
	 * the status says so (processDVSEC) */
	put32(d->cfg, 0x04, 0x0010u << 16);
	d->cfg[0x34] = 0x40;
	put32(d->cfg, 0x40, 0x10u | 0x0092u << 16);
	put32(d->cfg, 0x100, 0x23u | 1u << 16 | 0x140u << 20);
	put32(d->cfg, 0x108, 0x1);
	put32(d->cfg, 0x10c, 0x0);
	put32(d->cfg, 0x140, 0x23u | 1u << 16);
	put32(d->cfg, 0x148, 0x2);
	return 0;
}

int sim_disc_table_new(struct sim *s, struct sim_disc_table *t, uint64_t bar, int max)
{
	*t = (struct sim_disc_table){ calloc((size_t)max + 1, SIM_DISC_STRIDE * 8), 0, 2, s->nblobs, max, 0 };
	if (!t->data || s->nblobs == SIM_MAX_BLOBS)
		return free(t->data), uc_err("out of memory");
	s->blobs[s->nblobs] = (struct sim_blob){ bar, t->data, (size_t)(max + 1) * SIM_DISC_STRIDE * 8 };
	if (!s->nblobs || bar < s->blob_lo)
		s->blob_lo = bar;
	if (!s->nblobs || bar + s->blobs[s->nblobs].len > s->blob_hi)
		s->blob_hi = bar + s->blobs[s->nblobs].len;
	s->nblobs++;
	return 0;
}

int sim_disc_socket(struct sim *s, struct sim_disc_table *t, int scope, int bus, uint64_t bar, int max, uint32_t node,
		    uint32_t gidnidmap)
{
	struct sim_dev *d;
	if (sim_disc_table_new(s, t, bar, max))
		return -1;
	if (!(d = sim_add_dev(s, bus, 0, 0, s->ubox->devid))) /* node ids for bus -> socket */
		return uc_err("simulator: too many devices");
	put32(d->cfg, (int)s->ubox->cpunodeid, node);
	put32(d->cfg, (int)s->ubox->gidnidmap, gidnidmap);
	d->info.node = sim_node_of_scope(s, scope);
	if (sim_disc_device(s, bus, bar, scope, 0x09a7))
		return uc_err("simulator: too many devices");
	return 0;
}

void sim_disc_finish_at(struct sim_disc_table *t, int access, uint64_t ctl, unsigned status_off)
{
	sim_disc_put64(t->data, (uint64_t)access << 62 | (uint64_t)t->n << 16 | (uint64_t)SIM_DISC_STRIDE << 8);
	sim_disc_put64(t->data + 8, ctl);
	sim_disc_put64(t->data + 16, (uint64_t)t->gsp << 8 | status_off);
}

void sim_disc_finish(struct sim *s, struct sim_disc_table *t)
{
	sim_disc_finish_at(t, 0, s->glob->ctl, s->glob->status - s->glob->ctl);
}

void sim_disc_count_channels(struct sim *s, const struct sim_unit *imc)
{
	for (int i = 0; i < s->nboxes; i++)
		if (s->boxes[i].u == imc)
			s->mem_channels[s->boxes[i].socket]++;
}

int sim_disc_hide(struct sim *s, struct sim_box *b)
{
	if (b->disc_blob >= s->nblobs)
		return uc_err("simulator fault missing: %s %d has no discovery table", b->u->name, b->idx);
	memset(s->blobs[b->disc_blob].data + (size_t)(b->disc_entry + 1) * SIM_DISC_STRIDE * 8, 0,
	       SIM_DISC_STRIDE * 8);
	return 0;
}

int sim_disc_fault(struct sim *s, const char *kind, struct sim_box *b)
{
	uint8_t *e;
	if (b->disc_entry < 0 || b->disc_blob >= s->nblobs)
		return uc_err("simulator fault %s: %s %d has no discovery entry", kind, b->u->name, b->idx);
	e = s->blobs[b->disc_blob].data + (size_t)(b->disc_entry + 1) * SIM_DISC_STRIDE * 8;
	if (!strcmp(kind, "corrupt")) {
		memset(e, 0xff, 8); /* the first word reads all ones; the third still names the unit */
	} else if (!strcmp(kind, "dupid")) { /* takes the unit id of a neighbour of its type */
		uint64_t w2 = sim_disc_get64(e + 16), id = (w2 >> 16) & 0xffff;
		sim_disc_put64(e + 16, (w2 & ~0xffff0000ull) | (id ? id - 1 : 1) << 16);
	} else if (!strcmp(kind, "badwidth")) { /* a 200-bit counter */
		sim_disc_put64(e, (sim_disc_get64(e) & ~0xff0000ull) | 200ull << 16);
	} else if (!strcmp(kind, "width64")) { /* not a fault: 64-bit counters, which discovery allows */
		sim_disc_put64(e, (sim_disc_get64(e) & ~0xff0000ull) | 64ull << 16);
		b->width = 64;
	} else if (!strcmp(kind, "nctr")) { /* no counters */
		sim_disc_put64(e, sim_disc_get64(e) & ~0xffull);
	} else { /* badaddr: an address no PMON register has */
		uint64_t w1 = b->u->space == SIM_MSR ? 0x1234 : b->u->space == SIM_MMIO ? 0x3 : (0x01ull << 20 | 0x1fu << 15);
		sim_disc_put64(e + 8, w1);
	}
	return 0;
}
