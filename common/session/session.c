/*
 * Sessions: program with the documented protocol (seed 000 section 2.1.1:
 * freeze, program, reset, unfreeze), read with wrap-around handling into
 * 64-bit accumulators, and leave every touched register as it was found.
 * Boxes are claimed machine-wide, counter by counter (claims.c): a counter
 * another session programs the same way is shared, other events take free
 * counters; a shared box is read from a baseline and never reset.
 * This file plans a session: its events, the boxes they need and the counters they get.
 */
#include "session_priv.h"

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
int sess_schedule_all(uncore_session_t *s, struct encoded *evs, int nevs)
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
	if (spec_parse_on(s->u, spec, s->cpu_socket - 1, &e) || (s->u->perf && sess_perf_check(s, &e)))
		return -1;
	e.ev = NULL; /* uncore_load_events may move the catalog: nothing kept points into it */
	nv = realloc(s->evs, (size_t)(s->nevs + 1) * sizeof(*nv));
	if (!nv)
		return uc_err("out of memory");
	s->evs = nv;
	s->evs[s->nevs] = e;
	if (sess_schedule_all(s, s->evs, s->nevs + 1))
		return -1;
	return s->nevs++;
}

int uncore_session_set_cpu_impl(uncore_session_t *s, int cpu)
{
	int sk = cpu < 0 ? -1 : uncore_cpu_socket(s->u, cpu);
	if (s->started)
		return uc_err("cannot attach the session to CPU %d: it has already started", cpu);
	if (cpu >= 0 && sk < 0)
		return -1;
	s->cpu_socket = sk + 1;
	return 0;
}

void uncore_session_free_impl(uncore_session_t *s)
{
	if (!s)
		return;
	if (s->running)
		sess_leave(s);
	free(s->evs);
	free(s->slots);
	free(s->ev_first);
	free(s->ev_slots);
	free_progs(s->progs, s->nprogs);
	free(s);
}
