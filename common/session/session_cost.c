/*
 * What one read of a session will cost, before it is started (uncore_session_estimate_read_ns): the read
 * path's accesses (session_read.c, session_box.c) priced by the cost model (access_cost.c), so a front end
 * can keep its default set within a share of a core at its read interval (select.c).  An estimate, averaged
 * over reads interval_s apart: every box's counters, its share of the control words read back in rotation
 * (session_readback.c: a rotation a second, at most a fifth of the counters' accesses a read), each CPU's
 * boxes read from that CPU where moving there pays, its MSRs in one batch where the backend has one.
 */
#include "session_priv.h"

/* The CPU a box's reads must run on, or -1: any (PCI, MMIO) */
static int cost_cpu(const uncore_session_t *s, const struct prog *p)
{
	const struct box *b = box_of(s, p->box);
	return s->u->perf || b->t->space == UC_MSR ? b->cpu : -1;
}

/* A box's read that runs on no CPU in particular: a PCI block each run of adjacent counters and a control
 * word, or an MMIO load each. */
static double anywhere_ns(const uncore_session_t *s, const struct prog *p, double verify)
{
	const struct box *b = box_of(s, p->box);
	uint64_t addr[UC_MAX_SLOTS];
	int n = p->nslots < UC_MAX_SLOTS ? p->nslots : UC_MAX_SLOTS;
	if (!n)
		return 0;
	double ctl_ns = 0; /* the control words read back (a 64-bit one, discovery units, is two PCI dwords) */
	for (int k = 0; k < n; k++)
		if (s->slots[p->first + k].ctr != UC_CTR_FREERUN)
			ctl_ns += b->t->space == UC_PCI ? access_price(COST_PCI, s->slots[p->first + k].ctl.bytes / 4)
							: access_price(COST_MMIO, 1);
	if (b->t->space != UC_PCI)
		return access_price(COST_MMIO, n) + verify * ctl_ns;
	for (int k = 0; k < n; k++)
		addr[k] = s->slots[p->first + k].addr;
	uint32_t lo;
	uint64_t need = reg_pci_dwords(addr, n, &lo), starts = need & ~(need << 1);
	return (double)__builtin_popcountll(starts) * access_price(COST_PCI, 0) +
	       (double)__builtin_popcountll(need) * (access_price(COST_PCI, 1) - access_price(COST_PCI, 0)) +
	       verify * ctl_ns;
}

/* Reads of one CPU's boxes: through the kernel a read(2) per group, directly its counters and a control
 * word a box (in one batch where there is one); ops: those that would each be an interrupt from elsewhere */
static double cpu_ns(const uncore_session_t *s, int cpu, double verify, int *ops)
{
	double ns = 0, regs = 0;
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
			for (int k = 0; k < p->nslots; k++)
				regs += 1 + verify * (s->slots[p->first + k].ctr != UC_CTR_FREERUN);
		}
	}
	if (!s->u->perf && regs > 0) {
		int batch = access_batches(s->u->acc);
		ns += batch ? access_price(COST_MSR_BATCH, (int)(regs + 0.5)) : regs * access_price(COST_MSR, 1);
		*ops = batch ? 1 : (int)(regs + 0.5);
	}
	return ns;
}

double uncore_session_estimate_read_ns_impl(const uncore_session_t *s, double interval_s)
{
	struct access *a = s->u->acc;
	/* the share of the control words a read reads back (the rotation's credit falls evenly on the reads) */
	double verify = sess_readback_share(s, interval_s);
	int cpus[UC_MAX_SOCKETS * UC_MAX_DIES], ncpus = 0, moved = 0;
	double ns = 0;
	for (int i = 0; i < s->nprogs; i++) {
		int cpu = cost_cpu(s, &s->progs[i]), k = 0;
		if (cpu < 0) {
			ns += anywhere_ns(s, &s->progs[i], verify);
			continue;
		}
		while (k < ncpus && cpus[k] != cpu)
			k++;
		if (k == ncpus && ncpus < UC_MAX_SOCKETS * UC_MAX_DIES)
			cpus[ncpus++] = cpu;
	}
	for (int c = 0; c < ncpus; c++) {
		int ops;
		ns += cpu_ns(s, cpus[c], verify, &ops);
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
