/* Sessions: starting, reading (with wrap-around into 64-bit accumulators), sampling and stopping. */
#include "session_priv.h"
#include "discover/discover.h"

/* What a read says of the boxes that failed in it: their reasons, the takeovers' changes apart (said under one head
 * and tail), within a budget that leaves the whole message under a daemon's 1024-character log line; boxes past it
 * are counted (uncore_session_failed_box names each). */
#define SAID_BUDGET 640
struct said {
	char other[SAID_BUDGET + 1], taken[SAID_BUDGET + 1];
	size_t olen, tlen;
	int nfailed, ntaken, left;
};

static void say(struct said *w, char *buf, size_t *len, const char *text, size_t n)
{
	int first = !w->olen && !w->tlen;
	if (!first && w->olen + w->tlen + 2 + n > SAID_BUDGET) {
		w->left++;
		return;
	}
	if (n > SAID_BUDGET - *len - 2) /* (only the first: said in part rather than not at all) */
		n = SAID_BUDGET - *len - 2;
	*len += (size_t)snprintf(buf + *len, SAID_BUDGET + 1 - *len, "%s%.*s", *len ? "; " : "", (int)n, text);
}

/* A failed box's reason into w: a takeover's change alone (the head and tail are the read's to say once). */
static void said_box(struct said *w, const struct prog *pg)
{
	const char *r = pg->failed;
	size_t n = strlen(r), h = strlen(SESS_TAKEN_HEAD), t = strlen(SESS_TAKEN_TAIL);
	w->nfailed++;
	if (pg->taken && n >= h + t && !strncmp(r, SESS_TAKEN_HEAD, h) && !strcmp(r + n - t, SESS_TAKEN_TAIL)) {
		w->ntaken++;
		say(w, w->taken, &w->tlen, r + h, n - h - t);
	} else
		say(w, w->other, &w->olen, r, n);
}

/* The read's message from w (uc_err): UNCORE_BOX_FAILED. */
static int said_all(const struct said *w)
{
	int many = w->nfailed > 1;
	char taken[SAID_BUDGET + 256] = "", left[96] = "";
	if (w->ntaken)
		snprintf(taken, sizeof(taken), "%s" SESS_TAKEN_HEAD "%s%s", w->olen ? "; " : "", w->taken,
			 w->ntaken > 1 ? "; their counts are no longer this session's events, and they are left as that agent "
					 "programmed them" : SESS_TAKEN_TAIL);
	if (w->left)
		snprintf(left, sizeof(left), "; and %d more (uncore_session_failed_box names each)", w->left);
	uc_err("%s%s%s (%s no longer counted; the other boxes go on)", w->other, taken, left,
	       many ? "these boxes are" : "this box is");
	return UNCORE_BOX_FAILED;
}

/* One box (or perf group) read or sampled; one that failed is said in w once (tell: to the caller). */
static int read_prog(uncore_session_t *s, struct prog *pg, enum read_kind kind, int tell, struct said *w)
{
	if (!pg->failed && (s->u->perf ? sess_perf_read_box(s, pg, kind) : sess_read_box(s, pg, kind))) {
		s->rb_ok = 0; /* (a box no longer read: the read-back's totals change) */
		if (!(pg->failed = strdup(uncore_error())))
			return uc_err("out of memory");
	}
	if (kind != READ_SAMPLE) { /* whether any of its counters counted in the interval (health asks each read) */
		if (pg->failed) { /* (else the box's read said) */
			int still = 0;
			for (int k = 0; k < pg->nslots; k++)
				still += s->slots[pg->first + k].acc == s->slots[pg->first + k].prev;
			pg->moved = still < pg->nslots;
			pg->all_moved = !still;
		}
		/* health has nothing to look at box by box when every counter counted and no box shows a flag */
		s->read_quiet &= pg->all_moved && !pg->failed && !pg->hflags && !pg->taken;
	}
	if (!pg->failed || pg->told)
		return 0;
	pg->told = tell;
	said_box(w, pg);
	return 0;
}

