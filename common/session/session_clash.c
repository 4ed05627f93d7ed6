/*
 * Why a box other sessions hold refuses this session's events (join, session_claims.c), said so that the
 * user can act on it: the counters an event may use and what holds each, or the filter bits two events
 * need different values of.  What holds a counter is named by its event where a session of this process
 * counts it (the default set beside the per-job attribution: issue 64), else by its process.
 */
#include <unistd.h>
#include "session_priv.h"

/* "0-1", "2", "0,3" */
static void ctr_list(unsigned m, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int c = 0; c < UC_MAX_CTR && n < len; c++) {
		if (!(m & (1u << c)) || (c && (m & (1u << (c - 1)))))
			continue;
		int e = c;
		while (e + 1 < UC_MAX_CTR && (m & (1u << (e + 1))))
			e++;
		n += (size_t)(e > c ? snprintf(buf + n, len - n, "%s%d-%d", n ? "," : "", c, e)
				    : snprintf(buf + n, len - n, "%s%d", n ? "," : "", c));
	}
}

/* The session of this process with token, started (NULL: none, or another process's). */
static const uncore_session_t *session_of(const uncore_t *u, uint32_t token)
{
	for (int i = 0; i < u->nrunning; i++)
		if (u->running[i]->token == token)
			return u->running[i];
	return NULL;
}

/* The holder of claim c (not session self) that uses counter k (k >= 0), or filter bits bits of register f
 * (else): its event's name where a session of this process holds it, else "process PID". */
static void holder(const uncore_session_t *self, int bi, const struct claim *c, int k, int f, uint64_t bits, char *buf,
		   size_t len)
{
	snprintf(buf, len, "?");
	for (int j = 0; j < c->nholders; j++) {
		const struct claim_holder *h = &c->h[j];
		if (h->token == self->token && h->pid == getpid())
			continue;
		if (k >= 0 ? !(h->ctrs & (1u << k)) : !(h->fmask[f] & bits))
			continue;
		const uncore_session_t *o = h->pid == getpid() ? session_of(self->u, h->token) : NULL;
		for (int i = 0; o && i < o->nslots; i++) {
			const struct slot *sl = &o->slots[i];
			const struct encoded *e = &o->evs[sl->ev];
			if (sl->box == bi && (k >= 0 ? sl->ctr == k : (e->fmask[f] & bits) != 0)) {
				snprintf(buf, len, "%s", e->name);
				return;
			}
		}
		snprintf(buf, len, "process %d", (int)h->pid);
		return;
	}
}

int sess_clash_filter(const uncore_session_t *s, const struct prog *pg, const struct claim *c, int f,
		      const uint64_t *used)
{
	const struct box *b = box_of(s, pg->box);
	const char *ours = "this session's events";
	uint64_t diff = (pg->fval[f] ^ c->fval[f]) & pg->fmask[f] & used[f], want = pg->fval[f];
	for (int i = pg->first; i < pg->first + pg->nslots; i++) {
		const struct encoded *e = &s->evs[s->slots[i].ev];
		if ((e->fval[f] ^ c->fval[f]) & e->fmask[f] & used[f]) {
			ours = e->name;
			diff = (e->fval[f] ^ c->fval[f]) & e->fmask[f] & used[f];
			want = e->fval[f];
			break;
		}
	}
	char who[sizeof(s->evs[0].name)];
	holder(s, pg->box, c, -1, f, diff, who, sizeof(who));
	int other = !strncmp(who, "process ", 8);
	return uc_err("%s %d (socket %d): %s needs 0x%llx in bits 0x%llx of its %s, which holds 0x%llx there for %s%s; "
		      "measure them in separate runs, or wait until it ends", b->t->name, b->idx, b->socket, ours,
		      (unsigned long long)(want & diff), (unsigned long long)diff, b->t->filt_regs[f].name,
		      (unsigned long long)(c->fval[f] & diff), other ? "a session of " : "another session's ", who);
}

