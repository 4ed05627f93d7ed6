/* The PCI functions of the machine, from sysfs below the sysroot (or in a replayed node's snapshot). */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "access.h"
#include "util/error.h"
#include "util/memfs.h"

struct listing {
	const struct memfs *m;
	const char *dir; /* the devices' directory, as the files' paths have it */
	struct pci_devinfo *v;
	int n, cap, oom;
};

static int read_hex_file(const struct memfs *m, const char *dir, const char *name, unsigned *val)
{
	char path[8192];
	long v;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (sys_read_long(m, path, &v) < 0 || v < 0 || v > 0xffff) /* a 16-bit id (PCI config header), not wrapped */
		return -1;
	*val = (unsigned)v;
	return 0;
}

/* The function of the directory's entry name, where it is one (0; 1 out of memory: the listing stops) */
static int add_function(void *arg, const char *name)
{
	struct listing *l = arg;
	char dir[4096 + 512];
	struct pci_devinfo di;
	unsigned ven, dev;
	if (sscanf(name, "%x:%x:%x.%x", (unsigned *)&di.loc.dom, (unsigned *)&di.loc.bus, (unsigned *)&di.loc.dev,
		   (unsigned *)&di.loc.fn) != 4)
		return 0;
	snprintf(dir, sizeof(dir), "%s/%s", l->dir, name);
	if (read_hex_file(l->m, dir, "vendor", &ven) < 0 || read_hex_file(l->m, dir, "device", &dev) < 0)
		return 0;
	di.vendor = (uint16_t)ven;
	di.device = (uint16_t)dev;
	long node = -1; /* -1 also where the firmware gives none (no SRAT/_PXM entry) */
	snprintf(dir, sizeof(dir), "%s/%s/numa_node", l->dir, name);
	di.node = sys_read_long(l->m, dir, &node) == 0 && node >= 0 && node < UC_MAX_NODES ? (int)node : -1;
	if (l->n == l->cap) {
		struct pci_devinfo *nv = realloc(l->v, (size_t)(l->cap = l->cap ? l->cap * 2 : 64) * sizeof(*nv));
		if (!nv)
			return l->oom = 1;
		l->v = nv;
	}
	l->v[l->n++] = di;
	return 0;
}

int pci_list_sysfs(struct pci_devinfo **out, int *n) { return pci_list_tree(NULL, out, n); }

int pci_list_tree(const struct memfs *m, struct pci_devinfo **out, int *n)
{
	char path[4096];
	struct listing l = { .m = m, .dir = sysroot_path_at(m ? "" : NULL, path, sizeof(path), "/sys/bus/pci/devices") };
	*out = NULL;
	*n = 0;
	if (m) {
		if (memfs_list(m, path, add_function, &l) && !l.oom && !memfs_find(m, path)) /* (empty: none) */
			return access_errno_error(ENOENT, path, "listing PCI devices");
	} else {
		DIR *d = opendir(path);
		struct dirent *e;
		if (!d)
			return access_errno_error(errno, path, "listing PCI devices");
		while (!l.oom && (e = readdir(d)))
			add_function(&l, e->d_name);
		closedir(d);
	}
	if (l.oom) {
		free(l.v);
		return uc_err("out of memory listing PCI devices");
	}
	*out = l.v;
	*n = l.n;
	return 0;
}
