/*
 * Memory traffic of an MPI job, per socket, read through PAPI's intel_uncore
 * component.  Every rank measures the socket it runs on; ranks sharing a
 * socket share its counters (the library programs them once), so each gets
 * the socket's traffic over its own start..stop window.  That window lies
 * between "after PAPI_start returned .. before PAPI_stop was called" and
 * "before PAPI_start .. after PAPI_stop returned", so a rank's rate lies
 * between its counts over the outer and over the inner time.  Rank 0 gathers
 * every rank's figures and prints one line per rank, one per socket of each
 * node, one per node and one for the job, each rate as the range its windows
 * allow, and checks that the ranges of the ranks of a socket meet.
 *
 * It counts the library's metrics mem_read_bytes and mem_write_bytes (group
 * totals: bytes since PAPI_start, PAPI native events like any other), not raw
 * events: their names are the same on every platform, where the events behind
 * them are not (UNC_M_CAS_COUNT.RD up to Emerald Rapids; on Granite Rapids,
 * Sierra Forest and Clearwater Forest only per-scheduler CAS counts, which the
 * metrics add up; Nehalem-EP's and Itanium's own).  `uncore list --metrics`
 * shows what they count on a node.
 *
 *   mpirun -np 4 ./mpi_uncore_membw [--seconds S] [--sockets N] [--node NAME] [--one-per-socket]
 *
 * --one-per-socket: only the first rank of each socket of a node reads the
 * uncore (the others only work): one reader per socket, as a job would set it
 * up to keep its own overhead down.
 * --sockets N places node-local rank r on socket r % N instead of the socket
 * of its CPU, and --node NAME names the node the rank runs on instead of the
 * host's name: for the simulator (UNCORE_BACKEND=sim:...,shared=FILE), whose
 * sockets and nodes are not the machine's (each rank picks its simulated
 * node's UNCORE_BACKEND, --node and --sockets by OMPI_COMM_WORLD_RANK:
 * doc/papi.md).
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <papi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NEV 2
#define MAX_SOCKETS 64

struct result {
	int rank, socket, node, reads; /* node: the lowest world rank on this rank's node */
	char node_name[MPI_MAX_PROCESSOR_NAME];
	double outer, inner; /* seconds around PAPI_start..PAPI_stop, and between them */
	long long v[NEV]; /* read bytes, write bytes */
};

/* A rate's range: what the counts over the outer and the inner windows give. */
struct range {
	double lo, hi;
};

static int socket_of_cpu(void)
{
	char path[128];
	int cpu = sched_getcpu(), s = 0;
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
	FILE *f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &s) != 1)
			s = 0;
		fclose(f);
	}
	return s;
}

static void die(int rank, const char *what, int rc)
{
	fprintf(stderr, "rank %d: %s: %s\n", rank, what, PAPI_strerror(rc));
	MPI_Abort(MPI_COMM_WORLD, 1);
}

/* Stream over a buffer for the given time, so real hardware has traffic to show. */
static void work(double seconds)
{
	size_t n = 1 << 22;
	double *a = malloc(n * sizeof(*a)), sum = 0;
	double t0 = MPI_Wtime();
	if (!a)
		return;
	for (size_t i = 0; i < n; i++)
		a[i] = (double)i;
	while (MPI_Wtime() - t0 < seconds)
		for (size_t i = 0; i < n; i += 8)
			sum += a[i];
	free(a);
	if (sum < 0)
		printf("%g\n", sum);
}

