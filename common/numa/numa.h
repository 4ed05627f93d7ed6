/*
 * Memory by NUMA node (issue 67): which node each memory channel (iMC, HBM channel, CXL port) serves, from
 * the platform's sub-NUMA clustering geometry (its descriptor's snc, platform_facts.h), confirmed against the kernel's NUMA topology
 * (numa_topo.c); where that cannot be known a node's values are refused with the reason, never guessed.
 */
#ifndef UNCORE_NUMA_H
#define UNCORE_NUMA_H

#include <stdint.h>
#include "uncore.h"
#include "access/access.h"
#include "devices/dev_fs.h"

/* What the kernel shows of the nodes (/sys/devices/system/node, the memory blocks, each socket's L3). */
struct numa_topo_node {
	int present, ncpus, first_cpu;
	int socket;         /* the socket of its CPUs; -1 none (a memory-only node), -2 several */
	uint64_t mem_bytes; /* its memory blocks times the block size */
	int dist[UC_MAX_NODES];
};
struct numa_topo {
	int n; /* node numbers 0..n-1 looked at */
	struct numa_topo_node node[UC_MAX_NODES];
	int l3_cpus[UC_MAX_SOCKETS]; /* CPUs sharing the L3 of the socket's first CPU (0: unknown) */
	int16_t cpu_node[UC_MAX_CPUS]; /* the node whose cpulist names CPU c; -1 none */
};
/* Read it: 0, or -1 with the reason (no node directory at all). */
int numa_topo_read(const struct dev_fs *fs, const struct host_info *h, struct numa_topo *t);

/* The platform's SNC geometry: the domain iMC channel box (its unit id) serves with snc domains a socket;
 * -1 with the reason in why where no public table gives it.  source: where the table comes from. */
struct platform_desc;
int numa_geom_domain(const struct platform_desc *p, int snc, int box, const char **source, char *why, size_t len);

/* The map (numa_map.c), built on first use and kept by the handle's node (node/node.h) until a refresh. */
#define NUMA_UNIT_BOXES 512
struct numa_map_node {
	struct uncore_numa_node pub;
	char why[256]; /* non-empty: why its values are refused */
};
struct numa_map {
	int n;
	struct numa_map_node v[UC_MAX_NODES];
	char source[256];
	/* nodes by socket and domain; -1 none */
	int ddr[UC_MAX_SOCKETS][UC_MAX_DIES], hbm[UC_MAX_SOCKETS][UC_MAX_DIES], cxl[UC_MAX_SOCKETS];
	int snc[UC_MAX_SOCKETS]; /* domains of each socket's SNC (1: off; dies: a node a die) */
	int by_die[UC_MAX_SOCKETS]; /* the socket's nodes are its dies, not SNC domains */
	int hbm_cache[UC_MAX_SOCKETS]; /* HBM channels serve the DDR node (cache mode) */
	int8_t cpu_domain[UC_MAX_CPUS]; /* CPU c's SNC domain in its socket where snc[] > 1 says SNC is on; else 0 */
	/* each memory unit's boxes and the node each serves (numa_box_node; -2: refused), found on the unit's first
	 * use (numa_api.c): a front end sums a node at every read, at 100 Hz */
	struct numa_unit_boxes {
		int found, unit, kind, n; /* kind: of node its boxes serve (UNCORE_NODE_*), -1 no memory */
		struct { short socket, box, node; } b[NUMA_UNIT_BOXES];
	} ub[4];
};
struct numa_map *numa_map_get(uncore_t *u);
/* The node index (in the map) the box of a unit serves: >= 0; -1 the unit is no memory; -2 refused (message). */
int numa_box_node(uncore_t *u, const struct numa_map *m, int unit, int socket, int box);

/* The SNC domain of CPU cpu in its socket and the socket's domains (*snc): the domain where the kernel's nodes
 * and L3 say SNC is on, else 0 with *snc 1 (SNC off, unknown, a replay); 0 either way, the map's errors not
 * being this question's (numa_cpu.c). */
int numa_cpu_domain(uncore_t *u, int cpu, int *snc);

/* Every file of the NUMA topology the map reads, kept in rec (paths "/sys/..."; a memory block an empty file),
 * for a snapshot: 0, or -1 with a message (numa_capture.c). */
int numa_capture(uncore_t *u, struct memfs *rec);

#endif
