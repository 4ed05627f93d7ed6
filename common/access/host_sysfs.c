/* The host: CPU vendor, family, model, sockets and their CPUs, from /proc/cpuinfo and sysfs below the sysroot
 * (or in a replayed node's snapshot). */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "access.h"
#include "util/error.h"
#include "util/safe_file.h"
#include "util/guarded_read.h"
#include "util/cpulist.h"

/* paths below the sysroot, or in the tree m as they are (sysroot_path_at: "" is no prefix) */
#define ROOT (m ? "" : NULL)

/* The TSC rate a brand string gives ("... @ 2.70GHz"), or 0 (unknown) where it gives no positive finite
 * number. */
static double brand_hz(const char *v)
{
	const char *at = strrchr(v, '@');
	double hz = at ? strtod(at + 1, NULL) * 1e9 : 0;
	return isfinite(hz) && hz > 0 ? hz : 0;
}

/* The number of a /proc/cpuinfo line "name\t: value" into *val: a decimal from 0 to max, spaces around it,
 * or "unknown" (Linux's stepping where CPUID gave none: arch/x86/kernel/cpu/proc.c), *val left 0; 0, or -1
 * with the reason (a value out of range is not wrapped, nor taken as -1 as atoi took 99999999999999999999). */
static int cpuinfo_number(const char *path, const char *name, const char *v, int max, int *val)
{
	char *end;
	while (*v == ' ' || *v == '\t')
		v++;
	if (!strcmp(v, "unknown\n") || !strcmp(v, "unknown"))
		return 0;
	errno = 0;
	long n = *v >= '0' && *v <= '9' ? strtol(v, &end, 10) : -1;
	if (n >= 0 && !errno && n <= max) {
		while (*end == ' ' || *end == '\t' || *end == '\n')
			end++;
		if (!*end) {
			*val = (int)n;
			return 0;
		}
	}
	size_t len = strcspn(v, "\n");
	return uc_err("%s: '%s' is '%.*s'%s: not a number from 0 to %d (CPUID leaf 1's, Intel SDM vol. 2A): refused", path,
		      name, len > 40 ? 40 : (int)len, v, len > 40 ? "..." : "", max);
}

/* Each NUMA node's die: that of its first online CPU, as Linux's uncore_device_to_die takes the first
 * initialized CPU of the device's node; HOST_NODE_NO_CPU where the node has none online (a die whose CPUs
 * are all offline: Linux gives its devices no die, -1). */
