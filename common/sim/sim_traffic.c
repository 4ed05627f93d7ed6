/*
 * Traffic a program reports it moved, taken as the simulated machine's workload (issue 35: `uncore check`
 * runs its generators, then has the simulator count what they moved, on the socket they ran on):
 * sim_traffic replaces a socket's steady rates from now on (every box brought up to now first, so that
 * the counts before stay at the old rates); sim_workload moves a number of bytes over a stretch of the
 * simulator's time that the clock then skips, so they are counted exactly, and sim_workload_cpus moves
 * each of several CPU sets' bytes so (their cores' misses by thread: sim_jobs.c).  Both keep what each socket's
 * memory moved (resctrl's view, sim_mbm_bytes) with the uncore's.
 */
#include "sim.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/error.h"
#include "util/cpulist.h"
#include "sim_numa.h"

/* The current rates' bytes up to time now. */
static void mbm_settle_to(struct sim *s, uint64_t now)
{
	for (int k = 0; now > s->mbm_ns && k < s->nsockets; k++)
		s->mbm[k] += (s->prof.mem_read_bps[k] + s->prof.mem_write_bps[k]) * (double)(now - s->mbm_ns) / 1e9;
	s->mbm_ns = now > s->mbm_ns ? now : s->mbm_ns;
}

int sim_mbm_bytes(struct sim *s, int socket, uint64_t *bytes)
{
	if (socket < 0 || socket >= s->nsockets)
		return uc_err("resctrl of socket %d: the machine has %d", socket, s->nsockets);
	mbm_settle_to(s, sim_now(s));
	*bytes = (uint64_t)s->mbm[socket];
	return 0;
}

struct socket_load {
	int socket;
	double rd_bps, wr_bps;
	int hbm; /* the bytes are in the socket's HBM node (flat mode) */
	int cxl; /* the bytes are in the socket's CXL memory node (sim:gnr,cxl=1) */
};

/* A socket's rates as sim_traffic and sim_workload take them: 0, or -1 saying what is wrong. */
static int load_ok(const struct sim *s, const struct socket_load *l)
{
	if (l->socket < 0 || l->socket >= s->nsockets)
		return uc_err("simulated traffic on socket %d: the machine has %d", l->socket, s->nsockets);
	if (!(l->rd_bps >= 0 && l->wr_bps >= 0 && l->rd_bps < 1e15 && l->wr_bps < 1e15))
		return uc_err("simulated traffic on socket %d: rates must be 0..1e15 bytes/s", l->socket);
	return 0;
}

static int set_socket(struct sim *s, void *arg)
{
	const struct socket_load *l = arg;
	if (load_ok(s, l))
		return -1;
	struct sim_profile *p = &s->prof;
	int k = l->socket;
	double h = p->hbm_hit_ratio[k];
	if (l->hbm && s->hbm_mode != SIM_HBM_FLAT)
		return uc_err("simulated traffic in socket %d's HBM: %s", k, s->hbm_mode == SIM_HBM_CACHE ? "its HBM caches "
			      "DDR (hbm=cache), it is no NUMA node to place memory in" : s->hbm_mode ? "its HBM is the socket's "
			      "own memory (hbm=only), no NUMA node of its own: place the bytes in the socket's memory" :
			      "the machine has no HBM (sim:spr,hbm=flat has)");
	if (l->cxl && !s->cxl_mem)
		return uc_err("simulated traffic in socket %d's CXL memory: the machine has none (sim:gnr,cxl=1 has)", k);
	p->mem_read_bps[k] = l->hbm || l->cxl ? 0 : l->rd_bps;
	p->mem_write_bps[k] = l->hbm || l->cxl ? 0 : l->wr_bps;
	p->cxl_read_bps[k] = l->cxl ? l->rd_bps : 0;
	p->cxl_write_bps[k] = l->cxl ? l->wr_bps : 0;
	p->hbm_read_bps[k] = l->hbm ? l->rd_bps : 0;
	p->hbm_write_bps[k] = l->hbm ? l->wr_bps : 0;
	if (s->hbm_mode == SIM_HBM_ONLY && !l->cxl) { /* no DDR DIMM: the socket's own memory is its HBM */
		p->mem_read_bps[k] = p->mem_write_bps[k] = 0;
		p->hbm_read_bps[k] = l->rd_bps;
		p->hbm_write_bps[k] = l->wr_bps;
	}
	if (s->hbm_mode == SIM_HBM_CACHE) {
		/* HBM caches DDR (a memory-side cache, doc/platforms.md "Xeon Max"): read hits are HBM reads, misses DDR
		 * reads that fill HBM; every write lands in HBM, the lines it evicts go to DDR at the miss rate */
		p->mem_read_bps[k] = (1 - h) * l->rd_bps;
		p->mem_write_bps[k] = (1 - h) * l->wr_bps;
		p->hbm_read_bps[k] = h * l->rd_bps;
		p->hbm_write_bps[k] = l->wr_bps + (1 - h) * l->rd_bps;
	}
	sim_rate_changed(s);
	return 0;
}

