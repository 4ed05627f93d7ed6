/* The PCI functions of the machine, from sysfs below the sysroot (or below a replayed node's files). */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "access.h"
#include "util/error.h"

static int read_hex_file(const char *dir, const char *name, unsigned *val)
{
	char path[8192];
	long v;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (sysroot_read_long(path, &v) < 0 || v < 0 || v > 0xffff) /* a 16-bit id (PCI config header), not wrapped */
		return -1;
	*val = (unsigned)v;
	return 0;
}

int pci_list_sysfs(struct pci_devinfo **out, int *n) { return pci_list_sysfs_at(NULL, out, n); }

int pci_list_sysfs_at(const char *root, struct pci_devinfo **out, int *n)
{
	char path[4096], dir[4096 + 512];
	DIR *d = opendir(sysroot_path_at(root, path, sizeof(path), "/sys/bus/pci/devices"));
	struct dirent *e;
	struct pci_devinfo *v = NULL;
	int cnt = 0, cap = 0;
	*out = NULL;
	*n = 0;
	if (!d)
		return access_errno_error(errno, path, "listing PCI devices");
	while ((e = readdir(d))) {
		struct pci_devinfo di;
		unsigned ven, dev;
		if (sscanf(e->d_name, "%x:%x:%x.%x", (unsigned *)&di.loc.dom, (unsigned *)&di.loc.bus,
			   (unsigned *)&di.loc.dev, (unsigned *)&di.loc.fn) != 4)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", path, e->d_name);
		if (read_hex_file(dir, "vendor", &ven) < 0 || read_hex_file(dir, "device", &dev) < 0)
			continue;
		di.vendor = (uint16_t)ven;
		di.device = (uint16_t)dev;
		long node = -1; /* -1 also where the firmware gives none (no SRAT/_PXM entry) */
		snprintf(dir, sizeof(dir), "%s/%s/numa_node", path, e->d_name);
		di.node = sysroot_read_long(dir, &node) == 0 && node >= 0 && node < UC_MAX_NODES ? (int)node : -1;
		if (cnt == cap) {
			struct pci_devinfo *nv;
			cap = cap ? cap * 2 : 64;
			nv = realloc(v, (size_t)cap * sizeof(*v));
			if (!nv) {
				free(v);
				closedir(d);
				return uc_err("out of memory listing PCI devices");
			}
			v = nv;
		}
		v[cnt++] = di;
	}
	closedir(d);
	*out = v;
	*n = cnt;
	return 0;
}
