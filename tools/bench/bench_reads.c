/*
 * uncore-bench-reads: what one read of each platform's default set (the collectd plugin's and the exporter's)
 * costs as hardware would, by the library's cost model (doc/cost.md), before and after reads run on their
 * boxes' CPUs: system calls, reads aimed at another CPU (each an inter-processor interrupt), batch calls,
 * moves of the thread, and the modelled time; beside it what the simulator itself spent (CPU time of this
 * process), and the 100 Hz row against its budget (modelled under 1 % of a core, the simulator under 0.1 %).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "uncore.h"
#include "default_set.h"

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* What a read's two CPU-time readings add to it: the thread's CPU clock is a system call (no vDSO), and what
 * the first spends after taking its time and the second before counts as the read's.  The median of 201
 * empty pairs, taken off every figure (1.3 us on one host seen here, a tenth of a 100 Hz read; 0.18 us on
 * another). */
static double timer_gap(void)
{
	double g[201];
	for (int i = 0; i < 201; i++) {
		double t0 = cpu_now();
		g[i] = cpu_now() - t0;
	}
	qsort(g, 201, sizeof(g[0]), cmp_double);
	return g[100];
}

struct cost {
	int counters, device_counters; /* of them the device series' (each port with devices, its bytes in and out) */
	double syscalls, remote, batches, moves, modelled_us, sim_us, timer_us; /* timer_us: taken off sim_us */
};

/* More than the second-level caches hold many times over: written between two reads, it leaves a read what a
 * daemon's read finds after its 10 ms sleep when other work streamed memory on its core. */
#define COLD_BYTES ((size_t)64 << 20)
static char *cold_buf;

/* reads of the default set every step_ns on spec, local reads on or off, the caches flushed before each
 * (cold) or not */
static int measure(const char *spec, int local, int reads, uint64_t step_ns, int cold, struct cost *c)
{
	uncore_t *u;
	uncore_session_t *s;
	struct uncore_stats a, z;
	int rc = -1;
	memset(c, 0, sizeof(*c));
	if (default_set_start(spec, local, (double)step_ns / 1e9, &u, &s))
		goto out;
	for (int e = 0; e < uncore_session_num_events(s); e++)
		for (int k = 0; k < uncore_num_sockets(u); k++) {
			const char *name = uncore_session_event_name(s, e);
			int n = uncore_session_event_boxes(s, e, k);
			c->counters += n;
			/* a port's counter on one box (uncore_session_add_device_group) */
			c->device_counters += uncore_iio_port_of(name) >= 0 && strstr(name, ":box=") ? n : 0;
		}
	uncore_sleep_ns(u, step_ns);
	uncore_session_read(s);
	uncore_get_stats(u, &a);
	double t = 0, gap = timer_gap();
	for (int i = 0; i < reads; i++) {
		uncore_sleep_ns(u, step_ns);
		if (cold)
			memset(cold_buf, i, COLD_BYTES);
		double t0 = cpu_now();
		if (uncore_session_read(s))
			goto out;
		t += cpu_now() - t0 - gap;
	}
	uncore_get_stats(u, &z);
	c->syscalls = (double)(z.syscalls - a.syscalls) / reads;
	c->remote = (double)(z.remote_reads - a.remote_reads) / reads;
	c->batches = (double)(z.batches - a.batches) / reads;
	c->moves = (double)(z.migrations - a.migrations) / reads;
	c->modelled_us = (double)(z.modelled_ns - a.modelled_ns) / reads / 1e3;
	c->sim_us = t / reads * 1e6;
	c->timer_us = gap * 1e6;
	rc = 0;
out:
	uncore_session_free(s);
	uncore_close(u);
	return rc;
}

/* The median of ten rounds of reads of spec's default set every 10 ms (warm: back to back; cold: the
 * caches flushed before each), the best round, and the model's and the CPU clock's figures. */
