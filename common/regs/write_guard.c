/*
 * The write guard (write_guard.h): a sorted table of (space, where, register)
 * -> writable bits, built once the boxes are known.  Read-only registers the
 * library reads (free-running counters, the EMR CHA count, and outside the boxes
 * energy's RAPL MSRs and the uncore clock limits' on the parts that read them, from
 * the platform's descriptor) are in it too, for the msr-safe allowlist, but refuse
 * every write.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "write_guard.h"
#include "pmon_regs.h"
#include "regs.h"
#include "util/error.h"
#include "util/grow.h"

struct wg_entry {
	uint64_t key;  /* space << 60 | CPU (MSR) or packed PCI location; 0 for MMIO */
	uint64_t addr;
	uint64_t mask; /* writable bits */
	int ro;        /* read only: in the table for the allowlist, never written */
	const struct box *b; /* for the allowlist's comments: the box register kind/idx ... */
	int kind, idx;
	const char *what, *reg; /* ... or what else it is ("global", "control") */
};

struct write_guard {
	struct wg_entry *e;
	int n, cap;
};

static uint64_t msr_key(int cpu) { return (uint64_t)UC_MSR << 60 | (uint32_t)cpu; }

static uint64_t pci_key(const struct pci_loc *l)
{
	return (uint64_t)UC_PCI << 60 | (uint64_t)(uint16_t)l->dom << 24 | (uint64_t)(l->bus & 0xff) << 16 |
	       (uint64_t)(l->dev & 0xff) << 8 | (uint64_t)(l->fn & 0xff);
}

static uint64_t mmio_key(void) { return (uint64_t)UC_MMIO << 60; }

static int add_entry(struct write_guard *g, struct wg_entry e)
{
	struct wg_entry *v = uc_grow(g->e, g->n, &g->cap, sizeof(*v), 256);
	if (!v)
		return uc_err("out of memory listing the registers the handle may write");
	g->e = v;
	g->e[g->n++] = e;
	return 0;
}

static int add(struct write_guard *g, uint64_t key, uint64_t addr, uint64_t mask, int ro, const char *what,
	       const char *reg)
{
	return add_entry(g, (struct wg_entry){ .key = key, .addr = addr, .mask = mask, .ro = ro, .what = what, .reg = reg });
}

static int add_box_reg(struct write_guard *g, uint64_t key, uint64_t addr, uint64_t mask, const struct box *b,
		       const struct pmon_reg *r)
{
	return add_entry(g, (struct wg_entry){ .key = key, .addr = addr, .mask = mask, .b = b, .kind = r->kind,
					       .idx = r->idx, .what = b->t->name });
}

/* A box register: PCI registers are written a dword at a time, so each half is an entry. */
static int add_reg(struct write_guard *g, const struct box *b, const struct pmon_reg *r)
{
	switch (b->t->space) {
	case UC_MSR:
		return add_box_reg(g, msr_key(b->cpu), r->addr, r->wmask, b, r);
	case UC_MMIO:
		return add_box_reg(g, mmio_key(), r->addr, r->wmask, b, r);
	case UC_PCI: {
		uint64_t key = pci_key(r->companion ? &b->comp : &b->pci);
		if (add_box_reg(g, key, r->addr, r->wmask & 0xffffffffull, b, r))
			return -1;
		return r->bytes == 8 ? add_box_reg(g, key, r->addr + 4, r->wmask >> 32, b, r) : 0;
	}
	}
	return uc_err("internal: unknown register space");
}

