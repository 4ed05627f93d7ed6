/*
 * The simulated machine's PCI devices behind its IIO stacks, laid out once (layout()) for both the truth
 * tests compare with (sim_pci_devices) and the sysfs tree the library reads (sim_pci_sysfs), as a kernel
 * shows it: /sys/devices/pciDDDD:BB/<root port>/<device>, functions below bridges nested in them
 * (drivers/pci/probe.c), /sys/bus/pci/devices/<bdf> a link to each.
 * The vendor and device ids are common parts' (a reader recognises them); the map does not depend on them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "sim_pcitree.h"
#include "sim_nvidia.h"
#include "sim_numa.h"
#include "sim_pcicfg.h"
#include "sim_devdma.h"
#include "util/error.h"

enum kind { K_NIC = SIM_DEV_NIC, K_IB = SIM_DEV_IB, K_NVME = SIM_DEV_NVME, K_GPU = SIM_DEV_GPU, K_DSA = SIM_DEV_DSA,
	    K_IAA = SIM_DEV_IAA, K_QAT = SIM_DEV_QAT, K_DLB = SIM_DEV_DLB, K_USB = SIM_DEV_USB, K_CBDMA = SIM_DEV_CBDMA, K_GPUSW,
	    K_EMPTY, K_VGA, K_KINDS };
/* the CBDMA is the CPU's own (sim_kind cbdma), on every machine of its kind: no item of a devices= list */
static const char *const kind_name[] = { "nic", "ib",  "nvme",  "gpu",   "dsa",   "iaa", "qat",
					 "dlb", "usb", "cbdma", "gpusw", "empty", "vga" };
static int is_accel(enum kind k) { return k >= K_DSA && k <= K_DLB; }
static int is_rcfn(enum kind k) { return is_accel(k) || k == K_USB; } /* a function of a root bus, no root port */
/* The SIM_DEV_* kind whose DMA an item's endpoints move: a switch's GPUs and a BMC's VGA a GPU's */
static int dev_kind(enum kind k) { return k == K_GPUSW || k == K_VGA ? K_GPU : (int)k; }
/* An accelerator on its HC stack (pcm-iio-topology.cpp birchStreamAcceleratorStackProbe, intel/pcm 0fae0de1): the
 * root bus it sits on (0: the stack's, 1 and 3 the ones after), its device, its counter part (SRF_DSA_IAX_PART_NUMBER
 * 0, SRF_QAT_PART_NUMBER 4, SRF_HQM_PART_NUMBER 5), ids as Intel's Birch Stream board lists them (linuxhw/LsPCI
 * b6f7d8f2 .../F71EAE46A6: DSA 0b25, IAA 0cfe, QAT 4944 class 0x0b40, DLB 2714 class 0x0b40), its driver */
static const struct {
	int bus, dev, part;
	uint16_t did;
	uint32_t cls;
	const char *driver; /* no class directory below the function: no name (as uncore devices shows them) */
} accel[] = { { 0, 1, 0, 0x0b25, 0x088000, "idxd" }, { 0, 2, 0, 0x0cfe, 0x088000, "idxd" },
	      { 1, 0, 4, 0x4944, 0x0b4000, "4xxx" }, { 3, 0, 5, 0x2714, 0x0b4000, "dlb2" } };
/* The PCH's xHCI on a board's DMI stack: 8086:1bcd at 00:14.0, class 0x0c0330 (HPE ProLiant DL380 Gen11, linuxhw/LsPCI
 * c0a4a3a6 .../47A35ED32C), a root-bus function the DMI link carries; on any other stack a USB controller below a
 * root port, as Intel's Birch Stream board has a Renesas 1912:0014 below 14:09.0 (linuxhw/LsPCI b6f7d8f2
 * .../F71EAE46A6) */
#define USB_DEV 0x14

struct item {
	enum kind k;
	int socket, stack, port;
};