static int rounds(const char *spec, int reads, int cold, double *med, double *best, struct cost *avg)
{
	double round[10];
	struct cost c;
	*avg = (struct cost){ 0 };
	for (int r = 0; r < 10; r++) {
		if (measure(spec, 1, reads, 10000000ull, cold, &c)) {
			fprintf(stderr, "bench: %s\n", uncore_error());
			return -1;
		}
		round[r] = c.sim_us;
		avg->modelled_us += c.modelled_us / 10;
		avg->timer_us += c.timer_us / 10;
		avg->counters = c.counters;
		avg->device_counters = c.device_counters;
	}
	qsort(round, 10, sizeof(round[0]), cmp_double);
	*med = (round[4] + round[5]) / 2;
	*best = round[0];
	return 0;
}

/* 100 Hz: a 2-socket Granite Rapids, its default set read every 10 ms.  The CPU a read takes, in ten rounds of
 * 100 reads, is printed as the rounds' median and best: another process's load on the machine shows in a round's
 * mean, not in the library's work.  It runs before the platforms' rows, as a fresh collectd or exporter would,
 * not after every other machine was built and freed in this process.  The direct set is measured twice more:
 * with its caches cold (the most a read after other work can find evicted), and as a daemon reads it (the
 * real clock, a real sleep between reads). */
static int hundred_hz(void)
{
	for (int b = 0; b < 2; b++) {
		const char *spec = b ? "perf+sim:gnr,clock=manual" : "sim:gnr,clock=manual";
		double med, best;
		struct cost c;
		if (rounds(spec, 100, 0, &med, &best, &c))
			return -1;
		double hw = c.modelled_us * 100 / 1e6 * 100, sim = med * 100 / 1e6 * 100;
		printf("bench 100 Hz: %s, %d counters every 10 ms (%d of them the device series'): modelled %.1f us a read "
		       "= %.2f %% of a core (budget 1 %%: %s); the simulator %.1f us = %.3f %% (budget 0.1 %%: %s; median of "
		       "10 rounds of 100 reads, best %.1f us; the CPU clock's own %.2f us a reading taken off)\n", spec,
		       c.counters, c.device_counters, c.modelled_us, hw, hw < 1 ? "within" : "OVER", med, sim,
		       sim < 0.1 ? "within" : "over", best, c.timer_us);
		if (b)
			continue;
		if (!(cold_buf = malloc(COLD_BYTES))) {
			fprintf(stderr, "bench: no %zu MB to flush the caches with: the cold row is left out\n", COLD_BYTES >> 20);
			continue;
		}
		if (rounds(spec, 20, 1, &med, &best, &c))
			return -1;
		free(cold_buf);
		sim = med * 100 / 1e6 * 100;
		printf("bench 100 Hz: %s, the caches flushed before each read (%zu MB written between reads): the "
		       "simulator %.1f us = %.3f %% (budget 0.1 %%: %s; median of 10 rounds of 20 reads, best %.1f us)\n",
		       spec, COLD_BYTES >> 20, med, sim, sim < 0.1 ? "within" : "over", best);
		/* as collectd or the exporter runs it: the machine's clock real, the thread asleep 10 ms between
		 * reads, so that each read finds what this machine's other work left of its caches */
		if (rounds("sim:gnr", 100, 0, &med, &best, &c))
			return -1;
		sim = med * 100 / 1e6 * 100;
		printf("bench 100 Hz: sim:gnr, the real clock and a real 10 ms sleep between reads, as a daemon runs: the "
		       "simulator %.1f us = %.3f %% (budget 0.1 %%: %s; median of 10 rounds of 100 reads, best %.1f us)\n",
		       med, sim, sim < 0.1 ? "within" : "over", best);
	}
	return 0;
}

/* 100 Hz with the NUMA node series (issue 67): a 2-socket Granite Rapids with SNC3, six nodes, its default set
 * read every 10 ms and each node's bytes read and written summed from its channels (uncore_session_node_value),
 * as the exporter and collectd do: the counters (the node series take none of their own), the read's modelled
 * cost and the sums' (uncore_estimate_node_sums_ns: the set is chosen with both in the budget), and the CPU the
 * read and the sums take on the simulator (median of 10 rounds of 100), the sums apart. */
