/*
 * Each IIO stack's root bus.  The kernel's uncore driver shows it as /sys/devices/uncore_iio_<n>/die<d>:
 * "SSSS:BB", the segment and root bus of PMU n's stack on logical die d (skx_iio_mapping_show, from SKX's
 * CPU_BUS_NUMBER MSR 0x300 or ICX's SAD_CONTROL_CFG 0x3f4; uncore_snbep.c, Linux 6.12).  Without it, the
 * registers Linux reads are read here (ICX's: dev_regs.c; SKX's MSR); Linux 6.12 has no such attribute for
 * SPR and later, where a simulated machine's buses are the simulator's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include "dev_map.h"
#include "access/access.h"
#include "handle/handle.h"
#include "util/error.h"

struct acc {
	struct dev_stack_list l;
	int bad;
	const struct dev_fs *fs;
	uncore_t *u;
	int stack;
};

static int push(struct acc *a, const struct dev_stack *s) { return dev_stack_add(&a->l, s); }

static void die_file(void *arg, const char *name)
{
	struct acc *a = arg;
	char p[512], line[64];
	int d, end = 0, sock, die;
	unsigned seg, bus;
	if (sscanf(name, "die%d%n", &d, &end) != 1 || name[end] || d < 0)
		return;
	snprintf(p, sizeof(p), "/sys/devices/uncore_iio_%d/%s", a->stack, name);
	if (dev_fs_line(a->fs, p, line, sizeof(line)))
		return;
	if (sscanf(line, "%4x:%2x%n", &seg, &bus, &end) != 2 || line[end] || end != 7 ||
	    host_logical_die(&a->u->host, d, &sock, &die)) {
		if (!a->bad++)
			uc_warn("%s: '%.20s' is not the root bus of a die this machine has: that stack left out", p, line);
		return;
	}
	struct dev_stack s = { .socket = sock, .die = die, .stack = a->stack, .dom = (int)seg, .bus = (int)bus,
			       .source = "kernel" };
	if (push(a, &s))
		a->bad = -1000000;
}

static void iio_pmu(void *arg, const char *name)
{
	struct acc *a = arg;
	char p[512];
	int end = 0;
	/* uncore_iio_<n>, not uncore_iio_free_running_<n> */
	if (sscanf(name, "uncore_iio_%d%n", &a->stack, &end) != 1 || name[end])
		return;
	snprintf(p, sizeof(p), "/sys/devices/%s", name);
	dev_fs_list(a->fs, p, die_file, a);
}

/* Skylake-SP's CPU_BUS_NUMBER MSR, read as Linux reads it where the kernel gives no attribute (an older or
 * a stripped kernel; the direct backend): on one CPU of each die, valid when bit 63 is set, stack n's root
 * bus in bits 8n..8n+7, 6 stacks (skx_msr_cpu_bus_read, skx_iio_topology_cb, skx_uncore_iio.num_boxes;
 * SKX_MSR_CPU_BUS_NUMBER 0x300, SKX_MSR_CPU_BUS_VALID_BIT, BUS_NUM_STRIDE 8: uncore_snbep.c, Linux 6.12).
 * Bus 0 belongs to stack 0 alone (skx_iio_mapping_visible).  Segment 0: the MSR has none, and Linux takes
 * the die's (uncore_die_to_segment), which a single-segment machine has 0 of. */
/* An MSR of a CPU: the machine's (msr_backend), or in the backend's tree (a replayed node's) the value its
 * snapshot kept as "/dev/cpu/N/msr@0xREG" (a text file of the tree, in hex), which a recording tree also
 * keeps: 0, or -1.  A simulated machine's tree keeps none: its stacks are its drive's. */
static int msr_of(const struct dev_fs *fs, struct msr_backend *m, int cpu, uint32_t reg, uint64_t *v)
{
	char p[64], line[32], *end;
	struct uncore_stats st;
	snprintf(p, sizeof(p), "/dev/cpu/%d/msr@%#x", cpu, reg);
	if (fs->mem) {
		if (dev_fs_line(fs, p, line, sizeof(line)))
			return -1;
		*v = strtoull(line, &end, 16);
		return *end ? -1 : 0;
	}
	memset(&st, 0, sizeof(st));
	if (!m || msr_backend_read(m, cpu, reg, v, &st))
		return -1;
	if (fs->rec && !memfs_find(fs->rec, p)) {
		snprintf(line, sizeof(line), "%llx", (unsigned long long)*v);
		if (memfs_put(fs->rec, p, line, 0))
			((struct dev_fs *)fs)->rec_failed = 1;
	}
	return 0;
}

static void skx_bus_msr(uncore_t *u, struct acc *a)
{
	const struct host_info *h = &u->host;
	/* Skylake-SP, Cascade Lake and Cooper Lake: CPUID family 6 model 0x55 (Linux INTEL_SKYLAKE_X) */
	if (strcmp(h->vendor, "GenuineIntel") || h->family != 6 || h->model != 0x55)
		return;
	struct msr_backend *m = a->fs->mem ? NULL : msr_backend_open();
	if (!m && !a->fs->mem)
		return;
	for (int sock = 0; sock < h->nsockets; sock++)
		for (int die = 0; die < (h->socket_dies[sock] > 0 ? h->socket_dies[sock] : 1); die++) {
			uint64_t v = 0;
			if (msr_of(a->fs, m, host_die_cpu(h, sock, die), DEV_SKX_BUS_MSR, &v) || !(v & DEV_SKX_BUS_VALID))
				continue;
			for (int n = 0; n < DEV_SKX_IIO_STACKS; n++) {
				struct dev_stack d = { .socket = sock, .die = die, .stack = n, .dom = 0,
						       .bus = (int)(v >> (n * DEV_SKX_BUS_STRIDE) & 0xff), .source = "registers" };
				if ((d.bus || !n) && push(a, &d))
					a->bad = -1000000;
			}
		}
	if (m)
		msr_backend_close(m);
}

int dev_stacks(uncore_t *u, const struct dev_fs *fs, const struct dev_tree *t, struct dev_stack **out)
{
	struct acc a = { .fs = fs, .u = u };
	/* a simulated machine answers where its kernel shows no attributes (a replayed node's drive: none) */
	struct access *s = u->acc->simulated ? access_driven(u->acc, u->backend) : NULL;
	int nsock = 0, dies = 0, stacks = s ? s->ops->drive->iio_stacks(s, &nsock, &dies) : 0;
	dev_fs_list(fs, "/sys/devices", iio_pmu, &a);
	if (!a.l.n && dev_regs_stacks(u, fs, t, &a.l))
		a.bad = -1000000;
	if (!a.l.n && (!u->acc->simulated || fs->mem)) /* a replayed node: the MSR its snapshot kept */
		skx_bus_msr(u, &a);
	int kernel = a.l.n; /* the kernel's attributes (else the registers), where it has them, rule */
	for (int sock = 0; s && !kernel && sock < nsock; sock++)
		for (int die = 0; die < dies; die++)
			for (int st = 0; st < stacks; st++) {
				struct dev_stack d = { .socket = sock, .die = die, .stack = st, .dom = 0,
						       .bus = s->ops->drive->iio_root_bus(s, sock, die, st),
						       .source = "simulator" };
				if (d.bus >= 0 && push(&a, &d)) /* a board's stack without a root bus: none */
					a.bad = -1000000;
			}
	if (a.bad < 0) {
		free(a.l.v);
		return uc_err("out of memory listing the IIO stacks' root buses");
	}
	*out = a.l.v;
	return a.l.n;
}
