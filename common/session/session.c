/*
 * Sessions: program with the documented protocol (seed 000 section 2.1.1:
 * freeze, program, reset, unfreeze), read with wrap-around handling into
 * 64-bit accumulators, and leave every touched register as it was found.
 * Boxes are claimed machine-wide, counter by counter (claims.c): a counter
 * another session programs the same way is shared, other events take free
 * counters; a shared box is read from a baseline and never reset.
 * This file plans a session: its events, the boxes they need and the counters they get (a prog per box,
 * or on the perf backend one per group when a box's events are split to be multiplexed).
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
		free(progs[p].found);
	}
	free(progs);
}

/* Which slots hold each event on each socket, so that a value is a walk over its own slots only:
 * bucket k = ev * nsockets + socket (see ev_range). */
static int index_events(uncore_session_t *s, const struct slot *slots, int nslots, int nevs)
{
	int ns = s->u->host.nsockets > 0 ? s->u->host.nsockets : 1, nk = nevs * ns;
	int *first = calloc((size_t)nk + 2, sizeof(*first)), *idx = malloc((size_t)(nslots + 1) * sizeof(*idx));
	if (!first || !idx) {
		free(first);
		free(idx);
		return uc_err("out of memory");
	}
	for (int i = 0; i < nslots; i++)
		first[slots[i].ev * ns + s->u->boxes[slots[i].box].socket + 2]++;
	for (int k = 0; k < nk; k++)
		first[k + 2] += first[k + 1];
	for (int i = 0; i < nslots; i++) /* first[k + 1] runs from bucket k's start to its end */
		idx[first[slots[i].ev * ns + s->u->boxes[slots[i].box].socket + 1]++] = i;
	free(s->ev_first);
	free(s->ev_slots);
	s->ev_first = first;
	s->ev_slots = idx;
	return 0;
}

/* Events of one box that do not fit its counters together, in groups that each do: first fit, in the
 * order they were added, so that a metric's events (added together) share a group where they can, and
 * fixed and free-running events, which fit anywhere, land in the first.  perf multiplexes such a set;
 * grp[i] is event i's group.  Returns the number of groups, or -1 when an event does not fit even alone
 * (the scheduler says why). */
static int split_box(const struct box *b, const struct sched_req *reqs, int n, int *grp)
{
	struct sched_req tr[UC_MAX_SLOTS];
	uint64_t fval[UC_MAX_FILT], fmask[UC_MAX_FILT];
	int ng = 0;
	for (int i = 0; i < n; i++) {
		for (grp[i] = 0; grp[i] <= ng; grp[i]++) {
			int m = 0;
			for (int j = 0; j < i && m < UC_MAX_SLOTS - 1; j++)
				if (grp[j] == grp[i])
					tr[m++].enc = reqs[j].enc;
			tr[m++].enc = reqs[i].enc;
			if (!sched_box(b, tr, m, fval, fmask))
				break;
			if (grp[i] == ng)
				return -1; /* not even alone */
		}
		if (grp[i] == ng)
			ng++;
	}
	return ng;
}

/* Room for n more elements of size bytes in *arr (used of *cap taken); realloc would lose the cache-line
 * alignment of the slots and progs (struct slot, struct prog), so a larger array is aligned afresh,
 * doubling: 0, or -1 with a message. */
static int aligned_room(void **arr, size_t size, size_t align, int used, int *cap, int n)
{
	if (used + n <= *cap)
		return 0;
	int c = *cap ? *cap : 64;
	while (c < used + n)
		c *= 2;
	void *na = aligned_alloc(align, (size_t)c * size);
	if (!na)
		return uc_err("out of memory");
	if (used)
		memcpy(na, *arr, (size_t)used * size);
	free(*arr);
	*arr = na;
	*cap = c;
	return 0;
}

/* Add box bi's events reqs (of session events evidx), placed by group (grp[i]; ng groups), to the plan:
 * one prog per group. */
