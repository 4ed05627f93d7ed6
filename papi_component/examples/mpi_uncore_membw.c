/*
 * Memory traffic of an MPI job, per socket, read through PAPI's intel_uncore
 * component.  Every rank measures the socket it runs on; ranks sharing a
 * socket share its counters (the library programs them once), so each gets
 * the socket's traffic over its own start..stop window.  That window lies
 * between "after PAPI_start returned .. before PAPI_stop was called" and
 * "before PAPI_start .. after PAPI_stop returned", so a rank's rate lies
 * between its counts over the outer and over the inner time.  Rank 0 prints
 * one line per rank and one per socket, and checks that the rate ranges of
 * the ranks of a socket meet.
 *
 *   mpirun -np 4 ./mpi_uncore_membw [--seconds S] [--sockets N]
 *
 * --sockets N places node-local rank r on socket r % N instead of the socket
 * of its CPU: for the simulator (UNCORE_BACKEND=sim:...,shared=FILE), whose
 * sockets are not the machine's.
 */
#define _GNU_SOURCE
#include <mpi.h>
#include <papi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define NEV 3

struct result {
	int rank, socket;
	double outer, inner; /* seconds around PAPI_start..PAPI_stop, and between them */
	long long v[NEV]; /* read bytes, write bytes, read CAS commands */
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

int main(int argc, char **argv)
{
	int rank, size, local, sockets = 0, es = PAPI_NULL, rc;
	double seconds = 1.0;
	MPI_Comm node;
	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &local);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seconds") && i + 1 < argc)
			seconds = atof(argv[++i]);
		else if (!strcmp(argv[i], "--sockets") && i + 1 < argc)
			sockets = atoi(argv[++i]);
		else {
			if (rank == 0)
				fprintf(stderr, "usage: %s [--seconds S] [--sockets N]\n", argv[0]);
			MPI_Finalize();
			return 2;
		}
	}
	struct result me = { .rank = rank, .socket = sockets > 0 ? local % sockets : socket_of_cpu() };

	if ((rc = PAPI_library_init(PAPI_VER_CURRENT)) != PAPI_VER_CURRENT)
		die(rank, "PAPI_library_init", rc < 0 ? rc : PAPI_EINVAL);
	int cidx = PAPI_get_component_index("intel_uncore");
	if (cidx < 0)
		die(rank, "this PAPI has no intel_uncore component", PAPI_ENOCMP);
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	if (ci->disabled) {
		fprintf(stderr, "rank %d: intel_uncore is disabled: %s\n", rank, ci->disabled_reason);
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if ((rc = PAPI_create_eventset(&es)) != PAPI_OK)
		die(rank, "PAPI_create_eventset", rc);
	static const char *const events[NEV] = { "mem_read_bytes", "mem_write_bytes", "UNC_M_CAS_COUNT.RD" };
	for (int e = 0; e < NEV; e++) {
		char name[128];
		snprintf(name, sizeof(name), "intel_uncore:::%s:socket=%d", events[e], me.socket);
		if ((rc = PAPI_add_named_event(es, name)) != PAPI_OK)
			die(rank, name, rc);
	}

	MPI_Barrier(MPI_COMM_WORLD);
	long long t0 = PAPI_get_real_nsec();
	if ((rc = PAPI_start(es)) != PAPI_OK)
		die(rank, "PAPI_start", rc);
	long long t1 = PAPI_get_real_nsec();
	MPI_Barrier(MPI_COMM_WORLD);
	work(seconds);
	MPI_Barrier(MPI_COMM_WORLD);
	long long t2 = PAPI_get_real_nsec();
	if ((rc = PAPI_stop(es, me.v)) != PAPI_OK)
		die(rank, "PAPI_stop", rc);
	me.outer = (double)(PAPI_get_real_nsec() - t0) / 1e9;
	me.inner = (double)(t2 - t1) / 1e9;
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();

	struct result *all = rank == 0 ? calloc((size_t)size, sizeof(*all)) : NULL;
	MPI_Gather(&me, sizeof(me), MPI_BYTE, all, sizeof(me), MPI_BYTE, 0, MPI_COMM_WORLD);
	int bad = 0;
	if (rank == 0) {
		for (int r = 0; r < size; r++)
			printf("rank %d socket %d outer %.6f inner %.6f read_bytes %lld write_bytes %lld cas_rd %lld\n",
			       all[r].rank, all[r].socket, all[r].outer, all[r].inner, all[r].v[0], all[r].v[1], all[r].v[2]);
		for (int s = 0; s < 64; s++) {
			int n = 0;
			double lo = 0, hi = 0, rd = 0, wr = 0;
			for (int r = 0; r < size; r++) {
				if (all[r].socket != s)
					continue;
				/* this rank's read rate lies in [bytes / outer, bytes / inner] */
				double rlo = (double)all[r].v[0] / all[r].outer, rhi = (double)all[r].v[0] / all[r].inner;
				lo = n ? (rlo > lo ? rlo : lo) : rlo; /* the ranges' intersection */
				hi = n ? (rhi < hi ? rhi : hi) : rhi;
				rd += (rlo + rhi) / 2;
				wr += (double)all[r].v[1] * (1 / all[r].outer + 1 / all[r].inner) / 2;
				n++;
				bad |= all[r].v[0] != all[r].v[2] * 64; /* one session: bytes are exactly 64 per CAS */
			}
			if (!n)
				continue;
			printf("socket %d ranks %d read_GBps %.4f write_GBps %.4f common_range_GBps %.4f..%.4f\n", s, n,
			       rd / n / 1e9, wr / n / 1e9, lo / 1e9, hi / 1e9);
			bad |= lo > hi * 1.001; /* ranks of a socket measured one rate: their ranges meet */
		}
		printf("%s\n", bad ? "INCONSISTENT" : "CONSISTENT");
		free(all);
	}
	MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
	MPI_Finalize();
	return bad;
}
