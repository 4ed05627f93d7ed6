/*
 * The PMON discovery tables (seed 001 section 1.9, Tables 1-13 and 1-14, and the
 * walk of section 1.10.1): a PCIe DVSEC (extended capability 0x23, DVSEC id 1)
 * names a BAR; the BAR holds one global block and max_units unit blocks of
 * stride * 8 bytes each.  Unit i sits at (i + 1) * stride * 8 -- the seed's
 * pseudo-loop (L900-903) steps by the stride in units and is wrong; its own C
 * code, Linux and PCM agree on this layout (../shared/notes/emr.md 5.4).
 * Every entry is checked; a bad one is reported by name and left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "discover.h"
#include "util/error.h"

#define DISC_DEVICE 0x09a7   /* generic discovery device (Linux UNCORE_DISCOVERY_TABLE_DEVICE) */
#define DVSEC_ID_PMON 0x1    /* seed UNCORE_DISCOVERY_DVSEC_ID_PMON */
#define DVSEC_ID_OFF 0x8     /* dword: bits 15:0 DVSEC id (seed leaves it undefined; Linux) */
#define DVSEC_BIR_OFF 0xc    /* dword: bits 2:0 BIR, others must be 0 */
#define MAX_UNITS 1024       /* the field is 10 bits wide (Table 1-13, bits 25:16) */

const char *disc_access_name(enum disc_access access)
{
	static const char *const n[] = { "msr", "mmio", "pci", "unknown" };
	return n[access & 3];
}

/* Offset of the PMON DVSEC in a function's extended config space, 0 if none, -1 on a read error. */
static int find_dvsec(struct access *a, const struct pci_loc *l, uint32_t *at)
{
	uint32_t off = 0x100, hdr, id;
	for (int guard = 0; off >= 0x100 && off <= 0xffc && guard < 128; guard++) {
		if (a->ops->pci_read(a, l, off, &hdr, 4))
			return -1;
		if (hdr == 0 || hdr == 0xffffffffu)
			return 0;
		if ((hdr & 0xffff) == DISC_DVSEC_CAP) {
			if (a->ops->pci_read(a, l, off + DVSEC_ID_OFF, &id, 4))
				return -1;
			if ((id & 0xffff) == DVSEC_ID_PMON) {
				*at = off;
				return 1;
			}
		}
		off = hdr >> 20;
	}
	return 0;
}

/* The BAR the DVSEC names, 64-bit BARs included (the seed and PCM read one dword only). */
static int dvsec_bar(struct access *a, const struct pci_loc *l, uint32_t cap, uint64_t *bar)
{
	uint32_t bir, lo, hi = 0;
	if (a->ops->pci_read(a, l, cap + DVSEC_BIR_OFF, &bir, 4))
		return -1;
	if ((bir & ~7u) || (bir & 7) > 5)
		return uc_err("its DVSEC names BIR 0x%x, which is not a BAR", bir);
	if (a->ops->pci_read(a, l, 0x10 + 4 * (bir & 7), &lo, 4))
		return -1;
	if ((lo & 0x6) == 0x4 && a->ops->pci_read(a, l, 0x10 + 4 * (bir & 7) + 4, &hi, 4))
		return -1;
	*bar = ((uint64_t)hi << 32 | lo) & ~0xfffull;
	if (!*bar)
		return uc_err("BAR%u is not assigned (reads 0)", bir & 7);
	return 0;
}

static int read_global(struct access *a, struct disc_table *t)
{
	uint64_t w[3];
	if (a->ops->mmio_read(a, t->bar, w, sizeof(w)))
		return -1;
	if (!w[0] || !w[1] || w[0] == ~0ull || w[1] == ~0ull || w[2] == ~0ull)
		return uc_err("its global block is invalid (words 0x%llx 0x%llx 0x%llx)", (unsigned long long)w[0],
			      (unsigned long long)w[1], (unsigned long long)w[2]);
	t->access = (enum disc_access)((w[0] >> 62) & 3);  /* bits 63:62 as in Linux; Table 1-13 prints 63:61 */
	t->max_units = (int)(w[0] >> 16) & 0x3ff;
	t->stride = (int)(w[0] >> 8) & 0xff;
	t->global_ctl = w[1];
	t->num_status = (int)(w[2] >> 8) & 0xffff;
	t->status_off = (int)(w[2] & 0xff);
	if (!t->stride || t->stride * 8 < 24)
		return uc_err("its global block gives a block stride of %d (8-byte units), too small for a unit entry",
			      t->stride);
	if (!t->max_units)
		return uc_err("its global block lists no units");
	return 0;
}

