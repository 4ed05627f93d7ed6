/*
 * What one read of a session will cost, before it is started (uncore_session_estimate_read_ns): the read
 * path's accesses (session_read.c, session_box.c) priced by the cost model (access_cost.c), so a front end
 * can keep its default set within a share of a core at its read interval (select.c).  An estimate: every
 * box read as a steady read reads it (its counters and one control word read back), each CPU's boxes from
 * that CPU where moving there pays, its MSRs in one batch where the backend has one.
 */
#include "session_priv.h"

/* The CPU a box's reads must run on, or -1: any (PCI, MMIO) */
static int cost_cpu(const uncore_session_t *s, const struct prog *p)
{
	const struct box *b = box_of(s, p->box);
	return s->u->perf || b->t->space == UC_MSR ? b->cpu : -1;
}

/* A box's read that runs on no CPU in particular: one PCI block of its counters and a control word, or an
 * MMIO load each. */
static double anywhere_ns(const uncore_session_t *s, const struct prog *p)
{
	const struct box *b = box_of(s, p->box);
	uint64_t lo = UINT64_MAX, hi = 0;
	for (int k = 0; k < p->nslots; k++) {
		const struct slot *sl = &s->slots[p->first + k];
		lo = sl->addr < lo ? sl->addr : lo;
		hi = sl->addr + 8 > hi ? sl->addr + 8 : hi;
	}
	if (!p->nslots)
		return 0;
	int ctl_dwords = 0; /* the control word read back: a 64-bit one (discovery units) is two */
	for (int k = 0; k < p->nslots && !ctl_dwords; k++)
		if (s->slots[p->first + k].ctr != UC_CTR_FREERUN)
			ctl_dwords = s->slots[p->first + k].ctl.bytes / 4;
	if (b->t->space == UC_PCI)
		return access_price(COST_PCI, (int)((hi - lo) / 4)) + (ctl_dwords ? access_price(COST_PCI, ctl_dwords) : 0);
	return access_price(COST_MMIO, p->nslots + 1);
}

/* Reads of one CPU's boxes: through the kernel a read(2) per group, directly its counters and a control
 * word a box (in one batch where there is one); ops: those that would each be an interrupt from elsewhere */
static double cpu_ns(const uncore_session_t *s, int cpu, int *ops)
{
	double ns = 0;
	int regs = 0;
	*ops = 0;
	for (int i = 0; i < s->nprogs; i++) {
		const struct prog *p = &s->progs[i];
		if (cost_cpu(s, p) != cpu || !p->nslots)
			continue;
		if (s->u->perf) {
			int fr = 0;
			for (int k = 0; k < p->nslots; k++)
				fr += s->slots[p->first + k].ctr == UC_CTR_FREERUN;
			int groups = (fr > 0) + (fr < p->nslots);
			ns += access_price(COST_PERF, p->nslots) + (groups - 1) * access_price(COST_PERF, 0);
			*ops += groups;
		} else {
			regs += p->nslots + 1;
		}
	}
	if (!s->u->perf && regs) {
		int batch = access_batches(s->u->acc);
		ns += batch ? access_price(COST_MSR_BATCH, regs) : regs * access_price(COST_MSR, 1);
		*ops = batch ? 1 : regs;
	}
	return ns;
}

double uncore_session_estimate_read_ns_impl(const uncore_session_t *s)
{
	struct access *a = s->u->acc;
	int cpus[UC_MAX_SOCKETS * UC_MAX_DIES], ncpus = 0, moved = 0;
	double ns = 0;
	for (int i = 0; i < s->nprogs; i++) {
		int cpu = cost_cpu(s, &s->progs[i]), k = 0;
		if (cpu < 0) {
			ns += anywhere_ns(s, &s->progs[i]);
			continue;
		}
		while (k < ncpus && cpus[k] != cpu)
			k++;
		if (k == ncpus && ncpus < UC_MAX_SOCKETS * UC_MAX_DIES)
			cpus[ncpus++] = cpu;
	}
	for (int c = 0; c < ncpus; c++) {
		int ops;
		ns += cpu_ns(s, cpus[c], &ops);
		/* through the kernel a read interrupts only from another package (sess_perf_read_cpu) */
		int remote = s->u->perf ? s->u->host.cpu_socket[cpus[c]] != s->u->host.cpu_socket[access_here(a) < 0 ? 0 : access_here(a)]
					: cpus[c] != access_here(a);
		if (!remote)
			continue;
		if (access_worth_moving(a, cpus[c], ops)) {
			ns += access_price(COST_MIGRATE, 0);
			moved = 1;
		} else {
			ns += ops * access_price(COST_IPI, 0);
		}
	}
	return ns + (moved ? access_price(COST_MIGRATE, 0) : 0); /* and back */
}
