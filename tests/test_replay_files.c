/*
 * A replay is a host like the simulator (issue 77 point 2): its node's files come through its access's one
 * file view (access.h ops->files, access_files), read once when it opens, so that two replays open in one
 * process at once, each read in turn and in two threads at the same time, each see their own node's files:
 * its CPU (/proc/cpuinfo), its NUMA nodes, its device tree, through the view and through the public calls
 * that read it.  The truths are the snapshots' own members (tests/snapshots/emr.tar.gz and
 * tests/snapshots/field/gnr-snc3-cxl.tar.gz, as `tar xOf` gives them), not the library's answers.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "uncore.h"
#include "handle/handle.h"
#include "access/access.h"
#include "devices/dev_fs.h"
#include "util/memfs.h"

/* What each snapshot holds (its members): the CPU model (proc/cpuinfo "model": 207 = 0xcf, Emerald Rapids; 173 =
 * 0xad, Granite Rapids), node 0's CPUs (sys/devices/system/node/node0/cpulist), how many NUMA nodes
 * (sys/devices/system/node/node*), and a device of its tree (devices/tree.txt: an Intel E810 NIC, 8086:1592,
 * behind a root port of each). */
struct node {
	const char *snap, *model, *node0, *nic;
	int nodes;
	char tar[512];
	uncore_t *u;
};
static struct node nodes[] = {
	{ .snap = "tests/snapshots/emr.tar.gz", .model = "model\t\t: 207", .node0 = "0-59",
	  .nic = "/sys/devices/pci0000:00/0000:00:0d.0/0000:01:00.0/device", .nodes = 2 },
	{ .snap = "tests/snapshots/field/gnr-snc3-cxl.tar.gz", .model = "model\t\t: 173", .node0 = "0-23",
	  .nic = "/sys/devices/pci0000:15/0000:15:02.0/0000:16:00.0/device", .nodes = 8 },
};
#define NNODES (int)(sizeof(nodes) / sizeof(nodes[0]))

/* A file of the handle's view, its first line into buf: 0, or -1 (no view, no such file) */
static int view_line(uncore_t *u, const char *path, char *buf, size_t len)
{
	const struct memfs *m = NULL;
	struct dev_fs fs = { 0 };
	if (access_files(u->acc, &m) || !m)
		return -1;
	fs.mem = m;
	return dev_fs_line(&fs, path, buf, len);
}

/* Whether the handle sees n's node, every answer its own: 1, or 0 with what differed said */
static int sees_own(const struct node *n)
{
	char line[256], cpuinfo[4096];
	const struct memfs *m = NULL;
	const struct memfs_file *f;
	struct uncore_numa_node v[UC_MAX_NODES];
	struct uncore_freq_domain fd[4];
	if (access_files(n->u->acc, &m) || !m || !(f = memfs_find(m, "/proc/cpuinfo")) || memfs_read(f, cpuinfo, sizeof(cpuinfo)))
		return fprintf(stderr, "%s: no /proc/cpuinfo in the replay's view\n", n->snap), 0;
	if (!strstr(cpuinfo, n->model))
		return fprintf(stderr, "%s: the view's cpuinfo is not the node's (%s):\n%s\n", n->snap, n->model, cpuinfo), 0;
	if (view_line(n->u, "/sys/devices/system/node/node0/cpulist", line, sizeof(line)) || strcmp(line, n->node0))
		return fprintf(stderr, "%s: node 0's CPUs in the view are not %s\n", n->snap, n->node0), 0;
	if (view_line(n->u, n->nic, line, sizeof(line)) || strcmp(line, "0x1592"))
		return fprintf(stderr, "%s: %s is not the node's NIC\n", n->snap, n->nic), 0;
	int k = uncore_numa_nodes(n->u, v, UC_MAX_NODES);
	if (k != n->nodes)
		return fprintf(stderr, "%s: %d NUMA nodes, not %d: %s\n", n->snap, k, n->nodes, uncore_error()), 0;
	/* what the snapshot does not keep is said, not taken from the simulated machine under it */
	if (uncore_freq_domains(n->u, fd, 4) >= 0 || !strstr(uncore_error(), "keeps no uncore frequency files"))
		return fprintf(stderr, "%s: the uncore clock limits were not refused: %s\n", n->snap, uncore_error()), 0;
	return 1;
}

static void open_all(const char *prefix)
{
	for (int i = 0; i < NNODES; i++) {
		char spec[700];
		snprintf(spec, sizeof(spec), "%s%s", prefix, nodes[i].tar);
		CU_ASSERT_FATAL(uncore_open(spec, &nodes[i].u) == 0);
	}
}

static void close_all(void)
{
	for (int i = 0; i < NNODES; i++) {
		uncore_close(nodes[i].u);
		nodes[i].u = NULL;
	}
}

/* Both open at once, read in turn: each its own */
static void alternate(const char *prefix)
{
	open_all(prefix);
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < NNODES; i++)
			CU_ASSERT(sees_own(&nodes[i]));
	close_all();
}
static void test_alternate(void) { alternate("replay:"); }
static void test_alternate_perf(void) { alternate("perf+replay:"); }

static void *reader(void *arg)
{
	const struct node *n = arg;
	long ok = 1;
	for (int round = 0; round < 5 && ok; round++)
		ok = sees_own(n);
	return (void *)ok;
}

/* Both read at the same time, each in its thread (as the exporter's scrapes of two handles) */
static void test_threads(void)
{
	pthread_t t[NNODES];
	void *ok[NNODES];
	open_all("replay:");
	for (int i = 0; i < NNODES; i++)
		CU_ASSERT_FATAL(pthread_create(&t[i], NULL, reader, &nodes[i]) == 0);
	for (int i = 0; i < NNODES; i++) {
		CU_ASSERT(pthread_join(t[i], &ok[i]) == 0);
		CU_ASSERT(ok[i] == (void *)1);
	}
	close_all();
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "two replays open at once, read in turn, each see their own files", test_alternate },
		{ "... through the perf backend", test_alternate_perf },
		{ "two replays read in two threads at once, each see their own files", test_threads },
		{ NULL, NULL },
	};
	int rc;
	for (int i = 0; i < NNODES; i++) {
		char cmd[1400];
		snprintf(nodes[i].tar, sizeof(nodes[i].tar), "%s/replay-files-%d-%d.tar", test_tmpdir(), (int)getpid(), i);
		snprintf(cmd, sizeof(cmd), "gzip -dc '%s/%s' > '%s'", SRCDIR, nodes[i].snap, nodes[i].tar);
		if (system(cmd))
			return fprintf(stderr, "cannot unpack %s\n", nodes[i].snap), 2;
	}
	rc = run_suite("replay files", tests);
	for (int i = 0; i < NNODES; i++)
		unlink(nodes[i].tar);
	return rc;
}