/* The CPU a box must be read on (its MSRs, its perf group), or -1: any (PCI, MMIO). */
static int read_cpu(const uncore_session_t *s, const struct prog *pg)
{
	return s->u->perf || pg->msr ? pg->cpu : -1;
}

/* The place of a box's CPU in cpus, or n: read from anywhere, after them. */
static int cpu_turn(const uncore_session_t *s, const struct prog *pg, const int *cpus, int n)
{
	int cpu = read_cpu(s, pg), k = 0;
	while (k < n && cpus[k] != cpu)
		k++;
	return k;
}

/* The perf backend's reads of cpu's boxes that would each be an interrupt from another CPU: a read(2) per
 * perf group (from its package, none interrupts; a turn's boxes share their CPU, so their package). */
static int perf_cpu_ops(const uncore_session_t *s, int turn)
{
	int n = 0, from = s->read_from[turn], to = s->read_from[turn + 1];
	if (from == to || sess_perf_read_cpu(s, box_of(s, s->progs[s->read_order[from]].box)) < 0)
		return 0;
	for (int i = from; i < to; i++) {
		const struct prog *pg = &s->progs[s->read_order[i]];
		if (!pg->failed)
			n += (pg->lead[0] >= 0) + (pg->lead[1] >= 0);
	}
	return n;
}

/* Every MSR the boxes of a turn read, in the order they read them (their counters, then their control words
 * read back): how many, at most max. */
static int turn_msrs(uncore_session_t *s, int turn, uint32_t *regs, int max)
{
	int n = 0;
	for (int i = s->read_from[turn]; i < s->read_from[turn + 1]; i++) {
		struct prog *pg = &s->progs[s->read_order[i]];
		const struct slot *sl = &s->slots[pg->first];
		int ns = pg->nslots; /* (a local: regs may alias it, as far as the compiler knows) */
		pg->batch_at = -1;
		if (pg->failed || n + 2 * ns > max)
			continue;
		pg->batch_at = (int16_t)n;
		for (int k = 0; k < ns; k++)
			regs[n++] = (uint32_t)sl[k].addr;
		for (int k = 0; pg->vmask && k < ns; k++) /* (the plan sets no free-running counter's bit) */
			if (pg->vmask >> k & 1)
				regs[n++] = (uint32_t)sl[k].ctl.addr;
	}
	return n;
}

/* A turn's n MSRs (s->batch_reg) fetched in one batch call where the backend has one. */
static void prefetch(uncore_session_t *s, int cpu, int n)
{
	struct access *a = s->u->acc;
	s->batch = (struct msr_prefetch){ .cpu = cpu, .n = n, .reg = s->batch_reg, .val = s->batch_val };
	/* the boxes' sample time is the instant the backend says the batch's values are of (the simulator's),
	 * else the middle of the call: one the scheduler stretched (a loaded machine) is then read again, as a
	 * box's read is (sess_read_box) */
	for (int tries = 0;; tries++) {
		uint64_t t0 = a->ops->now_ns(a);
		access_msr_prefetch(a, &s->batch);
		uint64_t t1 = a->ops->now_ns(a);
		s->batch_ns = !a->prefetch ? 0 : a->prefetch->at ? a->prefetch->at : t0 + (t1 - t0) / 2;
		if (!a->prefetch || a->prefetch->at || t1 - t0 <= SAMPLE_SLACK_NS || tries == SAMPLE_TRIES - 1)
			break;
	}
}

/* Read (or sample) every box still counted, the overflows of sampled counters serviced first.  Each CPU's
 * boxes are read on it (the thread moved there, its MSRs in one batch: access_cost.c), then those any CPU
 * reads.  A box that cannot be read is given up for good: counting it again after a gap could miss a wrap.
 * The boxes that failed and were not named to the caller yet are named in one message; tell: the caller
 * gets it (uncore_sleep_ns()'s samples leave it to the next read). */
static int read_boxes(uncore_session_t *s, enum read_kind kind, int tell);

