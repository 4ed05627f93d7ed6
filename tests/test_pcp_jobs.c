/*
 * Issue 89 points 1 and 4: the PCP agent's jobs (-j, pcp_pmda/iu_jobs.c) as pmcd gets them, its instance domain
 * after each of the agent's reads, on a simulated SKX whose Slurm cgroup tree (below UNCORE_SYSROOT) changes
 * between reads.
 *   - 600 and 10,000 jobs, the jobs that come and go sorting last (past the first 4 KiB of the set): the
 *     instances are the jobs of the tree after the first read that follows the change, and the new job's
 *     bytes are its CPU's truth (the simulator's profile: CPU 35 alone moves END_BPS).
 *   - 500 jobs come and go through a node of 50: the table holds the 50 present (it kept every job that ever
 *     ran), each job keeps its number while it stays, and no number is ever given to another job.
 *   - a job id the library refuses and a job named "unattributed" (instance 0's name): each said in the
 *     agent's log once while it stays (it said nothing), again once it comes back.
 */
#include "many_jobs.h"
#include "iu_pmda.h"
#include "iu_log.h"
#include "stderr_during.h"

static struct iu_state st;

/* A fresh tree and the agent's -j state on sim:skx of the profile (manual clock) */
static void agent_start(void)
{
	char spec[900];
	many_jobs_tree("uncore-pcp-jobs", spec, sizeof(spec));
	memset(&st, 0, sizeof(st));
	st.u = open_sim(spec);
	st.per_job = 1;
	st.indoms = calloc((size_t)iu_nmetrics, sizeof(*st.indoms));
	CU_ASSERT_FATAL(st.indoms != NULL);
}

static void agent_start_jobs(void)
{
	CU_ASSERT_FATAL(iu_jobs_start(&st) == 0);
}

static void agent_stop(void)
{
	iu_jobs_free(&st);
	free(st.indoms[iu_jobs_indom()].it_set);
	free(st.indoms);
	uncore_close(st.u);
	many_jobs_clean();
}

/* One second as the agent runs it: a step every 100 ms, then its read (the bytes, the jobs followed, the
 * instances made). */
static void interval(void)
{
	second_of_steps(st.u, st.perjob);
	iu_jobs_read(&st);
}

static const pmdaIndom *jobs_indom(void) { return &st.indoms[iu_jobs_indom()]; }

/* The instance named name: its number, or -1. */
static int inst_of(const char *name)
{
	const pmdaIndom *d = jobs_indom();
	for (int i = 0; i < d->it_numinst; i++)
		if (!strcmp(d->it_set[i].i_name, name))
			return d->it_set[i].i_inst;
	return -1;
}

/* The read bytes pmcd would fetch for instance name: NAN where there is none. */
static double fetched(const char *name)
{
	double x;
	int inst = inst_of(name);
	return inst >= 0 && !iu_job_value(&st, iu_jobs_indom(), inst, &x) ? x : NAN;
}

static int highest(void)
{
	int hi = 0;
	for (int i = 0; i < jobs_indom()->it_numinst; i++)
		hi = jobs_indom()->it_set[i].i_inst > hi ? jobs_indom()->it_set[i].i_inst : hi;
	return hi;
}

static void many(int n)
{
	agent_start();
	many_jobs_fill(n);
	agent_start_jobs();
	CU_ASSERT_EQUAL(jobs_indom()->it_numinst, n + 2); /* and "unattributed" */
	interval();
	interval();
	int before = highest(), old = inst_of("19999998");
	CU_ASSERT(old > 0 && inst_of("unattributed") == 0);

	/* the last job ends, another starts on its CPU: the instances follow at the first read after */
	job_rm("19999998");
	job_put("19999999", "35");
	interval();
	CU_ASSERT_EQUAL(jobs_indom()->it_numinst, n + 2);
	CU_ASSERT(inst_of("19999998") < 0);
	CU_ASSERT(inst_of("19999999") > before); /* a number of its own, not the one that left */
	CU_ASSERT(fabs(fetched("19999999")) < 1);
	interval();
	double got = fetched("19999999");
	if (!(fabs(got - END_BPS) <= TOL * END_BPS))
		fprintf(stderr, "19999999: %.9g, truth %.9g\n", got, END_BPS);
	CU_ASSERT(fabs(got - END_BPS) <= TOL * END_BPS);
	CU_ASSERT(isnan(fetched("19999998")));
	char first[16];
	snprintf(first, sizeof(first), "%d", 10000000);
	CU_ASSERT(inst_of(first) == 1); /* the jobs that stay keep theirs */
	agent_stop();
}

static void test_600(void) { many(600); }
static void test_10000(void) { many(10000); }

