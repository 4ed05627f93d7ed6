/*
 * Simulator core: the register file and the semantics the manuals define --
 * box freeze (frz only with frz_en), reset bits, enable bits, 44/48-bit wrap,
 * reserved bits ignored, PCI counters as two dwords -- driven by a clock that
 * is real time or advanced by hand.  Accesses are decoded through the register
 * map (sim_map.c), built from the simulator's own unit models (map_*.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim.h"
#include "../error.h"

struct sim *sim_of(struct access *a) { return a && a->simulated ? a->priv : NULL; }

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t sim_now(struct sim *s) { return s->manual_clock ? s->now_ns : mono_ns() - s->epoch_ns; }

void sim_advance(struct sim *s, uint64_t ns)
{
	if (s->manual_clock)
		s->now_ns += ns;
}

/* An enable-style box control (Nehalem global control): counters run while their enable bits are set. */
static int run_style(const struct sim_unit *u) { return u->bc && u->bc->run; }

/* Frozen by the box control (an enable-style control: when none of its enable bits is set). */
static int frozen_own(const struct sim_box *b)
{
	const struct sim_boxctl *bc = b->u->bc;
	if (!bc)
		return 0;
	if (bc->run)
		return !(b->box_ctl & bc->run);
	return (b->box_ctl & bc->frz) && (!bc->frz_en || (b->box_ctl & bc->frz_en));
}

/* ... or by the socket's global freeze. */
static int frozen(const struct sim *s, const struct sim_box *b) { return s->gfrz[b->socket] || frozen_own(b); }

/* SNB-EP counts with the enable bit; the discovery generation whenever ev_sel != 0 (seed 001 L541).
 * Montecito's "enable" is its privilege-level mask plm 3:0: any bit set counts. */
static int enabled(const struct sim_unit *u, uint64_t ctl)
{
	return u->ctl_en ? !!(ctl & u->ctl_en) : !!(ctl & ((uint64_t)0xff << u->ev_shift));
}

/* An enable-style control also enables counters one by one (Nehalem EN_PCn bit n, EN_FC0 bit 32). */
static int ctr_on(const struct sim_box *b, int c)
{
	return !run_style(b->u) || (b->box_ctl & (c < 0 ? 1ull << 32 : 1ull << c));
}

/* Counters that report an overflow (IVB-EP ov_en, Montecito oi). */
static int armed(const struct sim_box *b, int c) { return b->u->ov_en && (b->ctl[c] & b->u->ov_en) && enabled(b->u, b->ctl[c]); }

