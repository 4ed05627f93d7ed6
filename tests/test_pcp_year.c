/*
 * Issue 99 point 3: the PCP agent (-j) through a simulated year, driven as pmcd drives it (a follow and a read
 * before each fetch, its loop's warnings said after: pcp_pmda/pmda_intel_uncore.c; no pmcd here, as in
 * tests/test_pcp_node.c), on the year of tests/test_exporter_year.c (sim:skx on the manual clock, a read a day
 * in one step of the simulator's clock: that file's head says why the counters checked wrap at most once a day):
 * memory counters (48 bits) and RAPL (32 bits) wrapping, 100,000 Slurm jobs coming and going, a job whose cgroup
 * names no CPU now and then.  Checked: each socket's memory.read_bytes and energy.joules equal the simulator's
 * truth over the year, the year-long job's bytes too; after every fetch the jobs' instance domain holds every job
 * present and no other; each left-out job's warning logged once, no other warning after the warm-up but the
 * energy reads' (the day past RAPL's 80 s); RSS and open files flat after the warm-up.  The node changes under
 * the agent and the wall clock steps back an hour (tests/year.h: a CPU offline and back, a device removed and
 * added, the PMU driver reloaded): each change said in one log line, the device's instances gone from the
 * change that removes it to the one that adds it and back after, as many other instances as before, the totals
 * above carried across the changes (tests/year.h year_truth) and the job's too (pcp_pmda/iu_node.c carries the
 * tally), the warnings a new start says again left out at each change.  The agent reads no wall clock (pmcd
 * stamps the values): the step back must disturb nothing.  pmcd has no reload (a restart is a new process).
 * Another agent takes socket 0's iMCs (tests/year.h year_takeover): socket 0's memory.read_bytes standing, then
 * absent while taken, then again after the change (year_taken), its total the truth without that window; the
 * box taken said once (and once in the health's lines), the jobs' socket 0 left out in one line.
 */
#include <fcntl.h>
#include "year.h"
#include "sim_truth.h"
#include "iu_pmda.h"
#include "iu_log.h"
#include "pcp_fetch.h"

static struct iu_state st;
static char changes[256]; /* the kinds of the changes the agent said, in order */

