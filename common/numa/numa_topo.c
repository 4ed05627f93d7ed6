/*
 * The kernel's NUMA topology, as any user may read it (Documentation/ABI/stable/sysfs-devices-node): each
 * node's CPUs (nodeX/cpulist) and distances (nodeX/distance, the firmware's SLIT), its memory as the memory
 * blocks linked below it (nodeX/memoryY, drivers/base/node.c register_mem_block_under_node; block Y covers
 * [Y, Y + 1) times /sys/devices/system/memory/block_size_bytes, hexadecimal: Documentation/admin-guide/mm/
 * memory-hotplug.rst), and the CPUs sharing each socket's L3 (cpuN/cache/index3/shared_cpu_list), which
 * Linux 6.12 compares with a node's CPUs to tell sub-NUMA clustering (resctrl snc_get_config; perf's
 * snc_nodes_per_l3_cache); Linux 7.0 counts a package's nodes instead (topology_num_nodes_per_package,
 * 59674fc9d0bf "x86/resctrl: Fix SNC detection"), and numa_map.c asks the two to agree.  /proc/iomem, which gives the ranges themselves, shows zeros to all but root.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "numa.h"
#include "util/cpulist.h"
#include "util/error.h"

struct blocks {
	int n;
};

static void count_block(void *arg, const char *name)
{
	int id, len = 0;
	if (sscanf(name, "memory%d%n", &id, &len) == 1 && !name[len])
		((struct blocks *)arg)->n++;
}

static void read_distances(const struct dev_fs *fs, int n, struct numa_topo_node *v)
{
	char path[96], line[1024], *p = line, *end;
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/distance", n);
	if (dev_fs_line(fs, path, line, sizeof(line)))
		return;
	for (int k = 0; k < UC_MAX_NODES; k++, p = end) {
		long d = strtol(p, &end, 10);
		if (end == p)
			break;
		v->dist[k] = (int)d;
	}
}

int numa_topo_read(const struct dev_fs *fs, const struct host_info *h, struct numa_topo *t)
{
	char path[128], line[4096], why[96];
	uint8_t *cpus = malloc(UC_MAX_CPUS / 8);
	unsigned long long block = 0;
	memset(t, 0, sizeof(*t));
	memset(t->cpu_node, -1, sizeof(t->cpu_node));
	if (!cpus)
		return uc_err("out of memory");
	if (!dev_fs_line(fs, "/sys/devices/system/memory/block_size_bytes", line, sizeof(line)))
		block = strtoull(line, NULL, 16);
	for (int n = 0; n < UC_MAX_NODES; n++) {
		struct numa_topo_node *v = &t->node[n];
		struct blocks b = { 0 };
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		if (dev_fs_line(fs, path, line, sizeof(line)))
			continue;
		v->present = 1;
		t->n = n + 1;
		v->socket = -1;
		v->first_cpu = -1;
		if (*line && cpulist_parse(line, cpus, why, sizeof(why)) < 0)
			memset(cpus, 0, UC_MAX_CPUS / 8);
		for (int c = 0; *line && c < UC_MAX_CPUS; c++)
			if (cpu_in(cpus, c) && h->cpu_socket[c] >= 0) {
				t->cpu_node[c] = (int16_t)n;
				v->ncpus++;
				v->first_cpu = v->first_cpu < 0 ? c : v->first_cpu;
				v->socket = v->socket == -1 || v->socket == h->cpu_socket[c] ? h->cpu_socket[c] : -2;
			}
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", n);
		dev_fs_list(fs, path, count_block, &b);
		v->mem_bytes = (uint64_t)b.n * block;
		read_distances(fs, n, v);
	}
	for (int s = 0; s < h->nsockets && s < UC_MAX_SOCKETS; s++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list", h->socket_cpu[s]);
		int k = dev_fs_line(fs, path, line, sizeof(line)) ? 0 : cpulist_parse(line, cpus, why, sizeof(why));
		t->l3_cpus[s] = k > 0 ? k : 0;
	}
	free(cpus);
	if (!t->n)
		return uc_err("the kernel shows no NUMA node (/sys/devices/system/node/node*/cpulist)");
	return 0;
}