/* One item of a devices= list: 0, or -1 */
static int parse_item(const char *s, size_t len, struct item *it)
{
	char buf[64], kind[16];
	int end = 0;
	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	if (sscanf(buf, "%15[a-z]@%d.%d.%d%n", kind, &it->socket, &it->stack, &it->port, &end) != 4 || buf[end] ||
	    it->socket < 0 || it->socket >= UC_MAX_SOCKETS || it->stack < 0 || it->stack > 15 || it->port < 0 ||
	    it->port >= 16)
		return -1;
	for (size_t k = 0; k < sizeof(kind_name) / sizeof(kind_name[0]); k++)
		if (k != K_CBDMA && !strcmp(kind, kind_name[k])) {
			it->k = (enum kind)k;
			return is_accel(it->k) && it->port != accel[k - K_DSA].part ? -1 : 0;
		}
	return -1;
}

#define MAX_ITEMS 32
static int parse_set(const char *v, struct item *it, int *n)
{
	*n = 0;
	if (!strcmp(v, "none"))
		return 0;
	for (const char *p = v; *p;) {
		size_t len = strcspn(p, "+");
		if (*n == MAX_ITEMS || parse_item(p, len, &it[*n]))
			return uc_err("simulator option devices=%s: '%.*s' is not KIND@SOCKET.STACK.PORT (KIND nic, ib, "
				      "nvme, gpu, gpusw, vga, usb or empty, or dsa, iaa at port 0, qat at 4, dlb at 5; at most %d items "
				      "joined by '+'), nor is the list 'none'",
				      v, (int)len, p, MAX_ITEMS);
		for (int j = 0; j < *n; j++)
			if (it[j].socket == it[*n].socket && it[j].stack == it[*n].stack && it[j].port == it[*n].port &&
			    (it[j].k == it[*n].k || !(is_rcfn(it[j].k) || is_rcfn(it[*n].k))))
				return uc_err("simulator option devices=%s: port %d.%d.%d named twice (a port holding "
					      "several devices is a gpusw)", v, it[j].socket, it[j].stack, it[j].port);
		(*n)++;
		p += len + (p[len] == '+');
	}
	return 0;
}

int sim_devices_option(struct sim *s, const char *v)
{
	struct item it[MAX_ITEMS];
	int n;
	if (strlen(v) >= sizeof(s->devset))
		return uc_err("simulator option devices= is longer than %zu characters", sizeof(s->devset) - 1);
	if (parse_set(v, it, &n))
		return -1;
	snprintf(s->devset, sizeof(s->devset), "%s", v);
	return 0;
}

int sim_iio_stacks(const struct sim *s)
{
	int n = 0;
	for (int i = 0; i < s->nboxes; i++)
		n += !strcmp(s->boxes[i].u->name, "iio") && !s->boxes[i].socket && !s->boxes[i].die;
	return n;
}

const struct sim_board *sim_board_of(const struct sim *s)
{
	const struct sim_board *b = s->kind->board;
	if (!b || s->dies != 1 || s->nsockets > 2)
		return NULL;
	return s->nsockets == 1 && b->one_socket ? b->one_socket : b;
}

int sim_board_ubox_bus(const struct sim *s, int socket)
{
	const struct sim_board *b = sim_board_of(s);
	if (!b || socket < 0 || socket >= s->nsockets)
		return -1;
	return b->ubox[socket] ? b->ubox[socket] : 0x80 * socket + 0x7e;
}

/* The board's entry of IIO PMU stack, or NULL */
static const struct sim_board_stack *board_stack(const struct sim *s, int stack)
{
	const struct sim_board *b = sim_board_of(s);
	for (int i = 0; b && i < b->nstacks; i++)
		if (b->stacks[i].pmu == stack)
			return &b->stacks[i];
	return NULL;
}

