/*
 * The simulated machine's NUMA nodes (issue 67): sub-NUMA clustering (snc=N), Xeon Max's HBM and the CXL
 * memory of sim:gnr,cxl=1 as nodes of their own, which memory channels serve each node, the bytes each node
 * moves (the truth), and the files a kernel shows of them (/sys/devices/system/node, memory blocks, the L3's
 * CPUs) so that the library finds the nodes as on a real machine.
 */
#ifndef UNCORE_SIM_NUMA_H
#define UNCORE_SIM_NUMA_H

#include "util/memfs.h"

struct sim;
struct sim_box;
/* The SNC modes the simulated kinds lay out: 1 to 4 domains (Linux 6.12 resctrl snc_get_config accepts 1 to 4
 * nodes per L3, 6 too since the SNC6 patch of 2024-10-31; no kind here has a public table for SNC6) */
#define SIM_MAX_SNC 4

/* snc=N kept for the build: 0, or -1 with a message. */
int sim_snc_option(struct sim *s, const char *v);
/* Once built: N is one the part allows (0, or -1 saying which it allows and why), channels counted by domain. */
int sim_snc_check(struct sim *s);
/* fault swapped:sncmap (domains 0 and 1 trade channels: a map the hardware contradicts) and hidden:snc (every
 * node lists an L3 of its own, so the kernel's detection sees SNC off while a socket has N nodes). */
int sim_snc_fault(struct sim *s, const char *kind, const char *unit);

enum sim_node_kind { SIM_NODE_DDR, SIM_NODE_HBM, SIM_NODE_CXL };
struct sim_node {
	enum sim_node_kind kind;
	int socket, domain; /* domain: its SNC domain in the socket (0 with SNC off, and for CXL) */
};
/* The machine's NUMA nodes in all (numa=off: 1). */
int sim_numa_nodes(const struct sim *s);
/* Node n: 0, or -1 when there is none. */
int sim_node_at(const struct sim *s, int n, struct sim_node *out);
/* The node of a logical die's PCI devices (its first SNC node), and the logical die of a node with CPUs (-1:
 * a memory-only node, or none). */
int sim_node_of_scope(const struct sim *s, int scope);
/* Every PCI function added since devs[first] in the (first) NUMA node of logical die scope, as a real board's
 * firmware gives the uncore functions from Skylake-SP on (the listings of tests/snapshots/field: clx-sr650-2s,
 * buses 00-57 node 0 and 80-d7 node 1; icx-sr650v2-2s, 7e/7f node 0 and fe/ff node 1; spr-dl380g11-mcc in SNC2,
 * 7e node 0 and fe node 2); hwloc places a function by it, and likwid 5.2.2 crashes on one it puts at its root
 * (issue 90 D9; likwid issue 435).  numa=off takes them back to -1 (sim_open.c); the Xeon E5 boards' uncore
 * buses show none (their listings: -1). */
void sim_node_functions(struct sim *s, int first, int scope);
int sim_scope_of_node(const struct sim *s, int node);
/* The node the kernel gives the PCI functions below IIO stack stack of a socket's logical die (its numa_node,
 * -1 with numa=off): Linux takes a host bridge's node from its ACPI _PXM (arch/x86/pci/acpi.c
 * pci_acpi_scan_root, acpi_get_node; drivers/pci/pci-sysfs.c numa_node_show), the proximity domain of the SNC
 * domain the firmware puts the stack in.  Which domain that is no public table says: the model's choice is
 * the stacks spread over the domains in order, stack st of N in domain st x SNC / N. */
int sim_stack_node(const struct sim *s, int socket, int die, int stack);
/* What a channel's share of its socket's reads (write 0) or writes (1) divides them by: its socket's channels nch
 * with SNC off, else as its domain's share and channels make it (box b: an iMC, B2CMI or HBM channel). */
double sim_chan_div(const struct sim *s, const struct sim_box *b, int nch, int write);
/* Jobs under SNC (sim_jobs.c, issue 67 point 3): the SNC domain of CPU c in its socket, and of a CHA box (perf's
 * uncore_cha_snc: a socket's CHAs in equal runs, domain 0's first; -1 a CHA past them); 0 with SNC off. */
int sim_cpu_domain(const struct sim *s, int cpu);
int sim_cha_domain(const struct sim *s, const struct sim_box *b);
/* Whether the jobs' traffic is each CPU's own domain's (a profile's jobs under SNC): then domain d moves its
 * CPUs' jobs' bytes and its (d + 1) parts of the socket's DMA, and its CHAs see its CPUs' misses alone. */
int sim_jobs_by_domain(const struct sim *s);
/* The bytes/s the jobs' CPUs of domain d of socket sock read (write 0) or write (1). */
double sim_jobs_domain_bps(const struct sim *s, int sock, int d, int write);
/* The bytes/s node n reads and writes now (the truth tests hold per-node values to): 0, or -1. */
int sim_node_truth(const struct sim *s, int n, double *read_bps, double *write_bps);
/* The bytes/s the HBM channels serving node n move now: an HBM node's own (flat mode, as sim_node_truth), or, in
 * cache mode, the HBM caching a DDR node's memory (SNC off: its socket's HBM); 0 for any other node. */
int sim_node_hbm_truth(const struct sim *s, int n, double *read_bps, double *write_bps);
/* The kernel's files of the nodes: 0, or -1 out of memory. */
int sim_numa_sysfs(const struct sim *s, struct memfs *m);

#endif
