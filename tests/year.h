/* What the simulated years of the daemons share (issue 99 point 3, tests/test_*_year.c): the many-jobs fixture
 * with a low-power profile, the jobs coming and going, the process's RSS and open files. */
#ifndef TEST_YEAR_H
#define TEST_YEAR_H

#include <dirent.h>
#include <limits.h>
#include "many_jobs.h"
#include "year_proc.h"

#define DAY 86400.0
#define YEAR (365 * DAY)
#define YEAR_JOBS 100000
#define YEAR_LIVE 100
#define YEAR_READS 365 /* a read every simulated day */

/* The low power of the year's profile: every RAPL counter wraps (prewrap) and then every day or two, at most once
 * between two reads (skx: 2^32 units of 2^-14 J for the package, of 2^-16 J for DRAM). */
static inline void year_profile(void)
{
	char path[700];
	snprintf(path, sizeof(path), "%s/profile", dir);
	FILE *f = fopen(path, "a");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "pkg_watts = 2\ndram_idle_watts = 0.3\ndram_watts_per_gbps = 0.005\n");
	fclose(f);
}

/* The jobs of a read: per_read of the oldest go and as many new ones come (CPUs 0-34 in turn), up to YEAR_JOBS
 * in all; every tenth read from the fourth a job whose cgroup names no CPU comes (bad: its id, nbad counted),
 * three reads later it goes. */
static inline void year_jobs(int r, int per_read, int *oldest, int *next_job, char *bad, size_t len, int *nbad)
{
	for (int k = 0; k < per_read && *next_job < YEAR_JOBS; k++, (*oldest)++, (*next_job)++) {
		char id[16], cpu[8];
		snprintf(id, sizeof(id), "%d", 10000000 + *oldest);
		job_rm(id);
		snprintf(id, sizeof(id), "%d", 10000000 + *next_job);
		snprintf(cpu, sizeof(cpu), "%d", *next_job % 35);
		job_put(id, cpu);
	}
	if (r % 10 == 3) {
		snprintf(bad, len, "bad%d", (*nbad)++);
		job_put(bad, "garbage");
	} else if (r % 10 == 6) {
		job_rm(bad);
	}
}

/* RSS over a year of phases (a start, a reload): the peak of each phase's warm-up (WARM reads), its end, and the
 * noise: how far RSS moved over the second half of the first warm-up, jobs coming and going. */
#define YEAR_WARM (YEAR_READS / 20)
struct year_rss {
	long peak[2], end[2], lo, hi;
	int fds_warm;
};

static inline void year_rss_at(struct year_rss *y, int phase, int since)
{
	long rss = year_rss_kb();
	if (!y->lo)
		y->lo = LONG_MAX;
	if (since < YEAR_WARM && rss > y->peak[phase])
		y->peak[phase] = rss;
	if (!phase && since >= YEAR_WARM / 2 && since < YEAR_WARM) {
		y->lo = rss < y->lo ? rss : y->lo;
		y->hi = rss > y->hi ? rss : y->hi;
	}
	if (!phase && since == YEAR_WARM)
		y->fds_warm = year_fds();
	y->end[phase] = rss;
}

/* Each phase ends within its warm-up's peak and the larger of twice the noise and 4 bytes for each job that came
 * and went in the phase: a leak of 4 bytes a job or more fails, fragmentation's steps (measured: up to 64 kB over
 * a phase) do not.  Under ASan, whose quarantine holds what is freed (RSS grows by design), LeakSanitizer checks
 * the leaks instead.  Open files: as many at the end (fds, counted then) as after the first warm-up. */
static inline void year_rss_check(const struct year_rss *y, int phases, int fds)
{
	long noise = 2 * (y->hi - y->lo), per_job = (long)(4.0 * YEAR_JOBS / phases / 1024);
	long room = noise > per_job ? noise : per_job;
	for (int p = 0; p < phases; p++) {
		fprintf(stderr, "RSS, phase %d: %ld kB at most over its warm-up, %ld kB at its end (bound %ld: the noise "
			"%ld, 4 B a job %ld)\n", p, y->peak[p], y->end[p], y->peak[p] + room, noise, per_job);
#ifndef __SANITIZE_ADDRESS__
		CU_ASSERT(y->end[p] <= y->peak[p] + room);
#endif
	}
	fprintf(stderr, "open files %d after the warm-up, %d at the end\n", y->fds_warm, fds);
	CU_ASSERT(fds == y->fds_warm);
}

/* The log's lines that say bad job n's warning (after what), each bad job's count in said[n]. */
static inline void year_count_bad(const char *line, const char *what, int *said, int nbad)
{
	const char *at = strstr(line, "job bad");
	if (at && strstr(line, what)) {
		int n = atoi(at + 7);
		if (n >= 0 && n < nbad)
			said[n]++;
	}
}

/* Each bad job's warning said once: how many were not. */
static inline int year_said_once(const int *said, int nbad)
{
	int wrong = 0;
	for (int n = 0; n < nbad; n++)
		if (said[n] != 1 && wrong++ < 3)
			fprintf(stderr, "the warning of job bad%d said %d times\n", n, said[n]);
	fprintf(stderr, "%d bad jobs, %d warnings not said once\n", nbad, wrong);
	return wrong;
}

#endif
