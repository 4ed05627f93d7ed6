/*
 * Memory traffic by job on a shared node (issue 46 point 3; uncore.h, doc/jobs.md "Shared nodes").
 *
 * Why the TOR and not the cores: a core's LLC misses are its memory reads, and a CBo/CHA counts the misses
 * of one thread when its tid filter names it (seed 000 "Any of the CBo events may be filtered by
 * Thread/Core-ID"; seed 001 T2-75).  Physical addresses hash evenly over a socket's boxes, so one box sees
 * 1/N of a core's misses: N x that count estimates them all.  Each box has one filter, so a step samples
 * at most one thread per box; the threads rotate over the boxes (and, where there are more threads than
 * boxes, over the steps), and a thread's count is scaled by the window over the time it was sampled.
 * Nothing here needs the core PMU or perf: it works from Sandy Bridge-EP on, the same on every backend.
 *
 * Under sub-NUMA clustering the addresses of a domain's memory hash over that domain's CHAs alone, so one box
 * sees 1/C_d of a core's misses to its domain's memory and none of the rest: a core is sampled at the boxes of
 * every domain in turn (a domain a step, the positions of the rotation interleaving the domains), and its
 * misses are the sum over the domains of what one box of the domain saw, times C_d, over the time it was seen
 * there -- exact wherever its memory is (its own node, another, interleaved).  The CHAs of a domain: perf's
 * uncore_cha_snc (tools/perf/arch/x86/util/pmu.c, after Linux 6.12), a socket's CHAs in equal runs, domain 0's
 * first; the domains of the CPUs: the kernel's nodes and L3 (numa_cpu_domain).  With SNC off a socket is one
 * domain of all its boxes, as before.
 *
 * It is a client of the public calls (sessions, metrics, jobs), like the front ends: each step is a session
 * of its own that programs the filters and is read and stopped at the next step.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "uncore.h"
#include "jobs.h"
#include "handle/handle.h"
#include "numa/numa.h"
#include "open/open.h"
#include "session/session.h"
#include "util/error.h"

struct thr {
	int socket, cpu, job; /* the first job holding the CPU */
	int share;            /* how many jobs hold it (OverSubscribe, --overlap): its traffic split equally */
	int unnamed;          /* the filter cannot name it: never sampled, its job's other threads stand for it */
	unsigned tid;
	double cnt[UC_MAX_DIES][2]; /* misses counted while sampled at a box of SNC domain d: since start, this interval */
	double ns[UC_MAX_DIES][2];  /* ... and for how long */
};

struct uncore_attrib {
	uncore_t *u;
	const struct attrib_plat *plat;
	int njobs;
	char (*job)[UC_JOB_ID_MAX + 1];
	uint8_t (*cpus)[UC_MAX_CPUS / 8]; /* each job's CPUs */
	struct thr *thr;
	int nthr;
	int boxes[UC_MAX_SOCKETS];       /* the socket's CBos/CHAs: its slices */
	int snc[UC_MAX_SOCKETS];         /* its SNC domains (1: off) */
	int per[UC_MAX_SOCKETS];         /* the boxes of each domain: boxes / snc */
	int first[UC_MAX_SOCKETS + 1];   /* its threads: thr[first[k]] .. thr[first[k + 1] - 1] */
	int *start[UC_MAX_SOCKETS];      /* the thread at each position of the rotation's step 0, -1 none (threads()) */
	uncore_session_t *tot;           /* mem_read_bytes and mem_write_bytes, the whole window */
	uncore_session_t *samp;          /* the current step's */
	int *samp_thr;                   /* the thread of each of its events */
	int *samp_dom;                   /* ... and the domain of its box */
	int nsamp, step, running;
	unsigned lost;                   /* the sockets the last read has no rows of (socket_rows) */
	uint64_t read_ns;                /* tot's elapsed time at the last read */
	struct uncore_attrib_row *rows;
	int nrows;
};

