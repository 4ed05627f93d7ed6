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
 * MSM 09a6 and PCU CR3 325b; a Birch Stream or Eagle Stream stack's Mesh 2 PCIe 09a4, RAS 09a3 and root complex
 * event collector 0b23 at 00.1-00.4, the PMON MSM 09a7: platforms/gnr/platform.c gnr_own_fns, as Intel's Birch
 * Stream board lists them; dev_map.c: they move no data, so no group holds them), and the groups of no root
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
				      (d.device >= 0x09a3 && d.device <= 0x09a7) || d.device == 0x0b23 ||
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
			 !strcmp(g.behind, truth[i].behind) &&
			 d.vendor == truth[i].vendor && d.device == truth[i].device && d.class_code == (long)truth[i].class_code &&
			 !strcmp(d.driver, truth[i].driver) && !strcmp(d.name, truth[i].name) && d.numa_node == truth[i].node;
		if (!ok)
			fprintf(stderr, "%s: %s (%s) not at socket %d stack %d port %d ('%s' above it) as the simulator has it\n",
				spec, truth[i].bdf, truth[i].name, truth[i].socket, truth[i].stack, truth[i].port, truth[i].behind);
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
	/* the default set: a NIC, an NVMe drive, a switch with two GPUs, an empty port; on the boards SPR and EMR
	 * are laid out as (platforms/spr/board.c) the listing's six empty ports, 11:01.0, 4d:03.0, c8:05.0, c8:07.0,
	 * dd:05.0 and dd:07.0; on Birch
	 * Stream's (platforms/gnr/board.c) none: every root port it lists has a device below it */
	static const struct { const char *spec; int empty; } p[] = { { "sim:skx", 1 }, { "sim:icx", 1 }, { "sim:spr", 6 },
		{ "sim:emr", 6 }, { "sim:gnr", 0 }, { "sim:srf", 0 }, { "perf+sim:icx", 1 }, { "perf+sim:spr", 6 } };
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		check_sim(p[i].spec, p[i].empty);
}

static void test_sim_varied(void)
{
	/* a board has the root ports its items name and the PCH's (00:0d.0), empty here */
	check_sim("sim:spr,sockets=2,devices=gpu@0.7.2+ib@1.0.0+gpusw@1.4.1+nvme@1.4.0", 1);
	/* without its board (four sockets) every port up to the highest named: ports 0-1 of 0.3 and 0 of 1.4 empty */
	check_sim("sim:spr,sockets=4,devices=gpu@0.3.2+ib@1.0.0+gpusw@1.4.1+nvme@3.4.0", 3);
	check_sim("sim:skx,sockets=2,devices=nic@1.2.0+empty@0.1.0+empty@1.3.2", 4);
	uncore_t *u;
	/* a machine without IIO stacks: no device by default, and no error */
	CU_ASSERT_FATAL(uncore_open_topology("sim:snbep", &u) == 0);
	CU_ASSERT(uncore_num_device_groups(u) == 0);
	uncore_close(u);
	/* a snapshot taken before snapshots kept the PCI tree: said, not the replaying host's devices */
	char tar[300], cmd[700];
	snprintf(tar, sizeof(tar), "%s/devices-skx-%d.tar", test_tmpdir(), (int)getpid());
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s/tests/snapshots/skx.tar.gz' > '%s'", SRCDIR, tar);
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
	/* Skylake-SP's stack 0 on bus 00 is the CBDMA/DMI stack: all of its bus is the DMI link's part 0 (pcm
	 * PurleyPlatformMapping lists every function of bus 0 under part 0) */
	CU_ASSERT(find(u, "0000:00:1f.2", &g, &d) == 0 && g.stack == 0 && g.socket == 0 && g.port == 0);
	/* the DSA stays in its stack's own group; the uncore's 8086:09a2 (below no stack here) is in none */
	CU_ASSERT(find(u, "0000:00:01.0", &g, &d) == 0 && g.stack == 0 && g.port == 0 && d.device == 0x0b25);
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
	/* the BMC's bridge 02:00.0 has the video right below it, which a switch's internal bus never holds: a
	 * PCIe-to-PCI bridge (its config space, unread here, would say so: dev_bridge.c), not a switch */
	CU_ASSERT(find(u, "0000:03:00.0", &g, &d) == 0 && g.stack == 0 && g.port == 0 && !g.behind_switch &&
		  !strcmp(g.behind, "a PCIe-to-PCI bridge") && !strcmp(g.root_port, "0000:00:1c.4"));
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
	CU_ASSERT(find(u, "0000:00:1f.2", &g, &d) == 0 && g.socket == 0 && g.stack == 0 && g.port == 0); /* DMI */
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
	/* laid out as the SR650 V2 (platforms/icx/board.c), a board has the root ports its items name: 1.0.1 alone empty */
	check_map("sim:icx,sockets=2,iio_mapping=off,devices=nic@1.3.3+gpusw@0.5.0+empty@1.0.1", NULL, 1, "registers");
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
		char bdf[32];
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
		/* Sapphire and Emerald Rapids: devices 1-8 parts 0-7; device 0 is no port (the DMI stack's part 7 goes
		 * by its bus, test_spr_real_board) */
		{ 0x8f, 4, { 0, 1, 5, 8 }, { 0 }, { X, 0, 4, 7 } },
		{ 0xcf, 2, { 3, 9 }, { 0 }, { 2, X } },
		/* Granite Rapids, Sierra Forest: root ports A-H at devices 2-9, parts 0-7 (pcm's comment; perfmon's
		 * UNC_IIO_*.PART0-7); pcm's probe (birchStreamPciStackProbe, slot < 9) never reads device 9, where
		 * Intel's Birch Stream board has a root port (14:09.0): part 7 by the stated rule */
		{ 0xad, 4, { 2, 9, 1, 10 }, { 0 }, { 0, 7, X, X } },
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
			/* socket 1's CBDMA/DMI stack (PMU 5) off bus 0: a bridge at device 1 is no part pcm probes (its
			 * ICX_CBDMA_PART_ID is the CBDMA endpoint's, which a real board lists at 01.0, no bridge) */
			CU_ASSERT(find(u, "0000:81:00.0", &g, &d) == 0 && g.socket == 1 && g.stack == 5 &&
				  g.port == UNCORE_PORT_UNKNOWN);
		} else {
			CU_ASSERT(find(u, "0000:17:00.0", &g, &d) == 0 && g.stack == -1);
			CU_ASSERT(strstr(uncore_warnings(), "SAD_CONTROL_CFG (offset 0x3f4) cannot be read") != NULL);
		}
		uncore_close(u);
	}
}

/* An Ice Lake-SP board as it is listed (Lenovo ThinkSystem SR630 V2, linuxhw/LsPCI 28198bc06e2ea64dc579adb73bb9a75b0b784bcf
 * Server/Lenovo/ThinkSystem/ThinkSystem SR630 V2/ECB5C724E79D/CENTOS-7/3.10.0-1160.49.1.EL7.X86_64/X86_64/FF6113B91D),
 * its stacks' buses from SAD_CONTROL_CFG: the uncore's register functions (00.1-00.4 of each stack, the MSM 00:02.x,
 * the UBox bus fe, the PCU bus ff) are no devices, whatever their class; the CBDMA 8086:0b00 is one. */
