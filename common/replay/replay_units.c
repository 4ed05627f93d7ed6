/*
 * A replayed node's PMON units that the simulated machine has at another place (replay_units.h).  The node's
 * discovery tables (the snapshot's mmio/ members: each table's 24-byte global block, then its unit entries) are
 * paired with the simulated machine's tables in address order, one a logical die either side; a unit of the node
 * is the simulated unit of the same access, type and id in the paired table.  Where the two differ in place (a
 * real firmware's addresses, or a snapshot taken of an older simulated board: Granite Rapids' iMC channels moved
 * to the SCF BAR, its B2CMIs to 05.1-06.5), each of the node's unit's registers is the simulated unit's of the same
 * role: its unit control (and what the table does not place: fixed counters) at the same offset, the n-th counter
 * control, counter and the status where the simulated table has them.
 */
#include <stdlib.h>
#include <string.h>
#include "replay_units.h"
#include "util/error.h"

/* One unit entry: Linux uncore_discovery.h (and discover_table.c): word 0 the counters 7:0, control 0's offset
 * 15:8, counter width 23:16, counter 0's offset 31:24, status offset 39:32, access 63:62; word 1 the unit control;
 * word 2 the type 15:0 and id 31:16. */
struct entry {
	int access, type, id, nctr;
	unsigned ctl_off, ctr_off, st_off;
	uint64_t ctl;
};
static struct entry entry_of(const uint64_t w[3])
{
	return (struct entry){ (int)(w[0] >> 62), (int)(w[2] & 0xffff), (int)(w[2] >> 16) & 0xffff, (int)(w[0] & 0xff),
			       (unsigned)(w[0] >> 8) & 0xff, (unsigned)(w[0] >> 24) & 0xff, (unsigned)(w[0] >> 32) & 0xff,
			       w[1] };
}

/* The node's bytes [phys, phys + len) from the member that holds them: 0, or 1 where none does */
struct node_read {
	const struct memfs *snap;
	uint64_t phys;
	void *buf;
	size_t len;
	int found;
};
static int node_member(void *arg, const char *name)
{
	struct node_read *m = arg;
	char *end, path[300];
	uint64_t base = strtoull(name, &end, 16);
	if (*end || end == name || m->phys < base)
		return 0;
	snprintf(path, sizeof(path), "/mmio/%s", name);
	const struct memfs_file *f = memfs_find(m->snap, path);
	if (!f || f->dir || f->link || m->phys - base > f->len || m->len > f->len - (m->phys - base))
		return 0;
	memcpy(m->buf, f->text + (m->phys - base), m->len);
	return m->found = 1;
}
static int node_read(const struct memfs *snap, uint64_t phys, void *buf, size_t len)
{
	struct node_read m = { snap, phys, buf, len, 0 };
	memfs_list(snap, "/mmio", node_member, &m);
	return !m.found;
}

/* The global blocks of the node's tables: the members of 24 bytes (read_global's), in address order */
struct globals {
	const struct memfs *snap;
	uint64_t base[SIM_MAX_BLOBS];
	int n;
};
static int global_member(void *arg, const char *name)
{
	struct globals *g = arg;
	char *end, path[300];
	uint64_t base = strtoull(name, &end, 16);
	if (*end || end == name || g->n == SIM_MAX_BLOBS)
		return 0;
	snprintf(path, sizeof(path), "/mmio/%s", name);
	const struct memfs_file *f = memfs_find(g->snap, path);
	if (f && !f->dir && !f->link && f->len == 24) {
		int i = g->n++;
		while (i > 0 && g->base[i - 1] > base) {
			g->base[i] = g->base[i - 1];
			i--;
		}
		g->base[i] = base;
	}
	return 0;
}