static uint64_t wmask(int w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

static void count(struct sim *s, double rate, double dt, double *frac, uint64_t *ctr, int width)
{
	double inc;
	uint64_t old = *ctr;
	*frac += rate * dt;
	inc = floor(*frac);
	*frac -= inc;
	*ctr = (*ctr + (uint64_t)inc) & wmask(width);
	if (*ctr < old)
		s->wraps++;
}

/* What a counter holds after a reset: 0, or with prewrap=T the value that wraps after T seconds. */
static uint64_t reset_value(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr, int width)
{
	if (s->prewrap_s <= 0)
		return 0;
	return (uint64_t)(-(int64_t)llround(s->rate(s, b, ctl, ctr) * s->prewrap_s)) & wmask(width);
}

/* How long an overflow takes to stop the counters (freeze-on-overflow is not instantaneous, so
 * counters overflowing together are all reported: seed 002 L43).  Our model, not a documented figure. */
#define SIM_FREEZE_LAT_S 100e-9

static void box_advance(struct sim *s, struct sim_box *b);

/* Overflows stop counting socket-wide (IVB-EP): bring the boxes that can overflow up to date first,
 * so that no other box counts past the moment a freeze began. */
static void advance_armed(struct sim *s, const struct sim_box *b)
{
	if (!s->armed || s->advancing)
		return;
	s->advancing = 1;
	for (int i = 0; i < s->nboxes; i++) {
		struct sim_box *x = &s->boxes[i];
		int any = 0;
		for (int c = 0; c < x->u->nctr && !any; c++)
			any = armed(x, c);
		if (any && x != b && x->socket == b->socket)
			box_advance(s, x);
	}
	s->advancing = 0;
}

/* An overflow of armed counters: status bits, then the freeze (the socket's global freeze where the
 * platform has one, else the box's own: Montecito PMC0.fr) from time at_ns. */
static void overflowed(struct sim *s, struct sim_box *b, uint64_t bits, uint64_t at_ns)
{
	b->status |= bits;
	if (s->glob) {
		if (b->gsp >= 0 && b->gsp < 64 * SIM_MAX_GLOB_STATUS) /* EMR: the unit's Global Status Position */
			s->gstatus[b->socket][b->gsp / 64] |= 1ull << (b->gsp % 64);
		else /* IVB-EP: one bit per unit here, our model (A.4: unpublished) */
			s->gstatus[b->socket][0] |= 1ull << (b->u - s->units);
		if (!s->gfrz[b->socket]) {
			s->gfrz[b->socket] = 1;
			s->gfrz_ns[b->socket] = at_ns;
		}
	} else if (b->u->bc && !run_style(b->u)) { /* an enable-style control (Nehalem) does not stop on overflow */
		b->box_ctl |= b->u->bc->frz;
	}
}

/* Bring a box's counters up to the current time. */
static void box_advance(struct sim *s, struct sim_box *b)
{
	const struct sim_unit *u = b->u;
	uint64_t now = sim_now(s), end = now;
	advance_armed(s, b);
	if (s->gfrz[b->socket] && s->gfrz_ns[b->socket] < end) /* counted only until the global freeze */
		end = s->gfrz_ns[b->socket] > b->last_ns ? s->gfrz_ns[b->socket] : b->last_ns;
	double dt = (double)(now - b->last_ns) / 1e9, dtc = (double)(end - b->last_ns) / 1e9;
	uint64_t start = b->last_ns, ovbits = 0, old[SIM_MAX_CTR];
	b->last_ns = now;
	if (dt <= 0)
		return;
	for (int k = 0; k < b->nfr; k++) /* free-running counters ignore freeze (L5116) */
		count(s, s->rate(s, b, 0, -2 - k), dt, &b->fr_frac[k], &b->fr[k], u->fr[k].width);
	if (frozen_own(b))
		return;
	/* the first overflow of a counting armed counter stops the count a freeze latency later, where an
	 * overflow freezes (not with Nehalem's enable-style control) */
	int freezes = s->glob || !run_style(u);
	for (int c = 0; c < u->nctr; c++) {
		old[c] = b->ctr[c];
		double r = armed(b, c) && freezes ? s->rate(s, b, b->ctl[c], c) : 0;
		if (r > 0) {
			double t = ((double)(wmask(b->width) - b->ctr[c]) + 1 - b->frac[c]) / r;
			if (t + SIM_FREEZE_LAT_S < dtc)
				dtc = t + SIM_FREEZE_LAT_S;
		}
	}
	if (dtc <= 0)
		return;
	for (int c = 0; c < u->nctr; c++)
		if (enabled(u, b->ctl[c]) && ctr_on(b, c))
			count(s, s->rate(s, b, b->ctl[c], c), dtc, &b->frac[c], &b->ctr[c], b->width);
	if (u->fixed_ctl && (b->fixed_ctl & u->fixed_en) && ctr_on(b, -1))
		count(s, s->rate(s, b, 0, -1), dtc, &b->fixed_frac, &b->fixed_ctr, u->fixed_width);
	for (int c = 0; c < u->nctr; c++)
		if (armed(b, c) && b->ctr[c] < old[c])
			ovbits |= 1ull << (c + u->status_shift);
	if (ovbits)
		overflowed(s, b, ovbits, start + (uint64_t)(dtc * 1e9));
}

static void tick(struct sim *s)
{
	if (s->manual_clock)
		s->now_ns += s->tick_ns;
}

static uint64_t reg_get_local(struct sim *s, struct sim_box *b, int kind, int i)
{
	box_advance(s, b);
	switch (kind) {
	case R_BOX_CTL: /* reset commands read 0; on the discovery generation every bit is write-only */
		if (b->u->bc->pmc0)
			return (b->box_ctl & b->u->bc->frz) | b->status;
		return b->box_ctl & b->u->bc->readable;
	case R_STATUS: return b->status;
	case R_CTL: return b->ctl[i];
	case R_CTL_HI: return b->ctl[i] >> 32;
	case R_FR: return b->fr[i];
	case R_FR_HI: return b->fr[i] >> 32;
	case R_CTR: return b->ctr[i];
	case R_CTR_HI: return b->ctr[i] >> 32;
	case R_FIXED_CTL: return b->fixed_ctl;
	case R_FIXED_CTR: return b->fixed_ctr;
	case R_FIXED_CTR_HI: return b->fixed_ctr >> 32;
	case R_FILT: return b->filt[i];
	}
	return 0;
}

static void reg_set_local(struct sim *s, struct sim_box *b, int kind, int i, uint64_t v, int dword)
{
	const struct sim_unit *u = b->u;
	const struct sim_boxctl *bc = u->bc;
	box_advance(s, b);
	switch (kind) {
	case R_BOX_CTL:
		if (bc->rst_ctrs && (v & bc->rst_ctrs))
			for (int c = 0; c < u->nctr; c++) {
				b->ctr[c] = reset_value(s, b, b->ctl[c], c, b->width);
				b->frac[c] = 0;
			}
		if (bc->rst_ctrl && (v & bc->rst_ctrl))
			memset(b->ctl, 0, sizeof(b->ctl));
		b->box_ctl = v & (bc->run ? bc->run : bc->frz_en | bc->frz);
		if (bc->pmc0) /* PMC0: overflow bits are written like any bit */
			b->status = v & (0xfffull << u->status_shift);
		break;
	case R_STATUS: /* write 1 to clear */
		b->status &= ~v;
		break;
	case R_FR:
	case R_FR_HI:
		break; /* free-running counters are read-only */
	case R_CTL_HI:
		v = (b->ctl[i] & 0xffffffffull) | (v << 32);
		/* fall through */
	case R_CTL:
		if (dword && kind == R_CTL)
			v = (b->ctl[i] & ~0xffffffffull) | (v & 0xffffffffull);
		v &= u->ctl_writable; /* reserved bits are ignored */
		if (bc && !frozen(s, b) && v != b->ctl[i] && (enabled(u, v) || enabled(u, b->ctl[i])))
			s->unfrozen_ctl_writes++;
		b->ctl[i] = v & ~u->ctl_rst; /* the reset bit is a command */
		if (armed(b, i))
			s->armed = 1;
		if (v & u->ctl_rst) {
			b->ctr[i] = reset_value(s, b, b->ctl[i], i, b->width);
			b->frac[i] = 0;
		}
		break;
	case R_CTR:
		b->ctr[i] = dword ? ((b->ctr[i] & ~0xffffffffull) | (v & 0xffffffffull)) : (v & wmask(b->width));
		b->frac[i] = 0;
		if (!dword && !b->ctr[i])
			b->ctr[i] = reset_value(s, b, b->ctl[i], i, b->width);
		break;
	case R_CTR_HI:
		b->ctr[i] = ((b->ctr[i] & 0xffffffffull) | (v << 32)) & wmask(b->width);
		if (!b->ctr[i]) /* a 64-bit write of 0 completed: a reset */
			b->ctr[i] = reset_value(s, b, b->ctl[i], i, b->width);
		break;
	case R_FIXED_CTL:
		b->fixed_ctl = v & u->fixed_en;
		if (u->fixed_rst && (v & u->fixed_rst)) {
			b->fixed_ctr = reset_value(s, b, 0, -1, u->fixed_width);
			b->fixed_frac = 0;
		}
		break;
	case R_FIXED_CTR:
		b->fixed_ctr = dword ? ((b->fixed_ctr & ~0xffffffffull) | (v & 0xffffffffull)) : (v & wmask(u->fixed_width));
		if (!dword && !b->fixed_ctr)
			b->fixed_ctr = reset_value(s, b, 0, -1, u->fixed_width);
		break;
	case R_FIXED_CTR_HI:
		b->fixed_ctr = ((b->fixed_ctr & 0xffffffffull) | (v << 32)) & wmask(u->fixed_width);
		if (!b->fixed_ctr)
			b->fixed_ctr = reset_value(s, b, 0, -1, u->fixed_width);
		break;
	case R_FILT:
		b->filt[i] = v & u->filt[i].writable; /* unimplemented bits read 0 */
		break;
	}
}

/* Register access, with the box's state brought in from (and back to) a shared file when there is one. */
static uint64_t reg_get(struct sim *s, struct sim_box *b, int kind, int i)
{
	sim_shared_in(s, b);
	uint64_t v = reg_get_local(s, b, kind, i);
	sim_shared_out(s, b);
	return v;
}

static void reg_set(struct sim *s, struct sim_box *b, int kind, int i, uint64_t v, int dword)
{
	sim_shared_in(s, b);
	reg_set_local(s, b, kind, i, v, dword);
	sim_shared_wrote(s);
	sim_shared_out(s, b);
}

static int faulted(struct sim *s, const struct sim_box *b) { return b->fault && sim_now(s) >= b->fault_from_ns; }

static int fault_err(const struct sim_box *b, const char *what)
{
	if (b->fault == EACCES)
		return uc_err("%s: permission denied on simulated %s %d: needs root or CAP_SYS_RAWIO", what,
			      b->u->name, b->idx);
	return uc_err("%s: I/O error on simulated %s %d (socket %d)", what, b->u->name, b->idx, b->socket);
}

/* ---- MSR space: uncore MSRs are per socket; any CPU of the socket reaches them ---- */

/* The box whose register an address is; an address the map does not know is a bad access. */
static struct sim_box *reg_find(struct sim *s, enum sim_space sp, unsigned scope, uint64_t addr, int *kind, int *idx)
{
	struct sim_box *b = sim_map_get(s, sim_reg_key(sp, scope, addr), kind, idx);
	if (!b)
		s->bad_accesses++;
	return b;
}

static int msr_find(struct sim *s, int cpu, uint32_t reg, struct sim_box **bp, int *kind, int *idx)
{
	int socket = cpu / s->cores;
	if (cpu < 0 || socket >= s->nsockets)
		return uc_err("CPU %d does not exist on the simulated machine", cpu);
	if (!(*bp = reg_find(s, SIM_MSR, (unsigned)socket, reg, kind, idx))) /* as rdmsr of a missing MSR */
		return uc_err("MSR 0x%x: I/O error (no such register on the simulated CPU)", reg);
	return 0;
}

/* A register of a found box, unless the box is faulted; all-ones boxes read ~0. */
static int box_get(struct sim *s, struct sim_box *b, int kind, int idx, const char *what, uint64_t *v)
{
	if (faulted(s, b))
		return fault_err(b, what);
	*v = b->allones ? ~0ull : reg_get(s, b, kind, idx);
	return 0;
}

static int box_set(struct sim *s, struct sim_box *b, int kind, int idx, const char *what, uint64_t v, int dword)
{
	if (faulted(s, b))
		return fault_err(b, what);
	reg_set(s, b, kind, idx, v, dword);
	return 0;
}

/* Which global status word reg is (0, 1 ...), or -1. */
static int glob_status_word(const struct sim_global *g, uint32_t reg)
{
	int n = g->status_regs;
	if (n > SIM_MAX_GLOB_STATUS || reg < g->status || reg >= g->status + (uint32_t)n)
		return -1;
	return (int)(reg - g->status);
}

/* The global control and status MSRs of a socket (IVB-EP, EMR U_MSR_PMON_GLOBAL_CTL/STATUS). */
static int glob_reg(const struct sim *s, int cpu, uint32_t reg)
{
	const struct sim_global *g = s->glob;
	return g && (reg == g->ctl || glob_status_word(g, reg) >= 0) && cpu >= 0 && cpu / s->cores < s->nsockets;
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
		s->gfrz_ns[sock] = sim_now(s);
	} else if (resume && s->gfrz[sock]) {
		for (int i = 0; i < s->nboxes; i++) /* the frozen span is not counted */
			if (s->boxes[i].socket == sock)
				box_advance(s, &s->boxes[i]);
		s->gfrz[sock] = 0;
	}
	s->gctl[sock] = v & ~(g->frz_all | g->unfrz_all); /* the two are commands, read 0 */
}

