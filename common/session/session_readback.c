/*
 * Which control words a read reads back (issue 90).  Another agent that reprograms a box (a perf user, a
 * second tool, wrmsr) makes its counts that agent's events, and only the box's control words read back show
 * it.  Read at every read, they cost as much again as the counters (an MSR box has a control word a counter),
 * where PCM and likwid read each counter once.  So they are read back in rotation: every box's words in turn,
 * a read earning credit for a fifth of what its counters' own reads take (RB_SHARE) and, at reads less than a
 * second apart, for no more than a rotation a second needs.  A read then takes at most 1.2 accesses a counter
 * read once takes, and a changed control word is read back within ceil((5 C + 9) / F) reads (C: the
 * accesses of every control word, F: of every counter), or within (C + 2) / C seconds and a read at faster
 * rates (doc/cost.md says the trade).
 */
#include "session_priv.h"

/* A read earns credit for 1/RB_SHARE of its counters' accesses at most (the credit kept in those fifths) */
#define RB_SHARE 5
#define RB_ROTATION_NS 1000000000ull /* read faster, a rotation takes a second */

/* The accesses one read of a counter of box b takes, read once: a PCI counter of more than 32 bits is two
 * configuration dwords (a configuration request carries one dword at most), an MSR or an MMIO load one */
static uint64_t ctr_units(const struct box *b, const struct slot *sl)
{
	return b->t->space == UC_PCI && sess_slot_width(b, sl) > 32 ? 2 : 1;
}

/* ... and of its control word (a 64-bit one in PCI space, the discovery era's, two dwords) */
static uint64_t ctl_units(const struct box *b, const struct slot *sl)
{
	return b->t->space == UC_PCI && sl->ctl.bytes > 4 ? 2 : 1;
}

void sess_readback_units(const uncore_session_t *s, uint64_t *ctr, uint64_t *ctl)
{
	*ctr = *ctl = 0;
	for (int p = 0; p < s->nprogs; p++) {
		const struct prog *pg = &s->progs[p];
		const struct box *b = box_of(s, pg->box);
		if (pg->failed)
			continue;
		for (int k = 0; k < pg->nslots; k++) {
			const struct slot *sl = &s->slots[pg->first + k];
			*ctr += ctr_units(b, sl);
			*ctl += sl->ctr == UC_CTR_FREERUN ? 0 : ctl_units(b, sl);
		}
	}
}

double sess_readback_share(const uncore_session_t *s, double interval_s)
{
	uint64_t ctr, ctl;
	sess_readback_units(s, &ctr, &ctl);
	if (!ctl)
		return 0;
	double budget = (double)ctr / RB_SHARE / (double)ctl; /* of the words, a read at most */
	double by_time = interval_s > 0 ? interval_s * 1e9 / (double)RB_ROTATION_NS : budget;
	return by_time < budget ? by_time : budget > 1 ? 1 : budget;
}

void sess_plan_readback(uncore_session_t *s)
{
	uint64_t now = s->u->acc->ops->now_ns(s->u->acc);
	if (!s->rb_ok) {
		sess_readback_units(s, &s->rb_ctr_units, &s->rb_ctl_units);
		s->rb_ok = 1;
	}
	for (int p = 0; p < s->nprogs; p++)
		s->progs[p].vmask = 0;
	/* the credit, in fifths of an access over RB_ROTATION_NS (exact: no read earns more than its time gives):
	 * a fifth of the counters' accesses, or what a rotation a second needs over the time since the last read
	 * (that time at most a second: no overflow) */
	uint64_t dt = now > s->rb_t ? now - s->rb_t : 0, ctl = s->rb_ctl_units;
	s->rb_t = now;
	if (dt > RB_ROTATION_NS)
		dt = RB_ROTATION_NS;
	uint64_t by_time = RB_SHARE * ctl * dt, budget = s->rb_ctr_units * RB_ROTATION_NS;
	s->rb_credit += by_time < budget ? by_time : budget;
	if (s->rb_credit > RB_SHARE * (ctl + 2) * RB_ROTATION_NS) /* (nothing to spend it on: every box failed) */
		s->rb_credit = RB_SHARE * (ctl + 2) * RB_ROTATION_NS;
	/* the words from the cursor on while the credit pays for them, each at most once a read */
	int p = s->rb_prog, k = s->rb_slot, steps = s->nslots + s->nprogs; /* (one round at most) */
	if (p >= s->nprogs)
		p = k = 0;
	for (; steps > 0 && s->nprogs; steps--) {
		if (k >= s->progs[p].nslots) {
			p = p + 1 < s->nprogs ? p + 1 : 0;
			k = 0;
			continue;
		}
		struct prog *pg = &s->progs[p];
		const struct slot *sl = &s->slots[pg->first + k];
		if (!pg->failed && sl->ctr != UC_CTR_FREERUN) {
			uint64_t cost = RB_SHARE * ctl_units(box_of(s, pg->box), sl) * RB_ROTATION_NS;
			if (s->rb_credit < cost)
				break;
			s->rb_credit -= cost;
			pg->vmask |= 1u << k;
		}
		k++;
	}
	s->rb_prog = p;
	s->rb_slot = k;
}
