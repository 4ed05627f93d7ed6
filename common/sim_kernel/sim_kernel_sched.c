/*
 * The simulated kernel's scheduler: which enabled groups of a box sit on its counters, as the
 * driver's uncore_collect_events / uncore_assign_events decide it -- whole groups or nothing, one
 * fixed counter, the general counters within each event's constraint (sim_perf_rules.c), the shared
 * filter fields the driver's tables give an event, PCU band moves -- and rotation of the groups that
 * do not fit, every multiplexing interval.  Counts come from the simulated registers: a
 * scheduled event's control word is written as the driver writes it (config & its mask | enable),
 * its counter read and accumulated to 64 bits.
 */
#include <string.h>
#include "sim_kernel_priv.h"
#include "sim/sim_only.h"

#define SK_EN (1ull << 22) /* SNBEP_PMON_CTL_EN, NHM_UNC_PERFEVTSEL_EN */

static int ev_width(const struct sk_event *e)
{
	if (e->fr >= 0)
		return e->box->u->fr[e->fr].width;
	return e->fixed ? e->box->u->fixed_width : e->box->width;
}

static inline uint64_t hw_value(struct sim_kernel *k, const struct sk_event *e)
{
	if (e->fr >= 0)
		return sim_reg_read(k->s, e->box, R_FR, e->fr);
	return sim_reg_read(k->s, e->box, e->fixed ? R_FIXED_CTR : R_CTR, e->fixed ? 0 : e->ctr);
}

static void settle_event(struct sim_kernel *k, struct sk_event *e, uint64_t now)
{
	if (e->on) {
		uint64_t hw = hw_value(k, e);
		e->count += (hw - e->last) & uc_width_mask(ev_width(e));
		e->last = hw;
		e->running_ns += now - e->mark_ns;
	}
	if (e->enabled && !e->error)
		e->enabled_ns += now - e->mark_ns;
	e->mark_ns = now;
}

void sk_settle(struct sim_kernel *k, struct sim_box *b)
{
	uint64_t now = sk_now(k);
	SK_FOR_BOX(k, b, i)
		settle_event(k, &k->ev[i], now);
}

unsigned sk_extra_fields(const struct sim_perf_type *t, uint64_t config)
{
	unsigned idx = 0;
	for (const struct sim_perf_extra *x = t->extra; x && x->cmask; x++)
		if ((config & x->cmask) == x->event)
			idx |= x->idx;
	return idx;
}

/* The shared filter of one box while events are placed: each field's holders, and the image. */
struct shared {
	int refs[SK_MAX_XFLD];
	uint64_t img[3];
};

/* A PCU band event moved to band nb: its config1 byte and event select follow (snbep_pcu_alter_er). */
static uint64_t band_config(const struct sk_event *e, int nb)
{
	int b = __builtin_ctz(e->xidx);
	return nb > b ? e->config[1] << 8 * (nb - b) : e->config[1] >> 8 * (b - nb);
}

/* The driver's get_constraint for the shared filter: can e hold its fields next to their holders?
 * Fields are taken in order, each free or held with the same value (__snbep_cbox_get_constraint,
 * uncore_get_constraint); a band event tries the next bands in turn (snbep_pcu_get_constraint), and on
 * a real box (move) is moved to the band it got. */
static int take_shared(struct sk_event *e, const struct sim_perf_type *t, struct shared *sh, int move)
{
	if (!e->xidx)
		return 0;
	if (t->bands) {
		int b = __builtin_ctz(e->xidx);
		for (int i = 0; i < 4; i++) {
			int nb = (b + i) % 4;
			uint64_t v = band_config(e, nb), m = t->xfld[nb].mask;
			if (sh->refs[nb] && ((v ^ sh->img[1]) & m))
				continue;
			sh->refs[nb]++;
			sh->img[1] = (sh->img[1] & ~m) | (v & m);
			if (move && nb != b) {
				e->config[0] += (uint64_t)(nb - b); /* event 0xb + band */
				e->config[1] = v;
				e->xidx = 1u << nb;
			}
			return 0;
		}
		return -1;
	}
	struct shared before = *sh;
	for (int i = 0; i < SK_MAX_XFLD && t->xfld[i].word; i++) {
		int w = t->xfld[i].word;
		uint64_t m = t->xfld[i].mask, v = e->config[w] & m;
		if (!(e->xidx & (1u << i)))
			continue;
		if (sh->refs[i] && ((v ^ sh->img[w]) & m)) {
			*sh = before;
			return -1;
		}
		sh->refs[i]++;
		sh->img[w] = (sh->img[w] & ~m) | v;
	}
	return 0;
}

#define SK_FIXED_BIT 16 /* the fixed counter, after every general one (UNCORE_PMC_IDX_FIXED) */

/* The counters event e may take (uncore_get_event_constraint): the fixed one, its constraint's, or
 * every general counter of the box. */