void (*sim_new_msr_hook)(void *ctx, int cpu, uint32_t reg, int write, uint64_t val);
void *sim_new_msr_hook_ctx;

static int s_msr_read(struct access *a, int cpu, uint32_t reg, uint64_t *val)
{
	struct sim *s = a->priv;
	struct sim_box *b;
	int kind, idx;
	if (s->msr_hook)
		s->msr_hook(s->msr_hook_ctx, cpu, reg, 0, 0);
	a->stats.reads++;
	a->stats.syscalls++;
	tick(s);
	if (glob_reg(s, cpu, reg)) {
		int sock = cpu / s->cores;
		for (int i = 0; i < s->nboxes; i++) /* pending overflows show */
			if (s->boxes[i].socket == sock && s->armed)
				box_advance(s, &s->boxes[i]);
		*val = reg == s->glob->ctl ? s->gctl[sock] : s->gstatus[sock][glob_status_word(s->glob, reg)];
		return 0;
	}
	for (int i = 0; i < s->nromsr; i++)
		if (s->romsr[i].addr == reg && cpu >= 0 && cpu / s->cores < s->nsockets) {
			*val = s->romsr[i].val;
			return 0;
		}
	if (msr_find(s, cpu, reg, &b, &kind, &idx))
		return -1;
	return box_get(s, b, kind, idx, "reading an MSR", val);
}