/* The stack whose root bus is bus 0 on socket 0: the one with the DMI link to the chipset.  Linux's
 * mapping attributes show bus 0 for that PMU alone: SKX pmu_idx 0 (skx_iio_mapping_visible), ICX 5
 * (icx_iio_mapping_visible, ICX_CBDMA_DMI_PMON_ID; uncore_snbep.c, Linux 6.12); a board's, its own. */
static int dmi_stack(const struct sim *s)
{
	if (sim_board_of(s))
		return sim_board_of(s)->dmi_pmu;
	return s->kind->dmi_pmu;
}

/* Buses between one stack's root bus and the next's (PCI's 256 buses shared out, at most 0x20 a stack) */
static int bus_step(const struct sim *s)
{
	int total = sim_iio_stacks(s) * s->nsockets * s->dies, step = total > 0 ? 0x100 / total : 0x20;
	return step > 0x20 ? 0x20 : step;
}

/* Where the stack's root bus is: the device tree's (the shown one may be wrong, sim_iio_root_bus) */
int sim_iio_tree_bus(const struct sim *s, int socket, int die, int stack)
{
	int nst = sim_iio_stacks(s), dmi = dmi_stack(s);
	if (nst <= 0 || socket < 0 || socket >= s->nsockets || die < 0 || die >= s->dies || stack < 0 || stack >= nst)
		return -1;
	if (sim_board_of(s)) { /* each socket's bus as the board lists it */
		const struct sim_board_stack *b = board_stack(s, stack);
		return b ? b->bus[socket] : -1;
	}
	/* the DMI stack first on each die, the others in box order after it */
	int place = (stack - (dmi < nst ? dmi : 0) + nst) % nst;
	return ((socket * s->dies + die) * nst + place) * bus_step(s);
}

int sim_iio_root_bus(const struct sim *s, int socket, int die, int stack)
{
	int a = s->stack_swap - 1; /* fault swapped:stackmap: stacks a and a + 1 trade buses */
	if (s->stack_swap && (stack == a || stack == a + 1) && a + 1 < sim_iio_stacks(s))
		stack = stack == a ? a + 1 : a;
	return sim_iio_tree_bus(s, socket, die, stack);
}

/* Buses a kind takes below its root port */
static int kind_buses(enum kind k) { return k == K_GPUSW ? 4 : k == K_VGA ? 2 : k == K_EMPTY || is_accel(k) ? 0 : 1; }

/* The buses a stack's devices may take after its root bus: up to the next stack's (a board's: up to the next
 * root bus of the socket, or the socket's UBox bus, sim_board_ubox_bus) */
static int stack_span(const struct sim *s, int socket, int root)
{
	const struct sim_board *b = sim_board_of(s);
	if (!b)
		return bus_step(s);
	int end = sim_board_ubox_bus(s, socket);
	for (int i = 0; i < b->nstacks; i++) {
		int x = b->stacks[i].bus[socket];
		if (x > root && x < end)
			end = x;
	}
	return end - root;
}

struct out {
	const struct sim *s;
	struct sim_pcidev *dev;
	int ndev, max;
	struct memfs *m;
	int counts[K_KINDS]; /* names handed out per kind */
	int epdev, epfn;     /* the device and function number of the next endpoint (0 but on a root bus) */
};

static int put(struct out *o, const char *dir, const char *file, const char *text, int link)
{
	char p[1024];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	if (o->m && sim_pci_gone(o->s, p))
		return 0; /* a function removed (changes=FILE), or one below it */
	if (o->m && memfs_put(o->m, p, text, link))
		return uc_err("out of memory");
	return 0;
}

