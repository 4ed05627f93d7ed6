/*
 * The simulated machine's NUMA nodes (sim_numa.h).  Sub-NUMA clustering splits a socket into N domains, each
 * its cores and the memory channels that serve its addresses; Linux shows each domain as a node (the CPU nodes
 * first, socket by socket, then the memory-only ones: Xeon Max's HBM in flat mode, a node per domain, and CXL
 * memory, a node per socket).  The hardware's channel ownership is this file's own (the witness's), from the
 * parts' geometry: Sapphire Rapids has four compute tiles of one two-channel iMC each (Intel Architecture Day
 * 2021), SNC4 a tile a domain, SNC2 iMCs 0 and 2 in domain 0, 1 and 3 in domain 1 (perf's spr_emr_snc2_map,
 * tools/perf/arch/x86/util/pmu.c, Linux 6.18); Emerald Rapids has two dies of two iMCs (SNC2 as SPR); Granite
 * Rapids' SNC3 is a compute die a domain (Intel Xeon 6900P), channel pairs 0..5 in domains 1, 0, 2, 1, 0, 2
 * (perf's snc3_map); the simulated Sierra Forest and Clearwater Forest are Granite Rapids' machine.  A Xeon
 * Max HBM stack sits on each tile: stack k (channels 8k..8k+7) serves tile k's domain.
 * Each domain d moves d + 1 parts of its socket's traffic (deliberately uneven: a map that gives one node's
 * channels to another is wrong by the difference), spread evenly over the domain's channels.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "sim_numa.h"
#include "sim_pcitree.h"
#include "util/error.h"

int sim_snc_option(struct sim *s, const char *v)
{
	char *end;
	long n = strtol(v, &end, 10);
	if (*end || n < 1 || n > SIM_MAX_SNC)
		return uc_err("simulator option snc=%s: 1 (off) to %d domains a socket (the SNC modes the simulated "
			      "platforms lay out)", v, SIM_MAX_SNC);
	s->snc = (int)n;
	return 0;
}

static int snc_of(const struct sim *s) { return s->snc > 1 ? s->snc : 1; }

/* The domain a DDR channel (iMC or B2CMI id idx) serves, by the hardware's ownership (the kind's snc_layout). */
static int ddr_domain(const struct sim *s, int idx, int die)
{
	int d;
	if (s->snc <= 1)
		return die;
	d = s->kind->snc_layout->ddr[s->snc][idx / 2 % s->snc];
	return s->snc_swap && d < 2 ? d ^ 1 : d;
}

static int hbm_domain(const struct sim *s, int idx) { return s->snc <= 1 ? 0 : idx / 8 % s->snc; }

static int box_domain(const struct sim *s, const struct sim_box *b, int *hbm)
{
	*hbm = !strcmp(b->u->name, "hbm");
	return *hbm ? hbm_domain(s, b->idx) : ddr_domain(s, b->idx, b->die);
}

int sim_snc_check(struct sim *s)
{
	const struct sim_snc_layout *l = s->kind->snc_layout;
	char want[12];
	if (s->snc <= 1)
		goto count;
	snprintf(want, sizeof(want), "%d", s->snc);
	if (!l) {
		char on[128] = "";
		for (int i = 0; sim_kinds[i]; i++) /* the kinds with an SNC layout, from the registry */
			if (sim_kinds[i]->snc_layout)
				snprintf(on + strlen(on), sizeof(on) - strlen(on), "%s%s", *on ? ", " : "", sim_kinds[i]->name);
		return uc_err("simulator option snc=%d: sub-NUMA clustering is simulated on %s", s->snc, on);
	}
	if (!strstr(l->allowed, want))
		return uc_err("simulator option snc=%d: sim:%s allows snc=%s (%s)", s->snc, s->name, l->allowed, l->why);
	if (s->dies > 1 || s->numa_off)
		return uc_err("simulator option snc=%d: not with %s", s->snc, s->numa_off ? "numa=off" : "dies=N");
count:
	memset(s->snc_nch, 0, sizeof(s->snc_nch));
	for (int i = 0; i < s->nboxes; i++) {
		const struct sim_box *b = &s->boxes[i];
		int hbm, d;
		if ((strcmp(b->u->name, "imc") && strcmp(b->u->name, "hbm")) || !sim_chan_populated(s, b))
			continue; /* (an empty channel serves no domain's traffic) */
		d = box_domain(s, b, &hbm);
		if (d >= 0 && d < UC_MAX_DIES)
			s->snc_nch[hbm][b->socket][d]++;
	}
	return 0;
}

