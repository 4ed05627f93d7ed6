/*
 * The node changing under an open handle (issue 99 point 2): the simulator makes each change a test writes to its
 * changes file (sim_changes.c), and uncore_node_check says which kind changed and has the facts follow -- the
 * CPUs a read uses, the devices, the memory population, the clock limits, the perf PMUs' type numbers -- each
 * held to the simulator's truth before and after.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sim_helpers.h"
#include "sim_truth.h"
#include "tmpdir.h"

static char changes[400];

static uncore_t *open_changing(const char *backend, const char *opts)
{
	char spec[700];
	snprintf(changes, sizeof(changes), "%s/node-changes-%d", test_tmpdir(), (int)getpid());
	unlink(changes);
	snprintf(spec, sizeof(spec), "%s,clock=manual,changes=%s%s", backend, changes, opts);
	uncore_t *u = open_sim(spec);
	CU_ASSERT_EQUAL(uncore_node_check(u), 0); /* the first: what the node is now, nothing changed */
	return u;
}

static void change(const char *line)
{
	FILE *f = fopen(changes, "a");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "%s\n", line);
	fclose(f);
}

static void checked(uncore_t *u, int want)
{
	char a[128], b[128];
	int got = uncore_node_check(u);
	CU_ASSERT_EQUAL(got, want);
	if (got != want)
		fprintf(stderr, "node check: %s (%d) where %s was wanted (%s)\n", uncore_node_changes(got, a, sizeof(a)), got,
			uncore_node_changes(want, b, sizeof(b)), got < 0 ? uncore_error() : "");
	CU_ASSERT_EQUAL(uncore_node_check(u), 0); /* said once */
}

/* The CHAs' clockticks of socket 0 over one simulated second, against the clock the simulator runs (its truth) */
static void counts_one_second(uncore_t *u, uncore_session_t *s, int ev)
{
	struct sim *sim = sim_of(u->acc);
	uint64_t v0 = val(s, ev, 0);
	uncore_sleep_ns(u, 1000000000ull);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	double want = sim->prof.uncore_hz * unit_boxes(u, "cha", 0), got = (double)(val(s, ev, 0) - v0);
	CU_ASSERT(fabs(got - want) <= want * 1e-6);
	if (fabs(got - want) > want * 1e-6)
		fprintf(stderr, "socket 0 clockticks %.0f, truth %.0f\n", got, want);
}

static void test_cpus(void)
{
	uncore_t *u = open_changing("sim:spr", ",cores=4");
	uncore_session_t *s;
	char cpus[64];
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	int ev = uncore_session_add(s, "UNC_CHA_CLOCKTICKS");
	CU_ASSERT_FATAL(ev >= 0 && uncore_session_start(s) == 0);
	counts_one_second(u, s, ev);
	CU_ASSERT(uncore_socket_cpus(u, 0, cpus, sizeof(cpus)) >= 0 && !strcmp(cpus, "0-3"));
	change("cpu 0 offline"); /* the CPU the socket's CHAs were read on */
	checked(u, UNCORE_NODE_CPUS);
	CU_ASSERT(uncore_socket_cpus(u, 0, cpus, sizeof(cpus)) >= 0 && !strcmp(cpus, "1-3"));
	counts_one_second(u, s, ev); /* read on CPU 1 now, the count going on */
	change("cpu 0 online");
	checked(u, UNCORE_NODE_CPUS);
	CU_ASSERT(uncore_socket_cpus(u, 0, cpus, sizeof(cpus)) >= 0 && !strcmp(cpus, "0-3"));
	counts_one_second(u, s, ev);
	uncore_session_free(s);
	uncore_close(u);
}

/* Every device the map shows, and whether bdf is among them */
static int devices(uncore_t *u, const char *bdf, int *has)
{
	int n = 0, groups = uncore_num_device_groups(u);
	*has = 0;
	for (int g = 0; g < groups; g++) {
		struct uncore_device_group gi;
		struct uncore_device d;
		CU_ASSERT(uncore_device_group_info(u, g, &gi) == 0);
		for (int i = 0; i < gi.ndevices && !uncore_device_info(u, g, i, &d); i++, n++)
			*has |= !strcmp(d.bdf, bdf);
	}
	return n;
}

static void test_devices(void)
{
	uncore_t *u = open_changing("sim:spr", "");
	struct uncore_device_group gi;
	struct uncore_device d;
	char bdf[16], line[64];
	int has, g = 0;
	while (g < uncore_num_device_groups(u) && (uncore_device_group_info(u, g, &gi) || gi.ndevices != 1))
		g++;
	CU_ASSERT_FATAL(g < uncore_num_device_groups(u) && uncore_device_info(u, g, 0, &d) == 0);
	snprintf(bdf, sizeof(bdf), "%s", d.bdf);
	int n = devices(u, bdf, &has);
	CU_ASSERT(n > 1 && has);
	snprintf(line, sizeof(line), "device %s remove", bdf);
	change(line);
	checked(u, UNCORE_NODE_DEVICES);
	CU_ASSERT_EQUAL(devices(u, bdf, &has), n - 1);
	CU_ASSERT(!has);
	snprintf(line, sizeof(line), "device %s add", bdf);
	change(line);
	checked(u, UNCORE_NODE_DEVICES);
	CU_ASSERT_EQUAL(devices(u, bdf, &has), n);
	CU_ASSERT(has);
	uncore_close(u);
}