static int decode_unit(const uint64_t *w, struct disc_unit *d, char *why, size_t len)
{
	d->access = (enum disc_access)((w[0] >> 62) & 3);
	d->status_off = (unsigned)(w[0] >> 32) & 0xff;
	d->ctr_off = (unsigned)(w[0] >> 24) & 0xff;
	d->width = (int)(w[0] >> 16) & 0xff;
	d->ctl_off = (unsigned)(w[0] >> 8) & 0xff;
	d->nctr = (int)(w[0] & 0xff);
	d->box_ctl = w[1];
	d->gsp = (int)(w[2] >> 32) & 0xffff;
	d->id = (int)(w[2] >> 16) & 0xffff;
	d->type = (int)(w[2] & 0xffff);
	if (w[0] == ~0ull || w[1] == ~0ull || w[2] == ~0ull)
		return snprintf(why, len, "the entry reads all ones"), -1;
	if (d->access == DISC_BAD)
		return snprintf(why, len, "unknown access type 3"), -1;
	if (!d->box_ctl)
		return snprintf(why, len, "unit control address is 0"), -1;
	if (!d->ctl_off || !d->ctr_off)
		return snprintf(why, len, "control offset 0x%x / counter offset 0x%x is 0", d->ctl_off, d->ctr_off), -1;
	if (d->nctr < 1 || d->nctr > UC_MAX_CTR)
		return snprintf(why, len, "%d counters (1..%d expected)", d->nctr, UC_MAX_CTR), -1;
	if (d->width < 16 || d->width > 64)
		return snprintf(why, len, "counter width %d bits (16..64 expected)", d->width), -1;
	if (d->access == DISC_PCI) { /* Linux: domain 30:28, bus 27:20, devfn 19:12, offset 11:0 */
		d->loc = (struct pci_loc){ (int)(d->box_ctl >> 28) & 7, (int)(d->box_ctl >> 20) & 0xff,
					   (int)(d->box_ctl >> 15) & 0x1f, (int)(d->box_ctl >> 12) & 7 };
		d->reg = (uint32_t)d->box_ctl & 0xfff;
		/* Bit 31 is the configuration address's enable bit, set in Granite Rapids' tables (PCM 202502 asserts it:
		 * cpucounters.cpp getPCICFGPMUsFromDiscovery); Linux reads bits 30:0 alone (UNCORE_DISCOVERY_PCI_DOMAIN
		 * masks three bits), and so does this.  Anything above it is not an address. */
		if (d->box_ctl >> 32)
			return snprintf(why, len, "PCI address 0x%llx has bits above 31 set",
					(unsigned long long)d->box_ctl), -1;
	}
	return 0;
}

static int grow(void **v, int n, int *cap, size_t size)
{
	if (n < *cap)
		return 0;
	int nc = *cap ? *cap * 2 : 64;
	void *nv = realloc(*v, (size_t)nc * size);
	if (!nv)
		return uc_err("out of memory");
	*v = nv;
	*cap = nc;
	return 0;
}

int disc_domain_ignores(const struct platform_desc *p, int dom, int type)
{
	int n;
	const struct disc_domain *d = disc_domains_of(p, &n);
	if (dom < 0 || dom >= n)
		return 0;
	for (const int *i = d[dom].ignore; i && *i >= 0; i++)
		if (*i == type)
			return 1;
	return 0;
}

/* Table ti's units, added to those of the tables before it; a unit another table of the same die already
 * gave is left out (Linux merges a die's tables: uncore_insert_box_info), and so is one of a type its
 * domain ignores (Linux uncore_ignore_unit, silently). */
static int read_units(struct disc_ctx *c, const struct disc_table *all, int ti, struct disc_unit **units, int *nu,
		      int *cap)
{
	const struct disc_table *t = &all[ti];
	struct access *a = c->u->acc;
	size_t step = (size_t)t->stride * 8, len = step * (size_t)t->max_units;
	uint8_t *buf = malloc(len);
	char tname[48];
	host_die_name(&c->u->host, t->socket, t->die, tname, sizeof(tname));
	if (!buf)
		return uc_err("out of memory");
	if (a->ops->mmio_read(a, t->bar + step, buf, len)) {
		free(buf);
		return -1;
	}
	for (int i = 0; i < t->max_units; i++) {
		uint64_t w[3];
		struct disc_unit d = { .table = ti, .entry = i };
		char why[160], label[64];
		memcpy(w, buf + step * (size_t)i, sizeof(w));
		if (!w[0] && !w[1])
			continue; /* "any non-0 entry provides discovery information" (L898) */
		if (disc_domain_ignores(c->u->plat, t->domain, (int)(w[2] & 0xffff)))
			continue;
		if (decode_unit(w, &d, why, sizeof(why))) {
			uc_warn("discovery table of %s, entry %d (%s): %s; the unit is left out", tname, i,
				disc_unit_label(c->u->plat, &d, label, sizeof(label)), why);
			continue;
		}
		int dup = 0;
		for (int k = 0; k < *nu && !dup; k++)
			dup = (*units)[k].type == d.type && (*units)[k].id == d.id &&
			      all[(*units)[k].table].socket == t->socket && all[(*units)[k].table].die == t->die;
		if (dup) {
			uc_warn("discovery table of %s, entry %d: %s appears twice; the second is left out", tname, i,
				disc_unit_label(c->u->plat, &d, label, sizeof(label)));
			continue;
		}
		if (grow((void **)units, *nu, cap, sizeof(**units))) {
			free(buf);
			return -1;
		}
		(*units)[(*nu)++] = d;
	}
	free(buf);
	return 0;
}

