/*
 * Issue 66 point 4: the per-job object every front end calls (uncore_perjob_*), on its own.  A simulated SPR
 * whose profile runs three jobs' traffic and 5 GB/s of DMA on socket 0 (common/sim/sim_jobs.c) while the
 * batch system's view of the node (the Slurm cgroup tree below UNCORE_SYSROOT) changes between reads: a job
 * comes, a job goes.  Each time the object starts over on the new set, the tally keeps the counts of the
 * jobs that stay, a new job counts from its start, a job that left goes, and every share is the
 * simulator's truth: a job's bytes its profile rate times the seconds it was in the set, the unattributed
 * bytes the DMA and the traffic of the CPUs no job in the set holds.
 */
#include <stdlib.h>
#include "job_tree.h"

/* The profile's rates (bytes/s read) and the CPUs of the jobs the cgroup tree names 101, 102 and 103. */
#define A_BPS 30e9
#define B_BPS 60e9
#define C_BPS 10e9
#define DMA_BPS 5e9
static const char *const cpus[] = { "0-13", "14-27,56-69", "70-83" };

static void put(const char *rel, const char *text)
{
	char path[600];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	for (char *s = strchr(path + strlen(dir) + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		mkdir(path, 0700);
		*s = '/';
	}
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	fclose(f);
}

static void job_in(int id)
{
	char rel[200], text[64];
	snprintf(rel, sizeof(rel), "%s/job_%d/cpuset.cpus.effective", v2, id);
	snprintf(text, sizeof(text), "%s\n", cpus[id - 101]);
	put(rel, text);
}

/* s seconds as the front ends run them: a step every 100 ms, a read of the last interval each second into
 * t (each read's rows adding up to the sockets' memory controllers' count), the job set followed after it:
 * what the last follow returned (0 the same set, 1 started over, -1 failed). */
static int run(uncore_t *u, uncore_perjob_t *p, struct uncore_job_tally *t, int s)
{
	int followed = 0;
	for (int i = 0; i < s; i++) {
		second_of_steps(u, p);
		int n = uncore_perjob_read(p, UNCORE_LAST_INTERVAL, t);
		CU_ASSERT_FATAL(n > 0);
		double rows[2] = { 0, 0 }, mc[2] = { 0, 0 };
		for (int r = 0; r < n; r++) {
			struct uncore_attrib_row row;
			CU_ASSERT_FATAL(uncore_perjob_row(p, r, &row) == 0);
			rows[row.socket] += row.read_bytes;
			mc[row.socket] = row.socket_read_bytes;
		}
		for (int k = 0; k < 2; k++)
			CU_ASSERT(fabs(rows[k] - mc[k]) <= 1e-9 * mc[k] + 1);
		CU_ASSERT(uncore_perjob_read_time_ns(p) > 0);
		followed = uncore_perjob_follow(p, t);
	}
	return followed;
}

static void test_lifecycle(void)
{
	char spec[600];
	snprintf(dir, sizeof(dir), "%s/uncore-lifecycle-%d", test_tmpdir(), (int)getpid());
	CU_ASSERT_FATAL(mkdir(dir, 0700) == 0);
	char prof[400];
	snprintf(prof, sizeof(prof), "job.a.cpus = %s\njob.a.mem_read_bytes_per_s = %g\njob.b.cpus = %s\n"
		 "job.b.mem_read_bytes_per_s = %g\njob.c.cpus = %s\njob.c.mem_read_bytes_per_s = %g\n"
		 "socket0.dma_read_bytes_per_s = %g\n", cpus[0], A_BPS, cpus[1], B_BPS, cpus[2], C_BPS, DMA_BPS);
	put("profile", prof);
	job_in(101);
	job_in(102);
	setenv("UNCORE_SYSROOT", dir, 1);
	snprintf(spec, sizeof(spec), "sim:spr,clock=manual,profile=%s/profile", dir);
	uncore_t *u = open_sim(spec);
	uncore_perjob_t *p = NULL;
	struct uncore_job_tally t = { 0 };
	CU_ASSERT_FATAL(uncore_perjob_new(u, &p) == 0);
	CU_ASSERT(!uncore_perjob_started(p));
	CU_ASSERT(uncore_perjob_read(p, UNCORE_LAST_INTERVAL, &t) == -1 && strstr(uncore_error(), "not started"));

	/* two jobs: the third's CPUs are no job's, their bytes unattributed with the DMA */
	CU_ASSERT_FATAL(uncore_perjob_start(p, &t) == 0);
	CU_ASSERT(uncore_perjob_started(p));
	CU_ASSERT_EQUAL(t.n, 2);
	CU_ASSERT(tallied(&t, "101") == 0 && tallied(&t, "102") == 0);
	CU_ASSERT_EQUAL(run(u, p, &t, 5), 0);
	CU_ASSERT(near("job 101, 5 s", tallied(&t, "101"), A_BPS * 5));
	CU_ASSERT(near("job 102, 5 s", tallied(&t, "102"), B_BPS * 5));
	CU_ASSERT(near("unattributed, 5 s (job c's CPUs, the DMA)", t.unattributed_read, (C_BPS + DMA_BPS) * 5));

	/* job 103 comes: the read after it is the old set's, then the object starts over on three jobs */
	job_in(103);
	CU_ASSERT_EQUAL(run(u, p, &t, 1), 1);
	CU_ASSERT_EQUAL(t.n, 3);
	CU_ASSERT(tallied(&t, "103") == 0); /* it counts from the start over, not from the scan */
	CU_ASSERT(near("job 101 kept its count", tallied(&t, "101"), A_BPS * 6));
	double un = t.unattributed_read;
	CU_ASSERT_EQUAL(run(u, p, &t, 5), 0);
	CU_ASSERT(near("job 103, its 5 s", tallied(&t, "103"), C_BPS * 5));
	CU_ASSERT(near("job 101, 11 s", tallied(&t, "101"), A_BPS * 11));
	CU_ASSERT(near("job 102, 11 s", tallied(&t, "102"), B_BPS * 11));
	CU_ASSERT(near("unattributed, the DMA alone since", t.unattributed_read - un, DMA_BPS * 5));

	/* job 101 goes: its entry goes, its CPUs' bytes are no job's from then on */
	job_rm("101");
	CU_ASSERT_EQUAL(run(u, p, &t, 1), 1);
	CU_ASSERT_EQUAL(t.n, 2);
	CU_ASSERT(isnan(tallied(&t, "101")));
	un = t.unattributed_read;
	CU_ASSERT_EQUAL(run(u, p, &t, 5), 0);
	CU_ASSERT(near("job 102, 17 s", tallied(&t, "102"), B_BPS * 17));
	CU_ASSERT(near("job 103, 11 s", tallied(&t, "103"), C_BPS * 11));
	CU_ASSERT(near("unattributed, job a's CPUs and the DMA since", t.unattributed_read - un, (A_BPS + DMA_BPS) * 5));

	/* stopped, the last rows may still be read (stat --per-job's end): since the last start, 5 s */
	CU_ASSERT(uncore_perjob_stop(p) == 0);
	int n = uncore_perjob_read(p, UNCORE_SINCE_START, NULL);
	CU_ASSERT(n > 0);
	double b = 0;
	for (int r = 0; r < n; r++) {
		struct uncore_attrib_row row;
		if (!uncore_perjob_row(p, r, &row) && !strcmp(row.job, "102"))
			b += row.read_bytes;
	}
	CU_ASSERT(near("job 102 since the last start", b, B_BPS * 5));
	uncore_perjob_free(p);
	uncore_job_tally_free(&t);
	uncore_close(u);
	unsetenv("UNCORE_SYSROOT");
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
}

/* Where the platform counts no thread's misses (Nehalem-EP's uncore: no CBo, no thread filter) the start fails
 * naming why, nothing counts, the tally keeps what it had, and the next start tries again. */
static void test_no_attribution(void)
{
	uncore_t *u = open_sim("sim:nhm,clock=manual");
	uncore_perjob_t *p = NULL;
	struct uncore_job_tally t = { 0 };
	CU_ASSERT_FATAL(uncore_perjob_new(u, &p) == 0);
	CU_ASSERT(uncore_perjob_start(p, &t) == -1);
	CU_ASSERT(strstr(uncore_error(), "no known per-thread count") != NULL);
	CU_ASSERT(!uncore_perjob_started(p) && !uncore_perjob_started(NULL));
	CU_ASSERT_EQUAL(uncore_perjob_follow(p, &t), 0);
	CU_ASSERT(uncore_perjob_step(p) == -1);
	CU_ASSERT(uncore_perjob_start(p, &t) == -1);
	CU_ASSERT_EQUAL(t.n, 0);
	uncore_job_tally_free(&t);
	uncore_perjob_free(p);
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "jobs come and go: the object starts over, the tally keeps, the shares are the truth", test_lifecycle },
		{ "no per-thread count: the start fails, nothing counts", test_no_attribution },
		{ NULL, NULL },
	};
	return run_suite("job_lifecycle", tests);
}