/* One function's directory below parent and its attributes */
static int function(struct out *o, const char *parent, int bus, int dev, int fn, uint16_t ven, uint16_t did,
		    uint32_t cls, const char *driver, int node, char *dir, size_t len)
{
	char bdf[32], t[64], link[96];
	int rc;
	snprintf(bdf, sizeof(bdf), "0000:%02x:%02x.%d", bus, dev, fn);
	snprintf(dir, len, "%s/%s", parent, bdf);
	snprintf(t, sizeof(t), "0x%04x", ven);
	rc = put(o, dir, "vendor", t, 0);
	snprintf(t, sizeof(t), "0x%04x", did);
	rc = rc ? rc : put(o, dir, "device", t, 0);
	snprintf(t, sizeof(t), "0x%06x", cls);
	rc = rc ? rc : put(o, dir, "class", t, 0);
	snprintf(t, sizeof(t), "%d", node);
	rc = rc ? rc : put(o, dir, "numa_node", t, 0);
	snprintf(link, sizeof(link), "../../../bus/pci/drivers/%s", driver);
	rc = rc || !*driver ? rc : put(o, dir, "driver", link, 1); /* "": a function no driver has taken */
	if (!rc && o->m && !sim_pci_gone(o->s, dir)) { /* /sys/bus/pci/devices/<bdf>: the kernel's link to its directory */
		snprintf(link, sizeof(link), "/sys/bus/pci/devices/%s", bdf);
		rc = memfs_put(o->m, link, dir, 1) ? uc_err("out of memory") : 0;
	}
	return rc;
}

/* The platform's uncore register functions on stack st's root bus (sim_kind root_fns), as the real board lists
 * them; none where a simulated root port takes the device number (below or at its highest port, top) */
static int root_functions(struct out *o, int sock, int st, int root, int top, const char *rootdir)
{
	const struct sim *s = o->s;
	char dir[512], t[16], link[64];
	for (const struct sim_root_fn *r = s->kind->root_fns; r && r->did; r++)
		for (int fn = r->fn0; r->stack == st && fn <= r->fn1; fn++) {
			int taken = 0;
			for (int port = 0; port <= top; port++)
				taken |= sim_root_port_dev(s, port) == r->dev;
			if (taken)
				continue;
			snprintf(dir, sizeof(dir), "%s/0000:%02x:%02x.%d", rootdir, root, r->dev, fn);
			snprintf(t, sizeof(t), "0x%04x", (unsigned)(r->did + r->inc * (fn - r->fn0)));
			int rc = put(o, dir, "vendor", "0x8086", 0) || put(o, dir, "device", t, 0);
			snprintf(t, sizeof(t), "0x%06x", (unsigned)r->cls);
			rc = rc || put(o, dir, "class", t, 0);
			snprintf(t, sizeof(t), "%d", sim_stack_node(s, sock, 0, st));
			rc = rc || put(o, dir, "numa_node", t, 0);
			snprintf(link, sizeof(link), "/sys/bus/pci/devices/0000:%02x:%02x.%d", root, r->dev, fn);
			if (rc || (o->m && memfs_put(o->m, link, dir, 1)))
				return uc_err("out of memory");
		}
	return 0;
}

/* What holds a kind's endpoints below their root port, as the library's map names it (uncore.h behind): a switch's
 * upstream port holds a gpusw's GPUs, a BMC's PCIe-to-PCI bridge its VGA */
static const char *behind_of(enum kind k) { return k == K_GPUSW ? "a PCIe switch" : k == K_VGA ? "a PCIe-to-PCI bridge" : ""; }