static int add_progs(const uncore_t *u, int bi, struct sched_req *reqs, const int *evidx, const int *grp, int n,
		     int ng, struct slot **slots, int *nslots, int *cap, struct prog **progs, int *nprogs, int *pcap)
{
	const struct box *b = &u->boxes[bi];
	struct sched_req gr[UC_MAX_SLOTS];
	int gev[UC_MAX_SLOTS];
	for (int g = 0; g < ng; g++) {
		struct prog p = { .box = bi, .mux = ng > 1 };
		int m = 0;
		for (int i = 0; i < n; i++)
			if (grp[i] == g) {
				gr[m] = reqs[i];
				gev[m++] = evidx[i];
			}
		if (sched_box(b, gr, m, p.fval, p.fmask))
			return -1;
		if (aligned_room((void **)slots, sizeof(**slots), _Alignof(struct slot), *nslots, cap, m) ||
		    aligned_room((void **)progs, sizeof(**progs), _Alignof(struct prog), *nprogs, pcap, 1))
			return -1;
		struct slot *ns = *slots;
		struct prog *np = *progs;
		p.first = *nslots;
		p.nslots = (int16_t)m;
		p.cpu = b->cpu;
		p.msr = b->t->space == UC_MSR;
		for (int i = 0; i < m; i++) {
			struct slot *sl = &ns[(*nslots)++];
			*sl = (struct slot){ .ev = gev[i], .box = bi, .prog = *nprogs, .fr = gr[i].enc->fr };
			sess_slot_set_ctr(b, sl, gr[i].ctr);
			if (gr[i].ctr != UC_CTR_FREERUN)
				p.programmed = 1;
		}
		np[(*nprogs)++] = p;
	}
	return 0;
}

/* Plan box bi's share of events evs (reqs and evidx: room for nevs) into the plan being built. */
static int plan_box(uncore_t *u, int bi, struct encoded *evs, int nevs, struct sched_req *reqs, int *evidx,
		    struct slot **slots, int *nslots, int *cap, struct prog **progs, int *nprogs, int *pcap)
{
	const struct box *b = &u->boxes[bi];
	int n = 0, ng = 1, grp[UC_MAX_SLOTS] = { 0 };
	uint64_t fval[UC_MAX_FILT], fmask[UC_MAX_FILT];
	for (int e = 0; e < nevs; e++)
		if (targets(&evs[e], b)) {
			reqs[n].enc = &evs[e];
			evidx[n++] = e;
		}
	if (!n)
		return 0;
	if (n > UC_MAX_SLOTS) {
		sched_box(b, reqs, n, fval, fmask); /* says how many a box can carry */
		return -1;
	}
	if (b->t->kernel_places) { /* one group per event: the kernel knows the counters */
		for (int i = 0; i < n; i++)
			grp[i] = i;
		ng = n;
	} else if (sched_box(b, reqs, n, fval, fmask)) {
		char why[600];
		snprintf(why, sizeof(why), "%s", uncore_error());
		ng = split_box(b, reqs, n, grp);
		/* direct access has no kernel to rotate groups; a box whose counter 0 alone counts right must not
		 * get groups the kernel would place side by side */
		if (ng < 2 || !u->perf || b->one_ctr)
			return uc_err(ng < 2 || b->one_ctr ? "%s" : "%s (the perf backend multiplexes such sets, as perf does)", why);
	}
	return add_progs(u, bi, reqs, evidx, grp, n, ng, slots, nslots, cap, progs, nprogs, pcap);
}

/* Box bi's progs of the session's plan as it is, and their slots, copied to the end of the plan being built
 * (their places renumbered); *op walks the old progs, which are in box order.  It grows nothing: schedule takes
 * room for the old plan's slots and one more on each box the new event reaches, and a prog holds one or more. */
static void carry_box(uncore_session_t *s, int bi, int *op, struct slot *slots, int *nslots, struct prog *progs,
		      int *nprogs)
{
	for (; *op < s->nprogs && s->progs[*op].box == bi; (*op)++) {
		struct prog p = s->progs[*op];
		/* (what it owns moves with it: the old plan's copy is freed) */
		s->progs[*op].failed = NULL;
		s->progs[*op].own = NULL;
		s->progs[*op].found = NULL;
		const struct slot *from = &s->slots[p.first];
		p.first = *nslots;
		for (int i = 0; i < p.nslots; i++) {
			slots[*nslots] = from[i];
			slots[(*nslots)++].prog = *nprogs;
		}
		progs[(*nprogs)++] = p;
	}
}

