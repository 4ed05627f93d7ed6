/* Sessions: a box's slots, their registers, and reading them into 64-bit accumulators (for a start, a
 * read or a sample). */
#include "session_priv.h"

/* The control register of a slot's counter (general or fixed). */
struct pmon_reg sess_slot_ctl_reg(const struct box *b, const struct slot *sl)
{
	struct pmon_reg r;
	pmon_reg(b, sl->ctr == UC_CTR_FIXED ? PK_FIXED_CTL : PK_CTL, sl->ctr == UC_CTR_FIXED ? 0 : sl->ctr, &r);
	return r;
}

struct pmon_reg sess_slot_ctr_reg(const struct box *b, const struct slot *sl)
{
	struct pmon_reg r;
	pmon_reg(b, sl->ctr == UC_CTR_FIXED ? PK_FIXED_CTR : PK_CTR, sl->ctr == UC_CTR_FIXED ? 0 : sl->ctr, &r);
	return r;
}

static uint64_t sess_slot_ctr_addr(const struct box *b, const struct slot *sl)
{
	return sl->ctr == UC_CTR_FREERUN ? box_fr_addr(b, sl->fr) : sess_slot_ctr_reg(b, sl).addr;
}

int sess_slot_width(const struct box *b, const struct slot *sl)
{
	if (sl->ctr == UC_CTR_FREERUN)
		return b->t->fr[sl->fr].width;
	return sl->ctr == UC_CTR_FIXED ? b->t->fixed_width : b->r.width;
}

/* Put a slot on counter ctr (general, UC_CTR_FIXED or UC_CTR_FREERUN): its counter's address and width
 * mask and its control register, which every read uses, are worked out here once. */
void sess_slot_set_ctr(const struct box *b, struct slot *sl, int ctr)
{
	sl->ctr = ctr;
	sl->addr = sess_slot_ctr_addr(b, sl);
	sl->mask = uc_width_mask(sess_slot_width(b, sl));
	if (ctr == UC_CTR_FREERUN)
		return;
	sl->ctl = sess_slot_ctl_reg(b, sl);
	/* the reset bit is a command that reads 0 */
	sl->ctl_mask = sl->ctl.wmask & ~(ctr == UC_CTR_FIXED ? b->t->fixed_rst : ctl_mask(b->t->lay, CR_RST));
}

/* The most any counter can count in ns, twice over: no clock above MAX_CLOCK_HZ, no event above
 * MAX_INC_PER_CYCLE a cycle (in integers: a read at 100 Hz asks it of every box) */
#define MOST_PER_NS ((uint64_t)(2 * MAX_CLOCK_HZ * MAX_INC_PER_CYCLE / 1e9))
static uint64_t most_in(uint64_t ns)
{
	return ns > (UINT64_MAX - 1000000) / MOST_PER_NS ? UINT64_MAX : ns * MOST_PER_NS + 1000000;
}

/* A box's counters read on their own into buf, after the first ngot its CPU's batch had (got).  Without a batch
 * (now set) the sample's time is the middle of the read, and a read the scheduler stretched (a loaded machine)
 * is taken again, so that rates divide by the counts' own window, not by a preemption; with one (now NULL)
 * the counts are of the batch's instant.  Kept out of sess_read_box, whose common case (a batch) then needs
 * neither these arrays nor the registers they cost.  0, or -1 with a message. */
static __attribute__((noinline)) int read_alone(uncore_session_t *s, const struct prog *p, const uint64_t *got,
						 int ngot, int n, uint64_t *buf, uint64_t *now)
{
	const struct box *b = box_of(s, p->box);
	const struct slot *sl0 = &s->slots[p->first];
	struct access *a = s->u->acc;
	uint64_t addr[UC_MAX_SLOTS];
	if (ngot)
		memcpy(buf, got, (size_t)ngot * sizeof(buf[0]));
	for (int k = ngot; k < n; k++)
		addr[k] = sl0[k].addr;
	if (!now)
		return reg_read_counters(s->u, b, addr + ngot, n - ngot, buf + ngot)
			       ? uc_err_prefix("%s %d (socket %d): ", b->t->name, b->idx, b->socket)
			       : 0;
	for (int tries = 0;; tries++) {
		uint64_t t0 = a->ops->now_ns(a);
		if (reg_read_counters(s->u, b, addr, n, buf))
			return uc_err_prefix("%s %d (socket %d): ", b->t->name, b->idx, b->socket);
		uint64_t t1 = a->ops->now_ns(a);
		if (t1 - t0 <= SAMPLE_SLACK_NS || tries == SAMPLE_TRIES - 1) {
			*now = t0 + (t1 - t0) / 2;
			return 0;
		}
	}
}

/* Whether another agent reprogrammed the box (the control words this read reads back, in rotation:
 * session_readback.c): 0, or -1 with a message that says so (p->taken set) or why they could not be read. */
