/*
 * The kinds of memory `uncore check` places its generators in besides each socket's own NUMA node (its DDR),
 * one row each: the metrics that count it and how to find its node.  Xeon Max in flat mode shows its HBM as
 * NUMA nodes of their own with memory and no CPU (Intel Xeon CPU Max Series configuration guide; Aurora's
 * 512 GB DDR + 64 GB HBM a socket, argonne-lcf/user-guides#756), the socket's nearest such node by the
 * firmware's distances (SLIT); in cache mode there is none, HBM caching DDR.  CXL memory on Granite Rapids and
 * Sierra Forest is such a node too (issue 50 point 3); a socket without one has no CXL row.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#ifdef HAVE_LIBNUMA
#include <numa.h>
#endif
#include "check.h"

/* The memory-only NUMA node nearest to cpu's node: -1 with why where there is none or libnuma cannot tell. */
static int nearest_cpuless_node(int cpu, char *why, size_t len)
{
#ifdef HAVE_LIBNUMA
	int home = cpu >= 0 && numa_available() >= 0 ? numa_node_of_cpu(cpu) : -1, best = -1;
	if (home < 0) {
		snprintf(why, len, "the kernel does no NUMA here (libnuma: numa_available)");
		return -1;
	}
	struct bitmask *cpus = numa_allocate_cpumask();
	for (int n = 0; cpus && n <= numa_max_node(); n++) {
		long long size = numa_node_size64(n, NULL);
		if (n == home || size <= 0 || numa_node_to_cpus(n, cpus) || numa_bitmask_weight(cpus) > 0)
			continue; /* no memory, or CPUs of its own: a socket's DDR node */
		if (best < 0 || numa_distance(home, n) < numa_distance(home, best))
			best = n;
	}
	if (cpus)
		numa_free_cpumask(cpus);
	if (best < 0)
		snprintf(why, len, "no NUMA node with memory and no CPU near CPU %d's node %d: the HBM caches DDR "
			 "(cache mode) or the machine has none", cpu, home);
	return best;
#else
	(void)cpu;
	snprintf(why, len, "built without libnuma: no memory can be placed on another node");
	return -1;
#endif
}

const struct check_memory check_memories[] = {
	{ "HBM", "hbm", { "hbm_read_bytes", "hbm_write_bytes" }, nearest_cpuless_node, 1 },
	/* CXL memory expanders (GNR, SRF, CWF): Linux onlines a Type 3 device's memory as a NUMA node with no CPU
	 * (the CXL region's node), the socket's nearest such node; none where no expander is attached */
	{ "CXL", "cxl", { "cxl_read_bytes", "cxl_write_bytes" }, nearest_cpuless_node, 0 },
	{ NULL, NULL, { NULL, NULL }, NULL, 0 },
};
