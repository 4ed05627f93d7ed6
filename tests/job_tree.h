/* The Slurm cgroup v2 tree the per-job tests build below UNCORE_SYSROOT (a job: its directory and the CPUs it
 * holds), and what they read back from a job tally. */
#ifndef TEST_JOB_TREE_H
#define TEST_JOB_TREE_H

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sim_helpers.h"

/* The steps and reads on a 2-core host are the simulator's time, not the host's: the rotation over the
 * CHAs is exact but for the share of a job's threads a window's steps left unsampled, at most one step of
 * ten a second.  Measured: within 0.025 % (sim:spr, tests/test_job_lifecycle.c); 1 % leaves room, and a job
 * counted from the wrong start, charged another's CPU or not at all is 50 % off or more. */
#define TOL 0.01

static const char *const v2 = "sys/fs/cgroup/system.slice/slurmstepd.scope";
static char dir[300]; /* the tree's root, UNCORE_SYSROOT */

/* Job id holds cpus (its directory made, its parent already there). */
static inline void job_put(const char *id, const char *cpus)
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

/* Job id ends: its directory goes. */
static inline void job_rm(const char *id)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/%s/job_%s/cpuset.cpus.effective", dir, v2, id);
	CU_ASSERT_FATAL(unlink(path) == 0);
	*strrchr(path, '/') = 0;
	CU_ASSERT_FATAL(rmdir(path) == 0);
}

/* A second as the front ends run it up to their read: a step every 100 ms, then the last 100 ms. */
static inline void second_of_steps(uncore_t *u, uncore_perjob_t *p)
{
	for (int k = 0; k < 9; k++) {
		uncore_sleep_ns(u, 100000000u);
		CU_ASSERT(uncore_perjob_step(p) == 0);
	}
	uncore_sleep_ns(u, 100000000u);
}

/* Job id's read bytes in the tally, NAN where it has no such job (or it is not present). */
static inline double tallied(const struct uncore_job_tally *t, const char *id)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->jobs[i].id, id))
			return t->jobs[i].present ? t->jobs[i].read_bytes : NAN;
	return NAN;
}

/* got within TOL of the truth want; what is said on stderr where not */
static inline int near(const char *what, double got, double want)
{
	int ok = !isnan(got) && fabs(got - want) <= TOL * fabs(want);
	if (!ok)
		fprintf(stderr, "%s: %.9g, truth %.9g\n", what, got, want);
	return ok;
}

#endif