static unsigned ctr_mask(const struct sim_kernel *k, const struct sk_event *e, const struct sim_perf_type *t)
{
	if (e->fixed)
		return 1u << SK_FIXED_BIT;
	if (k->pmus[e->pmu].generic) /* the generic driver's types have no constraints */
		return (1u << e->box->u->nctr) - 1;
	for (const struct sim_perf_constraint *c = t->constraints; c && c->mask; c++)
		if ((e->config[0] & 0xff) == c->code)
			return c->mask;
	for (const struct sim_perf_constraint *c = t->bit_constraints; c && c->mask; c++)
		if ((e->config[0] & c->code) == c->code)
			return c->mask;
	return (1u << e->box->u->nctr) - 1;
}

/* uncore_assign_events over a box's event list, as perf_assign_events does it: the shared filter
 * first, in list order, then counters by weight (fewest allowed counters first; equal weights in list
 * order), each event the lowest free counter of its mask, no backtracking (uncore constraints do not
 * overlap).  On a real box (real) band events move and *sh keeps the filter's image; on the fake box
 * of uncore_validate_group nothing changes. */
static int assign(struct sim_kernel *k, const int *list, int n, int *slot, struct shared *sh, int real)
{
	unsigned mask[64], weight[64], maxw = 0, used = 0;
	const struct sim_perf_type *t = n ? k->pmus[k->ev[list[0]].pmu].t : NULL;
	struct shared fake;
	memset(&fake, 0, sizeof(fake));
	if (!real)
		sh = &fake;
	else
		memset(sh->refs, 0, sizeof(sh->refs));
	if (n > 64 || (n && n > k->ev[list[0]].box->u->nctr + (t->fixed && k->ev[list[0]].box->u->fixed_ctl)))
		return -1; /* uncore_collect_events: more events than counters */
	for (int i = 0; i < n; i++) {
		struct sk_event *e = &k->ev[list[i]];
		if (take_shared(e, t, sh, real))
			return -1; /* uncore_constraint_empty */
		mask[i] = ctr_mask(k, e, t);
		weight[i] = (unsigned)__builtin_popcount(mask[i]); /* once: every rotation assigns again */
		maxw = weight[i] > maxw ? weight[i] : maxw;
	}
	for (unsigned w = 1; w <= maxw; w++)
		for (int i = 0; i < n; i++) {
			if (weight[i] != w)
				continue;
			unsigned free = mask[i] & ~used;
			if (!free)
				return -1;
			int c = __builtin_ctz(free);
			used |= 1u << c;
			slot[i] = c == SK_FIXED_BIT ? -1 : c;
		}
	return 0;
}

int sk_group_fits(struct sim_kernel *k, int leader, int ev)
{
	int list[64], slot[64], n = 0;
	/* the leader, its members that are not off, then the new event (uncore_collect_events) */
	SK_FOR_BOX(k, k->ev[leader].box, i) {
		const struct sk_event *e = &k->ev[i];
		if (n < 64 && e->fr < 0 && (i == leader || i == ev || (e->leader == leader && e->enabled)))
			list[n++] = i;
	}
	return assign(k, list, n, slot, NULL, 0) == 0;
}

/* The box's filter registers from the shared filter's image: config1/config2 words cut per register. */
static void write_filters(struct sim_kernel *k, struct sim_box *b, const struct sim_perf_type *t, const uint64_t *img)
{
	for (int r = 0; r < b->u->nfilt && r < SIM_MAX_FILT; r++) {
		int w = t->filt_word[r];
		if (w)
			sim_reg_set(k->s, b, R_FILT, r, img[w] >> t->filt_shift[r], 0);
	}
}

/* The driver's box init at first use: reset the box and leave it counting (SNBEP_PMON_BOX_CTL_INT:
 * resets with frz_en; discovery units: the reset bits; Nehalem: every counter's enable). */
static void box_init(struct sim_kernel *k, struct sim_box *b)
{
	struct sk_box *kb = &k->kbox[b - k->s->boxes];
	const struct sim_boxctl *bc = b->u->bc;
	if (kb->inited)
		return;
	kb->inited = 1;
	kb->rot_ns = sk_now(k);
	if (bc)
		sim_reg_set(k->s, b, R_BOX_CTL, 0, bc->run ? bc->run : bc->rst_ctrl | bc->rst_ctrs | bc->frz_en, 0);
}