static void icx_board(void)
{
	static const struct { const char *at; unsigned did, cls; } f[] = {
		{ "00:00.1", 0x09a4, 0x088000 }, { "00:00.2", 0x09a3, 0x088000 }, { "00:00.4", 0x0998, 0x060000 },
		{ "00:01.0", 0x0b00, 0x088000 }, { "00:02.0", 0x09a6, 0x088000 }, { "00:02.1", 0x09a7, 0x088000 },
		{ "00:02.4", 0x3456, 0x130000 }, { "00:17.0", 0xa182, 0x010601 }, { "00:1c.0", 0xa190, 0x060400 },
		{ "17:00.2", 0x09a3, 0x088000 }, { "17:02.0", 0x347a, 0x060400 }, { "89:02.0", 0x347a, 0x060400 },
		{ "fe:00.0", 0x3450, 0x088000 }, { "fe:00.3", 0x0998, 0x060000 }, { "fe:02.1", 0x3441, 0x088000 },
		{ "fe:0c.0", 0x344a, 0x110100 }, { "fe:1a.0", 0x2880, 0x110100 }, { "ff:00.0", 0x344c, 0x088000 },
		{ "ff:0a.0", 0x344d, 0x088000 }, { "ff:1e.3", 0x345b, 0x088000 },
	};
	char p[200];
	host_tree_model(0x6a);
	sad_function(0x00, 0, 0, 4096); /* SAD 0: the CBDMA/DMI stack, PMU 5 */
	sad_function(0x17, 0, 1, 4096); /* SAD 1: PMU 0 */
	sad_function(0x89, 0, 4, 4096); /* SAD 4: PMU 3 */
	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++) {
		snprintf(p, sizeof(p), "/sys/devices/pci0000:%.2s/0000:%s", f[i].at, f[i].at);
		function(p, 0x8086, f[i].did, f[i].cls, "0\n");
	}
	/* the PCH's root port 00:1c.0, the BMC's bridge and video below it; the OCP NIC, the RAID adapter */
	function("/sys/devices/pci0000:00/0000:00:1c.0/0000:01:00.0", 0x19a2, 0x0120, 0x060400, "0\n");
	function("/sys/devices/pci0000:00/0000:00:1c.0/0000:01:00.0/0000:02:00.0", 0x102b, 0x0522, 0x030000, "0\n");
	function("/sys/devices/pci0000:17/0000:17:02.0/0000:18:00.0", 0x8086, 0x159b, 0x020000, "0\n");
	function("/sys/devices/pci0000:89/0000:89:02.0/0000:8a:00.0", 0x1000, 0x0016, 0x010400, "0\n");
}

static void test_icx_own_functions(void)
{
	uncore_t *u;
	struct uncore_device_group g;
	struct uncore_device d;
	icx_board();
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	static const char *const none[] = { "0000:00:00.0", "0000:00:00.1", "0000:00:00.2", "0000:00:00.4", "0000:00:02.0",
					     "0000:00:02.1", "0000:00:02.4", "0000:17:00.2", "0000:fe:00.0", "0000:fe:00.3",
					     "0000:fe:02.1", "0000:fe:0c.0", "0000:fe:1a.0", "0000:ff:00.0", "0000:ff:0a.0",
					     "0000:ff:1e.3" };
	for (size_t i = 0; i < sizeof(none) / sizeof(none[0]); i++)
		if (find(u, none[i], &g, &d) != -1) {
			fprintf(stderr, "%s: an uncore register function listed as a device\n", none[i]);
			CU_FAIL("register function");
		}
	CU_ASSERT(find(u, "0000:00:01.0", &g, &d) == 0 && g.socket == 0 && g.stack == 5 && d.device == 0x0b00);
	CU_ASSERT(total_devices(u) == 5); /* CBDMA, SATA, the video, the NIC, the RAID adapter */
	uncore_close(u);
}

/* ... and where its devices count: what crosses the DMI link on the CBDMA/DMI stack's bus 00 (SAD 0, PMU 5: pcm
 * icx_sad_to_pmu_id_mapping, Linux icx_sad_pmon_mapping) at its part 0, as pcm lists bus 0 under its PCH part 0 at
 * 00:00.0 (pcm-iio-topology.cpp WhitleyPlatformMapping::pciTreeDiscover, ICX_PCH_PART_ID; 00:00.0 is 8086:09a2, no
 * bridge): the PCH's SATA, its root port 00:1c.0 with the BMC's video below (behind the BMC's PCIe-to-PCI bridge
 * 01:00.0, no switch); the CBDMA at 01.0 at part 3 (ICX_CBDMA_PART_ID, its root_port the engine's own); a PCIe
 * stack's x16 root port at device 2 is its part 0 ("part_id = slot - 2") */
static void test_icx_dmi(void)
{
	uncore_t *u;
	struct uncore_device_group g;
	struct uncore_device d;
	icx_board();
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT(find(u, "0000:00:17.0", &g, &d) == 0 && g.socket == 0 && g.stack == 5 && g.port == 0 &&
		  !strcmp(g.root_port, "0000:00:00.0"));
	CU_ASSERT(find(u, "0000:02:00.0", &g, &d) == 0 && g.socket == 0 && g.stack == 5 && g.port == 0 &&
		  !g.behind_switch && !strcmp(g.behind, "a PCIe-to-PCI bridge") && !strcmp(g.root_port, "0000:00:1c.0"));
	CU_ASSERT(find(u, "0000:00:01.0", &g, &d) == 0 && g.stack == 5 && g.port == 3 && d.device == 0x0b00 &&
		  !strcmp(g.root_port, "0000:00:01.0") && !*g.behind);
	CU_ASSERT(find(u, "0000:18:00.0", &g, &d) == 0 && g.socket == 0 && g.stack == 0 && g.port == 0 &&
		  !strcmp(g.root_port, "0000:17:02.0"));
	CU_ASSERT(find(u, "0000:8a:00.0", &g, &d) == 0 && g.socket == 0 && g.stack == 3 && g.port == 0 &&
		  !strcmp(g.root_port, "0000:89:02.0"));
	uncore_close(u);
}

/* A function at bus:dev.fn on its root bus (a child of the bridge dir when parent is given), with a 4 KiB config
 * space holding the dwords v[] at off[] and the kernel's /sys/bus/pci/devices link */