static int cmp(const void *a, const void *b)
{
	const struct wg_entry *x = a, *y = b;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Sort and merge entries for one register (Montecito's PMC0 is box control and status at once). */
static void finish(struct write_guard *g)
{
	int k = 0;
	if (!g->n)
		return;
	qsort(g->e, (size_t)g->n, sizeof(*g->e), cmp);
	for (int i = 0; i < g->n; i++) {
		if (k && g->e[k - 1].key == g->e[i].key && g->e[k - 1].addr == g->e[i].addr) {
			g->e[k - 1].mask |= g->e[i].mask;
			g->e[k - 1].ro &= g->e[i].ro;
			continue;
		}
		g->e[k++] = g->e[i];
	}
	g->n = k;
}

/* The MSRs read outside the boxes on die die of a socket, read only: energy's RAPL MSRs where its msr source reads
 * them (on each die, or once a socket: energy_msr_reads, as energy_msr.c asks it), the uncore clock limits'
 * MSR_UNCORE_RATIO_LIMIT and MSR_UNCORE_PERF_STATUS on each die where the platform keeps them there. */
static int add_readers(struct write_guard *g, const struct platform_desc *p, int cpu, int die)
{
	static const uint32_t status[UNCORE_ENERGY_DOMAINS] = { MSR_PKG_ENERGY_STATUS, MSR_DRAM_ENERGY_STATUS,
								 MSR_PLATFORM_ENERGY_STATUS };
	static const char *const status_name[UNCORE_ENERGY_DOMAINS] = { "MSR_PKG_ENERGY_STATUS", "MSR_DRAM_ENERGY_STATUS",
									"MSR_PLATFORM_ENERGY_STATUS" };
	const struct energy_part *e = p->energy;
	if (e && e->msr != ENERGY_MSR_NONE && (e->msr == ENERGY_MSR_DIE || die == 0)) {
		if (add(g, msr_key(cpu), MSR_RAPL_POWER_UNIT, 0, 1, "rapl", "MSR_RAPL_POWER_UNIT"))
			return -1;
		for (int dom = 0; dom < UNCORE_ENERGY_DOMAINS; dom++)
			if (energy_msr_reads(e, dom, die) && add(g, msr_key(cpu), status[dom], 0, 1, "rapl", status_name[dom]))
				return -1;
	}
	if (p->ufreq_msr && (add(g, msr_key(cpu), UFREQ_MSR_LIMIT, 0, 1, "ufreq", "MSR_UNCORE_RATIO_LIMIT") ||
			     add(g, msr_key(cpu), UFREQ_MSR_STATUS, 0, 1, "ufreq", "MSR_UNCORE_PERF_STATUS")))
		return -1;
	return 0;
}

int write_guard_build(uncore_t *u)
{
	struct write_guard *g = calloc(1, sizeof(*g));
	const struct platform_desc *p = u->plat;
	if (!g)
		return uc_err("out of memory");
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		struct pmon_reg r[PMON_MAX_REGS];
		int n = pmon_regs_all(b, r, PMON_MAX_REGS);
		for (int k = 0; k < n && k < PMON_MAX_REGS; k++)
			if (add_reg(g, b, &r[k]))
				goto fail;
		for (int k = 0; k < b->nfr; k++) /* free-running counters: read, never written */
			if (add(g, b->t->space == UC_MSR ? msr_key(b->cpu) : b->t->space == UC_PCI ? pci_key(&b->pci) : mmio_key(),
				box_fr_addr(b, k), 0, 1, b->t->name, b->t->fr[k].name))
				goto fail;
	}
	for (int k = 0; k < u->ngctl; k++) /* discovery global controls frozen at power-on: freeze_all, bit 0 */
		if (add(g, mmio_key(), u->gctl[k].addr, 0x1, 0, "discovery", "global control"))
			goto fail;
	for (int s = 0; s < u->host.nsockets && s < UC_MAX_SOCKETS; s++) {
		for (int die = 0; die < u->host.socket_dies[s] || die == 0; die++) { /* each die has its own */
			int cpu = host_die_cpu(&u->host, s, die);
			if (p->glob_ctl &&
			    add(g, msr_key(cpu), p->glob_ctl, p->glob_frz_all | p->glob_unfrz_all, 0, "global", "control"))
				goto fail;
			for (int k = 0; k < platform_glob_status_regs(p); k++) /* write 1 to clear */
				if (add(g, msr_key(cpu), p->glob_status + (uint32_t)k, ~0ull, 0, "global", "overflow status"))
					goto fail;
			for (const uint32_t *m = p->ro_msrs; m && *m; m++)
				if (add(g, msr_key(cpu), *m, 0, 1, p->name, "read-only"))
					goto fail;
			if (add_readers(g, p, cpu, die))
				goto fail;
		}
	}
	finish(g);
	write_guard_free(u->acc);
	u->acc->guard = g;
	return 0;
fail:
	free(g->e);
	free(g);
	return -1;
}

void write_guard_free(struct access *a)
{
	if (!a->guard)
		return;
	free(a->guard->e);
	free(a->guard);
	a->guard = NULL;
}

static const struct wg_entry *lookup(const struct write_guard *g, uint64_t key, uint64_t addr)
{
	int lo = 0, hi = g ? g->n - 1 : -1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		const struct wg_entry *e = &g->e[mid];
		if (e->key == key && e->addr == addr)
			return e;
		if (e->key < key || (e->key == key && e->addr < addr))
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

/* Whether val may be written at (key, addr).  A refusal is counted and explained; "where" the write
 * went is only put into words then, keeping the allowed path to one lookup. */
static const struct wg_entry *refused(struct access *a, uint64_t key, uint64_t addr, uint64_t val, int *bad)
{
	const struct wg_entry *e = lookup(a->guard, key, addr);
	*bad = !e || e->ro || (val & ~e->mask);
	if (*bad)
		a->stats.refused_writes++;
	return e;
}

static int refusal(const struct wg_entry *e, uint64_t val, const char *where)
{
	if (!e || e->ro)
		return uc_err("internal error: refused to write 0x%" PRIx64 " to %s: not a writable PMON register of a box "
			      "on this machine (please report this)", val, where);
	return uc_err("internal error: refused to write 0x%" PRIx64 " to %s: bits 0x%" PRIx64 " are not defined there "
		      "(please report this)", val, where, val & ~e->mask);
}

int guarded_msr_write(struct access *a, int cpu, uint32_t reg, uint64_t val)
{
	char where[64];
	int bad;
	const struct wg_entry *e = refused(a, msr_key(cpu), reg, val, &bad);
	if (!bad)
		return a->ops->msr_write(a, cpu, reg, val);
	snprintf(where, sizeof(where), "MSR 0x%x on CPU %d", reg, cpu);
	return refusal(e, val, where);
}

int guarded_pci_write32(struct access *a, const struct pci_loc *l, uint32_t off, uint32_t val)
{
	char where[80];
	int bad;
	const struct wg_entry *e = refused(a, pci_key(l), off, val, &bad);
	if (!bad)
		return a->ops->pci_write32(a, l, off, val);
	snprintf(where, sizeof(where), "PCI %04x:%02x:%02x.%d offset 0x%x", l->dom, l->bus, l->dev, l->fn, off);
	return refusal(e, val, where);
}

int guarded_mmio_write(struct access *a, uint64_t phys, uint64_t val, int bytes)
{
	char where[48];
	int bad;
	if (bytes != 4 && bytes != 8)
		return uc_err("internal error: a %d-byte MMIO write", bytes);
	const struct wg_entry *e = refused(a, mmio_key(), phys, bytes == 4 ? val & 0xffffffffull : val, &bad);
	if (!bad)
		return a->ops->mmio_write(a, phys, val, bytes);
	snprintf(where, sizeof(where), "MMIO 0x%" PRIx64, phys);
	return refusal(e, val, where);
}

int write_guard_msr_mask(const struct access *a, int cpu, uint32_t reg, uint64_t *mask)
{
	const struct wg_entry *e = lookup(a->guard, msr_key(cpu), reg);
	if (!e)
		return -1;
	*mask = e->ro ? 0 : e->mask;
	return 0;
}

static int by_addr(const void *a, const void *b)
{
	const struct wg_entry *x = a, *y = b;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* The bits of an entry a group gets: without sampling, none that stops a whole die (a counter's overflow
 * enable, the global control and status). */
static uint64_t group_mask(const struct wg_entry *e, int sampling)
{
	if (sampling || e->ro)
		return e->ro ? 0 : e->mask;
	if (!e->b)
		return e->what && !strcmp(e->what, "global") ? 0 : e->mask;
	return e->kind == PK_CTL ? e->mask & ~ctl_mask(e->b->t->lay, CR_OV_EN) : e->mask;
}

char *write_guard_msr_allowlist(const struct access *a, const char *title, int sampling)
{
	const struct write_guard *g = a->guard;
	struct wg_entry *m = g && g->n ? malloc((size_t)g->n * sizeof(*m)) : NULL;
	int n = 0;
	size_t cap = 256, len = 0;
	char *out = malloc(cap);
	if (!out || (g && g->n && !m)) {
		free(m);
		free(out);
		uc_err("out of memory");
		return NULL;
	}
	for (int i = 0; g && i < g->n; i++)
		if (g->e[i].key >> 60 == UC_MSR)
			m[n++] = g->e[i];
	if (n)
		qsort(m, (size_t)n, sizeof(*m), by_addr);
	snprintf(out, cap, "# %.200s\n# MSR      Write mask\n", title);
	len = strlen(out);
	for (int i = 0; i < n;) {
		uint64_t mask = 0, full = 0;
		int ro = 1, j;
		for (j = i; j < n && m[j].addr == m[i].addr; j++) { /* one line per MSR: every CPU's bits */
			mask |= group_mask(&m[j], sampling);
			full |= m[j].ro ? 0 : m[j].mask;
			ro &= m[j].ro;
		}
		char name[48], line[160];
		if (m[i].b)
			pmon_reg_name(m[i].b, (enum pmon_kind)m[i].kind, m[i].idx, name, sizeof(name));
		int l = snprintf(line, sizeof(line), "0x%08" PRIX64 " 0x%016" PRIX64 " # %s %s%s\n", m[i].addr, mask,
				 m[i].what, m[i].b ? name : m[i].reg,
				 ro ? " (read only)" : mask != full ? " (overflow bits: --sampling)" : "");
		if (len + (size_t)l + 1 > cap) {
			char *o = realloc(out, cap = 2 * cap + (size_t)l);
			if (!o) {
				free(m);
				free(out);
				uc_err("out of memory");
				return NULL;
			}
			out = o;
		}
		memcpy(out + len, line, (size_t)l + 1);
		len += (size_t)l;
		i = j;
	}
	free(m);
	return out;
}