const struct attrib_plat *attrib_plat_of(const struct platform_desc *p)
{
	return p ? p->attrib : NULL;
}

const char *uncore_attrib_counts(const uncore_t *u)
{
	const struct attrib_plat *p = attrib_plat_of(u->plat);
	return p ? p->counts : NULL;
}

int attrib_clash(uncore_session_t *s, char *why, size_t len)
{
	uncore_t *u = session_owner(s);
	const struct attrib_plat *p = attrib_plat_of(u->plat);
	char spec[160];
	if (!p)
		return 0;
	snprintf(spec, sizeof(spec), "%s:tid=0x0", p->event); /* any thread: the filter's bits are what count */
	handle_lock(u);
	int rc = session_joins(s, spec, why, len);
	handle_unlock(u);
	return rc;
}

/* The unit the platform's event counts in, and its boxes per socket. */
static int slices(struct uncore_attrib *a)
{
	char name[128];
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(a->plat->event, ":"), a->plat->event);
	struct uncore_event_info ei;
	int ev = uncore_event_find(a->u, name);
	if (ev < 0 || uncore_event_info(a->u, ev, &ei))
		return uc_err("per-job attribution: %s has no event %s", uncore_platform_name(a->u), name);
	for (int un = 0; un < uncore_num_units(a->u); un++) {
		struct uncore_unit_info ui;
		if (uncore_unit_info(a->u, un, &ui) || strcmp(ui.name, ei.unit))
			continue;
		for (int k = 0; k < a->u->host.nsockets && k < UC_MAX_SOCKETS; k++) {
			if ((a->boxes[k] = uncore_unit_boxes(a->u, un, k)) <= 0)
				return uc_err("per-job attribution: socket %d has no %s box", k, ei.unit);
			numa_cpu_domain(a->u, a->u->host.socket_cpu[k], &a->snc[k]);
			if (a->snc[k] > UC_MAX_DIES || a->boxes[k] / a->snc[k] < 1)
				return uc_err("per-job attribution: socket %d's %d SNC domains share %d %s boxes: a domain "
					      "has none to sample", k, a->snc[k], a->boxes[k], ei.unit);
			a->per[k] = a->boxes[k] / a->snc[k];
		}
		return 0;
	}
	return uc_err("per-job attribution: no %s unit on this machine", ei.unit);
}

/* Where socket k's threads start the rotation, when it has a position for each: each in a position of its own
 * SNC domain (domain d's threads at d, d + snc, d + 2 snc, ...), so that a thread is seen first where its memory
 * most likely is (Linux allocates on the toucher's node) and a window of one step reads it there; a domain with
 * more threads than boxes: in order. */
static int start_positions(struct uncore_attrib *a, int k)
{
	int n = a->snc[k] * a->per[k], m = a->first[k + 1] - a->first[k], next[UC_MAX_DIES] = { 0 }, fits = 1;
	if (m > n)
		return 0;
	if (!(a->start[k] = malloc((size_t)n * sizeof(int))))
		return uc_err("out of memory");
	for (int c = 0; c < n; c++)
		a->start[k][c] = -1;
	for (int i = a->first[k]; i < a->first[k + 1]; i++) {
		int snc, d = numa_cpu_domain(a->u, a->thr[i].cpu, &snc) % a->snc[k];
		fits &= next[d]++ < a->per[k];
	}
	memset(next, 0, sizeof(next));
	for (int i = a->first[k]; i < a->first[k + 1]; i++) {
		int snc, d = numa_cpu_domain(a->u, a->thr[i].cpu, &snc) % a->snc[k];
		a->start[k][fits ? d + a->snc[k] * next[d]++ : i - a->first[k]] = i;
	}
	return 0;
}

/* Every online CPU a job (of n, named, their CPUs in cpus[j]) holds, socket by socket, with the thread id
 * its box's filter takes.  No job: every byte is unattributed. */