static void cfg_fn(const char *parent, int bus, int dev, int fn, unsigned ven, unsigned did, unsigned cls,
		   const char *node, int nregs, const unsigned *off, const uint32_t *v)
{
	char dir[200], cfg[220], link[96], target[240];
	if (parent)
		snprintf(dir, sizeof(dir), "%s/0000:%02x:%02x.%d", parent, bus, dev, fn);
	else
		snprintf(dir, sizeof(dir), "/sys/devices/pci0000:%02x/0000:%02x:%02x.%d", bus, bus, dev, fn);
	function(dir, ven, did, cls, node);
	snprintf(cfg, sizeof(cfg), "%s/config", dir);
	sparse(cfg, 4096);
	put_at(cfg, 0, (uint32_t)(did << 16 | ven));
	for (int i = 0; i < nregs; i++)
		put_at(cfg, (off_t)off[i], v[i]);
	snprintf(target, sizeof(target), "../../..%s", dir + 4); /* from /sys/bus/pci/devices to /sys */
	snprintf(link, sizeof(link), "/sys/bus/pci/devices/0000:%02x:%02x.%d", bus, dev, fn);
	char devs[400];
	snprintf(devs, sizeof(devs), "%s/sys/bus/pci/devices", root);
	mkdirs(devs);
	lnk(target, link);
}

/* A Sapphire Rapids stack's root bus as every one of them shows on a real board: 09a2 at 00.0 (its
 * SAD_CONTROL_CFG 0x3f4 names the package), Mesh 2 PCIe 09a4 at 00.1, RAS 09a3 at 00.2, RCEC 0b23 at 00.4 */
static void spr_root_bus(int bus, int sock, const char *node)
{
	static const unsigned sad[] = { 0x3f4 };
	uint32_t pkg = (uint32_t)sock;
	cfg_fn(NULL, bus, 0, 0, 0x8086, 0x09a2, 0x088000, node, 1, sad, &pkg);
	cfg_fn(NULL, bus, 0, 1, 0x8086, 0x09a4, 0x088000, node, 0, NULL, NULL);
	cfg_fn(NULL, bus, 0, 2, 0x8086, 0x09a3, 0x088000, node, 0, NULL, NULL);
	cfg_fn(NULL, bus, 0, 4, 0x8086, 0x0b23, 0x080700, node, 0, NULL, NULL);
}

/* A socket's MSM (09a6 at 03.0: CPUBUSNO_VALID 0x1a0, CPUBUSNO0-3 0x190, a CPU bus's number a byte) on bus */
static void spr_msm(int bus, const char *node, const int *cpubus, const int *busno, int n)
{
	static const unsigned off[] = { 0x1a0, 0x190, 0x194, 0x198, 0x19c };
	uint32_t v[5] = { 0 };
	for (int i = 0; i < n; i++) {
		v[0] |= 1u << cpubus[i];
		v[1 + cpubus[i] / 4] |= (uint32_t)busno[i] << (cpubus[i] % 4 * 8);
	}
	cfg_fn(NULL, bus, 3, 0, 0x8086, 0x09a6, 0x088000, node, 5, off, v);
}

/* The group whose root port is bdf */
static int port_group(uncore_t *u, const char *bdf, struct uncore_device_group *g)
{
	for (int k = 0; k < uncore_num_device_groups(u); k++)
		if (!uncore_device_group_info(u, k, g) && !strcmp(g->root_port, bdf))
			return 0;
	return -1;
}

/* Sapphire Rapids XCC as a real two-socket board lays it out (HPE ProLiant DL380 Gen11, linuxhw/LsPCI commit
 * c0a4a3a6b6c16310c33dc428ada641fd8d369f6f, Server/HPE/ProLiant/ProLiant DL380 Gen11/89BBBA931D2E/DEBIAN-12/
 * 6.8.4-3-PVE/X86_64/47A35ED32C; NUMA nodes 0-1 socket 0, 2-3 socket 1 under SNC2).  Socket 0's root buses
 * 00, 11, 25, 39, 4d, 61 and 75, each with 09a2/09a4/09a3/0b23 at 00.0-00.4: on 00 the PCH's root port
 * 8086:1bbd at 0d.0 (the iLO 103c:3306 and its VGA 102b:0538 at 01:00.0-1 behind it) and the PCH's USB
 * 8086:1bcd at 14.0; on 11 empty root ports 01.0 (352a) and 05.0 (352c); on 25 a x16 port at 01.0 with an
 * Adaptec switch (9005:528f at 26:00.0, 27:00.0) and the SAS HBA 9005:028f at 28:00.0; on 39 the BCM5719 NIC
 * 14e4:1657 at 3a:00.0-3 behind 01.0 and the BCM57416 14e4:16d8 at 3b:00.0-1 behind 05.0; on 4d empty ports
 * at 01.0, 03.0, 05.0 and 07.0 (352a-352d); on 61 empty ports 01.0, 03.0; on 75 the DSA 0b25 at 01.0 and the
 * MSM 09a6 at 03.0 (PMON MSM 09a7 at 03.1); the UBox buses 7e (UBox 3250 at 00.0, IEH 0998 at 00.3, 3240 at
 * 01.0) and 7f (CHA 324c at 00.4, 344f at 1d.0, PCU CR3 325b at 1e.3).  Socket 1: 80 (09a2...) and c8 with
 * empty ports 01.0 and 03.0; its MSM's bus is not in what was read, filled as 0xf5 (75's socket-1 peer).
 * Not in the listing, filled: the MSM's registers (CPU buses 0-5 -> 00, 11, 25, 39, 4d, 61 in bus order
 * and 8 -> 75 on socket 0, 5 -> c8 on socket 1) and CAPID4 0b11 << 6 (XCC), so that by pcm's
 * spr_xcc_sad_to_pmu_id_mapping the stacks are IIO PMUs 1 (DMI), 2, 4, 6, 7, 9 and 0 (IDX0), c8 PMU 9.  pcm-
 * iio-topology.cpp's rules: ports at devices 1-8 are parts 0-7 ("part_id = slot - 1"); the DMI stack is part
 * 7 (SPR_DMI_PART_ID) for all the PCH moves. */
