/*
 * Simulator core: the register file and the semantics the manuals define --
 * box freeze (frz only with frz_en), reset bits, enable bits, 44/48-bit wrap,
 * reserved bits ignored, PCI counters as two dwords -- driven by a clock that
 * is real time or advanced by hand.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim.h"
#include "../pmon_regs.h"
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

/* Frozen by the box control (an enable-style control: when none of its enable bits is set). */
static int frozen_own(const struct sim_box *b)
{
	const struct box_ctl_bits *bc = b->t->bc;
	if (bc->run)
		return !(b->box_ctl & bc->run);
	return b->t->has_box_ctl && (b->box_ctl & bc->frz) && (!bc->frz_en || (b->box_ctl & bc->frz_en));
}

/* ... or by the socket's global freeze. */
static int frozen(const struct sim *s, const struct sim_box *b) { return s->gfrz[b->socket] || frozen_own(b); }

/* SNB-EP counts with the enable bit; the discovery generation whenever ev_sel != 0 (seed 001 L541).
 * Montecito's "enable" is its privilege-level mask plm 3:0: any bit set counts. */
static int enabled(const struct box_type *t, uint64_t ctl)
{
	return t->ctl_en ? !!(ctl & t->ctl_en) : !!(ctl & ((uint64_t)0xff << t->ev_shift));
}

/* An enable-style control also enables counters one by one (Nehalem EN_PCn bit n, EN_FC0 bit 32). */
static int ctr_on(const struct sim_box *b, int c)
{
	const struct box_ctl_bits *bc = b->t->bc;
	return !bc->run || (b->box_ctl & (c < 0 ? 1ull << 32 : 1ull << c));
}

/* Counters that report an overflow (IVB-EP ov_en, Montecito oi). */
static int armed(const struct sim_box *b, int c) { return b->t->ov_en && (b->ctl[c] & b->t->ov_en) && enabled(b->t, b->ctl[c]); }

static uint64_t wmask(int w) { return uc_width_mask(w); }

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
		for (int c = 0; c < x->r.nctr && !any; c++)
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
	if (s->plat->glob_ctl) {
		if (b->gsp >= 0 && b->gsp < 64 * UC_MAX_GLOB_STATUS) /* EMR: the unit's Global Status Position */
			s->gstatus[b->socket][b->gsp / 64] |= 1ull << (b->gsp % 64);
		else /* IVB-EP: one bit per box type here, our model (A.4: unpublished) */
			for (int t = 0; t < s->plat->ntypes; t++)
				if (s->plat->types[t] == b->t)
					s->gstatus[b->socket][0] |= 1ull << t;
		if (!s->gfrz[b->socket]) {
			s->gfrz[b->socket] = 1;
			s->gfrz_ns[b->socket] = at_ns;
		}
	} else if (!b->t->bc->run) { /* an enable-style control (Nehalem) does not stop on overflow */
		b->box_ctl |= b->t->bc->frz;
	}
}

