/*
 * Issue 89 point 1, the exporter's --per-job: its job series follow a change at the end of a job list past 4 KiB
 * (600 single-CPU Slurm jobs on sim:skx, then 10,000), rendered as a scrape gets them: after the read that saw
 * the change, the job that ended has no series and the one that started on its CPU has its own, which counts
 * that CPU's bytes (the profile: CPU 35 alone moves END_BPS).  The exporter's reads and rendering run here
 * without its HTTP server, a step of the attribution every 100 ms as its main loop does.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sim_helpers.h"
#include "../exporter/ue.h"

#define FILL_BPS 35e9 /* CPUs 0-34 */
#define END_BPS 3e9   /* CPU 35 */
#define TOL 0.01      /* as tests/test_perjob_many.c */

static const char *const v2 = "sys/fs/cgroup/system.slice/slurmstepd.scope";
static char dir[300];

static void job_put(const char *id, const char *cpus)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/%s/job_%s", dir, v2, id);
	mkdir(path, 0755);
	strcat(path, "/cpuset.cpus.effective");
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "%s\n", cpus);
	fclose(f);
}

static void job_rm(const char *id)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/%s/job_%s/cpuset.cpus.effective", dir, v2, id);
	CU_ASSERT_FATAL(unlink(path) == 0);
	*strrchr(path, '/') = 0;
	CU_ASSERT_FATAL(rmdir(path) == 0);
}

/* s seconds of the exporter: a step every 100 ms, a read each second */
static void run(struct ue_state *st, int s)
{
	for (int i = 0; i < s; i++) {
		for (int k = 0; k < 9; k++) {
			uncore_sleep_ns(st->u, 100000000u);
			CU_ASSERT(uncore_perjob_step(st->perjob) == 0);
		}
		uncore_sleep_ns(st->u, 100000000u);
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
	char path[700], spec[900], cmd[1600], id[16], cpu[8];
	snprintf(dir, sizeof(dir), "%s/uncore-exporter-jobs-%d", test_tmpdir(), (int)getpid());
	snprintf(path, sizeof(path), "%s/%s", dir, v2);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, path);
	CU_ASSERT_FATAL(system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/profile", dir);
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "job.fill.cpus = 0-34\njob.fill.mem_read_bytes_per_s = %g\njob.end.cpus = 35\n"
		   "job.end.mem_read_bytes_per_s = %g\n", FILL_BPS, END_BPS);
	fclose(f);
	for (int i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "%d", 10000000 + i);
		snprintf(cpu, sizeof(cpu), "%d", i % 35);
		job_put(id, cpu);
	}
	job_put("19999998", "35");
	setenv("UNCORE_SYSROOT", dir, 1);
	snprintf(spec, sizeof(spec), "sim:skx,clock=manual,profile=%s", path);
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
	unsetenv("UNCORE_SYSROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
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
