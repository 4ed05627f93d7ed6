/*
 * The node object: the facts of the machine a handle opened, each built once and kept until the handle closes or
 * the caller says the machine changed (uncore_node_refresh: a hot-plugged device, a NUMA node brought online).
 * They are built when a front end plans (uncore_node_build, api/api_node.c) or a session starts; a query made
 * before then (uncore info, uncore freq) builds the one it asks about.  A read only reads counters and sums over
 * what these facts say (node_fact): it never builds one.
 *
 * The handle owns the node (uncore_close frees it); the node owns its facts, each in a slot that the folder
 * knowing how to build it fills (numa/, devices/, ufreq/, energy/) and tells how to free: so this folder calls
 * none of them, and they call nothing above them to be kept.  A build that failed is kept too, with its reason,
 * and said again at each later use rather than tried again at every read.
 */
#ifndef UNCORE_NODE_H
#define UNCORE_NODE_H

#include "handle/handle.h"

enum node_fact {
	NODE_NUMA,    /* the memory channels of each NUMA node (numa/numa_map.c) */
	NODE_DEVICES, /* the PCI devices behind the IIO stacks, grouped by root port (devices/dev_map.c) */
	NODE_CLOCKS,  /* the uncore clock-limit entries of intel_uncore_frequency (ufreq/ufreq.c) */
	NODE_ENERGY,  /* the RAPL energy domains the platform has (energy/energy_api.c) */
	NODE_MEMORY,  /* which memory channels hold DIMMs, and their speed (memory/mem_pop.c) */
	NODE_FACTS
};

struct node_slot {
	void *fact;                  /* the folder's own (NULL: not made yet) */
	void (*release)(void *fact); /* how it is let go */
	int state;                   /* 0 not built, 1 built, -1 the build failed (why) */
	char why[512];
};

/* The slot of fact f on u's node, the node made on first use: NULL out of memory (said). */
struct node_slot *node_slot(uncore_t *u, enum node_fact f);
/* Whether the slot's fact is built: 1 built; -1 its build failed, and the reason is raised again (uc_err); 0 it
 * is to be built now, by the caller, who then says how it went with node_built. */
int node_ready(struct node_slot *s);
/* The build of the slot's fact ended: rc 0 built; else failed with the message uncore_error() holds (kept).
 * Each call counts one build of the fact (node_builds). */
void node_built(uncore_t *u, struct node_slot *s, enum node_fact f, int rc);
/* The fact f as it was built, for a read: NULL where it is not, with the reason (the build's, kept; or that it
 * was not built before the read).  Never builds. */
void *node_fact(const uncore_t *u, enum node_fact f);
/* How many times each fact of u was built since the handle opened (the tests' proof that a read builds none). */
void node_builds(const uncore_t *u, int out[NODE_FACTS]);
/* Every fact let go, the counts kept (a refresh, which builds them again at once: api/api_node.c). */
void node_release(uncore_t *u);
/* Every fact let go, and the node (the handle's close). */
void node_free(uncore_t *u);
/* What of the node changed since the last call (node_gen.c): *mask, UNCORE_NODE_* bits (0 at the first call, which
 * takes the node as it is), the handle following the CPUs and PMUs that moved; the facts are the caller's to build
 * again.  The handle is locked by the caller.  0, or -1 with the reason (the mask still set). */
int node_changes(uncore_t *u, int *mask);

#endif
