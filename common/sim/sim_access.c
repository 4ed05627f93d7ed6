/* The simulator as an access backend: MSR, PCI configuration and MMIO accesses decoded through its map. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sim.h"
#include "util/error.h"
#include "sim_only.h"
#include "sim_numa.h"
#include "sim_clockmsr.h"

/* ---- MSR space: uncore MSRs are per socket; any CPU of the socket reaches them ---- */

/* The box whose register an address is; an address the map does not know is a bad access. */
static inline struct sim_box *reg_find(struct sim *s, enum sim_space sp, unsigned scope, uint64_t addr, int *kind, int *idx)
{
	struct sim_box *b = sim_map_find(s, sim_key(sp, scope, addr), kind, idx);
	if (!b)
		s->bad_accesses++;
	return b;
}

static inline int msr_find(struct sim *s, int cpu, uint32_t reg, struct sim_box **bp, int *kind, int *idx)
{
	int scope = cpu / s->cores;
	if (cpu < 0 || scope >= sim_scopes(s))
		return uc_err("CPU %d does not exist on the simulated machine", cpu);
	if (!(*bp = reg_find(s, SIM_MSR, (unsigned)scope, reg, kind, idx))) /* as rdmsr of a missing MSR */
		return uc_err("MSR 0x%x: I/O error (no such register on the simulated CPU)", reg);
	return 0;
}

/* A register of a found box, unless the box is faulted; all-ones boxes read ~0. */
static inline int box_get(struct sim *s, struct sim_box *b, int kind, int idx, const char *what, uint64_t *v)
{
	if (sim_faulted_now(s, b))
		return sim_fault_err(b, what);
	*v = sim_allones_now(s, b) ? ~0ull : sim_reg_read(s, b, kind, idx);
	return 0;
}

static int box_set(struct sim *s, struct sim_box *b, int kind, int idx, const char *what, uint64_t v, int dword)
{
	if (sim_faulted_now(s, b))
		return sim_fault_err(b, what);
	sim_reg_set(s, b, kind, idx, v, dword);
	return 0;
}

/* Which global status word reg is (0, 1 ...), or -1. */
static inline int glob_status_word(const struct sim_global *g, uint32_t reg)
{
	int n = g->status_regs;
	if (n > SIM_MAX_GLOB_STATUS || reg < g->status || reg >= g->status + (uint32_t)n)
		return -1;
	return (int)(reg - g->status);
}

/* The global control and status MSRs of a socket (IVB-EP, EMR U_MSR_PMON_GLOBAL_CTL/STATUS). */
static inline int glob_reg(const struct sim *s, int cpu, uint32_t reg)
{
	const struct sim_global *g = s->glob;
	return g && (reg == g->ctl || glob_status_word(g, reg) >= 0) && cpu >= 0 && cpu / s->cores < sim_scopes(s);
}

static void glob_write(struct sim *s, int sock, uint32_t reg, uint64_t v)
{
	const struct sim_global *g = s->glob;
	int w = glob_status_word(g, reg);
	if (w >= 0) { /* write 1 to clear */
		s->gstatus[sock][w] &= ~v;
		return;
	}
	/* IVB-EP resumes with its unfrz_all command; EMR has none: frz_all written 0 resumes (L1291) */
	int resume = g->unfrz_all ? (v & g->unfrz_all) != 0 : !(v & g->frz_all);
	if (v & g->frz_all && !s->gfrz[sock]) {
		s->gfrz[sock] = 1;
		s->gfrz_ns[sock] = sim_clock(s);
	} else if (resume && s->gfrz[sock]) {
		sim_advance_scope(s, sock); /* the frozen span is not counted */
		s->gfrz[sock] = 0;
	}
	s->gctl[sock] = v & ~(g->frz_all | g->unfrz_all); /* the two are commands, read 0 */
}

static inline void access_point(struct sim *s)
{
	if (++s->accesses == s->kill_at)
		kill(getpid(), SIGKILL);
}

void sim_access_point(struct sim *s) { access_point(s); }

static inline void tick(struct sim *s)
{
	if (s->manual_clock)
		s->now_ns += s->tick_ns;
}

void (*sim_new_msr_hook)(void *ctx, int cpu, uint32_t reg, int write, uint64_t val);
void *sim_new_msr_hook_ctx;

