/*
 * The device map (issue 66 point 1): on the simulator it equals the simulator's own device set (sim_pcitree.c,
 * its truth, not the library's walk), on a fake sysroot the tree the test built, and a hostile tree gives a
 * partial map with warnings, never a crash or a hang.
 */
#include <stdio.h>
#include <string.h>
#include "fake_tree.h"
#include "uncore.h"
#include "handle/handle.h"
#include "sim/sim.h"
#include "sim/sim_pcitree.h"

/* The group and place of a BDF in the map: 0, or -1 when it is not there */
static int find(uncore_t *u, const char *bdf, struct uncore_device_group *g, struct uncore_device *d)
{
	int n = uncore_num_device_groups(u);
	for (int k = 0; k < n; k++) {
		uncore_device_group_info(u, k, g);
		for (int i = 0; i < g->ndevices; i++)
			if (!uncore_device_info(u, k, i, d) && !strcmp(d->bdf, bdf))
				return 0;
	}
	return -1;
}

static int total_devices(uncore_t *u)
{
	int n = uncore_num_device_groups(u), t = 0;
	struct uncore_device_group g;
	for (int k = 0; k < n; k++)
		if (!uncore_device_group_info(u, k, &g))
			t += g.ndevices;
	return t;
}

static void check_sim(const char *spec, int want_empty)
{
	uncore_t *u;
	struct sim_pcidev truth[32];
	if (uncore_open_topology(spec, &u)) {
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
		CU_FAIL_FATAL("open");
	}
	struct sim *s = sim_of(u->acc);
	CU_ASSERT_FATAL(s != NULL);
	int nt = sim_pci_devices(s, truth, 32);
	CU_ASSERT_FATAL(nt > 0);
	CU_ASSERT(uncore_num_device_groups(u) > 0);
	if (total_devices(u) != nt)
		fprintf(stderr, "%s: %d devices in the map, the simulator has %d\n", spec, total_devices(u), nt);
	CU_ASSERT_EQUAL(total_devices(u), nt);
	for (int i = 0; i < nt; i++) {
		struct uncore_device_group g;
		struct uncore_device d;
		int ok = !find(u, truth[i].bdf, &g, &d) && g.socket == truth[i].socket && g.die == truth[i].die &&
			 g.stack == truth[i].stack && g.port == truth[i].port && g.behind_switch == truth[i].behind_switch &&
			 d.vendor == truth[i].vendor && d.device == truth[i].device && d.class_code == (long)truth[i].class_code &&
			 !strcmp(d.driver, truth[i].driver) && !strcmp(d.name, truth[i].name) && d.numa_node == truth[i].node;
		if (!ok)
			fprintf(stderr, "%s: %s (%s) not at socket %d stack %d port %d as the simulator has it\n", spec,
				truth[i].bdf, truth[i].name, truth[i].socket, truth[i].stack, truth[i].port);
		CU_ASSERT(ok);
	}
	int empty = 0, n = uncore_num_device_groups(u);
	for (int k = 0; k < n; k++) {
		struct uncore_device_group g;
		uncore_device_group_info(u, k, &g);
		empty += !g.ndevices && g.port >= 0;
		CU_ASSERT(g.stack >= 0); /* every simulated device is below a stack */
	}
	CU_ASSERT_EQUAL(empty, want_empty);
	uncore_close(u);
}

static void test_sim_default(void)
{
	/* the default set: a NIC, an NVMe drive, a switch with two GPUs, an empty port */
	static const char *const p[] = { "sim:skx", "sim:icx", "sim:spr", "sim:emr", "sim:gnr", "perf+sim:icx",
					  "perf+sim:spr" };
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		check_sim(p[i], 1);
}

static void test_sim_varied(void)
{
	check_sim("sim:spr,sockets=2,devices=gpu@0.3.2+ib@1.0.0+gpusw@1.4.1+nvme@1.4.0", 2); /* ports 0-1 of 0.3 */
	check_sim("sim:skx,sockets=2,devices=nic@1.2.0+empty@0.1.0+empty@1.3.2", 4);
	uncore_t *u;
	/* a machine without IIO stacks: no device by default, and no error */
	CU_ASSERT_FATAL(uncore_open_topology("sim:snbep", &u) == 0);
	CU_ASSERT(uncore_num_device_groups(u) == 0);
	uncore_close(u);
	/* a replayed snapshot keeps no PCI tree yet: said, not the replaying host's devices */
	char tar[300], cmd[700];
	snprintf(tar, sizeof(tar), "%s/devices-spr-%d.tar", test_tmpdir(), (int)getpid());
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s/tests/snapshots/spr.tar.gz' > '%s'", SRCDIR, tar);
	CU_ASSERT_FATAL(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "replay:%s", tar);
	CU_ASSERT_FATAL(uncore_open_topology(cmd, &u) == 0);
	CU_ASSERT(uncore_num_device_groups(u) < 0 && strstr(uncore_error(), "snapshots do not keep the PCI device tree"));
	uncore_close(u);
	unlink(tar);
	CU_ASSERT(uncore_open_topology("sim:spr,devices=nic@0.1", &u) < 0 && strstr(uncore_error(), "KIND@SOCKET.STACK.PORT"));
	CU_ASSERT_FATAL(uncore_open_topology("sim:spr,devices=nic@0.15.0", &u) == 0); /* stack 15: checked at use */
	CU_ASSERT(uncore_num_device_groups(u) < 0 && strstr(uncore_error(), "names a stack the machine has not"));
	uncore_close(u);
}