static int node_row(const char *spec)
{
	double read_us[10], sum_us[10], modelled = 0, priced = 0, gap = timer_gap();
	int counters = 0, nodes = 0;
	for (int r = 0; r < 10; r++) {
		uncore_t *u;
		uncore_session_t *s;
		struct uncore_series *se = NULL;
		struct uncore_stats a, z;
		int n = 0;
		if (default_set_series(spec, 1, 0.01, &u, &s, &se, &n)) {
			fprintf(stderr, "bench: %s: %s\n", spec, uncore_error());
			uncore_session_free(s);
			uncore_close(u);
			return -1;
		}
		counters = nodes = 0;
		for (int e = 0; e < uncore_session_num_events(s); e++)
			for (int k = 0; k < uncore_num_sockets(u); k++)
				counters += uncore_session_event_boxes(s, e, k);
		for (int i = 0; i < n; i++)
			nodes += se[i].by_node;
		priced = uncore_estimate_node_sums_ns(u, se, n) / 1e3;
		uncore_sleep_ns(u, 10000000ull);
		uncore_session_read(s);
		uncore_get_stats(u, &a);
		read_us[r] = sum_us[r] = 0;
		for (int i = 0; i < 100; i++) {
			uncore_sleep_ns(u, 10000000ull);
			double t0 = cpu_now();
			uncore_session_read(s);
			double t1 = cpu_now();
			for (int k = 0; k < n; k++) {
				double v;
				if (se[k].by_node)
					uncore_session_node_value(s, se[k].metric, se[k].node, UNCORE_SINCE_START, &v);
			}
			double t2 = cpu_now();
			read_us[r] += (t1 - t0 - gap) * 1e4; /* us a read: over 100 reads */
			sum_us[r] += (t2 - t1 - gap) * 1e4;
		}
		uncore_get_stats(u, &z);
		modelled += (double)(z.modelled_ns - a.modelled_ns) / 100 / 1e3 / 10;
		free(se);
		uncore_session_free(s);
		uncore_close(u);
	}
	qsort(read_us, 10, sizeof(double), cmp_double);
	qsort(sum_us, 10, sizeof(double), cmp_double);
	double rd = (read_us[4] + read_us[5]) / 2, sm = (sum_us[4] + sum_us[5]) / 2;
	double hw = (modelled + priced) * 100 / 1e6 * 100, sim = (rd + sm) * 100 / 1e6 * 100;
	printf("bench 100 Hz: %s, %d counters every 10 ms and %d node series: modelled %.1f us a read and %.1f us the "
	       "node sums = %.2f %% of a core (budget 1 %%: %s); the simulator %.1f us a read and %.1f us the node sums "
	       "(%.0f ns a channel's value) = %.3f %% (budget 0.1 %%: %s; medians of 10 rounds of 100 reads)\n", spec,
	       counters, nodes, modelled, priced, hw, hw < 1 ? "within" : "OVER", rd, sm,
	       priced > 0 ? sm * 1e3 / (priced * 1e3 / UNCORE_NODE_SUM_NS) : 0, sim, sim < 0.1 ? "within" : "over");
	return 0;
}

/* One front end's read as the exporter makes it: the counters, each node series' sum, the clock's limits
 * (uncore_freq_read); its CPU time, us */
static double front_read(uncore_t *u, uncore_session_t *s, const struct uncore_series *se, int n, double gap)
{
	struct uncore_freq_domain d[64];
	double v, t0 = cpu_now();
	uncore_session_read(s);
	for (int k = 0; k < n; k++)
		if (se[k].by_node)
			uncore_session_node_value(s, se[k].metric, se[k].node, UNCORE_SINCE_START, &v);
	uncore_freq_read(u, d, 64);
	return (cpu_now() - t0 - gap) * 1e6;
}

/* The first read against the hundredth (issue 99 point 1): the node's facts (NUMA map and its box tables, memory
 * population, devices, clock-limit entries, energy domains) are built when the front end plans, health's first
 * window of the devices begun and the simulator's boxes made ready to count when the session starts, so that the
 * first read costs what the hundredth does; what the build and the start cost, once, beside (the medians of 10
 * handles). */
