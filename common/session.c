/*
 * Sessions: program with the documented protocol (seed 000 section 2.1.1:
 * freeze, program, reset, unfreeze), read with wrap-around handling into
 * 64-bit accumulators, and leave every touched register as it was found.
 * Boxes are claimed machine-wide (claims.c): a box another session already
 * programs the same way is shared, read from a baseline and never reset.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "uncore_priv.h"
#include "api.h"
#include "claims.h"
#include "error.h"
#include "write_guard.h"
#include "pmon_regs.h"

struct slot {
	int ev, box, prog, ctr; /* a general counter, UC_CTR_FIXED or UC_CTR_FREERUN */
	int fr;           /* free-running counter index */
	uint64_t last, acc;
	uint64_t prev; /* acc at the read before the last: the last interval is acc - prev */
	uint64_t mark; /* acc at the last read by the caller (samples in between only add to acc) */
};

/* How a box is read: the baseline at start, a read by the caller (it closes an interval), or a sample the
 * library takes on its own so that no counter wraps twice unseen (it only accumulates). */
enum read_kind { READ_BASELINE, READ_USER, READ_SAMPLE };

/* The fastest any counter can count, for how often it must be sampled: no uncore clock runs above
 * 5 GHz, and no event adds more than 64 in a cycle (occupancy counts); fixed and free-running counters
 * (clocks, 32-byte bandwidth units) add at most 1. */
#define MAX_CLOCK_HZ 5e9
#define MAX_INC_PER_CYCLE 64

#define SAMPLE_SLACK_NS 1000000 /* a box read taking longer than this is repeated ... */
#define SAMPLE_TRIES 4          /* ... at most this often */

struct prog {
	int box;
	int first, nslots; /* its slots: schedule_all places a box's slots together */
	uint64_t t_start, t_prev, t_last; /* when it began counting, and its last two samples */
	int programmed; /* has a slot other than free-running counters */
	int held;       /* this session holds the box's claim */
	int owner;      /* ... and programmed it (else it shares another session's programming) */
	char *failed;   /* why reading the box failed: its counts stopped there and are not reported */
	struct claim_saved *own; /* the owner's own copy of the registers as found (the file may lose it) */
	int nown;
	uint64_t fval[UC_MAX_FILT], fmask[UC_MAX_FILT];
};

struct uncore_session {
	uncore_t *u;
	struct encoded *evs;
	int nevs;
	struct slot *slots;
	int nslots;
	struct prog *progs;
	int nprogs;
	int *ev_slots, *ev_first; /* slots of event e: ev_slots[ev_first[e] .. ev_first[e + 1]) */
	uint32_t token; /* tells this session's claims from others of the same process */
	uint64_t max_read_ns; /* sample at least this often while running: half the fastest wrap */
	uint64_t t_sampled;   /* when every box was last read or sampled */
	int running, started;
	uint64_t t0, t1, tprev;
	struct session_metric *metrics; /* metrics added (metrics.c) */
	int nmetrics;
};

static int targets(const struct encoded *e, const struct box *b)
{
	/* a free-running event covers the boxes that have the counter (IMC: channel 0 of each controller) */
	if (e->fr >= 0 && e->box < 0 && e->fr >= b->nfr)
		return 0;
	/* a socket-wide event every box sees alike is counted once per socket */
	if ((e->ev_flags & UC_EV_SOCKET) && e->box < 0 && b->idx != 0)
		return 0;
	return e->type_idx == b->type_idx && (e->socket < 0 || e->socket == b->socket) &&
	       (e->box < 0 || e->box == b->idx);
}

static void free_progs(struct prog *progs, int n)
{
	for (int p = 0; progs && p < n; p++) {
		free(progs[p].failed);
		free(progs[p].own);
	}
	free(progs);
}

/* Which slots hold each event, so that a value is a walk over its own slots only. */
static int index_events(uncore_session_t *s, const struct slot *slots, int nslots, int nevs)
{
	int *first = calloc((size_t)nevs + 2, sizeof(*first)), *idx = malloc((size_t)(nslots + 1) * sizeof(*idx));
	if (!first || !idx) {
		free(first);
		free(idx);
		return uc_err("out of memory");
	}
	for (int i = 0; i < nslots; i++)
		first[slots[i].ev + 2]++;
	for (int e = 0; e < nevs; e++)
		first[e + 2] += first[e + 1];
	for (int i = 0; i < nslots; i++) /* first[e + 1] runs from e's start to its end */
		idx[first[slots[i].ev + 1]++] = i;
	free(s->ev_first);
	free(s->ev_slots);
	s->ev_first = first;
	s->ev_slots = idx;
	return 0;
}

