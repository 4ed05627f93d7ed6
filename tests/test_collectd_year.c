/*
 * Issue 99 point 3: the collectd plugin through a simulated year, against the mock of the daemon
 * (mock_collectd.c) as tests/test_collectd.c drives it, on the year of tests/test_exporter_year.c (sim:skx on the
 * manual clock, a read a day passing in one step of the simulator's clock: that file's head says why the
 * counters checked wrap at most once a day): memory counters (48 bits) and RAPL (32 bits) wrapping, 100,000
 * Slurm jobs coming and going (PerJob), jobs whose cgroup names no CPU now and then, two at once at times, the
 * node changing under the plugin (tests/year.h: a CPU offline and back, a device removed and added, the PMU
 * driver reloaded), another agent taking socket 0's iMC boxes (tests/year.h year_takeover), the wall clock
 * stepped back an hour.  Checked: each socket's mem_read_bytes equals the simulator's truth over the year
 * (socket 0's without the window the agent held its boxes), the year-long job's bytes too; socket 0's total
 * standing, then not dispatched while taken, then again after the change (year_taken); every job present at a
 * read dispatched, none gone, and every value after each change; each change said in one line, the takeover in
 * one error a box and the jobs' socket 0 left out in one warning, no other error; socket 1's stamps never back and its
 * rate over them the truth's; each left-out job's warning logged once; RSS and open files flat after the
 * warm-up.  collectd has no reload (a restart is a new process).  The energy's totals go on over each change
 * (iu_energy.c), checked over the year.
 */
#include "../collectd_plugin/intel_uncore.c"
#include "harness.h"
#include "mock_collectd.h"
#include "sim_truth.h"
#include "year.h"

static int *said;
static char changes[256]; /* the kinds of the changes the plugin said, in order */
static struct year_taken taken; /* and the lines that said it */
static int jobs_left;            /* the lines that said the jobs' socket 0 left out */

static void count_bad(int level, const char *msg)
{
	if (level == LOG_WARNING)
		year_count_bad(msg, "PerJob: ", said, YEAR_BAD_MAX);
	year_change_said(msg, changes, sizeof(changes));
	if (level == LOG_ERR)
		year_taken_line(&taken, msg);
	jobs_left += level == LOG_WARNING && strstr(msg, "socket 0's memory controllers are not counted") != NULL;
}

