/*
 * Issue 99 point 3: the exporter through a simulated year (sim:skx on the manual clock, counters started 120 s
 * short of their wrap), its reads and rendering run here without its HTTP server as tests/test_exporter_jobs_many.c
 * does, a read every simulated day.  The day passes in one step of the simulator's clock (sim_advance): the
 * library's bound on the time between reads (7 min for a 48-bit counter at the fastest any event could count,
 * 80 s for RAPL at the part's 205 W) is the worst case, and sampling at it would take the year 150,000 samples;
 * at the profile's rates (18 and 20 GB/s of reads, 2 W of package, 0.4 W of DRAM) each counter checked here
 * wraps at most once a day, which the totals prove (a second wrap unseen would be days of bytes off).  The energy reads say each day
 * that their interval is past the wrap time at 205 W; that line is expected.
 * Over the year: the memory counters wrap (48 bits), the RAPL counters wrap (32 bits: the package's every
 * 36 h, DRAM's every 46 h), 100,000 Slurm jobs come and go (a hundred at a time, and job 19999998 on CPU 35 all
 * year), a job whose cgroup names no CPU comes now and then (a warning each), and a SIGHUP reload half-way (the
 * exporter's sequence: the last read, the session and handle freed, the new ones started, the counts carried;
 * on the manual clock the new handle is a new machine, whose truth adds to the old's).  Checked: each socket's
 * memory bytes and energy equal the simulator's truth over the year, the long job's bytes too; every 73 days
 * the scrape has a series for every job the last read saw and none for one gone; every warning logged once;
 * RSS and open files flat after each phase's warm-up.  Not yet here: the clock stepped back, another agent
 * taking over a box, and the node changing (the simulator's changes=FILE, issue 99 point 2: the marked place in
 * the loop).
 */
#include <fcntl.h>
#include "year.h"
#include "sim_truth.h"
#include "../exporter/ue.h"


/* An exporter with its configuration: the state, and what its reload reads again. */
struct exporter {
	struct ue_config c;
	struct ue_state st;
	char spec[900];
};

static void start(struct exporter *e)
{
	char *argv[] = { "uncore-exporter", "--backend", e->spec, "--per-job", "--interval", "60", NULL };
	char err[1024];
	CU_ASSERT_FATAL(ue_options(&e->c, 6, argv, err, sizeof(err)) == 0);
	/* as the exporter's start: the series, then the jobs (exporter/uncore_exporter.c) */
	if (ue_plan(&e->c, &e->st, err, sizeof(err)) || ue_start(&e->st, err, sizeof(err)) ||
	    ue_jobs_start(&e->st, err, sizeof(err)))
		fprintf(stderr, "exporter start: %s\n", err);
	CU_ASSERT_FATAL(e->st.s != NULL && e->st.perjob != NULL);
}

/* The value of the scrape's line that begins with name{labels} ; NAN where there is none. */
static double sample_of(const char *text, const char *series)
{
	char key[300];
	snprintf(key, sizeof(key), "\n%s ", series);
	const char *at = strstr(text, key);
	return at ? strtod(at + strlen(key), NULL) : NAN;
}

static char *scrape(const struct ue_state *st)
{
	struct ue_snapshot *snap = ue_render(st, 0);
	CU_ASSERT_FATAL(snap != NULL);
	char *t = snap->text;
	free(snap->om);
	free(snap);
	return t;
}

/* What the year is checked against: the truth of the simulated machines it ran on (a reload opens a new one). */
struct truths {
	double mem[2][2];    /* socket, read/write: bytes */
	double energy[2][2]; /* socket, pkg/dram: joules */
	double end_job;      /* job 19999998's bytes */
	double e0[2][2], t0; /* this machine's at the exporter's start */
};

static void truths_start(struct truths *tr, struct sim *sim)
{
	tr->t0 = (double)sim_now(sim) / 1e9;
	for (int s = 0; s < 2; s++)
		for (int d = 0; d < 2; d++)
			tr->e0[s][d] = truth_energy_j(sim, s, d);
}

static void truths_add(struct truths *tr, struct sim *sim)
{
	double dt = (double)sim_now(sim) / 1e9 - tr->t0;
	for (int s = 0; s < 2; s++) {
		tr->mem[s][0] += truth_of(sim, "mem_bw_read", s).v * 1e9 * dt; /* (GB/s) */
		tr->mem[s][1] += truth_of(sim, "mem_bw_write", s).v * 1e9 * dt;
		for (int d = 0; d < 2; d++)
			tr->energy[s][d] += truth_energy_j(sim, s, d) - tr->e0[s][d];
	}
	tr->end_job += END_BPS * dt;
}

/* The exporter's SIGHUP (exporter/uncore_exporter.c reload): the old state's last read, its session and handle
 * freed (the manual clock's machine with them), the new one started and the counts carried over. */
static void reload(struct exporter *e, struct truths *tr)
{
	struct exporter n = *e;
	CU_ASSERT(ue_read(&e->st) == 0);
	truths_add(tr, sim_of(e->st.u->acc));
	ue_jobs_stop(&e->st);
	uncore_session_free(e->st.s);
	uncore_close(e->st.u);
	e->st.s = NULL;
	e->st.u = NULL;
	memset(&n.st, 0, sizeof(n.st));
	start(&n);
	ue_carry(&n.st, &e->st);
	ue_teardown(&e->st);
	ue_config_free(&e->c);
	*e = n;
	truths_start(tr, sim_of(e->st.u->acc));
}

