/*
 * Issue 99 point 3: the PCP agent (-j) through a simulated year, driven as pmcd drives it (a follow and a read
 * before each fetch, its loop's warnings said after: pcp_pmda/pmda_intel_uncore.c; no pmcd here, as in
 * tests/test_pcp_node.c), on the year of tests/test_exporter_year.c (sim:skx on the manual clock, a read a day
 * in one step of the simulator's clock: that file's head says why the counters checked wrap at most once a day):
 * memory counters (48 bits) and RAPL (32 bits) wrapping, 100,000 Slurm jobs coming and going, a job whose cgroup
 * names no CPU now and then.  Checked: each socket's memory.read_bytes and energy.joules equal the simulator's
 * truth over the year, the year-long job's bytes too; after every fetch the jobs' instance domain holds every job
 * present and no other; each left-out job's warning logged once, no other warning after the warm-up but the
 * energy reads' (the day past RAPL's 80 s); RSS and open files flat after the warm-up.  pmcd has no reload (a restart is a new process);
 * the clock stepped back, a takeover and the node changing are not yet here (the marked place in the loop).
 */
#include <fcntl.h>
#include "year.h"
#include "sim_truth.h"
#include "iu_pmda.h"
#include "iu_log.h"
#include "pcp_fetch.h"

static struct iu_state st;

/* pmcd's fetch: the node followed, the values of this moment; then the agent's loop says the warnings left */
static void fetch(void)
{
	CU_ASSERT(iu_node_follow(&st) == 0);
	CU_ASSERT(iu_read(&st) == 0);
	iu_log_warnings("");
}

static void year_near(const char *what, double v, double want, double tol)
{
	int ok = fabs(v - want) <= tol;
	fprintf(stderr, "%s: %.17g, truth %.17g%s\n", what, v, want, ok ? "" : " FAIL");
	CU_ASSERT(ok);
}

/* The jobs' instances after a fetch: every job present (from..to-1 and 19999998) has one, and no other but
 * "unattributed" has; those wrong (missing or stale) counted in bad, the first three said. */
static void jobs_follow(int from, int to, int *bad)
{
	const pmdaIndom *d = &st.indoms[iu_jobs_indom()];
	char id[16];
	for (int j = from; j <= to; j++) {
		snprintf(id, sizeof(id), "%d", j < to ? 10000000 + j : 19999998);
		if (pcp_inst(d, id) <= 0 && (*bad)++ < 3)
			fprintf(stderr, "job %s: no instance while present\n", id);
	}
	for (int i = 0; i < d->it_numinst; i++) {
		const char *name = d->it_set[i].i_name;
		int j = atoi(name) - 10000000;
		if (strcmp(name, "unattributed") && strcmp(name, "19999998") && (j < from || j >= to) && (*bad)++ < 3)
			fprintf(stderr, "job %s: an instance after it ended\n", name);
	}
}

/* The agent's log (its stderr before pmdaOpenLog): each bad job's warnings in said; the other warnings and
 * errors but the energy reads' counted past from, the warm-up's end (what the start and its first reads said
 * stays: the set's choice, the health of the simulator's uncounted devices) */
static int log_count(const char *path, long from, int *said, int nbad)
{
	char line[4096];
	int other = 0;
	FILE *f = fopen(path, "r");
	CU_ASSERT_FATAL(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		year_count_bad(line, "per-job: ", said, nbad);
		if (ftell(f) > from && (strstr(line, "Warning") || strstr(line, "Error")) && !strstr(line, "job bad") &&
		    !strstr(line, "energy: the time since the last read") && other++ < 3)
			fprintf(stderr, "logged: %s", line);
	}
	fclose(f);
	return other;
}

