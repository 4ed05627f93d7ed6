/*
 * uncore-bench: the cost of one read of every iMC counter (4 general + the
 * fixed DCLK counter, 4 channels, 2 sockets) on the simulator.  Register
 * accesses and backend calls are counted by the access layer; on the direct
 * backend every backend call is one pread/pwrite system call.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "uncore.h"
#include "access_floor.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Discovery and open of a 2-socket EMR on the simulator (target: under 5 ms): PCI scan, DVSEC walk,
 * table decode, quirks, catalog.  The simulator builds its machine inside uncore_open(), so the time
 * printed includes that too (an upper bound for the library's part).  Through the simulated kernel
 * (target: under 100 ms) it also includes the kernel's PMUs and sysfs tree and the backend's scan. */
static int bench_emr_open(const char *spec, double budget_ms)
{
	const int iters = 50;
	double t_open = 0, t_close = 0;
	int units = 0, events = 0;
	for (int i = 0; i < iters; i++) {
		uncore_t *u;
		double t0 = now();
		if (uncore_open(spec, &u)) {
			fprintf(stderr, "bench: %s\n", uncore_error());
			return 1;
		}
		double t1 = now();
		for (int k = 0; k < uncore_num_units(u); k++)
			for (int sock = 0; sock < 2; sock++)
				units += i == 0 ? uncore_unit_boxes(u, k, sock) : 0;
		events = uncore_num_events(u);
		uncore_close(u);
		t_open += t1 - t0;
		t_close += now() - t1;
	}
	printf("bench emr_open: backend %s (SIMULATED), %d boxes, %d events\n", spec, units, events);
	printf("  discover + open (including building the simulated machine): %.3f ms (budget %.0f ms); close: %.3f ms\n",
	       t_open / iters * 1e3, budget_ms, t_close / iters * 1e3);
	return 0;
}

/* The default metric set (memory, llc, interconnect, clock) of a 2-socket EMR: loading the
 * definitions, one read, and evaluating every metric on every socket (what a collectd read does). */
/* The collectd plugin's default metric set: the memory, llc, interconnect and clock groups. */
static int add_default_set(uncore_t *u, uncore_session_t *s)
{
	static const char *const groups[] = { "memory", "llc", "interconnect", "clock" };
	for (int i = 0; i < uncore_num_metrics(u); i++) {
		struct uncore_metric_info mi;
		uncore_metric_info(u, i, &mi);
		for (int g = 0; g < 4; g++)
			if (!strcmp(mi.group, groups[g]) && uncore_session_add_metric(s, mi.name) < 0)
				return -1;
	}
	return 0;
}

static int bench_emr_metrics(void)
{
	const int iters = 2000;
	uncore_t *u;
	uncore_session_t *s;
	int nm = 0, values = 0;
	double sink = 0;
	if (uncore_open("sim:emr,sockets=2,clock=manual", &u) || uncore_session_new(u, &s))
		goto fail;
	double t0 = now();
	if (uncore_num_metrics(u) <= 0) /* parses the built-in definitions */
		goto fail;
	double t_load = now() - t0;
	if (add_default_set(u, s))
		goto fail;
	nm = uncore_session_num_metrics(s);
	if (uncore_session_start(s))
		goto fail;
	double t1 = now(), t_eval = 0;
	for (int i = 0; i < iters; i++) {
		uncore_sleep_ns(u, 1000000000);
		if (uncore_session_read(s))
			goto fail;
		double te = now();
		for (int m = 0; m < nm; m++)
			for (int sock = 0; sock < 2; sock++) {
				double v;
				uncore_session_metric_value(s, m, sock, -1, UNCORE_LAST_INTERVAL, &v);
				sink += v;
				values += i == 0;
			}
		t_eval += now() - te;
	}
	double t2 = now();
	printf("bench emr_metrics: backend sim:emr (SIMULATED), 2 sockets, %d metrics (memory, llc, interconnect, "
	       "clock) over %d events\n", nm, uncore_session_num_events(s));
	printf("  parse the built-in definitions: %.3f ms\n", t_load * 1e3);
	printf("  read + evaluate %d values: %.1f us (evaluation alone %.2f us)%s\n", values,
	       (t2 - t1) / iters * 1e6, t_eval / iters * 1e6, sink < 0 ? " " : "");
	uncore_session_free(s);
	uncore_close(u);
	return 0;
fail:
	fprintf(stderr, "bench: %s\n", uncore_error());
	return 1;
}

