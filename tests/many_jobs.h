/* The many-jobs fixture of the per-job front ends' tests (issue 89 point 1): a simulated SKX (36 CPUs) whose
 * profile has CPUs 0-34 move FILL_BPS and CPU 35 alone END_BPS, and a Slurm tree of n single-CPU filler jobs
 * (8-digit ids, CPUs 0-34 in turn) and job 19999998 on CPU 35, last in the list (names sort as text), so that
 * the jobs that come and go after it are past the first 4 KiB of the set. */
#ifndef TEST_MANY_JOBS_H
#define TEST_MANY_JOBS_H

#include <stdlib.h>
#include "job_tree.h"

#define FILL_BPS 35e9 /* CPUs 0-34, 1e9 B/s each */
#define END_BPS 3e9   /* CPU 35 */

/* A fresh tree at $TMPDIR/name-pid (dir, UNCORE_SYSROOT from now) with the profile in it: the backend spec of
 * sim:skx on the manual clock running that profile in spec. */
static inline void many_jobs_tree(const char *name, char *spec, size_t size)
{
	char path[700], cmd[1600];
	snprintf(dir, sizeof(dir), "%s/%s-%d", test_tmpdir(), name, (int)getpid());
	snprintf(path, sizeof(path), "%s/%s", dir, v2);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, path);
	CU_ASSERT_FATAL(system(cmd) == 0);
	snprintf(path, sizeof(path), "%s/profile", dir);
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "job.fill.cpus = 0-34\njob.fill.mem_read_bytes_per_s = %g\njob.end.cpus = 35\n"
		   "job.end.mem_read_bytes_per_s = %g\n", FILL_BPS, END_BPS);
	fclose(f);
	snprintf(spec, size, "sim:skx,clock=manual,profile=%s", path);
	setenv("UNCORE_SYSROOT", dir, 1);
}

/* The n filler jobs and 19999998 on CPU 35. */
static inline void many_jobs_fill(int n)
{
	char id[16], cpu[8];
	for (int i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "%d", 10000000 + i);
		snprintf(cpu, sizeof(cpu), "%d", i % 35);
		job_put(id, cpu);
	}
	job_put("19999998", "35");
}

/* The tree goes, and UNCORE_SYSROOT with it. */
static inline void many_jobs_clean(void)
{
	char cmd[700];
	unsetenv("UNCORE_SYSROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CU_ASSERT(system(cmd) == 0);
}

#endif
