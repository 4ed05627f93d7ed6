/*
 * What counts a device group's bytes (uncore_device_group_counter) and back (uncore_device_group_at): on
 * the simulator every device's group resolves to the box of the simulator's stack for that device (on
 * perf+sim, the box perf names uncore_iio_<stack>: the kernel's name, not the library's numbering) and the
 * root port's place as the counter port; groups no port counter counts give their reason.
 */
#include <stdio.h>
#include <string.h>
#include "fake_tree.h"
#include "uncore.h"
#include "handle/handle.h"
#include "sim/sim.h"
#include "sim/sim_pcitree.h"

/* The group holding a BDF: its index, or -1 */
static int group_of(uncore_t *u, const char *bdf)
{
	int n = uncore_num_device_groups(u);
	struct uncore_device_group g;
	struct uncore_device d;
	for (int k = 0; k < n; k++) {
		uncore_device_group_info(u, k, &g);
		for (int i = 0; i < g.ndevices; i++)
			if (!uncore_device_info(u, k, i, &d) && !strcmp(d.bdf, bdf))
				return k;
	}
	return -1;
}

static void check_sim(const char *spec)
{
	uncore_t *u;
	struct sim_pcidev truth[32];
	if (uncore_open(spec, &u)) {
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
		CU_FAIL_FATAL("open");
	}
	int nt = sim_pci_devices(sim_of(u->acc), truth, 32);
	CU_ASSERT_FATAL(nt > 0);
	for (int i = 0; i < nt; i++) {
		struct uncore_device_counter c;
		char where[128], want[64];
		int k = group_of(u, truth[i].bdf);
		CU_ASSERT_FATAL(k >= 0);
		if (uncore_device_group_counter(u, k, &c)) {
			fprintf(stderr, "%s: %s: %s\n", spec, truth[i].bdf, uncore_error());
			CU_FAIL("no counter for a device on a root port");
			continue;
		}
		CU_ASSERT(c.socket == truth[i].socket && c.die == truth[i].die && c.port == truth[i].port);
		struct uncore_unit_info ui;
		CU_ASSERT(uncore_unit_info(u, c.unit, &ui) == 0 && !strcmp(ui.name, "iio"));
		CU_ASSERT(uncore_box_location(u, c.unit, c.socket, c.box, where, sizeof(where)) == 0);
		if (!strncmp(spec, "perf+", 5)) { /* the kernel's PMU of that stack */
			snprintf(want, sizeof(want), "perf uncore_iio_%d ", truth[i].stack);
			if (strncmp(where, want, strlen(want)))
				fprintf(stderr, "%s: %s: box %d is at '%s', want '%s'\n", spec, truth[i].bdf, c.box, where, want);
			CU_ASSERT(!strncmp(where, want, strlen(want)));
		} else {
			CU_ASSERT(c.box == truth[i].stack); /* one die: the box number is the unit id */
		}
		CU_ASSERT(uncore_device_group_at(u, c.socket, c.box, c.port) == k);
	}
	/* the default set's empty port (stack 2 port 1 of socket 0, SIM_DEFAULT_DEVICES' empty@0.2.1, beside the
	 * switch on port 0; stack 4 on ICX, whose stack 2 has no root bus, platforms/icx/board.c) is a group too; a
	 * port with no root port is none */
	struct uncore_device_counter c;
	int sw = -1;
	for (int i = 0; i < nt; i++)
		if (truth[i].socket == 0 && truth[i].stack == (strstr(spec, "sim:icx") ? 4 : 2) && truth[i].port == 0)
			sw = i;
	CU_ASSERT_FATAL(sw >= 0);
	int k = group_of(u, truth[sw].bdf);
	CU_ASSERT_FATAL(uncore_device_group_counter(u, k, &c) == 0);
	int empty = uncore_device_group_at(u, c.socket, c.box, 1);
	struct uncore_device_group g;
	CU_ASSERT(empty >= 0 && uncore_device_group_info(u, empty, &g) == 0 && g.ndevices == 0 && g.port == 1);
	CU_ASSERT(uncore_device_group_at(u, 0, c.box, 5) < 0 && strstr(uncore_error(), "port 5"));
	CU_ASSERT(uncore_device_group_at(u, 0, 0, 0) < 0); /* stack 0 has no root port in the default set */
	uncore_close(u);
}

static void test_sim(void)
{
	/* SPR and GNR are laid out as real boards (platforms/spr/board.c, platforms/gnr/board.c): the default set's
	 * shape (a switch on port 0 of stack 2 beside an empty port 1, nothing on stack 0) on ports those boards list */
#define SPR_SET ",devices=nic@0.6.0+nvme@0.6.4+gpusw@0.2.0+empty@0.2.1+ib@0.7.0+nvme@1.9.0"
#define GNR_SET ",devices=nic@0.3.0+nvme@0.3.1+gpusw@0.2.0+empty@0.2.1+ib@0.4.0+dsa@0.9.0+qat@0.14.4"
	static const char *const p[] = { "sim:skx", "sim:icx", "sim:spr" SPR_SET, "sim:gnr" GNR_SET, "perf+sim:skx", "perf+sim:icx",
					  "perf+sim:spr" SPR_SET };
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		check_sim(p[i]);
}

