/*
 * The node's facts built now (node/node.h): when a front end plans (uncore_node_build), when a session starts
 * (api.c), and again at once when the node changed (uncore_node_check: node/node_gen.c says what did) or the caller
 * says it did (uncore_node_refresh).  Above the folders that
 * know how to build each, so that none of them calls up; a read then takes them as built (node_fact).
 */
#include "open/open.h"
#include "node/node.h"
#include "numa/numa.h"
#include "memory/memory.h"
#include "ufreq/ufreq.h"
#include "energy/energy.h"
#include "devices/dev_map.h"
#include "api_node.h"
#include "util/error.h"

void api_node_build_reads(uncore_t *u)
{
	/* what the reads of a session take: the NUMA map and its box tables (a node's sum), the memory population
	 * and its peaks (peak_bw, the peak's share), the clock-limit entries (the limits health watches), the
	 * energy domains; the device map is a query's (the front ends' plan, the per-job devices), built then */
	numa_map_build(u);
	mem_pop_node_build(u);
	ufreq_build(u);
	energy_node_build(u);
}

static void build_all(uncore_t *u)
{
	api_node_build_reads(u);
	dev_map_build(u);
}

int uncore_node_build(uncore_t *u)
{
	if (!u)
		return uc_err("no handle");
	handle_lock(u);
	build_all(u); /* (each fact that fails is kept with its reason, said at its use) */
	handle_unlock(u);
	return 0;
}

int uncore_node_refresh(uncore_t *u)
{
	if (!u)
		return uc_err("no handle");
	handle_lock(u);
	node_release(u);
	build_all(u); /* now, not at the next read: a read builds nothing */
	handle_unlock(u);
	return 0;
}

int uncore_node_check(uncore_t *u)
{
	int mask;
	if (!u)
		return uc_err("no handle");
	handle_lock(u);
	int rc = node_changes(u, &mask);
	if (mask) {
		node_release(u);
		build_all(u);
	}
	handle_unlock(u);
	return rc ? rc : mask;
}