/* A global control or status MSR of scope sock. */
static uint64_t glob_read(struct sim *s, int sock, uint32_t reg)
{
	uint64_t v;
	sim_shared_in(s, NULL);
	if (s->armed) /* pending overflows show */
		sim_advance_scope(s, sock);
	v = reg == s->glob->ctl ? s->gctl[sock] : s->gstatus[sock][glob_status_word(s->glob, reg)];
	sim_shared_out(s, NULL);
	return v;
}

/* An MSR as rdmsr on cpu gives it (the accounting is the caller's). */
static inline int msr_get(struct sim *s, int cpu, uint32_t reg, uint64_t *val)
{
	struct sim_box *b;
	int kind, idx;
	if (s->msr_hook)
		s->msr_hook(s->msr_hook_ctx, cpu, reg, 0, 0);
	access_point(s);
	tick(s);
	if (glob_reg(s, cpu, reg)) {
		*val = glob_read(s, cpu / s->cores, reg);
		return 0;
	}
	for (int i = 0; i < s->nromsr; i++)
		if (s->romsr[i].addr == reg && cpu >= 0 && cpu / s->cores < sim_scopes(s)) {
			*val = sim_romsr_val(s, i, cpu / s->cores);
			return 0;
		}
	int rapl = cpu >= 0 && cpu / s->cores < sim_scopes(s) ? sim_rapl_msr(s, cpu / s->cores, reg, val) : 0;
	if (!rapl && SIM_CLOCK_REG(reg) && cpu >= 0 && cpu / s->cores < sim_scopes(s))
		rapl = sim_clock_msr(s, cpu / s->cores, reg, val); /* PLATFORM_INFO and the TSC (sim_clockmsr.c) */
	if (rapl) /* the energy MSRs (sim_rapl.c) */
		return rapl < 0 ? -1 : 0;
	if (msr_find(s, cpu, reg, &b, &kind, &idx))
		return -1;
	return box_get(s, b, kind, idx, "reading an MSR", val);
}

/* pread of /dev/cpu/N/msr: a system call, an interrupt when the caller is on another CPU */
/* An offline CPU's MSR device is gone, as /dev/cpu/N/msr is (changes=FILE) */
static int offline(const struct sim *s, int cpu)
{
	char path[48];
	if (sim_cpu_online(s, cpu))
		return 0;
	snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
	return access_errno_error(ENXIO, path, "simulated CPU offline");
}

static int s_msr_read(struct access *a, int cpu, uint32_t reg, uint64_t *val)
{
	if (offline(a->priv, cpu))
		return -1;
	a->stats.reads++;
	a->stats.syscalls++;
	access_cost(a, COST_MSR, cpu, 1);
	return msr_get(a->priv, cpu, reg, val);
}

/* A box a batch reads a register of, at the batch's instant now: -1 faulted, 1 reading all ones, else 0 with
 * the box brought up to now (and another agent's strike made where it is due). */
static inline int batch_box(struct sim *s, struct sim_box *b, uint64_t now)
{
	if (b->fault && now >= b->fault_from_ns)
		return -1;
	if (b->allones && now >= b->fault_from_ns)
		return 1;
	if (now != b->last_ns || (s->armed && !s->advancing))
		sim_box_advance_to(s, b, now);
	if (b->agent == 1)
		sim_agent_strike(s, b);
	return 0;
}

/* msr_get over a batch of a CPU of the machine (scope: its die), without an MSR hook or a shared file: the
 * same steps for each register, with what stays over the batch taken once -- the clock, which stands at
 * now (s->held) until the batch ends, the CPU's MSR space, the global registers' place -- and the register
 * found in the MSR table where it has it.  Nothing in the batch reads the accesses' count or the manual
 * clock's now_ns (the clock is held): each register's access_point and tick are counted here and made
 * when the batch ends, or before the access kill_at names. */
