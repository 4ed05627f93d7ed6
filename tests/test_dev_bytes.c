/*
 * The devices' own byte counters (issue 66 point 2): read from a fake sysroot and from the same tree in
 * memory alike, in the units the kernel documents (4-byte InfiniBand words, 512-byte sectors), a counter that
 * goes backward making its interval unusable; and the comparison with the IIO ports' bytes on vectors whose
 * verdicts follow from the bound of doc/health.md.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "fake_tree.h"
#include "uncore.h"
#include "devices/dev_bytes.h"
#include "devices/dev_compare.h"
#include "devices/dev_map.h"
#include "devices/dev_files.h"
#include "handle/handle.h"
#include "access/access.h"
#include "util/memfs.h"

#define NIC "/sys/devices/pci0000:16/0000:16:02.0/0000:17:00.0"
#define HCA "/sys/devices/pci0000:16/0000:16:03.0/0000:18:00.0"
#define SSD "/sys/devices/pci0000:30/0000:30:02.0/0000:31:00.0"
#define GPU "/sys/devices/pci0000:30/0000:30:03.0/0000:32:00.0"

/* The tree, as files below the sysroot or in memory (m non-NULL) */
static void file(struct memfs *m, const char *path, const char *text)
{
	if (m) {
		CU_ASSERT_FATAL(memfs_put(m, path, text, 0) == 0);
	} else {
		char t[512];
		snprintf(t, sizeof(t), "%s\n", text);
		put_str(t, path);
	}
}

static void tree(struct memfs *m, uint64_t nic_rx)
{
	char t[64];
	snprintf(t, sizeof(t), "%llu", (unsigned long long)nic_rx);
	file(m, NIC "/vendor", "0x8086");
	file(m, NIC "/net/ens1f0/statistics/rx_bytes", t);
	file(m, NIC "/net/ens1f0/statistics/tx_bytes", "2000");
	file(m, NIC "/net/ens1f0/statistics/rx_packets", "10");
	file(m, NIC "/net/ens1f0/statistics/tx_packets", "20");
	file(m, NIC "/net/ens1f1/statistics/rx_bytes", "5");
	file(m, NIC "/net/ens1f1/statistics/tx_bytes", "7");
	file(m, NIC "/net/ens1f1/statistics/rx_packets", "1"); /* (tx_packets missing: no headers off its bytes) */
	/* an HCA: its IPoIB netdev counts what the port counters count too; the port counters are read */
	file(m, HCA "/net/ib0/statistics/rx_bytes", "999999");
	file(m, HCA "/net/ib0/statistics/tx_bytes", "999999");
	file(m, HCA "/net/ib0/statistics/rx_packets", "9");
	file(m, HCA "/net/ib0/statistics/tx_packets", "9");
	file(m, HCA "/infiniband/mlx5_0/ports/1/counters/port_rcv_data", "1000");
	file(m, HCA "/infiniband/mlx5_0/ports/1/counters/port_xmit_data", "250");
	file(m, HCA "/infiniband/mlx5_0/ports/1/counters/port_rcv_packets", "3");
	file(m, HCA "/infiniband/mlx5_0/ports/1/counters/port_xmit_packets", "4");
	file(m, HCA "/infiniband/mlx5_0/ports/2/counters/port_rcv_data", "1");
	file(m, HCA "/infiniband/mlx5_0/ports/2/counters/port_xmit_data", "2");
	file(m, HCA "/infiniband/mlx5_0/ports/2/counters/port_rcv_packets", "1");
	file(m, HCA "/infiniband/mlx5_0/ports/2/counters/port_xmit_packets", "1");
	/* an NVMe controller: a namespace in /sys/block, a multipath path device in its own directory only */
	file(m, SSD "/nvme/nvme3/dev", "0:0");
	file(m, SSD "/nvme/nvme3/nvme3n1/dev", "0:0");
	file(m, "/sys/block/nvme3n1/stat",
	     "    1234        5    20480      300     4321        6    40960      700        0      900     1000        0        0        0        0        0        0");
	file(m, SSD "/nvme/nvme3/nvme3c3n2/stat", "1 0 8 1 1 0 16 1 0 0 0 0 0 0 0 0 0");
	file(m, GPU "/drm/card0/dev", "0:0");
}

