/*
 * The host's files through the one file view (devices/dev_fs.h) are read with a bound and without blocking:
 * a FIFO or a 1 GiB file planted in UNCORE_SYSROOT where the device map or the NUMA map reads a sysfs file is
 * named in a warning and left out, and the read returns (an alarm fails the test where it would block).  And the
 * fake tree itself (fake_tree.h) is removed when the test is killed.
 */
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "fake_tree.h"
#include "devices/dev_fs.h"
#include "numa/numa.h"
#include "util/error.h"

#define DEV "/sys/devices/pci0000:16/0000:16:02.0"

static void fifo(const char *rel)
{
	char p[512];
	put("", 0, "%s.tmp", rel); /* its directories */
	snprintf(p, sizeof(p), "%s%s.tmp", root, rel);
	unlink(p);
	snprintf(p, sizeof(p), "%s%s", root, rel);
	CU_ASSERT_FATAL(mkfifo(p, 0600) == 0);
}

static void on_alarm(int sig)
{
	(void)sig;
	static const char m[] = "a read of the view blocked\n";
	(void)!write(2, m, sizeof(m) - 1);
	_exit(1);
}

/* The device map's reads: a function's attribute (its first line) and its config space (bytes). */
static void test_device_files(void)
{
	struct dev_fs fs = { 0 }; /* mem NULL: the host's files below the sysroot */
	char line[64];
	unsigned char cfg[4];
	put_str("0x8086\n", DEV "/vendor");
	fifo(DEV "/device");
	sparse(DEV "/class", (off_t)1 << 30);
	fifo(DEV "/config");
	sparse("/sys/devices/pci0000:16/0000:16:03.0/config", (off_t)1 << 30);
	uc_clear_warnings();
	alarm(20);
	CU_ASSERT(dev_fs_line(&fs, DEV "/vendor", line, sizeof(line)) == 0 && !strcmp(line, "0x8086"));
	CU_ASSERT(dev_fs_line(&fs, DEV "/device", line, sizeof(line)) == -1);
	CU_ASSERT(dev_fs_line(&fs, DEV "/class", line, sizeof(line)) == -1);
	CU_ASSERT(dev_fs_bytes(&fs, DEV "/config", 0, cfg, sizeof(cfg)) == -1);
	CU_ASSERT(dev_fs_bytes(&fs, "/sys/devices/pci0000:16/0000:16:03.0/config", 0, cfg, sizeof(cfg)) == -1);
	alarm(0);
	const char *w = uc_warnings();
	fprintf(stderr, "warnings:\n%s\n", w);
	CU_ASSERT(strstr(w, DEV "/device: it is a FIFO") != NULL);
	CU_ASSERT(strstr(w, DEV "/class: it is 1073741824 bytes") != NULL);
	CU_ASSERT(strstr(w, DEV "/config: it is a FIFO") != NULL);
	CU_ASSERT(strstr(w, "0000:16:03.0/config: it is 1073741824 bytes") != NULL);
}

/* The NUMA map's reads: node 0 as the kernel shows it, node 1's CPU list a FIFO, node 2's a 1 GiB file. */
static void test_numa_files(void)
{
	struct dev_fs fs = { 0 };
	struct host_info h;
	struct numa_topo *t = calloc(1, sizeof(*t));
	CU_ASSERT_FATAL(t != NULL);
	memset(&h, 0, sizeof(h));
	memset(h.cpu_socket, -1, sizeof(h.cpu_socket));
	h.ncpus = 4;
	for (int c = 0; c < 4; c++)
		h.cpu_socket[c] = 0;
	put_str("8000000\n", "/sys/devices/system/memory/block_size_bytes");
	put_str("0-3\n", "/sys/devices/system/node/node0/cpulist");
	fifo("/sys/devices/system/node/node1/cpulist");
	sparse("/sys/devices/system/node/node2/cpulist", (off_t)1 << 30);
	uc_clear_warnings();
	alarm(20);
	CU_ASSERT_FATAL(numa_topo_read(&fs, &h, t) == 0);
	alarm(0);
	const char *w = uc_warnings();
	fprintf(stderr, "warnings:\n%s\nnodes %d: %d %d %d, node 0 CPUs %d\n", w, t->n, t->node[0].present,
		t->node[1].present, t->node[2].present, t->node[0].ncpus);
	CU_ASSERT(t->n == 1 && t->node[0].present && t->node[0].ncpus == 4 && !t->node[1].present && !t->node[2].present);
	CU_ASSERT(strstr(w, "node1/cpulist: it is a FIFO") != NULL);
	CU_ASSERT(strstr(w, "node2/cpulist: it is 1073741824 bytes") != NULL);
	free(t);
}

/* A test killed mid-run (a time limit's SIGTERM) removes the fake tree it made and still ends by the signal. */
static void test_tree_removed_on_kill(void)
{
	char dir[256];
	int status = 0;
	struct stat st;
	pid_t pid;
	snprintf(dir, sizeof(dir), "%.240s.killed", root);
	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) { /* a new process image of its own: arms anew, as a test program does */
		root_owner = 0;
		snprintf(root, sizeof(root), "%s", dir);
		put_str("x\n", "/sys/a/b");
		raise(SIGTERM);
		_exit(0);
	}
	CU_ASSERT(waitpid(pid, &status, 0) == pid);
	CU_ASSERT(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	if (stat(dir, &st) == 0) {
		fprintf(stderr, "FAIL: %s left behind by a test killed with SIGTERM\n", dir);
		CU_FAIL("tree left");
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "device map: a FIFO and a 1 GiB file in the sysroot are named and left out", test_device_files },
		{ "NUMA map: a FIFO and a 1 GiB file in the sysroot are named and left out", test_numa_files },
		{ "a test killed by SIGTERM removes its fake tree", test_tree_removed_on_kill },
		{ NULL, NULL },
	};
	signal(SIGALRM, on_alarm);
	return run_in_fake_tree("view_guard", tests);
}
