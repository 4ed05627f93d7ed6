/*
 * Issue 67 point 3: a job's share under sub-NUMA clustering is exact, not a lower bound (doc/jobs.md, "Error
 * model").  The simulator's jobs under SNC read and write their CPUs' own domain's memory, whose addresses hash
 * over that domain's CHAs alone (sim_jobs.c), so a core sampled at a CHA of another domain sees none of its
 * misses.  On sim: and perf+sim: of spr,snc=2 and gnr,snc=3: job a on domain 0, job b on domain 1, job c on
 * both, DMA on socket 0 and a job on socket 1; over 10 s of the manual clock (a step every 100 ms) and over
 * its last 1 s interval each job's reads must be its profile's rate times the window within 1 % (the truth),
 * and the simulator's domains must move their jobs' bytes (sim_node_truth against the profile).
 */
#include <stdio.h>
#include "sim_helpers.h"
#include "sim/sim_numa.h"

/* Steady traffic over a manual clock: measured within 0.01 %; a core sampled at the wrong domain's CHAs for
 * part of the window is tens of % off. */
#define TOL 0.01

static char dir[300];

struct job {
	const char *name;
	char cpus[64];
	double rd, wr; /* bytes/s */
	int socket;
};

static int near(const char *what, double got, double want)
{
	int ok = fabs(got - want) <= TOL * fabs(want);
	if (!ok)
		fprintf(stderr, "%s: %.9g, truth %.9g\n", what, got, want);
	return ok;
}

static double row_bytes(uncore_attrib_t *a, int n, const char *job, int socket)
{
	double v = 0;
	for (int i = 0; i < n; i++) {
		struct uncore_attrib_row r;
		if (!uncore_attrib_row(a, i, &r) && r.socket == socket && !strcmp(r.job, job))
			v += r.read_bytes;
	}
	return v;
}