static void test_spr_real_board(void)
{
	uncore_t *u;
	struct uncore_device_group g;
	struct uncore_device d;
	static const unsigned capid4_off[] = { 0x94 };
	static const uint32_t xcc = 3u << 6;
	static const int s0_cpubus[] = { 0, 1, 2, 3, 4, 5, 8 }, s0_bus[] = { 0x00, 0x11, 0x25, 0x39, 0x4d, 0x61, 0x75 };
	static const int s1_cpubus[] = { 5 }, s1_bus[] = { 0xc8 };
	host_tree_model(0x8f);
	for (int i = 0; i < 7; i++)
		spr_root_bus(s0_bus[i], 0, s0_bus[i] == 0x39 || s0_bus[i] == 0x4d ? "1\n" : "0\n");
	function("/sys/devices/pci0000:00/0000:00:0d.0", 0x8086, 0x1bbd, 0x060400, "0\n");
	function("/sys/devices/pci0000:00/0000:00:0d.0/0000:01:00.0", 0x103c, 0x3306, 0x088000, "0\n");
	function("/sys/devices/pci0000:00/0000:00:0d.0/0000:01:00.1", 0x102b, 0x0538, 0x030000, "0\n");
	function("/sys/devices/pci0000:00/0000:00:14.0", 0x8086, 0x1bcd, 0x0c0330, "0\n");
	function("/sys/devices/pci0000:11/0000:11:01.0", 0x8086, 0x352a, 0x060400, "0\n");
	function("/sys/devices/pci0000:11/0000:11:05.0", 0x8086, 0x352c, 0x060400, "0\n");
	function("/sys/devices/pci0000:25/0000:25:01.0", 0x8086, 0x352a, 0x060400, "0\n");
	function("/sys/devices/pci0000:25/0000:25:01.0/0000:26:00.0", 0x9005, 0x528f, 0x060400, "0\n");
	function("/sys/devices/pci0000:25/0000:25:01.0/0000:26:00.0/0000:27:00.0", 0x9005, 0x528f, 0x060400, "0\n");
	function("/sys/devices/pci0000:25/0000:25:01.0/0000:26:00.0/0000:27:00.0/0000:28:00.0", 0x9005, 0x028f,
		 0x010700, "0\n");
	function("/sys/devices/pci0000:39/0000:39:01.0", 0x8086, 0x352a, 0x060400, "1\n");
	for (int f = 0; f < 4; f++) {
		char p[128];
		snprintf(p, sizeof(p), "/sys/devices/pci0000:39/0000:39:01.0/0000:3a:00.%d", f);
		function(p, 0x14e4, 0x1657, 0x020000, "1\n");
	}
	function("/sys/devices/pci0000:39/0000:39:05.0", 0x8086, 0x352c, 0x060400, "1\n");
	function("/sys/devices/pci0000:39/0000:39:05.0/0000:3b:00.0", 0x14e4, 0x16d8, 0x020000, "1\n");
	function("/sys/devices/pci0000:39/0000:39:05.0/0000:3b:00.1", 0x14e4, 0x16d8, 0x020000, "1\n");
	for (int p = 0; p < 4; p++) {
		char dir[64];
		snprintf(dir, sizeof(dir), "/sys/devices/pci0000:4d/0000:4d:%02x.0", 1 + 2 * p);
		function(dir, 0x8086, (unsigned)(0x352a + p), 0x060400, "1\n");
	}
	function("/sys/devices/pci0000:61/0000:61:01.0", 0x8086, 0x352a, 0x060400, "0\n");
	function("/sys/devices/pci0000:61/0000:61:03.0", 0x8086, 0x352b, 0x060400, "0\n");
	function("/sys/devices/pci0000:75/0000:75:01.0", 0x8086, 0x0b25, 0x088000, "0\n");
	spr_msm(0x75, "0\n", s0_cpubus, s0_bus, 7);
	cfg_fn(NULL, 0x75, 3, 1, 0x8086, 0x09a7, 0x088000, "0\n", 0, NULL, NULL);
	cfg_fn(NULL, 0x7e, 0, 0, 0x8086, 0x3250, 0x088000, "0\n", 0, NULL, NULL);
	cfg_fn(NULL, 0x7e, 0, 3, 0x8086, 0x0998, 0x060000, "0\n", 0, NULL, NULL);
	cfg_fn(NULL, 0x7e, 1, 0, 0x8086, 0x3240, 0x088000, "0\n", 0, NULL, NULL);
	cfg_fn(NULL, 0x7f, 0, 4, 0x8086, 0x324c, 0x088000, "0\n", 0, NULL, NULL);
	cfg_fn(NULL, 0x7f, 0x1d, 0, 0x8086, 0x344f, 0x088000, "0\n", 0, NULL, NULL);
	cfg_fn(NULL, 0x7f, 0x1e, 3, 0x8086, 0x325b, 0x088000, "0\n", 1, capid4_off, &xcc);
	spr_root_bus(0x80, 1, "2\n");
	spr_root_bus(0xc8, 1, "3\n");
	function("/sys/devices/pci0000:c8/0000:c8:01.0", 0x8086, 0x352a, 0x060400, "3\n");
	function("/sys/devices/pci0000:c8/0000:c8:03.0", 0x8086, 0x352b, 0x060400, "3\n");
	spr_msm(0xf5, "2\n", s1_cpubus, s1_bus, 1);
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	/* the PCH's devices: on the DMI stack (PMU 1), counted at its part 7, behind its root port or on bus 0 */
	CU_ASSERT(find(u, "0000:01:00.0", &g, &d) == 0 && g.socket == 0 && g.stack == 1 && g.port == 7);
	CU_ASSERT(find(u, "0000:01:00.1", &g, &d) == 0 && g.stack == 1 && g.port == 7);
	CU_ASSERT(find(u, "0000:00:14.0", &g, &d) == 0 && g.socket == 0 && g.stack == 1 && g.port == 7 &&
		  !strcmp(g.root_port, "0000:00:00.0"));
	/* PCIe1 (PMU 4): the HBA behind a switch on the x16 port at device 1, part 0 */
	CU_ASSERT(find(u, "0000:28:00.0", &g, &d) == 0 && g.stack == 4 && g.port == 0 && g.behind_switch);
	/* PCIe2 is PMU 6: the NICs behind devices 1 and 5 are its parts 0 and 4 */
	CU_ASSERT(find(u, "0000:3a:00.3", &g, &d) == 0 && g.socket == 0 && g.stack == 6 && g.port == 0 && g.ndevices == 4);
	CU_ASSERT(find(u, "0000:3b:00.1", &g, &d) == 0 && g.stack == 6 && g.port == 4);
	/* PCIe3 is PMU 7 (ports at devices 1, 3, 5, 7: parts 0, 2, 4, 6), PCIe4 PMU 9, on socket 1 too */
	CU_ASSERT(port_group(u, "0000:4d:07.0", &g) == 0 && g.socket == 0 && g.stack == 7 && g.port == 6);
	CU_ASSERT(port_group(u, "0000:61:03.0", &g) == 0 && g.socket == 0 && g.stack == 9 && g.port == 2);
	CU_ASSERT(port_group(u, "0000:c8:03.0", &g) == 0 && g.socket == 1 && g.stack == 9 && g.port == 2);
	CU_ASSERT(port_group(u, "0000:11:05.0", &g) == 0 && g.stack == 2 && g.port == 4);
	/* IDX0 (PMU 0): the DSA is its own function, it moves data */
	CU_ASSERT(find(u, "0000:75:01.0", &g, &d) == 0 && g.stack == 0 && g.port == -1);
	/* the uncore's own register functions are in no group; nothing is below no stack */
	for (int k = 0; k < uncore_num_device_groups(u); k++) {
		CU_ASSERT(uncore_device_group_info(u, k, &g) == 0);
		if (g.stack < 0)
			fprintf(stderr, "group %d below no stack (%d devices)\n", k, g.ndevices);
		CU_ASSERT(g.stack >= 0);
		for (int i = 0; i < g.ndevices; i++) {
			CU_ASSERT_FATAL(uncore_device_info(u, k, i, &d) == 0);
			int regs = d.vendor == 0x8086 && d.device != 0x0b25 && d.device != 0x1bcd &&
				   (d.device < 0x3500 || d.device > 0x35ff); /* the PCH's and the DSA apart */
			if (regs)
				fprintf(stderr, "%s (8086:%04x) in group %d (stack %d port %d)\n", d.bdf, d.device, k, g.stack,
					g.port);
			CU_ASSERT(!regs);
		}
	}
	uncore_close(u);
}