__attribute__((noinline)) int sess_verify_ctls(uncore_session_t *s, struct prog *p)
{
	const struct box *b = box_of(s, p->box);
	char why[160];
	int changed = sess_ctls_changed(s, p, 1, p->vmask, why, sizeof(why));
	p->vmask = 0; /* (read back once: a sample that services an overflow later in the read does not again) */
	if (changed < 0)
		return uc_err_prefix("%s %d (socket %d): ", b->t->name, b->idx, b->socket);
	if (!changed)
		return 0;
	p->taken = 1;
	return uc_err(SESS_TAKEN_HEAD "%s%s" SESS_TAKEN_TAIL, why, changed > 1 ? " and more" : "");
}

/* Sample a box's counters; each box keeps its own sample times, so a rate is exact even when reading
 * every box takes a while next to a short interval. */
int sess_read_box(uncore_session_t *s, struct prog *p, enum read_kind kind)
{
	uint64_t buf[UC_MAX_SLOTS];
	const uint64_t *val = buf; /* the first n are set */
	int n = p->nslots < UC_MAX_SLOTS ? p->nslots : UC_MAX_SLOTS;
	struct slot *sl0 = &s->slots[p->first];
	struct msr_prefetch *pf = s->u->acc->prefetch;
	uint64_t now = 0;
	/* Registers its CPU's batch read are of the batch's instant: taken from the batch where they lie, in this
	 * box's order (prefetch, session_read.c), the rest read as any other. */
	if (s->batch_ns && pf && pf->cpu == p->cpu && p->msr) { /* (the prog's copies: the box's line stays cold) */
		const uint32_t *reg = pf->reg + pf->next;
		int got = 0, avail = pf->n - pf->next;
		if (p->batch_at == pf->next && n <= avail) /* where turn_msrs put its counters, from these slots */
			got = n;
		else
			while (got < n && got < avail && reg[got] == (uint32_t)sl0[got].addr)
				got++;
		if (got == n)
			val = pf->val + pf->next;
		else if (read_alone(s, p, pf->val + pf->next, got, n, buf, NULL))
			return -1;
		pf->next += got;
		now = s->batch_ns;
	} else if (read_alone(s, p, NULL, 0, n, buf, &now))
		return -1;
	/* A register that reads all ones is a device gone (a PCI function hidden, a bus error), not a count:
	 * nothing of it is taken, not even its control words as another agent's, until it reads sane again.
	 * A count with bits beyond the counter's width, or a step more than any event can count in the time
	 * (a counter that wrapped at a narrower width than documented), is flagged for health. */
	int f = 0;
	for (int k = 0; k < n; k++)
		f |= val[k] == ~0ull;
	/* another agent that reprograms the box (the kernel's driver for a perf user, a second tool, wrmsr)
	 * makes these counts its event's: the box is given up from this read on, and left to that agent */
	if (kind != READ_BASELINE && !f && p->vmask && sess_verify_ctls(s, p))
		return -1;
	if (kind != READ_SAMPLE) {
		p->t_prev = kind == READ_BASELINE ? now : p->t_last;
		p->t_last = now;
	}
	if (kind == READ_BASELINE)
		p->t_start = now;
	/* the most any counter can count since the box was last read sanely (none for a baseline: it counts
	 * nothing) */
	uint64_t most = kind == READ_BASELINE ? UINT64_MAX : most_in(now - p->t_read);
	struct slot *sl = sl0;
	int still = 0;
	if (f) { /* SESS_BOX_ALLONES: nothing taken, the times kept */
		f = SESS_BOX_ALLONES;
		for (int k = 0; k < n && kind != READ_SAMPLE; k++, sl++) {
			sl->prev = sl->mark;
			sl->mark = sl->acc;
			still += sl->acc == sl->prev;
		}
	} else {
		p->t_read = now;
		uint64_t beyond = 0, add = kind == READ_BASELINE ? 0 : ~0ull;
		int close = kind != READ_SAMPLE;
		for (int k = 0; k < n; k++, sl++) { /* (in locals: val may alias a slot, as far as the compiler knows) */
			uint64_t v = val[k], m = sl->mask, d = (v - sl->last) & m; /* modular difference absorbs one wrap */
			uint64_t acc = sl->acc + (d & add), mark = sl->mark;
			beyond |= (v & ~m) | (uint64_t)(d > most);
			sl->last = v & m;
			sl->acc = acc;
			if (close) {
				sl->prev = mark;
				sl->mark = acc;
				still += acc == mark;
			}
		}
		if (beyond) /* counted as read: which count is right cannot be known, health says so */
			f = SESS_BOX_BEYOND;
	}
	if (kind != READ_SAMPLE) { /* (read_prog's question, answered on the way) */
		p->moved = still < n;
		p->all_moved = !still;
	}
	/* what the caller's reads report: every read's since the last of them; a counter that wrapped at
	 * another width keeps doing so, so that stays said for the rest of the session */
	p->hseen |= f | (p->hflags & SESS_BOX_BEYOND);
	if (kind != READ_SAMPLE) {
		p->hflags = p->hseen;
		p->hseen = 0;
	}
	return 0;
}