static void check_tree(const struct dev_fs *fs)
{
	struct dev_bytes b;
	CU_ASSERT(dev_bytes_read(fs, NIC, &b) == 0);
	CU_ASSERT(b.kinds == DEV_CNT_NET && b.in == 1000 + 5 && b.out == 2000 + 7 && b.in_pkts == 11 && b.out_pkts == 20);
	CU_ASSERT(dev_bytes_read(fs, HCA, &b) == 0);
	if (b.in != 4 * 1001)
		fprintf(stderr, "HCA: kinds %u in %llu out %llu\n", b.kinds, (unsigned long long)b.in, (unsigned long long)b.out);
	CU_ASSERT(b.kinds == DEV_CNT_IB && b.in == 4 * 1001 && b.out == 4 * 252 && b.in_pkts == 4 && b.out_pkts == 5 &&
		  !b.saturated);
	CU_ASSERT(dev_bytes_read(fs, SSD, &b) == 0);
	CU_ASSERT(b.kinds == DEV_CNT_BLOCK && b.in == (20480 + 8) * 512ull && b.out == (40960 + 16) * 512ull && !b.in_pkts);
	CU_ASSERT(dev_bytes_read(fs, GPU, &b) == 0);
	CU_ASSERT(b.kinds == 0 && b.in == 0 && b.out == 0);
}

static void test_sysroot(void)
{
	struct dev_fs fs = { 0 };
	tree(NULL, 1000);
	check_tree(&fs);
}

static void test_memory(void)
{
	struct memfs m = { 0 };
	struct dev_fs fs = { .mem = &m };
	tree(&m, 1000);
	check_tree(&fs);
	memfs_free(&m);
}

/* A counter that went backward (a driver reloaded) makes the interval unusable, not a step of 2^64 */
static void test_backward(void)
{
	struct memfs a = { 0 }, b = { 0 };
	struct dev_fs fa = { .mem = &a }, fb = { .mem = &b };
	struct dev_bytes x, y, d;
	tree(&a, 5000000);
	tree(&b, 5000100);
	dev_bytes_read(&fa, NIC, &x);
	dev_bytes_read(&fb, NIC, &y);
	CU_ASSERT(dev_bytes_delta(&x, &y, &d) == 0 && d.in == 100 && d.out == 0 && d.kinds == DEV_CNT_NET);
	CU_ASSERT(dev_bytes_delta(&y, &x, &d) == -1);
	memfs_free(&a);
	memfs_free(&b);
	/* a 32-bit port counter at its top (PMA counters saturate) */
	struct memfs m = { 0 };
	struct dev_fs fs = { .mem = &m };
	file(&m, HCA "/infiniband/mlx5_0/ports/1/counters/port_rcv_data", "4294967295");
	file(&m, HCA "/infiniband/mlx5_0/ports/1/counters/port_xmit_data", "1");
	file(&m, HCA "/infiniband/mlx5_0/ports/1/counters/port_rcv_packets", "1");
	file(&m, HCA "/infiniband/mlx5_0/ports/1/counters/port_xmit_packets", "1");
	dev_bytes_read(&fs, HCA, &x);
	CU_ASSERT(x.kinds == DEV_CNT_IB && x.saturated);
	memfs_free(&m);
}

/* The index of a tree in memory: each of 5000 paths found (the table grown 7 times over), a path put twice
 * found as first put, a path never put not found, links through directories still followed */
static void test_memfs_index(void)
{
	struct memfs m = { 0 };
	char p[64];
	int found = 0;
	CU_ASSERT(memfs_find(&m, "/sys") == NULL);
	for (int i = 0; i < 5000; i++) {
		snprintf(p, sizeof(p), "/sys/devices/f%d/value", i);
		char v[16];
		snprintf(v, sizeof(v), "%d", i);
		CU_ASSERT_FATAL(memfs_put(&m, p, v, 0) == 0);
	}
	CU_ASSERT_FATAL(memfs_put(&m, "/sys/devices/f7/value", "again", 0) == 0);
	CU_ASSERT_FATAL(memfs_put(&m, "/sys/class/x", "../devices/f42", 1) == 0);
	for (int i = 0; i < 5000; i++) {
		const struct memfs_file *f;
		snprintf(p, sizeof(p), "/sys/devices/f%d/value", i);
		found += (f = memfs_find(&m, p)) != NULL && atoi(f->text) == i && !strcmp(f->path, p);
	}
	CU_ASSERT(found == 5000);
	CU_ASSERT(!strcmp(memfs_find(&m, "/sys/devices/f7/value")->text, "7"));
	CU_ASSERT(memfs_find(&m, "/sys/devices/f5000/value") == NULL && memfs_find(&m, "/sys/devices/f1") == NULL);
	const struct memfs_file *t = memfs_find_through(&m, "/sys/class/x/value");
	CU_ASSERT(t && !strcmp(t->text, "42"));
	memfs_free(&m);
	CU_ASSERT(m.n == 0 && m.idx == NULL && memfs_find(&m, "/sys/devices/f1/value") == NULL);
}