static int threads(struct uncore_attrib *a, int n, const char *const *names, const uint8_t *const *cpus)
{
	const struct host_info *h = &a->u->host;
	a->njobs = n;
	if (!(a->job = calloc((size_t)a->njobs + 1, sizeof(*a->job))) || !(a->thr = calloc((size_t)h->ncpus + 1, sizeof(*a->thr))) ||
	    !(a->cpus = calloc((size_t)a->njobs + 1, sizeof(*a->cpus))))
		return uc_err("out of memory");
	for (int j = 0; j < a->njobs; j++) {
		snprintf(a->job[j], sizeof(a->job[j]), "%s", names[j]);
		memcpy(a->cpus[j], cpus[j], sizeof(a->cpus[j]));
	}
	for (int k = 0; k < h->nsockets && k < UC_MAX_SOCKETS; k++) {
		a->first[k] = a->nthr;
		for (int c = 0; c < h->ncpus && c < UC_MAX_CPUS; c++) {
			int j = 0, share = 0;
			while (j < a->njobs && !cpu_in(cpus[j], c))
				j++;
			if (h->cpu_socket[c] != k || j == a->njobs)
				continue;
			for (int i = j; i < a->njobs; i++)
				share += cpu_in(cpus[i], c);
			if (h->cpu_core[c] < 0 || h->cpu_thread[c] < 0)
				return uc_err("per-job attribution: CPU %d's core id or thread is unknown (topology/core_id, "
					      "thread_siblings_list)", c);
			unsigned tid = (unsigned)h->cpu_core[c] << a->plat->tid_core_lo | (unsigned)h->cpu_thread[c];
			int unnamed = tid >> a->plat->tid_bits || (unsigned)h->cpu_thread[c] >> a->plat->tid_core_lo;
			if (unnamed) /* its job is known by its other threads on the socket (or not at all) */
				uc_warn("per-job attribution: CPU %d (core %d, thread %d) does not fit the %d-bit thread filter "
					"of %s: never sampled, its job's other threads stand for it", c, h->cpu_core[c],
					h->cpu_thread[c], a->plat->tid_bits, uncore_platform_name(a->u));
			a->thr[a->nthr++] = (struct thr){ .socket = k, .cpu = c, .job = j, .share = share, .tid = tid, .unnamed = unnamed };
		}
	}
	a->first[h->nsockets < UC_MAX_SOCKETS ? h->nsockets : UC_MAX_SOCKETS] = a->nthr;
	for (int k = 0; k < h->nsockets && k < UC_MAX_SOCKETS; k++)
		if (start_positions(a, k))
			return -1;
	return 0;
}

static int attrib_new(uncore_t *u, int n, const char *const *names, const uint8_t *const *cpus, uncore_attrib_t **out)
{
	*out = NULL;
	struct uncore_attrib *a = calloc(1, sizeof(*a));
	if (!a)
		return uc_err("out of memory");
	a->u = u;
	if (!(a->plat = attrib_plat_of(u->plat))) {
		free(a);
		return uc_err("per-job attribution: %s has no known per-thread count of LLC misses", uncore_platform_name(u));
	}
	if (slices(a) || threads(a, n, names, cpus)) {
		uncore_attrib_free(a);
		return -1;
	}
	*out = a;
	return 0;
}

int uncore_attrib_new(uncore_t *u, uncore_attrib_t **out)
{
	const struct uc_jobs *js = u->jobs;
	int n = js ? js->n : 0, rc = -1;
	const char **names = calloc((size_t)n + 1, sizeof(*names));
	const uint8_t **cpus = calloc((size_t)n + 1, sizeof(*cpus));
	if (!names || !cpus)
		uc_err("out of memory");
	else {
		for (int j = 0; j < n; j++) {
			names[j] = js->v[j].id;
			cpus[j] = js->v[j].cpus;
		}
		rc = attrib_new(u, n, names, cpus, out);
	}
	free(names);
	free(cpus);
	return rc;
}