/* An endpoint: its function, its name, and its row of the truth */
static int endpoint(struct out *o, const struct item *it, int die, const char *parent, int bus, uint16_t ven,
		    uint16_t did, uint32_t cls, const char *driver, const char *sub, const char *fmt, int sw)
{
	char dir[512], name[24];
	int node = sim_stack_node(o->s, it->socket, die, it->stack);
	snprintf(name, sizeof(name), fmt, o->counts[dev_kind(it->k)]++);
	if (function(o, parent, bus, o->epdev, o->epfn, ven, did, cls, driver, node, dir, sizeof(dir)))
		return -1;
	char f[64];
	snprintf(f, sizeof(f), "%s/%s/dev", sub, name); /* a directory of the class device, as net/ens1f0/ (none: no name) */
	if (*name && put(o, dir, f, "0:0", 0))
		return -1;
	int shown = o->m && !sim_pci_gone(o->s, dir); /* (a function removed: changes=FILE) */
	/* its own byte counters, made at read time (sim_devcount.c) */
	if (shown && sim_dev_counter_files(o->s, o->m, dir, dev_kind(it->k), name, o->ndev))
		return uc_err("out of memory");
	if (!strcmp(driver, "nvidia") && shown) { /* the driver's own file of the GPU (its minor: its card number) */
		char p[96], bdf[16], info[512];
		snprintf(bdf, sizeof(bdf), "0000:%02x:00.0", bus);
		snprintf(p, sizeof(p), "/proc/driver/nvidia/gpus/%s/information", bdf);
		if (sim_nvidia_info(info, sizeof(info), bdf, o->counts[K_GPU] - 1) || memfs_put(o->m, p, info, 0))
			return uc_err("out of memory");
	}
	if (o->dev && o->ndev < o->max) {
		struct sim_pcidev *d = &o->dev[o->ndev];
		memset(d, 0, sizeof(*d));
		d->socket = it->socket, d->die = die, d->stack = it->stack, d->port = it->port;
		snprintf(d->bdf, sizeof(d->bdf), "0000:%02x:%02x.%d", bus, o->epdev, o->epfn);
		d->vendor = ven, d->device = did, d->class_code = cls, d->driver = driver;
		snprintf(d->name, sizeof(d->name), "%s", name);
		d->behind_switch = sw, d->node = node, d->behind = behind_of(it->k);
		d->kind = dev_kind(it->k);
	}
	o->ndev++;
	return 0;
}

/* Ice Lake-SP's PCH on socket 0's CBDMA/DMI stack, bus 00, as a Lenovo SR630 V2 lists it (linuxhw/LsPCI 28198bc0,
 * platforms/icx/board.c): no root port of the CPU's there (00:00.0 is 8086:09a2), the C620's own root port
 * 00:1c.0 (8086:a190) with a device below it, on the stack's last bus; here an I210 NIC (8086:1533, igb), as
 * boards put their LOM NIC behind the PCH.  All of it crosses the DMI link: port 0 (dev_ports.c). */
static int icx_pch(struct out *o)
{
	const struct sim *s = o->s;
	int root = sim_iio_tree_bus(s, 0, 0, dmi_stack(s)), bus = root + stack_span(s, 0, root) - 1;
	char rootdir[64], rp[512];
	struct item it = { .k = K_NIC, .socket = 0, .stack = dmi_stack(s), .port = 0 };
	snprintf(rootdir, sizeof(rootdir), "/sys/devices/pci0000:%02x", root);
	if (function(o, rootdir, root, 0x1c, 0, 0x8086, 0xa190, 0x060400, "pcieport", sim_stack_node(s, 0, 0, it.stack), rp,
		     sizeof(rp)))
		return -1;
	return endpoint(o, &it, 0, rp, bus, 0x8086, 0x1533, 0x020000, "igb", "net", "eno%d", 0);
}