/* The simulated machine's tables in address order: their blob indexes (blob k is logical die k's) */
static int sim_order(const struct sim *s, int *order)
{
	int n = 0;
	for (int k = 0; k < s->nblobs && k < SIM_MAX_BLOBS; k++) {
		int i = n++;
		while (i > 0 && s->blobs[order[i - 1]].phys > s->blobs[k].phys) {
			order[i] = order[i - 1];
			i--;
		}
		order[i] = k;
	}
	return n;
}

/* Entry i of a table: from the node's bytes (snap) or a simulated table (data, len); 0, or 1 where it has none */
static int table_entry(const struct memfs *snap, uint64_t base, const uint8_t *data, size_t len, int i, struct entry *e)
{
	uint64_t g[3], w[3];
	if (snap ? node_read(snap, base, g, sizeof(g)) : len < sizeof(g))
		return 1;
	if (!snap)
		memcpy(g, data, sizeof(g));
	unsigned stride = (unsigned)(g[0] >> 8) & 0xff, n = (unsigned)(g[0] >> 16) & 0x3ff;
	uint64_t at = (uint64_t)stride * 8 * (uint64_t)(i + 1);
	if (!stride || (unsigned)i >= n)
		return 1;
	if (snap ? node_read(snap, base + at, w, sizeof(w)) : at + sizeof(w) > len)
		return 1;
	if (!snap)
		memcpy(w, data + at, sizeof(w));
	if (w[0] == ~0ull || !w[1] || w[1] == ~0ull)
		return 1;
	*e = entry_of(w);
	return 0;
}

static int add(struct unit_aliases *ua, const struct unit_alias *al)
{
	struct unit_alias *v = realloc(ua->v, (size_t)(ua->n + 1) * sizeof(*v));
	if (!v)
		return uc_err("out of memory");
	ua->v = v;
	ua->v[ua->n++] = *al;
	return 0;
}

static struct pci_loc loc_of(uint64_t ctl)
{
	return (struct pci_loc){ (int)(ctl >> 28) & 7, (int)(ctl >> 20) & 0xff, (int)(ctl >> 15) & 0x1f, (int)(ctl >> 12) & 7 };
}

int unit_aliases_build(struct unit_aliases *ua, const struct memfs *snap, const struct sim *s)
{
	struct globals g = { snap, { 0 }, 0 };
	int order[SIM_MAX_BLOBS];
	memset(ua, 0, sizeof(*ua));
	if (!memfs_has_dir(snap, "/mmio"))
		return 0;
	memfs_list(snap, "/mmio", global_member, &g);
	int ns = sim_order(s, order);
	for (int t = 0; t < g.n && t < ns; t++) {
		const struct sim_blob *sb = &s->blobs[order[t]];
		struct entry ne, se;
		for (int i = 0; !table_entry(snap, g.base[t], NULL, 0, i, &ne); i++) {
			int found = 0;
			for (int k = 0; !found && !table_entry(NULL, 0, sb->data, sb->len, k, &se); k++)
				found = se.access == ne.access && se.type == ne.type && se.id == ne.id;
			if (!found || ne.access > 2)
				continue;
			struct unit_alias al = { .access = ne.access, .scope = order[t], .nctr = ne.nctr < se.nctr ? ne.nctr : se.nctr,
						 .n_ctl = ne.ctl_off, .n_ctr = ne.ctr_off, .n_st = ne.st_off, .s_ctl = se.ctl_off,
						 .s_ctr = se.ctr_off, .s_st = se.st_off };
			if (ne.access == 2) { /* PCI: bus/devfn and the unit control's config offset (bit 31 aside) */
				al.nloc = loc_of(ne.ctl), al.sloc = loc_of(se.ctl);
				al.nbase = ne.ctl & 0xfff, al.sbase = se.ctl & 0xfff;
			} else
				al.nbase = ne.ctl, al.sbase = se.ctl;
			if ((ne.access == 2 ? memcmp(&al.nloc, &al.sloc, sizeof(al.nloc)) == 0 : 1) && al.nbase == al.sbase &&
			    al.n_ctl == al.s_ctl && al.n_ctr == al.s_ctr && al.n_st == al.s_st)
				continue; /* where the simulated machine has it */
			if (add(ua, &al))
				return -1;
		}
	}
	return 0;
}