int uncore_attrib_new_cpus(uncore_t *u, int n, const char *const *names, const char *const *cpus, uncore_attrib_t **out)
{
	char why[160] = "no CPU in the list";
	int rc = -1;
	*out = NULL;
	if (n < 1 || n > 1024)
		return uc_err("per-job attribution: 1 to 1024 CPU sets, not %d", n);
	uint8_t (*bits)[UC_MAX_CPUS / 8] = calloc((size_t)n, sizeof(*bits));
	const uint8_t **sets = calloc((size_t)n, sizeof(*sets));
	if (!bits || !sets)
		uc_err("out of memory");
	else {
		int j = 0;
		while (j < n && cpulist_parse(cpus[j], bits[j], why, sizeof(why)) > 0 && strlen(names[j]) <= UC_JOB_ID_MAX) {
			sets[j] = bits[j];
			j++;
		}
		rc = j < n ? uc_err("per-job attribution, set '%.64s' (%.64s): %s", names[j], cpus[j],
				    strlen(names[j]) > UC_JOB_ID_MAX ? "a name of more than 64 characters" : why)
			   : attrib_new(u, n, names, sets, out);
	}
	free(bits);
	free(sets);
	return rc;
}

/* The box at position c of socket k's rotation: the domains interleaved (c mod snc the domain, c / snc the box in
 * it), so that a thread moving one position a step samples every domain in turn.  Boxes past snc x per (a socket
 * whose boxes the domains do not divide) are left out: which domain they serve is not known. */
static int box_at(const struct uncore_attrib *a, int k, int c) { return c % a->snc[k] * a->per[k] + c / a->snc[k]; }

/* The thread position c of socket k samples at step s, or -1: with no more threads than positions each thread
 * has one, moving one position a step from its start; with more, the threads take turns. */
static int sampled(const struct uncore_attrib *a, int k, int c, int s)
{
	int m = a->first[k + 1] - a->first[k], n = a->snc[k] * a->per[k];
	if (m <= n)
		return a->start[k][((c - s) % n + n) % n];
	return a->first[k] + (int)(((long)c + (long)s * n) % m);
}

/* The current step's counts to its threads; the step's session let go. */
static int step_end(struct uncore_attrib *a)
{
	if (!a->samp)
		return 0;
	int rc = uncore_session_read(a->samp) < 0 ? -1 : 0;
	double ns = (double)uncore_session_elapsed_ns(a->samp);
	for (int e = 0; !rc && e < a->nsamp; e++) {
		struct thr *t = &a->thr[a->samp_thr[e]];
		uint64_t v = 0;
		if (uncore_session_value(a->samp, e, t->socket, -1, &v)) {
			rc = -1;
			break;
		}
		for (int w = 0, d = a->samp_dom[e]; w < 2; w++) {
			t->cnt[d][w] += (double)v;
			t->ns[d][w] += ns;
		}
	}
	if (uncore_session_stop(a->samp) < 0)
		rc = -1;
	uncore_session_free(a->samp);
	a->samp = NULL;
	return rc;
}

/* A step that could not start: its session goes at once (never started, there is nothing of it to read or
 * stop), so that no later stop reads it and puts "the session is not running" in place of why it failed. */
static int step_drop(struct uncore_attrib *a, const char *spec)
{
	char why[512];
	snprintf(why, sizeof(why), "%s", uncore_error());
	uncore_session_free(a->samp);
	a->samp = NULL;
	a->nsamp = 0;
	return spec ? uc_err("per-job attribution, %s: %s", spec, why) : uc_err("per-job attribution: %s", why);
}

