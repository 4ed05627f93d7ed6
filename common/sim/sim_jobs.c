/*
 * Jobs on the simulated machine (issue 46 point 6): a profile's jobs each move bytes from their CPUs,
 * spread evenly over them; a socket's memory traffic is then its jobs' share plus its devices' DMA
 * (dma_read/write_bytes_per_s), and its cores' LLC data-read misses are exactly their memory reads (a
 * 64-byte line each), hashed evenly over the socket's CBos/CHAs.  A CBo/CHA counter whose tid filter is on
 * counts only the requests of the thread the tid names: its core's share of the cores' traffic (seed 000
 * "Any of the CBo events may be filtered by Thread/Core-ID ... .tid_en"; seed 001 T2-75 "tid [9:3]
 * Core-ID [2:0] Thread"); device requests carry no core's tid and drop out.
 *
 * Under sub-NUMA clustering (issue 67 point 3) a job's memory is its CPUs' own domain's, as Linux's default
 * policy allocates it on the node of the CPU that touches it (Documentation/admin-guide/mm/numa_memory_policy.rst,
 * "local allocation"): a domain's channels move its CPUs' jobs' bytes (and their share of the DMA), and the
 * addresses of a domain hash over its own CHAs only, so a CHA counts the misses of its domain's cores alone,
 * 1/C_d of them (C_d its domain's CHAs: sim_cha_domain).
 */
#include <stdio.h>
#include <string.h>
#include "sim.h"
#include "sim_numa.h"
#include "util/error.h"
#include "util/cpulist.h"
#include "util/memfs.h"

static int cpus_per_socket(const struct sim *s) { return s->cores * s->dies; }

/* What CPU c's cores read and write per second: the jobs' rates over their CPUs. */
static void cpu_rates(const struct sim_profile *p, int cpu, double *rd, double *wr)
{
	*rd = *wr = 0;
	for (int j = 0; j < p->njobs; j++)
		if (p->jobs[j].ncpus > 0 && cpu_in(p->jobs[j].cpus, cpu)) {
			*rd += p->jobs[j].rd_bps / p->jobs[j].ncpus;
			*wr += p->jobs[j].wr_bps / p->jobs[j].ncpus;
		}
}

int sim_jobs_apply(struct sim *s, const char *file)
{
	struct sim_profile *p = &s->prof;
	int per = cpus_per_socket(s), all = per * s->nsockets;
	int dma = 0;
	for (int k = 0; k < s->nsockets; k++)
		dma |= p->dma_rd_bps[k] > 0 || p->dma_wr_bps[k] > 0;
	if (!p->njobs) {
		if (dma)
			return uc_err("simulator profile %s: dma_read/write_bytes_per_s add to jobs' traffic: give "
				      "job.NAME.cpus too (or the socket's mem_read/write_bytes_per_s alone)", file);
		return 0;
	}
	if (p->mem_given)
		return uc_err("simulator profile %s: with jobs a socket's memory traffic is its jobs' plus its "
			      "dma_read/write_bytes_per_s: leave mem_read/write_bytes_per_s out", file);
	for (int j = 0; j < p->njobs; j++) {
		const struct sim_job *jb = &p->jobs[j];
		if (jb->ncpus <= 0)
			return uc_err("simulator profile %s: job %s has no job.%s.cpus", file, jb->name, jb->name);
		for (int c = all; c < UC_MAX_CPUS; c++)
			if (cpu_in(jb->cpus, c))
				return uc_err("simulator profile %s: job %s: CPU %d is not on the machine (CPUs 0-%d)", file,
					      jb->name, c, all - 1);
	}
	for (int k = 0; k < s->nsockets; k++) {
		double rd = 0, wr = 0, r, w;
		for (int c = k * per; c < (k + 1) * per; c++) {
			cpu_rates(p, c, &r, &w);
			rd += r;
			wr += w;
		}
		p->core_rd_bps[k] = rd;
		p->core_wr_bps[k] = wr;
		p->mem_read_bps[k] = rd + p->dma_rd_bps[k];
		p->mem_write_bps[k] = wr + p->dma_wr_bps[k];
		/* the TOR's data-read misses are the cores' memory reads */
		if (p->llc_miss_ratio[k] > 0)
			p->llc_lookups[k] = rd / 64 / p->llc_miss_ratio[k];
	}
	sim_rate_changed(s);
	return 0;
}