/* The devices of item i below root port rp (bus next on): 0, or -1 */
static int below_port(struct out *o, const struct item *it, const char *rp, int next, int node)
{
	char up[512], dn[512];
	switch (it->k) {
	case K_NIC:
		return endpoint(o, it, 0, rp, next, 0x8086, 0x1592, 0x020000, "ice", "net", "ens%df0", 0);
	case K_IB:
		return endpoint(o, it, 0, rp, next, 0x15b3, 0x101b, 0x020700, "mlx5_core", "infiniband", "mlx5_%d", 0);
	case K_NVME:
		return endpoint(o, it, 0, rp, next, 0x144d, 0xa80a, 0x010802, "nvme", "nvme", "nvme%d", 0);
	case K_GPU:
		return endpoint(o, it, 0, rp, next, 0x10de, 0x2330, 0x030200, "nvidia", "drm", "card%d", 0);
	case K_GPUSW: /* upstream port, two downstream ports, a GPU below each */
		if (function(o, rp, next, 0, 0, 0x1000, 0xc030, 0x060400, "pcieport", node, up, sizeof(up)))
			return -1;
		for (int d = 0; d < 2; d++)
			if (function(o, up, next + 1, d, 0, 0x1000, 0xc030, 0x060400, "pcieport", node, dn, sizeof(dn)) ||
			    endpoint(o, it, 0, dn, next + 2 + d, 0x10de, 0x2330, 0x030200, "nvidia", "drm", "card%d", 1))
				return -1;
		return 0;
	case K_VGA: /* a BMC's video as Intel's Birch Stream board lists it below 14:08.0 (linuxhw/LsPCI b6f7d8f2
		     * .../F71EAE46A6): the ASPEED AST1150 PCIe-to-PCI bridge 1a03:1150 (no driver) and the AST VGA
		     * 1a03:2000 (class 0x0300, ast) on the bus after it */
		if (function(o, rp, next, 0, 0, 0x1a03, 0x1150, 0x060400, "", node, up, sizeof(up)))
			return -1;
		return endpoint(o, it, 0, up, next + 1, 0x1a03, 0x2000, 0x030000, "ast", "drm", "card%d", 0);
	case K_USB: /* a USB controller below a root port (not the DMI stack's): Birch Stream's 19:00.0 */
		return endpoint(o, it, 0, rp, next, 0x1912, 0x0014, 0x0c0330, "xhci_hcd", "", "", 0);
	default:
		return 0;
	}
}

/* An accelerator stack's items: root-complex endpoints on its root bus and the ones after it (their own root
 * buses, as the Birch Stream board lists QAT and DLB), no root port */
static int hc_stack(struct out *o, const struct item *it, int n, int sock, int st, int root, const char *rootdir)
{
	for (int i = 0; i < n; i++) {
		if (it[i].socket != sock || it[i].stack != st)
			continue;
		if (!is_accel(it[i].k))
			return uc_err("simulator option devices=: %s@%d.%d.%d: stack %d is an accelerator stack, which has no "
				      "root port (dsa, iaa, qat, dlb only)", kind_name[it[i].k], sock, st, it[i].port, st);
		int a = it[i].k - K_DSA, bus = root + accel[a].bus;
		char dir[64];
		snprintf(dir, sizeof(dir), "/sys/devices/pci0000:%02x", bus);
		if (accel[a].bus && put(o, dir, "uevent", "", 0))
			return -1;
		o->epdev = accel[a].dev;
		int rc = endpoint(o, &it[i], 0, accel[a].bus ? dir : rootdir, bus, 0x8086, accel[a].did, accel[a].cls,
				  accel[a].driver, "", "", 0);
		o->epdev = 0;
		if (rc)
			return -1;
	}
	return 0;
}

/* The DMA engines on the DMI stack's root bus (sim_kind cbdma: Ice Lake-SP's 8086:0b00 at 01.0-7 of each
 * socket's, ioatdma, as the Lenovo SR650 V2 lists them at 00:01.x and 80:01.x, platforms/icx/board.c): each an
 * endpoint with no root port above it, its DMA at the kind's part of that stack */
static int cbdma(struct out *o, int sock, int st, int root, const char *rootdir)
{
	const struct sim_cbdma *c = o->s->kind->cbdma;
	struct item it = { .k = K_CBDMA, .socket = sock, .stack = st, .port = c ? c->part : 0 };
	for (int fn = 0; c && st == dmi_stack(o->s) && fn < c->nfn; fn++) {
		o->epdev = c->dev, o->epfn = fn;
		int rc = endpoint(o, &it, 0, rootdir, root, 0x8086, c->did, 0x088000, "ioatdma", "", "", 0);
		o->epdev = o->epfn = 0;
		if (rc)
			return -1;
	}
	return 0;
}

