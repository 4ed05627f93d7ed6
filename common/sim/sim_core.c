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

uint64_t sim_now(struct sim *s) { return sim_clock(s); }

void sim_advance(struct sim *s, uint64_t ns)
{
	if (s->manual_clock)
		s->now_ns += ns;
}

/* An enable-style box control (Nehalem global control): counters run while their enable bits are set. */
static inline int run_style(const struct sim_unit *u) { return u->bc && u->bc->run; }

/* Frozen by the box control (an enable-style control: when none of its enable bits is set). */
static inline int frozen_own(const struct sim_box *b)
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
static inline int enabled(const struct sim_unit *u, uint64_t ctl)
{
	return u->ctl_en ? !!(ctl & u->ctl_en) : !!(ctl & ((uint64_t)0xff << u->ev_shift));
}


/* Counters that report an overflow (IVB-EP ov_en, Montecito oi). */
static inline int armed(const struct sim_box *b, int c) { return b->u->ov_en && (b->ctl[c] & b->u->ov_en) && enabled(b->u, b->ctl[c]); }


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


/* b joins armed_box */
static void mark_armed(struct sim *s, const struct sim_box *b)
{
	size_t i = (size_t)(b - s->boxes);
	s->armed_box[i / 64] |= 1ull << (i % 64);
}

void sim_note_armed(struct sim *s, const struct sim_box *b)
{
	for (int c = 0; c < b->u->nctr; c++)
		if (armed(b, c)) {
			mark_armed(s, b);
			return;
		}
}

/* Overflows stop counting socket-wide (IVB-EP): bring the boxes that can overflow of scope (-1: every one) up to
 * now, the instant the caller brings box b (NULL: none) to, first, so that no other box counts past the moment a
 * freeze began.  (The boxes outside armed_box have no armed counter: walking only those it names finds what a
 * walk of every box would, in the same order; a box found with none leaves it.)  One instant for all: each
 * armed box read the clock again before, and an access of a platform of hundreds of boxes spent more time
 * there than counting while a counter was armed. */
