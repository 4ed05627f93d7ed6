/*
 * uncore-bench-loaders: how loading grows with the input.  A perfmon JSON file of 10 MB and of 100 MB
 * (uncore_load_events) and a metric file of 10,000 and of 100,000 metrics (uncore_load_metrics) are
 * loaded on the SNB-EP simulator, each in a process of its own; each prints seconds and peak memory,
 * and the ratio of the 10x input to the 1x one (linear: about 10; the process's fixed part flattens
 * the memory ratio).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "uncore.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void write_events(const char *path, long bytes)
{
	FILE *f = fopen(path, "w");
	long n = 0, written = 0;
	fprintf(f, "{\"Events\": [\n");
	while (written < bytes) {
		written += fprintf(f, "%s{\"Unit\": \"iMC\", \"EventCode\": \"0x%02lx\", \"UMask\": \"0x%02lx\", "
				      "\"EventName\": \"UNC_M_BENCH_%08ld\", \"Counter\": \"0,1,2,3\", "
				      "\"BriefDescription\": \"an event made up to measure how loading grows with the file\"}\n",
				   n ? "," : "", n & 0xff, (n >> 8) & 0xff, n);
		n++;
	}
	fprintf(f, "]}\n");
	fclose(f);
}

static void write_metrics(const char *path, long n)
{
	FILE *f = fopen(path, "w");
	fprintf(f, "[\n");
	for (long i = 0; i < n; i++)
		fprintf(f, "%s{\"MetricName\": \"bench_%08ld\", \"MetricExpr\": \"UNC_M_CAS_COUNT.RD * %ld / duration\", "
			   "\"ScaleUnit\": \"1e-9GB/s\", \"MetricGroup\": \"bench\", \"BriefDescription\": \"made up\"}\n",
			i ? "," : "", i, i % 97 + 1);
	fprintf(f, "]\n");
	fclose(f);
}

/* Load path into a fresh handle in a child process of its own: seconds, and the child's peak memory
 * in MB (ru_maxrss), so that one measurement's heap cannot flatter the next; -1 on failure. */
static int load(const char *path, int metrics, double *secs, double *mb, int *count)
{
	int fd[2];
	struct { double secs, mb; int count; } r = { 0, 0, -1 };
	if (pipe(fd))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		uncore_t *u;
		struct rusage ru;
		if (!uncore_open("sim:snbep", &u) && (!metrics || uncore_num_metrics(u) >= 0)) {
			double t0 = now();
			r.count = metrics ? uncore_load_metrics(u, path) : uncore_load_events(u, path);
			r.secs = now() - t0;
			if (r.count < 0)
				fprintf(stderr, "bench: %s\n", uncore_error());
			uncore_close(u);
		}
		getrusage(RUSAGE_SELF, &ru);
		r.mb = (double)ru.ru_maxrss / 1000;
		_exit(write(fd[1], &r, sizeof(r)) == (ssize_t)sizeof(r) ? 0 : 1);
	}
	close(fd[1]);
	int ok = pid > 0 && read(fd[0], &r, sizeof(r)) == (ssize_t)sizeof(r);
	close(fd[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	*secs = r.secs;
	*mb = r.mb;
	*count = r.count;
	return ok && r.count >= 0 ? 0 : -1;
}

static int bench(const char *what, int metrics, long small, const char *unit)
{
	char path[] = "/tmp/uncore-bench-XXXXXX";
	int fd = mkstemp(path);
	double s[2], mb[2];
	int n[2];
	if (fd < 0)
		return 1;
	close(fd);
	for (int k = 0; k < 2; k++) {
		long size = k ? 10 * small : small;
		if (metrics)
			write_metrics(path, size);
		else
			write_events(path, size);
		if (load(path, metrics, &s[k], &mb[k], &n[k])) {
			unlink(path);
			return 1;
		}
		printf("  %s, %ld %s: %d loaded in %.3f s, peak memory %.1f MB\n", what, size / (metrics ? 1 : 1000000),
		       unit, n[k], s[k], mb[k]);
	}
	printf("  10x the input: %.1fx the time, %.1fx the memory (linear: 10)\n", s[1] / s[0],
	       mb[0] > 0 ? mb[1] / mb[0] : 0);
	unlink(path);
	return 0;
}

int main(void)
{
	printf("bench loaders: perfmon JSON files and metric files, 1x and 10x\n");
	if (bench("perfmon JSON", 0, 10000000, "MB") || bench("metric file", 1, 10000, "metrics"))
		return 1;
	return 0;
}