static int step_begin(struct uncore_attrib *a)
{
	char spec[256];
	int n = 0;
	a->step++;
	if (!a->nthr) /* no job's core to sample */
		return 0;
	if (uncore_session_new(a->u, &a->samp))
		return -1;
	for (int k = 0; k < a->u->host.nsockets && k < UC_MAX_SOCKETS; k++)
		for (int c = 0; c < a->snc[k] * a->per[k]; c++) {
			int t = sampled(a, k, c, a->step - 1);
			if (t < 0 || a->thr[t].unnamed)
				continue;
			snprintf(spec, sizeof(spec), "%s:socket=%d:box=%d:tid=0x%x", a->plat->event, k, box_at(a, k, c), a->thr[t].tid);
			if (uncore_session_add(a->samp, spec) != n)
				return step_drop(a, spec);
			a->samp_dom[n] = c % a->snc[k];
			a->samp_thr[n++] = t;
		}
	a->nsamp = n;
	return uncore_session_start(a->samp) ? step_drop(a, NULL) : 0;
}

int uncore_attrib_start(uncore_attrib_t *a)
{
	int boxes = 0;
	for (int k = 0; k < a->u->host.nsockets && k < UC_MAX_SOCKETS; k++)
		boxes += a->boxes[k];
	if (a->running)
		return uc_err("per-job attribution: already started");
	if ((!a->samp_thr && !(a->samp_thr = calloc((size_t)boxes + 1, sizeof(*a->samp_thr)))) ||
	    (!a->samp_dom && !(a->samp_dom = calloc((size_t)boxes + 1, sizeof(*a->samp_dom)))))
		return uc_err("out of memory");
	for (int i = 0; i < a->nthr; i++)
		memset(a->thr[i].cnt, 0, sizeof(a->thr[i].cnt)), memset(a->thr[i].ns, 0, sizeof(a->thr[i].ns));
	uncore_session_free(a->tot); /* an earlier run's */
	a->tot = NULL;
	/* a socket whose memory controllers another agent holds is left out (socket_rows), the others counted */
	if (uncore_session_new(a->u, &a->tot) || uncore_session_add_metric(a->tot, "mem_read_bytes") != 0 ||
	    uncore_session_add_metric(a->tot, "mem_write_bytes") != 1 || uncore_session_allow_refused(a->tot, 1) ||
	    uncore_session_start(a->tot)) {
		uncore_session_free(a->tot); /* never started: a later read says "not started", not its own error */
		a->tot = NULL;
		return uc_err_prefix("per-job attribution, the memory controllers' count: ");
	}
	a->read_ns = 0;
	a->running = 1;
	if (step_begin(a)) { /* why the step failed is the error: the cleanup's own is only a warning */
		char why[512];
		snprintf(why, sizeof(why), "%s", uncore_error());
		if (uncore_attrib_stop(a))
			uc_warn("per-job attribution, stopping after its start failed: %s", uncore_error());
		uncore_session_free(a->tot); /* nothing counted: a read says it did not start */
		a->tot = NULL;
		return uc_err("%s", why);
	}
	return 0;
}

int uncore_attrib_step(uncore_attrib_t *a)
{
	if (!a->running)
		return uc_err("per-job attribution: not started");
	return step_end(a) || step_begin(a) ? -1 : 0;
}

/* What thread t read over window w of secs seconds: for each SNC domain, the misses one of its boxes saw times
 * the domain's boxes, over the share of the window it was seen there (a domain not seen in the window: at its
 * rate since the start).  *share: the window's share it was sampled at all.  0: never sampled. */
static int thread_bytes(const struct uncore_attrib *a, int k, const struct thr *t, int w, double secs, double *bytes,
			double *share)
{
	int seen = 0;
	*bytes = *share = 0;
	for (int d = 0; d < a->snc[k] && secs > 0; d++) {
		int v = t->ns[d][w] > 0 ? w : 0; /* an interval that missed the domain: its since-start rate */
		double f = t->ns[d][v] / 1e9 / secs;
		*share += t->ns[d][w] / 1e9 / secs;
		if (f > 0) {
			*bytes += t->cnt[d][v] * a->per[k] * 64 / f;
			seen = 1;
		}
	}
	return seen;
}

