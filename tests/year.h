/* What the simulated years of the daemons share (issue 99 point 3, tests/test_*_year.c), front-end neutral: the
 * many-jobs fixture with a low-power profile, the jobs coming and going (hostile ones among them, each warning
 * counted), the truth carried over the machines a year runs on, the node changing under the daemon, the
 * process's RSS and open files. */
#ifndef TEST_YEAR_H
#define TEST_YEAR_H

#include <dirent.h>
#include <limits.h>
#include <malloc.h>
#ifdef __SANITIZE_ADDRESS__
/* the sanitizers' runtime's (LLVM's sanitizer/allocator_interface.h, which gcc does not ship) */
size_t __sanitizer_get_current_allocated_bytes(void);
#endif
#include "many_jobs.h"
#include "sim_truth.h"
#include "year_proc.h"

#define DAY 86400.0
#define YEAR (365 * DAY)
#define YEAR_JOBS 100000
#define YEAR_LIVE 100
#define YEAR_READS 365 /* a read every simulated day */

/* The low power of the year's profile: every RAPL counter wraps (prewrap) and then every day or two, at most once
 * between two reads (skx: 2^32 units of 2^-14 J for the package, of 2^-16 J for DRAM). */
static inline void year_profile(void)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/profile", dir);
	FILE *f = fopen(path, "a");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "pkg_watts = 2\ndram_idle_watts = 0.3\ndram_watts_per_gbps = 0.005\n");
	fclose(f);
}

/* The jobs of a read: per_read of the oldest go and as many new ones come (CPUs 0-34 in turn), up to YEAR_JOBS
 * in all; every fifth read from the fourth a job whose cgroup names no CPU comes (bad<n>, n counted in nbad),
 * seven reads later it goes: two of them stand at once for two reads of every five (a warning each, said once
 * while it stands however the other comes and goes), and one stands at the year's half (a reload's). */
#define YEAR_BAD_MAX (YEAR_READS / 5 + 1)
static inline void year_jobs(int r, int per_read, int *oldest, int *next_job, int *nbad)
{
	char id[16], cpu[8];
	for (int k = 0; k < per_read && *next_job < YEAR_JOBS; k++, (*oldest)++, (*next_job)++) {
		snprintf(id, sizeof(id), "%d", 10000000 + *oldest);
		job_rm(id);
		snprintf(id, sizeof(id), "%d", 10000000 + *next_job);
		snprintf(cpu, sizeof(cpu), "%d", *next_job % 35);
		job_put(id, cpu);
	}
	if (r % 5 == 3) {
		snprintf(id, sizeof(id), "bad%d", (*nbad)++);
		job_put(id, "garbage");
	}
	if (r % 5 == 0 && r >= 10) {
		snprintf(id, sizeof(id), "bad%d", (r - 10) / 5);
		job_rm(id);
	}
}

/* What a year is checked against: the truth of the simulated machines it ran on.  On the manual clock each
 * handle the daemon opens is a machine of its own, from its clock's 0 (a reload, a node's change): its truth adds
 * to the others'.  year_truth_start when the daemon's handle is new, year_truth_add at its last read (before the
 * daemon lets it go: on the manual clock, whose accesses take no time, the instant of the step that lets it go). */
struct year_truth {
	double mem[2][2];    /* socket, read/write: bytes */
	double energy[2][2]; /* socket, pkg/dram: joules */
	double end_job;      /* job 19999998's bytes */
	double e0[2][2], t0; /* the running machine's at its start */
	double stop[2];      /* > 0: from this instant of the running machine the socket's memory bytes are not the
			      * daemon's (another agent took its boxes: year_takeover) */
};

static inline void year_truth_start(struct year_truth *tr, struct sim *sim)
{
	tr->t0 = (double)sim_now(sim) / 1e9;
	for (int s = 0; s < 2; s++)
		for (int d = 0; d < 2; d++)
			tr->e0[s][d] = truth_energy_j(sim, s, d);
}

