/*
 * Test helper: the state of a shared simulated machine after other processes
 * used it.  Prints "writes N changed M": register writes by every process
 * since the file was made, and registers that differ from a fresh machine.
 * With "ctl", it plays another agent instead (perf, PCM, likwid): it writes a
 * counter control of a box directly, as they do, and prints its value.  With
 * "freeze", it plays a sampled counter's overflow: the socket's global freeze.
 *   sim_state 'sim:snbep,shared=FILE'
 *   sim_state 'sim:snbep,shared=FILE' ctl UNIT SOCKET BOX K [VALUE]
 *   sim_state 'sim:ivbep,shared=FILE' freeze SOCKET
 * With "nodes", the simulator's truth for each NUMA node whose channels are known (issue 67): "node N socket S
 * read_bps R write_bps W", its DDR bytes a second (sim_node_truth).
 *   sim_state 'sim:gnr,snc=3' nodes
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "open/uncore_priv.h"
#include "sim/sim.h"
#include "sim/sim_numa.h"

/* Counter control k of a box: written when a value is given, printed. */
static int agent_ctl(uncore_t *u, char **arg, int n)
{
	const struct box *b = NULL;
	for (int i = 0; i < u->nboxes; i++)
		if (!strcmp(u->boxes[i].t->name, arg[0]) && u->boxes[i].socket == atoi(arg[1]) &&
		    u->boxes[i].idx == atoi(arg[2]))
			b = &u->boxes[i];
	int k = atoi(arg[3]);
	if (!b || k < 0 || k >= b->r.nctr) {
		fprintf(stderr, "sim_state: no such box or counter\n");
		return 1;
	}
	struct access *a = u->acc;
	uint64_t v = 0, addr = box_ctl_addr(b, k);
	int rc = 0;
	if (n > 4) { /* raw, as another agent writes it: not through the library's guard */
		v = strtoull(arg[4], NULL, 0);
		rc = b->t->space == UC_MSR ? a->ops->msr_write(a, b->cpu, (uint32_t)addr, v)
		     : b->t->space == UC_PCI ? a->ops->pci_write32(a, &b->pci, (uint32_t)addr, (uint32_t)v)
					     : a->ops->mmio_write(a, addr, v, reg_ctl_bytes(b->t));
	}
	rc = rc ? rc : reg_read(u, b, addr, 0, reg_ctl_bytes(b->t), &v);
	if (rc) {
		fprintf(stderr, "sim_state: %s\n", uncore_error());
		return 1;
	}
	printf("0x%llx\n", (unsigned long long)v);
	return 0;
}

/* The socket's global freeze, as an overflow sets it (its frz_all command, raw). */
static int freeze(uncore_t *u, int socket)
{
	struct access *a = u->acc;
	if (!u->plat->glob_ctl || socket < 0 || socket >= u->host.nsockets) {
		fprintf(stderr, "sim_state: no global control, or no socket %d\n", socket);
		return 1;
	}
	if (a->ops->msr_write(a, host_die_cpu(&u->host, socket, 0), u->plat->glob_ctl, u->plat->glob_frz_all)) {
		fprintf(stderr, "sim_state: %s\n", uncore_error());
		return 1;
	}
	printf("socket %d frozen\n", socket);
	return 0;
}

static int nodes(uncore_t *u)
{
	struct uncore_numa_node v[64];
	int n = uncore_numa_nodes(u, v, 64);
	for (int i = 0; i < n && i < 64; i++) {
		double rd, wr;
		if (!v[i].refused && v[i].kind == UNCORE_NODE_DRAM && !sim_node_truth(sim_of(u->acc), v[i].node, &rd, &wr))
			printf("node %d socket %d read_bps %.9g write_bps %.9g\n", v[i].node, v[i].socket, rd, wr);
	}
	return n < 0;
}

int main(int argc, char **argv)
{
	uncore_t *u;
	char why[160];
	if (argc != 2 && !(argc >= 7 && argc <= 8 && !strcmp(argv[2], "ctl")) && !(argc == 4 && !strcmp(argv[2], "freeze")) &&
	    !(argc == 3 && !strcmp(argv[2], "nodes"))) {
		fprintf(stderr, "usage: sim_state 'sim:<platform>,shared=FILE' [ctl UNIT SOCKET BOX K [VALUE] | freeze SOCKET | nodes]\n");
		return 2;
	}
	if (uncore_open(argv[1], &u)) {
		fprintf(stderr, "sim_state: %s\n", uncore_error());
		return 1;
	}
	if (argc > 2) {
		int rc = !strcmp(argv[2], "nodes") ? nodes(u) : !strcmp(argv[2], "freeze") ? freeze(u, atoi(argv[3]))
			 : agent_ctl(u, argv + 3, argc - 3);
		uncore_close(u);
		return rc;
	}
	struct sim *s = sim_of(u->acc);
	int changed = sim_changed_registers(s, why, sizeof(why));
	printf("writes %llu changed %d%s%s\n", (unsigned long long)sim_shared_writes(s), changed, changed ? " first: " : "",
	       changed ? why : "");
	uncore_close(u);
	return 0;
}
