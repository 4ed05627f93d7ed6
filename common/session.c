/*
 * Sessions: program with the documented protocol (seed 000 section 2.1.1:
 * freeze, program, reset, unfreeze), read with wrap-around handling into
 * 64-bit accumulators, and leave every touched register as it was found.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "uncore_priv.h"
#include "error.h"

struct slot {
	int ev, box, ctr; /* ctr -1 = fixed counter, SLOT_FREERUN = free-running counter */
	int fr;           /* free-running counter index */
	uint64_t last, acc;
	uint64_t prev; /* acc at the read before the last: the last interval is acc - prev */
};

#define SLOT_FREERUN (-2)

struct saved {
	int box, companion, counter, bytes;
	uint64_t addr;
	uint64_t val;
};

struct prog {
	int box;
	int programmed; /* has a slot other than free-running counters */
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
	struct saved *saved;
	int nsaved, capsaved;
	int running;
	uint64_t t0, t1, tprev;
	struct session_metric *metrics; /* metrics added (metrics.c) */
	int nmetrics;
};

static int targets(const struct encoded *e, const struct box *b)
{
	/* a free-running event covers the boxes that have the counter (IMC: channel 0 of each controller) */
	if (e->fr >= 0 && e->box < 0 && e->fr >= b->nfr)
		return 0;
	return e->type_idx == b->type_idx && (e->socket < 0 || e->socket == b->socket) &&
	       (e->box < 0 || e->box == b->idx);
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
		for (int i = 0; i < n; i++) {
			slots[nslots++] = (struct slot){ .ev = evidx[i], .box = bi, .ctr = reqs[i].ctr,
							 .fr = evs[evidx[i]].fr };
			if (reqs[i].ctr != SLOT_FREERUN)
				p.programmed = 1;
		}
		progs[nprogs++] = p;
	}
	free(reqs);
	free(evidx);
	free(s->slots);
	free(s->progs);
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
	free(slots);
	free(progs);
	return -1;
}

int uncore_session_new(uncore_t *u, uncore_session_t **out)
{
	uncore_session_t *s = calloc(1, sizeof(*s));
	if (!s)
		return uc_err("out of memory");
	s->u = u;
	*out = s;
	return 0;
}