/* Place every event of the session; on success replace the session's plan.  A box's events that do not
 * fit its counters together are refused, but on the perf backend, which splits them into groups the
 * kernel rotates, as perf does.  With carry (the plan holds events 0 to nevs - 2, unstarted, and evs[nevs - 1]
 * is new) only the boxes the new event reaches are planned again: the others' plans cannot change, and a
 * session of a socket's CHAs planned every box again at each of its hundreds of adds. */
static int schedule(uncore_session_t *s, struct encoded *evs, int nevs, int carry)
{
	uncore_t *u = s->u;
	struct slot *slots = NULL;
	struct prog *progs = NULL;
	int nslots = 0, cap = 0, nprogs = 0, pcap = 0, op = 0;
	struct sched_req *reqs = calloc((size_t)nevs, sizeof(*reqs));
	int *evidx = calloc((size_t)nevs, sizeof(*evidx));
	const struct encoded *add = carry ? &evs[nevs - 1] : NULL;
	/* (a band event may be moved to another band by any box that plans it again (sched_box), which the carried
	 * boxes' plans would not see: a box type with bands is planned whole) */
	for (int bi = 0; add && bi < u->nboxes; bi++)
		if (u->boxes[bi].t->band_ev && targets(add, &u->boxes[bi]))
			add = NULL;
	if (!reqs || !evidx) {
		uc_err("out of memory");
		goto fail;
	}
	/* the plan's room at once (a slot and at most a prog per event a box takes): grown as it was filled, the
	 * arrays were copied over and over at each add of a session of many boxes (a socket's CHAs) */
	int most = add ? s->nslots : 0;
	for (int bi = 0; bi < u->nboxes; bi++)
		for (int e = add ? nevs - 1 : 0; e < nevs; e++)
			most += targets(&evs[e], &u->boxes[bi]);
	if (most && (aligned_room((void **)&slots, sizeof(*slots), _Alignof(struct slot), 0, &cap, most) ||
		     aligned_room((void **)&progs, sizeof(*progs), _Alignof(struct prog), 0, &pcap, most)))
		goto fail;
	for (int bi = 0; bi < u->nboxes; bi++) {
		if (add && !targets(add, &u->boxes[bi])) {
			carry_box(s, bi, &op, slots, &nslots, progs, &nprogs);
			continue;
		}
		while (add && op < s->nprogs && s->progs[op].box == bi)
			op++; /* planned again below */
		if (plan_box(u, bi, evs, nevs, reqs, evidx, &slots, &nslots, &cap, &progs, &nprogs, &pcap))
			goto fail;
	}
	free(reqs);
	free(evidx);
	if (index_events(s, slots, nslots, nevs))
		goto fail_plan;
	free(s->slots);
	free_progs(s->progs, s->nprogs);
	s->slots = slots;
	s->nslots = nslots;
	s->progs = progs;
	s->nprogs = nprogs;
	return 0;
fail:
	free(reqs);
	free(evidx);
fail_plan:
	free(slots);
	free(progs);
	return -1;
}

int sess_schedule_all(uncore_session_t *s, struct encoded *evs, int nevs)
{
	return schedule(s, evs, nevs, 0);
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
	if (schedule(s, s->evs, s->nevs + 1, 1))
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

int uncore_session_allow_refused_impl(uncore_session_t *s, int on)
{
	if (s->started)
		return uc_err("cannot change what the start may leave out: the session has already started");
	s->allow_refused = on != 0;
	return 0;
}

int uncore_session_refused_impl(const uncore_session_t *s) { return s->nrefused; }

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
	free(s->read_order);
	free(s->batch_reg);
	free(s->batch_val);
	free(s);
}
