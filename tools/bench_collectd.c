/*
 * collectd-bench: CPU time of one read of the intel_uncore collectd plugin
 * (read every counter, evaluate, dispatch) for the default metric set on
 * 2-socket EMR and GNR simulators (target: under 100 us), with the daemon's dispatch
 * replaced by the test mock (which only copies the value list).
 */
#include <time.h>
#include "../collectd_plugin/intel_uncore.c"
#include "../tests/mock_collectd.h"

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench(const char *label, const char *text)
{
	const int iters = 5000;
	oconfig_item_t *ci = mock_block(text);
	mock_reset();
	module_register();
	if (mock.config(ci) || mock.init()) {
		fprintf(stderr, "bench: %s\n", mock.nlogs ? mock.logs[mock.nlogs - 1] : "setup failed");
		mock_block_free(ci);
		return 1;
	}
	mock_block_free(ci);
	double cpu = 0;
	int values = 0;
	for (int i = 0; i < iters; i++) {
		uncore_sleep_ns(state.u, 1000000000ull); /* the simulator's manual clock: one interval */
		mock.nvalues = 0;
		double t0 = cpu_s();
		if (mock.read(NULL))
			return 1;
		cpu += cpu_s() - t0;
		values = mock.nvalues;
	}
	struct uncore_stats st;
	uncore_get_stats(state.u, &st);
	printf("bench collectd %s: %d values per read, %.1f register reads per read\n", label, values,
	       (double)st.reads / (iters + 1));
	printf("  plugin CPU time per read: %.1f us (target < 100 us)\n", cpu / iters * 1e6);
	mock.shutdown();
	return 0;
}

int main(void)
{
	return bench("default set (memory, llc, interconnect, clock), sim:emr 2 sockets",
		     "Backend \"sim:emr,sockets=2,clock=manual\"\n") ||
	       bench("default set per channel and link (ReportPerBox \"imc\" \"upi\")",
		     "Backend \"sim:emr,sockets=2,clock=manual\"\nReportPerBox \"imc\" \"upi\"\n") ||
	       bench("default set, sim:spr 2 sockets", "Backend \"sim:spr,sockets=2,clock=manual\"\n") ||
	       bench("default set, sim:snbep 2 sockets", "Backend \"sim:snbep,sockets=2,clock=manual\"\n") ||
	       /* issue 34: Ice Lake-SP, 40 CHAs and 12 MMIO channels a socket */
	       bench("default set, sim:icx 2 sockets", "Backend \"sim:icx,sockets=2,clock=manual\"\n") ||
	       /* issue 33: Granite Rapids, 72 CHAs and 12 two-scheduler channels a socket */
	       bench("default set, sim:gnr 2 sockets", "Backend \"sim:gnr,sockets=2,clock=manual\"\n") ||
	       bench("default set per channel and link, sim:gnr 2 sockets",
		     "Backend \"sim:gnr,sockets=2,clock=manual\"\nReportPerBox \"imc\" \"upi\"\n");
}