/* pmcd's fetch: the node followed, the values of this moment; then the agent's loop says the warnings left */
static void fetch(void)
{
	CU_ASSERT(iu_node_follow(&st) == 0);
	CU_ASSERT(iu_read(&st) == 0);
	iu_log_warnings("");
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

/* The instances of every domain but the jobs' whose name has part ("": all) */
static int insts_of(const char *part)
{
	int n = 0;
	for (int m = 0; m < iu_nmetrics; m++)
		for (int i = 0; iu_metrics[m].src != IU_JOB && i < st.indoms[m].it_numinst; i++)
			n += !!strstr(st.indoms[m].it_set[i].i_name, part);
	return n;
}

/* The log's stretches where the agent starts again (a node's change: its fetch and the two after), as far as it is
 * written at each's start and end */
static long restarts[YEAR_NCHANGES][2];
static int nrestarts;

static int in_restart(long at)
{
	for (int i = 0; i < nrestarts; i++)
		if (at >= restarts[i][0] && at < restarts[i][1])
			return 1;
	return 0;
}

static struct year_taken taken; /* and the lines that said it */
static int jobs_left, boxes_taken; /* the lines that said the jobs' socket 0 left out, the health's boxes taken */

/* The agent's log (its stderr before pmdaOpenLog): each bad job's warnings in said, the changes it said in
 * changes, the takeover's lines; the other warnings and errors but the energy reads' counted past from, the
 * warm-up's end, but where the agent starts again (what a start and its first reads said stays: the set's choice,
 * the health of the simulator's uncounted devices) and the values the takeover stops ("no longer reported") */
static int log_count(const char *path, long from, int *said, int nbad)
{
	char line[4096];
	int other = 0;
	jobs_left = boxes_taken = 0;
	FILE *f = fopen(path, "r");
	CU_ASSERT_FATAL(f != NULL);
	for (long at = 0; fgets(line, sizeof(line), f); at = ftell(f)) {
		year_count_bad(line, "per-job: ", said, nbad);
		year_change_said(line, changes, sizeof(changes));
		/* (the health's record of it, a line a box, is counted with the other health lines: once each) */
		int named = strstr(line, "taken over by another agent") != NULL, left = strstr(line, "socket 0's memory controllers are not counted") != NULL;
		boxes_taken += strstr(line, "health taken raised: imc ") && strstr(line, "(socket 0)");
		if (!strstr(line, "no longer reported")) /* (the read's; the values it stops say it again, each its own) */
			year_taken_line(&taken, line);
		jobs_left += left;
		if (named || left || strstr(line, "health taken raised"))
			continue;
		if (at >= from && !in_restart(at) && (strstr(line, "Warning") || strstr(line, "Error")) && !strstr(line, "job bad") &&
		    !strstr(line, "energy: the time since the last read") && other++ < 3)
			fprintf(stderr, "logged: %s", line);
	}
	fclose(f);
	return other;
}

static void test_year(void)
{
	char spec[900], err[1024], log[700], bdf[16], want_said[256];
	struct year_truth tr = { 0 };
	many_jobs_tree("uncore-pcp-year", spec, sizeof(spec));
	strcat(spec, ",prewrap=120");
	year_changes_spec(spec, sizeof(spec));
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
	year_wall_set(YEAR_EPOCH * 1000000000ull);
	if (iu_plan(&st, spec, err, sizeof(err)))
		fprintf(stderr, "agent start: %s\n", err);
	CU_ASSERT_FATAL(st.u != NULL && st.perjob != NULL);
	iu_log_warnings("");
	year_truth_start(&tr, sim_of(st.u->acc));
	year_device(st.u, bdf, sizeof(bdf));
	int dev_insts = insts_of(bdf), ninsts = insts_of(""), moved = 0;
	uint64_t step = (uint64_t)(YEAR / YEAR_READS * 1e9);
	int per_read = (YEAR_JOBS - YEAR_LIVE + YEAR_READS - 1) / YEAR_READS, next_job = YEAR_LIVE, oldest = 0, nbad = 0;
	int stale = 0, restarting = 0;
	long warm = 0; /* the log's length at the warm-up's end */
	struct year_rss y = { 0 };
	memset(&taken, 0, sizeof(taken));
	for (int r = 0; r < YEAR_READS; r++) {
		sim_advance(sim_of(st.u->acc), step); /* a day at once: see the head of tests/test_exporter_year.c */
		if (r == YEAR_WARM) {
			fflush(stderr);
			warm = lseek(2, 0, SEEK_CUR);
		}
		/* the node changing under the agent: followed at this fetch, the machine let go there ends its truth
		 * and the one it opens starts its own */
		int changed = year_change_due(r, bdf, sim_of(st.u->acc));
		if (changed) {
			year_truth_add(&tr, sim_of(st.u->acc));
			fflush(stderr);
			restarts[nrestarts][0] = lseek(2, 0, SEEK_CUR);
			restarting = 3; /* (this fetch and the two after: the health's first interval is the second) */
		}
		fetch();
		if (changed)
			year_truth_start(&tr, sim_of(st.u->acc));
		if (restarting && --restarting == 0) {
			fflush(stderr);
			restarts[nrestarts++][1] = lseek(2, 0, SEEK_CUR);
		}
		/* the device's instances as the device is, every other as it was */
		int gone = r >= 100 && r < 131, has = insts_of(bdf);
		if ((gone ? has : has != dev_insts) || insts_of("") != ninsts - (gone ? dev_insts : 0))
			fprintf(stderr, "read %d: %d instances of %s, %d in all (%d, %d before the year)\n", r, has, bdf,
				insts_of(""), dev_insts, ninsts), moved++;
		/* socket 0's total against the takeover's truth */
		double v0 = pcp_fetched(&st, "memory.read_bytes", "socket0");
		year_taken_at(&taken, r, !isnan(v0), v0);
		if (r == YEAR_TAKEOVER)
			year_takeover(&tr, &taken, sim_of(st.u->acc), sim_now(sim_of(st.u->acc)) + step);
		jobs_follow(oldest, next_job, &stale);
		year_jobs(r, per_read, &oldest, &next_job, &nbad);
		year_rss_at(&y, 0, r);
	}
	int fds = year_fds(); /* (the saved stderr still open, as at the warm-up) */
	year_truth_add(&tr, sim_of(st.u->acc));
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	for (int s = 0; s < 2; s++) {
		char inst[32];
		snprintf(inst, sizeof(inst), "socket%d", s);
		double want = tr.mem[s][0];
		/* whole 64-byte lines against a rate times a time: a line a read */
		year_near("memory.read_bytes", pcp_fetched(&st, "memory.read_bytes", inst), want, 1e-12 * want + 64.0 * (YEAR_READS + 2));
		for (int d = 0; d < 2; d++) {
			snprintf(inst, sizeof(inst), "socket%d/%s", s, d ? "dram" : "pkg");
			want = tr.energy[s][d];
			/* a unit of the counter a read (2^-14 J) */
			year_near(inst, pcp_fetched(&st, "energy.joules", inst), want, 1e-9 * want + (YEAR_READS + 2) / 16384.0);
		}
	}
	year_near("job 19999998", pcp_fetched(&st, "jobs.read_bytes", "19999998"), tr.end_job, TOL * tr.end_job);
	fprintf(stderr, "%d jobs' instances missing or stale at the fetches; %d instances of %s before the year, %d "
		"fetches with an instance missing or stale\n", stale, dev_insts, bdf, moved);
	CU_ASSERT(stale == 0 && dev_insts > 0 && moved == 0);
	CU_ASSERT(next_job == YEAR_JOBS);
	year_rss_check(&y, 1, (const int[]){ 4 }, fds); /* (the changes at 40, 61, 100, 131) */
	int *said = calloc((size_t)nbad, sizeof(*said)), other = log_count(log, warm, said, nbad);
	fprintf(stderr, "%d other warnings and errors logged\n", other);
	CU_ASSERT(other == 0);
	CU_ASSERT(year_said_once(said, nbad) == 0 && nbad >= YEAR_READS / 10);
	year_taken_check(&taken);
	fprintf(stderr, "%d lines said the jobs' socket 0 left out, %d health lines socket 0's iMCs taken\n", jobs_left, boxes_taken);
	CU_ASSERT(jobs_left == 1 && boxes_taken == taken.nboxes);
	year_change_want(want_said, sizeof(want_said));
	fprintf(stderr, "the node's changes said: %s (wanted %s)\n", changes, want_said);
	CU_ASSERT_STRING_EQUAL(changes, want_said);
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
