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
 * year), jobs whose cgroup names no CPU come now and then, two of them at once at times (a warning each), a
 * SIGHUP reload half-way while one of them stands (ue_reload, the exporter's own: on the manual clock the new
 * handle is a new machine, whose truth adds to the old's), the node changing under the exporter (tests/year.h:
 * a CPU offline and back, a device removed and added, the PMU driver reloaded), another agent taking socket 0's
 * iMC boxes, and the wall clock stepped back an hour.  Each read is the main loop's (ue_step: the node's changes
 * followed, then the read).  Checked: each socket's memory bytes and energy equal the simulator's truth over the
 * year (socket 0's without the window another agent held its boxes: year_takeover says which), the long job's
 * bytes too; the scrape has a series for every job the last read saw and none for one gone every 73 days and
 * after each change, the device's series gone while it is, every other series kept; each change said in one
 * line, the takeover found within two reads and no box of it said twice, socket 0's total standing, then not
 * exported, then resumed (year_taken), the jobs' socket 0 left out said once; socket 1's stamps never back and its
 * rate over them the truth's; every warning logged once; RSS and open files flat after each phase's warm-up.
 */
#include <fcntl.h>
#include "year.h"
#include "../exporter/ue.h"


/* An exporter with its configuration: its command line (what a SIGHUP reads again), the options, the state. */
struct exporter {
	char spec[900];
	char *argv[7];
	struct ue_config c;
	struct ue_state st;
};

/* As the exporter's main starts (exporter/uncore_exporter.c): its options, then ue_begin. */
static void start(struct exporter *e)
{
	char *argv[] = { "uncore-exporter", "--backend", e->spec, "--per-job", "--interval", "60", NULL };
	char err[1024];
	memcpy(e->argv, argv, sizeof(argv));
	CU_ASSERT_FATAL(ue_options(&e->c, 6, e->argv, err, sizeof(err)) == 0);
	if (ue_begin(&e->c, &e->st, NULL, err, sizeof(err)))
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

static struct sim *sim_now_of(const struct exporter *e) { return sim_of(e->st.u->acc); }

/* The exporter's SIGHUP (exporter/ue_run.c ue_reload, as the main loop calls it): the old handle's last read, its
 * machine's truth added, the new one's started. */
static void reload(struct exporter *e, struct year_truth *tr)
{
	year_truth_add(tr, sim_now_of(e));
	year_wall_set(year_wall_ns(sim_now_of(e))); /* (the new machine's wall clock goes on from the old's) */
	CU_ASSERT_FATAL(ue_reload(6, e->argv, &e->c, &e->st) == 0);
	CU_ASSERT_FATAL(e->st.s != NULL);
	year_truth_start(tr, sim_now_of(e));
}

/* A read of the exporter's schedule (ue_step, the main loop's): where the node changed before it, the handle
 * the step lets go is the machine whose truth ends there, and the one it opens starts its own. */
static void step(struct exporter *e, struct year_truth *tr, int changed)
{
	if (changed)
		year_truth_add(tr, sim_now_of(e));
	CU_ASSERT_FATAL(ue_step(&e->c, &e->st) == 0);
	if (changed)
		year_truth_start(tr, sim_now_of(e));
}

/* Socket s's memory read bytes, the series (NULL: none has it now) */
static const struct ue_series *mem_read(const struct ue_state *st, int s)
{
	char labels[32];
	snprintf(labels, sizeof(labels), "socket=\"%d\"", s);
	for (int i = 0; i < st->nseries; i++)
		if (!strcmp(st->fams[st->series[i].fam].name, "uncore_memory_read_bytes") && !strcmp(st->series[i].labels, labels))
			return &st->series[i];
	return NULL;
}

/* The series whose labels name bdf. */
static int series_of(const struct ue_state *st, const char *bdf)
{
	int n = 0;
	for (int i = 0; i < st->nseries; i++)
		n += strstr(st->series[i].labels, bdf) != NULL;
	return n;
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
	struct year_truth tr = { 0 };
	char log[700], bdf[16];
	memset(&e, 0, sizeof(e));
	many_jobs_tree("uncore-exporter-year", e.spec, sizeof(e.spec));
	strcat(e.spec, ",prewrap=120");
	year_changes_spec(e.spec, sizeof(e.spec));
	year_profile();
	many_jobs_fill(YEAR_LIVE);
	/* the exporter's log (its stderr) to a file: the warnings in it counted */
	snprintf(log, sizeof(log), "%s/uncore-exporter-year-%d.log", test_tmpdir(), (int)getpid());
	fflush(stderr);
	int saved = dup(2), fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CU_ASSERT_FATAL(saved >= 0 && fd >= 0 && dup2(fd, 2) == 2);
	close(fd);
	year_wall_set(YEAR_EPOCH * 1000000000ull);
	start(&e);
	year_truth_start(&tr, sim_now_of(&e));
	struct year_stamps ys = { 0 };
	struct year_taken taken = { 0 };
	year_device(e.st.u, bdf, sizeof(bdf));
	int dev_series = series_of(&e.st, bdf), nseries = e.st.nseries, moved = 0;
	uint64_t step_ns = (uint64_t)(YEAR / YEAR_READS * 1e9);
	int per_read = (YEAR_JOBS - YEAR_LIVE + YEAR_READS - 1) / YEAR_READS, next_job = YEAR_LIVE, oldest = 0, nbad = 0, stale = 0;
	struct year_rss y = { 0 };
	int phase = 0, since = 0;
	for (int r = 0; r < YEAR_READS; r++, since++) {
		sim_advance(sim_now_of(&e), step_ns); /* a day at once: see the head of the file */
		/* the node changing under the exporter: said at this read, the truth carried as at the reload */
		int changed = year_change_due(r, bdf, sim_now_of(&e));
		step(&e, &tr, changed);
		/* socket 1's bytes and their stamps; socket 0's counted but between the takeover and the change after */
		const struct ue_series *m = mem_read(&e.st, 1);
		CU_ASSERT_FATAL(m != NULL);
		if (m->have)
			year_stamp_at(&ys, m->t_ns, m->base + m->value, truth_of(sim_now_of(&e), "mem_bw_read", 1).v * 1e9);
		/* socket 0's total against the takeover's (its last value kept unexported while taken: the total to carry) */
		m = mem_read(&e.st, 0);
		CU_ASSERT_FATAL(m != NULL);
		year_taken_at(&taken, r, m->have, m->base + m->value);
		if (r == YEAR_TAKEOVER)
			year_takeover(&tr, &taken, sim_now_of(&e), sim_now(sim_now_of(&e)) + step_ns);
		int seen_from = oldest, seen_to = next_job; /* the jobs this read saw */
		if (changed) { /* every job's series, the device's as the device is, every other series as it was */
			stale += series_follow(&e.st, seen_from, seen_to);
			int gone = r >= 100 && r < 131, has = series_of(&e.st, bdf);
			if ((gone ? has != 0 : has != dev_series) || e.st.nseries != nseries - (gone ? dev_series : 0))
				fprintf(stderr, "read %d: %d series of %s, %d in all (%d before the year)\n", r, has, bdf, e.st.nseries, nseries), moved++;
		}
		year_jobs(r, per_read, &oldest, &next_job, &nbad);
		if (r % 73 == 72)
			stale += series_follow(&e.st, seen_from, seen_to);
		year_rss_at(&y, phase, since);

		if (r == YEAR_READS / 2) { /* (a bad job stands now: its warning is not said again) */
			reload(&e, &tr);
			phase = 1;
			since = -1;
		}
	}
	step(&e, &tr, 0);
	year_truth_add(&tr, sim_now_of(&e));
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
	fprintf(stderr, "%d series of %s before the year; %d reads after a change with a series stale or missing\n",
		dev_series, bdf, moved);
	CU_ASSERT(dev_series > 0 && moved == 0);
	year_stamps_check(&ys);
	CU_ASSERT(stale == 0);
	CU_ASSERT(next_job == YEAR_JOBS);
	/* (the changes at 40, 61, 100, 131; the second half steps up to 216 kB without one, the bytes in use flat) */
	year_rss_check(&y, 2, (const int[]){ 4, 1 }, fds);
	/* each bad job's warning said once; each change in one line; nothing left unread */
	FILE *f = fopen(log, "r");
	CU_ASSERT_FATAL(f != NULL);
	int *said = calloc((size_t)nbad, sizeof(*said)), unread = 0, jobs_left = 0;
	char line[4096], changes[256] = "", want[256];
	while (fgets(line, sizeof(line), f)) {
		year_count_bad(line, "--per-job: ", said, nbad);
		year_change_said(line, changes, sizeof(changes));
		unread += strstr(line, "nothing could be read") != NULL;
		if (!strstr(line, "--per-job: ")) /* (the read's) */
			year_taken_line(&taken, line);
		jobs_left += strstr(line, "--per-job: per-job attribution: socket 0's memory controllers are not counted") != NULL;
	}
	fclose(f);
	CU_ASSERT(year_said_once(said, nbad) == 0 && nbad >= YEAR_READS / 5 - 2);
	free(said);
	year_change_want(want, sizeof(want));
	fprintf(stderr, "the node's changes said: %s (wanted %s); %d reads with nothing read\n", changes, want, unread);
	CU_ASSERT_STRING_EQUAL(changes, want);
	CU_ASSERT(unread == 0);
	year_taken_check(&taken);
	fprintf(stderr, "%d lines said the jobs' socket 0 left out\n", jobs_left);
	CU_ASSERT(jobs_left == 1);
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