/* One stack's root ports and what is below them (a board's DMI stack: the PCH's root port alone, its items at
 * the DMI part) */
static int pcie_stack(struct out *o, const struct item *it, int n, int sock, int st, int root, const char *rootdir)
{
	const struct sim *s = o->s;
	const struct sim_board *b = sim_board_of(s);
	int dmi = b && b->pch_port_dev && st == b->dmi_pmu && sock == 0, next = root + 1, top = dmi ? b->dmi_part : -1;
	int node = sim_stack_node(s, sock, 0, st);
	/* root ports 0 up to the highest one used, in order (those below it empty): a port's place among its
	 * stack's root ports is its number */
	for (int i = 0; i < n; i++)
		if (it[i].socket == sock && it[i].stack == st) {
			if (is_accel(it[i].k) || (dmi && it[i].port != b->dmi_part))
				return uc_err("simulator option devices=: %s@%d.%d.%d: %s", kind_name[it[i].k], sock, st,
					      it[i].port, is_accel(it[i].k) ? "an accelerator sits on an accelerator stack" :
					      "the DMI stack's devices sit behind the PCH, at its one counter port");
			top = it[i].port > top ? it[i].port : top;
		}
	if (root_functions(o, sock, st, root, top, rootdir) || cbdma(o, sock, st, root, rootdir))
		return -1;
	for (int i = 0; dmi && i < n; i++) /* the PCH's USB controller on the root bus */
		if (it[i].socket == sock && it[i].stack == st && it[i].k == K_USB) {
			o->epdev = USB_DEV;
			int rc = endpoint(o, &it[i], 0, rootdir, root, 0x8086, 0x1bcd, 0x0c0330, "xhci_hcd", "", "", 0);
			o->epdev = 0;
			if (rc)
				return -1;
		}
	for (int port = dmi ? b->dmi_part : 0; port <= top; port++) {
		int named = dmi;
		for (int i = 0; i < n; i++)
			named |= it[i].socket == sock && it[i].stack == st && it[i].port == port;
		if (b && !named)
			continue; /* a board has the root ports it lists, no others */
		/* the root port: function 0 of the stack's root bus, at its port's device (the PCH's: 8086:1bbd, HPE
		 * ProLiant DL380 Gen11, linuxhw/LsPCI c0a4a3a6 .../47A35ED32C) */
		int dev = dmi ? b->pch_port_dev : sim_root_port_dev(s, port);
		char rp[512];
		if (function(o, rootdir, root, dev, 0, 0x8086, dmi ? 0x1bbd : 0x352a, 0x060400, "pcieport", node, rp, sizeof(rp)))
			return -1;
		for (int i = 0; i < n; i++) {
			if (it[i].socket != sock || it[i].stack != st || it[i].port != port || (dmi && it[i].k == K_USB))
				continue;
			int need = kind_buses(it[i].k);
			int pch = s->kind->pch_nic && !sock && st == dmi_stack(s); /* icx_pch's bus */
			if (next + need > root + stack_span(s, sock, root) - pch)
				return uc_err("simulator option devices=: stack %d.%d has not the buses for its devices (%d a "
					      "stack on this machine)", sock, st, stack_span(s, sock, root) - 1);
			if (below_port(o, &it[i], rp, next, node))
				return -1;
			next += need;
		}
	}
	return 0;
}

/* Class codes: PCI Code and ID Assignment Specification (Linux pci_ids.h PCI_CLASS_*, shifted by 8 with
 * the programming interface): Ethernet 0x0200, InfiniBand 0x0207, NVMe 0x0108 prog-if 2, 3D controller
 * 0x0302, PCI bridge 0x0604. */