int sim_snc_fault(struct sim *s, const char *kind, const char *unit)
{
	int want = !strcmp(unit, "sncmap") ? !strcmp(kind, "swapped") : !strcmp(kind, "hidden");
	if (!want)
		return uc_err("simulator fault %s:%s: the faults are swapped:sncmap and hidden:snc", kind, unit);
	if (s->snc <= 1)
		return uc_err("simulator fault %s:%s: needs sub-NUMA clustering (snc=N)", kind, unit);
	if (!strcmp(unit, "sncmap"))
		s->snc_swap = 1;
	else
		s->snc_hide = 1;
	if (s->snc_swap)
		sim_snc_check(s); /* the channels by their new domains */
	sim_rate_changed(s);
	return 0;
}

/* Domains of a socket: SNC's, else its logical dies (a node each). */
static int domains(const struct sim *s) { return s->snc > 1 ? s->snc : s->dies; }
static int cpu_nodes(const struct sim *s) { return s->numa_off ? 1 : sim_scopes(s) * snc_of(s); }
static int hbm_nodes(const struct sim *s) { return s->numa_off || s->hbm_mode != SIM_HBM_FLAT ? 0 : s->nsockets * snc_of(s); }
static int cxl_nodes(const struct sim *s) { return s->numa_off || !s->cxl_mem ? 0 : s->nsockets; }

int sim_numa_nodes(const struct sim *s) { return cpu_nodes(s) + hbm_nodes(s) + cxl_nodes(s); }

int sim_node_at(const struct sim *s, int n, struct sim_node *o)
{
	int c = cpu_nodes(s), h = hbm_nodes(s);
	if (n < 0 || n >= sim_numa_nodes(s))
		return -1;
	if (n < c)
		*o = (struct sim_node){ SIM_NODE_DDR, s->numa_off ? -1 : n / (snc_of(s) * s->dies), s->numa_off ? 0 : n % domains(s) };
	else if (n < c + h)
		*o = (struct sim_node){ SIM_NODE_HBM, (n - c) / snc_of(s), (n - c) % snc_of(s) };
	else
		*o = (struct sim_node){ SIM_NODE_CXL, n - c - h, 0 };
	return 0;
}

int sim_node_of_scope(const struct sim *s, int scope) { return scope * snc_of(s); }

void sim_node_functions(struct sim *s, int first, int scope)
{
	for (int d = first; d < s->ndevs; d++)
		s->devs[d].info.node = sim_node_of_scope(s, scope);
}

int sim_stack_node(const struct sim *s, int socket, int die, int stack)
{
	int n = sim_iio_stacks(s);
	if (s->numa_off)
		return -1;
	return sim_node_of_scope(s, socket * s->dies + die) + (s->snc > 1 && n > 0 ? stack * s->snc / n : 0);
}

int sim_scope_of_node(const struct sim *s, int node)
{
	return node >= 0 && node < sim_scopes(s) * snc_of(s) ? node / snc_of(s) : -1;
}

/* Domain d's share of its socket's reads (write 0) or writes (1) of a kind (hbm 0 DDR, 1 HBM). */
static double share(const struct sim *s, int hbm, int sock, int d, int write)
{
	const struct sim_profile *p = &s->prof;
	int n = domains(s), all = 0;
	struct sim_node o;
	if (s->snc_only > 0 && !sim_node_at(s, s->snc_only - 1, &o)) /* a workload on one node: its domain alone */
		return o.kind == (hbm ? SIM_NODE_HBM : SIM_NODE_DDR) && (o.socket < 0 || o.socket == sock) && o.domain == d;
	if (hbm && s->snc <= 1)
		return 1;
	if (s->snc <= 1 || s->snc_only < 0) { /* dies, or a workload interleaved over the socket: each channel alike */
		for (int k = 0; k < n; k++)
			all += s->snc_nch[hbm][sock][k];
		return all ? (double)s->snc_nch[hbm][sock][d] / all : 0;
	}
	double parts = (d + 1) / (n * (n + 1) / 2.0);
	if (!hbm && sim_jobs_by_domain(s)) { /* the jobs' CPUs' own domain, and its parts of the devices' DMA */
		double dma = write ? p->dma_wr_bps[sock] : p->dma_rd_bps[sock];
		double all_bps = (write ? p->core_wr_bps[sock] : p->core_rd_bps[sock]) + dma;
		return all_bps > 0 ? (sim_jobs_domain_bps(s, sock, d, write) + dma * parts) / all_bps : parts;
	}
	return parts;
}

