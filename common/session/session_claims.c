/* Sessions: claiming boxes machine-wide, saving what they held, and giving them back as found. */
#include "session_priv.h"

/* What claiming a box returns when it is refused (in use by another agent or session: the message says
 * which), as against -1 for an error (a register that cannot be read) */
#define REFUSED 1

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
		ctl = sess_slot_ctl_reg(b, sl);
		ctr = sess_slot_ctr_reg(b, sl);
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

static int restore_regs(uncore_t *u, const struct box *b, const struct claim_saved *sv, int n)
{
	int rc = sess_write_box_ctl(u, b, sess_bc_frozen(b));
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

/* The counter bit of a slot in a claim (0: a free-running counter, which nobody holds). */
static uint32_t ctr_bit(const struct slot *sl)
{
	return sl->ctr == UC_CTR_FREERUN ? 0 : 1u << (sl->ctr == UC_CTR_FIXED ? CLAIM_FIXED : sl->ctr);
}

/* The counters of a box that others still count on (bit CLAIM_FIXED: the fixed one) back as found: the
 * box frozen meanwhile, control words before counters, box control and filters left to the last holder. */
/* The claim bit of the counter a saved register belongs to (0: box control, filter, status). */
static uint32_t saved_ctr_bit(const struct claim_saved *v)
{
	if (v->kind == PK_FIXED_CTL || v->kind == PK_FIXED_CTR)
		return 1u << CLAIM_FIXED;
	return (v->kind == PK_CTL || v->kind == PK_CTR) && v->idx < UC_MAX_CTR ? 1u << v->idx : 0;
}

static int restore_ctrs(uncore_t *u, const struct box *b, const struct claim_saved *sv, int n, uint32_t ctrs)
{
	int rc = b->t->has_box_ctl ? sess_write_box_ctl(u, b, sess_bc_frozen(b)) : 0;
	for (int pass = 0; pass < 2; pass++) /* control words, then counters */
		for (int i = 0; i < n; i++) {
			const struct claim_saved *v = &sv[i];
			int ctl = v->kind == PK_CTL || v->kind == PK_FIXED_CTL;
			struct pmon_reg r;
			if (!(ctrs & saved_ctr_bit(v)) || ctl != !pass || pmon_reg(b, (enum pmon_kind)v->kind, v->idx, &r))
				continue;
			if (pmon_write(u, b, &r, v->val & r.wmask))
				rc = -1;
		}
	if (b->t->has_box_ctl && sess_write_box_ctl(u, b, sess_bc_running(b)))
		rc = -1;
	return rc;
}

static int restore_box(uncore_session_t *s, int bi, const struct claim_saved *sv, int n)
{
	return restore_regs(s->u, box_of(s, bi), sv, n);
}

/* Holders that died (SIGKILL, a crash) are dropped from every claim, once per lock; boxes they left
 * programmed with nobody else holding them are put back as their claims found them, with a warning,
 * whichever boxes this session uses.  A box that cannot be restored (its device does not answer) keeps
 * its record, so that a later session restores it.  Called with the claims locked. */
/* Whether a live session holds a box of the die. */
static int die_held(uncore_t *u, int socket, int die)
{
	for (int i = 0; i < claims_count(u); i++) {
		struct claim *c = claims_at(u, i);
		const struct box *b = claims_box(u, c);
		if (b && c->nholders && b->socket == socket && b->die == die)
			return 1;
	}
	return 0;
}

/* A sampler that died may have left its die frozen by an overflow (every box of it stopped, PCI and MMIO
 * included): each die whose boxes were reaped counts again, its status cleared when no session is left. */
static void thaw_reaped(uncore_t *u, const uint8_t reaped[UC_MAX_SOCKETS][UC_MAX_DIES])
{
	for (int sock = 0; sock < UC_MAX_SOCKETS && sock < u->host.nsockets; sock++)
		for (int die = 0; die < UC_MAX_DIES; die++)
			if (reaped[sock][die] && sess_glob_thaw(u, sock, die, !die_held(u, sock, die)))
				uc_warn("after restoring a dead session's boxes: %s", uncore_error());
}

void sess_reap_dead(uncore_t *u)
{
	uint8_t reaped[UC_MAX_SOCKETS][UC_MAX_DIES] = { { 0 } };
	int any = 0;
	for (int i = 0; i < claims_count(u);) {
		struct claim *c = claims_at(u, i);
		const struct box *b = claims_box(u, c);
		uint32_t dead_ctrs;
		int pid = claims_prune(u, c, &dead_ctrs);
		if (c->nholders && b && dead_ctrs && c->nsaved) {
			/* the counters only the dead held, in a box others still count on: put back, so that a dead
			 * sampler's counter (armed for an overflow) cannot freeze its die again */
			if (restore_ctrs(u, b, c->sv, c->nsaved, dead_ctrs) || sess_box_status_clear(u, b, dead_ctrs))
				uc_warn("%s %d (socket %d): the counters process %d left programmed could not be restored: %s",
					b->t->name, b->idx, b->socket, pid, uncore_error());
			else {
				uc_warn("%s %d (socket %d): the counters process %d left programmed when it ended without "
					"releasing them are restored (other sessions still count on the box)", b->t->name, b->idx,
					b->socket, pid);
				if (b->socket >= 0 && b->socket < UC_MAX_SOCKETS && b->die >= 0 && b->die < UC_MAX_DIES)
					any = reaped[b->socket][b->die] = 1;
			}
		}
		if (c->nholders || !b) {
			i++;
			continue;
		}
		/* (and an overflow a dead sampler left in the box's status, which no one else would clear) */
		if (c->nsaved && (restore_regs(u, b, c->sv, c->nsaved) || sess_box_status_clear(u, b, ~0u))) {
			uc_warn("%s %d (socket %d), left programmed, could not be restored: %s; its record is kept for a "
				"later session", b->t->name, b->idx, b->socket, uncore_error());
			i++;
			continue;
		}
		if (c->nsaved && pid)
			uc_warn("%s %d (socket %d) was left programmed by process %d, which ended without releasing it: "
				"its registers are restored", b->t->name, b->idx, b->socket, pid);
		else if (c->nsaved) /* a record kept by keep_unrestored() */
			uc_warn("%s %d (socket %d) could not be restored when its session ended: its registers are "
				"restored now", b->t->name, b->idx, b->socket);
		if (c->nsaved && b->socket >= 0 && b->socket < UC_MAX_SOCKETS && b->die >= 0 && b->die < UC_MAX_DIES)
			any = reaped[b->socket][b->die] = 1;
		claims_remove(u, c);
	}
	if (any)
		thaw_reaped(u, reaped);
}

/* A box that could not be put back keeps its record with no holder, made from the owner's copy when the
 * file lost it: the values as found are not lost, and a later session restores them (sess_reap_dead). */
static void keep_unrestored(uncore_session_t *s, const struct prog *pg, struct claim *c)
{
	const struct box *b = box_of(s, pg->box);
	char why[256];
	snprintf(why, sizeof(why), "%s", uncore_error());
	if (!c && pg->owner && (c = claims_get(s->u, b, 1))) {
		memcpy(c->sv, pg->own, sizeof(*c->sv) * (size_t)pg->nown);
		c->nsaved = pg->nown;
	}
	uc_warn("%s %d (socket %d) could not be restored: %s; %s", b->t->name, b->idx, b->socket, why,
		c ? "its record is kept, and a later session restores it when the device answers"
		  : "its saved values are lost");
	uc_err("%s %d (socket %d) could not be restored: %s", b->t->name, b->idx, b->socket, why);
}

/* The session no longer holds prog pg's box: its copy of the registers goes. */
static void let_go(struct prog *pg)
{
	if (pg->owner && pg->own) { /* kept: after a stop, uncore_session_verify reads the box back against it */
		free(pg->found);
		pg->found = pg->own;
		pg->nfound = pg->nown;
	} else {
		free(pg->own);
	}
	pg->own = NULL;
	pg->nown = 0;
	pg->held = pg->owner = pg->adopted = pg->joined = 0;
}

/* Let go of every box; the last session on a box restores it.  Called with the claims locked.  The
 * owner restores from its own copy, so a record lost from the file cannot leave a box programmed.
 * Without restore (nothing was written yet), only the session's holds are dropped. */
int sess_release(uncore_session_t *s, int restore)
{
	int rc = 0;
	for (int p = 0; p < s->nprogs; p++) {
		struct prog *pg = &s->progs[p];
		const struct box *b = box_of(s, pg->box);
		if (!pg->held)
			continue;
		struct claim *c = claims_get(s->u, b, 0);
		int put = restore && !pg->taken; /* a box another agent took over is that agent's now */
		uint32_t ctrs = c ? claims_ctrs_of(c, s->token) : 0;
		if (c && claims_drop(c, s->token) > 0) { /* others still count: put back the counters only it held */
			uint32_t alone = ctrs & ~claims_busy(c, s->token);
			if (alone && put && restore_ctrs(s->u, b, c->sv, c->nsaved, alone))
				rc = -1;
		} else {
			int bad = 0;
			if (!c && put)
				uc_warn("the claims file lost the record of %s %d (socket %d)%s", b->t->name, b->idx, b->socket,
					pg->owner ? ": restored from this session's copy" : ": left as its owner programmed it");
			/* the claim has every register its holders saved; the owner's copy stands in when it is lost */
			if (put)
				bad = c ? restore_box(s, pg->box, c->sv, c->nsaved)
					: pg->owner && restore_box(s, pg->box, pg->own, pg->nown);
			if (bad) {
				keep_unrestored(s, pg, c);
				rc = -1;
			} else if (c && (restore || !pg->adopted))
				claims_remove_later(c);
		}
		let_go(pg);
	}
	claims_compact(s->u);
	return rc;
}

/* The counters a session programmed itself in a box it shares. */
static uint32_t own_ctrs(const uncore_session_t *s, const struct prog *pg)
{
	uint32_t m = 0;
	for (int i = pg->first; i < pg->first + pg->nslots; i++)
		if (!s->slots[i].shared)
			m |= ctr_bit(&s->slots[i]);
	return m;
}

/* The claims lock could not be had to leave: the boxes this session programmed are put back from its own
 * copy all the same (their records stay until this process locks again, or ends). */
/* A stop that could not have the lock: what this session alone programmed goes back from its own copy,
 * as the file shows the box's holders now (read without the lock): the whole box where it is the only
 * holder, else the counters only it uses; a counter another session attached to stays as it counts.
 * When no whole copy of the file can be read, nothing is written, and the records left say what to
 * restore.  The records themselves go at this process's next lock or close. */
int sess_restore_own(uncore_session_t *s)
{
	int rc = 0, seen = !claims_peek(s->u);
	for (int p = 0; p < s->nprogs; p++) {
		struct prog *pg = &s->progs[p];
		const struct box *b = box_of(s, pg->box);
		struct claim *c = seen && pg->held ? claims_get(s->u, b, 0) : NULL;
		if (pg->held && !pg->taken && seen) {
			uint32_t ctrs = c ? claims_ctrs_of(c, s->token) : own_ctrs(s, pg);
			uint32_t alone = ctrs & ~(c ? claims_busy(c, s->token) : 0);
			int others = c && claims_drop(c, s->token) > 0; /* in memory only: nothing is written */
			if (pg->owner && !others ? restore_box(s, pg->box, pg->own, pg->nown)
						 : alone && restore_ctrs(s->u, b, pg->own, pg->nown, alone))
				rc = -1;
		}
		let_go(pg);
	}
	return rc;
}

/* Become the owner of a box nobody alive holds.  A claim left by a process that died explains the
 * box's state and keeps the registers as that process found them; with no claim, a box another agent
 * counts on is refused unless the user forces it. */
static int take_over(uncore_session_t *s, struct prog *pg, struct claim *c)
{
	const struct box *b = box_of(s, pg->box);
	int fresh = c->nsaved == 0, used;
	char what[96];
	if (fresh && (used = foreign_use(s, b, what, sizeof(what))) != 0) {
		if (used < 0 || !s->u->force) {
			claims_remove(s->u, c);
			if (used < 0)
				return uc_err_prefix("%s %d (socket %d): ", b->t->name, b->idx, b->socket);
			uc_err("%s %d (socket %d) is in use by another agent: %s (the kernel's perf uncore driver, PCM, "
			       "likwid or a crashed tool is counting there); stop it, or force the take-over (--force, "
			       "UNCORE_FORCE=1)", b->t->name, b->idx, b->socket, what);
			return REFUSED;
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
	memset(c->ctl, 0, sizeof(c->ctl));
	memset(c->fval, 0, sizeof(c->fval));
	pg->owner = 1;
	pg->adopted = !fresh;
	return 0;
}

/* Does counter k of box b (CLAIM_FIXED: its fixed counter) hold control word want?  A record is only as
 * good as the registers: a holder that restored without the lock, or a forged record, leaves the counter
 * other than the record says. */
static int ctl_holds(uncore_session_t *s, const struct box *b, int k, uint64_t want)
{
	struct pmon_reg r;
	uint64_t v;
	int fixed = k == CLAIM_FIXED;
	if (pmon_reg(b, fixed ? PK_FIXED_CTL : PK_CTL, fixed ? 0 : k, &r) || pmon_read(s->u, b, &r, &v))
		return 0;
	uint64_t mask = r.wmask & ~(fixed ? b->t->fixed_rst : ctl_mask(b->t->lay, CR_RST));
	return want && !((v ^ want) & mask);
}

/* A counter another session programmed as slot sl wants it (with the same filters, and its register as
 * the record says), or -1. */
static int same_counter(uncore_session_t *s, const struct box *b, const struct slot *sl, const struct claim *c,
			uint32_t busy, int same_filters, uint32_t *attached)
{
	int k = -1;
	if (sl->ctr == UC_CTR_FIXED) /* it counts one thing */
		k = busy & (1u << CLAIM_FIXED) && ctl_holds(s, b, CLAIM_FIXED, c->ctl[CLAIM_FIXED]) ? UC_CTR_FIXED : -1;
	for (int i = 0; k == -1 && same_filters && i < b->r.nctr; i++)
		if ((busy & ~*attached & (1u << i)) && (s->evs[sl->ev].ctr_mask & (1u << i)) &&
		    c->ctl[i] == sess_slot_ctl(s, b, sl) && ctl_holds(s, b, i, c->ctl[i]))
			k = i;
	if (k != -1) /* one slot per counter: a restart as the box's owner keeps them apart */
		*attached |= 1u << (k == UC_CTR_FIXED ? CLAIM_FIXED : k);
	return k;
}

/* Share a box other sessions hold, as the kernel does: attach to a counter programmed the same way, take
 * free counters for the rest, add filter bits nobody uses; only a true clash is refused. */
static int join(uncore_session_t *s, struct prog *pg, struct claim *c)
{
	const struct box *b = box_of(s, pg->box);
	uint64_t used[UC_MAX_FILT];
	uint32_t busy = claims_busy(c, s->token);
	struct sched_req reqs[UC_MAX_SLOTS];
	int idx[UC_MAX_SLOTS], n = 0, same_filters = 1;
	uint32_t attached = 0;
	claims_filter_bits(c, used);
	for (int f = 0; f < b->t->nfilt_regs; f++) {
		if ((pg->fval[f] ^ c->fval[f]) & pg->fmask[f] & used[f]) {
			sess_clash_filter(s, pg, c, f, used);
			return REFUSED;
		}
		same_filters &= pg->fmask[f] == used[f];
	}
	for (int i = pg->first; i < pg->first + pg->nslots; i++) {
		struct slot *sl = &s->slots[i];
		int k = sl->ctr == UC_CTR_FREERUN ? -1 : same_counter(s, b, sl, c, busy, same_filters, &attached);
		sl->shared = k != -1;
		if (sl->shared)
			sess_slot_set_ctr(b, sl, k);
		else if (sl->ctr != UC_CTR_FREERUN) {
			reqs[n].enc = &s->evs[sl->ev];
			idx[n++] = i;
		}
	}
	if (sched_place(b, reqs, n, ~(busy | attached) & ((1u << b->r.nctr) - 1))) {
		sess_clash_counters(s, pg, c, reqs, n, busy | attached);
		return REFUSED;
	}
	for (int j = 0; j < n; j++) {
		struct slot *sl = &s->slots[idx[j]];
		struct pmon_reg ctl, ctr;
		sess_slot_set_ctr(b, sl, reqs[j].ctr);
		ctl = sess_slot_ctl_reg(b, sl);
		ctr = sess_slot_ctr_reg(b, sl);
		if (save(s, c, b, &ctl) || save(s, c, b, &ctr))
			return -1;
	}
	for (int f = 0; f < b->t->nfilt_regs; f++) { /* what the filter holds with this session's bits added */
		if ((pg->fmask[f] & ~used[f]) && save_kind(s, c, b, PK_FILT, f))
			return -1;
		pg->fval[f] = (c->fval[f] & ~pg->fmask[f]) | (pg->fval[f] & pg->fmask[f]);
	}
	if (!(pg->own = malloc(sizeof(*pg->own) * CLAIM_SAVED))) /* for a stop without the lock */
		return uc_err("out of memory");
	memcpy(pg->own, c->sv, sizeof(*pg->own) * (size_t)c->nsaved);
	pg->nown = c->nsaved;
	pg->joined = 1;
	return 0;
}

/* What the claim says the box now holds: this session's counters' control words and filter values. */
static void note_programming(uncore_session_t *s, const struct prog *pg, struct claim *c)
{
	const struct box *b = box_of(s, pg->box);
	for (int i = pg->first; i < pg->first + pg->nslots; i++) {
		const struct slot *sl = &s->slots[i];
		if (sl->ctr != UC_CTR_FREERUN && !sl->shared)
			c->ctl[sl->ctr == UC_CTR_FIXED ? CLAIM_FIXED : sl->ctr] = sess_slot_ctl(s, b, sl);
	}
	for (int f = 0; f < UC_MAX_FILT; f++)
		c->fval[f] = (c->fval[f] & ~pg->fmask[f]) | (pg->fval[f] & pg->fmask[f]);
}

/* A privileged process leaves alone a box a live session of another user counts on (the group's file
 * says so, and the box's counters hold what its record says), even when forced: root can stop that
 * session.  A record the registers belie (a forged pin, a session that is gone) is overridden by force. */
static int peer_session(uncore_session_t *s, const struct box *b)
{
	const struct claim *c;
	int pid = claims_peer_pid(s->u, b, &c), held = 0, holds = 1;
	if (!pid)
		return 0;
	for (int k = 0; k <= CLAIM_FIXED; k++)
		if (claims_busy(c, 0) & (1u << k)) {
			held++;
			holds &= ctl_holds(s, b, k, c->ctl[k]);
		}
	if (held && holds) {
		uc_err("%s %d (socket %d) is counting for a session of another user (process %d, in %s" CLAIMS_GROUP_SUFFIX
		       "); wait until it ends", b->t->name, b->idx, b->socket, pid, claims_file(s->u));
		return REFUSED;
	}
	if (s->u->force) {
		uc_warn("%s %d (socket %d): the group's claims file names process %d, but the box's counters do not hold "
			"what its record says (a forged or stale record): taken over because of force", b->t->name, b->idx,
			b->socket, pid);
		return 0;
	}
	uc_err("%s %d (socket %d) is claimed in %s" CLAIMS_GROUP_SUFFIX " by process %d, but its counters do not hold what "
	       "the record says (a forged or stale record, or a session still starting); try again, or force the "
	       "take-over (--force, UNCORE_FORCE=1)", b->t->name, b->idx, b->socket, claims_file(s->u), pid);
	return REFUSED;
}

/* A box the session is refused (another agent or another user's session counts there, a clash) is left
 * out when the caller allows it (uncore_session_allow_refused): its values fail, naming why, and the first
 * read says so once.  Returns whether it was left out. */
static int refused(uncore_session_t *s, struct prog *pg)
{
	if (!s->allow_refused || pg->own || pg->joined || pg->owner)
		return 0;
	if (!(pg->failed = strdup(uncore_error())))
		return 0;
	pg->told = 0;
	s->nrefused++;
	return 1;
}

/* Claim every box the session programs: take over one nobody holds, else share it by counter. */
int sess_claim(uncore_session_t *s)
{
	for (int p = 0; p < s->nprogs; p++) {
		struct prog *pg = &s->progs[p];
		const struct box *b = box_of(s, pg->box);
		uint32_t ctrs = 0;
		for (int i = pg->first; i < pg->first + pg->nslots; i++)
			s->slots[i].shared = 0;
		if (!pg->programmed)
			continue; /* free-running counters only: nothing is written */
		int rc = peer_session(s, b);
		struct claim *c = rc ? NULL : claims_get(s->u, b, 1);
		if (!rc && !c)
			return -1;
		if (!rc)
			rc = c->nholders == 0 ? take_over(s, pg, c) : join(s, pg, c);
		if (rc == REFUSED && refused(s, pg))
			continue;
		if (rc)
			return -1;
		note_programming(s, pg, c);
		for (int i = pg->first; i < pg->first + pg->nslots; i++)
			ctrs |= ctr_bit(&s->slots[i]);
		if (claims_hold(s->u, c, s->token, ctrs, pg->fmask))
			return -1;
		pg->held = 1;
	}
	for (int p = 0; p < s->nprogs; p++) /* allowed to leave boxes out, but not every one */
		if (!s->progs[p].failed || !s->nrefused)
			return 0;
	return s->nprogs ? uc_err("%s", s->progs[0].failed) : 0;
}

void session_claims_settle(uncore_t *u)
{
	if (!claims_pending(u) || claims_lock(u))
		return; /* the records go when this process has ended: a dead holder's are cleared */
	sess_reap_dead(u);
	claims_write(u);
	claims_unlock(u);
}
