/* `uncore check` (cli_check.c): its traffic generators (check_gen.c) and its verdict table (check_verdict.c). */
#ifndef UNCORE_CHECK_H
#define UNCORE_CHECK_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* cpu_set_t *//* check_devices.c: the devices behind each IIO port, and each group's own byte counters against its port's
 * over one window of the library's device check (10 s). */
int check_devices_rows(struct check *c);

#endif
#include <sched.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "uncore.h"

enum gen_kind { GEN_READ, GEN_WRITE, GEN_COPY };
struct gen {
	enum gen_kind kind;
	size_t bytes;
	void *a, *b;
	int pinned;        /* the CPU it runs on, -1: not pinned (a simulated socket has no CPU here) */
	int numa;          /* its buffers are libnuma's (numa_free) */
	cpu_set_t saved;   /* the caller's affinity, given back by gen_free */
	uint64_t read_bytes, write_bytes, ns; /* what the run moved, and how long it took */
	uint64_t sink;
};
const char *gen_name(enum gen_kind k);
/* Buffers of bytes (rounded down to a cache line) touched from cpu (-1: any): 0, or -1 with err. */
int gen_prepare(struct gen *g, enum gen_kind k, int cpu, size_t bytes, char *err, size_t len);
/* The same with the buffers on NUMA node node (-1: cpu's), where libnuma can place them there. */
int gen_prepare_on(struct gen *g, enum gen_kind k, int cpu, int node, size_t bytes, char *err, size_t len);
/* The measured run. */
void gen_go(struct gen *g);
void gen_free(struct gen *g);
/* How the generators' memory is placed on their socket: "on each socket's NUMA node with libnuma", ... */
const char *gen_placement(void);

/* One row of the verdict: the check, what was expected and measured, PASS / FAIL / SKIP and why. */
enum verdict { V_PASS, V_FAIL, V_SKIP, V_WARN }; /* WARN: doubtful, not failed (a channel possibly empty) */
struct verdict_row {
	char check[96], expected[96], measured[96], why[200];
	enum verdict v;
};
struct verdicts {
	struct verdict_row *rows;
	int n, cap;
};
/* Add a row (printf-style why); -1 out of memory. */
int verdict_add(struct verdicts *t, enum verdict v, const char *check, const char *expected, const char *measured,
		const char *why_fmt, ...) __attribute__((format(printf, 6, 7)));
/* bytes as "12.5 MiB" */
void check_mib(char *buf, size_t len, double bytes);
/* The table as text columns, or one JSON object a row; how many rows failed. */
/* The rows as a table (json: a JSON object a row, then the backend's summary row): how many FAILed; the WARN rows
 * added to *warned. */
int verdict_print(const struct verdicts *t, int json, const char *backend, int *warned);
/* The closing verdict: "FAIL: ...", "PASS with N warnings: ..." or "PASS: every check passed". */
void verdict_summary(char *buf, size_t len, int failed, int warned);
void verdict_free(struct verdicts *t);

/* check_memory.c: the kinds of memory a socket has beside its own node's DDR whose traffic has metrics of
 * its own (Xeon Max's HBM), a row each: the socket's generators run again with their buffers there. */
struct check_memory {
	const char *name;      /* "HBM", in the rows */
	const char *sim;       /* its kind for uncore_sim_workload_on */
	const char *metric[2]; /* its read and write bytes metrics */
	/* the NUMA node of the socket's memory of this kind, from a CPU of the socket: >= 0, or -1 with why (no
	 * such node: HBM in cache mode caches DDR and is no node) */
	int (*node)(int cpu, char *why, size_t len);
	int may_cache; /* with no node it caches DDR (Xeon Max's HBM in cache mode); else a socket without one has none */
};
#define CHECK_MEMORIES 4
extern const struct check_memory check_memories[]; /* NULL name ends it */

/* One backend's run of the check: its handle, the memory session and what the rows compare. */
#define UC_CHECK_SOCKETS 64
#define CHECK_MAX_CHANNELS 64
/* No memory channel moves more a second: 8800 MT/s (JEDEC JESD79-5C DDR5 top speed bin, Xeon 6 MRDIMM) x 8
 * bytes is 70.4 GB/s. */