/* Dies without a table device: said once each, by socket and die (the other dies keep counting). */
static void missing_dies(const struct disc_ctx *c, const unsigned char seen[UC_MAX_SOCKETS][UC_MAX_DIES])
{
	const struct host_info *h = &c->u->host;
	char name[48];
	for (int s = 0; s < h->nsockets; s++)
		for (int die = 0; die < h->socket_dies[s]; die++)
			if (!seen[s][die])
				uc_warn("no PMON discovery table was found for %s (CPU %d): its units are not counted",
					host_die_name(h, s, die, name, sizeof(name)), h->die_cpu[s][die]);
}

/* What a walk of the domains keeps: its finds, read errors and the dies given a table. */
struct walk {
	struct disc_table **tables;
	struct disc_unit **units;
	int *ntables, *nunits;
	int tcap, ucap, readerr, nodeless; /* nodeless: tables found without a NUMA node (disc_table_place) */
	char lasterr[256];
	unsigned char seen[UC_MAX_SOCKETS][UC_MAX_DIES];
};

/* A table placed on a die: its global block, then its units (-1: out of memory or a read failure of them). */
static int take_table(struct disc_ctx *c, struct walk *w, struct disc_table *t, const char *where)
{
	char name[48];
	host_die_name(&c->u->host, t->socket, t->die, name, sizeof(name));
	w->seen[t->socket][t->die] = 1;
	if (read_global(c->u->acc, t)) {
		uc_warn("discovery table of %s %s: %s; the %s's discovered units are unavailable", name, where, uncore_error(),
			c->u->host.socket_dies[t->socket] > 1 ? "die" : "socket");
		return 0;
	}
	if (grow((void **)w->tables, *w->ntables, &w->tcap, sizeof(**w->tables)))
		return -1;
	(*w->tables)[(*w->ntables)++] = *t;
	return read_units(c, *w->tables, *w->ntables - 1, w->units, w->nunits, &w->ucap);
}

/* A PCI domain: each Intel device with the PMON DVSEC, of the domain's device id (any: 0x09A7 where the
 * machine has one), placed by disc_table_place. */
static int pci_domain(struct disc_ctx *c, struct walk *w, const struct disc_domain *dm, int di)
{
	struct access *a = c->u->acc;
	int only_disc = 0, rc = 0;
	char where[32], why[256];
	const struct pci_devinfo **order = disc_pci_order(c);
	if (!order)
		return -1;
	for (int i = 0; i < c->ndev && dm->base == DISC_ANY_DEVICE; i++)
		only_disc |= c->devs[i].vendor == UC_PCI_VENDOR_INTEL && c->devs[i].device == DISC_DEVICE;
	for (int i = 0; i < c->ndev && !rc; i++) {
		const struct pci_devinfo *d = order[i];
		struct disc_table t = { .dev = d->loc, .domain = di };
		uint32_t cap;
		int r;
		if (d->vendor != UC_PCI_VENDOR_INTEL || (dm->base != DISC_ANY_DEVICE && d->device != dm->base) ||
		    (only_disc && d->device != DISC_DEVICE))
			continue;
		r = find_dvsec(a, &d->loc, &cap);
		if (r < 0) {
			w->readerr++;
			snprintf(w->lasterr, sizeof(w->lasterr), "%s", uncore_error());
			continue;
		}
		if (!r)
			continue;
		r = disc_table_place(c, d, &w->nodeless, &t, why, sizeof(why));
		if (why[0])
			uc_warn("discovery table at %02x:%02x.%d: %s", d->loc.bus, d->loc.dev, d->loc.fn, why);
		if (r) {
			if (t.die < 0)
				uc_warn("discovery table at %02x:%02x.%d: its die has no online CPU; its units are not counted",
					d->loc.bus, d->loc.dev, d->loc.fn);
			else if (t.socket < 0)
				uc_warn("discovery table at %02x:%02x.%d: more tables than the host has dies, and no UBox "
					"or NUMA node says which it serves; ignored", d->loc.bus, d->loc.dev, d->loc.fn);
			else
				uc_warn("discovery table at %02x:%02x.%d: socket %d%s does not exist; ignored", d->loc.bus,
					d->loc.dev, d->loc.fn, t.socket, t.die ? " (that die)" : "");
			continue;
		}
		snprintf(where, sizeof(where), "at %02x:%02x.%d", d->loc.bus, d->loc.dev, d->loc.fn);
		if (dvsec_bar(a, &d->loc, cap, &t.bar)) {
			char name[48];
			w->seen[t.socket][t.die] = 1;
			uc_warn("discovery table of %s %s: %s; the %s's discovered units are unavailable",
				host_die_name(&c->u->host, t.socket, t.die, name, sizeof(name)), where, uncore_error(),
				c->u->host.socket_dies[t.socket] > 1 ? "die" : "socket");
			continue;
		}
		rc = take_table(c, w, &t, where);
	}
	free(order);
	return rc;
}