/* A Granite Rapids socket's accelerator (HC) stacks laid out as on Intel's Birch Stream board (linuxhw/LsPCI
 * Server/Intel/BIRCHSTREAM/BIRCHSTREAM/1F03C9158405/XUBUNTU-24.04/6.8.0-48-GENERIC/X86_64/F71EAE46A6, commit
 * b6f7d8f2): HC root buses 00, 05, 0a and 0f, each with DSA 8086:0b25 at 01.0 and IAA 0cfe at 02.0, QAT 4944 at
 * 00.0 of the next bus, DLB 2714 at 00.0 three buses on (01:00.0, 03:00.0; 06:00.0, 08:00.0; 12:00.0), the MSM
 * 09a6 at 00:03.0.  The listing cannot show the MSM's CPUBUSNO registers: filled with CPU buses 8, 12, 16 and 20
 * (pcm SRF_HC0/1/3/2_SAD_BUS_ID) on those buses in that order.  pcm (intel/pcm 0fae0de1, pcm-iio-topology.cpp)
 * counts CPU bus 16 (HC3) on IIO PMU 14 and 20 (HC2) on PMU 9 since cbeba329; DSA and IAA on part 0, QAT on
 * part 4, DLB on part 5 (birchStreamAcceleratorStackProbe). */
static void test_gnr_hc_fake(void)
{
	static const struct { int bus, dev; unsigned id, cls; int stack, port; } acc[] = {
		{ 0x00, 1, 0x0b25, 0x088000, 1, 0 },  { 0x01, 0, 0x4944, 0x0b4000, 1, 4 },
		{ 0x03, 0, 0x2714, 0x0b4000, 1, 5 },  { 0x05, 2, 0x0cfe, 0x088000, 6, 0 },
		{ 0x06, 0, 0x4944, 0x0b4000, 6, 4 },  { 0x0a, 1, 0x0b25, 0x088000, 14, 0 },
		{ 0x0a, 2, 0x0cfe, 0x088000, 14, 0 }, { 0x0b, 0, 0x4944, 0x0b4000, 14, 4 },
		{ 0x0d, 0, 0x2714, 0x0b4000, 14, 5 }, { 0x0f, 1, 0x0b25, 0x088000, 9, 0 },
		{ 0x12, 0, 0x2714, 0x0b4000, 9, 5 },
	};
	uncore_t *u;
	struct uncore_device_group g;
	struct uncore_device d;
	char dir[128], cfg[160];
	host_tree_model(0xad);
	sad_function(0x00, 0, 0, 4096); /* SAD_CONTROL_CFG bits 3:0: package 0 */
	const char *msm = "/sys/devices/pci0000:00/0000:00:03.0";
	function(msm, 0x8086, 0x09a6, 0x088000, "0\n");
	snprintf(cfg, sizeof(cfg), "%s/config", msm);
	sparse(cfg, 4096);
	put_at(cfg, 0x1a0, 1u << 8 | 1u << 12 | 1u << 16 | 1u << 20); /* CPUBUSNO_VALID */
	put_at(cfg, 0x190 + 8, 0x00);                                 /* CPUBUSNO2: CPU bus 8 */
	put_at(cfg, 0x190 + 12, 0x05);                                /* CPUBUSNO3: 12 */
	put_at(cfg, 0x1c0, 0x0a);                                     /* CPUBUSNO4: 16 */
	put_at(cfg, 0x1c0 + 4, 0x0f);                                 /* CPUBUSNO5: 20 */
	lnk("../../../devices/pci0000:00/0000:00:03.0", "/sys/bus/pci/devices/0000:00:03.0");
	for (size_t i = 0; i < sizeof(acc) / sizeof(acc[0]); i++) {
		snprintf(dir, sizeof(dir), "/sys/devices/pci0000:%02x/0000:%02x:%02x.0", acc[i].bus, acc[i].bus, acc[i].dev);
		function(dir, 0x8086, acc[i].id, acc[i].cls, "0\n");
	}
	/* the stack's root complex event collector (0b23, class 0x0807): a register function of the uncore
	 * (platforms/gnr/platform.c gnr_own_fns, from Intel's Birch Stream listing), no device */
	function("/sys/devices/pci0000:0a/0000:0a:00.4", 0x8086, 0x0b23, 0x080700, "0\n");
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	for (size_t i = 0; i < sizeof(acc) / sizeof(acc[0]); i++) {
		char bdf[16];
		snprintf(bdf, sizeof(bdf), "0000:%02x:%02x.0", acc[i].bus, acc[i].dev);
		int ok = !find(u, bdf, &g, &d) && g.socket == 0 && g.stack == acc[i].stack && g.port == acc[i].port &&
			 !strcmp(g.source, "registers") && !strcmp(g.root_port, bdf) && g.ndevices == 1;
		if (!ok)
			fprintf(stderr, "%s (8086:%04x): IIO stack %d port %d, not stack %d port %d\n", bdf, acc[i].id,
				g.stack, g.port, acc[i].stack, acc[i].port);
		CU_ASSERT(ok);
	}
	CU_ASSERT(find(u, "0000:0a:00.4", &g, &d) == -1);
	CU_ASSERT(find(u, "0000:00:03.0", &g, &d) == -1); /* the MSM: in no group */
	uncore_close(u);
}

/* Granite Rapids' PCIe stacks on both sockets at the root buses Intel's Birch Stream board lists (linuxhw/LsPCI
 * b6f7d8f2, Server/Intel/BIRCHSTREAM/BIRCHSTREAM/1F03C9158405/XUBUNTU-24.04/6.8.0-48-GENERIC/X86_64/F71EAE46A6;
 * tests/snapshots/field/gnr-birchstream-2s.source): 14, 29, 3a, 4b, 5c, 6d and 94, a6, b7, c8, d9, ea (socket 1's
 * are not socket 0's + 0x80).  Their CPU buses 0-5 in bus order (filled: the listing cannot show CPUBUSNO) are
 * IIO PMUs 0, 2, 3, 4, 5, 7 (pcm SRF_PE6/PE2/PE0/PE1/PE3/PE7, pcm-iio-topology.cpp 0fae0de1).  The board's default
 * devices sit where the listing has them: an NVMe drive at 15:00.0 below root port 14:06.0, a NIC at 16:00.0 below
 * 14:07.0, the AST VGA 18:00.0 behind its bridge 17:00.0 below 14:08.0, a USB controller 19:00.0 below 14:09.0 and
 * a NIC 3b:00.0 below 3a:02.0; part = device - 2 ("Bifurcated Root Ports A-H appear as devices 2-9"; pcm's loop
 * stops at 8, so 14:09.0's part 7 is the rule's, not pcm-iio's output).  Socket 1's ports (none in the listing)
 * named by devices=, each device on the first bus after its port's. */
struct want {
	const char *bdf, *root_port;
	int socket, stack, port;
};

