/*
 * collectd-bench: the intel_uncore collectd plugin's cost per node.  For each
 * configuration: the CPU time of one read (read every counter, evaluate,
 * dispatch) and its share of one core at Interval 10 s, 1 s and 0.1 s (budget:
 * under 0.01 % at 1 s, i.e. 100 us a read), with the daemon's dispatch replaced
 * by the test mock (which only copies the value list); and the bytes
 * collectd's network plugin sends for one read, signed (SecurityLevel Sign).
 */
#include <time.h>
#include "../../collectd_plugin/intel_uncore.c"
#include "../../tests/mock_collectd.h"

/* what the network figures assume of the node's collectd.conf */
#define HOST_NAME "cn0001.cluster.example" /* Hostname: its length counts */
#define USER_NAME "cluster"               /* <Server> Username */
#define PACKET 1452                       /* MaxPacketSize, collectd's default */

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The UDP payload collectd 5.12's network plugin sends for the value lists of
 * one read, worked out from its binary protocol (src/network.c): every part is a
 * 2-byte type, a 2-byte length and its payload; a value list writes only the
 * parts that differ from the previous value list of the same packet (host,
 * time, interval, plugin, plugin instance, type, type instance: a string part
 * carries its terminating NUL, a number part 8 bytes), then its values part (a
 * 2-byte count, then a type byte and 8 bytes a value).  A value list that does
 * not fit in what is left of the packet, less 106 bytes kept for the signature
 * (BUFF_SIG_SIZE), starts a new packet, and a packet with fewer than 15 bytes
 * free is sent at once.  Signed, a packet starts with the signature part: the
 * HMAC-SHA-256 (32 bytes) and the user name.  A read's values leave in the
 * packets of that interval: FlushInterval (or the buffer filling) sends them.
 * Every value list carries its own time part: each is stamped with when its
 * counters were read, which differ by microseconds on a real clock (the
 * simulator's manual clock here stands still during a read, so its stamps do
 * not tell).  A capture of the daemon's packets (sim:emr, 2 sockets, the
 * default set, Interval 1, this host and user name) held 1223 bytes an interval,
 * as this gives.
 */
struct net_cost {
	long bytes;
	int packets;
};

static int str_part(const char *s) { return 4 + (int)strlen(s) + 1; }

static struct net_cost network_bytes(void)
{
	struct net_cost c = { 0, 0 };
	value_list_t def = VALUE_LIST_INIT; /* what the packet so far says */
	int fill = 0;
	const int sig = 4 + 32 + (int)strlen(USER_NAME);
	for (int i = 0; i < mock.nvalues; i++) {
		value_list_t vl = mock.values[i].vl;
		snprintf(vl.host, sizeof(vl.host), "%s", HOST_NAME);
		vl.interval = DOUBLE_TO_CDTIME_T(1); /* the daemon's dispatch fills in the read's interval */
		for (int fresh = 0;; fresh = 1) {
			int add = (strcmp(def.host, vl.host) ? str_part(vl.host) : 0) + 12 /* time */ +
				  (def.interval != vl.interval ? 12 : 0) + (strcmp(def.plugin, vl.plugin) ? str_part(vl.plugin) : 0) +
				  (strcmp(def.plugin_instance, vl.plugin_instance) ? str_part(vl.plugin_instance) : 0) +
				  (strcmp(def.type, vl.type) ? str_part(vl.type) : 0) +
				  (strcmp(def.type_instance, vl.type_instance) ? str_part(vl.type_instance) : 0) + 4 + 2 +
				  9 * (int)vl.values_len;
			if (fill + add <= PACKET - 106 || fresh) {
				fill += add;
				def = vl;
				break;
			}
			c.bytes += sig + fill, c.packets++; /* full: sent, and the next packet starts afresh */
			fill = 0;
			memset(&def, 0, sizeof(def));
		}
		if (PACKET - fill < 15) {
			c.bytes += sig + fill, c.packets++;
			fill = 0;
			memset(&def, 0, sizeof(def));
		}
	}
	if (fill)
		c.bytes += sig + fill, c.packets++;
	return c;
}

static char notice[1024];

/* The plugin configured by text with Interval interval s, read at that interval on the simulator's manual
 * clock for half a second of CPU (at least 100 and at most 5000 reads): CPU time per read, in us. */