/* Place every event of the session; on success replace the session's plan. */
static int schedule_all(uncore_session_t *s, struct encoded *evs, int nevs)
{
	uncore_t *u = s->u;
	struct slot *slots = NULL;
	struct prog *progs = NULL;
	int nslots = 0, nprogs = 0;
	struct sched_req *reqs = calloc((size_t)nevs, sizeof(*reqs));
	int *evidx = calloc((size_t)nevs, sizeof(*evidx));
	if (!reqs || !evidx)
		goto oom;
	for (int bi = 0; bi < u->nboxes; bi++) {
		const struct box *b = &u->boxes[bi];
		int n = 0;
		struct prog p = { .box = bi };
		for (int e = 0; e < nevs; e++)
			if (targets(&evs[e], b)) {
				reqs[n].enc = &evs[e];
				evidx[n++] = e;
			}
		if (!n)
			continue;
		if (sched_box(b, reqs, n, p.fval, p.fmask))
			goto fail;
		struct slot *ns = realloc(slots, (size_t)(nslots + n) * sizeof(*ns));
		struct prog *np = realloc(progs, (size_t)(nprogs + 1) * sizeof(*np));
		if (ns)
			slots = ns;
		if (np)
			progs = np;
		if (!ns || !np)
			goto oom;
		p.first = nslots;
		p.nslots = n;
		for (int i = 0; i < n; i++) {
			slots[nslots++] = (struct slot){ .ev = evidx[i], .box = bi, .prog = nprogs, .ctr = reqs[i].ctr,
							 .fr = evs[evidx[i]].fr };
			if (reqs[i].ctr != UC_CTR_FREERUN)
				p.programmed = 1;
		}
		progs[nprogs++] = p;
	}
	free(reqs);
	free(evidx);
	if (index_events(s, slots, nslots, nevs))
		goto fail_nomsg;
	free(s->slots);
	free_progs(s->progs, s->nprogs);
	s->slots = slots;
	s->nslots = nslots;
	s->progs = progs;
	s->nprogs = nprogs;
	return 0;
oom:
	uc_err("out of memory");
fail:
	free(reqs);
	free(evidx);
fail_nomsg:
	free(slots);
	free(progs);
	return -1;
}

int uncore_session_new_impl(uncore_t *u, uncore_session_t **out)
{
	uncore_session_t *s = calloc(1, sizeof(*s));
	if (!s)
		return uc_err("out of memory");
	static uint32_t next_token;
	s->u = u;
	s->token = __atomic_add_fetch(&next_token, 1, __ATOMIC_RELAXED);
	*out = s;
	return 0;
}

int uncore_session_add_impl(uncore_session_t *s, const char *spec)
{
	struct encoded e, *nv;
	if (s->started)
		return uc_err("cannot add '%s': the session has already started", spec ? spec : "");
	if (spec_parse(s->u, spec, &e))
		return -1;
	e.ev = NULL; /* uncore_load_events may move the catalog: nothing kept points into it */
	nv = realloc(s->evs, (size_t)(s->nevs + 1) * sizeof(*nv));
	if (!nv)
		return uc_err("out of memory");
	s->evs = nv;
	s->evs[s->nevs] = e;
	if (schedule_all(s, s->evs, s->nevs + 1))
		return -1;
	return s->nevs++;
}

static const struct box *box_of(const uncore_session_t *s, int bi) { return &s->u->boxes[bi]; }

static const struct prog *prog_of(const uncore_session_t *s, const struct slot *sl) { return &s->progs[sl->prog]; }

/* The control register of a slot's counter (general or fixed). */
static struct pmon_reg slot_ctl_reg(const struct box *b, const struct slot *sl)
{
	struct pmon_reg r;
	pmon_reg(b, sl->ctr == UC_CTR_FIXED ? PK_FIXED_CTL : PK_CTL, sl->ctr == UC_CTR_FIXED ? 0 : sl->ctr, &r);
	return r;
}

static struct pmon_reg slot_ctr_reg(const struct box *b, const struct slot *sl)
{
	struct pmon_reg r;
	pmon_reg(b, sl->ctr == UC_CTR_FIXED ? PK_FIXED_CTR : PK_CTR, sl->ctr == UC_CTR_FIXED ? 0 : sl->ctr, &r);
	return r;
}

static uint64_t slot_ctr_addr(const struct box *b, const struct slot *sl)
{
	return sl->ctr == UC_CTR_FREERUN ? b->fr_base + b->t->fr[sl->fr].addr : slot_ctr_reg(b, sl).addr;
}

static int slot_width(const struct box *b, const struct slot *sl)
{
	if (sl->ctr == UC_CTR_FREERUN)
		return b->t->fr[sl->fr].width;
	return sl->ctr == UC_CTR_FIXED ? b->t->fixed_width : b->r.width;
}

/* Remember a register as found, in the box's claim (once). */
static int save(uncore_session_t *s, struct claim *c, const struct box *b, const struct pmon_reg *r)
{
	struct claim_saved v = { .kind = (uint8_t)r->kind, .idx = (uint8_t)r->idx };
	for (int i = 0; i < c->nsaved; i++)
		if (c->sv[i].kind == v.kind && c->sv[i].idx == v.idx)
			return 0;
	if (c->nsaved == CLAIM_SAVED)
		return uc_err("%s %d: more registers to save than a claim holds (%d)", b->t->name, b->idx, CLAIM_SAVED);
	if (pmon_read(s->u, b, r, &v.val))
		return -1;
	c->sv[c->nsaved++] = v;
	return 0;
}

static int save_kind(uncore_session_t *s, struct claim *c, const struct box *b, enum pmon_kind kind, int idx)
{
	struct pmon_reg r;
	return pmon_reg(b, kind, idx, &r) ? 0 : save(s, c, b, &r);
}

/* Remember every register the session will write in a box, box control first.  Registers a dead
 * owner's claim already holds keep the values it found. */
static int save_box(uncore_session_t *s, const struct prog *p, struct claim *c)
{
	const struct box *b = box_of(s, p->box);
	if (save_kind(s, c, b, PK_BOX_CTL, 0))
		return -1;
	/* rst_ctrs clears every counter of the box, used or not */
	for (int k = 0; b->t->box_ctl_resets && k < b->r.nctr; k++)
		if (save_kind(s, c, b, PK_CTR, k))
			return -1;
	for (int f = 0; f < b->t->nfilt_regs; f++)
		if (p->fmask[f] && save_kind(s, c, b, PK_FILT, f))
			return -1;
	for (int i = 0; i < s->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		struct pmon_reg ctl, ctr;
		if (sl->box != p->box || sl->ctr == UC_CTR_FREERUN)
			continue;
		ctl = slot_ctl_reg(b, sl);
		ctr = slot_ctr_reg(b, sl);
		if (save(s, c, b, &ctl) || save(s, c, b, &ctr))
			return -1;
	}
	return 0;
}