/* Each device of w (ending at a NULL bdf) below its root port at its socket, stack and port on spec's map */
static void check_wants(const char *spec, const struct want *w)
{
	uncore_t *u;
	struct uncore_device_group g;
	struct uncore_device d;
	CU_ASSERT_FATAL(uncore_open_topology(spec, &u) == 0);
	for (; w->bdf; w++) {
		int ok = !find(u, w->bdf, &g, &d) && g.socket == w->socket && g.stack == w->stack && g.port == w->port &&
			 !strcmp(g.root_port, w->root_port);
		if (!ok)
			fprintf(stderr, "%s: %s: socket %d stack %d port %d below %s, not %d.%d.%d below %s\n", spec, w->bdf,
				g.socket, g.stack, g.port, g.root_port, w->socket, w->stack, w->port, w->root_port);
		CU_ASSERT(ok);
	}
	uncore_close(u);
}

static void test_gnr_board_buses(void)
{
	static const struct want listed[] = {
		{ "0000:15:00.0", "0000:14:06.0", 0, 0, 4 }, { "0000:16:00.0", "0000:14:07.0", 0, 0, 5 },
		{ "0000:18:00.0", "0000:14:08.0", 0, 0, 6 }, { "0000:19:00.0", "0000:14:09.0", 0, 0, 7 },
		{ "0000:3b:00.0", "0000:3a:02.0", 0, 3, 0 },
		{ NULL, NULL, 0, 0, 0 },
	}, named[] = {
		{ "0000:2a:00.0", "0000:29:02.0", 0, 2, 0 }, { "0000:a7:00.0", "0000:a6:02.0", 1, 2, 0 },
		{ "0000:da:00.0", "0000:d9:04.0", 1, 5, 2 }, { "0000:eb:00.0", "0000:ea:09.0", 1, 7, 7 },
		{ NULL, NULL, 0, 0, 0 },
	};
	static const struct { const char *spec; const struct want *w; } cases[] = {
		{ "sim:gnr", listed }, { "sim:srf", listed }, { "perf+sim:gnr", listed },
		{ "sim:gnr,devices=nic@0.2.0+gpu@1.2.0+nvme@1.5.2+ib@1.7.7", named },
	};
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
		check_wants(cases[k].spec, cases[k].w);
}

/* Sapphire Rapids' (and Emerald Rapids') socket 1 at the root buses the HPE ProLiant DL380 Gen11 lists for it
 * (linuxhw/LsPCI c0a4a3a6, Server/HPE/ProLiant/ProLiant DL380 Gen11/89BBBA931D2E/DEBIAN-12/6.8.4-3-PVE/X86_64/
 * 47A35ED32C; tests/snapshots/field/spr-dl380g11-mcc.source): 80, 89, 9e, b3, c8, dd, f2, not socket 0's (00, 11,
 * 25, 39, 4d, 61, 75) + 0x80.  Their CPU buses filled in bus order as socket 0's (0-5, 8), which pcm's
 * spr_xcc_sad_to_pmu_id_mapping makes IIO PMUs 1, 2, 4, 6, 7, 9, 0 and emr_sad_to_pmu_id_mapping 7, 1, 2, 3, 8,
 * 6, 0 (pcm-iio-topology.cpp 0fae0de1).  The listing's root ports c8:01.0 and 03.0 (secondary buses c9, ca) and
 * dd:01.0 and 03.0 (de, df) hold the board's default socket-1 devices; part = device - 1 (eagleStreamPciStackProbe);
 * the other stacks' ports named by devices=, each device on the first bus after its root bus. */
static void test_spr_socket1_buses(void)
{
	static const struct want spr[] = {
		{ "0000:c9:00.0", "0000:c8:01.0", 1, 7, 0 }, { "0000:ca:00.0", "0000:c8:03.0", 1, 7, 2 },
		{ "0000:de:00.0", "0000:dd:01.0", 1, 9, 0 }, { "0000:df:00.0", "0000:dd:03.0", 1, 9, 2 },
		{ NULL, NULL, 0, 0, 0 },
	}, emr[] = {
		{ "0000:c9:00.0", "0000:c8:01.0", 1, 8, 0 }, { "0000:ca:00.0", "0000:c8:03.0", 1, 8, 2 },
		{ "0000:de:00.0", "0000:dd:01.0", 1, 6, 0 }, { "0000:df:00.0", "0000:dd:03.0", 1, 6, 2 },
		{ NULL, NULL, 0, 0, 0 },
	}, named[] = {
		{ "0000:8a:00.0", "0000:89:01.0", 1, 2, 0 }, { "0000:9f:00.0", "0000:9e:02.0", 1, 4, 1 },
		{ "0000:b4:00.0", "0000:b3:08.0", 1, 6, 7 },
		{ NULL, NULL, 0, 0, 0 },
	};
	check_wants("sim:spr", spr);
	check_wants("perf+sim:spr", spr);
	check_wants("sim:emr", emr);
	check_wants("sim:spr,devices=nic@1.2.0+nvme@1.4.1+ib@1.6.7", named);
}

/* Ice Lake-SP laid out as the Lenovo boards list it.  One socket, the ThinkSystem SR630 V2 (linuxhw/LsPCI 28198bc0,
 * tests/snapshots/field/icx-sr630v2.source): the stacks' root buses (09a2 at 00.0) 00, 17, 50, 89, c2, the UBox
 * 3450 at fe:00.0, the PCU 345b at ff:1e.3.  Two sockets, the ThinkSystem SR650 V2 (linuxhw/LsPCI 92efda81,
 * .../ThinkSystem SR650 V2/D65FD98664FE/DEBIAN-11/5.10.0-20-AMD64/X86_64/29F89998EE; icx-sr650v2-2s.source):
 * 00, 16, 30, 4a, 64 with UBox 7e:00.0 and PCU 7f:1e.3 on node 0, 80, 97, b0, c9, e2 with fe:00.0 and ff:1e.3 on
 * node 1.  Which PMU a bus is, the listings cannot show (SAD_CONTROL_CFG): the CBDMA/DMI stack is SAD 0, PMU 5
 * (bus 00 and 80, Linux icx_sad_pmon_mapping, pcm icx_sad_to_pmu_id_mapping), the others SAD 1, 2, 4, 5 (PMUs 0, 1,
 * 3, 4) in bus order; the MCP stack, PMU 2 (SAD 3), has no root bus (pcm WhitleyPlatformMapping).  A NIC at a PCIe
 * stack's part 0 sits below its root port at device 2 on the next bus, as the SR630 V2's 17:02.0 and 18:00.0 and
 * the SR650 V2's 16:02.0 (Slot9) and 17:00.0; the PCH's device counts on PMU 5.  Each socket counts its cores'
 * CHAs from its own PCU (icx_count_chabox) on those buses. */