static int channel_state(uncore_t *u, int box)
{
	struct uncore_channel c;
	return uncore_memory_channel(u, 0, box, &c) ? -1 : c.state;
}

static void test_memory(void)
{
	uncore_t *u = open_changing("sim:spr", "");
	struct sim *sim = sim_of(u->acc);
	CU_ASSERT(sim->dimms[0][0] == 1 && channel_state(u, 0) == UNCORE_CHAN_POPULATED);
	change("dimms 01111111"); /* the first channel's DIMM gone (mapped out, pulled) */
	checked(u, UNCORE_NODE_MEMORY);
	CU_ASSERT(sim->dimms[0][0] == 0);
	CU_ASSERT_EQUAL(channel_state(u, 0), UNCORE_CHAN_EMPTY);
	CU_ASSERT_EQUAL(channel_state(u, 1), UNCORE_CHAN_POPULATED);
	uncore_close(u);
}

static void test_clocks(void)
{
	uncore_t *u = open_changing("sim:spr", "");
	struct uncore_freq_domain d[16];
	double lo, hi, cur;
	int n = uncore_freq_domains(u, d, 16);
	CU_ASSERT_FATAL(n > 0);
	sim_ufreq_truth(sim_of(u->acc), &lo, &hi, &cur);
	CU_ASSERT(d[0].max_hz == hi && hi != 1.8e9);
	change("ufreq 800 1800");
	checked(u, UNCORE_NODE_CLOCKS);
	sim_ufreq_truth(sim_of(u->acc), &lo, &hi, &cur);
	CU_ASSERT(hi == 1.8e9 && lo == 0.8e9);
	CU_ASSERT_EQUAL(uncore_freq_domains(u, d, 16), n);
	for (int i = 0; i < n; i++)
		CU_ASSERT(d[i].max_hz == hi && d[i].min_hz == lo);
	uncore_close(u);
}

/* perf+sim: the uncore driver reloaded, its PMUs' type numbers new; a session started after the check opens its
 * events with them and counts the simulator's clock */
static void test_pmus(void)
{
	uncore_t *u = open_changing("perf+sim:spr", ",cores=4");
	uncore_session_t *s;
	unsigned before = u->perf->pmus[0].type;
	change("pmu reload");
	checked(u, UNCORE_NODE_PMUS);
	CU_ASSERT(u->perf->pmus[0].type != before);
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	int ev = uncore_session_add(s, "UNC_CHA_CLOCKTICKS");
	CU_ASSERT_FATAL(ev >= 0 && uncore_session_start(s) == 0);
	CU_ASSERT(uncore_session_read(s) == 0);
	counts_one_second(u, s, ev);
	uncore_session_free(s);
	uncore_close(u);
}

/* A file of the simulated kernel's tree */
static void kernel_file_is(uncore_t *u, const char *path, const char *want)
{
	struct perf_kernel *k = u->perf->k;
	char line[128] = "";
	CU_ASSERT(k->ops->read_line(k, path, line, sizeof(line)) == 0);
	CU_ASSERT_STRING_EQUAL(line, want);
	if (strcmp(line, want))
		fprintf(stderr, "%s: '%s', want '%s'\n", path, line, want);
}

/* An event of uncore_imc_0 (SPR's UNC_M_CLOCKTICKS, event 0x01: perfmon SPR uncore) opened on cpu: its fd, closed
 * again, or the kernel's -errno */
static int open_imc0(uncore_t *u, int cpu)
{
	struct perf_kernel *k = u->perf->k;
	struct perf_event_attr a = { .size = sizeof(a), .config = 0x01, .disabled = 1 };
	int i = 0;
	while (i < u->perf->npmus && strcmp(u->perf->pmus[i].name, "uncore_imc_0"))
		i++;
	CU_ASSERT_FATAL(i < u->perf->npmus);
	a.type = u->perf->pmus[i].type;
	int fd = k->ops->open(k, &a, -1, cpu, -1, 0);
	if (fd >= 0)
		k->ops->close(k, fd);
	return fd;
}

#define IMC0_MASK "/sys/bus/event_source/devices/uncore_imc_0/cpumask"
#define POWER_MASK "/sys/bus/event_source/devices/power/cpumask"