int sim_jobs_by_domain(const struct sim *s) { return s->prof.njobs > 0 && s->snc > 1 && !s->snc_only; }

double sim_jobs_domain_bps(const struct sim *s, int sock, int d, int write)
{
	int per = cpus_per_socket(s);
	double v = 0, r, w;
	for (int c = sock * per; c < (sock + 1) * per; c++)
		if (sim_cpu_domain(s, c) == d) {
			cpu_rates(&s->prof, c, &r, &w);
			v += write ? w : r;
		}
	return v;
}

/* Under SNC with jobs: the part of the socket's core misses a CHA of domain d sees, over the 1/C it would see
 * were they hashed over all C CHAs of the socket: its domain's cores' (or, filtered, that core's if it is in
 * the domain) times C / C_d. */
static double domain_weight(const struct sim *s, const struct sim_box *b, double cpu_rd, int cpu)
{
	const struct sim_profile *p = &s->prof;
	int d = sim_cha_domain(s, b), all = cpus_per_socket(s);
	if (d < 0 || p->core_rd_bps[b->socket] <= 0)
		return 0;
	double rd = cpu < 0 ? sim_jobs_domain_bps(s, b->socket, d, 0) : sim_cpu_domain(s, cpu) == d ? cpu_rd : 0;
	return rd / p->core_rd_bps[b->socket] * all / (all / s->snc);
}

int sim_tid_filtered(const struct sim_box *b, uint64_t ctl) { return b->u->tid_en && (ctl & b->u->tid_en) && !b->tidless; }

/* The width of the unit's tid field. */
static int tid_width(const struct sim_box *b)
{
	for (int i = 0; i < b->u->nfld; i++)
		if (!strcmp(b->u->fld[i].name, "tid"))
			return b->u->fld[i].width;
	return 0;
}

double sim_tid_devices(const struct sim_box *b, uint64_t ctl)
{
	if (!sim_tid_filtered(b, ctl))
		return 1;
	/* the I/O agent's id: every core bit set, thread 0 (seed 000: "Transactions that are associated with
	 * PCIe will come from 0x1E" of a 5-bit tid; Haswell-EP's 6-bit 0x3E alike) */
	int w = tid_width(b), lo = b->u->tid_core_lo;
	uint64_t tid = sim_field(b, "tid");
	return w > lo && tid == (uc_width_mask(w - lo) << lo) ? 1 : 0;
}

double sim_tid_share(const struct sim *s, const struct sim_box *b, uint64_t ctl)
{
	if (!sim_tid_filtered(b, ctl))
		return sim_jobs_by_domain(s) ? domain_weight(s, b, 0, -1) : 1;
	const struct sim_profile *p = &s->prof;
	uint64_t tid = sim_field(b, "tid");
	uint64_t core = tid >> b->u->tid_core_lo, thread = tid & ((1ull << b->u->tid_core_lo) - 1);
	int per = cpus_per_socket(s);
	if (thread || core >= (uint64_t)per) /* one thread a core; device ids (SNB-EP PCIe 0x1E) are no core */
		return 0;
	if (!p->njobs) /* the socket's traffic from all its cores alike */
		return 1.0 / per;
	double rd, wr;
	cpu_rates(p, b->socket * per + (int)core, &rd, &wr);
	if (sim_jobs_by_domain(s))
		return domain_weight(s, b, rd, b->socket * per + (int)core);
	return p->core_rd_bps[b->socket] > 0 ? rd / p->core_rd_bps[b->socket] : 0;
}

int sim_job_gpus(struct sim_job *j, const char *val, char *why, size_t len)
{
	char list[512];
	while (*val == ' ' || *val == '\t')
		val++;
	snprintf(list, sizeof(list), "%s", val);
	list[strcspn(list, " \t\r\n")] = 0;
	memset(j->gpus, 0, sizeof(j->gpus));
	if ((j->ngpus = cpulist_parse(list, j->gpus, why, len)) <= 0) {
		if (!j->ngpus)
			snprintf(why, len, "no GPU index in the list");
		return -1;
	}
	return 0;
}