int uncore_session_add(uncore_session_t *s, const char *spec)
{
	struct encoded e, *nv;
	if (s->running || s->nsaved)
		return uc_err("cannot add '%s': the session has already started", spec ? spec : "");
	if (spec_parse(s->u, spec, &e))
		return -1;
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

static uint64_t filt_addr(const struct box *b, int f)
{
	return b->t->filt_regs[f].companion ? b->t->filt_regs[f].addr : b->r.rel + b->t->filt_regs[f].addr;
}

static int filt_bytes(const struct box *b, int f) { return b->t->filt_regs[f].bits / 8; }

static uint64_t slot_ctl_addr(const struct box *b, const struct slot *sl)
{
	return sl->ctr < 0 ? b->r.rel + b->t->fixed_ctl : box_ctl_addr(b, sl->ctr);
}

static int slot_ctl_bytes(const struct box *b, const struct slot *sl)
{
	return sl->ctr < 0 ? reg_box_ctl_bytes(b->t) : reg_ctl_bytes(b->t);
}

static uint64_t slot_ctr_addr(const struct box *b, const struct slot *sl)
{
	if (sl->ctr == SLOT_FREERUN)
		return b->fr_base + b->t->fr[sl->fr].addr;
	return sl->ctr < 0 ? b->r.rel + b->t->fixed_ctr : box_ctr_addr(b, sl->ctr);
}

static int slot_width(const struct box *b, const struct slot *sl)
{
	if (sl->ctr == SLOT_FREERUN)
		return b->t->fr[sl->fr].width;
	return sl->ctr < 0 ? b->t->fixed_width : b->r.width;
}

static int save(uncore_session_t *s, int bi, uint64_t addr, int companion, int counter, int bytes)
{
	const struct box *b = box_of(s, bi);
	struct saved v = { .box = bi, .addr = addr, .companion = companion, .counter = counter, .bytes = bytes };
	for (int i = 0; i < s->nsaved; i++)
		if (s->saved[i].box == bi && s->saved[i].addr == addr && s->saved[i].companion == companion)
			return 0;
	if (counter ? reg_read_counter(s->u, b, addr, &v.val) : reg_read(s->u, b, addr, companion, bytes, &v.val))
		return -1;
	if (s->nsaved == s->capsaved) {
		int nc = s->capsaved ? s->capsaved * 2 : 32;
		struct saved *ns = realloc(s->saved, (size_t)nc * sizeof(*ns));
		if (!ns)
			return uc_err("out of memory");
		s->saved = ns;
		s->capsaved = nc;
	}
	s->saved[s->nsaved++] = v;
	return 0;
}

/* Remember every register the session will write, box control first. */
static int save_all(uncore_session_t *s)
{
	for (int p = 0; p < s->nprogs; p++) {
		int bi = s->progs[p].box;
		const struct box *b = box_of(s, bi);
		if (!s->progs[p].programmed)
			continue; /* free-running counters only: nothing is written */
		if (b->t->has_box_ctl && save(s, bi, b->r.box_ctl, 0, 0, reg_box_ctl_bytes(b->t)))
			return -1;
		/* rst_ctrs clears every counter of the box, used or not */
		for (int c = 0; b->t->box_ctl_resets && c < b->r.nctr; c++)
			if (save(s, bi, box_ctr_addr(b, c), 0, 1, 8))
				return -1;
		for (int f = 0; f < b->t->nfilt_regs; f++)
			if (s->progs[p].fmask[f] &&
			    save(s, bi, filt_addr(b, f), b->t->filt_regs[f].companion, 0, filt_bytes(b, f)))
				return -1;
		for (int i = 0; i < s->nslots; i++) {
			const struct slot *sl = &s->slots[i];
			if (sl->box != bi || sl->ctr == SLOT_FREERUN)
				continue;
			if (save(s, bi, slot_ctl_addr(b, sl), 0, 0, slot_ctl_bytes(b, sl)) ||
			    save(s, bi, slot_ctr_addr(b, sl), 0, 1, 8))
				return -1;
		}
	}
	return 0;
}

static int write_box_ctl(uncore_session_t *s, const struct box *b, uint32_t v)
{
	if (!b->t->has_box_ctl)
		return 0;
	return reg_write(s->u, b, b->r.box_ctl, 0, reg_box_ctl_bytes(b->t), v);
}

/* Box control words: frozen, counting, and frozen with a counter reset. */
static uint32_t bc_frozen(const struct box *b) { return b->t->bc->frz_en | b->t->bc->frz; }
static uint32_t bc_running(const struct box *b) { return b->t->bc->frz_en; }
static uint32_t bc_reset(const struct box *b) { return bc_frozen(b) | b->t->bc->rst_ctrs; }

/* Freeze (or unfreeze) every box the session programs. */
static void set_frozen(uncore_session_t *s, int frozen)
{
	for (int p = 0; p < s->nprogs; p++) {
		const struct box *b = box_of(s, s->progs[p].box);
		if (s->progs[p].programmed)
			write_box_ctl(s, b, frozen ? bc_frozen(b) : bc_running(b));
	}
}

static int read_box(uncore_session_t *s, int bi, int baseline)
{
	const struct box *b = box_of(s, bi);
	uint64_t addr[UC_MAX_SLOTS] = { 0 };
	uint64_t val[UC_MAX_SLOTS] = { 0 };
	int idx[UC_MAX_SLOTS] = { 0 }, n = 0;
	for (int i = 0; i < s->nslots && n < UC_MAX_SLOTS; i++)
		if (s->slots[i].box == bi) {
			idx[n] = i;
			addr[n++] = slot_ctr_addr(b, &s->slots[i]);
		}
	if (reg_read_counters(s->u, b, addr, n, val))
		return uc_err_prefix("%s %d (socket %d): ", b->t->name, b->idx, b->socket);
	for (int k = 0; k < n; k++) {
		struct slot *sl = &s->slots[idx[k]];
		int w = slot_width(b, sl);
		uint64_t mask = w >= 64 ? ~0ull : (1ull << w) - 1;
		sl->prev = sl->acc;
		if (!baseline)
			sl->acc += (val[k] - sl->last) & mask; /* modular difference absorbs one wrap */
		sl->last = val[k] & mask;
	}
	return 0;
}

static int program(uncore_session_t *s)
{
	uncore_t *u = s->u;
	/* a) b) enable freeze and freeze every box we use */
	for (int p = 0; p < s->nprogs; p++) {
		const struct box *b = box_of(s, s->progs[p].box);
		if (s->progs[p].programmed && write_box_ctl(s, b, bc_frozen(b)))
			return -1;
	}
	/* c) d) filters and control words; a box without box control keeps ev_sel 0 for now */
	for (int p = 0; p < s->nprogs; p++) {
		const struct box *b = box_of(s, s->progs[p].box);
		for (int f = 0; f < b->t->nfilt_regs; f++)
			if (s->progs[p].fmask[f] && reg_write(u, b, filt_addr(b, f), b->t->filt_regs[f].companion,
							      filt_bytes(b, f), s->progs[p].fval[f]))
				return -1;
	}
	for (int i = 0; i < s->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		const struct box *b = box_of(s, sl->box);
		uint64_t ctl = sl->ctr < 0 ? b->t->fixed_en : s->evs[sl->ev].ctl;
		if (sl->ctr == SLOT_FREERUN)
			continue;
		if (!b->t->has_box_ctl)
			ctl = sl->ctr < 0 ? 0 : b->t->ctl_en;
		if (reg_write(u, b, slot_ctl_addr(b, sl), 0, slot_ctl_bytes(b, sl), ctl))
			return -1;
	}
	/* e) reset: box reset bits where they exist, else write 0 to each data register */
	for (int p = 0; p < s->nprogs; p++) {
		const struct box *b = box_of(s, s->progs[p].box);
		if (s->progs[p].programmed && b->t->box_ctl_resets && write_box_ctl(s, b, bc_reset(b)))
			return -1;
	}
	for (int i = 0; i < s->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		const struct box *b = box_of(s, sl->box);
		if (sl->ctr == SLOT_FREERUN)
			continue; /* cannot be reset; the baseline read below takes its place */
		if (sl->ctr < 0 && b->t->fixed_rst) {
			if (reg_write(u, b, slot_ctl_addr(b, sl), 0, slot_ctl_bytes(b, sl),
				      b->t->fixed_en | b->t->fixed_rst))
				return -1;
		} else if (sl->ctr < 0 || !b->t->box_ctl_resets) {
			if (reg_write_counter(u, b, slot_ctr_addr(b, sl), 0))
				return -1;
		}
	}
	/* the UBox has no freeze: give it its real event just before the others unfreeze */
	for (int i = 0; i < s->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		const struct box *b = box_of(s, sl->box);
		if (!b->t->has_box_ctl && sl->ctr != SLOT_FREERUN &&
		    reg_write(u, b, slot_ctl_addr(b, sl), 0, slot_ctl_bytes(b, sl),
			      sl->ctr < 0 ? b->t->fixed_en : s->evs[sl->ev].ctl))
			return -1;
	}
	for (int p = 0; p < s->nprogs; p++)
		if (read_box(s, s->progs[p].box, 1))
			return -1;
	/* f) unfreeze: counting begins */
	for (int p = 0; p < s->nprogs; p++) {
		const struct box *b = box_of(s, s->progs[p].box);
		if (s->progs[p].programmed && write_box_ctl(s, b, bc_running(b)))
			return -1;
	}
	return 0;
}

static int restore(uncore_session_t *s)
{
	int rc = 0;
	/* freeze before putting control words back, then restore in reverse (box control last) */
	set_frozen(s, 1);
	for (int i = s->nsaved - 1; i >= 0; i--) {
		const struct saved *v = &s->saved[i];
		const struct box *b = box_of(s, v->box);
		int r = v->counter ? reg_write_counter(s->u, b, v->addr, v->val)
				   : reg_write(s->u, b, v->addr, v->companion, v->bytes, v->val);
		if (r)
			rc = -1;
	}
	s->nsaved = 0;
	return rc;
}

int uncore_session_start(uncore_session_t *s)
{
	if (s->nevs == 0)
		return uc_err("no events to measure: add at least one");
	if (s->running)
		return uc_err("the session is already running");
	if (!s->nsaved && save_all(s)) {
		restore(s);
		return -1;
	}
	for (int i = 0; i < s->nslots; i++)
		s->slots[i].acc = 0;
	if (program(s)) {
		char msg[512];
		snprintf(msg, sizeof(msg), "%s", uncore_error());
		restore(s);
		return uc_err("programming the uncore failed: %s", msg);
	}
	s->t0 = s->t1 = s->tprev = s->u->acc->ops->now_ns(s->u->acc);
	s->running = 1;
	return 0;
}

int uncore_session_read(uncore_session_t *s)
{
	if (!s->running)
		return uc_err("the session is not running: start it first");
	for (int p = 0; p < s->nprogs; p++)
		if (read_box(s, s->progs[p].box, 0))
			return -1;
	s->tprev = s->t1;
	s->t1 = s->u->acc->ops->now_ns(s->u->acc);
	return 0;
}

int uncore_session_stop(uncore_session_t *s)
{
	int rc;
	if (!s->running)
		return uc_err("the session is not running");
	rc = uncore_session_read(s);
	set_frozen(s, 1);
	s->running = 0;
	return rc;
}

void uncore_session_free(uncore_session_t *s)
{
	if (!s)
		return;
	if (s->nsaved)
		restore(s);
	session_metrics_free(s->metrics, s->nmetrics);
	free(s->evs);
	free(s->slots);
	free(s->progs);
	free(s->saved);
	free(s);
}

int uncore_session_num_events(const uncore_session_t *s) { return s->nevs; }

const char *uncore_session_event_name(const uncore_session_t *s, int ev)
{
	return ev >= 0 && ev < s->nevs ? s->evs[ev].name : NULL;
}

int session_window_value(const uncore_session_t *s, int ev, int socket, int box, int window, uint64_t *out)
{
	uint64_t sum = 0;
	int found = 0;
	if (ev < 0 || ev >= s->nevs)
		return uc_err("no event %d in this session", ev);
	for (int i = 0; i < s->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		const struct box *b = box_of(s, sl->box);
		if (sl->ev != ev || (socket >= 0 && b->socket != socket) || (box >= 0 && b->idx != box))
			continue;
		sum += window == UNCORE_LAST_INTERVAL ? sl->acc - sl->prev : sl->acc;
		found = 1;
	}
	if (!found)
		return uc_err("%s is not measured on socket %d box %d", s->evs[ev].name, socket, box);
	*out = sum;
	return 0;
}

int uncore_session_value(const uncore_session_t *s, int ev, int socket, int box, uint64_t *out)
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

int uncore_session_event_sockets(const uncore_session_t *s, int ev, int *sockets, int max)
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

int uncore_session_event_boxes(const uncore_session_t *s, int ev, int socket)
{
	int n = 0;
	for (int i = 0; i < s->nslots; i++)
		if (s->slots[i].ev == ev && box_of(s, s->slots[i].box)->socket == socket)
			n++;
	return n;
}

uint64_t uncore_session_elapsed_ns(const uncore_session_t *s) { return s->t1 - s->t0; }