static int layout(struct out *o)
{
	const struct sim *s = o->s;
	const struct sim_board *b = sim_board_of(s);
	struct item it[MAX_ITEMS];
	int n, nst = sim_iio_stacks(s);
	if (parse_set(s->devset[0] ? s->devset : b && b->devices ? b->devices : SIM_DEVICES_DEFAULT, it, &n))
		return -1;
	if (!s->devset[0]) { /* the default set: the items on sockets and stacks the machine has (none without IIO) */
		int k = 0;
		for (int i = 0; i < n; i++)
			if (it[i].socket < s->nsockets && it[i].stack < nst && sim_iio_tree_bus(s, it[i].socket, 0, it[i].stack) >= 0)
				it[k++] = it[i];
		n = k;
	}
	for (int sock = 0; sock < s->nsockets; sock++)
		for (int st = 0; st < nst; st++) {
			int root = sim_iio_tree_bus(s, sock, 0, st);
			char rootdir[64];
			if (root < 0)
				continue; /* a board's PMU with no root bus */
			snprintf(rootdir, sizeof(rootdir), "/sys/devices/pci0000:%02x", root);
			if (put(o, rootdir, "uevent", "", 0) || /* the host bridge, with a function below it or not */
			    (o->m && sim_pcicfg_root(s, o->m, sock, st, rootdir))) /* its registers (sim_pcicfg.c) */
				return -1;
			const struct sim_board_stack *bs = board_stack(s, st);
			if ((bs && bs->hc ? hc_stack : pcie_stack)(o, it, n, sock, st, root, rootdir))
				return -1;
		}
	if (s->kind->pch_nic && nst > dmi_stack(s) && icx_pch(o))
		return -1;
	for (int i = 0; i < n; i++)
		if (it[i].socket >= s->nsockets || it[i].stack >= nst || sim_iio_tree_bus(s, it[i].socket, 0, it[i].stack) < 0)
			return uc_err("simulator option devices=: %s@%d.%d.%d names a stack the machine has not (%d "
				      "socket(s), %d IIO stacks each%s)", kind_name[it[i].k], it[i].socket, it[i].stack,
				      it[i].port, s->nsockets, nst, b ? ", those with a root bus on the board it is laid out as" : "");
	return 0;
}

int sim_pci_devices(const struct sim *s, struct sim_pcidev *out, int max)
{
	struct out o = { .s = s, .dev = out, .max = max };
	return layout(&o) ? -1 : o.ndev;
}

int sim_pci_sysfs(const struct sim *s, struct memfs *m)
{
	struct out o = { .s = s, .m = m };
	if (layout(&o))
		return -1;
	/* the uncore driver's stack-to-bus attributes where Linux 6.12 has them: SKX (skx_iio_set_mapping, its
	 * CPU_BUS_NUMBER MSR) and ICX (icx_iio_set_mapping, SAD_CONTROL_CFG); none on SPR and later (no
	 * set_mapping for spr_uncore_iio), whose buses come from the simulator (uncore_snbep.c) */
	if (!s->kind->iio_regs || !s->kind->iio_regs->mapping || s->iio_mapping_off)
		return 0;
	for (int sock = 0; sock < s->nsockets; sock++)
		for (int st = 0; st < sim_iio_stacks(s); st++) {
			char p[96], t[16];
			int bus = sim_iio_root_bus(s, sock, 0, st);
			if (bus < 0 || (!bus && st != dmi_stack(s)))
				continue; /* pmu_iio_mapping_visible: bus 0 shown for the DMI stack alone (a board's stack with no
					   * root bus, as Ice Lake-SP's MCP stack: none found, 0) */
			snprintf(p, sizeof(p), "/sys/devices/uncore_iio_%d/die%d", st, sock * s->dies);
			snprintf(t, sizeof(t), "%04x:%02x", 0, bus); /* skx_iio_mapping_show: "%04x:%02x\n" */
			if (memfs_put(m, p, t, 0))
				return uc_err("out of memory");
		}
	return 0;
}