#define CHECK_CHANNEL_BPS 72e9
struct check {
	uncore_t *u;
	uncore_session_t *s;  /* mem_read_bytes (metric 0) and mem_write_bytes (1), per socket and channel */
	struct verdicts *t;
	int nsock, sim;
	int sim_shared;       /* a simulated machine shared with other processes: no traffic of the check's (their traffic
			       * is the machine's; the simulator counts no workload there) */
	double seconds;       /* the idle baseline's window, and each counter session's */
	double base_rd[UC_CHECK_SOCKETS], base_wr[UC_CHECK_SOCKETS]; /* idle bytes/s */
	/* per socket: the bytes each channel counted while that socket's generators ran, and the seconds they ran */
	double chan[UC_CHECK_SOCKETS][CHECK_MAX_CHANNELS];
	int nchan[UC_CHECK_SOCKETS];
	double gen_s[UC_CHECK_SOCKETS];
	double gen_b[UC_CHECK_SOCKETS];  /* ... and the bytes they moved */
	int hbm_only[UC_CHECK_SOCKETS]; /* the population knows no DDR DIMM on the socket, HBM alone (uncore_memory_hbm_only) */
	int pop[UC_CHECK_SOCKETS][CHECK_MAX_CHANNELS]; /* each channel box's population (UNCORE_CHAN_*) */
	double sched[UC_CHECK_SOCKETS][CHECK_MAX_CHANNELS][2]; /* CAS per scheduler, where a channel has two */
	int nsched;           /* the session's events per scheduler found (0: one scheduler a channel) */
	/* where each memory controller has free-running read and write counters besides its channels' (Ice
	 * Lake-SP): their session events (-1: none), and the bytes each controller counted per socket */
	int fr_cas[2];
	double fr_ctrl[UC_CHECK_SOCKETS][CHECK_MAX_CHANNELS];
	int nctrl[UC_CHECK_SOCKETS];
	int ctrl_of[UC_CHECK_SOCKETS][CHECK_MAX_CHANNELS]; /* channel k's controller: the box with the counters
							      * at or before it (-1: none) */
	int agent_seen;       /* a read-back found another agent's control word (one row, the first) */
	/* each memory kind of check_memories the machine counts: its metrics in the session (-1: none), its idle
	 * bytes/s, and whether it has no node, caching DDR (its counts then join the DDR rows') */
	int mem_m[CHECK_MEMORIES][2];
	double mem_base[CHECK_MEMORIES][2][UC_CHECK_SOCKETS];
	int mem_cache[CHECK_MEMORIES];
	/* resctrl: the bytes its domain saw move while each socket's generators ran, and the uncore's count then */
	double rdt[UC_CHECK_SOCKETS], rdt_uncore[UC_CHECK_SOCKETS];
	int rdt_off;          /* resctrl cannot be read here, rdt_why says why */
	char rdt_why[256];
};

/* check_channels.c: after each generator, add what each channel counted; then the rows per socket. */
int check_channels_add(struct check *c, int sock);
int check_channels_rows(struct check *c);
/* check_counters.c: counter widths (a sampled clock counter wraps where documented), free-running against
 * general-purpose counters, clock ranges: their rows, in sessions of their own after the memory one. */
int check_counters_rows(struct check *c);
/* check_agent.c: the memory session's registers read back while it runs (phase: the row's name; NULL: a
 * row only when something changed) and, after its stop, against what it found. */
int check_agent_row(struct check *c, const char *phase);
int check_restored_row(struct check *c);
/* check_resctrl.c: resctrl's memory-bandwidth monitoring, where the kernel offers it: its count for a
 * socket (0; -1 when it cannot be read, the reason kept for the row), and the rows. */
int check_resctrl_read(struct check *c, int sock, uint64_t *bytes);
int check_resctrl_rows(struct check *c);
/* check_attrib.c: two generators at once on two CPUs of a socket (socket < 0: socket 0), each CPU's reads
 * as the per-job attribution gives them against what its generator read. */
int check_attrib_rows(struct check *c, int socket, size_t bytes);
/* check_numa.c: where a socket is several NUMA nodes, a read on each node of the socket (socket < 0: every
 * socket) in turn, counted by every node: the channel-to-node map proved, a row a node and neighbour. */
int check_numa_rows(struct check *c, int socket, size_t bytes);
/* check_devices.c: the devices behind each IIO port, and each group's own byte counters against its port's
 * over one window of the library's device check (10 s). */
int check_devices_rows(struct check *c);

/* check_energy.c: the socket's (socket < 0: socket 0) DRAM power rising with a copy generator's bytes over its
 * idle power, and its package power plausible (doc/user-guide.md "uncore check"). */
int check_energy_rows(struct check *c, int socket, size_t bytes);
/* The first CPU of the host's socket (the handle's topology, Linux's), or -1: where check and its energy rows
 * place their generators. */
static inline int host_socket_cpu(const struct check *c, int socket)
{
	char list[512];
	return uncore_socket_cpus(c->u, socket, list, sizeof(list)) > 0 ? (int)strtol(list, NULL, 10) : -1;
}

#endif