void unit_aliases_free(struct unit_aliases *ua)
{
	free(ua->v);
	memset(ua, 0, sizeof(*ua));
}

/* The steps between a unit's counter controls and between its counters: MSR 1, PCI 8 (Linux generic ops);
 * MMIO controls 4, counters 8 (generic MMIO ops; the 8-byte MMIO units' tables place their controls alike) */
static unsigned ctl_step(int access) { return access == 0 ? 1 : access == 1 ? 4 : 8; }
static unsigned ctr_step(int access) { return access == 0 ? 1 : 8; }

/* The register rel bytes (or MSRs) past the node's unit control, as the simulated unit's: its offset there */
static uint64_t role(const struct unit_alias *al, uint64_t rel)
{
	unsigned cs = ctl_step(al->access), ks = ctr_step(al->access), n = (unsigned)al->nctr;
	if (rel >= al->n_ctl && rel < al->n_ctl + (uint64_t)n * cs)
		return al->s_ctl + (rel - al->n_ctl);
	if (rel >= al->n_ctr && rel < al->n_ctr + (uint64_t)n * ks)
		return al->s_ctr + (rel - al->n_ctr);
	if (al->n_st && rel >= al->n_st && rel < al->n_st + 8u)
		return al->s_st + (rel - al->n_st);
	return rel; /* the unit control; registers the table does not place (fixed counters) */
}

/* The registers of a unit: its unit control to the end of the farthest of them, at least 0x10 MSRs or 0x60 bytes
 * (the fixed counters past the counters: the iMC's fixed control at +0x54) */
static uint64_t span(const struct unit_alias *al)
{
	uint64_t e = al->n_ctl + (uint64_t)al->nctr * ctl_step(al->access), c = al->n_ctr + (uint64_t)al->nctr * ctr_step(al->access);
	uint64_t m = e > c ? e : c, st = al->n_st ? al->n_st + 8u : 0, least = al->access == 0 ? 0x10 : 0x60;
	m = m > st ? m : st;
	return m > least ? m : least;
}

/* The alias whose unit holds addr (the nearest unit control at or below it), of access and, for an MSR, scope, for
 * PCI, the node's function l; NULL where none does */
static const struct unit_alias *find(const struct unit_aliases *ua, int access, int scope, const struct pci_loc *l,
				     uint64_t addr)
{
	const struct unit_alias *best = NULL;
	for (int i = 0; i < ua->n; i++) {
		const struct unit_alias *al = &ua->v[i];
		if (al->access != access || (access == 0 && al->scope != scope) ||
		    (access == 2 && memcmp(&al->nloc, l, sizeof(*l))) || addr < al->nbase || addr - al->nbase >= span(al))
			continue;
		if (!best || al->nbase > best->nbase)
			best = al;
	}
	return best;
}

int unit_alias_msr(const struct unit_aliases *ua, int scope, uint32_t reg, uint32_t *out)
{
	const struct unit_alias *al = find(ua, 0, scope, NULL, reg);
	if (al)
		*out = (uint32_t)(al->sbase + role(al, reg - al->nbase));
	return al != NULL;
}

int unit_alias_mmio(const struct unit_aliases *ua, uint64_t phys, uint64_t *out)
{
	const struct unit_alias *al = find(ua, 1, 0, NULL, phys);
	if (al)
		*out = al->sbase + role(al, phys - al->nbase);
	return al != NULL;
}

int unit_alias_pci(const struct unit_aliases *ua, const struct pci_loc *l, uint32_t off, struct pci_loc *sl, uint32_t *soff)
{
	const struct unit_alias *al = find(ua, 2, 0, l, off);
	if (al) {
		*sl = al->sloc;
		*soff = (uint32_t)(al->sbase + role(al, off - al->nbase));
	}
	return al != NULL;
}