static void test_year(void)
{
	char spec[900], err[1024], log[700], bad[32] = "";
	many_jobs_tree("uncore-pcp-year", spec, sizeof(spec));
	strcat(spec, ",prewrap=120");
	year_profile();
	many_jobs_fill(YEAR_LIVE);
	snprintf(log, sizeof(log), "%s/uncore-pcp-year-%d.log", test_tmpdir(), (int)getpid());
	fflush(stderr);
	int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(saved >= 0 && fd >= 0 && dup2(fd, 2) == 2);
	close(fd);
	memset(&st, 0, sizeof(st));
	st.backend = spec;
	st.per_job = 1;
	if (iu_plan(&st, spec, err, sizeof(err)))
		fprintf(stderr, "agent start: %s\n", err);
	CU_ASSERT_FATAL(st.u != NULL && st.perjob != NULL);
	iu_log_warnings("");
	struct sim *sim = sim_of(st.u->acc);
	double t0 = (double)sim_now(sim) / 1e9, e0[2][2];
	for (int s = 0; s < 2; s++)
		for (int d = 0; d < 2; d++)
			e0[s][d] = truth_energy_j(sim, s, d);
	uint64_t step = (uint64_t)(YEAR / YEAR_READS * 1e9);
	int per_read = (YEAR_JOBS - YEAR_LIVE + YEAR_READS - 1) / YEAR_READS, next_job = YEAR_LIVE, oldest = 0, nbad = 0;
	int stale = 0;
	long warm = 0; /* the log's length at the warm-up's end */
	struct year_rss y = { 0 };
	for (int r = 0; r < YEAR_READS; r++) {
		sim_advance(sim, step); /* a day at once: see the head of tests/test_exporter_year.c */
		if (r == YEAR_WARM) {
			fflush(stderr);
			warm = lseek(2, 0, SEEK_CUR);
		}
		fetch();
		jobs_follow(oldest, next_job, &stale);
		year_jobs(r, per_read, &oldest, &next_job, bad, sizeof(bad), &nbad);
		year_rss_at(&y, 0, r);
		/* ---- the node changing (issue 99 point 2, the simulator's changes=FILE), the clock stepped back and a
		 * takeover go here, the truth carried across a change as at the exporter's reload ---- */
	}
	int fds = year_fds(); /* (the saved stderr still open, as at the warm-up) */
	double dt = (double)sim_now(sim) / 1e9 - t0;
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	for (int s = 0; s < 2; s++) {
		char inst[32];
		snprintf(inst, sizeof(inst), "socket%d", s);
		double want = truth_of(sim, "mem_bw_read", s).v * 1e9 * dt;
		/* whole 64-byte lines against a rate times a time: a line a read */
		year_near("memory.read_bytes", pcp_fetched(&st, "memory.read_bytes", inst), want, 1e-12 * want + 64.0 * (YEAR_READS + 2));
		for (int d = 0; d < 2; d++) {
			snprintf(inst, sizeof(inst), "socket%d/%s", s, d ? "dram" : "pkg");
			want = truth_energy_j(sim, s, d) - e0[s][d];
			/* a unit of the counter a read (2^-14 J) */
			year_near(inst, pcp_fetched(&st, "energy.joules", inst), want, 1e-9 * want + (YEAR_READS + 2) / 16384.0);
		}
	}
	year_near("job 19999998", pcp_fetched(&st, "jobs.read_bytes", "19999998"), END_BPS * dt, TOL * END_BPS * dt);
	fprintf(stderr, "%d jobs' instances missing or stale at the fetches\n", stale);
	CU_ASSERT(stale == 0);
	CU_ASSERT(next_job == YEAR_JOBS);
	year_rss_check(&y, 1, fds);
	int *said = calloc((size_t)nbad, sizeof(*said)), other = log_count(log, warm, said, nbad);
	fprintf(stderr, "%d other warnings and errors logged\n", other);
	CU_ASSERT(other == 0);
	CU_ASSERT(year_said_once(said, nbad) == 0 && nbad >= YEAR_READS / 10);
	free(said);
	if (CU_get_number_of_failures()) { /* the agent's log said in the test's own, then removed */
		char line[4096];
		FILE *f = fopen(log, "r");
		fprintf(stderr, "the agent's log:\n");
		while (f && fgets(line, sizeof(line), f))
			fputs(line, stderr);
		if (f)
			fclose(f);
	}
	unlink(log);
	iu_teardown(&st);
	many_jobs_clean();
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "the PCP agent through a simulated year", test_year },
		{ NULL, NULL },
	};
	return run_suite("pcp_year", tests);
}
