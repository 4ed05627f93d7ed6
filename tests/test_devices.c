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
#include "sim/sim_pcicfg.h"

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

/* The uncore's register functions in the map's groups (sim_pcicfg.c: 8086:09a2 on each stack's root bus, the
 * MSM 09a6 and PCU CR3 325b; dev_map.c: they move no data, so no group holds them), and the groups of no root
 * port (*own: a stack's own, or below no stack) */
static int uncore_functions(uncore_t *u, int *own)
{
	int n = uncore_num_device_groups(u), t = 0;
	struct uncore_device_group g;
	struct uncore_device d;
	*own = 0;
	for (int k = 0; k < n; k++)
		if (!uncore_device_group_info(u, k, &g) && g.port == -1) {
			(*own)++;
			for (int i = 0; i < g.ndevices; i++)
				t += !uncore_device_info(u, k, i, &d) && d.vendor == 0x8086 &&
				     ((d.class_code == 0x088000 && (d.device == 0x09a2 || d.device == 0x09a6 || d.device == 0x325b)) ||
				      (d.device >= 0x2014 && d.device <= 0x208e && d.device != 0x2021)); /* SKX's, board.c */
		}
	return t;
}

/* The map of the handle opened on map_spec (NULL: spec) against the simulator's device set of spec, each
 * stack's bus from source (NULL: any) */
static void check_map(const char *spec, const char *map_spec, int want_empty, const char *source)
{
	uncore_t *u, *t = NULL;
	struct sim_pcidev truth[32];
	if (uncore_open_topology(map_spec ? map_spec : spec, &u) || (map_spec && uncore_open_topology(spec, &t))) {
		fprintf(stderr, "%s: %s\n", map_spec ? map_spec : spec, uncore_error());
		CU_FAIL_FATAL("open");
	}
	struct sim *s = sim_of((t ? t : u)->acc);
	CU_ASSERT_FATAL(s != NULL);
	int nt = sim_pci_devices(s, truth, 32);
	CU_ASSERT_FATAL(nt > 0);
	CU_ASSERT(uncore_num_device_groups(u) > 0);
	/* the simulator's devices, and none of its sim_pcicfg_functions(s) register functions a socket */
	int own, regs = uncore_functions(u, &own);
	if (total_devices(u) != nt || regs || own)
		fprintf(stderr, "%s: %d devices in the map (%d of the uncore's registers, %d groups on no root port), the "
			"simulator has %d (and %d register functions)\n", spec, total_devices(u), regs, own, nt,
			sim_pcicfg_functions(s) * s->nsockets);
	CU_ASSERT_EQUAL(total_devices(u), nt);
	CU_ASSERT_EQUAL(regs, 0);
	CU_ASSERT_EQUAL(own, 0);
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
		CU_ASSERT(g.stack >= 0); /* below no stack: the MSM's bus alone, and it is in no group */
		if (source && strcmp(g.source, source)) {
			fprintf(stderr, "%s: group %d's root bus from '%s', not %s\n", map_spec ? map_spec : spec, k,
				g.source, source);
			CU_FAIL("source");
		}
	}
	CU_ASSERT_EQUAL(empty, want_empty);
	uncore_close(u);
	if (t)
		uncore_close(t);
}

static void check_sim(const char *spec, int want_empty) { check_map(spec, NULL, want_empty, NULL); }

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
	/* a snapshot taken before snapshots kept the PCI tree: said, not the replaying host's devices */
	char tar[300], cmd[700];
	snprintf(tar, sizeof(tar), "%s/devices-spr-%d.tar", test_tmpdir(), (int)getpid());
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s/tests/snapshots/spr.tar.gz' > '%s'", SRCDIR, tar);
	CU_ASSERT_FATAL(system(cmd) == 0);
	snprintf(cmd, sizeof(cmd), "replay:%s", tar);
	CU_ASSERT_FATAL(uncore_open_topology(cmd, &u) == 0);
	CU_ASSERT(uncore_num_device_groups(u) < 0 && strstr(uncore_error(), "this snapshot keeps no PCI device tree"));
	uncore_close(u);
	unlink(tar);
	CU_ASSERT(uncore_open_topology("sim:spr,devices=nic@0.1", &u) < 0 && strstr(uncore_error(), "KIND@SOCKET.STACK.PORT"));
	CU_ASSERT_FATAL(uncore_open_topology("sim:spr,devices=nic@0.15.0", &u) == 0); /* stack 15: checked at use */
	CU_ASSERT(uncore_num_device_groups(u) < 0 && strstr(uncore_error(), "names a stack the machine has not"));
	uncore_close(u);
}

