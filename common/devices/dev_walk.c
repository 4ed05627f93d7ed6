/*
 * The kernel's PCI device tree as sysfs shows it: /sys/devices/pciDDDD:BB is a host bridge's root bus, and a
 * function's directory ("DDDD:BB:DD.F") holds the directories of the functions below it when it is a bridge
 * (drivers/pci/probe.c makes each device the child of its bus's bridge).  Only real directories are walked,
 * never a link, so a loop planted in the tree is not followed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dev_map.h"
#include "access/access.h"
#include "util/error.h"
#include "util/grow.h"

/* "DDDD:BB:DD.F" exactly, as the kernel names a function (pci_setup_device: dev_set_name "%04x:%02x:%02x.%d") */
static int parse_bdf(const char *s, int *dom, int *bus, int *dev, int *fn)
{
	int end = 0;
	unsigned d, b, v, f;
	if (sscanf(s, "%4x:%2x:%2x.%1u%n", &d, &b, &v, &f, &end) != 4 || s[end] || end != 12 || v > 31 || f > 7)
		return -1;
	*dom = (int)d, *bus = (int)b, *dev = (int)v, *fn = (int)f;
	return 0;
}

/* A hex id file (vendor, device: "0x8086"; class: "0x020000") within max: the value, or -1 */
static long read_hex(const struct dev_fs *fs, const char *dir, const char *file, long max)
{
	char p[4096], line[64], *end;
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	if (dev_fs_line(fs, p, line, sizeof(line)))
		return -1;
	long v = strtol(line, &end, 16);
	if (end == line || *end || v < 0 || v > max) {
		uc_warn("%s: '%.20s' is not a hexadecimal id up to 0x%lx: taken as unknown", p, line, max);
		return -1;
	}
	return v;
}

/* The first entry of dir/sub whose name starts with prefix ("" any): what a person calls the device */
static int first_entry(const struct dev_fs *fs, const char *dir, const char *sub, const char *prefix, char *out,
		       size_t len)
{
	char p[4096 + 64];
	struct dev_names l;
	snprintf(p, sizeof(p), "%s/%s", dir, sub);
	if (dev_fs_names(fs, p, &l))
		return -1;
	int rc = -1;
	for (int i = 0; i < l.n && rc; i++)
		if (!strncmp(l.v[i], prefix, strlen(prefix)) && strlen(l.v[i]) < len) {
			strcpy(out, l.v[i]);
			rc = 0;
			char q[4096 + 64 + 256];
			snprintf(q, sizeof(q), "%s/%s", p, l.v[i]);
			dev_fs_keep_dir(fs, q); /* the name, for a snapshot */
		}
	free(l.v);
	return rc;
}

/* The names Linux gives what the driver made of the function: a network interface (net/), an InfiniBand
 * device (infiniband/), an NVMe controller (nvme/nvmeN), a DRM card (drm/cardN) or an accelerator (accel/) */
static void person_name(const struct dev_fs *fs, const char *dir, char *out, size_t len)
{
	static const struct { const char *sub, *prefix; } w[] = {
		{ "net", "" }, { "infiniband", "" }, { "nvme", "nvme" }, { "drm", "card" }, { "accel", "accel" },
	};
	out[0] = 0;
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!first_entry(fs, dir, w[i].sub, w[i].prefix, out, len))
			return;
}

static int add_node(struct dev_tree *t, const struct dev_node *n)
{
	struct dev_node *v = uc_grow(t->v, t->n, &t->cap, sizeof(*v), 64);
	if (!v)
		return uc_err("out of memory listing the PCI device tree");
	t->v = v;
	t->v[t->n++] = *n;
	return 0;
}

struct walk {
	const struct dev_fs *fs;
	struct dev_tree *t;
	int root_dom, root_bus, deep_said;
};

