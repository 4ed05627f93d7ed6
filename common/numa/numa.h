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

/* The map (numa_map.c), built when the front end plans (or at its first use by a query) and kept by the handle's
 * node (node/node.h) until a refresh. */
#define NUMA_UNIT_BOXES 512
#define NUMA_UNITS 4 /* the memory units: imc, hbm, cxlcm, cxldp */
struct numa_map_node {
	struct uncore_numa_node pub;
	char why[256]; /* non-empty: why its values are refused */
};
/* A memory unit's boxes and the node each serves (-2: refused, why[socket] says why): the table a node's sum
 * indexes at every read, at 100 Hz, built with the map. */
struct numa_unit_boxes {
	int unit, kind, n; /* kind: of node its boxes serve (UNCORE_NODE_*) */
	struct { short socket, box, node; } b[NUMA_UNIT_BOXES];
	char why[UC_MAX_SOCKETS][256]; /* the first refused box's reason, in each socket */
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
	int nub;
	struct numa_unit_boxes ub[NUMA_UNITS]; /* the platform's memory units (those it has; one of more boxes than a
						* table holds left out: its metrics have no value per node, said) */
};
/* The map, built now where it is not yet (a query's first use): NULL with the reason, kept. */
struct numa_map *numa_map_get(uncore_t *u);
/* Build it where it is not built yet (a failure kept with its reason): 0 (node_fact says how it went). */
int numa_map_build(uncore_t *u);
/* The table of memory unit unit's boxes: NULL for a unit that is no memory (or of more boxes than it holds). */
const struct numa_unit_boxes *numa_unit_table(const struct numa_map *m, int unit);
/* uncore_session_node_value under the handle's lock (api.c): the table of the metric's unit indexed, its boxes on
 * the node summed; nothing built. */
int uncore_session_node_value_impl(uncore_session_t *s, int m, int node, int window, double *out);
/* The node index (in the map) the box of a unit serves: >= 0; -1 the unit is no memory; -2 refused (message). */
int numa_box_node(const struct numa_map *m, int unit, int socket, int box);

/* The SNC domain of CPU cpu in its socket and the socket's domains (*snc): the domain where the kernel's nodes
 * and L3 say SNC is on, else 0 with *snc 1 (SNC off, unknown, a replay); 0 either way, the map's errors not
 * being this question's (numa_cpu.c). */
int numa_cpu_domain(uncore_t *u, int cpu, int *snc);

/* Every file of the NUMA topology the map reads, kept in rec (paths "/sys/..."; a memory block an empty file),
 * for a snapshot: 0, or -1 with a message (numa_capture.c). */
int numa_capture(uncore_t *u, struct memfs *rec);

#endif