static void host_tree_model(int model)
{
	char cmd[600], info[200];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", root, root);
	CU_ASSERT_FATAL(system(cmd) == 0);
	snprintf(info, sizeof(info), "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: %d\n\n", model);
	put_str(info, "/proc/cpuinfo");
	for (int cpu = 0; cpu < 4; cpu++)
		put_str(cpu < 2 ? "0\n" : "1\n", cpu == 0 ? "/sys/devices/system/cpu/cpu0/topology/physical_package_id" :
						 cpu == 1 ? "/sys/devices/system/cpu/cpu1/topology/physical_package_id" :
						 cpu == 2 ? "/sys/devices/system/cpu/cpu2/topology/physical_package_id" :
							    "/sys/devices/system/cpu/cpu3/topology/physical_package_id");
}

static void host_tree(void) { host_tree_model(85); }

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
	/* a data streaming accelerator on the stack's root bus: class 0x0880 as the uncore's own, its DMA the stack's
	 * (pci_ids.h PCI_DEVICE_ID_INTEL_DSA_SPR0) */
	function("/sys/devices/pci0000:00/0000:00:01.0", 0x8086, 0x0b25, 0x088000, "0\n");
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
	/* Skylake-SP's root port at device 2 feeds counter port 2 (pcm-iio: part = device) */
	CU_ASSERT(g.socket == 1 && g.die == 0 && g.stack == 1 && g.port == 2 && !strcmp(g.root_bus, "0000:16") &&
		  !strcmp(g.root_port, "0000:16:02.0") && !strcmp(g.source, "kernel") && !g.behind_switch);
	CU_ASSERT(d.vendor == 0x144d && d.device == 0xa80a && d.class_code == 0x010802 && !strcmp(d.driver, "nvme") &&
		  !strcmp(d.name, "nvme3") && d.numa_node == 1);
	CU_ASSERT(find(u, "0000:00:1f.2", &g, &d) == 0 && g.stack == 0 && g.socket == 0 && g.port == -1);
	/* the DSA stays in its stack's own group; the uncore's 8086:09a2 (below no stack here) is in none */
	CU_ASSERT(find(u, "0000:00:01.0", &g, &d) == 0 && g.stack == 0 && g.port == -1 && d.device == 0x0b25);
	CU_ASSERT(find(u, "0000:80:00.0", &g, &d) == -1);
	uncore_close(u);
}

/* A Skylake-SP board as it is listed (Dell PowerEdge R440, linuxhw/LsPCI c0a4a3a6b6c16310c33dc428ada641fd8d369f6f
 * Server/Dell/PowerEdge/PowerEdge R440/4A122AB18262/FEDORA-41/6.12.7-200.FC41.X86_64/X86_64/069319FA9F): the
 * uncore's register functions are no devices, whatever their class; the PCH's functions and what is below its
 * root ports (00:1c.4: a PCIe-to-PCI bridge and the BMC's Matrox G200eW3; 00:1c.5: the BCM5720 LOM NIC) are
 * the DMI port's part 0, as pcm lists every function of bus 0 under part 0 at 00:00.0 (pcm-iio-topology.cpp
 * PurleyPlatformMapping::pciTreeDiscover: 00:00.0, the DMI3 registers 8086:2020, is no bridge) */