/* Is another agent (the kernel's perf driver, PCM, likwid, a crashed tool) counting on the box?  Any
 * enabled counter control, fixed counter or enable-style box control says so; *what names it. */
static int foreign_use(uncore_session_t *s, const struct box *b, char *what, size_t len)
{
	const struct box_type *t = b->t;
	for (int k = 0; k < PK_NKINDS; k++)
		for (int i = 0; i < UC_MAX_CTR; i++) {
			struct pmon_reg r;
			uint64_t v, on;
			if (pmon_reg(b, (enum pmon_kind)k, i, &r))
				continue;
			if (k == PK_CTL) /* no enable bit (EMR): a non-zero event select counts (seed 001 L541) */
				on = t->lay->enable ? t->lay->enable : ctl_mask(t->lay, CR_EVENT);
			else
				on = k == PK_FIXED_CTL ? t->fixed_en : k == PK_BOX_CTL ? t->bc->style->in_use(t->bc) : 0;
			if (!on)
				continue;
			if (pmon_read(s->u, b, &r, &v))
				return -1;
			if (v & on) {
				char name[48];
				snprintf(what, len, "%s = 0x%llx", pmon_reg_name(b, r.kind, r.idx, name, sizeof(name)),
					 (unsigned long long)v);
				return 1;
			}
		}
	return 0;
}

static int write_box_ctl(uncore_t *u, const struct box *b, uint64_t v)
{
	struct pmon_reg r;
	return pmon_reg(b, PK_BOX_CTL, 0, &r) ? 0 : pmon_write(u, b, &r, v);
}

/* Box control words: frozen, counting, and frozen with a counter reset.  An enable-style control
 * (Nehalem) stops with 0 and counts with its enable bits. */
static uint64_t bc_frozen(const struct box *b) { return b->t->bc->style->frozen(b->t->bc); }
static uint64_t bc_running(const struct box *b) { return b->t->bc->style->running(b->t->bc); }
static uint64_t bc_reset(const struct box *b) { return box_ctl_reset(b->t->bc); }

/* Sample a box's counters; each box keeps its own sample times, so a rate is exact even when reading
 * every box takes a while next to a short interval. */
static int read_box(uncore_session_t *s, struct prog *p, enum read_kind kind)
{
	const struct box *b = box_of(s, p->box);
	uint64_t addr[UC_MAX_SLOTS] = { 0 };
	uint64_t val[UC_MAX_SLOTS] = { 0 };
	int n = p->nslots < UC_MAX_SLOTS ? p->nslots : UC_MAX_SLOTS;
	struct access *a = s->u->acc;
	uint64_t now;
	for (int k = 0; k < n; k++)
		addr[k] = slot_ctr_addr(b, &s->slots[p->first + k]);
	/* The sample's time is the middle of its read.  A read the scheduler stretched (a loaded machine)
	 * is taken again, so that rates divide by the counts' own window, not by a preemption. */
	for (int tries = 0;; tries++) {
		uint64_t t0 = a->ops->now_ns(a);
		if (reg_read_counters(s->u, b, addr, n, val))
			return uc_err_prefix("%s %d (socket %d): ", b->t->name, b->idx, b->socket);
		uint64_t t1 = a->ops->now_ns(a);
		if (t1 - t0 <= SAMPLE_SLACK_NS || tries == SAMPLE_TRIES - 1) {
			now = t0 + (t1 - t0) / 2;
			break;
		}
	}
	if (kind != READ_SAMPLE) {
		p->t_prev = kind == READ_BASELINE ? now : p->t_last;
		p->t_last = now;
	}
	if (kind == READ_BASELINE)
		p->t_start = now;
	for (int k = 0; k < n; k++) {
		struct slot *sl = &s->slots[p->first + k];
		uint64_t mask = uc_width_mask(slot_width(b, sl));
		if (kind != READ_BASELINE)
			sl->acc += (val[k] - sl->last) & mask; /* modular difference absorbs one wrap */
		sl->last = val[k] & mask;
		if (kind != READ_SAMPLE) {
			sl->prev = sl->mark;
			sl->mark = sl->acc;
		}
	}
	return 0;
}

/* Half the time the session's fastest counter takes to wrap at the fastest rate it could count. */
static uint64_t max_read_interval(const uncore_session_t *s)
{
	double lim = 1e18;
	for (int i = 0; i < s->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		int w = slot_width(box_of(s, sl->box), sl);
		double rate = MAX_CLOCK_HZ * (sl->ctr < 0 ? 1 : MAX_INC_PER_CYCLE); /* fixed and free-running: 1 a cycle */
		double ns = ldexp(1.0, w) / rate / 2 * 1e9;
		if (ns < lim)
			lim = ns;
	}
	return lim < 1e6 ? 1000000 : (uint64_t)lim;
}

/* What a sampled counter starts from: it overflows after the period's N events. */
static uint64_t preload(const uncore_session_t *s, const struct box *b, const struct slot *sl)
{
	uint64_t mask = uc_width_mask(slot_width(b, sl)); /* discovery may report 64-bit counters */
	return (mask - s->evs[sl->ev].period + 1) & mask;
}