int sess_clash_counters(const uncore_session_t *s, const struct prog *pg, const struct claim *c,
			const struct sched_req *reqs, int n, uint32_t taken)
{
	const struct box *b = box_of(s, pg->box);
	unsigned all = (1u << b->r.nctr) - 1;
	int worst = -1, wfree = UC_MAX_CTR + 1;
	for (int i = 0; i < n; i++) { /* the event with the fewest counters left to it */
		unsigned m = reqs[i].enc->ctr_mask & all;
		int left = __builtin_popcount(m & ~taken);
		if (left < wfree) {
			wfree = left;
			worst = i;
		}
	}
	if (worst < 0 || wfree > 0) /* every event has a free counter: they crowd each other (sched_place said so) */
		return uc_err_prefix("%s %d (socket %d) is shared with another session: ", b->t->name, b->idx, b->socket);
	unsigned m = reqs[worst].enc->ctr_mask & all;
	char may[32], held[400] = "";
	size_t at = 0;
	ctr_list(m, may, sizeof(may));
	for (int k = 0; k < b->r.nctr && at < sizeof(held); k++) {
		char who[sizeof(s->evs[0].name)];
		if (!(m & (1u << k)))
			continue;
		holder(s, pg->box, c, k, 0, 0, who, sizeof(who));
		at += (size_t)snprintf(held + at, sizeof(held) - at, "%scounter %d: %s", at ? ", " : "", k, who);
	}
	return uc_err("%s %d (socket %d): %s may count on counter%s %s only, and another session holds each (%s); "
		      "measure them in separate runs", b->t->name, b->idx, b->socket, reqs[worst].enc->name,
		      m & (m - 1) ? "s" : "", may, held);
}

/* Where the session's plan leaves box bi: the counters its events take and the filter values they set,
 * over every programming of the box (the perf backend may give a box several). */
static void box_plan(const uncore_session_t *s, int bi, uint32_t *used, uint64_t *fval, uint64_t *fmask)
{
	*used = 0;
	memset(fval, 0, sizeof(*fval) * UC_MAX_FILT);
	memset(fmask, 0, sizeof(*fmask) * UC_MAX_FILT);
	for (int p = 0; p < s->nprogs; p++) {
		const struct prog *pg = &s->progs[p];
		if (pg->box != bi)
			continue;
		for (int f = 0; f < UC_MAX_FILT; f++) {
			fval[f] |= pg->fval[f] & pg->fmask[f];
			fmask[f] |= pg->fmask[f];
		}
		for (int i = pg->first; i < pg->first + pg->nslots; i++)
			if (s->slots[i].ctr >= 0)
				*used |= 1u << s->slots[i].ctr;
	}
}

/* The event of session s on box bi that sets bits of filter register f. */
static const char *filter_user(const uncore_session_t *s, int bi, int f, uint64_t bits)
{
	for (int i = 0; i < s->nslots; i++)
		if (s->slots[i].box == bi && (s->evs[s->slots[i].ev].fmask[f] & bits))
			return s->evs[s->slots[i].ev].name;
	return "its events";
}

/* The events of session s on box bi that take counters m, as "A and B" into buf. */
static void takers(const uncore_session_t *s, int bi, unsigned m, char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (int i = 0; i < s->nslots && n < len; i++)
		if (s->slots[i].box == bi && s->slots[i].ctr >= 0 && (m & (1u << s->slots[i].ctr)))
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " and " : "", s->evs[s->slots[i].ev].name);
}

int session_joins(const uncore_session_t *s, const char *spec, char *why, size_t len)
{
	struct encoded e;
	if (spec_parse(s->u, spec, &e))
		return -1;
	if (e.fixed || e.fr >= 0) /* fixed and free-running counters are shared as they count */
		return 0;
	for (int bi = 0; bi < s->u->nboxes; bi++) {
		const struct box *b = box_of(s, bi);
		uint32_t used;
		uint64_t fval[UC_MAX_FILT], fmask[UC_MAX_FILT];
		if (e.type_idx != b->type_idx || (e.socket >= 0 && e.socket != b->socket) || (e.box >= 0 && e.box != b->idx))
			continue;
		box_plan(s, bi, &used, fval, fmask);
		for (int f = 0; f < b->t->nfilt_regs && f < UC_MAX_FILT; f++) {
			uint64_t diff = (fval[f] ^ e.fval[f]) & fmask[f] & e.fmask[f];
			if (!diff)
				continue;
			snprintf(why, len, "%s %d (socket %d): %s needs 0x%llx in bits 0x%llx of its %s, where %s needs 0x%llx",
				 b->t->name, b->idx, b->socket, e.name, (unsigned long long)(e.fval[f] & diff),
				 (unsigned long long)diff, b->t->filt_regs[f].name, filter_user(s, bi, f, diff),
				 (unsigned long long)(fval[f] & diff));
			return 1;
		}
		unsigned all = (1u << b->r.nctr) - 1, may = e.ctr_mask & all;
		if (!(may & ~used)) { /* else it fits: one event needs only a free counter its mask allows */
			char list[32], by[400];
			ctr_list(may, list, sizeof(list));
			takers(s, bi, may, by, sizeof(by));
			snprintf(why, len, "%s %d (socket %d): %s may count on counter%s %s only, which %s take%s", b->t->name,
				 b->idx, b->socket, e.name, may & (may - 1) ? "s" : "", list, by, strstr(by, " and ") ? "" : "s");
			return 1;
		}
	}
	return 0;
}