static inline void year_truth_add(struct year_truth *tr, struct sim *sim)
{
	double dt = (double)sim_now(sim) / 1e9 - tr->t0;
	for (int s = 0; s < 2; s++) {
		tr->mem[s][0] += truth_of(sim, "mem_bw_read", s).v * 1e9 * dt; /* (GB/s) */
		tr->mem[s][1] += truth_of(sim, "mem_bw_write", s).v * 1e9 * dt;
		for (int d = 0; d < 2; d++)
			tr->energy[s][d] += truth_energy_j(sim, s, d) - tr->e0[s][d];
	}
	tr->end_job += END_BPS * dt;
	for (int s = 0; s < 2; s++)
		if (tr->stop[s] > 0) { /* (none of them counted until the daemon let the machine go) */
			double lost = (double)sim_now(sim) / 1e9 - tr->stop[s];
			tr->mem[s][0] -= truth_of(sim, "mem_bw_read", s).v * 1e9 * lost;
			tr->mem[s][1] -= truth_of(sim, "mem_bw_write", s).v * 1e9 * lost;
			tr->stop[s] = 0;
		}
}

/* A total against its truth, within tol: both said, the test failed where they differ by more. */
static inline void year_near(const char *what, double v, double want, double tol)
{
	int ok = fabs(v - want) <= tol;
	fprintf(stderr, "%s: %.17g, truth %.17g%s\n", what, v, want, ok ? "" : " FAIL");
	CU_ASSERT(ok);
}

/* Another agent (a perf user, a second tool) reprograms every iMC box of socket 0 at read YEAR_TAKEOVER + 1 (the
 * simulator's fault agent, due from the instant at: sim_take_boxes), and is gone by the node's change at
 * YEAR_TAKEN_END (the new handle's machine has no agent).  The truth in that window, as the daemons have it:
 * socket 0's memory total is its own bytes up to the strike; the agent's event counts nothing on the simulated
 * iMC, and the reads until the control words' rotation reads a struck box back (doc/cost.md: a few) report the
 * total standing; from then it is not reported, and after the change it resumes from what it had (year_taken).
 * The per-job attribution leaves socket 0 out from the strike (its jobs' bytes there are not known) and counts
 * socket 1's on: the year-long job (CPU 35) exact throughout, every job followed, each warning said once.
 * year_truth_add leaves the window out of socket 0's total; the other socket, the energy and the stamps stay
 * exact throughout. */
#define YEAR_TAKEOVER 70
#define YEAR_TAKEN_END 100 /* (the device's removal: year_changes) */
/* What a daemon did of the takeover: found, the read that found it; wrong, the reads that did not report socket 0's
 * total as year_taken_at says; said[i], the times the log named iMC i taken (year_taken_line), of nboxes taken. */
#define YEAR_TAKEN_MAX 16
struct year_taken {
	int found, wrong, nboxes;
	double at_strike;
	int said[YEAR_TAKEN_MAX];
};

static inline void year_takeover(struct year_truth *tr, struct year_taken *k, struct sim *sim, uint64_t at)
{
	k->nboxes = sim_take_boxes(sim, "imc", 0, at);
	CU_ASSERT_FATAL(k->nboxes > 0 && k->nboxes <= YEAR_TAKEN_MAX);
	tr->stop[0] = (double)at / 1e9;
}

/* Socket 0's memory total as a daemon reports it at read r (have: reported, v its value), against the takeover's
 * truth: reported and standing from the strike until the read that finds the boxes taken, not reported from then
 * to the change, reported again after it. */
static inline void year_taken_at(struct year_taken *k, int r, int have, double v)
{
	if (r == YEAR_TAKEOVER + 1)
		k->at_strike = v;
	if (!k->found && r > YEAR_TAKEOVER && !have)
		k->found = r;
	int taken = k->found && r < YEAR_TAKEN_END;
	if ((have == taken || (r > YEAR_TAKEOVER && !k->found && v != k->at_strike)) && k->wrong++ < 3)
		fprintf(stderr, "read %d: socket 0's memory %.17g %s\n", r, v, have ? "reported" : "not reported");
}

/* A line of the daemon's log that says the takeover (the library's "taken over by another agent ...: imc N (socket
 * 0) <what changed>; imc M (socket 0) ...; their counts ...", as many as it names): each box it names counted. */