/* read_boxes with the backend's clock held where it can be (a simulator's: one instant for the whole read) */
static int read_all(uncore_session_t *s, enum read_kind kind, int tell)
{
	access_clock_hold(s->u->acc);
	int rc = read_boxes(s, kind, tell);
	access_clock_release(s->u->acc);
	return rc;
}

#define MAX_TURN_MSRS 2048 /* a turn's MSRs (s->batch_reg) */

/* Which CPU reads each box, in turns: the boxes grouped by the CPU they are read on, in their order within
 * each, then those any CPU reads.  A box's CPU is fixed at discovery, so the plan holds until the progs or
 * the placement rule change. */
static int plan_reads(uncore_session_t *s)
{
	struct access *a = s->u->acc;
	int *cpus = s->read_cpus, ncpus = 0;
	if (s->plan_progs == s->progs && s->plan_nprogs == s->nprogs && s->plan_place_ok == a->place_ok)
		return 0;
	/* (the direct backend's MSR batches, made with the first plan and kept; through the kernel a read has none) */
	if (!s->u->perf && !s->batch_reg && !(s->batch_reg = malloc(MAX_TURN_MSRS * sizeof(uint32_t))))
		return uc_err("out of memory");
	if (!s->u->perf && !s->batch_val && !(s->batch_val = malloc(MAX_TURN_MSRS * sizeof(uint64_t))))
		return uc_err("out of memory");
	if (s->read_order_cap < s->nprogs) { /* (the progs change only when the events are truncated) */
		int *o = realloc(s->read_order, (size_t)s->nprogs * sizeof(int));
		if (!o)
			return uc_err("out of memory");
		s->read_order = o;
		s->read_order_cap = s->nprogs;
	}
	for (int p = 0; p < s->nprogs && a->place_ok; p++)
		if (read_cpu(s, &s->progs[p]) >= 0 && cpu_turn(s, &s->progs[p], cpus, ncpus) == ncpus &&
		    ncpus < UC_MAX_SOCKETS * UC_MAX_DIES)
			cpus[ncpus++] = read_cpu(s, &s->progs[p]);
	int count[UC_MAX_SOCKETS * UC_MAX_DIES + 1] = { 0 };
	for (int p = 0; p < s->nprogs; p++) /* each box's turn, once: the CPU it is read on, or after them */
		count[s->progs[p].turn = cpu_turn(s, &s->progs[p], cpus, ncpus)]++;
	s->read_from[0] = 0;
	for (int c = 0; c <= ncpus; c++)
		s->read_from[c + 1] = s->read_from[c] + count[c];
	int at[UC_MAX_SOCKETS * UC_MAX_DIES + 1];
	memcpy(at, s->read_from, sizeof(at));
	for (int p = 0; p < s->nprogs; p++)
		s->read_order[at[s->progs[p].turn]++] = p;
	s->read_ncpus = ncpus;
	s->plan_progs = s->progs;
	s->plan_nprogs = s->nprogs;
	s->plan_place_ok = a->place_ok;
	return 0;
}