double sim_chan_div(const struct sim *s, const struct sim_box *b, int nch, int write)
{
	int hbm, d;
	if (!sim_chan_populated(s, b))
		return INFINITY; /* an empty channel: none of it */
	if (s->snc <= 1)
		return nch;
	d = box_domain(s, b, &hbm);
	double f = share(s, hbm, b->socket, d, write);
	return f > 0 ? s->snc_nch[hbm][b->socket][d] / f : INFINITY; /* another domain's workload: none here */
}

int sim_cpu_domain(const struct sim *s, int c) { return s->snc > 1 ? c % s->cores * s->snc / s->cores : 0; }

/* perf's uncore_cha_snc (tools/perf/arch/x86/util/pmu.c, after Linux 6.12): "CHA SNC numbers are ordered
 * correspond to the CHAs number", CHA N of a socket's C in domain N / (C / SNC) */
int sim_cha_domain(const struct sim *s, const struct sim_box *b)
{
	int per = s->snc > 1 ? sim_chas(s) * s->dies / s->snc : 0;
	if (!per)
		return 0;
	return b->idx / per < s->snc ? b->idx / per : -1;
}

int sim_node_truth(const struct sim *s, int n, double *rd, double *wr)
{
	const struct sim_profile *p = &s->prof;
	struct sim_node o;
	if (sim_node_at(s, n, &o))
		return uc_err("simulated NUMA node %d: the machine has %d", n, sim_numa_nodes(s));
	*rd = *wr = 0;
	for (int k = 0; k < s->nsockets; k++) {
		if (o.socket >= 0 && o.socket != k)
			continue;
		int whole = o.socket < 0 || o.kind == SIM_NODE_CXL;
		double f = whole ? 1 : share(s, o.kind == SIM_NODE_HBM, k, o.domain, 0);
		*rd += f * (o.kind == SIM_NODE_DDR ? p->mem_read_bps[k] : o.kind == SIM_NODE_HBM ? p->hbm_read_bps[k] : p->cxl_read_bps[k]);
		f = whole ? 1 : share(s, o.kind == SIM_NODE_HBM, k, o.domain, 1);
		*wr += f * (o.kind == SIM_NODE_DDR ? p->mem_write_bps[k] : o.kind == SIM_NODE_HBM ? p->hbm_write_bps[k] : p->cxl_write_bps[k]);
	}
	return 0;
}

int sim_node_hbm_truth(const struct sim *s, int n, double *rd, double *wr)
{
	struct sim_node o;
	if (sim_node_at(s, n, &o))
		return uc_err("simulated NUMA node %d: the machine has %d", n, sim_numa_nodes(s));
	if (o.kind == SIM_NODE_HBM)
		return sim_node_truth(s, n, rd, wr);
	*rd = *wr = 0;
	if (o.kind != SIM_NODE_DDR || (s->hbm_mode != SIM_HBM_CACHE && s->hbm_mode != SIM_HBM_ONLY))
		return 0; /* (HBM-only: the CPUs' node's memory is the HBM) */
	for (int k = 0; k < s->nsockets; k++)
		if (o.socket < 0 || o.socket == k) {
			double f = o.socket < 0 ? 1 : share(s, 1, k, o.domain, 0);
			*rd += f * s->prof.hbm_read_bps[k];
			*wr += f * s->prof.hbm_write_bps[k];
		}
	return 0;
}

/* CPU c's node: its die's, and in the die its domain (cores split evenly, in order). */
static int cpu_node(const struct sim *s, int c)
{
	return s->numa_off ? 0 : c / s->cores * snc_of(s) + sim_cpu_domain(s, c);
}

/* ACPI SLIT-like distances: 10 local, 12 another domain of the socket, 13 a memory-only node of the domain,
 * 14 one of another domain, 21/23 across sockets. */