/* The names memfs_list gives for dir, joined by spaces (each ended by one) */
struct names {
	char s[65536];
	int stop_after; /* fn says stop after this many (0: never) */
	int n;
};
static int add_name(void *arg, const char *name)
{
	struct names *l = arg;
	size_t k = strlen(l->s);
	snprintf(l->s + k, sizeof(l->s) - k, "%s ", name);
	return ++l->n == l->stop_after;
}

/* The same by the contract itself, over every path of the tree (the way memfs_list read them before it kept an
 * index): each name directly below dir once, in the order of the files that first name it; -1 when none */
static int names_by_scan(const struct memfs *m, const char *dir, struct names *l)
{
	size_t n = strlen(dir);
	int found = 0;
	for (int i = 0; i < m->n; i++) {
		const char *p = m->f[i].path;
		if (strncmp(p, dir, n) || p[n] != '/')
			continue;
		found = 1;
		char name[256], key[258];
		size_t k = strcspn(p + n + 1, "/");
		snprintf(name, sizeof(name), "%.*s", (int)k, p + n + 1);
		snprintf(key, sizeof(key), "%s ", name);
		int seen = 0;
		for (const char *c = l->s; !seen && (c = strstr(c, key)); c++)
			seen = c == l->s || c[-1] == ' ';
		if (!seen && add_name(l, name))
			break;
	}
	return found ? 0 : -1;
}

/* A directory's names (issue 77 point 6: memfs_list reads an index of them, not every path): the names each
 * once, in the order the files first name them, names only deeper files make, an empty name of a doubled '/',
 * nothing below a file or an unknown path (-1), and the listing stopped where fn says; each as the contract
 * gives it by reading every path */
static void test_memfs_list(void)
{
	static const char *const paths[] = { "/sys/bus/pci/devices/0000:00:01.0/net/eth1/statistics/rx_bytes",
					     "/sys/bus/pci/devices/0000:00:00.0/vendor",
					     "/sys/bus/pci/devices/0000:00:01.0/net/eth0/statistics/rx_bytes",
					     "/sys/bus/pci/devices/0000:00:01.0/net/eth1/statistics/tx_bytes",
					     "/sys/class/net/eth0",
					     "/sys/bus/pci/devices/0000:00:01.0/nvme/nvme0/nvme0n1/stat",
					     "/sys/bus/pci/devices/0000:00:01.0/net",
					     "/sys/block//nvme0n1",
					     "/proc/cpuinfo",
					     "/sys/bus/pci/devices/0000:00:01.0/net/eth0/statistics/tx_bytes",
					     "relative/one" };
	static const struct {
		const char *dir, *want;
		int stop, rc;
	} cases[] = {
		{ "", "sys proc ", 0, 0 },
		{ "/sys", "bus class block ", 0, 0 },
		{ "/sys/bus/pci/devices", "0000:00:01.0 0000:00:00.0 ", 0, 0 },
		{ "/sys/bus/pci/devices/0000:00:01.0", "net nvme ", 0, 0 },
		{ "/sys/bus/pci/devices/0000:00:01.0/net", "eth1 eth0 ", 0, 0 },
		{ "/sys/bus/pci/devices/0000:00:01.0/net", "eth1 ", 1, 0 },
		{ "/sys/bus/pci/devices/0000:00:01.0/net/eth1/statistics", "rx_bytes tx_bytes ", 0, 0 },
		{ "/sys/block", " ", 0, 0 },
		{ "/sys/block/", "nvme0n1 ", 0, 0 },
		{ "relative", "one ", 0, 0 },
		{ "/sys/class/net/eth0", "", 0, -1 },
		{ "/sys/bus/pci/devices/0000:00:00.0/vendo", "", 0, -1 },
		{ "/nowhere", "", 0, -1 },
	};
	struct memfs m = { 0 };
	static struct names l, scan;
	CU_ASSERT(memfs_list(&m, "/sys", add_name, &l) == -1 && !l.s[0]); /* nothing put yet */
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		CU_ASSERT_FATAL(memfs_put(&m, paths[i], "1", 0) == 0);
	CU_ASSERT_FATAL(memfs_put(&m, paths[2], "again", 0) == 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(&l, 0, sizeof(l));
		memset(&scan, 0, sizeof(scan));
		l.stop_after = scan.stop_after = cases[i].stop;
		int rc = memfs_list(&m, cases[i].dir, add_name, &l), want_rc = names_by_scan(&m, cases[i].dir, &scan);
		if (rc != cases[i].rc || strcmp(l.s, cases[i].want) || want_rc != rc || strcmp(scan.s, l.s))
			fprintf(stderr, "memfs_list(\"%s\"): %d \"%s\", expected %d \"%s\" (by every path: %d \"%s\")\n",
				cases[i].dir, rc, l.s, cases[i].rc, cases[i].want, want_rc, scan.s);
		CU_ASSERT(rc == cases[i].rc && !strcmp(l.s, cases[i].want));
		CU_ASSERT(want_rc == rc && !strcmp(scan.s, l.s));
	}
	/* 5000 names below one directory, put in an order of their own, then more below one of them */
	char p[64];
	for (int i = 0; i < 5000; i++) {
		snprintf(p, sizeof(p), "/big/d%d/f", (i * 7919) % 5000);
		CU_ASSERT_FATAL(memfs_put(&m, p, "1", 0) == 0);
	}
	CU_ASSERT_FATAL(memfs_put(&m, "/big/d3/g", "1", 0) == 0);
	static struct names big, big_scan;
	CU_ASSERT(memfs_list(&m, "/big", add_name, &big) == 0 && names_by_scan(&m, "/big", &big_scan) == 0);
	CU_ASSERT(big.n == 5000 && big_scan.n == 5000 && !strcmp(big.s, big_scan.s));
	memset(&l, 0, sizeof(l));
	CU_ASSERT(memfs_list(&m, "/big/d3", add_name, &l) == 0 && !strcmp(l.s, "f g "));
	memfs_free(&m);
	CU_ASSERT(m.nodes == NULL && m.nidx == NULL && memfs_list(&m, "/big", add_name, &l) == -1);
}