static void host_tree(void)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", root, root);
	CU_ASSERT_FATAL(system(cmd) == 0);
	put_str("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n\n", "/proc/cpuinfo");
	for (int cpu = 0; cpu < 4; cpu++)
		put_str(cpu < 2 ? "0\n" : "1\n", cpu == 0 ? "/sys/devices/system/cpu/cpu0/topology/physical_package_id" :
						 cpu == 1 ? "/sys/devices/system/cpu/cpu1/topology/physical_package_id" :
						 cpu == 2 ? "/sys/devices/system/cpu/cpu2/topology/physical_package_id" :
							    "/sys/devices/system/cpu/cpu3/topology/physical_package_id");
}

static void function(const char *dir, unsigned ven, unsigned dev, unsigned cls, const char *node)
{
	char p[512], t[32];
	snprintf(p, sizeof(p), "%s/vendor", dir), snprintf(t, sizeof(t), "0x%04x\n", ven), put_str(t, p);
	snprintf(p, sizeof(p), "%s/device", dir), snprintf(t, sizeof(t), "0x%04x\n", dev), put_str(t, p);
	snprintf(p, sizeof(p), "%s/class", dir), snprintf(t, sizeof(t), "0x%06x\n", cls), put_str(t, p);
	snprintf(p, sizeof(p), "%s/numa_node", dir), put_str(node, p);
}

static void lnk(const char *target, const char *rel)
{
	char p[512];
	snprintf(p, sizeof(p), "%s%s", root, rel);
	CU_ASSERT(symlink(target, p) == 0);
}

#define RP "/sys/devices/pci0000:16/0000:16:02.0"
#define NV RP "/0000:17:00.0"
static void good_tree(void)
{
	host_tree();
	/* the kernel's mapping attributes: stack 1 of socket 1 on bus 0x16 (skx_iio_mapping_show's "%04x:%02x") */
	put_str("0000:16\n", "/sys/devices/uncore_iio_1/die1");
	put_str("0000:00\n", "/sys/devices/uncore_iio_0/die0");
	function(RP, 0x8086, 0x2030, 0x060400, "1\n");
	function(NV, 0x144d, 0xa80a, 0x010802, "1\n");
	put_str("259:0\n", NV "/nvme/nvme3/dev");
	lnk("../../../../bus/pci/drivers/nvme", NV "/driver");
	function("/sys/devices/pci0000:00/0000:00:1f.2", 0x8086, 0xa182, 0x010601, "0\n"); /* the stack's own */
	function("/sys/devices/pci0000:80/0000:80:00.0", 0x8086, 0x09a2, 0x088000, "-1\n"); /* below no stack */
}

static void test_fake_sysroot(void)
{
	uncore_t *u;
	struct uncore_device_group g;
	struct uncore_device d;
	good_tree();
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT(total_devices(u) == 3);
	CU_ASSERT_FATAL(find(u, "0000:17:00.0", &g, &d) == 0);
	CU_ASSERT(g.socket == 1 && g.die == 0 && g.stack == 1 && g.port == 0 && !strcmp(g.root_bus, "0000:16") &&
		  !strcmp(g.root_port, "0000:16:02.0") && !strcmp(g.source, "kernel") && !g.behind_switch);
	CU_ASSERT(d.vendor == 0x144d && d.device == 0xa80a && d.class_code == 0x010802 && !strcmp(d.driver, "nvme") &&
		  !strcmp(d.name, "nvme3") && d.numa_node == 1);
	CU_ASSERT(find(u, "0000:00:1f.2", &g, &d) == 0 && g.stack == 0 && g.socket == 0 && g.port == -1);
	CU_ASSERT(find(u, "0000:80:00.0", &g, &d) == 0 && g.stack == -1 && g.socket == -1 && d.numa_node == -1);
	uncore_close(u);
}

/* No kernel attribute: Skylake-SP's CPU_BUS_NUMBER MSR 0x300 read as Linux reads it (valid bit 63, stack n's
 * bus in bits 8n..8n+7: uncore_snbep.c skx_iio_topology_cb) */