static int first_row(const char *spec)
{
	double build_us[10], start_us[10], first_us[10], hundredth_us[10], gap = timer_gap();
	for (int r = 0; r < 10; r++) {
		uncore_t *u = NULL;
		uncore_session_t *s = NULL;
		struct uncore_series *se = NULL;
		struct uncore_selection sel = { .interval_s = 0.01 };
		char notice[512];
		int n = 0;
		if (uncore_open(spec, &u) || uncore_session_new(u, &s) || uncore_select(u, s, &sel, &se, &n, notice, sizeof(notice))) {
			fprintf(stderr, "bench: %s: %s\n", spec, uncore_error());
			uncore_session_free(s);
			uncore_close(u);
			free(se);
			return -1;
		}
		double t0 = cpu_now();
		uncore_node_build(u);
		build_us[r] = (cpu_now() - t0 - gap) * 1e6;
		t0 = cpu_now();
		uncore_session_start(s);
		start_us[r] = (cpu_now() - t0 - gap) * 1e6;
		for (int i = 1; i <= 100; i++) {
			uncore_sleep_ns(u, 10000000ull);
			double us = front_read(u, s, se, n, gap);
			if (i == 1)
				first_us[r] = us;
			if (i == 100)
				hundredth_us[r] = us;
		}
		free(se);
		uncore_session_free(s);
		uncore_close(u);
	}
	qsort(build_us, 10, sizeof(double), cmp_double);
	qsort(start_us, 10, sizeof(double), cmp_double);
	qsort(first_us, 10, sizeof(double), cmp_double);
	qsort(hundredth_us, 10, sizeof(double), cmp_double);
	printf("bench first read: %s, the default set, its node sums and clock limits: the first read %.1f us, the "
	       "hundredth %.1f us; the node's facts built when it planned %.1f us, the session's start %.1f us, once (medians "
	       "of 10 handles)\n", spec, (first_us[4] + first_us[5]) / 2, (hundredth_us[4] + hundredth_us[5]) / 2,
	       (build_us[4] + build_us[5]) / 2, (start_us[4] + start_us[5]) / 2);
	return 0;
}

int main(void)
{
	const char *name, *desc;
	if (first_row("sim:gnr,clock=manual,snc=3") || first_row("perf+sim:gnr,clock=manual,snc=3") || first_row("sim:icx,clock=manual"))
		return 1;
	if (hundred_hz() || node_row("sim:gnr,clock=manual,snc=3") || node_row("perf+sim:gnr,clock=manual,snc=3"))
		return 1;
	printf("bench reads: one read of each platform's default set, 2 sockets (SIMULATED), priced by the cost model "
	       "(doc/cost.md)\n");
	printf("  %-9s %-8s %8s | before: %8s %7s %10s | after: %8s %7s %7s %5s %10s | %s\n", "platform", "backend",
	       "counters", "syscalls", "remote", "modelled", "syscalls", "remote", "batches", "moves", "modelled",
	       "simulator (CPU)");
	for (int i = 0; uncore_sim_platform(i, &name, &desc) == 0; i++)
		for (int b = 0; b < 2; b++) {
			char spec[96];
			struct cost before, after;
			if (!strcmp(name, "generic") || (b && !strcmp(name, "montecito")))
				continue; /* no default set of its own on the simulator; no perf PMUs on Itanium */
			snprintf(spec, sizeof(spec), "%s:%s,clock=manual", b ? "perf+sim" : "sim", name);
			if (measure(spec, 0, 50, 1000000000ull, 0, &before) || measure(spec, 1, 50, 1000000000ull, 0, &after)) {
				printf("  %-9s %-8s %s\n", name, b ? "perf+sim" : "sim", uncore_error());
				continue;
			}
			printf("  %-9s %-8s %8d | %16.1f %7.1f %7.1f us | %15.1f %7.1f %7.1f %5.1f %7.1f us | %.1f us\n", name,
			       b ? "perf+sim" : "sim", after.counters, before.syscalls, before.remote, before.modelled_us,
			       after.syscalls, after.remote, after.batches, after.moves, after.modelled_us, after.sim_us);
		}
	return 0;
}