/* Socket k's rows of window w into a->rows; none where its memory controllers were not counted (a box another
 * agent took or that failed: that socket's share of its jobs is not known, the other sockets' still is): 1. */
static int socket_rows(struct uncore_attrib *a, int k, int w, double secs)
{
	double rd = 0, wr = 0;
	int rc = uncore_session_metric_value(a->tot, 0, k, -1, w, &rd);
	if (!rc)
		rc = uncore_session_metric_value(a->tot, 1, k, -1, w, &wr);
	if (rc == UNCORE_BOX_FAILED)
		return 1;
	if (rc || isnan(rd) || isnan(wr))
		return uc_err("per-job attribution: socket %d's memory controllers were not counted over the window", k);
	double *est = calloc((size_t)a->njobs + 1, sizeof(*est)), *cov = calloc((size_t)a->njobs + 1, sizeof(*cov));
	int *held = calloc((size_t)a->njobs + 1, sizeof(*held)), *shared = calloc((size_t)a->njobs + 1, sizeof(*shared));
	if (!est || !cov || !held || !shared) {
		free(est), free(cov), free(held), free(shared);
		return uc_err("out of memory");
	}
	double sum = 0;
	int *seen = calloc((size_t)a->njobs + 1, sizeof(*seen));
	if (!seen) {
		free(est), free(cov), free(held), free(shared);
		return uc_err("out of memory");
	}
	for (int i = a->first[k]; i < a->first[k + 1]; i++) {
		const struct thr *t = &a->thr[i];
		double share = 0, bytes = 0;
		int got = thread_bytes(a, k, t, w, secs, &bytes, &share);
		/* a CPU of several jobs: what it read is theirs in equal parts (doc/jobs.md "Shared CPUs"), said by
		 * each one's shared_cpus */
		for (int j = t->job; j < a->njobs; j++) {
			if (j != t->job && !cpu_in(a->cpus[j], t->cpu))
				continue;
			held[j]++;
			shared[j] += t->share > 1;
			if (got) {
				est[j] += bytes / t->share;
				seen[j]++;
			}
			cov[j] += share > 1 ? 1 : share;
		}
	}
	for (int j = 0; j < a->njobs; j++) { /* threads not sampled in the window: as the job's sampled ones */
		if (seen[j] && seen[j] < held[j])
			est[j] *= (double)held[j] / seen[j];
		sum += est[j];
	}
	free(seen);
	double fit = sum > rd && sum > 0 ? rd / sum : 1; /* sampling may overshoot: never more than was read */
	double jrd = 0, jwr = 0;
	for (int j = 0; j < a->njobs; j++) {
		if (!held[j])
			continue;
		struct uncore_attrib_row *r = &a->rows[a->nrows++];
		*r = (struct uncore_attrib_row){ .socket = k, .seconds = secs, .sampled = cov[j] / held[j],
						 .socket_read_bytes = rd, .socket_write_bytes = wr };
		snprintf(r->job, sizeof(r->job), "%s", a->job[j]);
		r->shared_cpus = shared[j];
		r->read_bytes = est[j] * fit;
		r->write_bytes = rd > 0 ? wr * r->read_bytes / rd : 0;
		jrd += r->read_bytes;
		jwr += r->write_bytes;
	}
	struct uncore_attrib_row *r = &a->rows[a->nrows++];
	*r = (struct uncore_attrib_row){ .socket = k, .seconds = secs, .sampled = 1, .socket_read_bytes = rd,
					 .socket_write_bytes = wr };
	r->read_bytes = rd - jrd > 0 ? rd - jrd : 0;
	r->write_bytes = wr - jwr > 0 ? wr - jwr : 0;
	free(est), free(cov), free(held), free(shared);
	return 0;
}

