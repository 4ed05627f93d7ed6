/*
 * uncore-bench-node: what following the node costs a read (issue 99 point 2, doc/development.md): the node check
 * alone (uncore_node_check, nothing changed) on a simulated machine's tree and on this host's sysfs, a plain read
 * of the default set with its check and the node's facts looked at (device groups, memory channels, clock
 * limits), and the same read right after a change (the check finds it, the facts are let go and built again at
 * their next use).  Medians of the wall time, in microseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "uncore.h"
#include "default_set.h"

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#define N 101

/* A read as a daemon's: the check, the counters, and the facts a front end looks at */
static int one_read(uncore_t *u, uncore_session_t *s)
{
	struct uncore_channel ch;
	struct uncore_freq_domain d[16];
	int rc = uncore_node_check(u) < 0 || uncore_session_read(s);
	uncore_num_device_groups(u);
	uncore_memory_channel(u, 0, 0, &ch);
	uncore_freq_domains(u, d, 16);
	return rc;
}

static double median(double *t)
{
	qsort(t, N, sizeof(t[0]), cmp_double);
	return t[N / 2];
}

int main(void)
{
	char path[] = "/tmp/uncore-bench-node-XXXXXX", spec[256];
	int fd = mkstemp(path);
	uncore_t *u = NULL, *h = NULL;
	uncore_session_t *s = NULL;
	double check[N], plain[N], changed[N], host[N];
	if (fd < 0)
		return perror("mkstemp"), 1;
	close(fd);
	snprintf(spec, sizeof(spec), "sim:spr,clock=manual,changes=%s", path);
	if (default_set_start(spec, 0, 1.0, &u, &s) || one_read(u, s)) {
		fprintf(stderr, "uncore-bench-node: %s\n", uncore_error());
		unlink(path);
		return 1;
	}
	for (int i = 0; i < N; i++) {
		double t0 = now_us();
		uncore_node_check(u);
		check[i] = now_us() - t0;
		uncore_sleep_ns(u, 10000000);
		t0 = now_us();
		one_read(u, s);
		plain[i] = now_us() - t0;
		FILE *f = fopen(path, "a"); /* the limits rewritten, back and forth: a change at every read */
		if (f) {
			fprintf(f, "ufreq 800 %d\n", i % 2 ? 2500 : 2400);
			fclose(f);
		}
		uncore_sleep_ns(u, 10000000);
		t0 = now_us();
		one_read(u, s);
		changed[i] = now_us() - t0;
	}
	int hosted = !uncore_open_topology("direct", &h);
	for (int i = 0; hosted && i < N; i++) {
		double t0 = now_us();
		uncore_node_check(h);
		host[i] = now_us() - t0;
	}
	printf("node check (sim:spr, nothing changed)             %8.1f us\n", median(check));
	printf("read of the default set with its check (sim:spr)  %8.1f us\n", median(plain));
	printf("the same read right after a change (facts again) %8.1f us\n", median(changed));
	if (hosted)
		printf("node check on this host's sysfs                   %8.1f us\n", median(host));
	else
		printf("node check on this host's sysfs: not measured (%s)\n", uncore_error());
	uncore_session_free(s);
	uncore_close(u);
	if (hosted)
		uncore_close(h);
	unlink(path);
	return 0;
}
