/*
 * The files of a snapshot that are files on the node: what host_sysfs.c, pci_sysfs.c, resctrl.c and the perf
 * backend read below the sysroot, copied (a real node) or written as a kernel would show a simulated one.
 * Only the CPU's identity of /proc/cpuinfo is kept (no serials, no per-CPU lines), no counter values
 * (resctrl's mon_data is left out), no host names.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "snapshot.h"
#include "util/error.h"
#include "util/safe_file.h"
#include "util/grow.h"

#define SNAP_FILE_MAX (1u << 20) /* a sysfs attribute is a page; a PCI config file 4 KB */

int snap_put(struct snap_out *o, const char *name, const void *data, size_t len, const char *why)
{
	struct snap_member *grown = uc_grow(o->m, o->n, &o->cap, sizeof(*grown), 256);
	if (!grown)
		return uc_err("out of memory listing the snapshot's files");
	o->m = grown;
	struct snap_member *m = &o->m[o->n];
	m->name = strdup(name);
	m->why = strdup(why);
	m->data = malloc(len ? len : 1);
	if (!m->name || !m->why || !m->data) {
		free(m->name), free(m->why), free(m->data);
		return uc_err("out of memory");
	}
	memcpy(m->data, data, len);
	m->len = len;
	o->n++;
	return 0;
}