/* The default collectd set on a 2-socket EMR, on the registers and through the perf backend over the
 * simulated kernel: read(2) calls per sample (target: one per box group) and time per counter. */
static int bench_perf(void)
{
	static const char *const backends[] = { "sim:emr,sockets=2,clock=manual", "perf+sim:emr,sockets=2,clock=manual" };
	const int iters = 200;
	printf("bench perf_read: the collectd plugin's default set (memory, llc, interconnect, clock), 2-socket EMR "
	       "(SIMULATED)\n");
	for (int b = 0; b < 2; b++) {
		uncore_t *u;
		uncore_session_t *s;
		struct uncore_stats a, z;
		if (uncore_open(backends[b], &u) || uncore_session_new(u, &s))
			goto fail;
		if (add_default_set(u, s) || uncore_session_start(s))
			goto fail;
		int counters = 0;
		for (int e = 0; e < uncore_session_num_events(s); e++)
			for (int sock = 0; sock < uncore_num_sockets(u); sock++)
				counters += uncore_session_event_boxes(s, e, sock);
		uncore_get_stats(u, &a);
		double t0 = now();
		for (int i = 0; i < iters; i++) {
			uncore_sleep_ns(u, 1000000000);
			if (uncore_session_read(s))
				goto fail;
		}
		double t1 = now();
		uncore_get_stats(u, &z);
		int n, floor = session_floor(u, s, &n);
		printf("  %-5s %d counters: %s per sample %.1f (%.2f per counter); %.0f ns per counter, %.1f us per sample\n",
		       b ? "perf" : "direct", counters, b ? "read(2) calls (one per box group)" : "register reads",
		       (double)(z.reads - a.reads) / iters, (double)(z.reads - a.reads) / iters / counters,
		       (t1 - t0) / iters / counters * 1e9, (t1 - t0) / iters * 1e6);
		if (!b)
			printf("        %.2f accesses per counter read once (%d accesses read every counter once: a PCI counter's two "
			       "dwords count two; limit 1.25)\n", (double)(z.reads - a.reads) / iters / floor, floor);
		uncore_session_free(s);
		uncore_close(u);
	}
	return 0;
fail:
	fprintf(stderr, "bench: %s\n", uncore_error());
	return 1;
}

/* One read of every iMC counter of a 2-socket SNB-EP, iters reads interval_ns apart on the simulator's clock:
 * the register accesses a read takes against the fewest that read each counter once (access_floor.h). */