static int distance(const struct sim *s, int a, int b)
{
	struct sim_node x, y;
	if (a == b)
		return 10;
	sim_node_at(s, a, &x);
	sim_node_at(s, b, &y);
	if (x.socket != y.socket)
		return x.kind == SIM_NODE_DDR && y.kind == SIM_NODE_DDR ? 21 : 23;
	if (x.kind == SIM_NODE_DDR && y.kind == SIM_NODE_DDR)
		return 12;
	return x.kind != SIM_NODE_CXL && y.kind != SIM_NODE_CXL && x.domain == y.domain ? 13 : 14;
}

/* "a-b" of a range of CPUs or nodes, "" when empty */
static void range(char *buf, size_t len, int lo, int n)
{
	if (n <= 0)
		snprintf(buf, len, "\n");
	else if (n == 1)
		snprintf(buf, len, "%d\n", lo);
	else
		snprintf(buf, len, "%d-%d\n", lo, lo + n - 1);
}

#define SIM_BLOCK_BYTES 0x80000000ull /* 2 GiB memory blocks (Linux x86 probe_memory_block_size, large machines) */

/* A node's memory in blocks: 32 GiB a DDR channel, 64 GiB of HBM a socket (Xeon Max), 128 GiB of CXL memory. */
static int node_blocks(const struct sim *s, int n)
{
	struct sim_node o;
	int ch = 0;
	sim_node_at(s, n, &o);
	if (o.kind == SIM_NODE_HBM)
		return 32 / snc_of(s);
	if (o.kind == SIM_NODE_CXL)
		return 64;
	if (s->mapout && o.socket == s->mapout - 1)
		return 0; /* mapout=S: the BIOS mapped the socket's DIMMs out (sim_dimms.c): its node has CPUs, no memory */
	for (int k = 0; k < s->nsockets; k++)
		if (o.socket < 0 || o.socket == k)
			ch += s->numa_off ? s->mem_channels[k] : s->snc_nch[0][k][o.domain];
	return ch * 16;
}

int sim_numa_sysfs(const struct sim *s, struct memfs *m)
{
	char path[128], buf[4096];
	int nn = sim_numa_nodes(s), ncpu = sim_scopes(s) * s->cores, rc = 0, block = 0;
	range(buf, sizeof(buf), 0, nn);
	rc |= memfs_put(m, "/sys/devices/system/node/online", buf, 0);
	range(buf, sizeof(buf), 0, cpu_nodes(s));
	rc |= memfs_put(m, "/sys/devices/system/node/has_cpu", buf, 0);
	snprintf(buf, sizeof(buf), "%llx\n", SIM_BLOCK_BYTES); /* drivers/base/memory.c block_size_bytes_show: %lx */
	rc |= memfs_put(m, "/sys/devices/system/memory/block_size_bytes", buf, 0);
	for (int n = 0; n < nn && !rc; n++) {
		int first = -1, count = 0;
		size_t k = 0;
		for (int c = 0; c < ncpu; c++)
			if (cpu_node(s, c) == n && n < cpu_nodes(s))
				first = first < 0 ? c : first, count++;
		range(buf, sizeof(buf), first, count); /* a domain's CPUs are consecutive */
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		rc |= memfs_put(m, path, buf, 0);
		for (int o = 0; o < nn; o++)
			k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%d", o ? " " : "", distance(s, n, o));
		snprintf(buf + k, sizeof(buf) - k, "\n");
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/distance", n);
		rc |= memfs_put(m, path, buf, 0);
		/* drivers/base/node.c register_mem_block_under_node: a link per memory block of the node */
		for (int b = node_blocks(s, n); b > 0 && !rc; b--, block++) {
			snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/memory%d", n, block);
			snprintf(buf, sizeof(buf), "../../memory/memory%d", block);
			rc |= memfs_put(m, path, buf, 1);
		}
	}
	/* each CPU's L3: its die's CPUs (hidden:snc: its node's, as if every node had an L3 of its own) */
	for (int c = 0; c < ncpu && !rc; c++) {
		int lo = c / s->cores * s->cores, n = s->cores;
		if (s->snc_hide) {
			n = s->cores / snc_of(s);
			lo += (c % s->cores) / n * n;
		}
		range(buf, sizeof(buf), lo, n);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list", c);
		rc |= memfs_put(m, path, buf, 0);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index3/level", c);
		rc |= memfs_put(m, path, "3\n", 0);
	}
	return rc ? uc_err("out of memory") : 0;
}