/* A handle's simulated sysfs is made once (access_files.c, counted where ops->files runs), however often it is read: the map, four 10 s device
 * windows of the health check (each reading every device's counters), three jobs scans, and dev_fs_of
 * itself; and the counter files read through it still move with the simulated clock. */
static void test_tree_once(void)
{
	uncore_t *u;
	uncore_session_t *s;
	struct uncore_device_check rows[64];
	struct dev_fs fs;
	char dir[512];
	struct dev_bytes a, b, d;
	CU_ASSERT_FATAL(uncore_open("sim:spr,clock=manual", &u) == 0);
	CU_ASSERT_FATAL(uncore_num_device_groups(u) > 0);
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT_FATAL(uncore_session_add_device_ports(s) > 0 && uncore_session_start(s) == 0);
	int g = 0, moved = 0;
	while (g < uncore_num_device_groups(u) && (dev_map_dir(u, g, 0, dir, sizeof(dir)) ||
						   dev_fs_of(u, &fs) || dev_bytes_read(&fs, dir, &a) || !a.kinds))
		g++; /* the first group whose first device keeps counters (a NIC) */
	CU_ASSERT_FATAL(g < uncore_num_device_groups(u));
	for (int i = 0; i < 4; i++) {
		uncore_sleep_ns(u, 10000000000ull);
		CU_ASSERT(uncore_session_read(s) == 0);
	}
	CU_ASSERT(dev_fs_of(u, &fs) == 0 && dev_bytes_read(&fs, dir, &b) == 0 && dev_bytes_delta(&a, &b, &d) == 0);
	moved = d.in > 0 || d.out > 0;
	int nrows = uncore_session_device_check(s, rows, 64), judged = 0;
	for (int i = 0; i < nrows && i < 64; i++)
		judged += rows[i].group >= 0 && !isnan(rows[i].dev_in) && rows[i].dev_in > 0;
	for (int i = 0; i < 3; i++)
		CU_ASSERT(uncore_jobs_scan(u) >= 0);
	CU_ASSERT(moved);
	CU_ASSERT(judged > 0);
	int made = access_files_made(u->acc);
	CU_ASSERT(made == 1);
	if (made != 1 || !judged)
		fprintf(stderr, "the simulated sysfs was made %d times for one handle (%d device rows judged)\n", made,
			judged);
	uncore_session_free(s);
	uncore_close(u);
}

