/*
 * Reading a session's registers back (uncore check): while it runs, every control word and filter it
 * programmed must still hold what it wrote, or another agent (a second tool, a script with wrmsr) has
 * reprogrammed the box and the counts are not the session's events; after a stop, every register it saved
 * must read as it was found, or the box was not given back.
 */
#include "session_priv.h"

/* One register against what it should hold under mask: 0 equal, 1 not (the first such named in buf). */
static int differs(uncore_session_t *s, const struct box *b, const struct pmon_reg *r, uint64_t want, uint64_t mask,
		   int *n, char *buf, size_t len)
{
	uint64_t v;
	char name[48];
	if (pmon_read(s->u, b, r, &v))
		return -1;
	if (!((v ^ want) & mask))
		return 0;
	if (!(*n)++)
		snprintf(buf, len, "%s %d (socket %d) %s = 0x%llx, not 0x%llx", b->t->name, b->idx, b->socket,
			 pmon_reg_name(b, r->kind, r->idx, name, sizeof(name)), (unsigned long long)(v & mask),
			 (unsigned long long)(want & mask));
	return 0;
}

/* The control words of a box's counters (of the slots in which) against what the session counts there (one
 * read each): those it wrote itself, and with all those of another session's programming it shares too.
 * Returns how many differ (the first named in buf), or -1. */
int sess_ctls_changed(uncore_session_t *s, const struct prog *p, int all, uint32_t which, char *buf, size_t len)
{
	const struct box *b = box_of(s, p->box);
	int n = 0;
	for (int k = 0; k < p->nslots; k++) {
		const struct slot *sl = &s->slots[p->first + k];
		if (sl->ctr == UC_CTR_FREERUN || !(all || p->owner || (p->joined && !sl->shared)) || !(which >> k & 1))
			continue;
		if (differs(s, b, &sl->ctl, sess_slot_ctl(s, b, sl), sl->ctl_mask, &n, buf, len))
			return -1;
	}
	return n;
}

/* The control words and filters the running session wrote itself (not those of a box it shares). */
static int verify_programmed(uncore_session_t *s, int *n, char *buf, size_t len)
{
	for (int p = 0; p < s->nprogs; p++) {
		int k = sess_ctls_changed(s, &s->progs[p], 0, ~0u, *n ? NULL : buf, *n ? 0 : len);
		if (k < 0)
			return -1;
		*n += k;
	}
	for (int p = 0; p < s->nprogs; p++) {
		const struct prog *pg = &s->progs[p];
		const struct box *b = box_of(s, pg->box);
		for (int f = 0; pg->owner && f < b->t->nfilt_regs; f++) {
			struct pmon_reg r;
			if (pg->fmask[f] && !pmon_reg(b, PK_FILT, f, &r) &&
			    differs(s, b, &r, pg->fval[f], pg->fmask[f], n, buf, len))
				return -1;
		}
	}
	return 0;
}

/* Every register the stopped session saved at its start, as found then. */
static int verify_restored(uncore_session_t *s, int *n, char *buf, size_t len)
{
	for (int p = 0; p < s->nprogs; p++) {
		const struct prog *pg = &s->progs[p];
		const struct box *b = box_of(s, pg->box);
		for (int i = 0; i < pg->nfound; i++) {
			struct pmon_reg r;
			if (pg->found[i].kind < PK_NKINDS && !pmon_reg(b, (enum pmon_kind)pg->found[i].kind, pg->found[i].idx, &r) &&
			    differs(s, b, &r, pg->found[i].val, r.wmask, n, buf, len))
				return -1;
		}
	}
	return 0;
}

int uncore_session_verify_impl(uncore_session_t *s, char *buf, size_t len)
{
	int n = 0;
	if (len)
		buf[0] = 0;
	if (s->u->perf)
		return uc_err("the perf backend leaves the registers to the kernel: there is nothing to read back");
	if (!s->started)
		return uc_err("the session has not been started: nothing was programmed to read back");
	if (s->running ? verify_programmed(s, &n, buf, len) : verify_restored(s, &n, buf, len))
		return -1;
	return n;
}

int session_event_box_taken(uncore_session_t *s, int ev, int socket, int k)
{
	int lo, hi;
	if (s->u->perf || !s->running || ev < 0 || ev >= s->nevs)
		return 0;
	ev_range(s, ev, socket, &lo, &hi);
	if (k < 0 || lo + k >= hi)
		return 0;
	struct prog *p = &s->progs[s->slots[s->ev_slots[lo + k]].prog];
	if (p->failed)
		return 0;
	p->vmask = ~0u; /* (every word: a free-running counter has none) */
	if (!sess_verify_ctls(s, p))
		return 0;
	if (!p->taken) /* (a word that cannot be read: the box's condition stands as it is) */
		return -1;
	if (!(p->failed = strdup(uncore_error())))
		return -1;
	p->told = 0; /* the caller's next read names it */
	s->rb_ok = 0;
	return 1;
}