static void advance_armed_in(struct sim *s, const struct sim_box *b, int scope, uint64_t now)
{
	s->advancing = 1;
	int machine_armed = 0;
	for (int w = 0; w < (s->nboxes + 63) / 64; w++)
		for (uint64_t m = s->armed_box[w]; m; m &= m - 1) {
			int i = w * 64 + __builtin_ctzll(m);
			struct sim_box *x = &s->boxes[i];
			int any = 0;
			/* armed as its last full advance found it (what would change that stales ov_gen), and with no
			 * overflow before now: it is brought up when it is accessed */
			if (x->ov_gen == s->rate_gen + 1 && now < x->ov_safe_ns && !s->shm) {
				machine_armed = 1;
				continue;
			}
			if (x != b) /* the caller holds b; the others are brought in from a shared file, if any */
				sim_shared_in(s, x);
			for (int c = 0; c < x->u->nctr && !any; c++)
				any = armed(x, c);
			machine_armed |= any;
			/* (a box another process brought past now, on a shared machine, stays as it left it) */
			if (any && x != b && (scope < 0 || sim_box_scope(s, x) == scope) && (int64_t)(now - x->last_ns) > 0)
				sim_box_advance_to(s, x, now);
			if (x != b)
				sim_shared_out(s, x);
			if (!any)
				s->armed_box[w] &= ~(1ull << (i % 64));
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
	sim_box_stale(b);
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

/* The box's filters, hashed for the rate cache: those its unit has (the others stay 0, so that hashing
 * them too would tell no two settings apart that these do not). */
static inline uint64_t filt_hash(const struct sim_box *b)
{
	uint64_t filt = 0;
	for (int f = 0; f < b->u->nfilt && f < SIM_MAX_FILT; f++)
		filt = (filt ^ b->filt[f]) * 1099511628211ull;
	return filt;
}

/* A counter's rate: the workload's, or a fault's (dead: none; phantom: an impossible one on top); filt is
 * filt_hash of the box. */
static double box_rate(struct sim *s, struct sim_box *b, uint64_t ctl, int c, uint64_t filt)
{
	if ((b->dead && sim_clock(s) >= b->fault_from_ns) || b->stuck)
		return 0;
	/* a rate is the same while its control word, the box's filters and the profile are: computed once (a read
	 * at 100 Hz asks it of every counter); a machine shared with other processes takes its traffic from them */
	int k = c >= 0 ? c : c == SIM_CTR_FIXED ? SIM_MAX_CTR : SIM_MAX_CTR + 1 + SIM_CTR_FR_INDEX(c);
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
void sim_agent_strike(struct sim *s, struct sim_box *b)
{
	const struct sim_unit *u = b->u;
	if (b->agent != 1 || sim_clock(s) < b->fault_from_ns)
		return;
	b->agent = 2;
	sim_box_stale(b);
	uint64_t en = u->ctl_en & -u->ctl_en; /* its lowest enable bit; none: a non-zero event select counts */
	for (int c = 0; c < u->nctr; c++)
		b->ctl[c] = (en | 0x3full << u->ev_shift) & u->ctl_writable;
	sim_note_armed(s, b);
}

/* Fault borrow: the box counted with its own control words up to the borrower's first instant (the fault's
 * time), with the borrower's (agent's event) up to its second, SIM_BORROW_NS later, and with its own again
 * after: an advance across either instant is split there. */
void sim_borrow_to(struct sim *s, struct sim_box *b, uint64_t now)
{
	while (b->agent == SIM_BORROW_DUE || b->agent == SIM_BORROW_HELD) {
		int held = b->agent == SIM_BORROW_HELD;
		uint64_t at = b->fault_from_ns + (held ? SIM_BORROW_NS : 0);
		if ((int64_t)(now - at) < 0)
			return;
		b->agent = 0; /* (no split while counting up to the instant) */
		if ((int64_t)(at - b->last_ns) > 0)
			sim_box_advance_full(s, b, at);
		for (int c = 0; c < b->u->nctr; c++)
			*(held ? &b->ctl[c] : &b->lent[c]) = *(held ? &b->lent[c] : &b->ctl[c]);
		sim_note_armed(s, b); /* (its own control words back) */
		if (!held) /* its event on every counter, as agent's */
			b->agent = 1, sim_agent_strike(s, b);
		b->agent = held ? SIM_BORROW_DONE : SIM_BORROW_HELD;
		sim_box_stale(b);
	}
}

/* box_rate's answer, from the box's cache where it has it, inline: on a box without a fault that stops
 * it (plain: none stays over an advance, as nothing changes while the box counts -- a rate is a function of
 * a const machine) of a machine of its own, the rate of counter slot k (box_rate's k) is cached for ctl,
 * the filters' hash fh and the machine's generation gen. */
#define RATE(ctl_, c_, k_)                                                                                      \
	(plain && b->rc[k_].gen == gen && b->rc[k_].ctl == (ctl_) && b->rc[k_].filt == fh ? b->rc[k_].rate + ph \
											       : box_rate(s, b, (ctl_), (c_), fh))

/* What the next advances of box b count, with the rates of its cache (rc, current for generation gen): the
 * counters that count (en: the unit's enable bits; run: its box control's where it is enable-style) and the
 * fixed one where it counts. */
static void fast_state(struct sim_box *b, uint64_t en, uint64_t run, int fixed, uint64_t gen)
{
	b->fast_mask = 0;
	for (int c = 0; c < b->u->nctr; c++)
		if ((b->ctl[c] & en) && (run >> c & 1)) {
			b->fast_mask |= 1u << c;
			b->cnt[c].rate = b->rc[c].rate;
		}
	b->fast_fixed = fixed;
	b->fixed.rate = b->rc[SIM_MAX_CTR].rate;
	b->fast_gen = gen;
}

/* Box b, just counted the plain way up to now with counters arm armed (wmask: its counters' width, fh: its
 * filters' hash, as the advance had them): the earliest instant one of them can overflow at the rates it counts
 * at (a frozen die only puts that off), less a microsecond for the rounding of the division, kept in ov_safe_ns
 * for generation gen. */
static void note_first_overflow(struct sim *s, struct sim_box *b, unsigned arm, uint64_t now, uint64_t gen,
				uint64_t wmask, uint64_t fh)
{
	double first = 1e7; /* seconds: a counter that overflows no sooner is looked at again in a few months */
	for (int c = 0; c < b->u->nctr; c++)
		if (arm >> c & 1) {
			double r = box_rate(s, b, b->ctl[c], c, fh); /* (the phantom fault's rate in it) */
			if (r > 0 && ((double)(wmask - b->cnt[c].v) + 1 - b->cnt[c].frac) / r < first)
				first = ((double)(wmask - b->cnt[c].v) + 1 - b->cnt[c].frac) / r;
		}
	if (first > 2e-6) {
		b->ov_safe_ns = now + (uint64_t)(first * 1e9) - 1000;
		b->ov_gen = gen;
	}
}

/* Bring a box's counters up to now (the clock's time when the access began): sim_box_advance_to's way when
 * the box does not count as its last full advance left it. */
void sim_box_advance_full(struct sim *s, struct sim_box *b, uint64_t now)
{
	const struct sim_unit *u = b->u;
	if (s->armed && !s->advancing) /* the armed boxes of b's scope first */
		advance_armed_in(s, b, sim_box_scope(s, b), now);
	if (b->agent == SIM_BORROW_DUE || b->agent == SIM_BORROW_HELD)
		sim_borrow_to(s, b, now);
	uint64_t start = b->last_ns, end = now;
	b->last_ns = now;
	if (now == start) /* dt 0 (a time before start is one far ahead, as the unsigned difference says) */
		return;
	int sc = sim_box_scope(s, b), nctr = u->nctr;
	if (b->fast_gen == s->rate_gen + 1 && !s->gfrz[sc] && !s->armed) { /* (advance_armed found none armed) */
		sim_box_advance_fast(s, b, (double)(now - start) / 1e9);
		return;
	}
	if (s->gfrz[sc] && s->gfrz_ns[sc] < end) /* counted only until the global freeze */
		end = s->gfrz_ns[sc] > start ? s->gfrz_ns[sc] : start;
	double dt = (double)(now - start) / 1e9, dtc = end == now ? dt : (double)(end - start) / 1e9;
	int plain = !(b->dead | b->stuck) && !s->shm;
	uint64_t gen = s->rate_gen + 1, fh = filt_hash(b), ovbits = 0, old[SIM_MAX_CTR];
	double ph = b->phantom;
	for (int k = 0; k < b->nfr; k++) /* free-running counters ignore freeze (L5116) */
		sim_count_add(s, RATE(0, SIM_CTR_FR(k), SIM_MAX_CTR + 1 + k), dt, &b->fr_frac[k], &b->fr[k],
			      uc_width_mask(u->fr[k].width));
	if (frozen_own(b)) {
		if (u->fixed_global && u->fixed_ctl && (b->fixed_ctl & u->fixed_en) && dtc > 0)
			sim_count_add(s, RATE(0, SIM_CTR_FIXED, SIM_MAX_CTR), dtc, &b->fixed.frac, &b->fixed.v,
				      uc_width_mask(u->fixed_width));
		return;
	}
	/* an armed counter (one that reports overflows, where it is enabled) among them: the first overflow of a
	 * counting one stops the count a freeze latency later, where an overflow freezes (not with Nehalem's
	 * enable-style control) */
	uint64_t ov_en = u->ov_en, en = u->ctl_en ? u->ctl_en : (uint64_t)0xff << u->ev_shift, any = 0;
	uint64_t run = u->bc && u->bc->run ? b->box_ctl : ~0ull, wmask = uc_width_mask(b->width);
	unsigned arm = 0;
	int fast = 0;
	for (int c = 0; c < nctr; c++)
		any |= b->ctl[c];
	if (any & ov_en) {
		int freezes = s->glob || !run_style(u);
		for (int c = 0; c < nctr; c++)
			if ((b->ctl[c] & en) && (b->ctl[c] & ov_en))
				arm |= 1u << c;
		for (int c = 0; c < nctr; c++) {
			old[c] = b->cnt[c].v;
			double r = (arm >> c & 1) && freezes ? RATE(b->ctl[c], c, c) : 0;
			if (r > 0) {
				double t = ((double)(wmask - b->cnt[c].v) + 1 - b->cnt[c].frac) / r;
				if (t + SIM_FREEZE_LAT_S < dtc)
					dtc = t + SIM_FREEZE_LAT_S;
			}
		}
	}
	if (dtc <= 0)
		return;
	/* the general counters that count: enabled, and where the box control is enable-style (Nehalem) enabled
	 * there too, counter n by its bit n (EN_PCn), the fixed counter by bit 32 (EN_FC0) */
	if (plain) {
		/* with the rates the cache has (no call in the loop: what it needs stays in registers); a counter
		 * it has none for is counted after, each with box_rate as it comes -- the counters are independent,
		 * and no rate depends on what one holds */
		unsigned miss = 0;
		for (int c = 0; c < nctr; c++) {
			uint64_t ctl = b->ctl[c];
			if (!(ctl & en) || !(run >> c & 1))
				continue;
			if (b->rc[c].gen != gen || b->rc[c].ctl != ctl || b->rc[c].filt != fh)
				miss |= 1u << c;
			else
				sim_count_add(s, b->rc[c].rate + ph, dtc, &b->cnt[c].frac, &b->cnt[c].v, wmask);
		}
		for (int c = 0; miss; c++, miss >>= 1)
			if (miss & 1)
				sim_count_add(s, box_rate(s, b, b->ctl[c], c, fh), dtc, &b->cnt[c].frac, &b->cnt[c].v, wmask);
		fast = !arm && !s->gfrz[sc] && !s->armed && nctr <= 32 && b->agent != SIM_BORROW_DUE && b->agent != SIM_BORROW_HELD;
	} else {
		for (int c = 0; c < nctr; c++) {
			uint64_t ctl = b->ctl[c];
			if ((ctl & en) && (run >> c & 1))
				sim_count_add(s, box_rate(s, b, ctl, c, fh), dtc, &b->cnt[c].frac, &b->cnt[c].v, wmask);
		}
	}
	int fixed = u->fixed_ctl && (b->fixed_ctl & u->fixed_en) && (run & 1ull << 32);
	if (fixed)
		sim_count_add(s, RATE(0, SIM_CTR_FIXED, SIM_MAX_CTR), dtc, &b->fixed.frac, &b->fixed.v, uc_width_mask(u->fixed_width));
	if (fast) /* the next advances need look at nothing of this again until something changes */
		fast_state(b, en, run, fixed, gen);
	for (int c = 0; arm && c < nctr; c++)
		if ((arm >> c & 1) && b->cnt[c].v < old[c])
			ovbits |= 1ull << (c + u->status_shift);
	if (ovbits)
		overflowed(s, b, ovbits, start + (uint64_t)(dtc * 1e9));
	else if (arm && plain && b->agent != SIM_BORROW_DUE && b->agent != SIM_BORROW_HELD)
		note_first_overflow(s, b, arm, now, gen, wmask, fh);
}
#undef RATE

void sim_box_advance(struct sim *s, struct sim_box *b) { sim_box_advance_to(s, b, sim_box_now(s, b)); }

/* Box b made to count the fast way from where it stands, as a full advance of a moment would leave it: its
 * rates taken now (the cache's, for its control words, filters and the machine's generation), nothing counted.
 * A box the full way must look at again at each advance (a counter armed for overflows, a freeze, a fault that
 * changes what it counts, a shared machine) is left to it. */
static void prime(struct sim *s, struct sim_box *b)
{
	const struct sim_unit *u = b->u;
	uint64_t gen = s->rate_gen + 1, en = u->ctl_en ? u->ctl_en : (uint64_t)0xff << u->ev_shift;
	uint64_t run = u->bc && u->bc->run ? b->box_ctl : ~0ull;
	if (b->fast_gen == gen || b->dead || b->stuck || s->shm || s->armed || s->gfrz[sim_box_scope(s, b)] ||
	    u->nctr > 32 || b->agent == SIM_BORROW_DUE || b->agent == SIM_BORROW_HELD || frozen_own(b))
		return;
	for (int c = 0; c < u->nctr; c++)
		if (armed(b, c))
			return;
	uint64_t fh = filt_hash(b);
	for (int k = 0; k < b->nfr; k++)
		box_rate(s, b, 0, SIM_CTR_FR(k), fh);
	for (int c = 0; c < u->nctr; c++)
		if ((b->ctl[c] & en) && (run >> c & 1))
			box_rate(s, b, b->ctl[c], c, fh);
	int fixed = u->fixed_ctl && (b->fixed_ctl & u->fixed_en) && (run & 1ull << 32);
	if (fixed)
		box_rate(s, b, 0, SIM_CTR_FIXED, fh);
	fast_state(b, en, run, fixed, gen);
}

void sim_settle(struct sim *s)
{
	for (int i = 0; i < s->nboxes; i++)
		prime(s, &s->boxes[i]);
}

void sim_tick(struct sim *s)
{
	if (s->manual_clock)
		s->now_ns += s->tick_ns;
}

static uint64_t reg_get_local(struct sim *s, struct sim_box *b, int kind, int i)
{
	sim_box_catch_up(s, b);
	sim_agent_strike(s, b);
	return sim_reg_value(b, kind, i);
}

static void reg_set_counters(struct sim *s, struct sim_box *b, int kind, int i, uint64_t v, int dword);

static void reg_set_local(struct sim *s, struct sim_box *b, int kind, int i, uint64_t v, int dword)
{
	sim_box_catch_up(s, b);
	sim_agent_strike(s, b);
	sim_box_stale(b);
	uint64_t held[SIM_MAX_CTR], held_fixed = b->fixed.v; /* fault stuck: what its counters keep */
	for (int c = 0; c < SIM_MAX_CTR; c++)
		held[c] = b->cnt[c].v;
	reg_set_counters(s, b, kind, i, v, dword);
	if (b->stuck) {
		for (int c = 0; c < SIM_MAX_CTR; c++)
			b->cnt[c].v = held[c];
		b->fixed.v = held_fixed;
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
				b->cnt[c].v = sim_reset_value(s, b, b->ctl[c], c, b->width);
				b->cnt[c].frac = 0;
			}
		if (bc->rst_ctrl && (v & bc->rst_ctrl))
			memset(b->ctl, 0, sizeof(b->ctl));
		b->box_ctl = v & (bc->run ? bc->run : bc->frz_en | bc->frz | bc->readable); /* what reads back is kept */
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
		if (armed(b, i)) {
			s->armed = 1;
			mark_armed(s, b);
		}
		if (v & u->ctl_rst) {
			b->cnt[i].v = sim_reset_value(s, b, b->ctl[i], i, b->width);
			b->cnt[i].frac = 0;
		}
		break;
	case R_CTR:
		b->cnt[i].v = dword ? ((b->cnt[i].v & ~0xffffffffull) | (v & 0xffffffffull)) : (v & uc_width_mask(b->width));
		b->cnt[i].frac = 0;
		if (!dword && !b->cnt[i].v)
			b->cnt[i].v = sim_reset_value(s, b, b->ctl[i], i, b->width);
		break;
	case R_CTR_HI:
		b->cnt[i].v = ((b->cnt[i].v & 0xffffffffull) | (v << 32)) & uc_width_mask(b->width);
		if (!b->cnt[i].v) /* a 64-bit write of 0 completed: a reset */
			b->cnt[i].v = sim_reset_value(s, b, b->ctl[i], i, b->width);
		break;
	case R_FIXED_CTL:
		b->fixed_ctl = v & u->fixed_en;
		if (u->fixed_rst && (v & u->fixed_rst)) {
			b->fixed.v = sim_reset_value(s, b, 0, SIM_CTR_FIXED, u->fixed_width);
			b->fixed.frac = 0;
		}
		break;
	case R_FIXED_CTR:
		b->fixed.v = dword ? ((b->fixed.v & ~0xffffffffull) | (v & 0xffffffffull)) : (v & uc_width_mask(u->fixed_width));
		if (!dword && !b->fixed.v)
			b->fixed.v = sim_reset_value(s, b, 0, SIM_CTR_FIXED, u->fixed_width);
		break;
	case R_FIXED_CTR_HI:
		b->fixed.v = ((b->fixed.v & 0xffffffffull) | (v << 32)) & uc_width_mask(u->fixed_width);
		if (!b->fixed.v)
			b->fixed.v = sim_reset_value(s, b, 0, SIM_CTR_FIXED, u->fixed_width);
		break;
	case R_FILT:
		b->filt[i] = v & u->filt[i].writable; /* unimplemented bits read 0 */
		break;
	}
}

void sim_advance_scope(struct sim *s, int scope)
{
	/* Every box to one instant, the clock held over the walk as over a read (s_hold_clock): the armed boxes
	 * first, once, where each box's advance walked them again (advance_armed_in), which made a read of the global
	 * status of a platform of hundreds of boxes quadratic while a counter was armed (PAPI's every-event test
	 * on sim:emr spent half its time there); at one instant that walk finds them all there already. */
	sim_shared_in(s, NULL);
	int held = s->held, advancing = s->advancing;
	uint64_t hold_ns = s->hold_ns;
	s->hold_ns = sim_clock(s);
	s->held = 1;
	if (s->armed && !advancing)
		advance_armed_in(s, NULL, scope, s->hold_ns);
	s->advancing = 1;
	for (int i = 0; i < s->nboxes; i++) {
		struct sim_box *b = &s->boxes[i];
		if (scope >= 0 && sim_box_scope(s, b) != scope)
			continue;
		sim_shared_in(s, b);
		sim_box_advance(s, b);
		sim_shared_out(s, b);
	}
	s->advancing = advancing;
	s->held = held;
	s->hold_ns = hold_ns;
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

int sim_faulted(struct sim *s, const struct sim_box *b) { return sim_faulted_now(s, b); }
int sim_allones(struct sim *s, const struct sim_box *b) { return sim_allones_now(s, b); }

int sim_fault_err(const struct sim_box *b, const char *what)
{
	if (b->fault == EACCES)
		return uc_err("%s: permission denied on simulated %s %d: needs root or CAP_SYS_RAWIO", what,
			      b->u->name, b->idx);
	return uc_err("%s: I/O error on simulated %s %d (socket %d)", what, b->u->name, b->idx, b->socket);
}
