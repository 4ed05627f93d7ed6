/*
 * Simulator core: the register file and the semantics the manuals define --
 * box freeze (frz only with frz_en), reset bits, enable bits, 44/48-bit wrap,
 * reserved bits ignored, PCI counters as two dwords -- driven by a clock that
 * is real time or advanced by hand.  Accesses are decoded through the register
 * map (sim_map.c), built from each platform's own unit models (platforms/<p>/sim_map.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sim.h"
#include "util/error.h"
#include "sim_only.h"

struct sim *sim_of(struct access *a)
{
	if (a && a->inner)
		return sim_of(a->inner);
	return a && a->simulated ? a->priv : NULL;
}

uint64_t sim_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t sim_now(struct sim *s)
{
	if (s->held)
		return s->hold_ns;
	return s->manual_clock ? s->now_ns : sim_mono_ns() - s->epoch_ns;
}

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
static int frozen(const struct sim *s, const struct sim_box *b) { return s->gfrz[sim_box_scope(s, b)] || frozen_own(b); }

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


static void count(struct sim *s, double rate, double dt, double *frac, uint64_t *ctr, int width)
{
	double inc;
	uint64_t old = *ctr;
	*frac += rate * dt;
	inc = floor(*frac);
	*frac -= inc;
	*ctr = (*ctr + (uint64_t)inc) & uc_width_mask(width);
	if (*ctr < old)
		s->wraps++;
}

/* What a counter holds after a reset: 0, or with prewrap=T the value that wraps after T seconds. */
uint64_t sim_reset_value(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr, int width)
{
	if (s->prewrap_s <= 0)
		return 0;
	return (uint64_t)(-(int64_t)llround(s->rate(s, b, ctl, ctr) * s->prewrap_s)) & uc_width_mask(width);
}

/* How long an overflow takes to stop the counters (freeze-on-overflow is not instantaneous, so
 * counters overflowing together are all reported: seed 002 L43).  Our model, not a documented figure. */
#define SIM_FREEZE_LAT_S 100e-9


/* Overflows stop counting socket-wide (IVB-EP): bring the boxes that can overflow up to date first,
 * so that no other box counts past the moment a freeze began. */
static void advance_armed(struct sim *s, const struct sim_box *b)
{
	if (!s->armed || s->advancing)
		return;
	s->advancing = 1;
	int machine_armed = 0;
	for (int i = 0; i < s->nboxes; i++) {
		struct sim_box *x = &s->boxes[i];
		int any = 0;
		if (x != b) /* the caller holds b; the others are brought in from a shared file, if any */
			sim_shared_in(s, x);
		for (int c = 0; c < x->u->nctr && !any; c++)
			any = armed(x, c);
		machine_armed |= any;
		if (any && x != b && sim_box_scope(s, x) == sim_box_scope(s, b))
			sim_box_advance(s, x);
		if (x != b)
			sim_shared_out(s, x);
	}
	/* no counter reports overflows any more (the sampling session ended): every access stops walking
	 * every box of the machine until a control word arms one again */
	s->armed = machine_armed;
	s->advancing = 0;
}

/* An overflow of armed counters: status bits, then the freeze (the socket's global freeze where the
 * platform has one, else the box's own: Montecito PMC0.fr) from time at_ns. */
static void overflowed(struct sim *s, struct sim_box *b, uint64_t bits, uint64_t at_ns)
{
	int sc = sim_box_scope(s, b); /* the die's global control */
	b->status |= bits;
	if (s->glob) {
		if (b->gsp >= 0 && b->gsp < 64 * SIM_MAX_GLOB_STATUS) /* EMR: the unit's Global Status Position */
			s->gstatus[sc][b->gsp / 64] |= 1ull << (b->gsp % 64);
		else /* IVB-EP: one bit per unit here, our model (A.4: unpublished) */
			s->gstatus[sc][0] |= 1ull << (b->u - s->units);
		if (!s->gfrz[sc]) {
			s->gfrz[sc] = 1;
			s->gfrz_ns[sc] = at_ns;
		}
	} else if (b->u->bc && !run_style(b->u)) { /* an enable-style control (Nehalem) does not stop on overflow */
		b->box_ctl |= b->u->bc->frz;
	}
}