void snap_note(struct snap_out *o, const char *fmt, ...)
{
	va_list ap;
	if (o->nnotes >= sizeof(o->notes))
		return;
	va_start(ap, fmt);
	int n = vsnprintf(o->notes + o->nnotes, sizeof(o->notes) - o->nnotes, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->nnotes += (size_t)n;
	if (o->nnotes < sizeof(o->notes) - 1) {
		o->notes[o->nnotes++] = '\n';
		o->notes[o->nnotes] = 0;
	} else {
		o->nnotes = sizeof(o->notes);
	}
}

void snap_out_free(struct snap_out *o)
{
	for (int i = 0; i < o->n; i++)
		free(o->m[i].name), free(o->m[i].why), free(o->m[i].data);
	free(o->m);
	memset(o, 0, sizeof(*o));
}

/* A member from text (its path without the leading '/'). */
static int put_text(struct snap_out *o, const char *path, const char *text, const char *why)
{
	return snap_put(o, path + (path[0] == '/'), text, strlen(text), why);
}

/* A file of the node below the sysroot, whole, as member path (a sysfs attribute: a regular file, small). */
static int copy_file(struct snap_out *o, const char *path, const char *why)
{
	char full[4096];
	int refused;
	FILE *f = uc_open_sysfile(sysroot_path(full, sizeof(full), "%s", path), &refused);
	if (!f) { /* absent, or planted as no regular file (said): not in the snapshot */
		if (refused)
			snap_note(o, "%s: %s: left out", path, uncore_error());
		return 1;
	}
	uint8_t *buf = malloc(SNAP_FILE_MAX);
	size_t n = buf ? fread(buf, 1, SNAP_FILE_MAX, f) : 0;
	int rc = !buf ? uc_err("out of memory") : ferror(f) ? 1 : snap_put(o, path + 1, buf, n, why);
	free(buf);
	fclose(f);
	return rc;
}

/* /proc/cpuinfo's first processor: its identity alone (what host_sysfs.c reads) */
static int cpuinfo(struct snap_out *o)
{
	char full[4096], line[4096], out[8192] = "";
	int refused;
	size_t n = 0;
	FILE *f = uc_open_sysfile(sysroot_path(full, sizeof(full), "/proc/cpuinfo"), &refused);
	if (!f) {
		snap_note(o, "/proc/cpuinfo: not readable (%s)", refused ? uncore_error() : strerror(errno));
		return 0;
	}
	static const char *const keep[] = { "vendor_id", "cpu family", "model\t", "model name", "stepping", "flags", NULL };
	while (fgets(line, sizeof(line), f) && line[0] != '\n') /* the first processor's block */
		for (int k = 0; keep[k]; k++)
			if (!strncmp(line, keep[k], strlen(keep[k])) && n < sizeof(out)) {
				if (!strncmp(line, "flags", 5)) /* only what the library looks for in it */
					snprintf(line, sizeof(line), "flags\t\t:%s\n", strstr(line, " hypervisor") ? " hypervisor" : "");
				n += (size_t)snprintf(out + n, sizeof(out) - n, "%s", line);
			}
	fclose(f);
	return put_text(o, "/proc/cpuinfo", out, "the CPU's vendor, family, model, stepping and brand (host_sysfs.c)");
}

int snap_host_files(struct snap_out *o)
{
	char path[256], full[4096];
	int rc = cpuinfo(o), ncpu = 0;
	for (int cpu = 0; !rc && cpu < UC_MAX_CPUS; cpu++) {
		static const char *const topo[] = { "physical_package_id", "die_id", "core_id", "thread_siblings_list" };
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
		DIR *d = opendir(sysroot_path(full, sizeof(full), "%s", path));
		if (!d)
			break;
		closedir(d);
		ncpu++;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
		rc = copy_file(o, path, "whether the CPU is online") < 0;
		for (int t = 0; !rc && t < 4; t++) {
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, topo[t]);
			rc = copy_file(o, path, "the CPU's socket, die, core and thread (host_sysfs.c)") < 0;
		}
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index3/id", cpu);
		rc = rc || copy_file(o, path, "the CPU's L3 domain (resctrl.c)") < 0;
	}
	if (!ncpu)
		snap_note(o, "/sys/devices/system/cpu: no CPU directory");
	for (int n = 0; !rc && n < UC_MAX_NODES; n++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		rc = copy_file(o, path, "the NUMA node's CPUs: which die a device of the node belongs to") < 0;
	}
	if (!rc && !access(sysroot_path(full, sizeof(full), "/sys/firmware/acpi/tables/NFIT"), F_OK))
		rc = put_text(o, "/sys/firmware/acpi/tables/NFIT", "", "present: the machine has NVDIMMs (its content is not kept)");
	if (!rc && copy_file(o, "/sys/fs/resctrl/info/L3_MON/mon_features", "resctrl's memory bandwidth monitoring") < 0)
		rc = -1;
	/* the PCI devices: their ids and NUMA nodes (the configuration space is the recorder's) */
	DIR *d = rc ? NULL : opendir(sysroot_path(full, sizeof(full), "/sys/bus/pci/devices"));
	struct dirent *e;
	while (d && !rc && (e = readdir(d))) {
		static const char *const attr[] = { "vendor", "device", "numa_node" };
		unsigned dom, bus, dev, fn;
		if (sscanf(e->d_name, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
			continue;
		for (int k = 0; !rc && k < 3; k++) {
			snprintf(path, sizeof(path), "/sys/bus/pci/devices/%.32s/%s", e->d_name, attr[k]);
			rc = copy_file(o, path, "a PCI device's id and NUMA node (pci_sysfs.c)") < 0;
		}
	}
	if (d)
		closedir(d);
	else if (!rc)
		snap_note(o, "/sys/bus/pci/devices: not readable (%s)", strerror(errno));
	return rc;
}

int snap_sim_host_files(struct snap_out *o, const struct host_info *h, const struct pci_devinfo *devs, int ndevs)
{
	char path[256], text[512];
	snprintf(text, sizeof(text),
		 "vendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\nmodel name\t: Simulated Intel(R) Xeon(R) CPU @ %.2fGHz\n"
		 "stepping\t: %d\nflags\t\t:%s\n", h->vendor, h->family, h->model, h->tsc_hz / 1e9, h->stepping,
		 h->hypervisor ? " hypervisor" : "");
	int rc = put_text(o, "/proc/cpuinfo", text, "the CPU's vendor, family, model, stepping and brand (host_sysfs.c)");
	for (int cpu = 0; !rc && cpu < h->ncpus && cpu < UC_MAX_CPUS; cpu++) {
		int sock = h->cpu_socket[cpu];
		if (sock < 0)
			continue;
		struct { const char *name; long v; } t[] = {
			{ "physical_package_id", sock },
			{ "die_id", (long)sock * UC_MAX_DIES + h->cpu_die[cpu] }, /* the package's bits above the die's */
			{ "core_id", h->cpu_core[cpu] },
		};
		for (int k = 0; !rc && k < 3; k++) {
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, t[k].name);
			snprintf(text, sizeof(text), "%ld\n", t[k].v);
			rc = put_text(o, path, text, "the CPU's socket, die, core and thread (host_sysfs.c)");
		}
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		snprintf(text, sizeof(text), "%d\n", cpu); /* one thread a core */
		rc = rc || put_text(o, path, text, "the CPU's socket, die, core and thread (host_sysfs.c)");
	}
	for (int n = 0; !rc && n < UC_MAX_NODES; n++) { /* a node's first CPU says its die */
		if (h->node_die[n] < 0)
			continue;
		for (int cpu = 0; cpu < h->ncpus && cpu < UC_MAX_CPUS; cpu++)
			if (h->cpu_socket[cpu] >= 0 && h->cpu_socket[cpu] * UC_MAX_DIES + h->cpu_die[cpu] == h->node_die[n]) {
				snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
				snprintf(text, sizeof(text), "%d\n", cpu);
				rc = put_text(o, path, text, "the NUMA node's CPUs: which die a device of the node belongs to");
				break;
			}
	}
	if (!rc && h->has_pmem)
		rc = put_text(o, "/sys/firmware/acpi/tables/NFIT", "", "present: the machine has NVDIMMs (its content is not kept)");
	for (int i = 0; !rc && i < ndevs; i++) {
		const struct pci_loc *l = &devs[i].loc;
		char dir[96];
		snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%04x:%02x:%02x.%x", (unsigned)l->dom, (unsigned)l->bus,
			 (unsigned)l->dev, (unsigned)l->fn);
		struct { const char *name; char v[16]; } a[3] = { { "vendor", "" }, { "device", "" }, { "numa_node", "" } };
		snprintf(a[0].v, sizeof(a[0].v), "0x%04x\n", devs[i].vendor);
		snprintf(a[1].v, sizeof(a[1].v), "0x%04x\n", devs[i].device);
		snprintf(a[2].v, sizeof(a[2].v), "%d\n", devs[i].node);
		for (int k = 0; !rc && k < 3; k++) {
			snprintf(path, sizeof(path), "%s/%s", dir, a[k].name);
			rc = put_text(o, path, a[k].v, "a PCI device's id and NUMA node (pci_sysfs.c)");
		}
	}
	return rc;
}