static int by_seq(struct sim_kernel *k, int a, int b)
{
	const struct sk_event *x = &k->ev[a], *y = &k->ev[b];
	if (x->pinned != y->pinned)
		return x->pinned ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int to_rotate(struct sim_kernel *k, struct sim_box *b);

/* Place the box's enabled groups as perf core and the driver do: pinned groups first, then the others
 * in rotation order; each group's events that are not off join the box's list one by one and the
 * whole list is assigned again (uncore_pmu_event_add); a group that does not fit comes off whole, and
 * no later group of its kind is tried (merge_sched_in: can_add_hw); a pinned one goes to error state. */
void sk_resched(struct sim_kernel *k, struct sim_box *b)
{
	int order[64], n = 0, list[64], slot[64], nl = 0, can[2] = { 1, 1 }, filtered = 0;
	struct sk_box *kb = sk_box_of(k, b);
	struct shared sh;
	const struct sim_perf_type *t = NULL;
	memset(&sh, 0, sizeof(sh));
	memcpy(sh.img, kb->er, sizeof(sh.img));
	box_init(k, b);
	sk_settle(k, b);
	SK_FOR_BOX(k, b, i) { /* everything off the counters first */
		struct sk_event *e = &k->ev[i];
		if (!e->on)
			continue;
		if (e->fixed)
			sim_reg_set(k->s, b, R_FIXED_CTL, 0, 0, 0);
		else if (e->fr < 0)
			sim_reg_set(k->s, b, R_CTL, e->ctr, 0, k->pmus[e->pmu].dword);
		e->on = 0;
		e->ctr = -1;
	}
	SK_FOR_BOX(k, b, i)
		if (n < 64 && k->ev[i].leader == i && k->ev[i].enabled && !k->ev[i].error)
			order[n++] = i;
	for (int i = 1; i < n; i++) /* insertion sort: pinned first, then rotation order */
		for (int j = i; j > 0 && by_seq(k, order[j - 1], order[j]) > 0; j--) {
			int x = order[j];
			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	for (int g = 0; g < n; g++) {
		int l = order[g], pinned = k->ev[l].pinned, nl0 = nl, ok = can[pinned];
		if (k->ev[l].fr >= 0) { /* free-running: always on, nothing to place */
			SK_FOR_BOX(k, b, i)
				if (k->ev[i].leader == l && k->ev[i].enabled)
					k->ev[i].on = 1;
			continue;
		}
		SK_FOR_BOX(k, b, i) {
			if (!ok || k->ev[i].leader != l || !k->ev[i].enabled || nl == 64)
				continue;
			list[nl++] = i;
			ok = assign(k, list, nl, slot, &sh, 1) == 0;
		}
		if (!ok) {
			nl = nl0;
			can[pinned] = 0;
			if (pinned) /* a pinned group that cannot go on: error state, reads return 0 bytes */
				k->ev[l].error = 1;
		}
	}
	if (nl && assign(k, list, nl, slot, &sh, 1)) /* what stays on, with the shared filter's final holders */
		nl = 0;
	for (int j = 0; j < nl; j++) {
		struct sk_event *e = &k->ev[list[j]];
		e->on = 1;
		e->ctr = e->fixed ? -1 : slot[j];
		filtered |= e->xidx != 0;
		t = k->pmus[e->pmu].t;
	}
	if (filtered) { /* the driver writes the filter when an event that uses it goes on */
		memcpy(kb->er, sh.img, sizeof(kb->er));
		write_filters(k, b, t, kb->er);
	}
	SK_FOR_BOX(k, b, i) { /* program what goes on, and take its counter's value as the base */
		struct sk_event *e = &k->ev[i];
		if (!e->on)
			continue;
		if (e->fixed)
			sim_reg_set(k->s, b, R_FIXED_CTL, 0, b->u->fixed_en, 0);
		else if (e->fr < 0)
			sim_reg_set(k->s, b, R_CTL, e->ctr, e->config[0] | SK_EN, k->pmus[e->pmu].dword);
		e->last = hw_value(k, e);
	}
	kb->can_rotate = to_rotate(k, b) >= 0;
}

/* The group to move to the back of the rotation, the first on the counters (ctx_event_to_rotate), when
 * an enabled group waits off them (rotate_necessary); else -1. */
static int to_rotate(struct sim_kernel *k, struct sim_box *b)
{
	int waiting = 0, first = -1;
	SK_FOR_BOX(k, b, i) {
		const struct sk_event *e = &k->ev[i];
		if (e->leader != i || !e->enabled || e->error || e->pinned)
			continue;
		if (!e->on)
			waiting = 1;
		else if (first < 0 || e->seq < k->ev[first].seq)
			first = i;
	}
	return waiting ? first : -1;
}

/* Linux rotates on a timer, every multiplexing interval, whether anyone reads or not
 * (perf_mux_hrtimer_handler, perf_rotate_context): each interval that passed since the box's last
 * rotation is replayed at its own instant, the simulator's clock held there, so that over a long wait
 * every group counts its share.  With nothing waiting the timer stops. */
void sk_rotate_due(struct sim_kernel *k, struct sim_box *b)
{
	struct sk_box *kb = sk_box_of(k, b);
	uint64_t now = sk_now(k);
	while (now - kb->rot_ns >= k->mux_ns) {
		int first = kb->can_rotate ? to_rotate(k, b) : -1; /* (what it says changes only where sk_resched runs) */
		if (first < 0) {
			kb->rot_ns = now;
			return;
		}
		kb->rot_ns += k->mux_ns;
		k->ev[first].seq = ++k->seq; /* the longest-running group goes to the back */
		int held = k->s->held; /* a read's hold (the library's hold_clock) stands again after */
		uint64_t hold_ns = k->s->hold_ns;
		k->s->hold_ns = kb->rot_ns > b->last_ns ? kb->rot_ns : b->last_ns; /* never before the box's last change */
		k->s->held = 1;
		sk_resched(k, b);
		k->s->held = held;
		k->s->hold_ns = hold_ns;
	}
}