static void test_skx_real_board(void)
{
	uncore_t *u;
	struct uncore_device_group g;
	struct uncore_device d;
	good_tree();
	const char *P = "/sys/devices/pci0000:00/0000:00:";
	char p[200];
	static const struct { const char *at; unsigned ven, did, cls; } f[] = {
		{ "00.0", 0x8086, 0x2020, 0x060000 }, { "04.0", 0x8086, 0x2021, 0x088000 }, { "05.0", 0x8086, 0x2024, 0x088000 },
		{ "05.2", 0x8086, 0x2025, 0x088000 }, { "05.4", 0x8086, 0x2026, 0x080020 }, { "08.0", 0x8086, 0x2014, 0x088000 },
		{ "08.1", 0x8086, 0x2015, 0x110100 }, { "08.2", 0x8086, 0x2016, 0x088000 }, { "14.0", 0x8086, 0xa1af, 0x0c0330 },
		{ "17.0", 0x8086, 0xa182, 0x010601 }, { "1c.4", 0x8086, 0xa194, 0x060400 }, { "1c.5", 0x8086, 0xa195, 0x060400 },
	};
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		snprintf(p, sizeof(p), "%s%s", P, f[i].at);
		function(p, f[i].ven, f[i].did, f[i].cls, "0\n");
	}
	function("/sys/devices/pci0000:00/0000:00:1c.4/0000:02:00.0", 0x1556, 0xbe00, 0x060400, "0\n");
	function("/sys/devices/pci0000:00/0000:00:1c.4/0000:02:00.0/0000:03:00.0", 0x102b, 0x0536, 0x030000, "0\n");
	function("/sys/devices/pci0000:00/0000:00:1c.5/0000:04:00.0", 0x14e4, 0x165f, 0x020000, "0\n");
	/* socket 1's stack 1 (bus 0x16 here): a CHA function and the PCU's CAPID6 function, as on the R440's bus 17 */
	function("/sys/devices/pci0000:16/0000:16:08.0", 0x8086, 0x208d, 0x088000, "1\n");
	function("/sys/devices/pci0000:16/0000:16:1e.3", 0x8086, 0x2083, 0x088000, "1\n");
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT(total_devices(u) == 8);
	static const char *const none[] = { "0000:00:00.0", "0000:00:05.0", "0000:00:05.4", "0000:00:08.1",
					     "0000:16:08.0", "0000:16:1e.3" };
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		if (find(u, none[i], &g, &d) != -1) {
			fprintf(stderr, "%s: an uncore register function listed as a device\n", none[i]);
			CU_FAIL("register function");
		}
	CU_ASSERT(find(u, "0000:04:00.0", &g, &d) == 0 && g.socket == 0 && g.stack == 0 && g.port == 0 &&
		  !strcmp(g.root_port, "0000:00:1c.5"));
	CU_ASSERT(find(u, "0000:03:00.0", &g, &d) == 0 && g.stack == 0 && g.port == 0 && g.behind_switch &&
		  !strcmp(g.root_port, "0000:00:1c.4"));
	CU_ASSERT(find(u, "0000:00:17.0", &g, &d) == 0 && g.stack == 0 && g.port == 0 && !strcmp(g.root_port, "0000:00:00.0"));
	CU_ASSERT(find(u, "0000:00:14.0", &g, &d) == 0 && g.stack == 0 && g.port == 0);
	CU_ASSERT(find(u, "0000:00:04.0", &g, &d) == 0 && g.stack == 0 && g.port == 0 && d.device == 0x2021);
	/* socket 1's stack 1 keeps its CPU root port's numbering */
	CU_ASSERT(find(u, "0000:17:00.0", &g, &d) == 0 && g.socket == 1 && g.stack == 1 && g.port == 2);
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
	/* on socket 1's stack 0: a class 0x0880 function that is not one of the uncore's (a DSA's id): its own group */
	function("/sys/devices/pci0000:80/0000:80:01.0", 0x8086, 0x0b25, 0x088000, "1\n");
	function("/sys/devices/pci0000:85/0000:85:03.0", 0x8086, 0x2032, 0x060400, "1\n");
	function("/sys/devices/pci0000:85/0000:85:03.0/0000:86:00.0", 0x8086, 0x1592, 0x020000, "1\n");
	put_str("0:0\n", "/sys/devices/pci0000:85/0000:85:03.0/0000:86:00.0/net/ens5f0/dev");
	sparse("/dev/cpu/0/msr", 0x10000);
	sparse("/dev/cpu/2/msr", 0x10000);
	put_at64("/dev/cpu/0/msr", 0x300, 1ull << 63 | 0x30ull << 16 | 0x16ull << 8);
	put_at64("/dev/cpu/2/msr", 0x300, 1ull << 63 | 0x85ull << 8 | 0x80);
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT(find(u, "0000:17:00.0", &g, &d) == 0 && g.socket == 0 && g.stack == 1 && g.port == 2 &&
		  !strcmp(g.source, "registers") && !strcmp(d.name, "nvme3"));
	CU_ASSERT(find(u, "0000:86:00.0", &g, &d) == 0 && g.socket == 1 && g.stack == 1 && g.port == 3 &&
		  !strcmp(g.root_bus, "0000:85") && !strcmp(d.name, "ens5f0") && d.numa_node == 1);
	CU_ASSERT(find(u, "0000:00:1f.2", &g, &d) == 0 && g.socket == 0 && g.stack == 0 && g.port == -1);
	CU_ASSERT(find(u, "0000:80:01.0", &g, &d) == 0 && g.socket == 1 && g.stack == 0 && g.port == -1);
	CU_ASSERT(find(u, "0000:80:00.0", &g, &d) == -1); /* the uncore's 8086:09a2: in no group */
	uncore_close(u);
	/* a snapshot of the node keeps the MSR's value: its replay finds the same buses */
	char tar[300], spec[400], notes[2048];
	snprintf(tar, sizeof(tar), "%s/skx-msr-%d.tar", test_tmpdir(), (int)getpid());
	CU_ASSERT_FATAL(uncore_snapshot("direct", tar, notes, sizeof(notes)) == 0);
	snprintf(spec, sizeof(spec), "replay:%s", tar);
	if (uncore_open_topology(spec, &u)) {
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
		CU_FAIL_FATAL("replay");
	}
	CU_ASSERT(find(u, "0000:86:00.0", &g, &d) == 0 && g.socket == 1 && g.stack == 1 && g.port == 3 &&
		  !strcmp(g.source, "registers") && !strcmp(d.name, "ens5f0"));
	CU_ASSERT(find(u, "0000:17:00.0", &g, &d) == 0 && g.socket == 0 && g.stack == 1 && !strcmp(d.name, "nvme3"));
	uncore_close(u);
	unlink(tar);
	/* the valid bit clear: no bus is taken from it, the devices are below no counted stack */
	put_at64("/dev/cpu/0/msr", 0x300, 0x30ull << 16 | 0x16ull << 8);
	put_at64("/dev/cpu/2/msr", 0x300, 0x85ull << 8 | 0x80);
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT(find(u, "0000:17:00.0", &g, &d) == 0 && g.stack == -1);
	uncore_close(u);
}

