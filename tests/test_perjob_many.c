/*
 * Issue 89 point 1: per-job attribution follows the job set however long its list.  The set was compared as
 * text cut at 4 KiB, so with some 240 jobs or more every change past the cut went unseen: a job that ended went
 * on being charged and the job that started on its CPUs got nothing.  Here a simulated SKX (36 CPUs) holds 600
 * single-CPU Slurm jobs (8-digit ids: some 8.4 KiB of set) and then 10,000, their cgroups below UNCORE_SYSROOT,
 * and the jobs that come and go sort last, so that every change is past the first 4 KiB.  The truth is the
 * simulator's profile: the filler jobs' CPUs 0-34 move FILL_BPS, CPU 35 alone END_BPS, held by the last job;
 * after each change the object starts over within one read (the follow after it), and the job on CPU 35 gets
 * that CPU's bytes, split equally where two jobs hold it (doc/jobs.md "Shared CPUs").
 */
#include "many_jobs.h"

/* s seconds as the front ends run them (a step every 100 ms, a read each second, the set followed after it):
 * what the last follow returned. */
static int run(uncore_t *u, uncore_perjob_t *p, struct uncore_job_tally *t, int s)
{
	int followed = 0;
	for (int i = 0; i < s; i++) {
		second_of_steps(u, p);
		CU_ASSERT_FATAL(uncore_perjob_read(p, UNCORE_LAST_INTERVAL, t) > 0);
		followed = uncore_perjob_follow(p, t);
	}
	return followed;
}

static void many(int n)
{
	char spec[800];
	many_jobs_tree("uncore-perjob-many", spec, sizeof(spec));
	many_jobs_fill(n);
	uncore_t *u = open_sim(spec);

	/* the signature is the set whole, or an error naming its size: never a set cut short */
	char small[4096];
	CU_ASSERT(uncore_jobs_signature(u, small, sizeof(small)) == -1);
	CU_ASSERT(strstr(uncore_error(), "the jobs' signature takes") != NULL && !small[0]);
	size_t big = (size_t)n * 16 + 64;
	char *whole = malloc(big);
	CU_ASSERT_FATAL(whole != NULL);
	CU_ASSERT(uncore_jobs_signature(u, whole, big) == n + 1);
	CU_ASSERT(strlen(whole) > 4096 && strstr(whole, "10000000=0/;10000001=1/;") == whole);
	CU_ASSERT(!strcmp(whole + strlen(whole) - 13, "19999998=35/;"));
	free(whole);

	uncore_perjob_t *p = NULL;
	struct uncore_job_tally t = { 0 };
	CU_ASSERT_FATAL(uncore_perjob_new(u, &p) == 0);
	CU_ASSERT_FATAL(uncore_perjob_start(p, &t) == 0);
	CU_ASSERT_EQUAL(t.n, n + 1);
	CU_ASSERT_EQUAL(run(u, p, &t, 2), 0);
	CU_ASSERT(near("19999998, CPU 35 alone, 2 s", tallied(&t, "19999998"), END_BPS * 2));

	/* the last job ends and another starts on its CPU, both past the first 4 KiB: seen at the next follow */
	job_rm("19999998");
	job_put("19999999", "35");
	CU_ASSERT_EQUAL(run(u, p, &t, 1), 1);
	CU_ASSERT_EQUAL(t.n, n + 1);
	CU_ASSERT(isnan(tallied(&t, "19999998"))); /* no longer charged */
	CU_ASSERT(tallied(&t, "19999999") == 0);   /* counted from the start over */
	CU_ASSERT_EQUAL(run(u, p, &t, 2), 0);
	CU_ASSERT(near("19999999 has CPU 35's bytes, 2 s", tallied(&t, "19999999"), END_BPS * 2));
	CU_ASSERT(isnan(tallied(&t, "19999998")));

	/* a job comes at the very end on the same CPU: the two share its bytes equally */
	job_put("20000000", "35");
	CU_ASSERT_EQUAL(run(u, p, &t, 1), 1);
	CU_ASSERT_EQUAL(t.n, n + 2);
	double before = tallied(&t, "19999999");
	CU_ASSERT(near("19999999 kept its count", before, END_BPS * 3));
	CU_ASSERT_EQUAL(run(u, p, &t, 2), 0);
	CU_ASSERT(near("20000000: half of CPU 35, 2 s", tallied(&t, "20000000"), END_BPS));
	CU_ASSERT(near("19999999: the other half since", tallied(&t, "19999999") - before, END_BPS));

	/* the last job's CPUs change (a job's set changes, not its id): seen too */
	job_put("20000000", "34-35");
	CU_ASSERT_EQUAL(run(u, p, &t, 1), 1);
	CU_ASSERT_EQUAL(run(u, p, &t, 1), 0);

	uncore_perjob_free(p);
	uncore_job_tally_free(&t);
	uncore_close(u);
	many_jobs_clean();
}

static void test_600(void) { many(600); }
static void test_10000(void) { many(10000); }

int main(void)
{
	static const struct test_case tests[] = {
		{ "600 jobs (8.4 KiB of set): jobs come and go at the end of the list, followed at once", test_600 },
		{ "10,000 jobs: the same", test_10000 },
		{ NULL, NULL },
	};
	return run_suite("perjob_many", tests);
}