static int read_boxes(uncore_session_t *s, enum read_kind kind, int tell)
{
	struct said w; /* (its counts and empty texts alone: a read does not clear its 1.3 KB of text) */
	w.olen = w.tlen = 0;
	w.nfailed = w.ntaken = w.left = 0;
	w.other[0] = w.taken[0] = '\0';
	struct access *a = s->u->acc;
	if (!s->running)
		return uc_err("the session is not running: start it first");
	/* a sampled counter's overflow froze its die: every box of it stopped until serviced here */
	if (sess_service_overflows(s))
		return uc_err_prefix("servicing the sampled counters' overflows: ");
	if (!s->u->perf) /* (the kernel owns the registers: nothing of ours to read back) */
		sess_plan_readback(s);
	if (plan_reads(s))
		return -1;
	const int *cpus = s->read_cpus, ncpus = s->read_ncpus;
	if (kind != READ_SAMPLE)
		s->read_quiet = 1;
	for (int c = 0; c <= ncpus; c++) { /* each CPU's boxes, then (c == ncpus) the rest */
		if (c < ncpus) {
			/* where moving costs more than the interrupts it saves (a batch is one, else each MSR read), or
			 * the thread may not run, it reads from where it is */
			int n = s->u->perf ? 0 : turn_msrs(s, c, s->batch_reg, MAX_TURN_MSRS);
			int ops = s->u->perf ? perf_cpu_ops(s, c) : access_batches(a) && n ? 1 : n;
			if (access_worth_moving(a, cpus[c], ops))
				access_place(a, cpus[c]);
			if (!s->u->perf)
				prefetch(s, cpus[c], n);
			else if (s->read_from[c] < s->read_from[c + 1])
				s->perf_cpu = sess_perf_read_cpu(s, box_of(s, s->progs[s->read_order[s->read_from[c]]].box));
		} else {
			access_unplace(a);
			s->perf_cpu = -2;
		}
		int rc = 0;
		for (int i = s->read_from[c]; i < s->read_from[c + 1] && !rc; i++)
			rc = read_prog(s, &s->progs[s->read_order[i]], kind, tell, &w);
		access_msr_forget(a);
		s->batch_ns = 0;
		s->perf_t = 0;
		if (rc) {
			access_unplace(a);
			return -1;
		}
	}
	s->t_sampled = a->ops->now_ns(a);
	return w.nfailed ? said_all(&w) : 0;
}

#define PERF_NO_SAMPLING_NS (UINT64_MAX / 4)

/* The handle's running sessions, which uncore_sleep_ns() samples on the way. */
static int track(uncore_session_t *s, int on)
{
	uncore_t *u = s->u;
	for (int i = 0; i < u->nrunning; i++)
		if (u->running[i] == s) {
			if (!on)
				u->running[i] = u->running[--u->nrunning];
			if (!on && !u->nrunning) /* nothing counts: a global control found frozen is frozen again */
				disc_globals_restore(u);
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
	return read_all(s, READ_SAMPLE, 1);
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
			read_all(u->running[i], READ_SAMPLE, 0);
}

/* A session that has started counting: its clock, how often it must be sampled, and the handle's list.  Its
 * clock starts with the first baseline its start read (since: the start began), not when it got here: what
 * divides by its elapsed time (the attribution's rates) then divides by the time its counts were counted. */
static int running(uncore_session_t *s, uint64_t max_read_ns, uint64_t since)
{
	uint64_t now = s->u->acc->ops->now_ns(s->u->acc), t0 = now;
	access_settle(s->u->acc); /* (a simulated machine's boxes made ready to count: its first read pays none) */
	for (int p = 0; p < s->nprogs; p++) {
		uint64_t t = s->progs[p].t_start;
		if (!s->progs[p].failed && t >= since && t < t0)
			t0 = t;
	}
	s->t0 = s->t1 = s->tprev = t0;
	s->max_read_ns = max_read_ns;
	s->t_sampled = t0; /* (the baselines were its last sample) */
	if (track(s, 1)) {
		sess_leave(s);
		return -1;
	}
	s->running = s->started = 1;
	return 0;
}

/* The kernel keeps its counts in 64 bits and arbitrates the boxes: no claims, no sampling against wraps. */
static int perf_start(uncore_session_t *s, uint64_t since)
{
	if (sess_perf_start(s))
		return -1;
	sess_perf_crowd(s);
	return running(s, PERF_NO_SAMPLING_NS, since);
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
		s->progs[p].told = s->progs[p].taken = 0;
		s->progs[p].vmask = 0;
	}
	s->rb_ok = 0; /* the read-back's rotation starts again with the first box, its credit earned from the start */
	s->rb_prog = s->rb_slot = 0;
	s->rb_credit = 0;
	s->nrefused = 0;
	s->novq = 0;
	uint64_t since = s->u->acc->ops->now_ns(s->u->acc);
	s->rb_t = since;
	if (s->u->perf)
		return perf_start(s, since);
	if (claims_lock(s->u)) {
		snprintf(msg, sizeof(msg), "%s", uncore_error());
		return uc_err("%s; nothing was programmed", msg);
	}
	sess_reap_dead(s->u);
	/* the claims reach the file before the first register write: a kill at any instant after it leaves a
	 * record the next session restores from */
	if (sess_claim(s) || claims_write(s->u)) {
		snprintf(msg, sizeof(msg), "%s", uncore_error());
		sess_release(s, 0);
		claims_unlock(s->u);
		return uc_err("%s; nothing was programmed", msg);
	}
	if (sess_program(s)) {
		snprintf(msg, sizeof(msg), "%s", uncore_error());
		if (sess_release(s, 1) || claims_write(s->u))
			uc_warn("after programming failed: %s", uncore_error());
		claims_unlock(s->u);
		return uc_err("programming the uncore failed: %s", msg);
	}
	claims_unlock(s->u);
	return running(s, sess_max_read_interval(s), since);
}