static void year_near(const char *what, double v, double want, double tol)
{
	int ok = fabs(v - want) <= tol;
	fprintf(stderr, "%s: %.17g, truth %.17g%s\n", what, v, want, ok ? "" : " FAIL");
	CU_ASSERT(ok);
}

/* Every job present has its series in the scrape, none gone has: the live ones from..to-1, and those before. */
static int series_follow(const struct ue_state *st, int from, int to)
{
	char *t = scrape(st), name[120];
	int bad = 0;
	for (int j = from - 5 >= 0 ? from - 5 : 0; j < to; j++) {
		snprintf(name, sizeof(name), "uncore_job_memory_read_bytes_total{job_id=\"%d\"}", 10000000 + j);
		int has = !isnan(sample_of(t, name));
		if (has != (j >= from) && bad++ < 3)
			fprintf(stderr, "job %d: %s\n", 10000000 + j, has ? "a series after it ended" : "no series while present");
	}
	free(t);
	return bad;
}


static void test_year(void)
{
	struct exporter e;
	struct truths tr = { 0 };
	char log[700], bad[32] = "";
	memset(&e, 0, sizeof(e));
	many_jobs_tree("uncore-exporter-year", e.spec, sizeof(e.spec));
	strcat(e.spec, ",prewrap=120");
	year_profile();
	many_jobs_fill(YEAR_LIVE);
	/* the exporter's log (its stderr) to a file: the warnings in it counted */
	snprintf(log, sizeof(log), "%s/uncore-exporter-year-%d.log", test_tmpdir(), (int)getpid());
	fflush(stderr);
	int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(saved >= 0 && fd >= 0 && dup2(fd, 2) == 2);
	close(fd);
	start(&e);
	truths_start(&tr, sim_of(e.st.u->acc));
	uint64_t step = (uint64_t)(YEAR / YEAR_READS * 1e9);
	int per_read = (YEAR_JOBS - YEAR_LIVE + YEAR_READS - 1) / YEAR_READS, next_job = YEAR_LIVE, oldest = 0, nbad = 0, stale = 0;
	struct year_rss y = { 0 };
	int phase = 0, since = 0;
	for (int r = 0; r < YEAR_READS; r++, since++) {
		sim_advance(sim_of(e.st.u->acc), step); /* a day at once: see the head of the file */
		CU_ASSERT(ue_read(&e.st) == 0);
		int seen_from = oldest, seen_to = next_job; /* the jobs this read saw */
		year_jobs(r, per_read, &oldest, &next_job, bad, sizeof(bad), &nbad);
		if (r % 73 == 72)
			stale += series_follow(&e.st, seen_from, seen_to);
		year_rss_at(&y, phase, since);
		if (r == YEAR_READS / 2) { /* (no bad job stands now: a reload says a standing one again, as a start does) */
			reload(&e, &tr);
			phase = 1;
			since = -1;
		}
		/* ---- the node changing (issue 99 point 2, the simulator's changes=FILE: a CPU offline and back, a
		 * device gone and come, the PMU driver reloaded) goes here, the truth carried as at the reload ---- */
	}
	CU_ASSERT(ue_read(&e.st) == 0);
	truths_add(&tr, sim_of(e.st.u->acc));
	char *t = scrape(&e.st), name[120];
	int fds = year_fds(); /* (the saved stderr still open, as at the warm-up) */
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	for (int s = 0; s < 2; s++) {
		static const char *const rw[] = { "read", "write" }, *const dom[] = { "pkg", "dram" };
		for (int k = 0; k < 2; k++) {
			snprintf(name, sizeof(name), "uncore_memory_%s_bytes_total{socket=\"%d\"}", rw[k], s);
			/* whole 64-byte lines against a rate times a time: a line a read */
			year_near(name, sample_of(t, name), tr.mem[s][k], 1e-12 * tr.mem[s][k] + 64.0 * (YEAR_READS + 2));
			snprintf(name, sizeof(name), "uncore_energy_joules_total{socket=\"%d\",domain=\"%s\"}", s, dom[k]);
			/* a unit of the counter a read (2^-14 J) */
			year_near(name, sample_of(t, name), tr.energy[s][k], 1e-9 * tr.energy[s][k] + (YEAR_READS + 2) / 16384.0);
		}
	}
	snprintf(name, sizeof(name), "uncore_job_memory_read_bytes_total{job_id=\"19999998\"}");
	year_near(name, sample_of(t, name), tr.end_job, TOL * tr.end_job);
	free(t);
	CU_ASSERT(stale == 0);
	CU_ASSERT(next_job == YEAR_JOBS);
	year_rss_check(&y, 2, fds);
	/* each bad job's warning said once */
	FILE *f = fopen(log, "r");
	CU_ASSERT_FATAL(f != NULL);
	int *said = calloc((size_t)nbad, sizeof(*said));
	char line[4096];
	while (fgets(line, sizeof(line), f))
		year_count_bad(line, "--per-job: ", said, nbad);
	fclose(f);
	CU_ASSERT(year_said_once(said, nbad) == 0 && nbad >= YEAR_READS / 10);
	free(said);
	if (CU_get_number_of_failures() && (f = fopen(log, "r"))) { /* said in the test's own log, then removed */
		fprintf(stderr, "the exporter's log:\n");
		while (fgets(line, sizeof(line), f))
			fputs(line, stderr);
		fclose(f);
	}
	unlink(log);
	ue_teardown(&e.st);
	ue_config_free(&e.c);
	many_jobs_clean();
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "the exporter through a simulated year", test_year },
		{ NULL, NULL },
	};
	return run_suite("exporter_year", tests);
}