/* An MSR domain: the MSR read once on each die (its first CPU) holds the physical address of that die's
 * table, 0 or a failed read none (Linux 7.0 uncore_discovery_msr: rdmsrq_safe_on_cpu, "if (!base)
 * continue").  The address must be a plausible one before anything is read there. */
static int msr_domain(struct disc_ctx *c, struct walk *w, const struct disc_domain *dm, int di)
{
	const struct host_info *h = &c->u->host;
	char where[48];
	for (int s = 0; s < h->nsockets && s < UC_MAX_SOCKETS; s++)
		for (int die = 0; die < h->socket_dies[s] || die == 0; die++) {
			int cpu = host_die_cpu(h, s, die);
			uint64_t base = 0;
			struct disc_table t = { .socket = s, .die = die, .domain = di };
			if (cpu < 0 || c->u->acc->ops->msr_read(c->u->acc, cpu, dm->base, &base) || !base)
				continue;
			snprintf(where, sizeof(where), "at 0x%llx (MSR 0x%x)", (unsigned long long)base, dm->base);
			/* not a table's address: the MSR is no discovery MSR on this part (SPR/EMR's 0x201E is CHA 1's
			 * filter, which the generic probe reads there), nothing to warn of */
			if (base & 7 || base < 0x100000 || base >= 1ull << 52)
				continue;
			t.bar = base;
			for (int k = 0; k < *w->ntables && t.bar; k++) /* a table another domain gave: read once */
				if ((*w->tables)[k].bar == base)
					t.bar = 0;
			if (t.bar && take_table(c, w, &t, where))
				return -1;
		}
	return 0;
}

int disc_read_tables(struct disc_ctx *c, struct disc_table **tables, int *ntables, struct disc_unit **units,
		     int *nunits)
{
	struct walk w = { .tables = tables, .units = units, .ntables = ntables, .nunits = nunits };
	int ndom;
	const struct disc_domain *dm = disc_domains_of(c->u->plat, &ndom);
	*tables = NULL;
	*units = NULL;
	*ntables = *nunits = 0;
	for (int di = 0; di < ndom; di++)
		if ((dm[di].msr ? msr_domain : pci_domain)(c, &w, &dm[di], di))
			goto fail;
	if (!*ntables && w.readerr)
		return uc_err("no PMON discovery table could be read: %s", w.lasterr);
	if (*ntables) {
		missing_dies(c, w.seen);
		if (disc_globals_keep(c->u, *tables, *ntables))
			goto fail;
	}
	return 0;
fail:
	free(*tables);
	free(*units);
	*tables = NULL;
	*units = NULL;
	return -1;
}

/* What a table entry names: the platform's box type of a discovery type, and a label for messages. */
int disc_type_index(const struct platform_desc *p, int disc_type)
{
	for (int t = 0; t < p->ntypes; t++)
		if (p->types[t]->disc_type == disc_type)
			return t;
	return -1;
}

const char *disc_unit_label(const struct platform_desc *p, const struct disc_unit *d, char *buf, size_t len)
{
	int t = disc_type_index(p, d->type);
	if (t >= 0)
		snprintf(buf, len, "%s unit %d", p->types[t]->name, d->id);
	else
		snprintf(buf, len, "type %d, unit id %d", d->type, d->id);
	return buf;
}