static void test_icx_board_buses(void)
{
	static const struct {
		const char *spec;
		int sockets, bus[2][6]; /* by PMU 0-5, -1: none */
		int ubox[2];
		const char *nic, *root_port; /* socket 0's PMU 0 NIC and its root port */
	} m[] = {
		{ "sim:icx,sockets=1,cores=24,devices=nic@0.0.0+nic@0.1.0+nic@0.3.0+nic@0.4.0", 1,
		  { { 0x17, 0x50, -1, 0x89, 0xc2, 0x00 } }, { 0xfe }, "0000:18:00.0", "0000:17:02.0" },
		{ "sim:icx,sockets=2,cores=24,devices=nic@0.0.0+nic@0.1.0+nic@0.3.0+nic@0.4.0+nic@1.0.0+nic@1.1.0+nic@1.3.0+"
		  "nic@1.4.0+nic@1.5.0",
		  2, { { 0x16, 0x30, -1, 0x4a, 0x64, 0x00 }, { 0x97, 0xb0, -1, 0xc9, 0xe2, 0x80 } }, { 0x7e, 0xfe },
		  "0000:17:00.0", "0000:16:02.0" },
	};
	for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		uncore_t *u;
		CU_ASSERT_FATAL(uncore_open_topology(m[k].spec, &u) == 0);
		int seen[2][6] = { { 0 } };
		for (int i = 0; i < uncore_num_device_groups(u); i++) {
			struct uncore_device_group g;
			char want[16];
			uncore_device_group_info(u, i, &g);
			if (g.socket < 0 || g.socket >= m[k].sockets || g.stack < 0 || g.stack > 5)
				continue;
			snprintf(want, sizeof(want), "0000:%02x", m[k].bus[g.socket][g.stack]);
			if (strcmp(g.root_bus, want))
				fprintf(stderr, "%s: socket %d stack %d on %s, not %s\n", m[k].spec, g.socket, g.stack, g.root_bus, want);
			CU_ASSERT_STRING_EQUAL(g.root_bus, want);
			seen[g.socket][g.stack] = 1;
		}
		for (int sock = 0; sock < m[k].sockets; sock++)
			for (int st = 0; st < 6; st++)
				CU_ASSERT_EQUAL(seen[sock][st], m[k].bus[sock][st] >= 0); /* every listed bus, PMU 2 none */
		struct uncore_device_group g;
		struct uncore_device d;
		CU_ASSERT(find(u, m[k].nic, &g, &d) == 0 && g.socket == 0 && g.stack == 0 && g.port == 0 &&
			  !strcmp(g.root_port, m[k].root_port));
		/* the UBox at 00.0 of the listed bus, the PCU's CAPID function at 1e.3 of the next */
		struct sim *s = sim_of(u->acc);
		int ubox = 0, pcu = 0;
		for (int i = 0; i < s->ndevs; i++) {
			const struct pci_loc *l = &s->devs[i].info.loc;
			for (int sock = 0; sock < m[k].sockets; sock++) {
				ubox += s->devs[i].info.device == 0x3450 && l->bus == m[k].ubox[sock] && l->dev == 0 && l->fn == 0;
				pcu += s->devs[i].info.device == 0x345b && l->bus == m[k].ubox[sock] + 1 && l->dev == 30 && l->fn == 3;
			}
		}
		CU_ASSERT_EQUAL(ubox, m[k].sockets);
		CU_ASSERT_EQUAL(pcu, m[k].sockets);
		uncore_close(u);
		CU_ASSERT_FATAL(uncore_open(m[k].spec, &u) == 0);
		int cha = -1;
		for (int i = 0; i < uncore_num_units(u); i++) {
			struct uncore_unit_info ui;
			if (uncore_unit_info(u, i, &ui) == 0 && !strcmp(ui.name, "cha"))
				cha = i;
		}
		CU_ASSERT(cha >= 0);
		for (int sock = 0; cha >= 0 && sock < m[k].sockets; sock++)
			CU_ASSERT_EQUAL(uncore_unit_boxes(u, cha, sock), 24);
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

/* The Lenovo SR650 V2's two CBDMA engine sets (linuxhw/LsPCI 92efda81, tests/snapshots/field/icx-sr650v2-2s.source):
 * 8086:0b00 at 00:01.0-7 (socket 0, with the PCH's functions on bus 00) and 80:01.0-7 (socket 1, its DMI stack's
 * bus 80, no PCH), each bus SAD 0 of its socket (PMU 5).  pcm's WhitleyPlatformMapping counts each socket's DMA
 * controller at part 3 of that stack ("There is one DMA Controller on each socket", ICX_CBDMA_PART_ID 3) and what
 * crosses socket 0's DMI link at part 0 (ICX_PCH_PART_ID): the same rule on both sockets, each set one group. */
static void test_icx_cbdma_sockets(void)
{
	uncore_t *u;
	struct uncore_device_group g;
	struct uncore_device d;
	char p[128];
	host_tree_model(0x6a);
	sad_function(0x00, 0, 0, 4096);
	sad_function(0x80, 1, 0, 4096);
	for (int sock = 0; sock < 2; sock++)
		for (int fn = 0; fn < 8; fn++) {
			snprintf(p, sizeof(p), "/sys/devices/pci0000:%02x/0000:%02x:01.%d", 0x80 * sock, 0x80 * sock, fn);
			function(p, 0x8086, 0x0b00, 0x088000, sock ? "1\n" : "0\n");
		}
	function("/sys/devices/pci0000:00/0000:00:17.0", 0x8086, 0xa182, 0x010601, "0\n"); /* the PCH's SATA */
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	for (int sock = 0; sock < 2; sock++)
		for (int fn = 0; fn < 8; fn++) {
			char bdf[32], rp[32];
			snprintf(bdf, sizeof(bdf), "0000:%02x:01.%d", 0x80 * sock, fn);
			snprintf(rp, sizeof(rp), "0000:%02x:01.0", 0x80 * sock);
			int ok = !find(u, bdf, &g, &d) && g.socket == sock && g.stack == 5 && g.port == 3 && g.ndevices == 8 &&
				 !strcmp(g.root_port, rp);
			if (!ok)
				fprintf(stderr, "%s: socket %d stack %d port %d (%d devices, root port '%s'), not socket %d's PMU 5 "
					"part 3 with the other seven engines\n", bdf, g.socket, g.stack, g.port, g.ndevices, g.root_port,
					sock);
			CU_ASSERT(ok);
		}
	CU_ASSERT(find(u, "0000:00:17.0", &g, &d) == 0 && g.socket == 0 && g.stack == 5 && g.port == 0 && g.ndevices == 1);
	uncore_close(u);
}

/* A bridge's PCI Express capability (id 0x10 at 0x60, reached from 0x34 through power management at 0x50, the status
 * register's capability bit set), its device/port type in bits 7:4 of the capabilities register at 0x62, in a config
 * space of size bytes (64: what a user other than root reads), and the kernel's /sys/bus/pci/devices link */
static void bridge_cfg(const char *dir, const char *bdf, unsigned type, off_t size)
{
	char cfg[220], link[96], target[220];
	snprintf(cfg, sizeof(cfg), "%s/config", dir);
	sparse(cfg, size);
	put_at(cfg, 0x04, 0x10u << 16);               /* status (0x06) bit 4: a capability list */
	put_at(cfg, 0x34, 0x50);                      /* its first capability */
	if (size > 0x60) {
		put_at(cfg, 0x50, 0x01u | 0x60u << 8); /* power management, next 0x60 */
		put_at(cfg, 0x60, 0x10u | (0x02u | type << 4) << 16); /* PCI Express, version 2, the type */
	}
	snprintf(link, sizeof(link), "/sys/bus/pci/devices/%s", bdf);
	snprintf(target, sizeof(target), "../../..%s", dir + 4); /* from /sys/bus/pci/devices to /sys */
	char devs[400];
	snprintf(devs, sizeof(devs), "%s/sys/bus/pci/devices", root);
	mkdirs(devs);
	lnk(target, link);
}

/* What holds a root port's devices (dev_bridge.c), by the PCI Express device/port type of the bridge below the port
 * (PCI Express Base Specification; Linux pci_regs.h PCI_EXP_TYPE_UPSTREAM 5, PCI_EXP_TYPE_PCI_BRIDGE 7), else by the
 * tree's shape: Ice Lake-SP root ports at devices 2-5 of bus 0x16 (stack 1 of socket 0, the kernel's attribute) */
#define BK_A "/sys/devices/pci0000:16/0000:16:02.0"
#define BK_B "/sys/devices/pci0000:16/0000:16:03.0"
#define BK_C "/sys/devices/pci0000:16/0000:16:04.0"
#define BK_D "/sys/devices/pci0000:16/0000:16:05.0"
static void test_bridge_kinds(void)
{
	uncore_t *u;
	struct uncore_device_group g;
	struct uncore_device d;
	host_tree_model(0x6a);
	put_str("0000:16\n", "/sys/devices/uncore_iio_1/die0");
	function(BK_A, 0x8086, 0x347a, 0x060400, "0\n");
	function(BK_B, 0x8086, 0x347a, 0x060400, "0\n");
	function(BK_C, 0x8086, 0x347a, 0x060400, "0\n");
	function(BK_D, 0x8086, 0x347a, 0x060400, "0\n");
	/* A: a PCIe-to-PCI bridge (type 7) with a conventional PCI-to-PCI bridge behind it and a card below that: the
	 * shape alone (a bridge below the bridge) would say switch, the capability says what it is */
	function(BK_A "/0000:20:00.0", 0x1a03, 0x1150, 0x060400, "0\n");
	bridge_cfg(BK_A "/0000:20:00.0", "0000:20:00.0", 7, 4096);
	function(BK_A "/0000:20:00.0/0000:21:01.0", 0x3388, 0x0021, 0x060400, "0\n");
	function(BK_A "/0000:20:00.0/0000:21:01.0/0000:22:00.0", 0x1000, 0x0030, 0x010000, "0\n");
	/* B: a switch, its upstream port (type 5) and a downstream port (6) with a drive below it */
	function(BK_B "/0000:30:00.0", 0x10b5, 0x8747, 0x060400, "0\n");
	bridge_cfg(BK_B "/0000:30:00.0", "0000:30:00.0", 5, 4096);
	function(BK_B "/0000:30:00.0/0000:31:08.0", 0x10b5, 0x8747, 0x060400, "0\n");
	bridge_cfg(BK_B "/0000:30:00.0/0000:31:08.0", "0000:31:08.0", 6, 4096);
	function(BK_B "/0000:30:00.0/0000:31:08.0/0000:32:00.0", 0x144d, 0xa80a, 0x010802, "0\n");
	/* C: a BMC's bridge whose config space a user reads 64 bytes of, its video right below it: no switch (a switch's
	 * internal bus holds no endpoint), a PCIe-to-PCI bridge */
	function(BK_C "/0000:40:00.0", 0x19a2, 0x0120, 0x060400, "0\n");
	bridge_cfg(BK_C "/0000:40:00.0", "0000:40:00.0", 7, 64);
	function(BK_C "/0000:40:00.0/0000:41:00.0", 0x102b, 0x0522, 0x030000, "0\n");
	/* D: a bridge with no config space to read and nothing below it: a bridge, its kind unknown */
	function(BK_D "/0000:50:00.0", 0x1234, 0x5678, 0x060400, "0\n");
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT(find(u, "0000:22:00.0", &g, &d) == 0 && g.port == 0 && !g.behind_switch &&
		  !strcmp(g.behind, "a PCIe-to-PCI bridge"));
	CU_ASSERT(find(u, "0000:32:00.0", &g, &d) == 0 && g.port == 1 && g.behind_switch && !strcmp(g.behind, "a PCIe switch"));
	CU_ASSERT(find(u, "0000:41:00.0", &g, &d) == 0 && g.port == 2 && !g.behind_switch &&
		  !strcmp(g.behind, "a PCIe-to-PCI bridge"));
	CU_ASSERT(port_group(u, "0000:16:05.0", &g) == 0 && g.port == 3 && g.ndevices == 0 && !g.behind_switch &&
		  !strcmp(g.behind, "a bridge"));
	uncore_close(u);
	/* a snapshot keeps the capability bytes the map read: its replay names A's bridge as the node does */
	char tar[300], spec[400], notes[2048];
	snprintf(tar, sizeof(tar), "%s/bridges-%d.tar", test_tmpdir(), (int)getpid());
	CU_ASSERT_FATAL(uncore_snapshot("direct", tar, notes, sizeof(notes)) == 0);
	snprintf(spec, sizeof(spec), "replay:%s", tar);
	CU_ASSERT_FATAL(uncore_open_topology(spec, &u) == 0);
	CU_ASSERT(find(u, "0000:22:00.0", &g, &d) == 0 && !strcmp(g.behind, "a PCIe-to-PCI bridge"));
	CU_ASSERT(find(u, "0000:32:00.0", &g, &d) == 0 && g.behind_switch);
	uncore_close(u);
	unlink(tar);
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
		{ "ICX: the uncore's own functions of a Lenovo SR630 V2 are no devices", test_icx_own_functions },
		{ "ICX: the SR630 V2's PCH on the DMI port, CBDMA on part 3, NIC and RAID on their parts", test_icx_dmi },
		{ "ICX: both sockets' CBDMA engines on their DMI stack's part 3 (SR650 V2)", test_icx_cbdma_sockets },
		{ "what holds a root port's devices: PCIe switch, PCIe-to-PCI bridge, by type or shape", test_bridge_kinds },
		{ "SPR laid out as a real board: DMI, PMUs 6, 7, 9, own functions", test_spr_real_board },
		{ "counter ports at each generation's devices", test_counter_ports },
		{ "GNR accelerator stacks from the MSM's CPU buses", test_gnr_hc_fake },
		{ "GNR and SRF PCIe stacks on Birch Stream's root buses, both sockets", test_gnr_board_buses },
		{ "SPR and EMR socket 1 on the DL380 Gen11's root buses", test_spr_socket1_buses },
		{ "ICX stacks, UBox and PCU on the Lenovo SR630 V2's and SR650 V2's buses", test_icx_board_buses },
		{ "snapshot keeps the device map", test_snapshot_map },
		{ "hostile tree: partial map, warnings", test_hostile_tree },
		{ NULL, NULL },
	};
	return run_in_fake_tree("devices", tests);
}
