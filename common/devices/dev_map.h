/*
 * The PCI devices below each IIO stack (issue 66 point 1): the kernel's device tree walked from its root
 * buses (dev_walk.c), each stack's root bus found (dev_stacks.c) and the devices grouped by stack and root
 * port (dev_map.c).
 */
#ifndef UNCORE_DEV_MAP_H
#define UNCORE_DEV_MAP_H

#include "uncore.h"
#include "dev_fs.h"

/* PCIe allows a device below at most 255 buses; the deepest real trees (a root port, two switch levels, a
 * device) are 5 deep, so a walk stops at this depth and says so rather than follow a planted chain. */
#define DEV_MAX_DEPTH 32

/* One PCI function of the tree */
struct dev_node {
	struct uncore_device d;
	int dom, bus, dev, fn;
	int root_dom, root_bus; /* the host bridge's bus it is below (/sys/devices/pciDDDD:BB) */
	int parent;             /* the bridge above it (index), -1: on the root bus */
	int bridge;             /* a PCI-to-PCI bridge (class 0x0604): a root port or a switch's port */
};
struct dev_tree {
	struct dev_node *v;
	int n, cap;
};
/* Every PCI function below every root bus of fs, bridges first-come: 0, or -1 with a message (no
 * /sys/devices at all, out of memory); what it cannot read it leaves out with a warning. */
int dev_walk(const struct dev_fs *fs, struct dev_tree *t);

/* Skylake-SP's CPU_BUS_NUMBER MSR (uncore_snbep.c, Linux 6.12: SKX_MSR_CPU_BUS_NUMBER, SKX_MSR_CPU_BUS_VALID_BIT,
 * BUS_NUM_STRIDE, skx_uncore_iio.num_boxes; tests/reference/linux_regs.txt holds them) */
#define DEV_SKX_BUS_MSR 0x300
#define DEV_SKX_BUS_VALID (1ull << 63)
#define DEV_SKX_BUS_STRIDE 8
#define DEV_SKX_IIO_STACKS 6

/* An IIO stack's root bus: which stack of which die, and where the bus came from */
struct dev_stack {
	int socket, die, stack, dom, bus;
	const char *source;
};
/* The root buses of the handle's IIO stacks, from the kernel's mapping attributes of fs
 * (/sys/devices/uncore_iio_<n>/die<d>), else the simulator's: how many (0: none known), -1 out of memory. */
int dev_stacks(uncore_t *u, const struct dev_fs *fs, struct dev_stack **out);

/* The files to read the devices from: the machine's (fs->mem NULL), or the simulated machine's sysfs as it is
 * now, built into mem (memfs_free it): 0, or -1 with the message (a replayed snapshot keeps no PCI tree). */
int dev_fs_of(uncore_t *u, struct dev_fs *fs, struct memfs *mem);
/* The sysfs directory of device i of a group ("/sys/devices/pci0000:16/0000:16:02.0/0000:17:00.0"): 0, or -1. */
int dev_map_dir(uncore_t *u, int group, int i, char *buf, size_t len);

#endif