/* The control word a slot's counter gets. */
static uint64_t slot_ctl(const uncore_session_t *s, const struct box *b, const struct slot *sl)
{
	return sl->ctr == UC_CTR_FIXED ? b->t->fixed_en : s->evs[sl->ev].ctl;
}

/* What a box is programmed with, as a hash: sessions that agree on it can share the box. */
static uint64_t box_sig(const uncore_session_t *s, const struct prog *p)
{
	const struct box *b = box_of(s, p->box);
	uint64_t h = 1469598103934665603ull;
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 1099511628211ull)
	for (int c = UC_CTR_FIXED; c < b->r.nctr; c++) /* the fixed counter, then the general ones */
		for (int i = 0; i < s->nslots; i++)
			if (s->slots[i].box == p->box && s->slots[i].ctr == c) {
				MIX(c + 2);
				MIX(slot_ctl(s, b, &s->slots[i]));
			}
	for (int f = 0; f < UC_MAX_FILT; f++) {
		MIX(p->fval[f]);
		MIX(p->fmask[f]);
	}
#undef MIX
	return h;
}

/* Is slot i on a box this session programs (rather than shares)? */
static int owned(const uncore_session_t *s, const struct slot *sl)
{
	return prog_of(s, sl)->owner;
}

static int program(uncore_session_t *s)
{
	uncore_t *u = s->u;
	/* a) b) enable freeze and freeze every box we program */
	for (int p = 0; p < s->nprogs; p++) {
		const struct box *b = box_of(s, s->progs[p].box);
		if (s->progs[p].owner && write_box_ctl(s->u, b, bc_frozen(b)))
			return -1;
	}
	/* c) d) filters and control words; a box without box control keeps ev_sel 0 for now */
	for (int p = 0; p < s->nprogs; p++) {
		const struct box *b = box_of(s, s->progs[p].box);
		for (int f = 0; s->progs[p].owner && f < b->t->nfilt_regs; f++) {
			struct pmon_reg r;
			if (s->progs[p].fmask[f] && (pmon_reg(b, PK_FILT, f, &r) || pmon_write(u, b, &r, s->progs[p].fval[f])))
				return uc_err_prefix("%s %d (socket %d) filter %d: ", b->t->name, b->idx, b->socket, f);
		}
	}
	for (int i = 0; i < s->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		const struct box *b = box_of(s, sl->box);
		uint64_t ctl = slot_ctl(s, b, sl);
		if (sl->ctr == UC_CTR_FREERUN || !owned(s, sl))
			continue;
		if (!b->t->has_box_ctl)
			ctl = sl->ctr == UC_CTR_FIXED ? 0 : b->t->lay->enable;
		struct pmon_reg r = slot_ctl_reg(b, sl);
		if (pmon_write(u, b, &r, ctl))
			return -1;
	}
	/* e) reset: box reset bits where they exist, else write 0 to each data register */
	for (int p = 0; p < s->nprogs; p++) {
		const struct box *b = box_of(s, s->progs[p].box);
		if (s->progs[p].owner && b->t->box_ctl_resets && write_box_ctl(s->u, b, bc_reset(b)))
			return -1;
	}
	for (int i = 0; i < s->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		const struct box *b = box_of(s, sl->box);
		if (sl->ctr == UC_CTR_FREERUN || !owned(s, sl))
			continue; /* cannot (or must not) be reset; the baseline read below takes its place */
		if (s->evs[sl->ev].period) { /* sampling: preload 2^width - N (seed 002 L7-11) */
			if (reg_write_counter(u, b, slot_ctr_addr(b, sl), preload(s, b, sl)))
				return -1;
			continue;
		}
		if (sl->ctr == UC_CTR_FIXED && b->t->fixed_rst) {
			struct pmon_reg r = slot_ctl_reg(b, sl);
			if (pmon_write(u, b, &r, b->t->fixed_en | b->t->fixed_rst))
				return -1;
		} else if (sl->ctr == UC_CTR_FIXED || !b->t->box_ctl_resets) {
			if (reg_write_counter(u, b, slot_ctr_addr(b, sl), 0))
				return -1;
		}
	}
	/* the UBox has no freeze: give it its real event just before the others unfreeze */
	for (int i = 0; i < s->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		const struct box *b = box_of(s, sl->box);
		if (b->t->has_box_ctl || sl->ctr == UC_CTR_FREERUN || !owned(s, sl))
			continue;
		struct pmon_reg r = slot_ctl_reg(b, sl);
		if (pmon_write(u, b, &r, slot_ctl(s, b, sl)))
			return -1;
	}
	for (int p = 0; p < s->nprogs; p++)
		if (read_box(s, &s->progs[p], READ_BASELINE))
			return -1;
	/* f) unfreeze: counting begins (a box read from a baseline began at that read) */
	for (int p = 0; p < s->nprogs; p++) {
		struct prog *pg = &s->progs[p];
		const struct box *b = box_of(s, pg->box);
		if (!pg->owner || !b->t->has_box_ctl)
			continue;
		if (write_box_ctl(s->u, b, bc_running(b)))
			return -1;
		pg->t_start = pg->t_prev = pg->t_last = s->u->acc->ops->now_ns(s->u->acc);
	}
	return 0;
}

/* Put a box's registers back as found: freeze, then in reverse (box control last).  A box without
 * freeze (SNB-EP UBox) keeps counting until its control words are back, so those go first there and
 * its counters after.  Whatever the list says, only registers of this box are written, at the
 * addresses this machine gives them, with the bits each defines. */