/* Bring a box's counters up to the current time. */
static void box_advance(struct sim *s, struct sim_box *b)
{
	uint64_t now = sim_now(s), end = now;
	advance_armed(s, b);
	if (s->gfrz[b->socket] && s->gfrz_ns[b->socket] < end) /* counted only until the global freeze */
		end = s->gfrz_ns[b->socket] > b->last_ns ? s->gfrz_ns[b->socket] : b->last_ns;
	double dt = (double)(now - b->last_ns) / 1e9, dtc = (double)(end - b->last_ns) / 1e9;
	uint64_t start = b->last_ns, ovbits = 0, old[UC_MAX_CTR];
	b->last_ns = now;
	if (dt <= 0)
		return;
	for (int k = 0; k < b->nfr; k++) /* free-running counters ignore freeze (L5116) */
		count(s, s->rate(s, b, 0, -2 - k), dt, &b->fr_frac[k], &b->fr[k], b->t->fr[k].width);
	if (frozen_own(b))
		return;
	/* the first overflow of a counting armed counter stops the count a freeze latency later, where an
	 * overflow freezes (not with Nehalem's enable-style control) */
	int freezes = s->plat->glob_ctl || !b->t->bc->run;
	for (int c = 0; c < b->r.nctr; c++) {
		old[c] = b->ctr[c];
		double r = armed(b, c) && freezes ? s->rate(s, b, b->ctl[c], c) : 0;
		if (r > 0) {
			double t = ((double)(wmask(b->r.width) - b->ctr[c]) + 1 - b->frac[c]) / r;
			if (t + SIM_FREEZE_LAT_S < dtc)
				dtc = t + SIM_FREEZE_LAT_S;
		}
	}
	if (dtc <= 0)
		return;
	for (int c = 0; c < b->r.nctr; c++)
		if (enabled(b->t, b->ctl[c]) && ctr_on(b, c))
			count(s, s->rate(s, b, b->ctl[c], c), dtc, &b->frac[c], &b->ctr[c], b->r.width);
	if (b->t->has_fixed && (b->fixed_ctl & b->t->fixed_en) && ctr_on(b, -1))
		count(s, s->rate(s, b, 0, -1), dtc, &b->fixed_frac, &b->fixed_ctr, b->t->fixed_width);
	for (int c = 0; c < b->r.nctr; c++)
		if (armed(b, c) && b->ctr[c] < old[c])
			ovbits |= 1ull << (c + b->t->status_shift);
	if (ovbits)
		overflowed(s, b, ovbits, start + (uint64_t)(dtc * 1e9));
}

static void tick(struct sim *s)
{
	if (s->manual_clock)
		s->now_ns += s->tick_ns;
}

/* Register kinds inside a box. */
enum { R_NONE, R_BOX_CTL, R_CTL, R_CTL_HI, R_CTR, R_CTR_HI, R_FIXED_CTL, R_FIXED_CTR, R_FIXED_CTR_HI, R_FILT,
       R_STATUS, R_FR, R_FR_HI };

static int decode(const struct sim_box *b, uint64_t addr, int companion, int *idx)
{
	const struct box_type *t = b->t;
	uint64_t base = b->r.rel;
	int pci = t->space == UC_PCI, ctl64 = pci && t->ctl_bytes == 8;
	for (int f = 0; f < t->nfilt_regs; f++)
		if (t->filt_regs[f].companion == companion &&
		    addr == (t->filt_regs[f].companion ? 0 : base) + t->filt_regs[f].addr) {
			*idx = f;
			return R_FILT;
		}
	if (companion)
		return R_NONE;
	if (t->has_box_ctl && addr == b->r.box_ctl)
		return R_BOX_CTL; /* Montecito: PMC0 holds the freeze bit and the overflow bits */
	if ((b->r.status && addr == b->r.status) || (t->status_clr && addr == base + t->status_clr))
		return R_STATUS; /* reads give the bits; writing 1s clears them (Nehalem: through 0x393) */
	for (int c = 0; c < b->r.nctr; c++) {
		uint64_t ctl = b->r.ctl0 + (uint64_t)c * b->r.ctl_stride, ctr = b->r.ctr0 + (uint64_t)c * b->r.ctr_stride;
		*idx = c;
		if (addr == ctl)
			return R_CTL;
		if (ctl64 && addr == ctl + 4)
			return R_CTL_HI;
		ctr = regs_ctr_addr(t, &b->r, c);
		if (addr == ctr)
			return R_CTR;
		if (pci && addr == ctr + 4)
			return R_CTR_HI;
	}
	if (t->has_fixed) {
		if (addr == base + t->fixed_ctl)
			return R_FIXED_CTL;
		if (addr == base + t->fixed_ctr)
			return R_FIXED_CTR;
		if (pci && addr == base + t->fixed_ctr + 4)
			return R_FIXED_CTR_HI;
	}
	for (int k = 0; k < b->nfr; k++) {
		*idx = k;
		if (addr == b->fr_base + t->fr[k].addr)
			return R_FR;
		if (pci && addr == b->fr_base + t->fr[k].addr + 4)
			return R_FR_HI;
	}
	return R_NONE;
}

