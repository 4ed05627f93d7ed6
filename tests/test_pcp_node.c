/*
 * The PCP agent following the node changing under it (issue 99 point 2, pcp_pmda/iu_node.c), driven as pmcd drives
 * it (a follow and a read before each fetch) on sim:spr whose changes file takes a PCI device away and back, a CPU
 * offline, a memory channel out, and (perf+sim) reloads the uncore PMU driver.  Each change said in the agent's
 * log; the device's instances leave iio.read_bytes' domain and come back, each other instance keeping its number;
 * the peak the simulator's new one; socket 0's read bytes and package joules going on across every change: after
 * n simulated seconds n times the profile's rate and watts.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sim_helpers.h"
#include "iu_pmda.h"
#include "iu_log.h"
#include "stderr_during.h"
#include "pcp_fetch.h"

static struct iu_state st;
static char changes[400], spec[700];

static int inst_of(int m, const char *name) { return pcp_inst(&st.indoms[m], name); }

static double fetched(const char *name, const char *inst) { return pcp_fetched(&st, name, inst); }

/* The instances of m whose name has part */
static int named(int m, const char *part)
{
	int n = 0;
	for (int i = 0; i < st.indoms[m].it_numinst; i++)
		n += !!strstr(st.indoms[m].it_set[i].i_name, part);
	return n;
}

/* Every instance of m as it was (name and number) still there with its number, but those whose name has gone */
static int kept(int m, const pmdaIndom *was, const char *gone)
{
	int ok = 1;
	for (int i = 0; i < was->it_numinst; i++)
		if (!strstr(was->it_set[i].i_name, gone) && inst_of(m, was->it_set[i].i_name) != was->it_set[i].i_inst) {
			fprintf(stderr, "%s: instance %d, now %d\n", was->it_set[i].i_name, was->it_set[i].i_inst,
				inst_of(m, was->it_set[i].i_name));
			ok = 0;
		}
	return ok;
}

static void fetch_after(double s)
{
	uncore_sleep_ns(st.u, (uint64_t)(s * 1e9));
	CU_ASSERT(iu_node_follow(&st) == 0);
	iu_read(&st);
}

static void change(const char *line)
{
	FILE *f = fopen(changes, "a");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "%s\n", line);
	fclose(f);
}

static void near(const char *what, double got, double want)
{
	CU_ASSERT(fabs(got - want) <= 1e-6 * want);
	if (!(fabs(got - want) <= 1e-6 * want))
		fprintf(stderr, "%s: %.9g, truth %.9g\n", what, got, want);
}

/* the agent's log while fn runs */
static void logged(void (*fn)(int), char *out, size_t len)
{
	char path[450];
	snprintf(path, sizeof(path), "%s.log", changes);
	stderr_during(fn, 0, path, out, len);
	unlink(path);
}

static void agent_start(const char *backend)
{
	char err[1024];
	snprintf(changes, sizeof(changes), "%s/pcp-node-%d", test_tmpdir(), (int)getpid());
	unlink(changes);
	snprintf(spec, sizeof(spec), "%s,clock=manual,changes=%s", backend, changes);
	memset(&st, 0, sizeof(st));
	st.backend = spec;
	if (iu_plan(&st, spec, err, sizeof(err)))
		fprintf(stderr, "%s\n", err);
	CU_ASSERT_FATAL(st.u != NULL && st.s != NULL);
	iu_read(&st);
}

static double rate, watts;

/* socket 0's read bytes and package joules after n simulated seconds */
static void totals_after(const char *what, int n)
{
	char line[200];
	snprintf(line, sizeof(line), "socket 0's read bytes %s", what);
	near(line, fetched("memory.read_bytes", "socket0"), rate * n);
	snprintf(line, sizeof(line), "socket 0's package joules %s", what);
	near(line, fetched("energy.joules", "socket0/pkg"), watts * n);
}

static void devices_cpus_memory(int unused)
{
	(void)unused;
	int io = pcp_metric("iio.read_bytes");
	agent_start("sim:spr");
	rate = sim_of(st.u->acc)->prof.mem_read_bps[0];
	watts = sim_of(st.u->acc)->prof.pkg_w[0];
	fetch_after(1);
	totals_after("after 1 s", 1);
	int total = st.indoms[io].it_numinst;
	pmdaInstid before[64];
	pmdaIndom was = { .it_numinst = total < 64 ? total : 64, .it_set = before };
	memcpy(before, st.indoms[io].it_set, (size_t)was.it_numinst * sizeof(before[0]));
	for (int i = 0; i < was.it_numinst; i++)
		before[i].i_name = strdup(before[i].i_name);
	CU_ASSERT(named(io, "0000:12:00.0") == 1 && total > 1 && total <= 64);
	const char *const lines[] = { "device 0000:12:00.0 remove", "cpu 0 offline", "dimms 01111111/11111111",
				      "device 0000:12:00.0 add" };
	for (int k = 0; k < 4; k++) {
		change(lines[k]);
		fetch_after(1);
		totals_after("across the change", k + 2);
		CU_ASSERT_EQUAL(named(io, "0000:12:00.0"), k == 3 || k == 0 ? (k == 3) : 0);
		if (k == 0)
			CU_ASSERT_EQUAL(st.indoms[io].it_numinst, total - 1);
		CU_ASSERT(kept(io, &was, "0000:12:00.0"));
	}
	CU_ASSERT_EQUAL(st.indoms[io].it_numinst, total);
	for (int i = 0; i < was.it_numinst; i++)
		free(before[i].i_name);
	/* the board's 8 channels of DDR5-4800 a socket (doc/memory.md): 7 x 4800e6 x 8 B left on socket 0 */
	CU_ASSERT_EQUAL(fetched("memory.peak_bandwidth", "socket0"), 268.8e9);
	CU_ASSERT_EQUAL(fetched("memory.peak_bandwidth", "socket1"), 307.2e9);
	iu_teardown(&st);
	unlink(changes);
}

static void test_devices_cpus_memory(void)
{
	char log[8192];
	logged(devices_cpus_memory, log, sizeof(log));
	CU_ASSERT(strstr(log, "the node changed (devices): ") && strstr(log, "the node changed (cpus): ") &&
		  strstr(log, "the node changed (memory): "));
	if (!strstr(log, "the node changed (memory): "))
		fprintf(stderr, "the agent's log:\n%s\n", log);
}

static void pmus(int unused)
{
	(void)unused;
	agent_start("perf+sim:spr");
	rate = sim_of(st.u->acc)->prof.mem_read_bps[0];
	watts = sim_of(st.u->acc)->prof.pkg_w[0];
	fetch_after(1);
	change("pmu reload");
	fetch_after(1);
	totals_after("across the reload", 2);
	fetch_after(1);
	totals_after("a second after it", 3);
	iu_teardown(&st);
	unlink(changes);
}

static void test_pmus(void)
{
	char log[8192];
	logged(pmus, log, sizeof(log));
	CU_ASSERT(strstr(log, "the node changed (pmus): ") != NULL);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "a device removed and added, a CPU offline, a channel out: instances, peak and counts follow",
		  test_devices_cpus_memory },
		{ "perf+sim: the uncore PMU driver reloaded, the counts going on", test_pmus },
		{ NULL, NULL },
	};
	return run_suite("PCP agent, the node changing", tests);
}
