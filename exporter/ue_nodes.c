/*
 * Memory by NUMA node (issue 67, doc/prometheus.md): the default set's node series (uncore_select gives them, one
 * a node, kind of memory and direction) as two families of their own, so that the sums of the socket and
 * channel families stay what they were:
 *   uncore_numa_node_read_bytes_total{numa_node="1",socket="0",kind="ddr",memory="ddr"}, ..._write_...
 * kind is the node's (ddr: a node with CPUs; hbm, cxl: memory-only nodes), memory the channels counted (hbm on
 * a ddr node: Xeon Max's HBM caching it).  uncore_numa_node_info says each node's place and, for a node
 * refused (its channels cannot be known), why: it has no byte series.
 */
#include <stdio.h>
#include <string.h>
#include "ue.h"

void ue_nodes_load(const struct ue_config *c, struct ue_state *st)
{
	st->nnodes = 0;
	/* the node series come with the default set alone (uncore_select) */
	if (c->nmetrics || c->ngroups || c->nevents || c->sockets)
		return;
	int n = uncore_numa_nodes(st->u, st->nodes, UE_MAX_NODES);
	st->nnodes = n < 0 ? 0 : n > UE_MAX_NODES ? UE_MAX_NODES : n;
}

void ue_node_family(const struct ue_state *st, const struct uncore_series *c, struct ue_family *f, char *labels,
		    size_t len)
{
	int memory = 0, write = 0, kind = -1;
	for (int k = 0; k < 3; k++)
		for (int w = 0; w < 2; w++)
			if (!strcmp(c->name, uncore_numa_bytes_metric(k, w)))
				memory = k, write = w;
	for (int i = 0; i < st->nnodes; i++)
		if (st->nodes[i].node == c->node)
			kind = st->nodes[i].kind;
	memset(f, 0, sizeof(*f));
	f->counter = 1;
	f->unit = "bytes";
	snprintf(f->name, sizeof(f->name), "uncore_numa_node_%s_bytes", write ? "write" : "read");
	snprintf(f->help, sizeof(f->help), "Memory bytes %s on the NUMA node since the exporter started, its channels "
		 "summed (doc/numa.md); a socket's nodes add up to its uncore_memory_%s_bytes_total (its HBM's, CXL's)",
		 write ? "written" : "read", write ? "write" : "read");
	snprintf(labels, len, "numa_node=\"%d\",socket=\"%d\",kind=\"%s\",memory=\"%s\"", c->node, c->socket,
		 uncore_numa_kind_name(kind), uncore_numa_kind_name(memory));
}