/* Each device of the simulator's map has its directory in the simulated sysfs */
static void test_map_dirs(void)
{
	uncore_t *u;
	struct dev_fs fs;
	char dir[512];
	int seen = 0;
	CU_ASSERT_FATAL(uncore_open_topology("sim:spr", &u) == 0);
	CU_ASSERT_FATAL(dev_fs_of(u, &fs) == 0);
	for (int g = 0; g < uncore_num_device_groups(u); g++) {
		struct uncore_device_group gi;
		uncore_device_group_info(u, g, &gi);
		for (int i = 0; i < gi.ndevices; i++) {
			struct uncore_device d;
			uncore_device_info(u, g, i, &d);
			CU_ASSERT(dev_map_dir(u, g, i, dir, sizeof(dir)) == 0);
			CU_ASSERT(dev_fs_is_dir(&fs, dir) && !strcmp(strrchr(dir, '/') + 1, d.bdf));
			seen++;
		}
	}
	CU_ASSERT(seen >= 4);
	CU_ASSERT(dev_map_dir(u, 0, 99, dir, sizeof(dir)) == -1);
	uncore_close(u);
}

/* A port's window: the group's devices' bytes and the port's */
static struct dev_cmp port(int socket, int stack, int p, double iio_in, double iio_out, double dev_in, double dev_out)
{
	return (struct dev_cmp){ .socket = socket, .stack = stack, .port = p, .group = 0, .devices = 1, .has_iio = 1, .iio_in = iio_in,
				 .iio_out = iio_out, .counters = 1, .usable = 1, .dev_in = dev_in, .dev_out = dev_out,
				 .ns = 20000000000ull };
}

static int verdict(struct dev_cmp c)
{
	dev_compare(&c, 1);
	return c.verdict;
}