static inline void year_taken_line(struct year_taken *k, const char *line)
{
	static const char said[] = "taken over by another agent (a perf user, a second tool): ";
	int i, sock;
	for (const char *at = line; (at = strstr(at, said)); at++)
		for (const char *b = at + strlen(said); sscanf(b, "imc %d (socket %d)", &i, &sock) == 2; b += 2) {
			if (!sock && i >= 0 && i < YEAR_TAKEN_MAX)
				k->said[i]++;
			if (!(b = strstr(b, "; ")))
				break;
		}
}

/* Found within two reads of the strike, every read as year_taken_at says, every box taken said, and none twice
 * (the library says the takeover's head once over each box's change, so a socket's six fit a log line) */
static inline void year_taken_check(const struct year_taken *k)
{
	int named = 0, again = 0;
	for (int i = 0; i < YEAR_TAKEN_MAX; i++) {
		named += k->said[i] > 0;
		again += k->said[i] > 1;
	}
	fprintf(stderr, "the takeover found at read %d (struck at %d); %d reads against its truth; %d of the %d boxes "
		"named taken, %d of them more than once\n", k->found, YEAR_TAKEOVER + 1, k->wrong, named, k->nboxes, again);
	CU_ASSERT(k->found > YEAR_TAKEOVER && k->found <= YEAR_TAKEOVER + 3 && k->wrong == 0 && named == k->nboxes &&
		  again == 0);
}

/* The wall clock (CLOCK_REALTIME as the daemon's library reads it) is the simulator's, set by the changes file
 * ("realtime"): YEAR_EPOCH at the year's start, an hour back before read YEAR_STEP_BACK (a step of NTP), and set
 * to what it was wherever the daemon is about to open a new machine (whose clock starts at 0), for it to go on. */
#define YEAR_EPOCH 1767225600ull /* 2026-01-01 00:00 UTC */
#define YEAR_STEP_BACK 290
#define YEAR_BACK_NS 3600000000000ull

static inline void year_wall_set(uint64_t ns)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/changes", dir);
	FILE *f = fopen(path, "a");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "realtime %llu.%09llu\n", (unsigned long long)(ns / 1000000000u), (unsigned long long)(ns % 1000000000u));
	fclose(f);
}

/* The wall clock of the daemon's machine now (set at the start: year_wall_set(YEAR_EPOCH * 1e9) first). */
static inline uint64_t year_wall_ns(struct sim *sim) { return sim->wall_ns + (sim_now(sim) - sim->wall_at); }

/* The stamps a daemon sends one counter with, at each read: never back (a stamp older than the last is refused:
 * collectd's "value too old", Prometheus' out of order), and the rate over two of them a day or so apart the
 * truth's within the library's slew (UNCORE_WALL_SLEW) and the counter's rounding: no spike, never negative. */
struct year_stamps {
	uint64_t t;
	double v, worst;
	int n, back, off;
};

static inline void year_stamp_at(struct year_stamps *ys, uint64_t t_ns, double v, double truth_rate)
{
	if (ys->n && (t_ns < ys->t || (t_ns == ys->t && v != ys->v)) && ys->back++ < 3)
		fprintf(stderr, "a stamp back: %llu after %llu (value %.17g after %.17g)\n", (unsigned long long)t_ns,
			(unsigned long long)ys->t, v, ys->v);
	if (ys->n && t_ns > ys->t + YEAR_BACK_NS) {
		double rate = (v - ys->v) / ((double)(t_ns - ys->t) / 1e9), dev = fabs(rate / truth_rate - 1);
		ys->worst = dev > ys->worst ? dev : ys->worst;
		if (dev > UNCORE_WALL_SLEW / (1 - UNCORE_WALL_SLEW) + 1e-9 && ys->off++ < 3)
			fprintf(stderr, "a rate over the stamps %.17g, the truth %.17g\n", rate, truth_rate);
	}
	ys->t = t_ns;
	ys->v = v;
	ys->n++;
}

static inline void year_stamps_check(const struct year_stamps *ys)
{
	fprintf(stderr, "%d stamps: %d back, %d rates off the truth by more than the slew (the worst %.3g)\n", ys->n,
		ys->back, ys->off, ys->worst);
	CU_ASSERT(ys->n >= YEAR_READS && ys->back == 0 && ys->off == 0);
}