int sim_traffic(struct sim *s, int socket, double read_bps, double write_bps)
{
	struct socket_load l = { socket, read_bps, write_bps, 0, 0 };
	if (load_ok(s, &l))
		return -1;
	/* the machine's traffic: on a shared machine it is every process's, and one program's traffic set in its
	 * place would be every other process's too (uncore check zeroed theirs for good: issue 64) */
	if (s->shm)
		return uc_err("simulated traffic on socket %d: the traffic of a machine shared with other processes "
			      "(shared=) is theirs too, and is left as it is; give the program a machine of its own", socket);
	sim_shared_in(s, NULL);
	sim_advance_scope(s, -1);
	mbm_settle_to(s, sim_now(s));
	set_socket(s, &l);
	/* the program's traffic is the socket's whole workload: its cores' LLC data-read misses are those reads
	 * (a line each), so that a per-thread count sees nothing else (uncore check's attribution row) */
	if (s->prof.llc_miss_ratio[socket] > 0)
		s->prof.llc_lookups[socket] = read_bps / 64 / s->prof.llc_miss_ratio[socket];
	sim_rate_changed(s);
	sim_shared_out(s, NULL);
	return 0;
}


/* Hold the clock from now, let set() change the profile (every box brought up to now first), count ns of
 * the simulator's time at its rates, put the profile back, and let the clock go on ns later: nothing of
 * the host's own timing (a preempted process, a late wake-up) adds to or takes from the bytes.  what names
 * the workload in messages. */
static int stretch(struct sim *s, uint64_t ns, const char *what, int (*set)(struct sim *s, void *arg), void *arg)
{
	if (!ns || ns > 3600000000000ull)
		return uc_err("%s: its time must be 1 ns .. 1 h", what);
	if (s->shm)
		return uc_err("%s: the clock of a machine shared with other processes (shared=) cannot skip its time; "
			      "give the workload a machine of its own", what);
	struct sim_profile *saved = malloc(sizeof(*saved));
	if (!saved)
		return uc_err("out of memory");
	*saved = s->prof;
	uint64_t t = sim_now(s);
	s->held = 1;
	s->hold_ns = t;
	sim_advance_scope(s, -1);
	mbm_settle_to(s, t);
	int rc = set(s, arg);
	if (!rc) {
		s->hold_ns = t + ns;
		sim_advance_scope(s, -1);
		/* resctrl's view of the stretch: what each socket's memory moved at its rates */
		for (int k = 0; k < s->nsockets; k++)
			s->mbm[k] += (s->prof.mem_read_bps[k] + s->prof.mem_write_bps[k]) * (double)ns / 1e9;
		s->mbm_ns = t + ns;
		if (s->manual_clock)
			s->now_ns = t + ns;
		else
			s->epoch_ns -= ns;
	}
	s->prof = *saved;
	sim_rate_changed(s);
	s->held = 0;
	free(saved);
	return rc;
}

int sim_workload(struct sim *s, int socket, double read_bytes, double write_bytes, uint64_t ns)
{
	return sim_workload_on(s, socket, "ddr", read_bytes, write_bytes, ns);
}

/* A workload on one NUMA node (memory "nodeN"): its kind of memory on its socket, moved by the node's own
 * channels alone (sim_numa.c), as memory placed there with libnuma is. */