static int s_msr_write(struct access *a, int cpu, uint32_t reg, uint64_t val)
{
	struct sim *s = a->priv;
	struct sim_box *b;
	int kind, idx;
	if (s->msr_hook)
		s->msr_hook(s->msr_hook_ctx, cpu, reg, 1, val);
	a->stats.writes++;
	a->stats.syscalls++;
	tick(s);
	if (glob_reg(s, cpu, reg)) {
		glob_write(s, cpu / s->cores, reg, val);
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
	a->stats.syscalls++;
	if (!d)
		return uc_err("reading PCI config space: %04x:%02x:%02x.%d does not exist", l->dom, l->bus, l->dev, l->fn);
	if (d->box && faulted(s, d->box))
		return fault_err(d->box, "reading PCI config space");
	if ((off & 3) || (len & 3) || off + len > sizeof(d->cfg))
		return uc_err("reading PCI config space: bad offset 0x%x length %zu", off, len);
	for (size_t k = 0; k < len / 4; k++) {
		uint32_t o = off + 4 * (uint32_t)k;
		int idx, kind = R_NONE; /* not a PMON register: plain config space (IDs, BARs, capabilities) */
		if (d->box)
			sim_map_get(s, sim_reg_key(SIM_PCI, (unsigned)(d - s->devs) + 1, o), &kind, &idx);
		tick(s);
		a->stats.reads++;
		if (d->box && d->box->allones)
			out[k] = ~0u;
		else if (kind != R_NONE)
			out[k] = (uint32_t)reg_get(s, d->box, kind, idx);
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
	a->stats.syscalls++;
	a->stats.writes++;
	tick(s);
	if (!d)
		return uc_err("writing PCI config space: %04x:%02x:%02x.%d does not exist", l->dom, l->bus, l->dev, l->fn);
	if (d->box && faulted(s, d->box))
		return fault_err(d->box, "writing PCI config space");
	if (!d->box || !reg_find(s, SIM_PCI, (unsigned)(d - s->devs) + 1, off, &kind, &idx)) {
		if (!d->box)
			s->bad_accesses++;
		return uc_err("writing PCI config %02x:%02x.%d offset 0x%x: not a PMON register", l->bus, l->dev, l->fn, off);
	}
	reg_set(s, d->box, kind, idx, val, 1);
	return 0;
}

/* ---- memory-mapped registers: discovery tables (plain bytes) and MMIO boxes ---- */

static int mmio_find(struct sim *s, uint64_t phys, struct sim_box **bp, int *kind, int *idx)
{
	if (!(*bp = reg_find(s, SIM_MMIO, 0, phys, kind, idx)))
		return uc_err("MMIO 0x%llx: no such register on the simulated machine", (unsigned long long)phys);
	return 0;
}

static int s_mmio_read(struct access *a, uint64_t phys, void *buf, size_t len)
{
	struct sim *s = a->priv;
	struct sim_box *b;
	int kind, idx;
	uint64_t v;
	a->stats.reads++;
	tick(s);
	for (int i = 0; i < s->nblobs; i++) {
		const struct sim_blob *m = &s->blobs[i];
		if (phys >= m->phys && phys + len <= m->phys + m->len) {
			memcpy(buf, m->data + (phys - m->phys), len);
			return 0;
		}
	}
	if ((len != 4 && len != 8) || mmio_find(s, phys, &b, &kind, &idx))
		return len != 4 && len != 8 ? uc_err("MMIO 0x%llx: %zu-byte read of a register",
						     (unsigned long long)phys, len) : -1;
	if (box_get(s, b, kind, idx, "reading MMIO", &v))
		return -1;
	memcpy(buf, &v, len); /* little-endian: the low bytes first */
	return 0;
}

static int s_mmio_write(struct access *a, uint64_t phys, uint64_t val, int bytes)
{
	struct sim *s = a->priv;
	struct sim_box *b;
	int kind, idx;
	a->stats.writes++;
	tick(s);
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
	h->nsockets = s->nsockets;
	h->tsc_hz = s->prof.tsc_hz;
	for (int i = 0; i < s->nsockets; i++) {
		h->socket_cpu[i] = i * s->cores;
		h->socket_cores[i] = s->cores;
	}
	return 0;
}

static int s_sleep(struct access *a, uint64_t ns)
{
	struct sim *s = a->priv;
	struct timespec ts = { (time_t)(ns / 1000000000u), (long)(ns % 1000000000u) };
	if (s->manual_clock) {
		s->now_ns += ns;
		return 0;
	}
	while (nanosleep(&ts, &ts))
		;
	return 0;
}

static uint64_t s_now(struct access *a) { return sim_now(a->priv); }

static void s_close(struct access *a)
{
	struct sim *s = a->priv;
	sim_shared_close(s);
	for (int i = 0; i < s->nblobs; i++)
		free(s->blobs[i].data);
	free(s->map);
	free(s);
	free(a);
}

static const struct access_ops sim_ops = {
	.name = "sim",
	.host = s_host,
	.msr_read = s_msr_read,
	.msr_write = s_msr_write,
	.pci_read = s_pci_read,
	.pci_write32 = s_pci_write32,
	.pci_list = s_pci_list,
	.mmio_read = s_mmio_read,
	.mmio_write = s_mmio_write,
	.sleep_ns = s_sleep,
	.now_ns = s_now,
	.close = s_close,
};

static int gstatus_any(const struct sim *s, int sock)
{
	for (int w = 0; w < SIM_MAX_GLOB_STATUS; w++)
		if (s->gstatus[sock][w])
			return 1;
	return 0;
}

int sim_changed_registers(struct sim *s, char *why, size_t len)
{
	int n = 0;
	if (why && len)
		why[0] = 0;
	sim_shared_sync(s);
	for (int i = 0; i < s->nboxes; i++) {
		struct sim_box *b = &s->boxes[i], *o = &s->snap[i];
		box_advance(s, b);
		int diff = b->box_ctl != o->box_ctl || b->fixed_ctl != o->fixed_ctl || b->fixed_ctr != o->fixed_ctr ||
			   b->status != o->status || s->gfrz[b->socket] || gstatus_any(s, b->socket) ||
			   memcmp(b->ctl, o->ctl, sizeof(b->ctl)) || memcmp(b->ctr, o->ctr, sizeof(b->ctr)) ||
			   memcmp(b->filt, o->filt, sizeof(b->filt));
		if (diff) {
			if (why && !n)
				snprintf(why, len, "%s %d socket %d", b->u->name, b->idx, b->socket);
			n++;
		}
	}
	return n;
}

/* Is word one of the comma-separated names of list ("a, b, c")? */
static int name_in_list(const char *list, const char *word)
{
	size_t wl = strlen(word);
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");
		if (l == wl && !strncmp(p, word, wl))
			return 1;
		p += l;
		p += strspn(p, ", ");
	}
	return 0;
}

int sim_fault(struct sim *s, const char *kind, const char *unit, int idx, uint64_t from_ns)
{
	int hit = 0;
	for (int i = 0; i < s->nboxes; i++) {
		struct sim_box *b = &s->boxes[i];
		if (strcmp(b->u->name, unit) || (idx >= 0 && b->idx != idx))
			continue;
		hit++;
		b->fault_from_ns = from_ns;
		if (from_ns && strcmp(kind, "eio") && strcmp(kind, "eacces"))
			return uc_err("simulator fault %s cannot be delayed (@SECONDS): only eio and eacces can", kind);
		if (!strcmp(kind, "eio"))
			b->fault = EIO;
		else if (!strcmp(kind, "eacces"))
			b->fault = EACCES;
		else if (!strcmp(kind, "allones"))
			b->allones = 1;
		else if (!strcmp(kind, "missing")) {
			for (int d = 0; d < s->ndevs; d++)
				if (s->devs[d].box == b)
					s->devs[d].present = 0;
		} else if (s->kind->faults && name_in_list(s->kind->faults, kind)) {
			if (s->kind->fault(s, kind, b))
				return -1;
		} else
			return uc_err("unknown simulator fault '%s' on %s (eio, eacces, allones, missing%s%s)", kind, s->name,
				      s->kind->faults ? ", " : "", s->kind->faults ? s->kind->faults : "");
	}
	if (!hit)
		return uc_err("simulator fault: no %s box %d", unit, idx);
	return 0;
}

uint64_t sim_field(const struct sim_box *b, const char *name)
{
	for (int i = 0; i < b->u->nfld; i++) {
		const struct sim_fld *f = &b->u->fld[i];
		if (!strcmp(f->name, name))
			return (b->filt[f->reg] >> f->lo) & wmask(f->width);
	}
	return 0;
}

void sim_set_counter(struct sim *s, const char *unit, int socket, int idx, int ctr, uint64_t val)
{
	for (int i = 0; i < s->nboxes; i++) {
		struct sim_box *b = &s->boxes[i];
		if (!strcmp(b->u->name, unit) && b->socket == socket && b->idx == idx) {
			box_advance(s, b);
			if (ctr < 0)
				b->fixed_ctr = val & wmask(b->u->fixed_width);
			else
				b->ctr[ctr] = val & wmask(b->width);
		}
	}
}

struct sim_box *sim_add_box(struct sim *s, const struct sim_unit *u, int socket, int idx)
{
	struct sim_box *b;
	if (s->nboxes == SIM_MAX_BOXES)
		return NULL;
	b = &s->boxes[s->nboxes++];
	memset(b, 0, sizeof(*b));
	b->u = u;
	b->socket = socket;
	b->idx = idx;
	b->base = (uint64_t)idx * u->box_stride;
	b->width = u->width;
	b->disc_entry = -1;
	b->gsp = -1;
	/* leftovers of an earlier user, so that "restored on close" means something */
	for (int c = 0; c < u->nctr; c++)
		b->ctr[c] = (0x1000ull * (uint64_t)(s->nboxes) + (uint64_t)c * 7) & wmask(u->width);
	for (int f = 0; f < u->nfilt; f++) /* the lowest implemented bit: an earlier user's setting */
		b->filt[f] = u->filt[f].writable & (~u->filt[f].writable + 1);
	b->fixed_ctr = 0x5555;
	return b;
}

const struct sim_unit *sim_unit_named(const struct sim *s, const char *name)
{
	for (int i = 0; i < s->nunits; i++)
		if (!strcmp(s->units[i].name, name))
			return &s->units[i];
	return NULL;
}

struct sim_dev *sim_add_dev(struct sim *s, int bus, int dev, int fn, uint16_t id)
{
	struct sim_dev *d;
	if (s->ndevs == SIM_MAX_DEVS)
		return NULL;
	d = &s->devs[s->ndevs++];
	memset(d, 0, sizeof(*d));
	d->info.loc = (struct pci_loc){ 0, bus, dev, fn };
	d->info.vendor = UC_PCI_VENDOR_INTEL;
	d->info.device = id;
	d->present = 1;
	d->cfg[0] = 0x86;
	d->cfg[1] = 0x80;
	d->cfg[2] = (uint8_t)id;
	d->cfg[3] = (uint8_t)(id >> 8);
	return d;
}

static const struct sim_kind *sim_kind_of(const char *name)
{
	for (int i = 0; sim_kinds[i]; i++)
		if (!strcmp(sim_kinds[i]->name, name))
			return sim_kinds[i];
	return NULL;
}

/* "snbep, ivbep, ..." */
static void sim_kind_names(char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; sim_kinds[i] && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", sim_kinds[i]->name);
}

/* sim:<platform>[,sockets=N][,cores=N][,profile=FILE][,clock=manual][,tick=NS][,prewrap=S][,fault=KIND:UNIT[:IDX][@S]]
 *    [,shared=FILE] */
#define SIM_MAX_FAULTS 8

struct access *access_sim_open(const char *spec)
{
	char buf[512], *opt, *save = NULL;
	struct sim *s = calloc(1, sizeof(*s));
	struct access *a = calloc(1, sizeof(*a));
	const char *profile = NULL;
	char faults[SIM_MAX_FAULTS][64];
	const char *shared = NULL;
	uint64_t spec_hash = 1469598103934665603ull; /* FNV-1a of the options other than shared= */
	int nfaults = 0;
	if (!s || !a) {
		uc_err("out of memory");
		goto fail;
	}
	if (strlen(spec) >= sizeof(buf)) {
		uc_err("simulator spec is %zu characters long; at most %zu are accepted", strlen(spec), sizeof(buf) - 1);
		goto fail;
	}
	snprintf(buf, sizeof(buf), "%s", spec);
	opt = strtok_r(buf, ",", &save);
	const struct sim_kind *k = opt ? sim_kind_of(opt) : NULL;
	if (!k) {
		char names[256];
		sim_kind_names(names, sizeof(names));
		uc_err("unknown simulated platform '%s' (available: %s)", opt ? opt : "", names);
		goto fail;
	}
	s->kind = k;
	s->name = k->name;
	s->family = k->family;
	s->model = k->model;
	s->units = k->units;
	s->nunits = *k->nunits;
	s->glob = k->glob;
	s->ubox = k->ubox;
	s->nsockets = 2;
	s->msr_hook = sim_new_msr_hook;
	s->msr_hook_ctx = sim_new_msr_hook_ctx;
	s->cores = k->cores;
	while ((opt = strtok_r(NULL, ",", &save))) {
		char *v = strchr(opt, '=');
		char *end;
		long n;
		if (!v) {
			uc_err("simulator option '%s' needs a value (key=value)", opt);
			goto fail;
		}
		*v++ = 0;
		n = strtol(v, &end, 0);
		if (strcmp(opt, "shared"))
			for (const char *c = opt; c < v + strlen(v); c++)
				spec_hash = (spec_hash ^ (uint8_t)*c) * 1099511628211ull;
		if (!strcmp(opt, "sockets") && !*end && n >= 1 && n <= UC_MAX_SOCKETS)
			s->nsockets = (int)n;
		else if (!strcmp(opt, "cores") && !*end && n >= 1 && n <= 64)
			s->cores = (int)n;
		else if (!strcmp(opt, "profile"))
			profile = v - buf + spec;
		else if (!strcmp(opt, "clock") && (!strcmp(v, "manual") || !strcmp(v, "real")))
			s->manual_clock = !strcmp(v, "manual");
		else if (!strcmp(opt, "tick") && !*end && n >= 0 && n <= 1000000000) /* at most 1 s per access */
			s->tick_ns = (uint64_t)n;
		else if (!strcmp(opt, "prewrap") && (s->prewrap_s = strtod(v, &end)) > 0 && !*end && s->prewrap_s <= 1e6)
			; /* counters reset to wrap after this many seconds (tests of wrap handling) */
		else if (!strcmp(opt, "shared") && *v)
			shared = v - buf + spec; /* one machine for every process that names this file */
		else if (!strcmp(opt, "fault") && nfaults < SIM_MAX_FAULTS)
			snprintf(faults[nfaults++], sizeof(faults[0]), "%s", v);
		else if (!strcmp(opt, "fault")) {
			uc_err("too many simulator faults: at most %d fault= options", SIM_MAX_FAULTS);
			goto fail;
		} else {
			uc_err("bad simulator option '%s=%s' (sockets=1..%d, cores=1..64, profile=FILE, "
			       "clock=manual|real, tick=0..1e9 NS, prewrap=0..1e6 SECONDS, fault=KIND:UNIT[:IDX][@SECONDS], shared=FILE)", opt, v,
			       UC_MAX_SOCKETS);
			goto fail;
		}
	}
	sim_profile_defaults(&s->prof, s->nsockets);
	if (profile) {
		char file[512];
		snprintf(file, sizeof(file), "%.*s", (int)strcspn(profile, ","), profile);
		if (sim_profile_load(&s->prof, file, s->nsockets))
			goto fail;
	}
	if (k->build(s) || sim_map_build(s))
		goto fail;
	s->epoch_ns = mono_ns();
	for (int i = 0; i < s->nboxes; i++) /* free-running counters cannot be reset: start them near the wrap */
		for (int f = 0; s->prewrap_s > 0 && f < s->boxes[i].nfr; f++)
			s->boxes[i].fr[f] = reset_value(s, &s->boxes[i], 0, -2 - f, s->boxes[i].u->fr[f].width);
	memcpy(s->snap, s->boxes, sizeof(s->snap));
	if (shared) {
		char file[400]; /* room for ".claims" in a->claims */
		snprintf(file, sizeof(file), "%.*s", (int)strcspn(shared, ","), shared);
		if (s->manual_clock) {
			uc_err("simulator option shared= needs the real clock: processes cannot share a manual one");
			goto fail;
		}
		if (sim_shared_attach(s, file, spec_hash))
			goto fail;
		snprintf(a->claims, sizeof(a->claims), "%s.claims", file);
	}
	for (int f = 0; f < nfaults; f++) {
		char *kind = faults[f], *unit, *idx, *at = strchr(kind, '@'), *end;
		double from_s = 0;
		if (at) { /* the box starts failing this many seconds after open (a box failing mid-run) */
			*at++ = 0;
			from_s = strtod(at, &end);
			if (*end || !(from_s > 0 && from_s < 1e6)) {
				uc_err("simulator fault '%s': @SECONDS must be a positive number of seconds", faults[f]);
				goto fail;
			}
		}
		if (!(unit = strchr(kind, ':'))) {
			uc_err("simulator fault '%s': expected KIND:UNIT[:IDX][@SECONDS]", kind);
			goto fail;
		}
		*unit++ = 0;
		idx = strchr(unit, ':');
		if (idx)
			*idx++ = 0;
		if (sim_fault(s, kind, unit, idx ? atoi(idx) : -1, (uint64_t)(from_s * 1e9)))
			goto fail;
	}
	a->ops = &sim_ops;
	a->priv = s;
	a->simulated = 1;
	a->virtual_clock = s->manual_clock;
	return a;
fail:
	if (s) {
		sim_shared_close(s);
		for (int i = 0; i < s->nblobs; i++) /* discovery tables already built */
			free(s->blobs[i].data);
		free(s->map);
	}
	free(s);
	free(a);
	return NULL;
}

/* The simulator is the second source the library is checked against: it must decode accesses
 * with its own register map (sim_model.h), never with the library's platform tables. */
#ifdef UNCORE_PLATFORM_H
#error "the simulator must not include platform.h"
#endif