/* The counter reset bit 17 of the SNB-EP layout (Montecito's umask sits there). */
static int has_rst(const struct box_type *t) { return !t->umask_shift && (t->ctl_valid & CTL_RST); }

static uint64_t reg_get_local(struct sim *s, struct sim_box *b, int kind, int i)
{
	box_advance(s, b);
	switch (kind) {
	case R_BOX_CTL: /* reset bits read 0; on the discovery generation every bit is write-only */
		if (b->t->bc->run)
			return b->box_ctl;
		if (b->r.status == b->r.box_ctl)
			return (b->box_ctl & b->t->bc->frz) | b->status;
		return b->t->bc->frz_en ? b->box_ctl & (b->t->bc->frz_en | b->t->bc->frz) : 0;
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
	const struct box_type *t = b->t;
	box_advance(s, b);
	switch (kind) {
	case R_BOX_CTL:
		if (t->box_ctl_resets && (v & t->bc->rst_ctrs))
			for (int c = 0; c < b->r.nctr; c++) {
				b->ctr[c] = reset_value(s, b, b->ctl[c], c, b->r.width);
				b->frac[c] = 0;
			}
		if (t->box_ctl_resets && (v & t->bc->rst_ctrl))
			memset(b->ctl, 0, sizeof(b->ctl));
		b->box_ctl = v & (t->bc->run ? t->bc->run : t->bc->frz_en | t->bc->frz);
		if (b->r.status == b->r.box_ctl) /* PMC0: overflow bits are written like any bit */
			b->status = v & (0xfffull << t->status_shift);
		break;
	case R_STATUS: /* write 1 to clear */
		b->status &= ~v;
		break;
	case R_FR:
	case R_FR_HI:
		break; /* RW1C status bits are never set here; free-running counters are read-only */
	case R_CTL_HI:
		v = (b->ctl[i] & 0xffffffffull) | (v << 32);
		/* fall through */
	case R_CTL:
		if (dword && kind == R_CTL)
			v = (b->ctl[i] & ~0xffffffffull) | (v & 0xffffffffull);
		v &= t->ctl_valid; /* reserved bits are ignored */
		if (t->has_box_ctl && !frozen(s, b) && v != b->ctl[i] && (enabled(t, v) || enabled(t, b->ctl[i])))
			s->unfrozen_ctl_writes++;
		b->ctl[i] = has_rst(t) ? v & ~CTL_RST : v;
		if (armed(b, i))
			s->armed = 1;
		if (has_rst(t) && (v & CTL_RST)) {
			b->ctr[i] = reset_value(s, b, b->ctl[i], i, b->r.width);
			b->frac[i] = 0;
		}
		break;
	case R_CTR:
		b->ctr[i] = dword ? ((b->ctr[i] & ~0xffffffffull) | (v & 0xffffffffull)) : (v & wmask(b->r.width));
		b->frac[i] = 0;
		if (!dword && !b->ctr[i])
			b->ctr[i] = reset_value(s, b, b->ctl[i], i, b->r.width);
		break;
	case R_CTR_HI:
		b->ctr[i] = ((b->ctr[i] & 0xffffffffull) | (v << 32)) & wmask(b->r.width);
		if (!b->ctr[i]) /* a 64-bit write of 0 completed: a reset */
			b->ctr[i] = reset_value(s, b, b->ctl[i], i, b->r.width);
		break;
	case R_FIXED_CTL:
		b->fixed_ctl = v & t->fixed_en;
		if (t->fixed_rst && (v & t->fixed_rst)) {
			b->fixed_ctr = reset_value(s, b, 0, -1, t->fixed_width);
			b->fixed_frac = 0;
		}
		break;
	case R_FIXED_CTR:
		b->fixed_ctr = dword ? ((b->fixed_ctr & ~0xffffffffull) | (v & 0xffffffffull)) : (v & wmask(t->fixed_width));
		if (!dword && !b->fixed_ctr)
			b->fixed_ctr = reset_value(s, b, 0, -1, t->fixed_width);
		break;
	case R_FIXED_CTR_HI:
		b->fixed_ctr = ((b->fixed_ctr & 0xffffffffull) | (v << 32)) & wmask(t->fixed_width);
		if (!b->fixed_ctr)
			b->fixed_ctr = reset_value(s, b, 0, -1, t->fixed_width);
		break;
	case R_FILT:
		b->filt[i] = t->filt_regs[i].bits == 64 ? v : (v & 0xffffffffull);
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
			      b->t->name, b->idx);
	return uc_err("%s: I/O error on simulated %s %d (socket %d)", what, b->t->name, b->idx, b->socket);
}

/* ---- MSR space: uncore MSRs are per socket; any CPU of the socket reaches them ---- */

/* The box of an MSR or MMIO register (socket -1: any).  Reads walk a box's registers in turn, so
 * the box of the previous hit is tried first. */
static struct sim_box *box_find(struct sim *s, enum uc_space space, int socket, uint64_t addr, int *kind, int *idx)
{
	struct sim_box *b = s->last_hit[space];
	if (b && (socket < 0 || b->socket == socket) && (*kind = decode(b, addr, 0, idx)) != R_NONE)
		return b;
	/* a read sweep meets each box once, so the last hit rarely helps: remember where addresses live,
	 * or a scan of every box per box read would dominate a read of a 200-box machine */
	uint64_t key = addr << 8 | (uint64_t)space << 4 | (uint64_t)(socket + 1);
	unsigned h = (unsigned)((key * 0x9e3779b97f4a7c15ull) >> 52) & (SIM_MEMO - 1);
	if (s->memo[h].box && s->memo[h].key == key) {
		b = &s->boxes[s->memo[h].box - 1];
		if ((*kind = decode(b, addr, 0, idx)) != R_NONE)
			return s->last_hit[space] = b;
	}
	for (int i = 0; i < s->nboxes; i++) {
		b = &s->boxes[i];
		if (b->t->space != space || (socket >= 0 && b->socket != socket))
			continue;
		*kind = decode(b, addr, 0, idx);
		if (*kind != R_NONE) {
			s->memo[h].key = key;
			s->memo[h].box = i + 1;
			return s->last_hit[space] = b;
		}
	}
	s->bad_accesses++;
	return NULL;
}

static int msr_find(struct sim *s, int cpu, uint32_t reg, struct sim_box **bp, int *kind, int *idx)
{
	int socket = cpu / s->cores;
	if (cpu < 0 || socket >= s->nsockets)
		return uc_err("CPU %d does not exist on the simulated machine", cpu);
	if (!(*bp = box_find(s, UC_MSR, socket, reg, kind, idx)))
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
static int glob_status_word(const struct platform_desc *p, uint32_t reg)
{
	int n = platform_glob_status_regs(p);
	if (n > UC_MAX_GLOB_STATUS || reg < p->glob_status || reg >= p->glob_status + (uint32_t)n)
		return -1;
	return (int)(reg - p->glob_status);
}

/* The global control and status MSRs of a socket (IVB-EP, EMR U_MSR_PMON_GLOBAL_CTL/STATUS). */
static int glob_reg(const struct sim *s, int cpu, uint32_t reg)
{
	const struct platform_desc *p = s->plat;
	return p->glob_ctl && (reg == p->glob_ctl || glob_status_word(p, reg) >= 0) && cpu >= 0 &&
	       cpu / s->cores < s->nsockets;
}

static void glob_write(struct sim *s, int sock, uint32_t reg, uint64_t v)
{
	const struct platform_desc *p = s->plat;
	int w = glob_status_word(p, reg);
	if (w >= 0) { /* write 1 to clear */
		s->gstatus[sock][w] &= ~v;
		return;
	}
	/* IVB-EP resumes with its unfrz_all command; EMR has none: frz_all written 0 resumes (L1291) */
	int resume = p->glob_unfrz_all ? (v & p->glob_unfrz_all) != 0 : !(v & p->glob_frz_all);
	if (v & p->glob_frz_all && !s->gfrz[sock]) {
		s->gfrz[sock] = 1;
		s->gfrz_ns[sock] = sim_now(s);
	} else if (resume && s->gfrz[sock]) {
		for (int i = 0; i < s->nboxes; i++) /* the frozen span is not counted */
			if (s->boxes[i].socket == sock)
				box_advance(s, &s->boxes[i]);
		s->gfrz[sock] = 0;
	}
	s->gctl[sock] = v & ~(p->glob_frz_all | p->glob_unfrz_all); /* the two are commands, read 0 */
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
		*val = reg == s->plat->glob_ctl ? s->gctl[sock] : s->gstatus[sock][glob_status_word(s->plat, reg)];
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
		int idx, kind = d->box ? decode(d->box, o, d->companion, &idx) : R_NONE;
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
	kind = d->box ? decode(d->box, off, d->companion, &idx) : R_NONE;
	if (kind == R_NONE) {
		s->bad_accesses++;
		return uc_err("writing PCI config %02x:%02x.%d offset 0x%x: not a PMON register", l->bus, l->dev, l->fn, off);
	}
	reg_set(s, d->box, kind, idx, val, 1);
	return 0;
}

/* ---- memory-mapped registers: discovery tables (plain bytes) and MMIO boxes ---- */

static int mmio_find(struct sim *s, uint64_t phys, struct sim_box **bp, int *kind, int *idx)
{
	if (!(*bp = box_find(s, UC_MMIO, -1, phys, kind, idx)))
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
	for (int w = 0; w < UC_MAX_GLOB_STATUS; w++)
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
				snprintf(why, len, "%s %d socket %d", b->t->name, b->idx, b->socket);
			n++;
		}
	}
	return n;
}

