/*
 * The simulated kernel's scheduler: which enabled groups of a box sit on its counters, as the
 * driver's uncore_collect_events / uncore_assign_events decide it -- whole groups or nothing, one
 * fixed counter, the general counters, and filter fields events must agree on -- and rotation of the
 * groups that do not fit, every multiplexing interval.  Counts come from the simulated registers: a
 * scheduled event's control word is written as the driver writes it (config & its mask | enable),
 * its counter read and accumulated to 64 bits.
 */
#include <string.h>
#include "sim_kernel_priv.h"
#include "sim_only.h"

#define SK_EN (1ull << 22) /* SNBEP_PMON_CTL_EN, NHM_UNC_PERFEVTSEL_EN */

uint64_t sk_now(struct sim_kernel *k) { return sim_now(k->s); }

static int ev_width(const struct sk_event *e)
{
	if (e->fr >= 0)
		return e->box->u->fr[e->fr].width;
	return e->fixed ? e->box->u->fixed_width : e->box->width;
}

static uint64_t hw_value(struct sim_kernel *k, const struct sk_event *e)
{
	if (e->fr >= 0)
		return sim_reg_get(k->s, e->box, R_FR, e->fr);
	return e->fixed ? sim_reg_get(k->s, e->box, R_FIXED_CTR, 0) : sim_reg_get(k->s, e->box, R_CTR, e->ctr);
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

/* Filter fields taken so far on a box: the value of each, with how many events use it. */
struct fields {
	uint64_t val[SK_MAX_FIELDS];
	int refs[SK_MAX_FIELDS];
};

/* Can event e take its counter and filter fields next to what is taken? */
static int take(struct sim_kernel *k, const struct sk_event *e, unsigned *ctrs, int *fixed, struct fields *f, int commit)
{
	const struct sk_pmu *p = &k->pmus[e->pmu];
	int nctr = e->box->u->nctr;
	if (e->fr >= 0)
		return 0; /* free-running: no counter, no filter */
	if (e->fixed) {
		if (*fixed)
			return -1;
		if (commit)
			*fixed = 1;
		return 0;
	}
	int c = 0;
	while (c < nctr && (*ctrs & (1u << c)))
		c++;
	if (c == nctr)
		return -1;
	for (int i = 0; i < p->nfld; i++) {
		uint64_t v = e->config[p->fld[i].word] & p->fld[i].mask;
		if (v && f->refs[i] && f->val[i] != v)
			return -1;
	}
	if (commit) {
		*ctrs |= 1u << c;
		for (int i = 0; i < p->nfld; i++) {
			uint64_t v = e->config[p->fld[i].word] & p->fld[i].mask;
			if (v) {
				f->val[i] = v;
				f->refs[i]++;
			}
		}
	}
	return c;
}

/* Place a whole group (members in index order), or nothing. */
static int place_group(struct sim_kernel *k, int leader, int cand, unsigned *ctrs, int *fixed, struct fields *f, int *slot)
{
	unsigned c0 = *ctrs;
	int fx0 = *fixed;
	struct fields f0 = *f;
	int n = 0;
	SK_FOR_BOX(k, k->ev[leader].box, i) {
		const struct sk_event *e = &k->ev[i];
		if (i != cand && e->leader != leader)
			continue;
		int c = take(k, e, ctrs, fixed, f, 0);
		if (c < 0 || take(k, e, ctrs, fixed, f, 1) < 0) {
			*ctrs = c0, *fixed = fx0, *f = f0;
			return -1;
		}
		if (slot)
			slot[i] = c;
		n++;
	}
	return n;
}

int sk_group_fits(struct sim_kernel *k, int leader, int cand)
{
	unsigned ctrs = 0;
	int fixed = 0;
	struct fields f;
	memset(&f, 0, sizeof(f));
	return place_group(k, leader, cand, &ctrs, &fixed, &f, NULL) >= 0;
}

/* The box's filter registers from the fields taken: config1/config2 images cut per register. */
static void write_filters(struct sim_kernel *k, struct sim_box *b, const struct sk_pmu *p, const struct fields *f)
{
	uint64_t img[3] = { 0, 0, 0 };
	for (int i = 0; i < p->nfld; i++)
		if (f->refs[i])
			img[p->fld[i].word] |= f->val[i];
	for (int r = 0; r < b->u->nfilt && r < SIM_MAX_FILT; r++) {
		int w = p->t->filt_word[r];
		if (w)
			sim_reg_set(k->s, b, R_FILT, r, img[w] >> p->t->filt_shift[r], 0);
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

void sk_resched(struct sim_kernel *k, struct sim_box *b)
{
	int order[64], n = 0, slot[4096];
	unsigned ctrs = 0;
	int fixed = 0;
	struct fields f;
	const struct sk_pmu *p = NULL;
	memset(&f, 0, sizeof(f));
	box_init(k, b);
	sk_settle(k, b);
	SK_FOR_BOX(k, b, i) { /* everything off the counters first */
		struct sk_event *e = &k->ev[i];
		if (!e->on)
			continue;
		if (e->fixed)
			sim_reg_set(k->s, b, R_FIXED_CTL, 0, 0, 0);
		else if (e->fr < 0)
			sim_reg_set(k->s, b, R_CTL, e->ctr, 0, 0);
		e->on = 0;
		e->ctr = -1;
	}
	SK_FOR_BOX(k, b, i)
		if (n < 64 && k->ev[i].leader == i && k->ev[i].enabled && !k->ev[i].error)
			order[n++] = i;
	for (int i = 1; i < n; i++) /* insertion sort: pinned first, then rotation order */
		for (int j = i; j > 0 && by_seq(k, order[j - 1], order[j]) > 0; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	for (int g = 0; g < n; g++) {
		int l = order[g];
		p = &k->pmus[k->ev[l].pmu];
		if (k->nev > 4096 || place_group(k, l, -1, &ctrs, &fixed, &f, slot) < 0) {
			if (k->ev[l].pinned) /* a pinned group that cannot go on: error state, reads return 0 bytes */
				k->ev[l].error = 1;
			continue;
		}
		SK_FOR_BOX(k, b, i) {
			struct sk_event *e = &k->ev[i];
			if (e->leader != l || !e->enabled)
				continue;
			e->on = 1;
			e->ctr = e->fr >= 0 || e->fixed ? -1 : slot[i];
		}
	}
	if (p)
		write_filters(k, b, p, &f);
	SK_FOR_BOX(k, b, i) { /* program what goes on, and take its counter's value as the base */
		struct sk_event *e = &k->ev[i];
		if (!e->on)
			continue;
		if (e->fixed)
			sim_reg_set(k->s, b, R_FIXED_CTL, 0, b->u->fixed_en, 0);
		else if (e->fr < 0)
			sim_reg_set(k->s, b, R_CTL, e->ctr, e->config[0] | SK_EN, 0);
		e->last = hw_value(k, e);
	}
}

void sk_rotate(struct sim_kernel *k, struct sim_box *b)
{
	struct sk_box *kb = &k->kbox[b - k->s->boxes];
	uint64_t now = sk_now(k);
	int waiting = 0, first = -1;
	if (now - kb->rot_ns < k->mux_ns)
		return;
	SK_FOR_BOX(k, b, i) {
		const struct sk_event *e = &k->ev[i];
		if (e->leader != i || !e->enabled || e->error || e->pinned)
			continue;
		if (!e->on)
			waiting = 1;
		else if (first < 0 || e->seq < k->ev[first].seq)
			first = i;
	}
	kb->rot_ns = now;
	if (!waiting || first < 0)
		return;
	k->ev[first].seq = ++k->seq; /* the longest-running group goes to the back */
	sk_resched(k, b);
}