/* No uncore_iio_<n>/die<d> (iio_mapping=off, a kernel without the mapping): Ice Lake-SP's root buses from the
 * SAD_CONTROL_CFG of its 0x09a2 functions, as Linux reads them; with them, the kernel's */
static void test_icx_registers(void)
{
	check_map("sim:icx", NULL, 1, "kernel");
	check_map("sim:icx,iio_mapping=off", NULL, 1, "registers");
	check_map("perf+sim:icx,iio_mapping=off", NULL, 1, "registers");
	check_map("sim:icx,sockets=2,iio_mapping=off,devices=nic@1.3.3+gpusw@0.5.0+empty@1.0.1", NULL, 5, "registers");
}

/* A snapshot keeps what the map reads: its replay (and the perf backend's) maps the node as it was */
static void roundtrip(const char *spec, int want_empty, const char *source)
{
	char tar[300], r[400], notes[2048];
	snprintf(tar, sizeof(tar), "%s/devmap-%d.tar", test_tmpdir(), (int)getpid());
	if (uncore_snapshot(spec, tar, notes, sizeof(notes))) {
		fprintf(stderr, "snapshot of %s: %s\n", spec, uncore_error());
		CU_FAIL_FATAL("snapshot");
	}
	for (int perf = 0; perf < 2; perf++) {
		snprintf(r, sizeof(r), "%sreplay:%s", perf ? "perf+" : "", tar);
		check_map(spec, r, want_empty, source);
	}
	unlink(tar);
}

