/*
 * The node's facts built once (issue 77 point 3), before the first read (issue 99 point 1): the exporter's scrapes
 * of a 2-socket Granite Rapids, with its NUMA nodes, device groups, uncore clock-limit entries and energy, build
 * each fact of the handle's node once, when it plans (node/node.h counts the builds); a change of the simulated
 * machine's job set remakes its files and builds none of them again; uncore_node_refresh lets them go and builds
 * each once more at once, none at the reads after it.  A read opens no file either: every file a read of the
 * simulated node takes is in the tree its access keeps (access_files); the calls that open one are counted here,
 * in the test program, while the reads run.
 */
/* (_GNU_SOURCE, for RTLD_NEXT: configure defines it) */
#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>
#include "sim_helpers.h"
#include "node/node.h"
#include "../exporter/ue.h"

/* The files opened while counting is on: open, openat, fopen and opendir of this program (the library is linked
 * into it) are these, each passing the call on to the C library's. */
static int counting, opened;
static char first_opened[256];

static void count(const char *path)
{
	if (counting && !opened++)
		snprintf(first_opened, sizeof(first_opened), "%s", path);
}

static mode_t mode_of(int flags, va_list ap)
{
	return flags & (O_CREAT | O_TMPFILE) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_of(flags, ap);
	va_end(ap);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "open");
	count(path);
	return real(path, flags, mode);
}

int openat(int dir, const char *path, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	va_list ap;
	va_start(ap, flags);
	mode_t mode = mode_of(flags, ap);
	va_end(ap);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "openat");
	count(path);
	return real(dir, path, flags, mode);
}

FILE *fopen(const char *path, const char *how)
{
	static FILE *(*real)(const char *, const char *);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "fopen");
	count(path);
	return real(path, how);
}

DIR *opendir(const char *path)
{
	static DIR *(*real)(const char *);
	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "opendir");
	count(path);
	return real(path);
}

static const char *const names[NODE_FACTS] = { "NUMA map", "device map", "clock-limit entries", "energy domains",
						 "memory population" };

/* n reads of the exporter, one simulated second apart, each rendered as a scrape would be: failures */
static int scrapes(struct ue_state *st, int n)
{
	int failed = 0;
	for (int r = 0; r < n; r++) {
		uncore_sleep_ns(st->u, 1000000000ull);
		failed += ue_read(st) != 0;
		struct ue_snapshot *snap = ue_render(st, 0);
		failed += !snap;
		if (snap) {
			free(snap->text);
			free(snap->om);
			free(snap);
		}
	}
	return failed;
}

/* Each fact built as often as want says, or the counts printed */
static void builds_are(const uncore_t *u, const int want[NODE_FACTS], const char *when)
{
	int b[NODE_FACTS];
	node_builds(u, b);
	for (int f = 0; f < NODE_FACTS; f++) {
		CU_ASSERT_EQUAL(b[f], want[f]);
		if (b[f] != want[f])
			fprintf(stderr, "%s: %s built %d times (%d wanted)\n", when, names[f], b[f], want[f]);
	}
}

