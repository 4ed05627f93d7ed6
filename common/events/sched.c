/*
 * Counter assignment inside one box: honour each event's counter mask and the
 * box's shared filter registers.  Two events needing different values of the
 * same filter bits cannot share a box: they are refused, never clobbered.
 */
#include <stdio.h>
#include "events.h"
#include "util/error.h"

static int popcount(unsigned m) { return __builtin_popcount(m); }

static int assign(struct sched_req *r, const int *order, int n, int k, unsigned used, unsigned avail)
{
	struct sched_req *q;
	if (k == n)
		return 1;
	q = &r[order[k]];
	if (q->enc->fr >= 0) { /* free-running: nothing to allocate */
		q->ctr = UC_CTR_FREERUN;
		return assign(r, order, n, k + 1, used, avail);
	}
	if (q->enc->fixed) {
		q->ctr = UC_CTR_FIXED;
		return assign(r, order, n, k + 1, used, avail);
	}
	for (int c = 0; c < UC_MAX_CTR; c++) {
		if (!(q->enc->ctr_mask & avail & (1u << c)) || (used & (1u << c)))
			continue;
		q->ctr = c;
		if (assign(r, order, n, k + 1, used | (1u << c), avail))
			return 1;
	}
	return 0;
}

/* Move band event e to the next band whose filter byte is free or holds e's value: its event select and
 * filter byte with it, as Linux's snbep_pcu_get_constraint does.  The four band events count the same
 * residency, each against its own byte.  0: moved; -1: not a band event, or no band fits. */
static int move_band(const struct box *b, struct encoded *e, const uint64_t *fval, const uint64_t *fmask)
{
	unsigned band = (unsigned)(e->ctl & 0xff) - b->t->band_ev;
	if (!b->t->band_ev || band > 3 || e->fmask[0] != 0xffull << 8 * band)
		return -1;
	for (unsigned i = 1; i < 4; i++) {
		unsigned nb = (band + i) % 4;
		uint64_t m = 0xffull << 8 * nb, v = (e->fval[0] >> 8 * band) << 8 * nb;
		if ((fmask[0] & m) && (fval[0] & m) != v)
			continue;
		e->ctl = (e->ctl & ~0xffull) | (b->t->band_ev + nb);
		e->fval[0] = v;
		e->fmask[0] = m;
		return 0;
	}
	return -1;
}

/* A filter in a companion PCI function the box's type has none for (IVB-EP QPI port 2: no match/mask
 * function, nor a filter device in Linux's ivbep_uncore_pci_ids), on every backend. */
static int companion_absent(const struct box *b, int f)
{
	const struct box_type *t = b->t;
	return t->filt_regs[f].companion && t->companion_ids && b->idx >= 0 && b->idx < t->max_boxes &&
	       !t->companion_ids[b->idx];
}

int sched_box(const struct box *b, struct sched_req *r, int n, uint64_t *fval, uint64_t *fmask)
{
	int nfixed = 0;
	if (n > UC_MAX_SLOTS)
		return uc_err("too many events on %s %d", b->t->name, b->idx);
	for (int i = 0; i < UC_MAX_FILT; i++)
		fval[i] = fmask[i] = 0;
	for (int i = 0; i < n; i++) {
		struct encoded *e = r[i].enc;
		if ((fval[0] ^ e->fval[0]) & fmask[0] & e->fmask[0])
			move_band(b, e, fval, fmask); /* a band event takes a free band; other conflicts are named below */
		for (int f = 0; f < UC_MAX_FILT; f++) {
			uint64_t both = fmask[f] & e->fmask[f];
			if ((fval[f] & both) != (e->fval[f] & both)) {
				const char *other = "another event";
				for (int j = 0; j < i; j++)
					if (r[j].enc->fmask[f] & both)
						other = r[j].enc->name;
				return uc_err("%s and %s need different values in the shared %s of %s box %d "
					      "(socket %d): measure them in separate runs", other, e->name,
					      b->t->filt_regs[f].name, b->t->name, b->idx, b->socket);
			}
			fval[f] |= e->fval[f];
			fmask[f] |= e->fmask[f];
		}
		if (e->fixed && ++nfixed > 1)
			return uc_err("%s box %d has one fixed counter and %s needs it a second time", b->t->name,
				      b->idx, e->name);
		if (e->fixed && !b->t->has_fixed)
			return uc_err("%s box has no fixed counter for %s", b->t->name, e->name);
		if (e->fr >= 0 && e->fr >= b->nfr)
			return uc_err("%s box %d (socket %d) has no free-running counter for %s", b->t->name, b->idx,
				      b->socket, e->name);
	}
	for (int f = 0; f < b->t->nfilt_regs; f++) {
		if (!fmask[f] || !companion_absent(b, f))
			continue;
		/* zeros are the no-filter default, which such a box counts without */
		if (fval[f] & fmask[f])
			return uc_err("%s box %d (socket %d) has no %s (its PCI function is absent): a filter value for it "
				      "cannot be set there; choose another box with :box=N", b->t->name, b->idx, b->socket,
				      b->t->filt_regs[f].name);
		fmask[f] = 0;
	}
	return sched_place(b, r, n, (1u << b->r.nctr) - 1);
}

int sched_place(const struct box *b, struct sched_req *r, int n, unsigned avail)
{
	int order[UC_MAX_SLOTS] = { 0 };
	if (n > UC_MAX_SLOTS)
		return uc_err("too many events on %s %d", b->t->name, b->idx);
	for (int i = 0; i < n; i++)
		order[i] = i;
	/* most constrained first */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && popcount(r[order[j]].enc->ctr_mask) < popcount(r[order[j - 1]].enc->ctr_mask);
		     j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	if (!assign(r, order, n, 0, 0, avail)) {
		char list[512];
		size_t m = 0;
		list[0] = 0;
		for (int i = 0; i < n && m < sizeof(list); i++)
			m += (size_t)snprintf(list + m, sizeof(list) - m, "%s%s", i ? ", " : "", r[i].enc->name);
		if (b->one_ctr)
			return uc_err("cannot place %s in %s box %d (socket %d): %s", list, b->t->name, b->idx, b->socket,
				      b->one_ctr);
		return uc_err("cannot place %s together in %s box %d (socket %d): %d counters%s, and their counter "
			      "restrictions overlap; measure fewer events at once", list, b->t->name, b->idx, b->socket,
			      popcount(avail), popcount(avail) < b->r.nctr ? " free" : "");
	}
	return 0;
}