static int restore_regs(uncore_t *u, const struct box *b, const struct claim_saved *sv, int n)
{
	int rc = write_box_ctl(u, b, bc_frozen(b));
	for (int pass = b->t->has_box_ctl; pass < 2; pass++)
		for (int i = n - 1; i >= 0; i--) {
			struct pmon_reg r;
			if (sv[i].kind >= PK_NKINDS || pmon_reg(b, (enum pmon_kind)sv[i].kind, sv[i].idx, &r))
				continue; /* not a register of this box: never written */
			if (!b->t->has_box_ctl && r.counter != pass)
				continue;
			if (pmon_write(u, b, &r, sv[i].val & r.wmask))
				rc = -1;
		}
	return rc;
}

static int restore_box(uncore_session_t *s, int bi, const struct claim_saved *sv, int n)
{
	return restore_regs(s->u, box_of(s, bi), sv, n);
}

/* Holders that died (SIGKILL, a crash) are dropped from every claim, once per lock; boxes they left
 * programmed with nobody else holding them are put back as their claims found them, with a warning,
 * whichever boxes this session uses.  Called with the claims locked. */
static void reap_dead(uncore_t *u)
{
	for (int i = 0; i < claims_count(u);) {
		struct claim *c = claims_at(u, i);
		const struct box *b = claims_box(u, c);
		int pid = claims_prune(u, c);
		if (c->nholders || !b) {
			i++;
			continue;
		}
		if (c->nsaved && restore_regs(u, b, c->sv, c->nsaved))
			uc_warn("%s %d (socket %d), left programmed by process %d, could not be restored: %s", b->t->name,
				b->idx, b->socket, pid, uncore_error());
		else if (c->nsaved)
			uc_warn("%s %d (socket %d) was left programmed by process %d, which ended without releasing it: "
				"its registers are restored", b->t->name, b->idx, b->socket, pid);
		claims_remove(u, c);
	}
}

/* Let go of every box; the last session on a box restores it.  Called with the claims locked.  The
 * owner restores from its own copy, so a record lost from the file cannot leave a box programmed. */
static int release(uncore_session_t *s)
{
	int rc = 0;
	for (int p = 0; p < s->nprogs; p++) {
		struct prog *pg = &s->progs[p];
		const struct box *b = box_of(s, pg->box);
		if (!pg->held)
			continue;
		struct claim *c = claims_get(s->u, b, 0);
		if (!c || claims_drop(c, s->token) == 0) {
			if (!c)
				uc_warn("the claims file lost the record of %s %d (socket %d)%s", b->t->name, b->idx, b->socket,
					pg->owner ? ": restored from this session's copy" : ": left as its owner programmed it");
			if (pg->owner ? restore_box(s, pg->box, pg->own, pg->nown)
				      : c && restore_box(s, pg->box, c->sv, c->nsaved))
				rc = -1;
			if (c)
				claims_remove(s->u, c);
		}
		free(pg->own);
		pg->own = NULL;
		pg->nown = 0;
		pg->held = pg->owner = 0;
	}
	return rc;
}

/* Become the owner of a box nobody alive holds.  A claim left by a process that died explains the
 * box's state and keeps the registers as that process found them; with no claim, a box another agent
 * counts on is refused unless the user forces it. */
static int take_over(uncore_session_t *s, struct prog *pg, struct claim *c, uint64_t sig)
{
	const struct box *b = box_of(s, pg->box);
	int fresh = c->nsaved == 0, used;
	char what[96];
	if (fresh && (used = foreign_use(s, b, what, sizeof(what))) != 0) {
		if (used < 0 || !s->u->force) {
			claims_remove(s->u, c);
			return used < 0 ? uc_err_prefix("%s %d (socket %d): ", b->t->name, b->idx, b->socket)
					: uc_err("%s %d (socket %d) is in use by another agent: %s (the kernel's perf uncore "
						 "driver, PCM, likwid or a crashed tool is counting there); stop it, or force "
						 "the take-over (--force, UNCORE_FORCE=1)", b->t->name, b->idx, b->socket, what);
		}
		uc_warn("%s %d (socket %d) was in use by another agent (%s): taken over because of force; its "
			"registers are put back at the end", b->t->name, b->idx, b->socket, what);
	}
	if (!(pg->own = malloc(sizeof(*pg->own) * CLAIM_SAVED)))
		return uc_err("out of memory");
	if (save_box(s, pg, c)) {
		free(pg->own);
		pg->own = NULL;
		if (fresh)
			claims_remove(s->u, c);
		return -1;
	}
	memcpy(pg->own, c->sv, sizeof(*pg->own) * (size_t)c->nsaved);
	pg->nown = c->nsaved;
	c->sig = sig;
	pg->owner = 1;
	return 0;
}

/* Claim every box the session programs: share one programmed the same way, else take it over. */
static int claim(uncore_session_t *s)
{
	for (int p = 0; p < s->nprogs; p++) {
		struct prog *pg = &s->progs[p];
		const struct box *b = box_of(s, pg->box);
		if (!pg->programmed)
			continue; /* free-running counters only: nothing is written */
		struct claim *c = claims_get(s->u, b, 1);
		uint64_t sig = box_sig(s, pg);
		if (!c)
			return -1;
		if (c->nholders > 0 && c->sig != sig)
			return uc_err("%s %d (socket %d) is counting other events for another session (process %d); "
				      "measure the same events as it does, or wait until it ends",
				      b->t->name, b->idx, b->socket, claims_other_pid(c, s->token));
		if (c->nholders == 0 && take_over(s, pg, c, sig))
			return -1;
		if (claims_hold(s->u, c, s->token))
			return -1;
		pg->held = 1;
	}
	return 0;
}