static int msr_batch(struct sim *s, int scope, const uint32_t *regs, int n, uint64_t *vals, uint64_t now)
{
	const struct sim_global *g = s->glob;
	const struct sim_msr_slot *tab = s->msr_tab ? s->msr_tab + (size_t)scope * s->msr_span : NULL;
	uint64_t key0 = sim_key(SIM_MSR, (unsigned)scope, 0), kill_in = s->kill_at - s->accesses;
	uint32_t lo = s->msr_lo, span = s->msr_span;
	const struct sim_box *ready = NULL; /* the box last brought up to now, none faulted or all ones */
	int i, rc = 0;
	for (i = 0; i < n; i++) {
		uint32_t reg = regs[i];
		struct sim_box *b;
		if ((uint64_t)i + 1 == kill_in) { /* access_point: this access is the one kill_at names */
			s->accesses += (uint64_t)i + 1;
			if (s->manual_clock) /* (its tick comes after) */
				s->now_ns += (uint64_t)i * s->tick_ns;
			kill(getpid(), SIGKILL);
			s->accesses -= (uint64_t)i + 1; /* counted at the end, as the others */
			if (s->manual_clock)
				s->now_ns -= (uint64_t)i * s->tick_ns;
		}
		int rapl = SIM_RAPL_REG(reg) ? sim_rapl_msr(s, scope, reg, &vals[i])
			   : SIM_CLOCK_REG(reg) ? sim_clock_msr(s, scope, reg, &vals[i]) : 0;
		if (rapl > 0) /* the energy and clock MSRs (sim_rapl.c, sim_clockmsr.c), outside every box */
			continue;
		if (rapl < 0) {
			rc = -1;
			break;
		}
		if (reg - lo < span && tab[reg - lo].kind != SIM_MSR_OTHER) { /* neither global nor read-only: the table's */
			const struct sim_msr_slot *e = &tab[reg - lo];
			if (!e->box_at)
				goto missing;
			b = (struct sim_box *)(void *)((char *)s + e->box_at);
			if (b != ready || s->armed) { /* (a box's registers come together: it is brought up to now once) */
				int st = batch_box(s, b, now);
				if (st < 0)
					goto fault;
				if (st > 0) {
					vals[i] = ~0ull;
					continue;
				}
				ready = b;
			}
			/* sim_reg_value_at; off 0: the box control, whose index is 0 */
			vals[i] = e->off ? *(const uint64_t *)(const void *)((const char *)b + e->off) >> e->shift
					 : sim_reg_value(b, e->kind, 0);
			continue;
		}
		/* msr_get's way: global control, read-only MSRs, the map */
		const struct sim_reg *r;
		if (g && (reg == g->ctl || glob_status_word(g, reg) >= 0)) {
			vals[i] = glob_read(s, scope, reg);
			continue;
		}
		int k;
		for (k = 0; k < s->nromsr && s->romsr[k].addr != reg; k++)
			;
		if (k < s->nromsr) {
			vals[i] = sim_romsr_val(s, k, scope);
			continue;
		}
		if (!(r = sim_map_entry(s, key0 | reg)))
			goto missing;
		b = &s->boxes[r->box - 1];
		int st = batch_box(s, b, now);
		if (st < 0)
			goto fault;
		if (st > 0) {
			vals[i] = ~0ull;
			continue;
		}
		vals[i] = sim_reg_value_at(b, r->at, r->kind, r->idx);
		continue;
	missing: /* as rdmsr of a missing MSR */
		s->bad_accesses++;
		rc = uc_err("MSR 0x%x: I/O error (no such register on the simulated CPU)", reg);
		break;
	fault:
		rc = sim_fault_err(b, "reading an MSR");
		break;
	}
	if (i < n) /* the access that failed counted too */
		i++;
	s->accesses += (uint64_t)i;
	if (s->manual_clock)
		s->now_ns += (uint64_t)i * s->tick_ns;
	return rc;
}

/* msr-safe's X86_IOC_MSR_BATCH: one call runs every rdmsr on the CPU (one interrupt at most), in the kernel
 * in a few microseconds: the simulator reads them all at one instant of its clock (however long this
 * process takes over it, or is preempted in it) and says which */
static int s_msr_read_batch(struct access *a, int cpu, const uint32_t *regs, int n, uint64_t *vals, uint64_t *at)
{
	struct sim *s = a->priv;
	int held = s->held, rc = 0;
	if (offline(s, cpu))
		return -1;
	a->stats.reads += (uint64_t)n;
	a->stats.syscalls++;
	access_cost(a, COST_MSR_BATCH, cpu, n);
	*at = sim_clock(s);
	s->held = 1;
	s->hold_ns = *at;
	if (!s->msr_hook && !s->shm && cpu >= 0 && cpu / s->cores < sim_scopes(s))
		rc = msr_batch(s, cpu / s->cores, regs, n, vals, *at);
	else
		for (int i = 0; i < n && !rc; i++)
			rc = msr_get(s, cpu, regs[i], &vals[i]);
	s->held = held;
	return rc;
}