/* The node changing under the daemon (the simulator's changes=FILE, common/sim/sim_changes.c): the file the spec
 * names (year_changes_spec adds it), the changes of the year at their reads, and what the daemon says of each
 * ("the node changed (KIND)...": one line a change).  A change of the kernel's uncore PMUs is a perf backend's:
 * on sim:skx's direct access nothing reads their type numbers, and nothing is said (what is checked there: that
 * the reload disturbs nothing).  The device is one the daemon's handle maps (year_device). */
struct year_change {
	int read;
	const char *line; /* %s: the device's BDF */
	const char *said; /* the kind the daemon says, NULL none */
};
static const struct year_change year_changes[] = {
	{ 40, "cpu 5 offline", "cpus" },   { 61, "cpu 5 online", "cpus" },   { 100, "device %s remove", "devices" },
	{ 131, "device %s add", "devices" }, { 250, "pmu reload", NULL },
};
#define YEAR_NCHANGES (int)(sizeof(year_changes) / sizeof(year_changes[0]))

static inline void year_changes_spec(char *spec, size_t len)
{
	size_t n = strlen(spec);
	snprintf(spec + n, len - n, ",changes=%s/changes", dir);
}

/* The changes due at read r written (before the daemon's read of it, on machine sim): how many the daemon follows
 * (each opens a new handle, a new machine: the truth carried over it as at a reload).  With them the
 * wall clock as it is (the new machine a change opens goes on from it), and before YEAR_STEP_BACK an hour back. */
static inline int year_change_due(int r, const char *bdf, struct sim *sim)
{
	char path[700];
	int n = 0, wrote = 0;
	snprintf(path, sizeof(path), "%s/changes", dir);
	for (int i = 0; i < YEAR_NCHANGES; i++)
		if (year_changes[i].read == r) {
			FILE *f = fopen(path, "a");
			CU_ASSERT_FATAL(f != NULL);
			fprintf(f, year_changes[i].line, bdf);
			fputc('\n', f);
			fclose(f);
			n += year_changes[i].said != NULL;
			wrote = 1;
		}
	if (wrote || r == YEAR_STEP_BACK)
		year_wall_set(year_wall_ns(sim) - (r == YEAR_STEP_BACK ? YEAR_BACK_NS : 0));
	return n;
}

/* A PCI device of u's map alone in its group (a NIC, an NVMe): its BDF into bdf. */
static inline void year_device(uncore_t *u, char *bdf, size_t len)
{
	struct uncore_device_group gi;
	struct uncore_device d;
	int g = 0;
	while (g < uncore_num_device_groups(u) && (uncore_device_group_info(u, g, &gi) || gi.ndevices != 1))
		g++;
	CU_ASSERT_FATAL(g < uncore_num_device_groups(u) && uncore_device_info(u, g, 0, &d) == 0);
	snprintf(bdf, len, "%s", d.bdf);
}

/* A line of the daemon's log: the kind of a change it says appended to said ("cpus;devices;..."). */
static inline void year_change_said(const char *line, char *said, size_t len)
{
	const char *at = strstr(line, "the node changed (");
	if (!at)
		return;
	at += strlen("the node changed (");
	size_t n = strlen(said), k = strcspn(at, ")");
	snprintf(said + n, len - n, "%.*s;", (int)k, at);
}

/* What the year's changes should be said as. */
static inline void year_change_want(char *want, size_t len)
{
	want[0] = 0;
	for (int i = 0; i < YEAR_NCHANGES; i++)
		if (year_changes[i].said) {
			size_t n = strlen(want);
			snprintf(want + n, len - n, "%s;", year_changes[i].said);
		}
}

/* RSS over a year of phases (a start, a reload): the peak of each phase's warm-up (WARM reads), its end, and the
 * noise: how far RSS moved over the second half of the first warm-up, jobs coming and going. */
#define YEAR_WARM (YEAR_READS / 20)
struct year_rss {
	long peak[2], end[2], lo, hi;
	int fds_warm;
	size_t used_half, used_end; /* the allocator's bytes in use half-way (every restart of phase 0 behind) and at the end */
};