/* Bring a box's counters up to the current time. */
/* A counter's rate: the workload's, or a fault's (dead: none; phantom: an impossible one on top). */
static double box_rate(struct sim *s, struct sim_box *b, uint64_t ctl, int c)
{
	if ((b->dead && sim_now(s) >= b->fault_from_ns) || b->stuck)
		return 0;
	/* a rate is the same while its control word, the box's filters and the profile are: computed once (a read
	 * at 100 Hz asks it of every counter); a machine shared with other processes takes its traffic from them */
	int k = c >= 0 ? c : c == SIM_CTR_FIXED ? SIM_MAX_CTR : SIM_MAX_CTR + 1 + SIM_CTR_FR_INDEX(c);
	uint64_t filt = 0;
	for (int f = 0; f < SIM_MAX_FILT; f++)
		filt = (filt ^ b->filt[f]) * 1099511628211ull;
	if (s->shm || k < 0 || k >= SIM_MAX_CTR + 1 + SIM_MAX_FR)
		return s->rate(s, b, ctl, c) + b->phantom;
	if (b->rc[k].gen != s->rate_gen + 1 || b->rc[k].ctl != ctl || b->rc[k].filt != filt) {
		b->rc[k].rate = s->rate(s, b, ctl, c);
		b->rc[k].ctl = ctl;
		b->rc[k].filt = filt;
		b->rc[k].gen = s->rate_gen + 1; /* a box zeroed (fault missing) holds none */
	}
	return b->rc[k].rate + b->phantom;
}

/* Fault agent: at its time another tool (a second PCM, a script with wrmsr) puts an event of its own on
 * every counter of the box, once, behind the library's back. */
static void agent_strike(struct sim *s, struct sim_box *b)
{
	const struct sim_unit *u = b->u;
	if (b->agent != 1 || sim_now(s) < b->fault_from_ns)
		return;
	b->agent = 2;
	uint64_t en = u->ctl_en & -u->ctl_en; /* its lowest enable bit; none: a non-zero event select counts */
	for (int c = 0; c < u->nctr; c++)
		b->ctl[c] = (en | 0x3full << u->ev_shift) & u->ctl_writable;
}

void sim_box_advance(struct sim *s, struct sim_box *b)
{
	const struct sim_unit *u = b->u;
	uint64_t now = sim_now(s), end = now;
	int sc = sim_box_scope(s, b);
	advance_armed(s, b);
	if (s->gfrz[sc] && s->gfrz_ns[sc] < end) /* counted only until the global freeze */
		end = s->gfrz_ns[sc] > b->last_ns ? s->gfrz_ns[sc] : b->last_ns;
	double dt = (double)(now - b->last_ns) / 1e9, dtc = (double)(end - b->last_ns) / 1e9;
	uint64_t start = b->last_ns, ovbits = 0, old[SIM_MAX_CTR];
	b->last_ns = now;
	if (dt <= 0)
		return;
	for (int k = 0; k < b->nfr; k++) /* free-running counters ignore freeze (L5116) */
		count(s, box_rate(s, b, 0, SIM_CTR_FR(k)), dt, &b->fr_frac[k], &b->fr[k], u->fr[k].width);
	if (frozen_own(b))
		return;
	/* the first overflow of a counting armed counter stops the count a freeze latency later, where an
	 * overflow freezes (not with Nehalem's enable-style control) */
	int freezes = s->glob || !run_style(u);
	for (int c = 0; c < u->nctr; c++) {
		old[c] = b->ctr[c];
		double r = armed(b, c) && freezes ? box_rate(s, b, b->ctl[c], c) : 0;
		if (r > 0) {
			double t = ((double)(uc_width_mask(b->width) - b->ctr[c]) + 1 - b->frac[c]) / r;
			if (t + SIM_FREEZE_LAT_S < dtc)
				dtc = t + SIM_FREEZE_LAT_S;
		}
	}
	if (dtc <= 0)
		return;
	for (int c = 0; c < u->nctr; c++)
		if (enabled(u, b->ctl[c]) && ctr_on(b, c))
			count(s, box_rate(s, b, b->ctl[c], c), dtc, &b->frac[c], &b->ctr[c], b->width);
	if (u->fixed_ctl && (b->fixed_ctl & u->fixed_en) && ctr_on(b, SIM_CTR_FIXED))
		count(s, box_rate(s, b, 0, SIM_CTR_FIXED), dtc, &b->fixed_frac, &b->fixed_ctr, u->fixed_width);
	for (int c = 0; c < u->nctr; c++)
		if (armed(b, c) && b->ctr[c] < old[c])
			ovbits |= 1ull << (c + u->status_shift);
	if (ovbits)
		overflowed(s, b, ovbits, start + (uint64_t)(dtc * 1e9));
}

void sim_tick(struct sim *s)
{
	if (s->manual_clock)
		s->now_ns += s->tick_ns;
}