static void test_skx_bus_msr(void)
{
	uncore_t *u;
	struct uncore_device_group g;
	struct uncore_device d;
	good_tree();
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/devices/uncore_iio_0' '%s/sys/devices/uncore_iio_1'", root, root);
	CU_ASSERT_FATAL(system(cmd) == 0);
	function("/sys/devices/pci0000:85/0000:85:03.0", 0x8086, 0x2032, 0x060400, "1\n");
	function("/sys/devices/pci0000:85/0000:85:03.0/0000:86:00.0", 0x8086, 0x1592, 0x020000, "1\n");
	put_str("0:0\n", "/sys/devices/pci0000:85/0000:85:03.0/0000:86:00.0/net/ens5f0/dev");
	sparse("/dev/cpu/0/msr", 0x10000);
	sparse("/dev/cpu/2/msr", 0x10000);
	put_at64("/dev/cpu/0/msr", 0x300, 1ull << 63 | 0x30ull << 16 | 0x16ull << 8);
	put_at64("/dev/cpu/2/msr", 0x300, 1ull << 63 | 0x85ull << 8 | 0x80);
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT(find(u, "0000:17:00.0", &g, &d) == 0 && g.socket == 0 && g.stack == 1 && g.port == 0 &&
		  !strcmp(g.source, "registers") && !strcmp(d.name, "nvme3"));
	CU_ASSERT(find(u, "0000:86:00.0", &g, &d) == 0 && g.socket == 1 && g.stack == 1 && g.port == 0 &&
		  !strcmp(g.root_bus, "0000:85") && !strcmp(d.name, "ens5f0") && d.numa_node == 1);
	CU_ASSERT(find(u, "0000:00:1f.2", &g, &d) == 0 && g.socket == 0 && g.stack == 0 && g.port == -1);
	CU_ASSERT(find(u, "0000:80:00.0", &g, &d) == 0 && g.socket == 1 && g.stack == 0 && g.port == -1);
	uncore_close(u);
	/* the valid bit clear: no bus is taken from it, the devices are below no counted stack */
	put_at64("/dev/cpu/0/msr", 0x300, 0x30ull << 16 | 0x16ull << 8);
	put_at64("/dev/cpu/2/msr", 0x300, 0x85ull << 8 | 0x80);
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT(find(u, "0000:17:00.0", &g, &d) == 0 && g.stack == -1);
	uncore_close(u);
}

static void test_hostile_tree(void)
{
	uncore_t *u;
	struct uncore_device_group g;
	struct uncore_device d;
	char cmd[1024];
	good_tree();
	/* a loop: a function's child a link back to its root port */
	lnk("..", NV "/0000:18:00.0");
	/* a device whose parent is missing: the kernel's list names it, no root bus holds it */
	CU_ASSERT(system("true") == 0);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/sys/bus/pci/devices'", root);
	CU_ASSERT(system(cmd) == 0);
	lnk("../../../devices/pci0000:98/0000:98:01.0/0000:99:00.0", "/sys/bus/pci/devices/0000:99:00.0");
	/* a chain of 300 bridges (made a directory at a time: the path is longer than PATH_MAX) */
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/sys/devices/pci0000:40' && cd '%s/sys/devices/pci0000:40' && "
		 "for i in $(seq 300); do mkdir 0000:41:00.0 && cd 0000:41:00.0 && echo 0x060400 > class || exit 1; done",
		 root, root);
	CU_ASSERT_FATAL(system(cmd) == 0);
	/* garbage in class and numa_node */
	function("/sys/devices/pci0000:16/0000:16:03.0", 0x8086, 0x2030, 0x060400, "banana\n");
	put_str("zzz-not-a-class\n", "/sys/devices/pci0000:16/0000:16:03.0/0000:19:00.0/class");
	put_str("0x10de\n", "/sys/devices/pci0000:16/0000:16:03.0/0000:19:00.0/vendor");
	put_str("99999\n", "/sys/devices/pci0000:16/0000:16:03.0/0000:19:00.0/numa_node");
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT(uncore_num_device_groups(u) > 0);
	const char *w = uncore_warnings();
	CU_ASSERT(strstr(w, "0000:18:00.0: not a directory (a link?): not followed") != NULL);
	CU_ASSERT(strstr(w, "0000:99:00.0 is listed in /sys/bus/pci/devices but is below no root bus") != NULL);
	CU_ASSERT(strstr(w, "more than 32 bridges deep") != NULL);
	CU_ASSERT(strstr(w, "'zzz-not-a-class' is not a hexadecimal id") != NULL);
	CU_ASSERT(strstr(w, "'banana' is not a NUMA node") != NULL && strstr(w, "'99999' is not a NUMA node") != NULL);
	/* what could be read is still there */
	CU_ASSERT(find(u, "0000:17:00.0", &g, &d) == 0 && g.stack == 1 && !strcmp(d.name, "nvme3"));
	CU_ASSERT(find(u, "0000:19:00.0", &g, &d) == 0 && g.stack == 1 && g.port == 1 && d.class_code == -1 &&
		  d.numa_node == -1 && d.vendor == 0x10de);
	uncore_close(u);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys/devices/pci0000:40'", root);
	CU_ASSERT(system(cmd) == 0);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "map on the simulator equals its device set", test_sim_default },
		{ "devices= varies the set", test_sim_varied },
		{ "map of a fake sysroot", test_fake_sysroot },
		{ "SKX root buses from CPU_BUS_NUMBER", test_skx_bus_msr },
		{ "hostile tree: partial map, warnings", test_hostile_tree },
		{ NULL, NULL },
	};
	return run_in_fake_tree("devices", tests);
}