int sim_fault(struct sim *s, const char *kind, const char *unit, int idx, uint64_t from_ns)
{
	int hit = 0;
	for (int i = 0; i < s->nboxes; i++) {
		struct sim_box *b = &s->boxes[i];
		if (strcmp(b->t->name, unit) || (idx >= 0 && b->idx != idx))
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
		} else if (sim_emr_fault_kind(kind)) {
			if (sim_emr_fault(s, kind, b))
				return -1;
		} else
			return uc_err("unknown simulator fault '%s' (eio, eacces, allones, missing, %s)", kind,
				      SIM_EMR_FAULTS);
	}
	if (!hit)
		return uc_err("simulator fault: no %s box %d", unit, idx);
	return 0;
}

uint64_t sim_field(const struct sim_box *b, const char *name)
{
	for (int i = 0; i < b->t->nfields; i++) {
		const struct filter_field *f = &b->t->fields[i];
		if (!strcmp(f->name, name) && f->reg != UC_FIELD_CTL)
			return (b->filt[f->reg] >> f->lo) & wmask(f->width);
	}
	return 0;
}

void sim_set_counter(struct sim *s, const char *unit, int socket, int idx, int ctr, uint64_t val)
{
	for (int i = 0; i < s->nboxes; i++) {
		struct sim_box *b = &s->boxes[i];
		if (!strcmp(b->t->name, unit) && b->socket == socket && b->idx == idx) {
			box_advance(s, b);
			if (ctr < 0)
				b->fixed_ctr = val & wmask(b->t->fixed_width);
			else
				b->ctr[ctr] = val & wmask(b->r.width);
		}
	}
}