static void test_scrapes_build_once(void)
{
	char *argv[] = { "uncore-exporter", "--backend", "sim:gnr,clock=manual", "--per-job", NULL };
	struct ue_config c;
	struct ue_state st;
	char err[1024];
	CU_ASSERT_FATAL(ue_options(&c, 4, argv, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(ue_plan(&c, &st, err, sizeof(err)) == 0 && ue_start(&st, err, sizeof(err)) == 0);
	/* what the scrapes read: every fact of the node is used (each built when the exporter planned) */
	builds_are(st.u, (const int[NODE_FACTS]){ 1, 1, 1, 1, 1 }, "the plan and start");
	int nodes = 0, clocks = 0;
	for (int i = 0; i < st.nseries; i++) {
		nodes += st.series[i].node >= 0;
		clocks += !!strstr(st.fams[st.series[i].fam].name, "uncore_frequency");
	}
	CU_ASSERT(nodes > 0);
	CU_ASSERT(uncore_num_device_groups(st.u) > 0);
	CU_ASSERT(uncore_freq_domains(st.u, NULL, 0) > 0);
	CU_ASSERT(st.energy != NULL);
	CU_ASSERT_EQUAL(scrapes(&st, 40), 0);
	/* (the memory population: the peak's, looked at when the exporter plans, issue 91; Granite Rapids' peak is
	 * not known, so no share series reads it again) */
	builds_are(st.u, (const int[NODE_FACTS]){ 1, 1, 1, 1, 1 }, "40 scrapes");
	/* the job set changes: the machine's spool and cgroups are made again (access_files_refresh), its jobs found
	 * again by the per-job reads; no fact of the node depends on them */
	const char *const cpus[] = { "0-3" };
	const double rd[] = { 1e9 }, wr[] = { 5e8 };
	CU_ASSERT(uncore_sim_workload_cpus(st.u, 1, cpus, rd, wr, 1000000000ull) == 0);
	CU_ASSERT_EQUAL(scrapes(&st, 10), 0);
	builds_are(st.u, (const int[NODE_FACTS]){ 1, 1, 1, 1, 1 }, "a job set's change and 10 scrapes");
	/* a stated refresh (a hot-plugged device): each fact once more, at once, and none at the reads after it */
	CU_ASSERT(uncore_node_refresh(st.u) == 0);
	builds_are(st.u, (const int[NODE_FACTS]){ 2, 2, 2, 2, 2 }, "a refresh");
	CU_ASSERT_EQUAL(scrapes(&st, 10), 0);
	CU_ASSERT(uncore_energy_here(st.u, UNCORE_ENERGY_PKG) == 1);
	CU_ASSERT(uncore_energy_here(st.u, UNCORE_ENERGY_DRAM) == 1);
	builds_are(st.u, (const int[NODE_FACTS]){ 2, 2, 2, 2, 2 }, "a refresh and 10 scrapes");
	ue_teardown(&st);
	ue_config_free(&c);
}

/* The exporter's default set (its NUMA node series, the peak and its share, energy, the clock's limits): every
 * fact built when it planned, before the first read; the first read and the hundredth build none and open no
 * file */
static void test_reads_build_nothing(void)
{
	char *argv[] = { "uncore-exporter", "--backend", "sim:gnr,clock=manual", NULL };
	struct ue_config c;
	struct ue_state st;
	char err[1024];
	int before[NODE_FACTS], first[NODE_FACTS], hundredth[NODE_FACTS], nodes = 0, have = 0;
	CU_ASSERT_FATAL(ue_options(&c, 3, argv, err, sizeof(err)) == 0);
	CU_ASSERT_FATAL(ue_plan(&c, &st, err, sizeof(err)) == 0 && ue_start(&st, err, sizeof(err)) == 0);
	for (int i = 0; i < st.nseries; i++)
		nodes += st.series[i].node >= 0;
	CU_ASSERT(nodes > 0 && st.energy != NULL && st.ufreq != NULL);
	builds_are(st.u, (const int[NODE_FACTS]){ 1, 1, 1, 1, 1 }, "the exporter's plan and start");
	node_builds(st.u, before);
	opened = 0;
	for (int r = 0; r < 100; r++) {
		uncore_sleep_ns(st.u, 1000000000ull);
		counting = 1;
		CU_ASSERT_EQUAL(ue_read(&st), 0);
		counting = 0;
		node_builds(st.u, r ? hundredth : first);
	}
	CU_ASSERT(!memcmp(before, first, sizeof(first)));
	CU_ASSERT(!memcmp(first, hundredth, sizeof(first)));
	builds_are(st.u, before, "100 reads");
	CU_ASSERT_EQUAL(opened, 0);
	if (opened)
		fprintf(stderr, "100 reads opened %d files, the first %s\n", opened, first_opened);
	/* the reads had values to give: the node series' bytes, not an empty loop */
	for (int i = 0; i < st.nseries; i++)
		have += st.series[i].node >= 0 && st.series[i].have && st.series[i].value > 0;
	CU_ASSERT(have > 0);
	ue_teardown(&st);
	ue_config_free(&c);
}

/* A fact that cannot be built (a snapshot taken before snapshots kept the PCI tree and the NUMA topology) is
 * said at every use, its build tried once: not at every read */
static void test_failure_kept(void)
{
	char tar[300], cmd[700];
	uncore_t *u;
	snprintf(tar, sizeof(tar), "%s/node-skx-%d.tar", test_tmpdir(), (int)getpid());
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s/tests/snapshots/skx.tar.gz' > '%s'", SRCDIR, tar);
	CU_ASSERT_FATAL(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "replay:%s", tar);
	CU_ASSERT_FATAL(uncore_open_topology(cmd, &u) == 0);
	for (int r = 0; r < 5; r++) {
		CU_ASSERT(uncore_num_device_groups(u) < 0 && strstr(uncore_error(), "this snapshot keeps no PCI device tree"));
		CU_ASSERT(uncore_numa_nodes(u, NULL, 0) < 0 && strstr(uncore_error(), "this snapshot keeps no NUMA memory"));
	}
	builds_are(u, (const int[NODE_FACTS]){ 1, 1, 0, 0 }, "5 uses of each of two facts that cannot be built");
	uncore_close(u);
	unlink(tar);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "exporter scrapes build each of the node's facts once; a job set's change none; a refresh each once more",
		  test_scrapes_build_once },
		{ "every fact built when the exporter plans: its first read and its hundredth build none, open no file",
		  test_reads_build_nothing },
		{ "a fact that cannot be built: its reason at every use, one build", test_failure_kept },
		{ NULL, NULL },
	};
	return run_suite("node facts", tests);
}