static void node_dies(const struct memfs *m, struct host_info *h)
{
	char path[4096], line[4096], why[96];
	uint8_t *cpus = malloc(UC_MAX_CPUS / 8);
	for (int n = 0; n < UC_MAX_NODES; n++) {
		FILE *f;
		int refused;
		h->node_die[n] = -1;
		sysroot_path_at(ROOT, path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		f = sys_open(m, path, &refused);
		if (!f) {
			if (refused) /* planted in a sysroot: said, and the node's devices go by the bus map alone */
				uc_warn("%s", uncore_error());
			continue;
		}
		if (cpus && fgets(line, sizeof(line), f) && cpulist_parse(line, cpus, why, sizeof(why)) >= 0) {
			h->node_die[n] = HOST_NODE_NO_CPU;
			for (int cpu = 0; cpu < UC_MAX_CPUS; cpu++)
				if (cpu_in(cpus, cpu) && h->cpu_socket[cpu] >= 0) {
					h->node_die[n] = (short)(h->cpu_socket[cpu] * UC_MAX_DIES + h->cpu_die[cpu]);
					break;
				}
		}
		fclose(f);
	}
	free(cpus);
}

/* CPU cpu's core id and its thread in the core: the CPUs of thread_siblings_list below it */
static void core_thread(const struct memfs *m, struct host_info *h, int cpu)
{
	char path[256], list[256], why[96];
	long core;
	struct stat st;
	uint8_t *sib = malloc(UC_MAX_CPUS / 8);
	sysroot_path_at(ROOT, path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
	if (sys_read_long(m, path, &core) == 0 && core >= 0 && core < 32768)
		h->cpu_core[cpu] = (short)core;
	sysroot_path_at(ROOT, path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	if (sib && !sys_first_line(m, path, list, sizeof(list), &st) && cpulist_parse(list, sib, why, sizeof(why)) > 0 &&
	    cpu_in(sib, cpu)) {
		int below = 0;
		for (int c = 0; c < cpu; c++)
			below += cpu_in(sib, c);
		h->cpu_thread[cpu] = (signed char)(below < 127 ? below : 127);
	}
	free(sib);
}

int host_from_sysfs(struct host_info *h) { return host_from_tree(NULL, h); }

int host_from_tree(const struct memfs *m, struct host_info *h)
{
	char path[4096], line[512];
	FILE *f;
	int refused;
	memset(h, 0, sizeof(*h));
	f = sys_open(m, sysroot_path_at(ROOT, path, sizeof(path), "/proc/cpuinfo"), &refused);
	if (!f)
		return refused ? uc_err_prefix("reading the CPU identity: ")
			       : access_errno_error(errno, path, "reading the CPU identity");
	int rc = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		char *v = strchr(line, ':');
		if (!v)
			continue;
		v++;
		/* CPUID leaf 1 (Intel SDM vol. 2A): the family, Family ID plus Extended Family ID, at most 0xf + 0xff;
		 * the model, Extended Model ID << 4 plus Model ID, at most 0xff; the stepping 4 bits */
		if (!strncmp(line, "vendor_id", 9) && !h->vendor[0])
			sscanf(v, " %15s", h->vendor);
		else if (!strncmp(line, "cpu family", 10) && !h->family)
			rc = cpuinfo_number(path, "cpu family", v, 0xf + 0xff, &h->family);
		else if (!strncmp(line, "model\t", 6) && !h->model)
			rc = cpuinfo_number(path, "model", v, 0xff, &h->model);
		else if (!strncmp(line, "stepping", 8) && !h->stepping)
			rc = cpuinfo_number(path, "stepping", v, 0xf, &h->stepping);
		else if (!strncmp(line, "model name", 10) && !h->tsc_hz && strstr(v, "GHz"))
			h->tsc_hz = brand_hz(v); /* Intel brand strings end "@ 2.70GHz": the TSC rate */
		else if (!strncmp(line, "flags", 5) && strstr(v, " hypervisor"))
			h->hypervisor = 1;
	}
	fclose(f);
	if (rc)
		return -1;
	/* perf's #has_pmem (tools/perf/util/expr.c has_pmem()): the firmware lists NVDIMMs */
	h->has_pmem = sys_exists(m, sysroot_path_at(ROOT, path, sizeof(path), "/sys/firmware/acpi/tables/NFIT"));
	for (int i = 0; i < UC_MAX_SOCKETS; i++)
		h->socket_cpu[i] = -1;
	memset(h->cpu_socket, -1, sizeof(h->cpu_socket));
	memset(h->cpu_core, -1, sizeof(h->cpu_core));
	memset(h->cpu_thread, -1, sizeof(h->cpu_thread));
	long *die_id = malloc(UC_MAX_CPUS * sizeof(*die_id));
	if (!die_id)
		return uc_err("out of memory");
	for (int cpu = 0; cpu < UC_MAX_CPUS; cpu++) {
		long pkg, online = 1;
		die_id[cpu] = -1;
		sysroot_path_at(ROOT, path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		if (sys_read_long(m, path, &pkg) < 0) {
			sysroot_path_at(ROOT, path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
			if (sys_exists(m, path)) {
				h->ncpus = cpu + 1;
				continue; /* offline CPUs have no topology directory */
			}
			break;
		}
		h->ncpus = cpu + 1;
		sysroot_path_at(ROOT, path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
		sys_read_long(m, path, &online);
		if (pkg < 0 || pkg >= UC_MAX_SOCKETS || !online)
			continue;
		h->cpu_socket[cpu] = (signed char)pkg;
		/* Linux 5.3+ (CPUID leaf 0x1F); absent before: one die per package */
		sysroot_path_at(ROOT, path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/die_id", cpu);
		sys_read_long(m, path, &die_id[cpu]);
		core_thread(m, h, cpu);
		if (h->socket_cpu[pkg] < 0)
			h->socket_cpu[pkg] = cpu;
		/* a core once, by its first thread (or a CPU whose siblings are unknown), not each hyperthread: Linux
		 * caps the CBos at the package's cores (x86_max_cores, ivbep_uncore_cpu_init), and perf's #num_cores
		 * counts cores; a 12-core IVB-EP with hyperthreading was taken for 15 CBos */
		h->socket_cores[pkg] += h->cpu_thread[cpu] <= 0;
		if (pkg + 1 > h->nsockets)
			h->nsockets = (int)pkg + 1;
	}
	if (h->nsockets)
		host_dies_from_ids(h, die_id);
	free(die_id);
	if (h->nsockets == 0)
		return uc_err("no CPU topology found under %s", sysroot_path_at(ROOT, path, sizeof(path), "/sys/devices/system/cpu"));
	for (int s = 0; s < h->nsockets; s++)
		if (h->socket_cpu[s] < 0)
			return uc_err("socket %d has no online CPU: bring one online to read its uncore", s);
	node_dies(m, h);
	return 0;
}