static void test_snapshot_map(void)
{
	roundtrip("sim:icx,iio_mapping=off", 1, "registers");
	roundtrip("perf+sim:icx", 1, "kernel");
	roundtrip("sim:skx,sockets=2,devices=nic@1.2.0+empty@0.1.0+empty@1.3.2", 4, "kernel");
}

/* The counter port of root ports at the device numbers of each generation's servers (pcm-iio-topology.cpp's
 * tables): stack 1 of socket 0 on bus 0x16 (the kernel's attribute), a root port at each dev.fn, a NIC below */
struct rp_case {
	int model;
	int n, dev[9], fn[9], want[9]; /* want UNCORE_PORT_UNKNOWN: no counter port known */
};

static void check_ports(const struct rp_case *c)
{
	uncore_t *u;
	char dir[128], ep[160];
	host_tree_model(c->model);
	put_str("0000:16\n", "/sys/devices/uncore_iio_1/die0");
	for (int i = 0; i < c->n; i++) {
		snprintf(dir, sizeof(dir), "/sys/devices/pci0000:16/0000:16:%02x.%d", c->dev[i], c->fn[i]);
		snprintf(ep, sizeof(ep), "%s/0000:%02x:00.0", dir, 0x20 + i);
		function(dir, 0x8086, 0x352a, 0x060400, "0\n");
		function(ep, 0x8086, 0x1592, 0x020000, "0\n");
	}
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	for (int i = 0; i < c->n; i++) {
		struct uncore_device_group g;
		struct uncore_device d;
		char bdf[16];
		snprintf(bdf, sizeof(bdf), "0000:%02x:00.0", 0x20 + i);
		int ok = !find(u, bdf, &g, &d) && g.stack == 1 && g.port == c->want[i] &&
			 (g.port != UNCORE_PORT_UNKNOWN) == !*g.port_why;
		if (!ok)
			fprintf(stderr, "model 0x%x: the root port at %02x.%d is counter port %d ('%s'), not %d\n", c->model,
				c->dev[i], c->fn[i], g.port, g.port_why, c->want[i]);
		CU_ASSERT(ok);
	}
	uncore_close(u);
}