static void check(const char *be, const char *plat, int snc)
{
	char spec[512], path[400], what[700];
	/* the CPUs of a domain: a socket's cores split evenly, in order (the simulated kernel's nodes) */
	snprintf(spec, sizeof(spec), "%s:%s,snc=%d", be, plat, snc);
	uncore_t *u = open_sim(spec);
	struct uncore_numa_node nodes[16];
	CU_ASSERT_FATAL(uncore_numa_nodes(u, nodes, 16) == 2 * snc);
	int per = nodes[0].ncpus, cps = per * snc;
	uncore_close(u);
	struct job jobs[] = {
		{ "a", "", 30e9, 12e9, 0 },
		{ "b", "", 60e9, 6e9, 0 },
		{ "c", "", 10e9, 1e9, 0 },
		{ "d", "", 20e9, 2e9, 1 },
	};
	snprintf(jobs[0].cpus, sizeof(jobs[0].cpus), "0-3");
	snprintf(jobs[1].cpus, sizeof(jobs[1].cpus), "%d-%d", per, per + 3);
	snprintf(jobs[2].cpus, sizeof(jobs[2].cpus), "%d-%d,%d-%d", per - 2, per - 1, per + 4, per + 5);
	snprintf(jobs[3].cpus, sizeof(jobs[3].cpus), "%d-%d", cps + per, cps + per + 5);
	snprintf(path, sizeof(path), "%s/profile", dir);
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	for (int j = 0; j < 4; j++)
		fprintf(f, "job.%s.cpus = %s\njob.%s.mem_read_bytes_per_s = %g\njob.%s.mem_write_bytes_per_s = %g\n",
			jobs[j].name, jobs[j].cpus, jobs[j].name, jobs[j].rd, jobs[j].name, jobs[j].wr);
	fprintf(f, "socket0.dma_read_bytes_per_s = 6e9\nsocket0.dma_write_bytes_per_s = 3e9\n");
	fclose(f);
	snprintf(spec, sizeof(spec), "%s:%s,snc=%d,clock=manual,profile=%s", be, plat, snc, path);
	u = open_sim(spec);
	const struct sim *sim = sim_of(u->acc);

	/* the simulator's domains: domain 0 of socket 0 moves a's bytes and c's half, and its part (1 of 1 + .. +
	 * snc) of the DMA; domain 1 b's and c's other half and 2 parts */
	double parts = snc * (snc + 1) / 2.0, rd, wr;
	CU_ASSERT_FATAL(sim_node_truth(sim, 0, &rd, &wr) == 0);
	snprintf(what, sizeof(what), "%s node 0's simulated reads", spec);
	CU_ASSERT(near(what, rd, 30e9 + 5e9 + 6e9 / parts));
	snprintf(what, sizeof(what), "%s node 0's simulated writes", spec);
	CU_ASSERT(near(what, wr, 12e9 + 0.5e9 + 3e9 / parts));
	CU_ASSERT_FATAL(sim_node_truth(sim, 1, &rd, &wr) == 0);
	snprintf(what, sizeof(what), "%s node 1's simulated reads", spec);
	CU_ASSERT(near(what, rd, 60e9 + 5e9 + 2 * 6e9 / parts));

	const char *names[4], *cpus[4];
	for (int j = 0; j < 4; j++)
		names[j] = jobs[j].name, cpus[j] = jobs[j].cpus;
	uncore_attrib_t *a = NULL;
	CU_ASSERT_FATAL(uncore_attrib_new_cpus(u, 4, names, cpus, &a) == 0);
	CU_ASSERT_FATAL(uncore_attrib_start(a) == 0);
	for (int step = 0; step < 100; step++) {
		CU_ASSERT_FATAL(uncore_sleep_ns(u, 100000000ull) == 0);
		/* at 9 s a read: the last second is an interval of its own */
		int rc = step == 89 ? uncore_attrib_read(a, UNCORE_LAST_INTERVAL) : uncore_attrib_step(a) + 1;
		CU_ASSERT_FATAL(rc > 0);
	}
	int n = uncore_attrib_read(a, UNCORE_LAST_INTERVAL);
	CU_ASSERT_FATAL(n > 0);
	for (int j = 0; j < 4; j++) {
		snprintf(what, sizeof(what), "%s job %s (CPUs %s), the last 1 s", spec, jobs[j].name, jobs[j].cpus);
		CU_ASSERT(near(what, row_bytes(a, n, jobs[j].name, jobs[j].socket), jobs[j].rd * 1.0));
	}
	n = uncore_attrib_read(a, UNCORE_SINCE_START);
	CU_ASSERT_FATAL(n > 0);
	for (int j = 0; j < 4; j++) {
		snprintf(what, sizeof(what), "%s job %s (CPUs %s), 10 s", spec, jobs[j].name, jobs[j].cpus);
		CU_ASSERT(near(what, row_bytes(a, n, jobs[j].name, jobs[j].socket), jobs[j].rd * 10.0));
	}
	snprintf(what, sizeof(what), "%s socket 0's unattributed reads (the DMA), 10 s", spec);
	CU_ASSERT(near(what, row_bytes(a, n, "", 0), 6e9 * 10.0));
	CU_ASSERT(uncore_attrib_stop(a) == 0);
	uncore_attrib_free(a);
	uncore_close(u);
}

static void test_snc_shares(void)
{
	static const char *const be[] = { "sim", "perf+sim" };
	for (int i = 0; i < 2; i++) {
		check(be[i], "spr", 2);
		check(be[i], "gnr", 3);
	}
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/test_job_snc.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return perror("mkdtemp"), 1;
	static const struct test_case tests[] = {
		{ "jobs on SNC domains: exact shares on sim and perf+sim of spr,snc=2 and gnr,snc=3", test_snc_shares },
		{ 0, 0 },
	};
	int rc = run_suite("job_snc", tests);
	char path[400];
	snprintf(path, sizeof(path), "%s/profile", dir);
	unlink(path);
	rmdir(dir);
	return rc;
}