/* A read by the caller: it closes an interval. */
int uncore_session_read_impl(uncore_session_t *s)
{
	uint64_t t1 = s->t1;
	int rc = read_all(s, READ_USER, 1);
	if (s->running) {
		s->tprev = t1;
		s->t1 = s->t_sampled;
		char msg[1024];
		snprintf(msg, sizeof(msg), "%s", rc ? uncore_error() : "");
		sess_check_frozen(s); /* a die none of whose counters moved: frozen by a sampler that never serviced it? */
		if (rc)
			uc_err("%s", msg); /* the read's own message stands */
	}
	return rc;
}

/* A freeze our overflows left behind, on every die this session samples on: lifted (-1 when it could
 * not be). */
static int resume_sampled_dies(uncore_session_t *s)
{
	int bad = 0;
	for (int sock = 0; sock < s->u->host.nsockets; sock++)
		for (int die = 0; die < sess_dies(s, sock); die++) {
			uint64_t g[UC_MAX_GLOB_STATUS];
			int any = sess_sampled(s, sock, die) && s->u->plat->glob_status ? sess_glob_status(s, sock, die, g) : 0;
			if (any < 0 || (any && sess_glob_resume(s, sock, die, g)))
				bad = -1;
		}
	return bad;
}

int sess_leave(uncore_session_t *s)
{
	int bad = 0, rc;
	if (s->u->perf) {
		sess_perf_stop(s);
		track(s, 0);
		s->running = 0;
		return 0;
	}
	bad = resume_sampled_dies(s);
	if (claims_lock(s->u)) { /* restore all the same: the counts read stay valid */
		char msg[512];
		snprintf(msg, sizeof(msg), "%s", uncore_error());
		rc = sess_restore_own(s);
		if (claims_gone(s->u, s->token))
			rc = -1;
		uc_warn("%s: what this session alone programmed is restored from its own copy (as the file, read without "
			"the lock, shows the boxes' holders), and its records are left for the next session to clear", msg);
	} else {
		sess_reap_dead(s->u);
		rc = sess_release(s, 1);
		if (claims_write(s->u)) {
			uc_warn("%s: the records of this session's boxes (restored) are left for the next session to clear",
				uncore_error());
			claims_gone(s->u, s->token);
		}
		claims_unlock(s->u);
	}
	/* and once more with the counters put back: one of ours that overflowed between the look above and
	 * its restore froze the die again, and nothing of ours is armed to do it a third time */
	if (resume_sampled_dies(s))
		bad = -1;
	track(s, 0);
	s->running = 0;
	return rc ? rc : bad;
}

int uncore_session_stop_impl(uncore_session_t *s)
{
	if (!s->running)
		return uc_err("the session is not running");
	int rc = uncore_session_read_impl(s);
	char msg[512], why[512];
	snprintf(msg, sizeof(msg), "%s", rc ? uncore_error() : "");
	if (sess_leave(s)) { /* a box that failed mostly cannot be put back either: say both */
		snprintf(why, sizeof(why), "%s", uncore_error());
		return uc_err("%s%sputting the registers back: %s", msg, rc ? "; " : "", why);
	}
	if (rc)
		uc_err("%s", msg);
	return rc;
}