static int s_msr_write(struct access *a, int cpu, uint32_t reg, uint64_t val)
{
	struct sim *s = a->priv;
	struct sim_box *b;
	int kind, idx;
	if (offline(s, cpu))
		return -1;
	if (s->msr_hook)
		s->msr_hook(s->msr_hook_ctx, cpu, reg, 1, val);
	access_point(s);
	a->stats.writes++;
	a->stats.syscalls++;
	tick(s);
	if (glob_reg(s, cpu, reg)) {
		sim_shared_in(s, NULL);
		glob_write(s, cpu / s->cores, reg, val);
		sim_shared_wrote(s);
		sim_shared_out(s, NULL);
		return 0;
	}
	if (msr_find(s, cpu, reg, &b, &kind, &idx))
		return -1;
	return box_set(s, b, kind, idx, "writing an MSR", val, 0);
}

/* ---- PCI configuration space ---- */

static struct sim_dev *dev_find(struct sim *s, const struct pci_loc *l)
{
	for (int i = 0; i < s->ndevs; i++)
		if (s->devs[i].present && !memcmp(&s->devs[i].info.loc, l, sizeof(*l)))
			return &s->devs[i];
	return NULL;
}

static int s_pci_read(struct access *a, const struct pci_loc *l, uint32_t off, void *buf, size_t len)
{
	struct sim *s = a->priv;
	struct sim_dev *d = dev_find(s, l);
	uint32_t *out = buf;
	access_point(s);
	a->stats.syscalls++;
	access_cost(a, COST_PCI, -1, (int)(len / 4));
	if (!d)
		return uc_err("reading PCI config space: %04x:%02x:%02x.%d does not exist", l->dom, l->bus, l->dev, l->fn);
	if (d->box && sim_faulted_now(s, d->box))
		return sim_fault_err(d->box, "reading PCI config space");
	if ((off & 3) || (len & 3) || off + len > sizeof(d->cfg))
		return uc_err("reading PCI config space: bad offset 0x%x length %zu", off, len);
	for (size_t k = 0; k < len / 4; k++) {
		uint32_t o = off + 4 * (uint32_t)k;
		int idx, kind = R_NONE; /* not a PMON register: plain config space (IDs, BARs, capabilities) */
		if (d->box)
			sim_map_find(s, sim_key(SIM_PCI, (unsigned)(d - s->devs) + 1, o), &kind, &idx);
		tick(s);
		a->stats.reads++;
		if (d->box && sim_allones_now(s, d->box))
			out[k] = ~0u;
		else if (kind != R_NONE)
			out[k] = (uint32_t)sim_reg_read(s, d->box, kind, idx);
		else
			memcpy(&out[k], d->cfg + o, 4);
	}
	return 0;
}

static int s_pci_write32(struct access *a, const struct pci_loc *l, uint32_t off, uint32_t val)
{
	struct sim *s = a->priv;
	struct sim_dev *d = dev_find(s, l);
	int idx, kind;
	access_point(s);
	a->stats.syscalls++;
	a->stats.writes++;
	tick(s);
	if (!d)
		return uc_err("writing PCI config space: %04x:%02x:%02x.%d does not exist", l->dom, l->bus, l->dev, l->fn);
	if (d->box && sim_faulted_now(s, d->box))
		return sim_fault_err(d->box, "writing PCI config space");
	if (!d->box || !reg_find(s, SIM_PCI, (unsigned)(d - s->devs) + 1, off, &kind, &idx)) {
		if (!d->box)
			s->bad_accesses++;
		return uc_err("writing PCI config %02x:%02x.%d offset 0x%x: not a PMON register", l->bus, l->dev, l->fn, off);
	}
	sim_reg_set(s, d->box, kind, idx, val, 1);
	return 0;
}

/* ---- memory-mapped registers: discovery tables (plain bytes) and MMIO boxes ---- */