static int leave(uncore_session_t *s);

/* Read (or sample) every box still counted.  A box that cannot be read is given up for good: counting it
 * again after a gap could miss a wrap.  The boxes that failed are named in one message. */
static int read_all(uncore_session_t *s, enum read_kind kind)
{
	char msg[1024] = "";
	size_t len = 0;
	int nfailed = 0;
	if (!s->running)
		return uc_err("the session is not running: start it first");
	for (int p = 0; p < s->nprogs; p++) {
		struct prog *pg = &s->progs[p];
		if (pg->failed || !read_box(s, pg, kind))
			continue;
		if (!(pg->failed = strdup(uncore_error())))
			return uc_err("out of memory");
		if (len < sizeof(msg))
			len += (size_t)snprintf(msg + len, sizeof(msg) - len, "%s%s", nfailed ? "; " : "", pg->failed);
		nfailed++;
	}
	s->t_sampled = s->u->acc->ops->now_ns(s->u->acc);
	if (nfailed)
		return uc_err("%s (%s no longer counted; the other boxes go on)", msg,
			      nfailed > 1 ? "these boxes are" : "this box is");
	return 0;
}

/* The handle's running sessions, which uncore_sleep_ns() samples on the way. */
static int track(uncore_session_t *s, int on)
{
	uncore_t *u = s->u;
	for (int i = 0; i < u->nrunning; i++)
		if (u->running[i] == s) {
			if (!on)
				u->running[i] = u->running[--u->nrunning];
			return 0;
		}
	if (!on)
		return 0;
	uncore_session_t **r = realloc(u->running, (size_t)(u->nrunning + 1) * sizeof(*r));
	if (!r)
		return uc_err("out of memory");
	u->running = r;
	u->running[u->nrunning++] = s;
	return 0;
}

/* A sample of every box: counts accumulate, no interval closes. */
int uncore_session_sample_impl(uncore_session_t *s)
{
	return read_all(s, READ_SAMPLE);
}

uint64_t uncore_session_max_read_interval_ns_impl(const uncore_session_t *s) { return s->running ? s->max_read_ns : 0; }

uint64_t session_next_sample_ns(const uncore_t *u, uint64_t now)
{
	uint64_t next = UINT64_MAX;
	for (int i = 0; i < u->nrunning; i++) {
		const uncore_session_t *s = u->running[i];
		uint64_t due = s->t_sampled + s->max_read_ns;
		uint64_t in = due > now ? due - now : 0;
		if (in < next)
			next = in;
	}
	return next;
}

void session_sample_due(uncore_t *u, uint64_t now)
{
	for (int i = 0; i < u->nrunning; i++)
		if (u->running[i]->t_sampled + u->running[i]->max_read_ns <= now)
			uncore_session_sample(u->running[i]);
}

int uncore_session_start_impl(uncore_session_t *s)
{
	char msg[512];
	if (s->nevs == 0)
		return uc_err("no events to measure: add at least one");
	if (s->running)
		return uc_err("the session is already running");
	for (int i = 0; i < s->nslots; i++)
		s->slots[i].acc = s->slots[i].mark = 0;
	for (int p = 0; p < s->nprogs; p++) { /* a restart tries every box again */
		free(s->progs[p].failed);
		s->progs[p].failed = NULL;
	}
	if (claims_lock(s->u))
		return -1;
	reap_dead(s->u);
	int rc = claim(s);
	if (!rc && program(s)) {
		snprintf(msg, sizeof(msg), "%s", uncore_error());
		rc = uc_err("programming the uncore failed: %s", msg);
	}
	if (rc) {
		snprintf(msg, sizeof(msg), "%s", uncore_error());
		release(s);
		claims_unlock(s->u);
		return uc_err("%s", msg);
	}
	if (claims_unlock(s->u))
		return -1;
	s->t0 = s->t1 = s->tprev = s->u->acc->ops->now_ns(s->u->acc);
	s->max_read_ns = max_read_interval(s);
	s->t_sampled = s->t0;
	if (track(s, 1)) {
		leave(s);
		return -1;
	}
	s->running = s->started = 1;
	return 0;
}

/* A read by the caller: it closes an interval. */
int uncore_session_read_impl(uncore_session_t *s)
{
	uint64_t t1 = s->t1;
	int rc = read_all(s, READ_USER);
	if (s->running) {
		s->tprev = t1;
		s->t1 = s->t_sampled;
	}
	return rc;
}

static int sampled(const uncore_session_t *s, int socket)
{
	for (int i = 0; i < s->nslots; i++)
		if (s->evs[s->slots[i].ev].period && box_of(s, s->slots[i].box)->socket == socket)
			return 1;
	return 0;
}

/* The socket's global status words; returns whether any bit is set (1), 0, or -1.  A platform
 * without one reports 1: every sampled box is then looked at. */
static int glob_status(uncore_session_t *s, int socket, uint64_t v[UC_MAX_GLOB_STATUS])
{
	struct access *a = s->u->acc;
	const struct platform_desc *p = s->u->plat;
	int any = !p->glob_status;
	for (int k = 0; k < UC_MAX_GLOB_STATUS; k++) {
		v[k] = 0;
		if (k < platform_glob_status_regs(p) &&
		    a->ops->msr_read(a, s->u->host.socket_cpu[socket], p->glob_status + (uint32_t)k, &v[k]))
			return uc_err_prefix("reading the global overflow status of socket %d: ", socket);
		any |= v[k] != 0;
	}
	return any;
}

