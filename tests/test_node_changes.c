/*
 * The node changing under an open handle (issue 99 point 2): the simulator makes each change a test writes to its
 * changes file (sim_changes.c), and uncore_node_check says which kind changed and has the facts follow -- the
 * CPUs a read uses, the devices, the memory population, the clock limits, the perf PMUs' type numbers -- each
 * held to the simulator's truth before and after.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "sim_helpers.h"
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
		{ "a session started after a CPU went offline; the clock passed by the changes file", test_started_after },
		{ NULL, NULL },
	};
	int rc = run_suite("node changes", tests);
	if (changes[0]) /* the last machine's changes file: nothing left behind */
		unlink(changes);
	return rc;
}