static int mmio_find(struct sim *s, uint64_t phys, struct sim_box **bp, int *kind, int *idx)
{
	if (!(*bp = reg_find(s, SIM_MMIO, 0, phys, kind, idx)))
		return uc_err("MMIO 0x%llx: no such register on the simulated machine", (unsigned long long)phys);
	return 0;
}

/* The scope a global control in MMIO freezes (s->mglob), or -1. */
static int mglob_scope(const struct sim *s, uint64_t phys)
{
	for (int i = 0; i < s->nmglob; i++)
		if (s->mglob[i].phys == phys)
			return s->mglob[i].scope;
	return -1;
}

/* freeze_all, bit 0, of an MMIO global control: set freezes the scope's boxes, clear resumes them (Linux 7.0
 * uncore_mmio_global_init writes 0 "to enable all counters"); it reads back as set or clear. */
static uint64_t mglob_access(struct sim *s, int sc, int write, uint64_t v)
{
	sim_shared_in(s, NULL);
	if (write && (v & 1) && !s->gfrz[sc]) {
		s->gfrz[sc] = 1;
		s->gfrz_ns[sc] = sim_clock(s);
	} else if (write && !(v & 1) && s->gfrz[sc]) {
		sim_advance_scope(s, sc); /* the frozen span is not counted */
		s->gfrz[sc] = 0;
	}
	v = s->gfrz[sc] ? 1 : 0;
	sim_shared_out(s, NULL);
	return v;
}

/* A box's register through its map entry r, brought up to now (box_get, sim_reg_read_at): 0, 1 where the box
 * reads all ones, -1 (an error said) where it faults. */
static inline int mmio_box_get(struct sim *s, const struct sim_reg *r, uint64_t *v)
{
	struct sim_box *b = &s->boxes[r->box - 1];
	if (sim_faulted_now(s, b))
		return sim_fault_err(b, "reading MMIO");
	if (sim_allones_now(s, b)) {
		*v = ~0ull;
		return 1;
	}
	if (s->shm) {
		*v = sim_reg_get(s, b, r->kind, r->idx);
		return 0;
	}
	uint64_t now = sim_clock(s); /* (sim_reg_read_at, spelt out: the compiler would make a call of it) */
	if (now != b->last_ns || (s->armed && !s->advancing))
		sim_box_advance_to(s, b, now);
	if (b->agent == 1)
		sim_agent_strike(s, b);
	*v = sim_reg_value_at(b, r->at, r->kind, r->idx);
	return 0;
}

/* An access of len bytes at phys may fall in a blob (none holds an address outside blob_lo..blob_hi). */
static inline int near_blobs(const struct sim *s, uint64_t phys, size_t len)
{
	return phys >= s->blob_lo && (phys <= s->blob_hi || phys + len < phys);
}

/* An MMIO register's value (the access counted already): a blob's bytes, a global control, or a box's register. */
static inline int mmio_get(struct sim *s, uint64_t phys, void *buf, size_t len)
{
	const struct sim_reg *r;
	uint64_t v;
	int sc;
	if (s->nmglob && (len == 4 || len == 8) && (sc = mglob_scope(s, phys)) >= 0) {
		v = mglob_access(s, sc, 0, 0);
		memcpy(buf, &v, len);
		return 0;
	}
	if (near_blobs(s, phys, len))
		for (int i = 0; i < s->nblobs; i++) {
			const struct sim_blob *m = &s->blobs[i];
			if (phys >= m->phys && phys + len <= m->phys + m->len) {
				memcpy(buf, m->data + (phys - m->phys), len);
				return 0;
			}
		}
	if (len != 4 && len != 8)
		return uc_err("MMIO 0x%llx: %zu-byte read of a register", (unsigned long long)phys, len);
	if (!(r = sim_map_entry(s, sim_key(SIM_MMIO, 0, phys)))) { /* mmio_find */
		s->bad_accesses++;
		return uc_err("MMIO 0x%llx: no such register on the simulated machine", (unsigned long long)phys);
	}
	if (mmio_box_get(s, r, &v) < 0)
		return -1;
	if (len == 4) /* little-endian: the low bytes first */
		memcpy(buf, &v, 4);
	else
		memcpy(buf, &v, 8);
	return 0;
}

static int s_mmio_read(struct access *a, uint64_t phys, void *buf, size_t len)
{
	struct sim *s = a->priv;
	access_point(s);
	a->stats.reads++;
	access_cost(a, COST_MMIO, -1, 1);
	tick(s);
	return mmio_get(s, phys, buf, len);
}

