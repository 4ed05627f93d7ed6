/* Sessions: programming a box with the documented protocol. */
#include "session_priv.h"
#include "discover/discover.h"

int sess_write_box_ctl(uncore_t *u, const struct box *b, uint64_t v)
{
	struct pmon_reg r;
	return pmon_reg(b, PK_BOX_CTL, 0, &r) ? 0 : pmon_write(u, b, &r, v);
}

/* Box control words: frozen, counting, and frozen with a counter reset.  An enable-style control
 * (Nehalem) stops with 0 and counts with its enable bits. */
uint64_t sess_bc_frozen(const struct box *b) { return b->t->bc->style->frozen(b->t->bc); }
uint64_t sess_bc_running(const struct box *b) { return b->t->bc->style->running(b->t->bc); }
static uint64_t bc_reset(const struct box *b) { return box_ctl_reset(b->t->bc); }

uint64_t sess_max_read_interval(const uncore_session_t *s)
{
	double lim = 1e18;
	for (int i = 0; i < s->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		int w = sess_slot_width(box_of(s, sl->box), sl);
		double rate = MAX_CLOCK_HZ * (sl->ctr < 0 ? 1 : MAX_INC_PER_CYCLE); /* fixed and free-running: 1 a cycle */
		double ns = ldexp(1.0, w) / rate / 2 * 1e9;
		if (ns < lim)
			lim = ns;
	}
	return lim < 1e6 ? 1000000 : (uint64_t)lim;
}

/* What a sampled counter starts from: it overflows after the period's N events. */
uint64_t sess_preload(const uncore_session_t *s, const struct slot *sl)
{
	return (sl->mask - s->evs[sl->ev].period + 1) & sl->mask; /* discovery may report 64-bit counters */
}

/* The control word a slot's counter gets. */
uint64_t sess_slot_ctl(const uncore_session_t *s, const struct box *b, const struct slot *sl)
{
	return sl->ctr == UC_CTR_FIXED ? b->t->fixed_en : s->evs[sl->ev].ctl;
}

/* Does this session write slot i's counter: on a box it programs, or on a counter of its own in a box it
 * shares (rather than one another session programmed the same way)? */
static int mine(const uncore_session_t *s, const struct slot *sl)
{
	const struct prog *p = prog_of(s, sl);
	return p->owner || (p->joined && !sl->shared);
}

/* Does the session write anything in the box (and so freeze it meanwhile)? */
static int writes_box(const uncore_session_t *s, const struct prog *p)
{
	for (int i = p->first; !p->owner && p->joined && i < p->first + p->nslots; i++)
		if (s->slots[i].ctr != UC_CTR_FREERUN && !s->slots[i].shared)
			return 1;
	return p->owner;
}

/* c) the filters this session sets in the box */
static int write_filters(uncore_session_t *s, const struct prog *pg)
{
	const struct box *b = box_of(s, pg->box);
	for (int f = 0; f < b->t->nfilt_regs; f++) {
		struct pmon_reg r;
		if (!pg->fmask[f])
			continue;
		if (pmon_reg(b, PK_FILT, f, &r)) /* sched_box lets no filter through that the box lacks */
			return uc_err("%s %d (socket %d) has no %s register", b->t->name, b->idx, b->socket,
				      b->t->filt_regs[f].name);
		if (pmon_write(s->u, b, &r, pg->fval[f]))
			return uc_err_prefix("%s %d (socket %d) %s: ", b->t->name, b->idx, b->socket, b->t->filt_regs[f].name);
	}
	return 0;
}

/* d) the control words of the box's counters this session writes; a box without box control keeps ev_sel 0
 * for now (its real event comes just before the others unfreeze) */
static int write_controls(uncore_session_t *s, const struct prog *pg)
{
	for (int i = pg->first; i < pg->first + pg->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		const struct box *b = box_of(s, sl->box);
		uint64_t ctl = sess_slot_ctl(s, b, sl);
		if (sl->ctr == UC_CTR_FREERUN || !mine(s, sl))
			continue;
		if (!b->t->has_box_ctl)
			ctl = sl->ctr == UC_CTR_FIXED ? 0 : b->t->lay->enable;
		struct pmon_reg r = sess_slot_ctl_reg(b, sl);
		if (pmon_write(s->u, b, &r, ctl))
			return -1;
	}
	return 0;
}

/* e) the counters start: a box this session owns is reset (box reset bits where they exist, else 0 written
 * to each data register); a sampled counter is preloaded; a shared box counts from the baseline read */