/* ---- the kernel's perf tree ---- */

struct names { char (*v)[256]; int n, cap; };

static int collect(void *arg, const char *name)
{
	struct names *ns = arg;
	char (*v)[256] = uc_grow(ns->v, ns->n, &ns->cap, sizeof(*v), 64);
	if (!v)
		return 1;
	ns->v = v;
	snprintf(ns->v[ns->n++], 256, "%s", name);
	return 0;
}

/* A file of the kernel's tree as a member (its first line, as the perf backend reads it). */
static int kernel_file(struct snap_out *o, struct perf_kernel *k, const char *path, const char *why)
{
	char line[4096];
	int r = k->ops->read_line(k, path, line, sizeof(line) - 1);
	if (r)
		return r == -2 ? (snap_note(o, "%s: %s", path, uncore_error()), 0) : 0;
	strcat(line, "\n");
	return put_text(o, path, line, why);
}

int snap_kernel_files(struct snap_out *o, struct perf_kernel *k)
{
	static const char dir[] = "/sys/bus/event_source/devices";
	struct names pmus = { 0 };
	char path[1024];
	int rc = kernel_file(o, k, "/proc/sys/kernel/perf_event_paranoid", "who may count through the kernel");
	if (k->ops->list_dir(k, dir, collect, &pmus)) {
		snap_note(o, "%s: not listed by %s", dir, k->name);
		return rc;
	}
	for (int i = 0; !rc && i < pmus.n; i++) {
		const char *p = pmus.v[i];
		snprintf(path, sizeof(path), "%s/%s/type", dir, p);
		rc = kernel_file(o, k, path, "a PMU's type number (perf_event_open)");
		snprintf(path, sizeof(path), "%s/%s/cpumask", dir, p);
		rc = rc || kernel_file(o, k, path, "the CPUs a PMU counts on");
		if (strncmp(p, "uncore", 6))
			continue; /* the core PMUs' formats and events are not the library's */
		snprintf(path, sizeof(path), "%s/%s/alias", dir, p);
		rc = rc || kernel_file(o, k, path, "the discovery type a named uncore PMU also answers to");
		for (int sub = 0; sub < 2 && !rc; sub++) {
			struct names files = { 0 };
			char sd[600];
			snprintf(sd, sizeof(sd), "%s/%s/%s", dir, p, sub ? "events" : "format");
			if (!k->ops->list_dir(k, sd, collect, &files))
				for (int f = 0; !rc && f < files.n; f++) {
					snprintf(path, sizeof(path), "%s/%s", sd, files.v[f]);
					rc = kernel_file(o, k, path, sub ? "an event alias of the PMU" : "a field of the PMU's config words");
				}
			free(files.v);
		}
	}
	free(pmus.v);
	return rc;
}