static void test_compare(void)
{
	/* a NIC receiving 10 GB over 20 s, its port counting it and its descriptors */
	CU_ASSERT_EQUAL(verdict(port(0, 1, 0, 10.4e9, 0.3e9, 10e9, 0.1e9)), DEV_CMP_OK);
	/* PCM #923: 44 GB/s of RDMA writes counted as under 1 GB/s */
	CU_ASSERT_EQUAL(verdict(port(0, 1, 0, 0.9e9 * 20, 0, 44e9 * 20, 0)), DEV_CMP_UNCOUNTED);
	/* the same, in the other direction only */
	CU_ASSERT_EQUAL(verdict(port(0, 1, 0, 5e9, 1e9, 5e9, 30e9)), DEV_CMP_UNCOUNTED);
	/* a direction the port's counters leave out (ICX counts two ports' outbound at once) is not judged */
	CU_ASSERT_EQUAL(verdict(port(0, 1, 0, 5e9, NAN, 5e9, 30e9)), DEV_CMP_OK);
	CU_ASSERT_EQUAL(verdict(port(0, 1, 0, NAN, 1e9, 0, 0)), DEV_CMP_STOPPED);
	/* the bound's edge: payload twice the port's passes, a MB more does not */
	CU_ASSERT_EQUAL(verdict(port(0, 1, 0, 5e9, 0, 10e9, 0)), DEV_CMP_OK);
	CU_ASSERT_EQUAL(verdict(port(0, 1, 0, 5e9, 0, 10.001e9, 0)), DEV_CMP_UNCOUNTED);
	/* small packets: 10 GB on the wire in 1e8 packets of 100 bytes is headers as much as payload */
	struct dev_cmp c = port(0, 1, 0, 0.2e9, 0, 10e9, 0);
	c.pkts_in = 1e8;
	CU_ASSERT_EQUAL(verdict(c), DEV_CMP_IDLE);
	/* too short a window, too few bytes: nothing judged, however far apart */
	c = port(0, 1, 0, 0, 0, 50e9, 0);
	c.ns = 9000000000ull;
	CU_ASSERT_EQUAL(verdict(c), DEV_CMP_IDLE);
	CU_ASSERT_EQUAL(verdict(port(0, 1, 0, 0, 0, 0.9e9, 0.9e9)), DEV_CMP_IDLE);
	CU_ASSERT_EQUAL(verdict(port(0, 1, 0, 0, 0, 0, 0)), DEV_CMP_IDLE); /* an idle node */
	/* counters that stopped while the port moved 5 GB; 0.5 GB is too little to say */
	CU_ASSERT_EQUAL(verdict(port(0, 1, 0, 4e9, 1e9, 0, 0)), DEV_CMP_STOPPED);
	CU_ASSERT_EQUAL(verdict(port(0, 1, 0, 0.4e9, 0.1e9, 0, 0)), DEV_CMP_IDLE);
	/* a GPU: no counters, not compared; the port not counted; a counter reset */
	c = port(0, 1, 0, 0, 0, 50e9, 0), c.counters = 0;
	CU_ASSERT_EQUAL(verdict(c), DEV_CMP_NO_COUNTERS);
	c = port(0, 1, 0, 0, 0, 50e9, 0), c.has_iio = 0;
	CU_ASSERT_EQUAL(verdict(c), DEV_CMP_NO_PORT);
	c = port(0, 1, 0, 0, 0, 50e9, 0), c.usable = 0;
	CU_ASSERT_EQUAL(verdict(c), DEV_CMP_UNUSABLE);
	/* a wrong stack map: the NIC's 20 GB counted on a port the map gives no device (and the same bytes on
	 * the other socket explain nothing) */
	struct dev_cmp v[4] = { port(0, 1, 0, 0.1e9, 0, 20e9, 1e9), port(0, 2, 0, 20.5e9, 1.2e9, 0, 0),
				port(1, 1, 0, 20.5e9, 1.2e9, 0, 0), port(0, 2, 1, 0.1e9, 0, 0, 0) };
	v[1].group = v[2].group = v[3].group = -1;
	dev_compare(v, 4);
	CU_ASSERT(v[0].verdict == DEV_CMP_ELSEWHERE && v[0].other == 1);
	CU_ASSERT(v[1].verdict == DEV_CMP_IDLE && v[2].verdict == DEV_CMP_IDLE);
	dev_compare(v, 1); /* without the port that holds them: the port missed them */
	CU_ASSERT(v[0].verdict == DEV_CMP_UNCOUNTED && v[0].other == -1);
	/* two groups swapped: each one's bytes on the other's port; the other's own devices idle */
	struct dev_cmp w[2] = { port(0, 1, 0, 0, 0, 20e9, 2e9), port(0, 2, 0, 20.3e9, 2.1e9, 0, 0) };
	dev_compare(w, 2);
	CU_ASSERT(w[0].verdict == DEV_CMP_ELSEWHERE && w[0].other == 1 && w[1].verdict == DEV_CMP_ELSEWHERE && w[1].other == 0);
	/* a GPU's port (no counters) may move anything: it explains no other group's missing bytes; an empty
	 * port's bytes are all unexplained */
	struct dev_cmp y[2] = { port(0, 1, 0, 0, 0, 20e9, 0), port(0, 2, 0, 120e9, 180e9, 0, 0) };
	y[1].counters = 0;
	dev_compare(y, 2);
	CU_ASSERT(y[0].verdict == DEV_CMP_UNCOUNTED && y[1].verdict == DEV_CMP_NO_COUNTERS);
	y[1].devices = 0;
	dev_compare(y, 2);
	CU_ASSERT(y[0].verdict == DEV_CMP_ELSEWHERE && y[0].other == 1);
	/* two like drives of a swapped stack: each is found on the port of its own number */
	struct dev_cmp z[4] = { port(0, 2, 1, 0.5e9, 0.3e9, 24e9, 12e9), port(0, 2, 2, 0.4e9, 0.2e9, 24e9, 12e9),
				port(0, 1, 1, 24.4e9, 12.2e9, 0, 0), port(0, 1, 2, 24.5e9, 12.3e9, 0, 0) };
	z[2].group = z[3].group = -1;
	dev_compare(z, 4);
	CU_ASSERT(z[0].verdict == DEV_CMP_ELSEWHERE && z[0].other == 2 && z[1].verdict == DEV_CMP_ELSEWHERE && z[1].other == 3);
	/* a port whose own devices explain its bytes holds nobody else's */
	struct dev_cmp x[2] = { port(0, 1, 0, 0, 0, 20e9, 0), port(0, 2, 0, 20.3e9, 0, 20e9, 0) };
	dev_compare(x, 2);
	CU_ASSERT(x[0].verdict == DEV_CMP_UNCOUNTED && x[1].verdict == DEV_CMP_OK);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "counters of a fake sysroot", test_sysroot },
		{ "the same tree in memory", test_memory },
		{ "a counter going backward, a saturated one", test_backward },
		{ "each mapped device's directory", test_map_dirs },
		{ "a tree in memory: its index", test_memfs_index },
		{ "a tree in memory: a directory's names", test_memfs_list },
		{ "a handle's simulated sysfs made once", test_tree_once },
		{ "devices against their ports: vectors", test_compare },
		{ NULL, NULL },
	};
	return run_in_fake_tree("dev_bytes", tests);
}