static void test_counter_ports(void)
{
	const int X = UNCORE_PORT_UNKNOWN;
	static const struct rp_case cases[] = {
		/* Skylake-SP: parts 0-3 at devices 0-3; a x16 port alone at device 1 is part 1, not the first */
		{ 0x55, 2, { 1, 4 }, { 0, 0 }, { 1, X } },
		{ 0x55, 4, { 0, 1, 2, 3 }, { 0 }, { 0, 1, 2, 3 } },
		/* Ice Lake-SP PCIe stacks: devices 2-5; a x16 port at device 2 is part 0; function 1: unknown */
		{ 0x6a, 3, { 2, 5, 4 }, { 0, 0, 1 }, { 0, 3, X } },
		/* Sapphire and Emerald Rapids: devices 1-8 parts 0-7, the DMI port at device 0 part 7 */
		{ 0x8f, 4, { 0, 1, 5, 8 }, { 0 }, { 7, 0, 4, 7 } },
		{ 0xcf, 2, { 3, 9 }, { 0 }, { 2, X } },
		/* Granite Rapids, Sierra Forest: root ports A-H at devices 2-9 */
		{ 0xad, 3, { 2, 9, 1 }, { 0 }, { 0, 7, X } },
		{ 0xaf, 1, { 6 }, { 0 }, { 4 } },
		/* a CPU without a table (Sandy Bridge-EP): unknown, never the n-th */
		{ 0x2d, 1, { 2 }, { 0 }, { X } },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_ports(&cases[i]);
}

/* Ice Lake-SP on a node whose kernel has no mapping attribute: the 0x09a2 functions' SAD_CONTROL_CFG (config
 * 0x3f4: node id bits 3:0, SAD stack id bits 6:4; icx_sad_pmon_mapping turns SAD 2 into PMU 1, SAD 0 into PMU
 * 5), as root reads it; a user's 64 bytes of config space say why no bus is known */
static void sad_function(int bus, int sock, int sad, size_t cfgsize)
{
	char dir[128], link[96], cfg[160];
	snprintf(dir, sizeof(dir), "/sys/devices/pci0000:%02x/0000:%02x:00.0", bus, bus);
	function(dir, 0x8086, 0x09a2, 0x088000, sock ? "1\n" : "0\n");
	snprintf(cfg, sizeof(cfg), "%s/config", dir);
	sparse(cfg, (off_t)cfgsize);
	if (cfgsize > 0x3f8)
		put_at(cfg, 0x3f4, (uint32_t)(sock | sad << 4));
	snprintf(cfg, sizeof(cfg), "../../../devices/pci0000:%02x/0000:%02x:00.0", bus, bus);
	snprintf(link, sizeof(link), "/sys/bus/pci/devices/0000:%02x:00.0", bus);
	char devs[400];
	snprintf(devs, sizeof(devs), "%s/sys/bus/pci/devices", root);
	mkdirs(devs);
	lnk(cfg, link);
}

static void test_icx_sad_fake(void)
{
	uncore_t *u;
	struct uncore_device_group g;
	struct uncore_device d;
	for (int root_reads = 1; root_reads >= 0; root_reads--) {
		host_tree_model(0x6a);
		sad_function(0x16, 0, 2, root_reads ? 4096 : 64);
		sad_function(0x80, 1, 0, root_reads ? 4096 : 64);
		function("/sys/devices/pci0000:16/0000:16:02.0", 0x8086, 0x347a, 0x060400, "0\n");
		function("/sys/devices/pci0000:16/0000:16:02.0/0000:17:00.0", 0x15b3, 0x101b, 0x020700, "0\n");
		function("/sys/devices/pci0000:80/0000:80:01.0", 0x8086, 0x347a, 0x060400, "1\n");
		function("/sys/devices/pci0000:80/0000:80:01.0/0000:81:00.0", 0x8086, 0x0b00, 0x088000, "1\n");
		CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
		if (root_reads) {
			CU_ASSERT(find(u, "0000:17:00.0", &g, &d) == 0 && g.socket == 0 && g.stack == 1 && g.port == 0 &&
				  !strcmp(g.source, "registers") && !strcmp(g.root_bus, "0000:16"));
			/* the CBDMA/DMI stack (PMU 5): its port at device 1 is part 3 (pcm ICX_CBDMA_PART_ID) */
			CU_ASSERT(find(u, "0000:81:00.0", &g, &d) == 0 && g.socket == 1 && g.stack == 5 && g.port == 3);
		} else {
			CU_ASSERT(find(u, "0000:17:00.0", &g, &d) == 0 && g.stack == -1);
			CU_ASSERT(strstr(uncore_warnings(), "SAD_CONTROL_CFG (offset 0x3f4) cannot be read") != NULL);
		}
		uncore_close(u);
	}
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
	CU_ASSERT(find(u, "0000:19:00.0", &g, &d) == 0 && g.stack == 1 && g.port == 3 && d.class_code == -1 &&
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
		{ "SKX as the Dell R440 lists it: register functions, PCH on DMI", test_skx_real_board },
		{ "ICX root buses from SAD_CONTROL_CFG (simulator)", test_icx_registers },
		{ "ICX root buses from SAD_CONTROL_CFG (sysroot)", test_icx_sad_fake },
		{ "counter ports at each generation's devices", test_counter_ports },
		{ "snapshot keeps the device map", test_snapshot_map },
		{ "hostile tree: partial map, warnings", test_hostile_tree },
		{ NULL, NULL },
	};
	return run_in_fake_tree("devices", tests);
}
