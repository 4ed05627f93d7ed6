/*
 * Issue 99 point 3: the collectd plugin through a simulated year, against the mock of the daemon
 * (mock_collectd.c) as tests/test_collectd.c drives it, on the year of tests/test_exporter_year.c (sim:skx on the
 * manual clock, a read a day passing in one step of the simulator's clock: that file's head says why the
 * counters checked wrap at most once a day): memory counters (48 bits) and RAPL (32 bits) wrapping, 100,000
 * Slurm jobs coming and going (PerJob), a job whose cgroup names no CPU now and then.  Checked: each socket's
 * mem_read_bytes and energy equal the simulator's truth over the year, the year-long job's bytes too; every job
 * present at a read dispatched, none gone; each left-out job's warning logged once; RSS and open files flat
 * after the warm-up.  collectd has no reload (a restart is a new process); the clock stepped back, a takeover
 * and the node changing are not yet here (the marked place in the loop).
 */
#include "../collectd_plugin/intel_uncore.c"
#include "harness.h"
#include "mock_collectd.h"
#include "sim_truth.h"
#include "year.h"

static int *said, nbad_max = YEAR_READS / 10 + 1;

static void count_bad(int level, const char *msg)
{
	if (level == LOG_WARNING)
		year_count_bad(msg, "PerJob: ", said, nbad_max);
}

static double value_of(const char *pi, const char *type, const char *ti)
{
	const struct mock_value *v = mock_find(pi, type, ti);
	if (!v)
		return NAN;
	return mock_ds_type(type) == DS_TYPE_DERIVE ? (double)v->v.derive : v->v.gauge;
}

static void year_near(const char *what, double v, double want, double tol)
{
	int ok = fabs(v - want) <= tol;
	fprintf(stderr, "%s: %.17g, truth %.17g%s\n", what, v, want, ok ? "" : " FAIL");
	CU_ASSERT(ok);
}

/* Every job of the last scan (from..to-1) dispatched, none before. */
static int jobs_follow(int from, int to)
{
	int bad = 0;
	for (int j = from - 5 >= 0 ? from - 5 : 0; j < to; j++) {
		char pi[32];
		snprintf(pi, sizeof(pi), "job_%d", 10000000 + j);
		int has = mock_find(pi, "memory_bandwidth", "read") != NULL;
		if (has != (j >= from) && bad++ < 3)
			fprintf(stderr, "job %d: %s\n", 10000000 + j, has ? "dispatched after it ended" : "not dispatched while present");
	}
	return bad;
}

static void test_year(void)
{
	char spec[900], conf[1200], bad[32] = "";
	many_jobs_tree("uncore-collectd-year", spec, sizeof(spec));
	strcat(spec, ",prewrap=120");
	year_profile();
	many_jobs_fill(YEAR_LIVE);
	said = calloc((size_t)nbad_max, sizeof(*said));
	snprintf(conf, sizeof(conf), "Backend \"%s\"\nMetrics \"mem_read_bytes\"\nMetricGroups \"energy\"\nPerJob true\n"
		 "Interval 60\n", spec);
	mock_reset();
	module_register();
	oconfig_item_t *ci = mock_block(conf);
	CU_ASSERT_FATAL(mock.config(ci) == 0);
	mock_block_free(ci);
	CU_ASSERT_FATAL(mock.init() == 0);
	mock.log_hook = count_bad;
	struct sim *sim = sim_of(state.u->acc);
	double t0 = (double)sim_now(sim) / 1e9, e0[2][2];
	for (int s = 0; s < 2; s++)
		for (int d = 0; d < 2; d++)
			e0[s][d] = truth_energy_j(sim, s, d);
	uint64_t step = (uint64_t)(YEAR / YEAR_READS * 1e9);
	int per_read = (YEAR_JOBS - YEAR_LIVE + YEAR_READS - 1) / YEAR_READS, next_job = YEAR_LIVE, oldest = 0, nbad = 0;
	int stale = 0, errors = 0, last_from = 0, last_to = YEAR_LIVE;
	struct year_rss y = { 0 };
	for (int r = 0; r < YEAR_READS; r++) {
		sim_advance(sim, step);
		mock.nvalues = 0;
		CU_ASSERT(mock.read(NULL) == 0);
		/* a dispatch sends the jobs of the last read's scan (it follows the change after it dispatched) */
		if (r % 73 == 72)
			stale += jobs_follow(last_from, last_to);
		last_from = oldest;
		last_to = next_job;
		year_jobs(r, per_read, &oldest, &next_job, bad, sizeof(bad), &nbad);
		errors += mock_logged(LOG_ERR, NULL) - mock_logged(LOG_ERR, "energy"); /* (the day past RAPL's 80 s) */
		mock.nlogs = 0;
		year_rss_at(&y, 0, r);
		/* ---- the node changing (issue 99 point 2, the simulator's changes=FILE) goes here ---- */
	}
	double dt = (double)sim_now(sim) / 1e9 - t0;
	for (int s = 0; s < 2; s++) {
		char pi[16];
		snprintf(pi, sizeof(pi), "socket%d", s);
		double want = truth_of(sim, "mem_bw_read", s).v * 1e9 * dt;
		year_near("mem_read_bytes", value_of(pi, "total_bytes", "mem_read_bytes"), want, 1e-12 * want + 64.0 * (YEAR_READS + 2));
		for (int d = 0; d < 2; d++) {
			want = truth_energy_j(sim, s, d) - e0[s][d];
			year_near(d ? "energy dram" : "energy pkg", value_of(pi, "energy", d ? "dram" : "pkg"), want,
				  1e-9 * want + (YEAR_READS + 2) / 16384.0);
		}
	}
	year_near("job 19999998", value_of("job_19999998", "memory_bandwidth", "read"), END_BPS * dt, TOL * END_BPS * dt);
	CU_ASSERT(stale == 0);
	fprintf(stderr, "%d errors logged but the energy reads' interval\n", errors);
	CU_ASSERT(errors == 0);
	CU_ASSERT(next_job == YEAR_JOBS);
	year_rss_check(&y, 1, year_fds());
	CU_ASSERT(year_said_once(said, nbad) == 0 && nbad >= YEAR_READS / 10);
	mock.log_hook = NULL;
	free(said);
	CU_ASSERT(mock.shutdown() == 0);
	many_jobs_clean();
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "the collectd plugin through a simulated year", test_year },
		{ NULL, NULL },
	};
	return run_suite("collectd_year", tests);
}
