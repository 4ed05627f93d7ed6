/*
 * Killed at any instant: a process counting the default metric set (the
 * collectd plugin's groups) on a machine shared through a file is killed
 * with SIGKILL just before its Nth register access (the simulator's
 * kill_at=N), for N from the first access of its start to the last of its
 * stop.  After each kill the next session must start on the same boxes
 * without force, and once it ends every box must hold the values the machine
 * began with and the claims file no record.
 *
 * make check tries a sample of the kill points of SNB-EP and EMR;
 * `make crash-check` (IU_CRASH_ALL=1) tries every one and prints
 * "N kill points, 0 boxes left programmed".
 */
#include <sys/wait.h>
#include "sim_helpers.h"

#define SAMPLE_POINTS 100 /* per platform in make check: spread evenly, with both ends */

static const char *const groups[] = { "memory", "llc", "interconnect", "clock" };

static char shm[300], claims_path[320];

/* Every metric of the default groups into a new session. */
static uncore_session_t *default_set(uncore_t *u)
{
	uncore_session_t *s;
	if (uncore_session_new(u, &s))
		return NULL;
	for (int m = 0; m < uncore_num_metrics(u); m++) {
		struct uncore_metric_info mi;
		if (uncore_metric_info(u, m, &mi))
			continue;
		for (size_t g = 0; g < sizeof(groups) / sizeof(*groups); g++)
			if (mi.group && !strcmp(mi.group, groups[g]) && uncore_session_add_metric(s, mi.name) < 0) {
				uncore_session_free(s);
				return NULL;
			}
	}
	return s;
}

/* One whole run: open, start, read, stop.  0, or -1 with the library's reason. */
static int run(const char *spec, uint64_t *opened, uint64_t *stopped)
{
	uncore_t *u;
	if (uncore_open(spec, &u))
		return -1;
	if (opened)
		*opened = sim_of(u->acc)->accesses;
	uncore_session_t *s = default_set(u);
	int rc = !s || uncore_session_start(s) || uncore_session_read(s) || uncore_session_stop(s) ? -1 : 0;
	if (stopped)
		*stopped = sim_of(u->acc)->accesses;
	uncore_session_free(s);
	uncore_close(u);
	return rc;
}

/* Registers that differ from a fresh machine, seen by a process that only looks. */
static int changed(const char *spec, char *why, size_t len)
{
	uncore_t *u;
	if (uncore_open(spec, &u))
		return -1;
	int n = sim_changed_registers(sim_of(u->acc), why, len);
	uncore_close(u);
	return n;
}

static int total_points, total_left;

/* Kill a run before access n; then the next session must run clean.  Returns 1 when the run was killed,
 * 0 when it ended first, -1 when something failed (printed); *left: boxes left programmed after it. */
static int kill_point(const char *spec, uint64_t n, int *left)
{
	char kspec[512], why[160];
	snprintf(kspec, sizeof(kspec), "%s,kill_at=%llu", spec, (unsigned long long)n);
	*left = 0;
	fflush(NULL);
	pid_t pid = fork();
	if (pid == 0)
		_exit(run(kspec, NULL, NULL) ? 3 : 0);
	*exit_files_child() = pid; /* a signal ending the test kills it before removing the machine's files */
	int st = 0;
	waitpid(pid, &st, 0);
	*exit_files_child() = 0;
	int killed = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
	if (!killed && !(WIFEXITED(st) && WEXITSTATUS(st) == 0)) {
		fprintf(stderr, "  kill point %llu: the run failed on its own (status 0x%x)\n", (unsigned long long)n, st);
		return -1;
	}
	if (run(spec, NULL, NULL)) {
		fprintf(stderr, "  kill point %llu: the next session: %s\n", (unsigned long long)n, uncore_error());
		return -1;
	}
	int c = changed(spec, why, sizeof(why)), r = claims_records(claims_path);
	if (c || r) {
		fprintf(stderr, "  kill point %llu: %d boxes left programmed (first: %s), %d records left\n",
			(unsigned long long)n, c, c > 0 ? why : "-", r);
		*left = c > 0 ? c : 0;
		return -1;
	}
	return killed;
}

static void sweep(const char *platform)
{
	char spec[400];
	uint64_t opened = 0, stopped = 0, lo = ~0ull, hi = 0;
	int all = getenv("IU_CRASH_ALL") != NULL;
	snprintf(shm, sizeof(shm), "%s/uncore-crash-%d", test_tmpdir(), (int)getpid());
	snprintf(claims_path, sizeof(claims_path), "%s%s", shm, claims_ext());
	unlink(shm);
	unlink(claims_path);
	snprintf(spec, sizeof(spec), "sim:%s,shared=%s", platform, shm);
	/* the accesses of a whole run: a box read the scheduler slowed is repeated, so the fewest of three */
	for (int i = 0; i < 3; i++) {
		int rc = run(spec, &opened, &stopped);
		if (rc)
			fprintf(stderr, "%s: %s\n", spec, uncore_error());
		CU_ASSERT_FATAL(rc == 0);
		lo = opened + 1 < lo ? opened + 1 : lo;
		hi = i == 0 || stopped < hi ? stopped : hi;
	}
	CU_ASSERT_FATAL(hi > lo);
	uint64_t span = hi - lo + 1, step = all || span <= SAMPLE_POINTS ? 1 : span / (SAMPLE_POINTS - 1);
	int points = 0, killed = 0, failed = 0, left = 0;
	for (uint64_t n = lo; failed <= 5; n = n + step > hi ? hi : n + step) { /* the first few say what is wrong */
		int l, r = kill_point(spec, n, &l);
		points++;
		left += l;
		failed += r < 0;
		killed += r > 0;
		if (n == hi)
			break;
	}
	printf("\n  %s: accesses %llu to %llu (start, read, stop): %d kill points, %d boxes left programmed, "
	       "%d runs killed, %d failed\n", platform, (unsigned long long)lo, (unsigned long long)hi, points, left,
	       killed, failed);
	CU_ASSERT_EQUAL(failed, 0);
	CU_ASSERT_EQUAL(left, 0);
	CU_ASSERT(killed * 10 >= points * 9); /* the points lie inside a run: the kills happened */
	total_points += points;
	total_left += left;
	unlink(shm);
	unlink(claims_path);
}

static void test_snbep(void) { sweep("snbep"); }
static void test_emr(void) { sweep("emr"); }

int main(void)
{
	static const struct test_case tests[] = {
		{ "killed at a register access of a start or a stop (SNB-EP default metric set)", test_snbep },
		{ "killed at a register access of a start or a stop (EMR default metric set)", test_emr },
		{ NULL, NULL },
	};
	remove_at_exit(shm, claims_path); /* a fatal assertion ends a test before its own cleanup */
	int rc = run_suite("crash", tests);
	printf("%d kill points, %d boxes left programmed\n", total_points, total_left);
	return rc;
}