static void test_reasons(void)
{
	uncore_t *u;
	struct uncore_device_counter c;
	/* Skylake-SP counts ports 0-3 (Linux skx_iio_freerunning: bw_in_port0..3), its root ports at devices 0-3
	 * (pcm-iio's skx table): a root port at device 4 is none of them */
	CU_ASSERT_FATAL(uncore_open("sim:skx,devices=nic@0.1.4", &u) == 0);
	int k = group_of(u, "0000:16:00.0");
	if (k < 0) { /* the simulator's bus numbers differ: take the one group with a device */
		struct uncore_device_group g;
		for (int i = 0; i < uncore_num_device_groups(u); i++)
			if (!uncore_device_group_info(u, i, &g) && g.ndevices)
				k = i;
	}
	CU_ASSERT_FATAL(k >= 0);
	int rc = uncore_device_group_counter(u, k, &c);
	if (rc == 0 || !strstr(uncore_error(), "counter port counts it is not known") ||
	    !strstr(uncore_error(), "root port 0000:") || !strstr(uncore_error(), "none of its counter ports"))
		fprintf(stderr, "skx port 4: %d %s\n", rc, uncore_error());
	CU_ASSERT(rc < 0 && strstr(uncore_error(), "counter port counts it is not known") &&
		  strstr(uncore_error(), "none of its counter ports"));
	uncore_close(u);
	/* a handle opened for its topology alone has no boxes: a root port's group (the stacks' own functions
	 * are on no port whatever the handle) */
	CU_ASSERT_FATAL(uncore_open_topology("sim:spr", &u) == 0);
	struct uncore_device_group g;
	k = -1;
	for (int i = 0; i < uncore_num_device_groups(u) && k < 0; i++)
		if (!uncore_device_group_info(u, i, &g) && g.port >= 0)
			k = i;
	CU_ASSERT_FATAL(k >= 0);
	rc = uncore_device_group_counter(u, k, &c);
	if (rc == 0 || !strstr(uncore_error(), "topology alone"))
		fprintf(stderr, "topology alone: %d %s\n", rc, uncore_error());
	CU_ASSERT(rc < 0 && strstr(uncore_error(), "topology alone"));
	CU_ASSERT(uncore_device_group_counter(u, 99, &c) < 0 && strstr(uncore_error(), "no device group 99"));
	uncore_close(u);
}

/* A node whose kernel shows a stack's root bus: the stack's own functions and a bus of no stack are on no
 * port whatever the handle, a root port's group needs the handle's boxes. */
static void test_fake_bdx(void)
{
	uncore_t *u;
	struct uncore_device_counter c;
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", root, root);
	CU_ASSERT_FATAL(system(cmd) == 0);
	put_str("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 79\n\n", "/proc/cpuinfo");
	put_str("0\n", "/sys/devices/system/cpu/cpu0/topology/physical_package_id");
	put_str("0000:16\n", "/sys/devices/uncore_iio_1/die0");
	put_str("0000:00\n", "/sys/devices/uncore_iio_0/die0");
	put_str("0x060400\n", "/sys/devices/pci0000:16/0000:16:02.0/class");
	put_str("0x010802\n", "/sys/devices/pci0000:16/0000:16:02.0/0000:17:00.0/class");
	put_str("0x010601\n", "/sys/devices/pci0000:00/0000:00:1f.2/class");
	put_str("0x088000\n", "/sys/devices/pci0000:80/0000:80:00.0/class");
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	int k = group_of(u, "0000:17:00.0");
	CU_ASSERT_FATAL(k >= 0);
	CU_ASSERT(uncore_device_group_counter(u, k, &c) < 0 && strstr(uncore_error(), "topology alone"));
	CU_ASSERT(uncore_device_group_counter(u, group_of(u, "0000:00:1f.2"), &c) < 0 &&
		  strstr(uncore_error(), "on no root port"));
	CU_ASSERT(uncore_device_group_counter(u, group_of(u, "0000:80:00.0"), &c) < 0 &&
		  strstr(uncore_error(), "below no counted IIO stack"));
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "a device's group resolves to its stack's box and port", test_sim },
		{ "groups no port counter counts say why", test_reasons },
		{ "a group on no port says so", test_fake_bdx },
		{ NULL, NULL },
	};
	return run_in_fake_tree("dev_counters", tests);
}