static int walk_dir(struct walk *w, const char *dir, int parent, int depth)
{
	struct dev_names l;
	char p[4096];
	int rc = 0;
	if (dev_fs_names(w->fs, dir, &l))
		return 0; /* vanished while walked (hot unplug): nothing below */
	for (int i = 0; i < l.n && !rc; i++) {
		struct dev_node n;
		memset(&n, 0, sizeof(n));
		if (parse_bdf(l.v[i], &n.dom, &n.bus, &n.dev, &n.fn))
			continue; /* an attribute, or a subsystem's directory */
		snprintf(p, sizeof(p), "%s/%s", dir, l.v[i]);
		if (!dev_fs_is_dir(w->fs, p)) {
			uc_warn("%s: not a directory (a link?): not followed, the devices below it left out", p);
			continue;
		}
		if (depth >= DEV_MAX_DEPTH) {
			if (!w->deep_said++)
				uc_warn("%s: more than %d bridges deep, deeper than a real PCIe tree: what lies below "
					"left out", p, DEV_MAX_DEPTH);
			continue;
		}
		snprintf(n.d.bdf, sizeof(n.d.bdf), "%s", l.v[i]);
		long ven = read_hex(w->fs, p, "vendor", 0xffff), dev = read_hex(w->fs, p, "device", 0xffff);
		n.d.vendor = ven < 0 ? 0 : (unsigned)ven;
		n.d.device = dev < 0 ? 0 : (unsigned)dev;
		n.d.class_code = read_hex(w->fs, p, "class", 0xffffff);
		char line[64], *end, q[4096 + 16];
		snprintf(q, sizeof(q), "%s/numa_node", p);
		n.d.numa_node = -1;
		if (!dev_fs_line(w->fs, q, line, sizeof(line))) {
			long v = strtol(line, &end, 10);
			if (end == line || *end || v < -1 || v >= UC_MAX_NODES)
				uc_warn("%s: '%.20s' is not a NUMA node: taken as unknown", q, line);
			else
				n.d.numa_node = (int)v;
		}
		snprintf(q, sizeof(q), "%s/driver", p);
		if (dev_fs_link_name(w->fs, q, n.d.driver, sizeof(n.d.driver)))
			n.d.driver[0] = 0;
		person_name(w->fs, p, n.d.name, sizeof(n.d.name));
		n.root_dom = w->root_dom;
		n.root_bus = w->root_bus;
		n.parent = parent;
		n.bridge = n.d.class_code >= 0 && (n.d.class_code >> 8) == 0x0604; /* PCI_CLASS_BRIDGE_PCI (pci_ids.h) */
		rc = add_node(w->t, &n);
		if (!rc)
			rc = walk_dir(w, p, w->t->n - 1, depth + 1);
	}
	free(l.v);
	return rc;
}

/* A function the kernel lists (/sys/bus/pci/devices) that no walk from a root bus reached: its parent is
 * missing (a link left dangling, a tree cut short): said, as it is left out of the map. */
static void said_unreached(const struct dev_fs *fs, const struct dev_tree *t)
{
	struct dev_names l;
	int dom, bus, dev, fn, said = 0;
	if (dev_fs_names(fs, "/sys/bus/pci/devices", &l))
		return;
	for (int i = 0; i < l.n; i++) {
		int found = 0;
		if (parse_bdf(l.v[i], &dom, &bus, &dev, &fn))
			continue;
		for (int j = 0; j < t->n && !found; j++)
			found = !strcmp(t->v[j].d.bdf, l.v[i]);
		if (!found && said++ < 8)
			uc_warn("PCI device %s is listed in /sys/bus/pci/devices but is below no root bus (its "
				"parent is missing): left out of the device map", l.v[i]);
	}
	free(l.v);
}

int dev_walk(const struct dev_fs *fs, struct dev_tree *t)
{
	struct dev_names roots;
	struct walk w = { .fs = fs, .t = t };
	char p[512];
	int rc = 0;
	memset(t, 0, sizeof(*t));
	if (dev_fs_names(fs, "/sys/devices", &roots))
		return fs->mem ? 0 /* a simulated machine without a device */ : uc_err("/sys/devices cannot be listed: no sysfs mounted (mount -t sysfs sysfs /sys)");
	for (int i = 0; i < roots.n && !rc; i++) {
		unsigned dom, bus;
		int end = 0;
		/* a host bridge's device: "pci%04x:%02x" (drivers/pci/probe.c pci_register_host_bridge) */
		if (sscanf(roots.v[i], "pci%4x:%2x%n", &dom, &bus, &end) != 2 || roots.v[i][end] || end != 10)
			continue;
		snprintf(p, sizeof(p), "/sys/devices/%s", roots.v[i]);
		w.root_dom = (int)dom;
		w.root_bus = (int)bus;
		rc = walk_dir(&w, p, -1, 0);
	}
	free(roots.v);
	if (!rc)
		said_unreached(fs, t);
	if (rc) {
		free(t->v);
		memset(t, 0, sizeof(*t));
	}
	return rc;
}