static double value_of(const char *pi, const char *type, const char *ti)
{
	const struct mock_value *v = mock_find(pi, type, ti);
	if (!v)
		return NAN;
	return mock_ds_type(type) == DS_TYPE_DERIVE ? (double)v->v.derive : v->v.gauge;
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

/* A read of the daemon's (its read callback): where the node changed before it, the handle the plugin lets go is
 * the machine whose truth ends there, and the one it opens starts its own. */
static void read_day(struct year_truth *tr, int changed)
{
	if (changed)
		year_truth_add(tr, sim_of(state.u->acc));
	CU_ASSERT(mock.read(NULL) == 0);
	if (changed)
		year_truth_start(tr, sim_of(state.u->acc));
}

/* The values whose plugin instance or type instance names bdf (the device's bytes, as its series). */
static int values_of(const char *bdf)
{
	int n = 0;
	for (int i = 0; i < mock.nvalues; i++)
		n += strstr(mock.values[i].vl.plugin_instance, bdf) || strstr(mock.values[i].vl.type_instance, bdf);
	return n;
}

static void test_year(void)
{
	char spec[900], conf[1200], bdf[16], want[256];
	struct year_truth tr = { 0 };
	many_jobs_tree("uncore-collectd-year", spec, sizeof(spec));
	strcat(spec, ",prewrap=120");
	year_changes_spec(spec, sizeof(spec));
	year_profile();
	many_jobs_fill(YEAR_LIVE);
	said = calloc(YEAR_BAD_MAX, sizeof(*said));
	changes[0] = 0;
	snprintf(conf, sizeof(conf), "Backend \"%s\"\nMetrics \"mem_read_bytes\"\nMetricGroups \"energy\"\nPerJob true\n"
		 "Interval 60\n", spec);
	mock_reset();
	module_register();
	oconfig_item_t *ci = mock_block(conf);
	CU_ASSERT_FATAL(mock.config(ci) == 0);
	mock_block_free(ci);
	year_wall_set(YEAR_EPOCH * 1000000000ull);
	CU_ASSERT_FATAL(mock.init() == 0);
	mock.log_hook = count_bad;
	year_truth_start(&tr, sim_of(state.u->acc));
	struct year_stamps ys = { 0 };
	year_device(state.u, bdf, sizeof(bdf));
	uint64_t step = (uint64_t)(YEAR / YEAR_READS * 1e9);
	int per_read = (YEAR_JOBS - YEAR_LIVE + YEAR_READS - 1) / YEAR_READS, next_job = YEAR_LIVE, oldest = 0, nbad = 0;
	int stale = 0, errors = 0, last_from = 0, last_to = YEAR_LIVE, nvalues = -1, moved = 0, after_change = 0;
	struct year_rss y = { 0 };
	memset(&taken, 0, sizeof(taken));
	jobs_left = 0;
	for (int r = 0; r < YEAR_READS; r++) {
		sim_advance(sim_of(state.u->acc), step);
		mock.nvalues = 0;
		/* the node changing under the plugin: said at this read, the truth carried over the handle it opens */
		int changed = year_change_due(r, bdf, sim_of(state.u->acc));
		read_day(&tr, changed);
		/* socket 1's bytes and their stamps */
		const struct mock_value *m = mock_find("socket1", "total_bytes", "mem_read_bytes");
		if (m)
			year_stamp_at(&ys, CDTIME_T_TO_NS(m->vl.time), (double)m->v.derive,
				      truth_of(sim_of(state.u->acc), "mem_bw_read", 1).v * 1e9);
		/* socket 0's against the takeover's truth */
		m = mock_find("socket0", "total_bytes", "mem_read_bytes");
		year_taken_at(&taken, r, m != NULL, m ? (double)m->v.derive : NAN);
		if (r == YEAR_TAKEOVER)
			year_takeover(&tr, &taken, sim_of(state.u->acc), sim_now(sim_of(state.u->acc)) + step);

		/* a dispatch sends the jobs of the last read's scan (it follows the change after it dispatched); the read
		 * after a change every value (the change's own read sends those of the new start's scan, and the energy
		 * none: a first read of the new handle, with no interval yet -- what is left to do) */
		if (r % 73 == 72 || after_change)
			stale += jobs_follow(last_from, last_to);
		if (changed)
			fprintf(stderr, "read %d, a change: %d values, %d before; the energy %ssent\n", r, mock.nvalues, nvalues,
				mock_find("socket0", "energy", "pkg") ? "" : "not ");
		if (after_change && (values_of(bdf) || mock.nvalues != nvalues)) /* (this set has no device's values) */
			fprintf(stderr, "read %d: %d values, %d before; %d of %s\n", r, mock.nvalues, nvalues, values_of(bdf), bdf), moved++;
		after_change = changed;
		if (r == 1)
			nvalues = mock.nvalues; /* (the first dispatches no rate yet) */
		last_from = oldest;
		last_to = next_job;
		year_jobs(r, per_read, &oldest, &next_job, &nbad);
		/* (the day past RAPL's 80 s, the takeover: counted above) */
		errors += mock_logged(LOG_ERR, NULL) - mock_logged(LOG_ERR, "energy") - mock_logged(LOG_ERR, "taken over by another agent");
		mock.nlogs = 0;
		year_rss_at(&y, 0, r);
	}
	year_truth_add(&tr, sim_of(state.u->acc));
	for (int s = 0; s < 2; s++) {
		char pi[32];
		snprintf(pi, sizeof(pi), "socket%d", s);
		/* the year's energy, carried over each change as the counts are (iu_energy.c energy_base) */
		for (int d = 0; d < 2; d++)
			year_near(d ? "energy dram" : "energy pkg", value_of(pi, "energy", d ? "dram" : "pkg"), tr.energy[s][d],
				  1e-9 * tr.energy[s][d] + (YEAR_READS + 2) / 16384.0);
		year_near("mem_read_bytes", value_of(pi, "total_bytes", "mem_read_bytes"), tr.mem[s][0], 1e-12 * tr.mem[s][0] + 64.0 * (YEAR_READS + 2));
	}
	year_near("job 19999998", value_of("job_19999998", "memory_bandwidth", "read"), tr.end_job, TOL * tr.end_job);
	CU_ASSERT(stale == 0);
	fprintf(stderr, "%d errors logged but the energy reads' interval; %d reads after a change with values missing or "
		"stale\n", errors, moved);
	CU_ASSERT(errors == 0 && moved == 0);
	year_stamps_check(&ys);
	CU_ASSERT(next_job == YEAR_JOBS);
	year_rss_check(&y, 1, (const int[]){ 4 }, year_fds()); /* (the changes at 40, 61, 100, 131) */
	CU_ASSERT(year_said_once(said, nbad) == 0 && nbad >= YEAR_READS / 5 - 2);
	year_taken_check(&taken);
	fprintf(stderr, "%d lines said the jobs' socket 0 left out\n", jobs_left);
	CU_ASSERT(jobs_left == 1);
	year_change_want(want, sizeof(want));
	fprintf(stderr, "the node's changes said: %s (wanted %s)\n", changes, want);
	CU_ASSERT_STRING_EQUAL(changes, want);
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
