/*
 * uncore-bench: the cost of one read of every iMC counter (4 general + the
 * fixed DCLK counter, 4 channels, 2 sockets) on the simulator.  Register
 * accesses and backend calls are counted by the access layer; on the direct
 * backend every backend call is one pread/pwrite system call.
 */
#include <stdio.h>
#include <time.h>
#include "uncore.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Discovery and open of a 2-socket EMR on the simulator (target: under 5 ms): PCI scan, DVSEC walk,
 * table decode, quirks, catalog.  The simulator builds its machine inside uncore_open(), so the time
 * printed includes that too (an upper bound for the library's part). */
static int bench_emr_open(void)
{
	const int iters = 200;
	double t_open = 0, t_close = 0;
	int units = 0, events = 0;
	for (int i = 0; i < iters; i++) {
		uncore_t *u;
		double t0 = now();
		if (uncore_open("sim:emr,sockets=2", &u)) {
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
	printf("bench emr_open: backend sim:emr (SIMULATED), 2 sockets, %d boxes found through discovery, %d events\n",
	       units, events);
	printf("  discover + open (including building the simulated machine): %.3f ms; close: %.3f ms\n",
	       t_open / iters * 1e3, t_close / iters * 1e3);
	return 0;
}

int main(void)
{
	static const char *ev[] = { "UNC_M_CAS_COUNT.RD", "UNC_M_CAS_COUNT.WR", "UNC_M_ACT_COUNT",
				    "UNC_M_PRE_COUNT.PAGE_MISS", "UNC_M_CLOCKTICKS" };
	const int iters = 20000;
	uncore_t *u;
	uncore_session_t *s;
	struct uncore_stats a, b;
	int counters = 0;
	if (uncore_open("sim:snbep,sockets=2,clock=manual", &u) || uncore_session_new(u, &s)) {
		fprintf(stderr, "bench: %s\n", uncore_error());
		return 1;
	}
	for (int i = 0; i < 5; i++)
		if (uncore_session_add(s, ev[i]) < 0) {
			fprintf(stderr, "bench: %s\n", uncore_error());
			return 1;
		}
	for (int i = 0; i < 5; i++)
		for (int sock = 0; sock < 2; sock++)
			counters += uncore_session_event_boxes(s, i, sock);
	if (uncore_session_start(s))
		return 1;
	uncore_get_stats(u, &a);
	double t0 = now();
	for (int i = 0; i < iters; i++)
		uncore_session_read(s);
	double t1 = now();
	uncore_get_stats(u, &b);
	printf("bench imc_read: backend sim:snbep (SIMULATED), 2 sockets x 4 channels, %d counters per read\n", counters);
	printf("  register accesses per read: %.1f (%.2f per counter)\n", (double)(b.reads - a.reads) / iters,
	       (double)(b.reads - a.reads) / iters / counters);
	printf("  backend calls (= syscalls on the direct backend) per read: %.1f\n",
	       (double)(b.syscalls - a.syscalls) / iters);
	printf("  time per read: %.0f ns, per counter: %.0f ns\n", (t1 - t0) / iters * 1e9,
	       (t1 - t0) / iters / counters * 1e9);
	uncore_session_free(s);
	uncore_close(u);
	return bench_emr_open();
}