/* Whether the global status names the box (by its discovery Global Status Position); boxes without
 * one are always looked at, their bit being unpublished. */
static int glob_names(const struct box *b, const uint64_t g[UC_MAX_GLOB_STATUS], const struct platform_desc *p)
{
	if (!p->glob_status || b->gsp < 0 || b->gsp >= 64 * platform_glob_status_regs(p))
		return 1;
	return (int)(g[b->gsp / 64] >> (b->gsp % 64) & 1);
}

/* Clear the socket's global status (write 1 to clear) and let every box count again. */
static int glob_resume(uncore_session_t *s, int socket, const uint64_t g[UC_MAX_GLOB_STATUS])
{
	struct access *a = s->u->acc;
	const struct platform_desc *p = s->u->plat;
	int cpu = s->u->host.socket_cpu[socket];
	if (!p->glob_ctl)
		return 0;
	for (int k = 0; k < platform_glob_status_regs(p); k++)
		if (g[k] && guarded_msr_write(a, cpu, p->glob_status + (uint32_t)k, g[k]))
			return uc_err_prefix("resuming socket %d after an overflow: ", socket);
	if (guarded_msr_write(a, cpu, p->glob_ctl, p->glob_unfrz_all))
		return uc_err_prefix("resuming socket %d after an overflow: ", socket);
	return 0;
}

/* One box's overflowed counters: recorded, re-armed, their status cleared.  Returns how many. */
static int box_overflows(uncore_session_t *s, struct prog *p, uncore_overflow_t *out, int room)
{
	const struct box *b = box_of(s, p->box);
	uint64_t st, mask = uc_width_mask(b->r.nctr);
	int n = 0, pmc0 = b->t->bc->style->status_in_ctl;
	if (reg_read(s->u, b, b->r.status, 0, reg_box_ctl_bytes(b->t), &st))
		return -1;
	st = (st >> b->t->status_shift) & mask;
	if (!st)
		return 0;
	if (read_box(s, p, READ_SAMPLE)) /* the counts up to the overflow */
		return -1;
	for (int k = 0; k < p->nslots; k++) {
		struct slot *sl = &s->slots[p->first + k];
		if (sl->ctr < 0 || !(st >> sl->ctr & 1) || !s->evs[sl->ev].period)
			continue;
		if (n < room)
			out[n] = (uncore_overflow_t){ .event = sl->ev, .socket = b->socket, .box = b->idx, .counter = sl->ctr };
		n++;
		sl->last = preload(s, b, sl);
		if (reg_write_counter(s->u, b, slot_ctr_addr(b, sl), sl->last))
			return -1;
	}
	/* status bits are write-1-to-clear; Montecito's sit in PMC0 beside fr, cleared by writing it running */
	uint64_t clr = b->t->status_clr ? b->r.rel + b->t->status_clr : b->r.status;
	if (pmc0 ? write_box_ctl(s->u, b, bc_running(b))
		 : reg_write(s->u, b, clr, 0, reg_box_ctl_bytes(b->t), st << b->t->status_shift))
		return -1;
	return n;
}

int uncore_session_overflows_impl(uncore_session_t *s, uncore_overflow_t *out, int max)
{
	int total = 0;
	if (!s->running)
		return uc_err("the session is not running: start it first");
	for (int sock = 0; sock < s->u->host.nsockets; sock++) {
		uint64_t g[UC_MAX_GLOB_STATUS];
		int any;
		if (!sampled(s, sock))
			continue;
		if ((any = glob_status(s, sock, g)) < 0)
			return -1;
		if (!any)
			continue; /* global first: no box of this socket overflowed */
		for (int p = 0; p < s->nprogs; p++) {
			struct prog *pg = &s->progs[p];
			const struct box *b = box_of(s, pg->box);
			if (b->socket != sock || !pg->owner || !b->r.status || pg->failed || !glob_names(b, g, s->u->plat))
				continue;
			int room = out && total < max ? max - total : 0;
			int n = box_overflows(s, pg, room ? out + total : NULL, room);
			if (n < 0)
				return uc_err_prefix("%s %d (socket %d): ", b->t->name, b->idx, b->socket);
			total += n;
		}
		if (glob_resume(s, sock, g))
			return -1;
	}
	return total;
}

/* Leave the boxes; registers are restored by the last session on each. */
static int leave(uncore_session_t *s)
{
	int bad = 0, rc;
	for (int sock = 0; sock < s->u->host.nsockets; sock++) { /* a freeze our overflows left behind */
		uint64_t g[UC_MAX_GLOB_STATUS];
		int any = sampled(s, sock) && s->u->plat->glob_status ? glob_status(s, sock, g) : 0;
		if (any < 0 || (any && glob_resume(s, sock, g)))
			bad = -1;
	}
	rc = claims_lock(s->u);
	if (!rc) {
		reap_dead(s->u);
		rc = release(s);
		if (claims_unlock(s->u))
			rc = -1;
	}
	track(s, 0);
	s->running = 0;
	return rc ? rc : bad;
}

int uncore_session_stop_impl(uncore_session_t *s)
{
	if (!s->running)
		return uc_err("the session is not running");
	int rc = uncore_session_read(s);
	char msg[512];
	snprintf(msg, sizeof(msg), "%s", rc ? uncore_error() : "");
	if (leave(s))
		return -1;
	return rc ? uc_err("%s", msg) : 0;
}