/* Several 8-byte MMIO loads, each as s_mmio_read (an access, a tick), priced together.  Where the clock stands
 * over them (held by a read, or manual without ticks) and no global control, armed counter or other process
 * can change a box in between, a box's loads after its first find it brought up to now: each is its entry in
 * the map and the value there. */
static int s_mmio_read_many(struct access *a, const uint64_t *phys, int n, uint64_t *v)
{
	struct sim *s = a->priv;
	const struct sim_box *ready = NULL; /* the box last brought up to now, neither faulted nor all ones */
	int still = !s->nmglob && !s->shm && !s->armed && (s->held || (s->manual_clock && !s->tick_ns));
	access_cost(a, COST_MMIO, -1, n);
	for (int i = 0; i < n; i++) {
		const struct sim_reg *r;
		access_point(s);
		a->stats.reads++;
		tick(s);
		v[i] = 0;
		if (still && !near_blobs(s, phys[i], 8) &&
		    (r = sim_map_entry(s, sim_key(SIM_MMIO, 0, phys[i])))) {
			const struct sim_box *b = &s->boxes[r->box - 1];
			int st = b == ready ? 0 : mmio_box_get(s, r, &v[i]);
			if (st < 0)
				return -1;
			if (b == ready)
				v[i] = sim_reg_value_at(b, r->at, r->kind, r->idx);
			ready = st ? NULL : b;
			continue;
		}
		if (mmio_get(s, phys[i], &v[i], 8))
			return -1;
	}
	return 0;
}

static int s_mmio_write(struct access *a, uint64_t phys, uint64_t val, int bytes)
{
	struct sim *s = a->priv;
	struct sim_box *b;
	int kind, idx, sc;
	access_point(s);
	a->stats.writes++;
	tick(s);
	if (s->nmglob && (sc = mglob_scope(s, phys)) >= 0)
		return mglob_access(s, sc, 1, val), 0;
	if (mmio_find(s, phys, &b, &kind, &idx))
		return -1;
	return box_set(s, b, kind, idx, "writing MMIO", bytes == 4 ? (val & 0xffffffffull) : val,
		       bytes == 4 && kind == R_CTR);
}

static int s_pci_list(struct access *a, struct pci_devinfo **out, int *n)
{
	struct sim *s = a->priv;
	int k = 0;
	*out = calloc((size_t)s->ndevs + 1, sizeof(**out));
	if (!*out)
		return uc_err("out of memory");
	for (int i = 0; i < s->ndevs; i++)
		if (s->devs[i].present)
			(*out)[k++] = s->devs[i].info;
	*n = k;
	return 0;
}

static int s_host(struct access *a, struct host_info *h)
{
	struct sim *s = a->priv;
	memset(h, 0, sizeof(*h));
	snprintf(h->vendor, sizeof(h->vendor), "GenuineIntel");
	h->family = s->family;
	h->model = s->model;
	h->stepping = s->stepping;
	h->has_pmem = s->prof.pmem > 0;
	h->nsockets = s->nsockets;
	h->tsc_hz = s->prof.tsc_hz;
	memset(h->cpu_socket, -1, sizeof(h->cpu_socket));
	memset(h->cpu_core, -1, sizeof(h->cpu_core));
	memset(h->cpu_thread, -1, sizeof(h->cpu_thread));
	int per_socket = s->cores * s->dies;
	h->ncpus = s->nsockets * per_socket < UC_MAX_CPUS ? s->nsockets * per_socket : UC_MAX_CPUS;
	long *die_id = malloc(UC_MAX_CPUS * sizeof(*die_id));
	if (!die_id)
		return uc_err("out of memory");
	for (int i = 0; i < s->nsockets; i++) {
		int on = sim_first_online(s, i * per_socket, per_socket); /* changes=FILE */
		h->socket_cpu[i] = on >= 0 ? on : (i + 1) * per_socket - 1; /* (none online: its last) */
		h->socket_cores[i] = per_socket;
		/* the simulated kernel's sysfs tree numbers CPUs the same way: socket by socket, die by die */
		for (int c = i * per_socket; c < (i + 1) * per_socket && c < UC_MAX_CPUS; c++) {
			int on = sim_cpu_online(s, c);
			h->cpu_socket[c] = (signed char)(on ? i : -1);
			h->cpu_core[c] = (short)(on ? c - i * per_socket : -1); /* one thread a core (sim_jobs.c's tid) */
			h->cpu_thread[c] = (signed char)(on ? 0 : -1);
			die_id[c] = on ? sim_cpu_die_id(s, c) : -1;
		}
	}
	host_dies_from_ids(h, die_id);
	free(die_id);
	for (int n = 0; n < UC_MAX_NODES; n++) { /* a NUMA node per logical die or SNC domain (sim_numa.c); numa=off: node 0 */
		int sc = s->numa_off ? (n ? -1 : 0) : sim_scope_of_node(s, n);
		h->node_die[n] = (short)(sc >= 0 ? sc / s->dies * UC_MAX_DIES + sc % s->dies : n < sim_numa_nodes(s) ? HOST_NODE_NO_CPU : -1);
	}
	return 0;
}