static uint64_t reg_get_local(struct sim *s, struct sim_box *b, int kind, int i)
{
	sim_box_advance(s, b);
	agent_strike(s, b);
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

static void reg_set_counters(struct sim *s, struct sim_box *b, int kind, int i, uint64_t v, int dword);

static void reg_set_local(struct sim *s, struct sim_box *b, int kind, int i, uint64_t v, int dword)
{
	sim_box_advance(s, b);
	agent_strike(s, b);
	uint64_t held[SIM_MAX_CTR], held_fixed = b->fixed_ctr; /* fault stuck: what its counters keep */
	memcpy(held, b->ctr, sizeof(held));
	reg_set_counters(s, b, kind, i, v, dword);
	if (b->stuck) {
		memcpy(b->ctr, held, sizeof(held));
		b->fixed_ctr = held_fixed;
	}
}

/* A register write's effect on the box (reg_set_local: less what a stuck counter ignores). */
static void reg_set_counters(struct sim *s, struct sim_box *b, int kind, int i, uint64_t v, int dword)
{
	const struct sim_unit *u = b->u;
	const struct sim_boxctl *bc = u->bc;
	switch (kind) {
	case R_BOX_CTL:
		if (bc->rst_ctrs && (v & bc->rst_ctrs))
			for (int c = 0; c < u->nctr; c++) {
				b->ctr[c] = sim_reset_value(s, b, b->ctl[c], c, b->width);
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
			b->ctr[i] = sim_reset_value(s, b, b->ctl[i], i, b->width);
			b->frac[i] = 0;
		}
		break;
	case R_CTR:
		b->ctr[i] = dword ? ((b->ctr[i] & ~0xffffffffull) | (v & 0xffffffffull)) : (v & uc_width_mask(b->width));
		b->frac[i] = 0;
		if (!dword && !b->ctr[i])
			b->ctr[i] = sim_reset_value(s, b, b->ctl[i], i, b->width);
		break;
	case R_CTR_HI:
		b->ctr[i] = ((b->ctr[i] & 0xffffffffull) | (v << 32)) & uc_width_mask(b->width);
		if (!b->ctr[i]) /* a 64-bit write of 0 completed: a reset */
			b->ctr[i] = sim_reset_value(s, b, b->ctl[i], i, b->width);
		break;
	case R_FIXED_CTL:
		b->fixed_ctl = v & u->fixed_en;
		if (u->fixed_rst && (v & u->fixed_rst)) {
			b->fixed_ctr = sim_reset_value(s, b, 0, SIM_CTR_FIXED, u->fixed_width);
			b->fixed_frac = 0;
		}
		break;
	case R_FIXED_CTR:
		b->fixed_ctr = dword ? ((b->fixed_ctr & ~0xffffffffull) | (v & 0xffffffffull)) : (v & uc_width_mask(u->fixed_width));
		if (!dword && !b->fixed_ctr)
			b->fixed_ctr = sim_reset_value(s, b, 0, SIM_CTR_FIXED, u->fixed_width);
		break;
	case R_FIXED_CTR_HI:
		b->fixed_ctr = ((b->fixed_ctr & 0xffffffffull) | (v << 32)) & uc_width_mask(u->fixed_width);
		if (!b->fixed_ctr)
			b->fixed_ctr = sim_reset_value(s, b, 0, SIM_CTR_FIXED, u->fixed_width);
		break;
	case R_FILT:
		b->filt[i] = v & u->filt[i].writable; /* unimplemented bits read 0 */
		break;
	}
}

void sim_advance_scope(struct sim *s, int scope)
{
	sim_shared_in(s, NULL);
	for (int i = 0; i < s->nboxes; i++) {
		struct sim_box *b = &s->boxes[i];
		if (scope >= 0 && sim_box_scope(s, b) != scope)
			continue;
		sim_shared_in(s, b);
		sim_box_advance(s, b);
		sim_shared_out(s, b);
	}
	sim_shared_out(s, NULL);
}

/* Register access, with the box's state brought in from (and back to) a shared file when there is one. */
uint64_t sim_reg_get(struct sim *s, struct sim_box *b, int kind, int i)
{
	sim_shared_in(s, b);
	uint64_t v = reg_get_local(s, b, kind, i);
	sim_shared_out(s, b);
	return v;
}

void sim_reg_set(struct sim *s, struct sim_box *b, int kind, int i, uint64_t v, int dword)
{
	sim_shared_in(s, b);
	reg_set_local(s, b, kind, i, v, dword);
	sim_shared_wrote(s);
	sim_shared_out(s, b);
}

int sim_faulted(struct sim *s, const struct sim_box *b) { return b->fault && sim_now(s) >= b->fault_from_ns; }
int sim_allones(struct sim *s, const struct sim_box *b) { return b->allones && sim_now(s) >= b->fault_from_ns; }

int sim_fault_err(const struct sim_box *b, const char *what)
{
	if (b->fault == EACCES)
		return uc_err("%s: permission denied on simulated %s %d: needs root or CAP_SYS_RAWIO", what,
			      b->u->name, b->idx);
	return uc_err("%s: I/O error on simulated %s %d (socket %d)", what, b->u->name, b->idx, b->socket);
}
