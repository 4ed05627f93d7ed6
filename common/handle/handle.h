/*
 * The handle: what every layer of the library works on (its backend, host, platform, boxes, event
 * catalog), and the few questions about it that any layer may ask.  The layers' own state hangs off it
 * as opaque pointers (claims, perf, metrics), so this header depends on none of them.
 */
#ifndef UNCORE_HANDLE_H
#define UNCORE_HANDLE_H

#include <pthread.h>
#include <stdio.h>
#include "uncore.h"
#include "access/access.h"
#include "platform/platform.h"
#include "util/name_index.h"

#define HANDLE_PEAK_BOXES 64 /* iMC channel boxes a socket whose peak is handed down (memory.h MEM_MAX_BOXES) */

struct uc_metric;
struct claims;
struct perf_sys;
struct node;

struct uncore {
	pthread_mutex_t lock;           /* recursive: every public call that touches the handle takes it (api.c) */
	struct access *acc;
	char backend[160];
	struct host_info host;
	const struct platform_desc *plat;
	struct box *boxes;
	int nboxes;
	/* the event catalog: the platform's tables plus events loaded at run time */
	struct uc_event *events;
	int nevents, events_cap;
	struct name_index event_names;  /* events by name */
	struct platform_desc *own_plat; /* generic discovery platform built at open */
	/* derived metrics: the platform's definitions (loaded on first use) plus loaded files */
	struct uc_metric *metrics;  /* metrics.h */
	int nmetrics, metrics_cap, metrics_ready;
	struct name_index metric_names; /* metrics by name */
	void *arena;                    /* strings of loaded events and generic types */
	struct claims *claims;          /* boxes in use by sessions, machine-wide (claims.c) */
	int force;                      /* take over boxes another agent counts on (UNCORE_FORCE) */
	uncore_session_t **running;     /* sessions started and not stopped: uncore_sleep_ns samples them */
	int nrunning;
	struct perf_sys *perf;          /* the perf_event backend's kernel and PMUs (perf_backend.c); NULL: registers */
	int scale;                      /* perf backend: scale multiplexed counts by enabled / running time */
	const struct perf_alias *kernel_aliases; /* perf backend: the kernel's event aliases (NULL: the platform's) */
	char why[512];                  /* why this backend (auto's choice) */
	char cpu_match[256];            /* the CPU's perfmon mapfile match (platform_cpu_match) */
	struct uc_jobs *jobs;           /* the node's batch jobs, as uncore_jobs_scan last found them (jobs/) */
	void (*jobs_release)(uncore_t *u); /* ... let go by it (jobs/ is above open/: uncore_close calls it) */
	struct node *node;              /* the node's facts, each built once (node/node.h): NUMA map, devices, ... */
	uint64_t node_sums[8];          /* what uncore_node_check last read of each kind (node/node_gen.c) */
	int node_sums_set;
	/* discovery tables' global controls (MMIO) a domain may leave frozen at power-on (disc_domain.unfreeze):
	 * what each read when the first session started, and whether this handle cleared it (discover_global.c) */
	struct { uint64_t addr; uint32_t found; int unfrozen; } gctl[UC_MAX_DISC_GCTL];
	int ngctl;
	/* the DRAM peak the node's memory population hands down to the metrics' 'peak_bw' (bytes a second): memory/
	 * fills it when it builds the population, a metric reads it as a plain term, nothing calls up the layers.
	 * Each socket's, and each of its iMC channel boxes' by box number: 0 where no DIMM is, NaN where not known;
	 * mem_peak_set 0 until built (every value NaN); mem_peak_wanted: a session counts a metric of it (metrics.c),
	 * so that the public call that added it has the population built (api.c) */
	double mem_peak_socket[UC_MAX_SOCKETS], mem_peak[UC_MAX_SOCKETS][HANDLE_PEAK_BOXES];
	char mem_peak_why[UC_MAX_SOCKETS][256]; /* why a socket's is NaN, the population built */
	int mem_peak_set, mem_peak_wanted;
};

/* The handle's lock (recursive: handle.c). */
void handle_lock(const uncore_t *u);
void handle_unlock(const uncore_t *u);

/* Each file of a ':' list ("a.json:b.json", as the UNCORE_EVENTS and UNCORE_METRICS variables), given to
 * load; empty names are skipped.  The sum of what load returned, or -1 at the first failure. */
int uc_load_list(uncore_t *u, const char *list, int (*load)(uncore_t *u, const char *file));

#endif