/* The node's changes (changes=FILE) made, its files made again where one was: 1 some, 0 none, -1 */
static int s_node_poll(struct access *a)
{
	int rc = sim_changes_poll(a->priv);
	return rc > 0 && access_files_refresh(a) ? -1 : rc;
}

static int s_sleep(struct access *a, uint64_t ns)
{
	struct sim *s = a->priv;
	s_node_poll(a); /* (a change it cannot make is said at the library's node check) */
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	if (s->manual_clock) {
		s->now_ns += ns;
		return 0;
	}
	while (nanosleep(&ts, &ts))
		;
	return 0;
}

static uint64_t s_now(struct access *a) { return sim_clock(a->priv); }

/* The wall clock once the changes file sets it ("realtime"), running with the machine's; 0 before: the host's */
static uint64_t s_real(struct access *a)
{
	const struct sim *s = a->priv;
	return s->wall_set ? s->wall_ns + (sim_clock(s) - s->wall_at) : 0;
}

/* The library's read of every box at one instant: a real-time clock taken once, not at each of the read's
 * hundreds of registers (each a clock_gettime, 40 ns in a VM: most of a 100 Hz read's time), and the instant
 * the library times the read with, so that its rates divide by the time the counters counted.  That holds on
 * a machine shared with other processes too (a box another process brought past the instant held is read as
 * it left it: sim_box_now); its registers kept their own instants before, each as late as the lock and the
 * scheduler let it be (a first interval 1 ms long read 0.8 % off on sim:hsx,shared= beside two CPU hogs).
 * A manual clock is left ticking (its tests time accesses). */
static uint64_t s_hold_clock(struct access *a, int on)
{
	struct sim *s = a->priv;
	if (on && !s->reading)
		s_node_poll(a); /* a read's start: the node as the changes file now says */
	if (s->manual_clock)
		return 0;
	if (on) {
		if (s->reading++ == 0 && !s->held) {
			s->hold_ns = sim_clock(s);
			s->held = 1;
			s->reading_holds = 1;
		}
	} else if (s->reading > 0 && --s->reading == 0 && s->reading_holds) {
		s->held = 0;
		s->reading_holds = 0;
	}
	return sim_clock(s);
}

static void s_settle(struct access *a) { sim_settle(a->priv); }

int sim_files(struct access *a, struct memfs *m); /* sim_files.c */
extern const struct access_drive sim_drive;

static void s_close(struct access *a)
{
	access_files_free(a); /* its powercap files read the machine */
	sim_free(a->priv);
	free(a);
}

const struct access_ops sim_access_ops = {
	.name = "sim",
	.host = s_host,
	.msr_read = s_msr_read,
	.msr_write = s_msr_write,
	.msr_read_batch = s_msr_read_batch,
	.pci_read = s_pci_read,
	.pci_write32 = s_pci_write32,
	.pci_list = s_pci_list,
	.mmio_read = s_mmio_read,
	.mmio_read_many = s_mmio_read_many,
	.mmio_write = s_mmio_write,
	.sleep_ns = s_sleep,
	.now_ns = s_now,
	.real_ns = s_real,
	.hold_clock = s_hold_clock,
	.settle = s_settle,
	.close = s_close,
	.files = sim_files,
	.node_poll = s_node_poll,
	.drive = &sim_drive,
};