/* perf+sim, CPUs offline: each uncore PMU's cpumask names the next online CPU of its die and the power PMU's that of
 * its package, as Linux's hotplug callbacks move them (uncore.c uncore_event_cpu_offline, rapl.c rapl_cpu_offline);
 * a die with none left is left out, and an event opened on it refused (uncore_pmu_event_init: box->cpu < 0).  The
 * package's energy opened after CPU 0 went offline counts socket 0, its joules over a second the simulator's truth
 * (before, the power PMU named CPU 0 still, which the library skips as offline, and socket 0's energy was lost). */
static void test_perf_cpus(void)
{
	uncore_t *u = open_changing("perf+sim:spr", ",cores=4");
	struct sim *sim = sim_of(u->acc);
	uncore_energy_t *e;
	double j = -1;
	kernel_file_is(u, IMC0_MASK, "0,4");
	kernel_file_is(u, POWER_MASK, "0,4");
	change("cpu 0 offline");
	checked(u, UNCORE_NODE_CPUS);
	kernel_file_is(u, IMC0_MASK, "1,4");
	kernel_file_is(u, POWER_MASK, "1,4");
	CU_ASSERT_FATAL(uncore_energy_new(u, "perf", &e) == 0);
	CU_ASSERT(uncore_energy_has(e, 0, UNCORE_ENERGY_PKG) == 1);
	CU_ASSERT_FATAL(uncore_energy_start(e, 0) == 0);
	double t0 = truth_energy_j(sim, 0, SIM_RAPL_PKG);
	uncore_sleep_ns(u, 1000000000ull);
	CU_ASSERT_FATAL(uncore_energy_read(e) == 0);
	double want = truth_energy_j(sim, 0, SIM_RAPL_PKG) - t0;
	CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_PKG, UNCORE_SINCE_START, &j) == 0);
	CU_ASSERT(want > 0 && fabs(j - want) <= 1e-3); /* (the counter's unit: 2^-14 J at most) */
	if (!(want > 0 && fabs(j - want) <= 1e-3))
		fprintf(stderr, "socket 0 package energy %.6f J over a second, truth %.6f J\n", j, want);
	uncore_energy_free(e);
	CU_ASSERT(open_imc0(u, 0) >= 0); /* an offline CPU of a die with others: the die's box (event->cpu = box->cpu) */
	change("cpu 1 offline");
	change("cpu 2 offline");
	change("cpu 3 offline");
	checked(u, UNCORE_NODE_CPUS);
	kernel_file_is(u, IMC0_MASK, "4");
	kernel_file_is(u, POWER_MASK, "4");
	CU_ASSERT_EQUAL(open_imc0(u, 0), -EINVAL);
	CU_ASSERT(open_imc0(u, 4) >= 0);
	for (int c = 0; c < 4; c++) {
		char line[32];
		snprintf(line, sizeof(line), "cpu %d online", c);
		change(line);
	}
	checked(u, UNCORE_NODE_CPUS);
	kernel_file_is(u, IMC0_MASK, "0,4");
	kernel_file_is(u, POWER_MASK, "0,4");
	uncore_close(u);
}

/* A session started after a CPU went offline programs its boxes on the CPU of their die they are read on now (the
 * write guard follows: a front end that plans again on the same handle, as PAPI's component does), and the changes
 * file's "clock +S" passes the manual clock without changing the node */
static void test_started_after(void)
{
	uncore_t *u = open_changing("sim:spr", ",cores=4");
	uncore_session_t *s;
	change("cpu 0 offline");
	checked(u, UNCORE_NODE_CPUS);
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	int ev = uncore_session_add(s, "UNC_CHA_CLOCKTICKS");
	CU_ASSERT_FATAL(ev >= 0);
	int rc = uncore_session_start(s);
	CU_ASSERT_FATAL(rc == 0);
	counts_one_second(u, s, ev);
	uint64_t t0 = sim_now(sim_of(u->acc));
	change("clock +2.5");
	checked(u, 0);
	CU_ASSERT_EQUAL(sim_now(sim_of(u->acc)) - t0, 2500000000ull);
	change("clock 5");
	CU_ASSERT(uncore_node_check(u) < 0 && strstr(uncore_error(), "clock +SECONDS"));
	uncore_session_free(s);
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "a CPU offline and online again: the check says so, the socket read on another CPU", test_cpus },
		{ "a PCI device removed and added back: the device map follows", test_devices },
		{ "EDAC's population changed: the channel's state follows", test_memory },
		{ "the uncore clock limits rewritten: said, and read as the simulator has them", test_clocks },
		{ "the uncore PMU driver reloaded (perf+sim): new type numbers taken", test_pmus },
		{ "CPUs offline (perf+sim): the PMUs' cpumasks move as Linux's do, the package's energy counted", test_perf_cpus },
		{ "a session started after a CPU went offline; the clock passed by the changes file", test_started_after },
		{ NULL, NULL },
	};
	int rc = run_suite("node changes", tests);
	if (changes[0]) /* the last machine's changes file: nothing left behind */
		unlink(changes);
	return rc;
}