static int start_counters(uncore_session_t *s, const struct prog *pg)
{
	const struct box *b = box_of(s, pg->box);
	if (pg->owner && b->t->box_ctl_resets && sess_write_box_ctl(s->u, b, bc_reset(b)))
		return -1;
	for (int i = pg->first; i < pg->first + pg->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		if (sl->ctr == UC_CTR_FREERUN || !mine(s, sl))
			continue; /* cannot (or must not) be reset; the baseline read takes its place */
		if (s->evs[sl->ev].period) { /* sampling: preload 2^width - N (seed 002 L7-11) */
			if (reg_write_counter(s->u, b, sl->addr, sess_preload(s, sl)))
				return -1;
			continue;
		}
		if (!pg->owner)
			continue;
		if (sl->ctr == UC_CTR_FIXED && b->t->fixed_rst) {
			struct pmon_reg r = sess_slot_ctl_reg(b, sl);
			if (pmon_write(s->u, b, &r, b->t->fixed_en | b->t->fixed_rst))
				return -1;
		} else if (sl->ctr == UC_CTR_FIXED || !b->t->box_ctl_resets) {
			if (reg_write_counter(s->u, b, sl->addr, 0))
				return -1;
		}
	}
	return 0;
}

/* A box without freeze (SNB-EP's UBox) gets its counters' real events last, just before the others unfreeze. */
static int give_events(uncore_session_t *s, const struct prog *pg)
{
	const struct box *b = box_of(s, pg->box);
	for (int i = pg->first; !b->t->has_box_ctl && i < pg->first + pg->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		if (sl->ctr == UC_CTR_FREERUN || !mine(s, sl))
			continue;
		struct pmon_reg r = sess_slot_ctl_reg(b, sl);
		if (pmon_write(s->u, b, &r, sess_slot_ctl(s, b, sl)))
			return -1;
	}
	return 0;
}

/* the box stops counting (a box without box control, SNB-EP's UBox, has nothing to write: sess_write_box_ctl) */
static int freeze(uncore_session_t *s, const struct prog *pg)
{
	const struct box *b = box_of(s, pg->box);
	return sess_write_box_ctl(s->u, b, sess_bc_frozen(b));
}

/* the box counts again: unfrozen (its baseline is read after this, sess_program says why) */
static int unfreeze(uncore_session_t *s, struct prog *pg)
{
	const struct box *b = box_of(s, pg->box);
	if (!writes_box(s, pg) || !b->t->has_box_ctl)
		return 0;
	return sess_write_box_ctl(s->u, b, sess_bc_running(b));
}

/* Every box's first sample: the counts its windows start from, and their start, taken together by one read
 * (on a simulator at one instant of its clock, as every later read is).  It follows the unfreeze: a start
 * time taken beside the unfreeze's write instead is off by however long the write took or was preempted
 * for, which the first interval's rates then divided by (a read 1 ms after the start came out 0.3 % high
 * on sim:icx with a shared file, 7 % beside two CPU hogs). */
static int read_baselines(uncore_session_t *s, int shared)
{
	int rc = 0;
	access_clock_hold(s->u->acc);
	for (int p = 0; p < s->nprogs && !rc; p++) {
		struct prog *pg = &s->progs[p];
		if (!pg->failed && (shared ? !pg->owner && writes_box(s, pg) : pg->owner || !writes_box(s, pg)))
			rc = sess_read_box(s, pg, READ_BASELINE);
	}
	access_clock_release(s->u->acc);
	return rc;
}

/* A box other sessions count on is frozen only for this session's own writes to it, one box at a time, and
 * never reset: its counters count from the baseline read.  The boxes this session owns count for nobody
 * else yet, so they are frozen together and start together. */
int sess_program(uncore_session_t *s)
{
	if (disc_globals_unfreeze(s->u)) /* a domain's global control frozen at power-on (DMR's compute dies) */
		return -1;
	for (int p = 0; p < s->nprogs; p++) {
		struct prog *pg = &s->progs[p];
		if (pg->owner || !writes_box(s, pg))
			continue;
		if (freeze(s, pg) || write_filters(s, pg) || write_controls(s, pg) || start_counters(s, pg) ||
		    give_events(s, pg) || unfreeze(s, pg))
			return -1;
	}
	if (read_baselines(s, 1))
		return -1;
	/* a) b) enable freeze and freeze every box this session owns */
	for (int p = 0; p < s->nprogs; p++)
		if (s->progs[p].owner && freeze(s, &s->progs[p]))
			return -1;
	for (int p = 0; p < s->nprogs; p++)
		if (s->progs[p].owner && (write_filters(s, &s->progs[p]) || write_controls(s, &s->progs[p])))
			return -1;
	for (int p = 0; p < s->nprogs; p++)
		if (s->progs[p].owner && start_counters(s, &s->progs[p]))
			return -1;
	for (int p = 0; p < s->nprogs; p++)
		if (s->progs[p].owner && give_events(s, &s->progs[p]))
			return -1;
	/* f) unfreeze: counting begins; then every box counts from its baseline (what this session writes
	 * nothing in, attached to another's counters or free-running, from the same read) */
	for (int p = 0; p < s->nprogs; p++)
		if (s->progs[p].owner && unfreeze(s, &s->progs[p]))
			return -1;
	return read_baselines(s, 0);
}

/* Put a box's registers back as found: freeze, then in reverse (box control last).  A box without
 * freeze (SNB-EP UBox) keeps counting until its control words are back, so those go first there and
 * its counters after.  Whatever the list says, only registers of this box are written, at the
 * addresses this machine gives them, with the bits each defines. */