static int bench_imc(uint64_t interval_ns, int iters)
{
	static const char *ev[] = { "UNC_M_CAS_COUNT.RD", "UNC_M_CAS_COUNT.WR", "UNC_M_ACT_COUNT",
				    "UNC_M_PRE_COUNT.PAGE_MISS", "UNC_M_CLOCKTICKS" };
	uncore_t *u;
	uncore_session_t *s;
	struct uncore_stats a, b;
	int counters = 0;
	if (uncore_open("sim:snbep,sockets=2,clock=manual", &u) || uncore_session_new(u, &s))
		goto fail;
	for (int i = 0; i < 5; i++)
		if (uncore_session_add(s, ev[i]) < 0)
			goto fail;
	if (uncore_session_start(s))
		goto fail;
	int floor = session_floor(u, s, &counters);
	uncore_get_stats(u, &a);
	double t0 = now();
	for (int i = 0; i < iters; i++) {
		uncore_sleep_ns(u, interval_ns);
		if (uncore_session_read(s))
			goto fail;
	}
	double t1 = now();
	uncore_get_stats(u, &b);
	double per_read = (double)(b.reads - a.reads) / iters;
	printf("bench imc_read: backend sim:snbep (SIMULATED), 2 sockets x 4 channels, %d counters, a read every %g s\n",
	       counters, interval_ns / 1e9);
	/* the counters' own dwords and, in rotation, the control words read back (session_readback.c): a changed
	 * one is read back within 3 reads at one a second, within a second and 2 reads at 100 Hz (doc/cost.md) */
	printf("  register accesses per read: %.1f (%.2f per counter; %d read every counter once, a PCI counter's two "
	       "dwords counting two)\n", per_read, per_read / counters, floor);
	printf("  ours (direct):  %.3f accesses per counter read once (limit 1.25)\n", per_read / floor);
	/* PCM's and likwid's accesses are counted by the peer harness, for their own job (a socket's memory
	 * bandwidth on sim:skx), beside ours through the same device files: tools/bench/bench_peers.sh */
	if (interval_ns >= 1000000000)
		printf("  PCM, likwid:    see \"bench skx_job\" and \"bench peers\" below (the same measure, on sim:skx)\n");
	printf("  backend calls (= syscalls on the direct backend) per read: %.1f\n", (double)(b.syscalls - a.syscalls) / iters);
	printf("  time per read: %.0f ns, per counter: %.0f ns\n", (t1 - t0) / iters * 1e9, (t1 - t0) / iters / counters * 1e9);
	uncore_session_free(s);
	uncore_close(u);
	return 0;
fail:
	fprintf(stderr, "bench: %s\n", uncore_error());
	return 1;
}

/* The job tools/bench/bench_peers.sh counts PCM's and likwid's accesses for: one socket's memory read and write
 * bandwidth on sim:skx, a read a second.  Ours here on the simulator's backend, whose reads take no time on its
 * manual clock: through the device files each PCI block read takes longer than the 50 us after which the library
 * reads it again (common/regs/regs.c, PCI_CARRY_NS), which a configuration read on hardware (about 1 us a dword)
 * does not. */
static int bench_skx_job(void)
{
	const int iters = 600;
	uncore_t *u;
	uncore_session_t *s;
	struct uncore_stats a, b;
	int counters;
	if (uncore_open("sim:skx,sockets=1,clock=manual", &u) || uncore_session_new(u, &s) ||
	    uncore_session_add_metric(s, "mem_bw_read") < 0 || uncore_session_add_metric(s, "mem_bw_write") < 0 ||
	    uncore_session_start(s))
		goto fail;
	int floor = session_floor(u, s, &counters);
	uncore_get_stats(u, &a);
	for (int i = 0; i < iters; i++) {
		uncore_sleep_ns(u, 1000000000);
		if (uncore_session_read(s))
			goto fail;
	}
	uncore_get_stats(u, &b);
	printf("bench skx_job: backend sim:skx (SIMULATED), one socket's mem_bw_read and mem_bw_write, a read a second: "
	       "%d counters, %d accesses read each once\n", counters, floor);
	printf("  ours (direct):  %.1f register reads and %.1f writes a read: %.2f accesses per counter read once "
	       "(limit 1.25; PCM's and likwid's for this job: \"bench peers\")\n",
	       (double)(b.reads - a.reads) / iters, (double)(b.writes - a.writes) / iters,
	       (double)(b.reads - a.reads + b.writes - a.writes) / iters / floor);
	uncore_session_free(s);
	uncore_close(u);
	return 0;
fail:
	fprintf(stderr, "bench: %s\n", uncore_error());
	return 1;
}

int main(void)
{
	return bench_imc(1000000000, 2000) || bench_skx_job() || bench_imc(10000000, 20000) || bench_emr_open("sim:emr,sockets=2", 5) ||
	       bench_emr_open("perf+sim:emr,sockets=2", 100) || bench_emr_metrics() || bench_perf();
}