struct sim_box *sim_add_box(struct sim *s, const struct box_type *t, int socket, int idx)
{
	struct sim_box *b;
	if (s->nboxes == SIM_MAX_BOXES)
		return NULL;
	b = &s->boxes[s->nboxes++];
	memset(b, 0, sizeof(*b));
	b->t = t;
	b->socket = socket;
	b->idx = idx;
	b->disc_entry = -1;
	b->gsp = -1;
	box_regs_static(t, idx, &b->r);
	/* leftovers of an earlier user, so that "restored on close" means something */
	for (int c = 0; c < t->nctr; c++)
		b->ctr[c] = (0x1000ull * (uint64_t)(s->nboxes) + (uint64_t)c * 7) & wmask(t->width);
	for (int f = 0; f < t->nfilt_regs; f++) { /* the lowest field bit: an earlier user's setting, never a reserved bit */
		uint64_t m = 0;
		for (int k = 0; k < t->nfields; k++)
			if (t->fields[k].reg == f)
				m |= filter_field_mask(&t->fields[k]);
		b->filt[f] = m & (~m + 1);
	}
	b->fixed_ctr = 0x5555;
	return b;
}

struct sim_dev *sim_add_dev(struct sim *s, int bus, int dev, int fn, uint16_t id)
{
	struct sim_dev *d;
	if (s->ndevs == SIM_MAX_DEVS)
		return NULL;
	d = &s->devs[s->ndevs++];
	memset(d, 0, sizeof(*d));
	d->info.loc = (struct pci_loc){ 0, bus, dev, fn };
	d->info.vendor = 0x8086;
	d->info.device = id;
	d->present = 1;
	d->cfg[0] = 0x86;
	d->cfg[1] = 0x80;
	d->cfg[2] = (uint8_t)id;
	d->cfg[3] = (uint8_t)(id >> 8);
	return d;
}