/* 500 jobs through a node of 50: one leaves and one comes at each read */
static void test_churn(void)
{
	enum { N = 50, ROUNDS = 450 };
	static char name_of_inst[N + ROUNDS + 1][16]; /* every number given, and to whom */
	char id[16], cpu[8];
	int bad = 0;
	agent_start();
	for (int i = 0; i < N; i++) {
		snprintf(id, sizeof(id), "%d", 5000 + i);
		snprintf(cpu, sizeof(cpu), "%d", i % 36);
		job_put(id, cpu);
	}
	agent_start_jobs();
	for (int r = 0; r <= ROUNDS && !bad; r++) {
		const pmdaIndom *d = jobs_indom();
		if (st.njobs != N || d->it_numinst != N + 1) {
			fprintf(stderr, "round %d: %d jobs in the table, %d instances (%d present)\n", r, st.njobs, d->it_numinst, N);
			bad = 1;
		}
		for (int i = 0; i < d->it_numinst && !bad; i++) {
			int inst = d->it_set[i].i_inst;
			const char *name = d->it_set[i].i_name;
			if (inst < 0 || inst > N + ROUNDS) {
				fprintf(stderr, "round %d: instance %d of %s out of range\n", r, inst, name);
				bad = 1;
			} else if (!name_of_inst[inst][0]) {
				snprintf(name_of_inst[inst], sizeof(name_of_inst[inst]), "%s", name);
			} else if (strcmp(name_of_inst[inst], name)) {
				fprintf(stderr, "round %d: instance %d was %s, now %s\n", r, inst, name_of_inst[inst], name);
				bad = 1;
			}
		}
		if (r == ROUNDS)
			break;
		snprintf(id, sizeof(id), "%d", 5000 + r);
		job_rm(id);
		snprintf(id, sizeof(id), "%d", 5000 + N + r);
		snprintf(cpu, sizeof(cpu), "%d", (N + r) % 36);
		job_put(id, cpu);
		uncore_sleep_ns(st.u, 100000000u);
		iu_jobs_read(&st);
	}
	CU_ASSERT(!bad);
	CU_ASSERT_EQUAL(highest(), N + ROUNDS); /* every job its own number */
	agent_stop();
}

/* The agent's log (stderr, where pmNotifyErr writes before pmdaOpenLog) during fn, into out */
static void logged(void (*fn)(int), int arg, char *out, size_t len)
{
	char path[400];
	snprintf(path, sizeof(path), "%s/agent.log", dir);
	stderr_during(fn, arg, path, out, len);
}

static void reads(int n)
{
	for (int i = 0; i < n; i++)
		interval();
}

static int count(const char *text, const char *what)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, what)); p++)
		n++;
	return n;
}

static void test_hostile(void)
{
	static char log[65536];
	const char *refused = "a job named 'bad?x' is left out";
	const char *clash = "a job named \"unattributed\" has no instance of its own";
	agent_start();
	job_put("1", "0-8");
	agent_start_jobs();
	job_put("bad\033x", "9-17");    /* an id the library refuses (an ESC in it) */
	job_put("unattributed", "18-26"); /* instance 0's name */
	logged(reads, 5, log, sizeof(log));
	CU_ASSERT_EQUAL(count(log, refused), 1);
	CU_ASSERT_EQUAL(count(log, clash), 1);
	CU_ASSERT(inst_of("1") == 1 && jobs_indom()->it_numinst == 2);
	if (count(log, refused) != 1 || count(log, clash) != 1)
		fprintf(stderr, "the agent's log over 5 reads:\n%s\n", log);
	/* gone and back: said again, once */
	job_rm("bad\033x");
	job_rm("unattributed");
	logged(reads, 2, log, sizeof(log));
	CU_ASSERT_EQUAL(count(log, refused) + count(log, clash), 0);
	job_put("bad\033x", "9-17");
	job_put("unattributed", "18-26");
	logged(reads, 3, log, sizeof(log));
	CU_ASSERT_EQUAL(count(log, refused), 1);
	CU_ASSERT_EQUAL(count(log, clash), 1);
	agent_stop();
}

/* a message quoting a hostile record or file (EDAC's mc_name, a job's text), as the agent's sites log them */
static void say_hostile(int k)
{
	iu_log(LOG_WARNING, "per-job: %d %s", k, "mc_name 'x\033]0;owned\007\033[2J' job 7\342\200\256" "1n no \302\233" "2J\n"
	       "forged line\342\201\246");
}

/* The agent's log escapes what its messages quote (issue 96 point 5): no control character, C1 or bidirectional
 * control reaches the log raw, each shown as \xHH or \uHHHH, and a message stays one line. */
static void test_log_escaped(void)
{
	static char log[4096];
	agent_start(); /* (its directory holds the log) */
	logged(say_hostile, 1, log, sizeof(log));
	agent_stop();
	const char *want = "per-job: 1 mc_name 'x\\x1b]0;owned\\x07\\x1b[2J' job 7\\u202e1n no \\u009b2J\\nforged line\\u2066";
	CU_ASSERT(strstr(log, want) != NULL);
	CU_ASSERT(!strchr(log, '\033') && !strstr(log, "\302\233") && !strstr(log, "\342\200\256") && !strstr(log, "\342\201\246"));
	CU_ASSERT(count(log, "\n") == 1);
	if (!strstr(log, want))
		fprintf(stderr, "the agent's log: %s\n", log);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "600 jobs: the instances follow a change at the end of the list at the next read", test_600 },
		{ "10,000 jobs: the same", test_10000 },
		{ "500 jobs through a node of 50: the table the jobs present, no number given twice", test_churn },
		{ "a refused id and a job named unattributed: each said once while it stays", test_hostile },
		{ "the log's messages escaped, each one line", test_log_escaped },
		{ NULL, NULL },
	};
	return run_suite("pcp_jobs", tests);
}
