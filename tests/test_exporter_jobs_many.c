/*
 * Issue 89 point 1, the exporter's --per-job: its job series follow a change at the end of a job list past 4 KiB
 * (600 single-CPU Slurm jobs on sim:skx, then 10,000), rendered as a scrape gets them: after the read that saw
 * the change, the job that ended has no series and the one that started on its CPU has its own, which counts
 * that CPU's bytes (the profile: CPU 35 alone moves END_BPS).  The exporter's reads and rendering run here
 * without its HTTP server, a step of the attribution every 100 ms as its main loop does.
 */
#include "many_jobs.h"
#include "../exporter/ue.h"

/* s seconds of the exporter: a step every 100 ms, a read each second */
static void run(struct ue_state *st, int s)
{
	for (int i = 0; i < s; i++) {
		second_of_steps(st->u, st->perjob);
		CU_ASSERT(ue_read(st) == 0);
	}
}

/* Job id's uncore_job_memory_read_bytes_total in a scrape now: NAN where the scrape has none. */
static double scraped(const struct ue_state *st, const char *id)
{
	char line[160];
	double v = NAN;
	struct ue_snapshot *snap = ue_render(st, 0);
	CU_ASSERT_FATAL(snap != NULL);
	snprintf(line, sizeof(line), "\nuncore_job_memory_read_bytes_total{job_id=\"%s\"} ", id);
	const char *at = strstr(snap->text, line);
	if (at)
		v = strtod(at + strlen(line), NULL);
	free(snap->text);
	free(snap->om);
	free(snap);
	return v;
}

static void many(int n)
{
	char spec[900], id[16];
	many_jobs_tree("uncore-exporter-jobs", spec, sizeof(spec));
	many_jobs_fill(n);
	char *argv[] = { "uncore-exporter", "--backend", spec, "--per-job", NULL };
	struct ue_config c;
	struct ue_state st;
	char err[1024];
	CU_ASSERT_FATAL(ue_options(&c, 4, argv, err, sizeof(err)) == 0);
	/* as the exporter's start: the series, then the jobs (exporter/uncore_exporter.c) */
	CU_ASSERT_FATAL(ue_plan(&c, &st, err, sizeof(err)) == 0 && ue_start(&st, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(ue_jobs_start(&st, err, sizeof(err)) == 0);
	run(&st, 2);
	double v = scraped(&st, "19999998");
	CU_ASSERT(fabs(v - 2 * END_BPS) <= TOL * 2 * END_BPS);

	job_rm("19999998");
	job_put("19999999", "35");
	run(&st, 1); /* the read that sees the change: the old set's bytes, then the new set */
	CU_ASSERT(isnan(scraped(&st, "19999998")));
	CU_ASSERT(scraped(&st, "19999999") == 0);
	run(&st, 2);
	v = scraped(&st, "19999999");
	if (!(fabs(v - 2 * END_BPS) <= TOL * 2 * END_BPS))
		fprintf(stderr, "%d jobs: 19999999 scraped %.9g, truth %.9g\n", n, v, 2 * END_BPS);
	CU_ASSERT(fabs(v - 2 * END_BPS) <= TOL * 2 * END_BPS);
	CU_ASSERT(isnan(scraped(&st, "19999998")));
	snprintf(id, sizeof(id), "%d", 10000000 + n - 1);
	CU_ASSERT(!isnan(scraped(&st, id)));
	ue_teardown(&st);
	ue_config_free(&c);
	many_jobs_clean();
}

static void test_600(void) { many(600); }
static void test_10000(void) { many(10000); }

int main(void)
{
	static const struct test_case tests[] = {
		{ "600 jobs: the series follow a change at the end of the list at the next read", test_600 },
		{ "10,000 jobs: the same", test_10000 },
		{ NULL, NULL },
	};
	return run_suite("exporter_jobs_many", tests);
}