/* A reader: its socket's counts over its start..stop window around the job's work. */
static void measure(struct result *me, double seconds)
{
	int es = PAPI_NULL, rc;
	if ((rc = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		die(me->rank, "PAPI_library_init", rc < 0 ? rc : PAPI_EINVAL);
	int cidx = PAPI_get_component_index("intel_uncore");
	if (cidx < 0)
		die(me->rank, "this PAPI has no intel_uncore component", PAPI_ENOCMP);
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	if (ci->disabled) {
		fprintf(stderr, "rank %d: intel_uncore is disabled: %s\n", me->rank, ci->disabled_reason);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if ((rc = PAPI_create_eventset(&es)) != PAPI_OK)
		die(me->rank, "PAPI_create_eventset", rc);
	static const char *const events[NEV] = { "mem_read_bytes", "mem_write_bytes" };
	for (int e = 0; e < NEV; e++) {
		char name[128];
		snprintf(name, sizeof(name), "intel_uncore:::%s:socket=%d", events[e], me->socket);
		if ((rc = PAPI_add_named_event(es, name)) != PAPI_OK)
			die(me->rank, name, rc);
	}

	MPI_Barrier(MPI_COMM_WORLD);
	long long t0 = PAPI_get_real_nsec();
	if ((rc = PAPI_start(es)) != PAPI_OK)
		die(me->rank, "PAPI_start", rc);
	long long t1 = PAPI_get_real_nsec();
	MPI_Barrier(MPI_COMM_WORLD);
	work(seconds);
	MPI_Barrier(MPI_COMM_WORLD);
	long long t2 = PAPI_get_real_nsec();
	if ((rc = PAPI_stop(es, me->v)) != PAPI_OK)
		die(me->rank, "PAPI_stop", rc);
	me->outer = (double)(PAPI_get_real_nsec() - t0) / 1e9;
	me->inner = (double)(t2 - t1) / 1e9;
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
}

/* A rank that does not read: it works with the others and touches no counter. */
static void idle(struct result *me, double seconds)
{
	MPI_Barrier(MPI_COMM_WORLD);
	double t0 = MPI_Wtime();
	MPI_Barrier(MPI_COMM_WORLD);
	work(seconds);
	MPI_Barrier(MPI_COMM_WORLD);
	me->inner = me->outer = MPI_Wtime() - t0;
}

/* The ranges of one socket's readers meet; added up, one node's sockets (lo and hi apart: each socket's
 * rate lies in its own range).  Prints a line per socket of node n and one for the node. */
static int node_figures(const struct result *all, int size, int n, struct range *rd_sum, struct range *wr_sum)
{
	int bad = 0, nsock = 0;
	*rd_sum = *wr_sum = (struct range){ 0, 0 };
	for (int s = 0; s < MAX_SOCKETS; s++) {
		int k = 0;
		struct range rd = { 0, 0 }, wr = { 0, 0 };
		for (int r = 0; r < size; r++) {
			const struct result *a = &all[r];
			if (a->node != n || a->socket != s || !a->reads)
				continue;
			/* this rank's rates lie in [bytes / outer, bytes / inner]; the socket's in every reader's */
			struct range r1 = { (double)a->v[0] / a->outer, (double)a->v[0] / a->inner };
			struct range w1 = { (double)a->v[1] / a->outer, (double)a->v[1] / a->inner };
			rd = k ? (struct range){ r1.lo > rd.lo ? r1.lo : rd.lo, r1.hi < rd.hi ? r1.hi : rd.hi } : r1;
			wr = k ? (struct range){ w1.lo > wr.lo ? w1.lo : wr.lo, w1.hi < wr.hi ? w1.hi : wr.hi } : w1;
			k++;
		}
		if (!k)
			continue;
		printf("socket %d node %s ranks %d read_GBps %.4f..%.4f write_GBps %.4f..%.4f\n", s, all[n].node_name, k,
		       rd.lo / 1e9, rd.hi / 1e9, wr.lo / 1e9, wr.hi / 1e9);
		bad |= rd.lo > rd.hi * 1.001; /* ranks of a socket measured one rate: their ranges meet */
		rd_sum->lo += rd.lo, rd_sum->hi += rd.hi, wr_sum->lo += wr.lo, wr_sum->hi += wr.hi;
		nsock++;
	}
	printf("node %s sockets %d read_GBps %.4f..%.4f write_GBps %.4f..%.4f\n", all[n].node_name, nsock,
	       rd_sum->lo / 1e9, rd_sum->hi / 1e9, wr_sum->lo / 1e9, wr_sum->hi / 1e9);
	return bad;
}

int main(int argc, char **argv)
{
	int rank, size, local, sockets = 0, one_per_socket = 0, len;
	double seconds = 1.0;
	char name[MPI_MAX_PROCESSOR_NAME] = "";
	MPI_Comm node;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atof(argv[++i]);
		else if (!strcmp(argv[i], "--sockets") && i + 1 < argc)
			sockets = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--node") && i + 1 < argc)
			snprintf(name, sizeof(name), "%s", argv[++i]);
		else if (!strcmp(argv[i], "--one-per-socket"))
			one_per_socket = 1;
		else {
			if (rank == 0)
				fprintf(stderr, "usage: %s [--seconds S] [--sockets N] [--node NAME] [--one-per-socket]\n", argv[0]);
			MPI_Finalize();
			return 2;
		}
	}
	/* the ranks of a node: those with its name (the host's, unless --node names another) */
	if (!name[0])
		MPI_Get_processor_name(name, &len);
	char *names = malloc((size_t)size * sizeof(name));
	if (!names)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Allgather(name, sizeof(name), MPI_CHAR, names, sizeof(name), MPI_CHAR, MPI_COMM_WORLD);
	int color = rank;
	for (int r = 0; r < rank; r++)
		if (!strcmp(names + (size_t)r * sizeof(name), name)) {
			color = r;
			break;
		}
	free(names);
	MPI_Comm_split(MPI_COMM_WORLD, color, rank, &node);
	MPI_Comm_rank(node, &local);
	struct result me = { .rank = rank, .node = color, .socket = sockets > 0 ? local % sockets : socket_of_cpu() };
	snprintf(me.node_name, sizeof(me.node_name), "%s", name);
	/* the first rank of its socket on its node reads; with --one-per-socket no other does */
	int nlocal, *socks;
	MPI_Comm_size(node, &nlocal);
	if (!(socks = malloc((size_t)nlocal * sizeof(*socks))))
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Allgather(&me.socket, 1, MPI_INT, socks, 1, MPI_INT, node);
	me.reads = 1;
	for (int r = 0; one_per_socket && r < local; r++)
		me.reads &= socks[r] != me.socket;
	free(socks);
	if (me.socket < 0 || me.socket >= MAX_SOCKETS) {
		fprintf(stderr, "rank %d: socket %d out of range\n", rank, me.socket);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (me.reads)
		measure(&me, seconds);
	else
		idle(&me, seconds);

	struct result *all = rank == 0 ? calloc((size_t)size, sizeof(*all)) : NULL;
	if (rank == 0 && !all)
		MPI_Abort(MPI_COMM_WORLD, 1);
	MPI_Gather(&me, sizeof(me), MPI_BYTE, all, sizeof(me), MPI_BYTE, 0, MPI_COMM_WORLD);
	int bad = 0;
	if (rank == 0) {
		for (int r = 0; r < size; r++)
			if (all[r].reads)
				printf("rank %d socket %d outer %.6f inner %.6f read_bytes %lld write_bytes %lld node %s\n",
				       all[r].rank, all[r].socket, all[r].outer, all[r].inner, all[r].v[0], all[r].v[1],
				       all[r].node_name);
			else
				printf("idle rank %d socket %d node %s\n", all[r].rank, all[r].socket, all[r].node_name);
		struct range rd = { 0, 0 }, wr = { 0, 0 };
		int nodes = 0;
		for (int n = 0; n < size; n++) {
			struct range nrd, nwr;
			if (all[n].node != n) /* once per node: at its lowest rank */
				continue;
			bad |= node_figures(all, size, n, &nrd, &nwr);
			rd.lo += nrd.lo, rd.hi += nrd.hi, wr.lo += nwr.lo, wr.hi += nwr.hi;
			nodes++;
		}
		printf("job nodes %d read_GBps %.4f..%.4f write_GBps %.4f..%.4f\n", nodes, rd.lo / 1e9, rd.hi / 1e9,
		       wr.lo / 1e9, wr.hi / 1e9);
		printf("%s\n", bad ? "INCONSISTENT" : "CONSISTENT");
		free(all);
	}
	MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return bad;
}