/* The bytes the allocator has given out and not had back: glibc's, or under ASan (which replaces it) its own,
 * the quarantine of what was freed not among them. */
static inline size_t year_in_use(void)
{
#ifdef __SANITIZE_ADDRESS__
	return __sanitizer_get_current_allocated_bytes();
#else
	return mallinfo2().uordblks;
#endif
}

static inline void year_rss_at(struct year_rss *y, int phase, int since)
{
	long rss = year_rss_kb();
	if (!y->lo)
		y->lo = LONG_MAX;
	if (since < YEAR_WARM && rss > y->peak[phase])
		y->peak[phase] = rss;
	if (!phase && since >= YEAR_WARM / 2 && since < YEAR_WARM) {
		y->lo = rss < y->lo ? rss : y->lo;
		y->hi = rss > y->hi ? rss : y->hi;
	}
	if (!phase && since == YEAR_WARM)
		y->fds_warm = year_fds();
	y->end[phase] = rss;
	size_t used = year_in_use();
	if (!y->used_half && since + (phase ? YEAR_READS / 2 : 0) >= YEAR_READS / 2 - 10)
		y->used_half = used;
	y->used_end = used;
}

/* Each phase ends within its warm-up's peak and the larger of twice the noise and 4 bytes for each job that came
 * and went in the phase, and YEAR_RESTART_KB for each time the daemon opened its handle again after the warm-up
 * (restarts[p]: the node's changes): a leak of 4 bytes a job or more fails, fragmentation's steps (measured: up to
 * 64 kB over a phase, and 100 to 220 kB a restart, the bytes in use flat) do not.  The bytes the allocator has in
 * use, which no fragmentation moves, are held to the same 4 bytes a job over the year's second half, every
 * restart but the reload behind: under ASan too (its allocator's count), where they catch what LeakSanitizer does
 * not, memory that grows while it is still reachable.  RSS is not held under ASan, whose quarantine holds what is
 * freed (RSS grows by design).  Open files: as many at the end (fds, counted then) as after the first warm-up. */
#define YEAR_RESTART_KB 320
static inline void year_rss_check(const struct year_rss *y, int phases, const int *restarts, int fds)
{
	long noise = 2 * (y->hi - y->lo), per_job = (long)(4.0 * YEAR_JOBS / phases / 1024);
	long room = noise > per_job ? noise : per_job;
	for (int p = 0; p < phases; p++) {
		long bound = y->peak[p] + room + restarts[p] * YEAR_RESTART_KB;
		fprintf(stderr, "RSS, phase %d: %ld kB at most over its warm-up, %ld kB at its end (bound %ld: the noise "
			"%ld, 4 B a job %ld, %d restarts)\n", p, y->peak[p], y->end[p], bound, noise, per_job, restarts[p]);
#ifndef __SANITIZE_ADDRESS__
		CU_ASSERT(y->end[p] <= bound);
#endif
	}
	size_t used_room = (size_t)(4.0 * YEAR_JOBS / 2) + (64u << 10);
	fprintf(stderr, "in use: %zu B half-way, %zu B at the end (bound %zu)\n", y->used_half, y->used_end,
		y->used_half + used_room);
	CU_ASSERT(y->used_end <= y->used_half + used_room);
	fprintf(stderr, "open files %d after the warm-up, %d at the end\n", y->fds_warm, fds);
	CU_ASSERT(fds == y->fds_warm);
}

/* The log's lines that say bad job n's warning (after what), each bad job's count in said[n]. */
static inline void year_count_bad(const char *line, const char *what, int *said, int nbad)
{
	const char *at = strstr(line, "job bad");
	if (at && strstr(line, what)) {
		int n = atoi(at + 7);
		if (n >= 0 && n < nbad)
			said[n]++;
	}
}

/* Each bad job's warning said once: how many were not. */
static inline int year_said_once(const int *said, int nbad)
{
	int wrong = 0;
	for (int n = 0; n < nbad; n++)
		if (said[n] != 1 && wrong++ < 3)
			fprintf(stderr, "the warning of job bad%d said %d times\n", n, said[n]);
	fprintf(stderr, "%d bad jobs, %d warnings not said once\n", nbad, wrong);
	return wrong;
}

#endif
