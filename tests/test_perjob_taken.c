/*
 * Issue 99 point 3: another agent takes one socket's memory controllers under a running per-job attribution.
 * The attribution's count of the memory controllers is one session over every socket's; a box of it taken made
 * every read fail from then on, and every start after a change of the jobs (the agent's boxes refused), so the
 * jobs of both sockets went uncounted until the node changed.  Now the taken socket's rows are left out (its jobs'
 * bytes there not known), said once, and the other socket's jobs counted on, across a change of the jobs too.
 * The many-jobs fixture (tests/many_jobs.h): ten filler jobs on CPUs 0-9 (socket 0), job 19999998 on CPU 35.
 */
#include "many_jobs.h"

static int count_of(const char *text, const char *part)
{
	int n = 0;
	for (const char *at = text; (at = strstr(at, part)); at++)
		n++;
	return n;
}

/* A second as the front ends run it: steps, the read, the jobs followed (what the follow returned). */
static int second(uncore_t *u, uncore_perjob_t *p, struct uncore_job_tally *t)
{
	second_of_steps(u, p);
	int rows = uncore_perjob_read(p, UNCORE_LAST_INTERVAL, t);
	if (rows < 0)
		fprintf(stderr, "the read: %s\n", uncore_error());
	CU_ASSERT(rows > 0);
	return uncore_perjob_follow(p, t);
}

static void test_taken(void)
{
	char spec[800];
	many_jobs_tree("uncore-perjob-taken", spec, sizeof(spec));
	many_jobs_fill(10);
	uncore_t *u = open_sim(spec);
	struct sim *sim = sim_of(u->acc);
	CU_ASSERT_FATAL(u->host.cpu_socket[0] == 0 && u->host.cpu_socket[35] == 1);
	uncore_perjob_t *p = NULL;
	struct uncore_job_tally t = { 0 };
	CU_ASSERT_FATAL(uncore_perjob_new(u, &p) == 0);
	CU_ASSERT_FATAL(uncore_perjob_start(p, &t) == 0);
	for (int i = 0; i < 2; i++)
		CU_ASSERT(second(u, p, &t) == 0);
	double end0 = tallied(&t, "19999998"), fill0 = tallied(&t, "10000000");
	CU_ASSERT(fabs(end0 - END_BPS * 2) <= TOL * END_BPS * 2 && fill0 > 0);
	(void)uncore_warnings_drain(NULL); /* (what the start said) */
	CU_ASSERT_FATAL(sim_take_boxes(sim, "imc", 0, sim_now(sim)) > 0);
	/* the read that finds the boxes taken gives up socket 0; a job coming starts the attribution again on the
	 * boxes the agent holds (refused: that socket left out again, not said again) */
	double fill_seen = NAN;
	for (int i = 0; i < 6; i++) {
		if (i == 3)
			job_put("10000010", "10");
		CU_ASSERT(second(u, p, &t) == (i == 3));
		if (i == 4)
			fill_seen = tallied(&t, "10000000");
	}
	double end = tallied(&t, "19999998") - end0;
	fprintf(stderr, "job 19999998: %.17g over the 6 s after the takeover, the truth %.17g; job 10000000: %.17g, "
		"then %.17g\n", end, END_BPS * 6, fill_seen, tallied(&t, "10000000"));
	CU_ASSERT(fabs(end - END_BPS * 6) <= TOL * END_BPS * 6);
	CU_ASSERT(tallied(&t, "10000000") == fill_seen && !isnan(tallied(&t, "10000010")));
	const char *w = uncore_warnings_drain(NULL);
	int said = count_of(w, "socket 0's memory controllers are not counted");
	if (said != 1 || count_of(w, "socket 1's"))
		fprintf(stderr, "warnings: %s\n", w);
	CU_ASSERT(said == 1 && !count_of(w, "socket 1's"));
	uncore_perjob_free(p);
	uncore_job_tally_free(&t);
	uncore_close(u);
	many_jobs_clean();
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "another agent takes socket 0's memory controllers: socket 1's jobs counted on", test_taken },
		{ NULL, NULL },
	};
	return run_suite("perjob_taken", tests);
}