void uncore_session_free_impl(uncore_session_t *s)
{
	if (!s)
		return;
	if (s->running)
		leave(s);
	session_metrics_free(s->metrics, s->nmetrics);
	free(s->evs);
	free(s->slots);
	free(s->ev_first);
	free(s->ev_slots);
	free_progs(s->progs, s->nprogs);
	free(s);
}

int uncore_session_num_events_impl(const uncore_session_t *s) { return s->nevs; }

const char *uncore_session_event_name_impl(const uncore_session_t *s, int ev)
{
	return ev >= 0 && ev < s->nevs ? s->evs[ev].name : NULL;
}

int session_window_value(const uncore_session_t *s, int ev, int socket, int box, int window, uint64_t *out)
{
	uint64_t sum = 0;
	int found = 0;
	if (ev < 0 || ev >= s->nevs)
		return uc_err("no event %d in this session", ev);
	for (int k = s->ev_first[ev]; k < s->ev_first[ev + 1]; k++) {
		const struct slot *sl = &s->slots[s->ev_slots[k]];
		const struct box *b = box_of(s, sl->box);
		if ((socket >= 0 && b->socket != socket) || (box >= 0 && b->idx != box))
			continue;
		const struct prog *p = prog_of(s, sl);
		if (p->failed) {
			uc_err("%s has no value since a box failed: %s", s->evs[ev].name, p->failed);
			return SESSION_BOX_FAILED;
		}
		sum += window == UNCORE_LAST_INTERVAL ? sl->acc - sl->prev : sl->acc;
		found = 1;
	}
	if (!found)
		return uc_err("%s is not measured on socket %d box %d", s->evs[ev].name, socket, box);
	*out = sum;
	return 0;
}

/* Time the event's boxes on a socket/box counted over a window, summed (ns) with their number in *n. */
uint64_t session_event_window_ns(const uncore_session_t *s, int ev, int socket, int box, int window, int *n)
{
	uint64_t sum = 0;
	if (ev < 0 || ev >= s->nevs)
		return 0;
	for (int k = s->ev_first[ev]; k < s->ev_first[ev + 1]; k++) {
		const struct slot *sl = &s->slots[s->ev_slots[k]];
		const struct box *b = box_of(s, sl->box);
		const struct prog *p = prog_of(s, sl);
		if ((socket >= 0 && b->socket != socket) || (box >= 0 && b->idx != box))
			continue;
		sum += window == UNCORE_LAST_INTERVAL ? p->t_last - p->t_prev : p->t_last - p->t_start;
		(*n)++;
	}
	return sum;
}

uint64_t uncore_session_read_time_ns_impl(const uncore_session_t *s, int ev, int socket, int box)
{
	uint64_t base = 0;
	int64_t off = 0;
	int n = 0;
	if (ev < 0 || ev >= s->nevs)
		return 0;
	for (int k = s->ev_first[ev]; k < s->ev_first[ev + 1]; k++) {
		const struct slot *sl = &s->slots[s->ev_slots[k]];
		const struct box *b = box_of(s, sl->box);
		if ((socket >= 0 && b->socket != socket) || (box >= 0 && b->idx != box))
			continue;
		if (!n++)
			base = prog_of(s, sl)->t_last;
		off += (int64_t)(prog_of(s, sl)->t_last - base); /* boxes are read close together */
	}
	return n ? base + (uint64_t)(off / n) : 0;
}

uint64_t uncore_now_ns(const uncore_t *u) { return u->acc->ops->now_ns(u->acc); }

int uncore_session_value_impl(const uncore_session_t *s, int ev, int socket, int box, uint64_t *out)
{
	return session_window_value(s, ev, socket, box, UNCORE_SINCE_START, out);
}

uint64_t session_window_ns(const uncore_session_t *s, int window)
{
	return window == UNCORE_LAST_INTERVAL ? s->t1 - s->tprev : s->t1 - s->t0;
}

int session_find_event(const uncore_session_t *s, const char *spec)
{
	for (int i = 0; i < s->nevs; i++)
		if (!strcmp(s->evs[i].name, spec))
			return i;
	return -1;
}

int session_truncate(uncore_session_t *s, int nevs)
{
	if (nevs >= s->nevs)
		return 0;
	if (schedule_all(s, s->evs, nevs))
		return -1;
	s->nevs = nevs;
	return 0;
}

struct session_metric **session_metrics(uncore_session_t *s, int **n)
{
	*n = &s->nmetrics;
	return &s->metrics;
}

const struct session_metric *session_metric_get(const uncore_session_t *s, int m)
{
	return m >= 0 && m < s->nmetrics ? &s->metrics[m] : NULL;
}

uncore_t *session_owner(const uncore_session_t *s) { return s->u; }

int uncore_session_event_sockets_impl(const uncore_session_t *s, int ev, int *sockets, int max)
{
	int n = 0;
	for (int sock = 0; sock < s->u->host.nsockets; sock++) {
		for (int i = 0; i < s->nslots; i++)
			if (s->slots[i].ev == ev && box_of(s, s->slots[i].box)->socket == sock) {
				if (n < max)
					sockets[n] = sock;
				n++;
				break;
			}
	}
	return n;
}

int uncore_session_event_boxes_impl(const uncore_session_t *s, int ev, int socket)
{
	int n = 0;
	for (int i = 0; i < s->nslots; i++)
		if (s->slots[i].ev == ev && box_of(s, s->slots[i].box)->socket == socket)
			n++;
	return n;
}

uint64_t uncore_session_elapsed_ns_impl(const uncore_session_t *s) { return s->t1 - s->t0; }