static int read_cost(const char *text, double interval, double *us, int *values, double *regs, double *calls,
		     struct net_cost *net)
{
	char block[512];
	snprintf(block, sizeof(block), "%sInterval %g\n", text, interval);
	oconfig_item_t *ci = mock_block(block);
	mock_reset();
	module_register();
	if (mock.config(ci) || mock.init()) {
		fprintf(stderr, "bench: %s\n", mock.nlogs ? mock.logs[mock.nlogs - 1] : "setup failed");
		mock_block_free(ci);
		return 1;
	}
	mock_block_free(ci);
	for (int i = 0; i < mock.nlogs; i++) /* the default set's notice: groups it left out */
		if (mock.levels[i] == LOG_NOTICE)
			snprintf(notice, sizeof(notice), "%s", mock.logs[i]);
	struct uncore_stats st0, st;
	uncore_get_stats(state.u, &st0);
	double cpu = 0;
	int n = 0;
	while (n < 100 || (n < 5000 && cpu < 0.5)) {
		uncore_sleep_ns(state.u, (uint64_t)(interval * 1e9)); /* one Interval between reads */
		mock.nvalues = 0;
		double t0 = cpu_s();
		if (mock.read(NULL))
			return 1;
		cpu += cpu_s() - t0;
		n++;
	}
	uncore_get_stats(state.u, &st);
	*us = cpu / n * 1e6;
	*values = mock.nvalues;
	*regs = (double)(st.reads - st0.reads) / n;
	*calls = (double)(st.syscalls - st0.syscalls) / n; /* what the direct backend would make of them */
	*net = network_bytes();
	mock.shutdown();
	return 0;
}

static const char *only; /* argv[1]: run only the configurations whose label holds it */

static int bench(const char *label, const char *text)
{
	static const double intervals[] = { 10, 1, 0.1 };
	if (only && !strstr(label, only))
		return 0;
	double us[3], regs = 0, calls = 0;
	int values = 0;
	struct net_cost net = { 0, 0 };
	notice[0] = 0;
	for (int k = 0; k < 3; k++)
		if (read_cost(text, intervals[k], &us[k], &values, &regs, &calls, &net))
			return 1;
	printf("bench collectd %s: %d values per read, %.1f register reads per read (on hardware, through the direct "
	       "backend, %.1f system calls: MSR preads and PCI config block reads; MMIO loads are none)\n",
	       label, values, regs, calls);
	if (notice[0])
		printf("  %s\n", notice);
	for (int k = 0; k < 3; k++)
		printf("  Interval %4g s: plugin CPU time %6.1f us per read = %.5f %% of one core%s\n", intervals[k], us[k],
		       us[k] / 1e6 / intervals[k] * 100, intervals[k] == 1 ? " (budget 0.01 %)" : "");
	printf("  network plugin (Sign, Hostname of %d bytes): %ld bytes in %d packet%s per interval (UDP payload; "
	       "%ld with IPv4 and UDP headers): %.1f kB/s at 1 s\n",
	       (int)strlen(HOST_NAME), net.bytes, net.packets, net.packets == 1 ? "" : "s", net.bytes + 28L * net.packets,
	       (double)(net.bytes + 28L * net.packets) / 1e3);
	return 0;
}

int main(int argc, char **argv)
{
	only = argc > 1 ? argv[1] : NULL;
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
		     "Backend \"sim:gnr,sockets=2,clock=manual\"\nReportPerBox \"imc\" \"upi\"\n") ||
	       /* issue 36: Clearwater Forest, 144 CHAs a socket: on 2 sockets (the part's largest machine) the default
		* set is whole; on 4 (827 boxes: the largest machine the simulator builds) it leaves out the LLC group,
		* which would read 1152 CHA counters, to stay within 1024 counters (UNCORE_DEFAULT_COUNTERS) */
	       bench("default set, sim:cwf 2 sockets", "Backend \"sim:cwf,sockets=2,clock=manual\"\n") ||
	       bench("default set, sim:cwf 4 sockets (the largest built-in platform)",
		     "Backend \"sim:cwf,sockets=4,clock=manual\"\n") ||
	       bench("every default group named (memory, llc, interconnect, clock), sim:cwf 4 sockets",
		     "Backend \"sim:cwf,sockets=4,clock=manual\"\n"
		     "MetricGroups \"memory\" \"llc\" \"interconnect\" \"clock\"\n");
}