/* What each simulated platform builds, and its cores per socket (one CBo/CHA per core). */
static int build_snbep(struct sim *s, int generic) { (void)generic; return sim_snbep_build(s); }
static int build_nhm(struct sim *s, int generic) { (void)generic; return sim_nhm_build(s); }
static int build_montecito(struct sim *s, int generic) { (void)generic; return sim_montecito_build(s); }
struct sim_kind {
	const char *name;
	int cores;
	int (*build)(struct sim *s, int generic);
};
static const struct sim_kind sim_kinds[] = {
	{ "snbep", 8, build_snbep },         { "ivbep", 15, build_snbep },
	{ "emr", 60, sim_emr_build },        { "generic", 4, sim_emr_build },
	{ "nhm", 4, build_nhm },             { "montecito", 2, build_montecito },
};

static const struct sim_kind *sim_kind_of(const char *name)
{
	for (size_t i = 0; i < sizeof(sim_kinds) / sizeof(sim_kinds[0]); i++)
		if (!strcmp(sim_kinds[i].name, name))
			return &sim_kinds[i];
	return &sim_kinds[0];
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
	int nfaults = 0, generic;
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
	generic = opt && !strcmp(opt, "generic");
	s->plat = opt ? platform_by_name(generic ? "emr" : opt) : NULL;
	if (!s->plat) {
		uc_err("unknown simulated platform '%s' (available: snbep, ivbep, emr, generic, nhm, montecito)",
		       opt ? opt : "");
		goto fail;
	}
	s->name = generic ? "generic" : s->plat->name;
	s->family = s->plat->family;
	/* the generic variant reports a model without tables in this project (0xEE is invented) */
	s->model = generic ? 0xee : s->plat->models ? s->plat->models[0] : 0;
	s->nsockets = 2;
	s->msr_hook = sim_new_msr_hook;
	s->msr_hook_ctx = sim_new_msr_hook_ctx;
	const struct sim_kind *k = sim_kind_of(s->name);
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
	if (k->build(s, generic))
		goto fail;
	s->epoch_ns = mono_ns();
	for (int i = 0; i < s->nboxes; i++) /* free-running counters cannot be reset: start them near the wrap */
		for (int k = 0; s->prewrap_s > 0 && k < s->boxes[i].nfr; k++)
			s->boxes[i].fr[k] = reset_value(s, &s->boxes[i], 0, -2 - k, s->boxes[i].t->fr[k].width);
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
	}
	free(s);
	free(a);
	return NULL;
}
