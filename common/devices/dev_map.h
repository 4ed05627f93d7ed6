/*
 * The PCI devices below each IIO stack (issue 66 point 1): the kernel's device tree walked from its root
 * buses (dev_walk.c), each stack's root bus found (dev_stacks.c) and the devices grouped by stack and root
 * port (dev_map.c).
 */
#ifndef UNCORE_DEV_MAP_H
#define UNCORE_DEV_MAP_H

#include <stdlib.h>
#include "uncore.h"
#include "dev_fs.h"
#include "access/access.h"
#include "util/error.h"
#include "util/grow.h"

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

/* What holds the devices below a root port where a bridge sits below it (dev_bridge.c): the bridge's PCI Express
 * device/port type where its config space says, else what the tree's shape below it says.  One of: */
extern const char DEV_BEHIND_SWITCH[], DEV_BEHIND_PCI_BRIDGE[], DEV_BEHIND_BRIDGE[];
const char *dev_bridge_kind(const struct dev_fs *fs, const struct dev_tree *t, int bridge);

/* Skylake-SP's CPU_BUS_NUMBER MSR (uncore_snbep.c, Linux 6.12: SKX_MSR_CPU_BUS_NUMBER, SKX_MSR_CPU_BUS_VALID_BIT,
 * BUS_NUM_STRIDE, skx_uncore_iio.num_boxes; tests/reference/linux_regs.txt holds them) */
#define DEV_SKX_BUS_MSR 0x300
#define DEV_SKX_BUS_VALID (1ull << 63)
#define DEV_SKX_BUS_STRIDE 8
#define DEV_SKX_IIO_STACKS 6

/* The iio_*_port<n> counter's n of the root port at dev.fn of the stack's root bus (dev_ports.c), or
 * DEV_PORT_UNKNOWN with *why. */
#define DEV_PORT_UNKNOWN UNCORE_PORT_UNKNOWN
int dev_counter_port(const struct host_info *h, int dev, int fn, const char **why);
/* The counter port of everything on a stack whose every byte crosses one link (SKX/ICX/SPR/EMR DMI stack on bus 0:
 * its root ports and own functions alike, dev_ports.c), or -1 where ports go by device number. */
int dev_dmi_port(const struct host_info *h, int stack, int dom, int bus);
/* The counter port of a DMA engine on a DMI stack's root bus, of any socket: a function (vendor's) at device dev
 * of the root bus of IIO PMU stack (Ice Lake-SP's CBDMA, dev_ports.c), or -1 where none is known. */
int dev_cbdma_port(const struct host_info *h, int stack, unsigned vendor, int dev);
/* The counter port of an accelerator, a function at dev.fn (vendor's) on one of an accelerator (HC) stack's root
 * buses, hc_bus of them counted from the stack's first (dev_ports.c): the port, or -1 where none is known. */
int dev_accel_port(const struct host_info *h, int hc_bus, unsigned vendor, int dev, int fn);

/* Ice Lake-SP's stack-to-bus register (uncore_snbep.c, Linux 6.12: SNR_ICX_MESH2IIO_MMAP_DID,
 * SNR_ICX_SAD_CONTROL_CFG, SAD_CONTROL_STACK_ID, icx_uncore_iio.num_boxes; linux_regs.txt holds them) */
#define DEV_ICX_SAD_DID 0x09a2
#define DEV_ICX_SAD_CONTROL_CFG 0x3f4
#define DEV_ICX_SAD_STACK_SHIFT 4
#define DEV_ICX_SAD_STACK_MASK 0x7
#define DEV_ICX_IIO_STACKS 6
extern const unsigned char dev_icx_sad_pmon[DEV_ICX_IIO_STACKS]; /* icx_sad_pmon_mapping */
/* Sapphire Rapids' and later stack-to-bus registers, as pcm reads them (src/types.h: SPR_MSM_DEV_ID,
 * SPR_MSM_REG_CPUBUSNO_VALID_OFFSET, SPR_MSM_REG_CPUBUSNO0_OFFSET, SPR_MSM_REG_CPUBUSNO4_OFFSET,
 * SPR_MSM_CPUBUSNO_MAX; pcm-iio-topology.cpp SPR_PCU_CR3_DID, SPR_CAPID4_OFFSET) */
#define DEV_MSM_DID 0x09a6
#define DEV_MSM_CPUBUSNO_VALID 0x1a0
#define DEV_MSM_CPUBUSNO0 0x190
#define DEV_MSM_CPUBUSNO4 0x1c0
#define DEV_MSM_CPUBUSES 32
#define DEV_SPR_PCU_CR3_DID 0x325b
#define DEV_SPR_CAPID4 0x94

/* An IIO stack's root bus: which stack of which die, and where the bus came from */
struct dev_stack {
	int socket, die, stack, dom, bus;
	const char *source;
	int hc; /* an accelerator (HC) stack's root bus: 1 + its place from the stack's first (dev_regs.c); 0: not */
};
struct dev_stack_list {
	struct dev_stack *v;
	int n, cap;
};
/* One more stack: 0, or -1 out of memory (said); with the list's type, as the stacks' sources (dev_stacks.c,
 * dev_regs.c) each add to it. */
static inline int dev_stack_add(struct dev_stack_list *l, const struct dev_stack *s)
{
	struct dev_stack *v = uc_grow(l->v, l->n, &l->cap, sizeof(*v), 16);
	if (!v)
		return uc_err("out of memory listing the IIO stacks' root buses");
	l->v = v;
	l->v[l->n++] = *s;
	return 0;
}
/* The root buses of the handle's IIO stacks, from the kernel's mapping attributes of fs
 * (/sys/devices/uncore_iio_<n>/die<d>), else the uncore's registers (the tree t's PCI config spaces, SKX's
 * MSR), else the simulator's: how many (0: none known), -1 out of memory. */
int dev_stacks(uncore_t *u, const struct dev_fs *fs, const struct dev_tree *t, struct dev_stack **out);
/* The stacks the uncore's registers in t's PCI configuration spaces name (dev_regs.c), added to l: 0, or -1
 * out of memory. */
int dev_regs_stacks(uncore_t *u, const struct dev_fs *fs, const struct dev_tree *t, struct dev_stack_list *l);

/* The map of u built with every file it reads kept, as memfs_text (util/memfs_text.h): 0, or -1 with a message. */
int dev_map_capture(uncore_t *u, char **text, size_t *len);

/* The sysfs directory of device i of a group ("/sys/devices/pci0000:16/0000:16:02.0/0000:17:00.0"): 0, or -1. */
int dev_map_dir(uncore_t *u, int group, int i, char *buf, size_t len);

/* The device map built and kept by the node (node/node.h NODE_DEVICES), where it is not yet: 0. */
int dev_map_build(uncore_t *u);

#endif