static int on_node(struct sim *s, const char *memory, struct socket_load *l)
{
	struct sim_node o;
	int n, len = 0;
	if (sscanf(memory, "node%d%n", &n, &len) != 1 || memory[len] || sim_node_at(s, n, &o) || o.socket < 0)
		return uc_err("simulated workload in memory '%s': the kinds are ddr, hbm, cxl and nodeN, N one of the "
			      "machine's %d nodes of one socket", memory, sim_numa_nodes(s));
	l->socket = o.socket;
	l->hbm = o.kind == SIM_NODE_HBM;
	l->cxl = o.kind == SIM_NODE_CXL;
	s->snc_only = n + 1;
	return 0;
}

int sim_workload_on(struct sim *s, int socket, const char *memory, double read_bytes, double write_bytes, uint64_t ns)
{
	char what[80];
	struct socket_load l = { socket, ns ? read_bytes * 1e9 / (double)ns : 0, ns ? write_bytes * 1e9 / (double)ns : 0, 0, 0 };
	if (memory && !strncmp(memory, "node", 4)) {
		if (on_node(s, memory, &l))
			return -1;
	} else if (!memory || (strcmp(memory, "ddr") && strcmp(memory, "hbm") && strcmp(memory, "cxl")))
		return uc_err("simulated workload in memory '%s': the kinds are ddr, hbm, cxl and nodeN", memory ? memory : "(null)");
	else {
		l.hbm = !strcmp(memory, "hbm");
		l.cxl = !strcmp(memory, "cxl");
		s->snc_only = -1; /* as a program's memory interleaved over the socket's nodes moves */
	}
	if (s->snc_only > 0)
		snprintf(what, sizeof(what), "simulated workload on %s", memory);
	else
		snprintf(what, sizeof(what), "simulated workload on socket %d%s", socket, l.hbm ? "'s HBM" : l.cxl ? "'s CXL memory" : "");
	int rc = stretch(s, ns, what, set_socket, &l);
	s->snc_only = 0;
	sim_rate_changed(s);
	return rc;
}

struct sets_load {
	int n;
	const uint8_t *const *cpus;
	const double *rd, *wr;
	uint64_t ns;
};

/* The sets as the profile's jobs, alone (sim_jobs.c makes the machine's traffic of them). */
static int set_jobs(struct sim *s, void *arg)
{
	const struct sets_load *l = arg;
	struct sim_profile *p = &s->prof;
	if (l->n < 1 || l->n > SIM_MAX_JOBS)
		return uc_err("simulated workload: 1 to %d CPU sets, not %d", SIM_MAX_JOBS, l->n);
	p->njobs = l->n;
	p->mem_given = 0;
	memset(p->dma_rd_bps, 0, sizeof(p->dma_rd_bps));
	memset(p->dma_wr_bps, 0, sizeof(p->dma_wr_bps));
	for (int i = 0; i < l->n; i++) {
		struct sim_job *j = &p->jobs[i];
		snprintf(j->name, sizeof(j->name), "set%d", i);
		memcpy(j->cpus, l->cpus[i], sizeof(j->cpus));
		j->ncpus = 0;
		for (int c = 0; c < UC_MAX_CPUS; c++)
			j->ncpus += cpu_in(j->cpus, c);
		j->rd_bps = l->rd[i] * 1e9 / (double)l->ns;
		j->wr_bps = l->wr[i] * 1e9 / (double)l->ns;
		if (!(j->rd_bps >= 0 && j->wr_bps >= 0 && j->rd_bps < 1e15 && j->wr_bps < 1e15))
			return uc_err("simulated workload of CPU set %d: rates must be 0..1e15 bytes/s", i);
	}
	return sim_jobs_apply(s, "(the workload's CPU sets)");
}

int sim_workload_cpus(struct sim *s, int n, const uint8_t *const *cpus, const double *read_bytes,
		      const double *write_bytes, uint64_t ns)
{
	struct sets_load l = { n, cpus, read_bytes, write_bytes, ns };
	return stretch(s, ns, "simulated workload of CPU sets", set_jobs, &l);
}
