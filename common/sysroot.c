/* Paths below UNCORE_SYSROOT, host discovery from sysfs, and errno -> advice. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "access.h"
#include "error.h"

const char *sysroot_path(char *buf, size_t len, const char *fmt, ...)
{
	const char *root = getenv("UNCORE_SYSROOT");
	size_t n;
	va_list ap;
	if (!root || !*root || !strcmp(root, "/"))
		root = "";
	n = (size_t)snprintf(buf, len, "%s", root);
	if (n >= len)
		n = len - 1;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
	return buf;
}

int access_errno_error(int err, const char *path, const char *what)
{
	switch (err) {
	case ENOENT:
	case ENXIO:
	case ENODEV:
		if (strstr(path, "/dev/cpu/"))
			return uc_err("%s: %s does not exist: load the msr module (modprobe msr) "
				      "or install msr-safe", what, path);
		return uc_err("%s: %s does not exist: the device is not present on this machine", what, path);
	case EACCES:
	case EPERM:
		if (strstr(path, "/dev/cpu/"))
			return uc_err("%s: permission denied on %s: needs root or CAP_SYS_RAWIO "
				      "(or an msr-safe allowlist granting these registers)", what, path);
		return uc_err("%s: permission denied on %s: needs root (PCI config space above "
			      "64 bytes and MMIO are root-only)", what, path);
	case EIO:
		return uc_err("%s: I/O error on %s: the register is not implemented on this CPU, "
			      "or a hypervisor blocks it", what, path);
	default:
		return uc_err("%s: %s: %s", what, path, strerror(err));
	}
}

static int read_int_file(const char *path, long *val)
{
	FILE *f = fopen(path, "r");
	int ok;
	if (!f)
		return -1;
	ok = fscanf(f, "%li", val) == 1;
	fclose(f);
	return ok ? 0 : -1;
}

static double brand_ghz(const char *v)
{
	const char *at = strrchr(v, '@');
	return at ? strtod(at + 1, NULL) : 0;
}

int host_from_sysfs(struct host_info *h)
{
	char path[4096], line[512];
	FILE *f;
	memset(h, 0, sizeof(*h));
	f = fopen(sysroot_path(path, sizeof(path), "/proc/cpuinfo"), "r");
	if (!f)
		return access_errno_error(errno, path, "reading the CPU identity");
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		if (!strncmp(line, "vendor_id", 9) && !h->vendor[0])
			sscanf(v, " %15s", h->vendor);
		else if (!strncmp(line, "cpu family", 10) && !h->family)
			h->family = atoi(v);
		else if (!strncmp(line, "model\t", 6) && !h->model)
			h->model = atoi(v);
		else if (!strncmp(line, "model name", 10) && !h->tsc_hz && strstr(v, "GHz"))
			h->tsc_hz = brand_ghz(v) * 1e9; /* Intel brand strings end "@ 2.70GHz": the TSC rate */
		else if (!strncmp(line, "flags", 5) && strstr(v, " hypervisor"))
			h->hypervisor = 1;
	}
	fclose(f);
	for (int i = 0; i < UC_MAX_SOCKETS; i++)
		h->socket_cpu[i] = -1;
	for (int cpu = 0; cpu < 4096; cpu++) {
		long pkg, online = 1;
		sysroot_path(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		if (read_int_file(path, &pkg) < 0) {
			sysroot_path(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
			if (access(path, F_OK) == 0)
				continue; /* offline CPUs have no topology directory */
			break;
		}
		sysroot_path(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
		read_int_file(path, &online);
		if (pkg < 0 || pkg >= UC_MAX_SOCKETS || !online)
			continue;
		if (h->socket_cpu[pkg] < 0)
			h->socket_cpu[pkg] = cpu;
		h->socket_cores[pkg]++;
		if (pkg + 1 > h->nsockets)
			h->nsockets = (int)pkg + 1;
	}
	if (h->nsockets == 0)
		return uc_err("no CPU topology found under %s", sysroot_path(path, sizeof(path), "/sys/devices/system/cpu"));
	for (int s = 0; s < h->nsockets; s++)
		if (h->socket_cpu[s] < 0)
			return uc_err("socket %d has no online CPU: bring one online to read its uncore", s);
	return 0;
}

static int read_hex_file(const char *dir, const char *name, unsigned *val)
{
	char path[8192];
	long v;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (read_int_file(path, &v) < 0)
		return -1;
	*val = (unsigned)v;
	return 0;
}

int pci_list_sysfs(struct pci_devinfo **out, int *n)
{
	char path[4096], dir[4096 + 512];
	DIR *d = opendir(sysroot_path(path, sizeof(path), "/sys/bus/pci/devices"));
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