int uncore_attrib_read(uncore_attrib_t *a, int window)
{
	if (!a->tot)
		return uc_err("per-job attribution: not started");
	if (window != UNCORE_SINCE_START && window != UNCORE_LAST_INTERVAL)
		return uc_err("per-job attribution: window %d is neither UNCORE_SINCE_START nor UNCORE_LAST_INTERVAL", window);
	/* the step so far counts too: end it and, while running, begin the next (a box of tot dropped: its
	 * socket's rows left out below) */
	if (a->running) {
		int rc = step_end(a);
		if (!rc && (rc = uncore_session_read(a->tot)) == UNCORE_BOX_FAILED)
			rc = 0;
		if (rc || step_begin(a))
			return -1;
	}
	int nsock = a->u->host.nsockets < UC_MAX_SOCKETS ? a->u->host.nsockets : UC_MAX_SOCKETS;
	uint64_t now = uncore_session_elapsed_ns(a->tot);
	double secs = (double)(window == UNCORE_SINCE_START ? now : now - a->read_ns) / 1e9;
	free(a->rows);
	a->nrows = 0;
	if (!(a->rows = calloc((size_t)(nsock * (a->njobs + 1)), sizeof(*a->rows))))
		return uc_err("out of memory");
	a->lost = 0;
	for (int k = 0; k < nsock; k++) {
		int rc = socket_rows(a, k, window, secs);
		if (rc < 0)
			return -1;
		a->lost |= (unsigned)rc << k;
	}
	for (int i = 0; i < a->nthr; i++) /* the next interval starts now, whichever window was read */
		for (int d = 0; d < UC_MAX_DIES; d++)
			a->thr[i].cnt[d][1] = a->thr[i].ns[d][1] = 0;
	a->read_ns = now;
	return a->nrows;
}

uint64_t uncore_attrib_read_time_ns(const uncore_attrib_t *a)
{
	return a->tot ? uncore_session_metric_read_time_ns(a->tot, 0, 0, -1) : 0;
}

int uncore_attrib_row(const uncore_attrib_t *a, int i, struct uncore_attrib_row *out)
{
	if (i < 0 || i >= a->nrows)
		return uc_err("no attribution row %d (the last read made %d)", i, a->nrows);
	*out = a->rows[i];
	return 0;
}

int uncore_attrib_stop(uncore_attrib_t *a)
{
	if (!a->running)
		return 0;
	int rc = step_end(a);
	if (uncore_session_stop(a->tot) < 0)
		rc = -1;
	a->running = 0;
	return rc;
}

void uncore_attrib_free(uncore_attrib_t *a)
{
	if (!a)
		return;
	uncore_attrib_stop(a);
	uncore_session_free(a->samp);
	uncore_session_free(a->tot);
	free(a->samp_thr);
	free(a->samp_dom);
	for (int k = 0; k < UC_MAX_SOCKETS; k++)
		free(a->start[k]);
	free(a->thr);
	free(a->job);
	free(a->cpus);
	free(a->rows);
	free(a);
}

/* The jobs' cores as the per-job object's first source (perjob.c): each socket's job rows and the rest. */
static int src_plan(uncore_t *u, void **ctx)
{
	uncore_attrib_t *a = NULL;
	int rc = uncore_attrib_new(u, &a);
	*ctx = a;
	return rc;
}

static int src_start(void *ctx) { return uncore_attrib_start(ctx); }
static int src_step(void *ctx) { return uncore_attrib_step(ctx); }
static int src_stop(void *ctx) { return uncore_attrib_stop(ctx); }
static void src_free(void *ctx) { uncore_attrib_free(ctx); }

static int src_read(void *ctx, int window, struct perjob_rows *rows)
{
	struct uncore_attrib *a = ctx;
	if (uncore_attrib_read(a, window) < 0)
		return -1;
	rows->t_ns = uncore_attrib_read_time_ns(a);
	rows->lost |= a->lost;
	return perjob_rows_add(rows, a->rows, a->nrows);
}

const struct perjob_source attrib_source = { "cores", src_plan, src_start, src_step, src_read, src_stop, src_free };
