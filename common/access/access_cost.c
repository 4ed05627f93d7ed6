/*
 * Where a read runs and what it costs (doc/cost.md).
 *
 * An MSR is read on its own CPU: the msr driver runs rdmsr there, through an inter-processor interrupt when
 * the caller sits elsewhere (rdmsr_safe_on_cpu -> smp_call_function_single), and an uncore perf event's
 * count is read on the CPU it counts on the same way (perf_event_read).  So the library can move the calling
 * thread onto each socket's CPU for that socket's reads (access_place) and read every MSR of the CPU in one
 * call where msr-safe's batch device exists (access_msr_prefetch).  PCI configuration space and MMIO need no
 * particular CPU.
 *
 * The cost model prices each access as hardware would; the simulator's figures come from it alone, the
 * real backends' are the same estimate beside what they really took (make bench prints both).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getcpu, sched_setaffinity */
#endif
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include "access.h"
#include "util/error.h"

/* The model's prices, ns (doc/cost.md says where each comes from):
 * - a system call with the msr driver's work (pread of /dev/cpu/N/msr on N itself measured 217-279 ns a read
 *   of a core MSR on a Ryzen 3950X, rdmsr included: iximeow's msr_peek, 2024), rounded up for a server kernel
 *   with the speculation mitigations on;
 * - an uncore MSR's rdmsr on its own CPU: the register sits in a box out on the mesh, a few hundred cycles
 *   (an assumption: no public measurement; uncore check prints the real one on the node);
 * - the interrupt round trip of smp_call_function_single to another CPU, which waits for that CPU to take
 *   it (make bench measures it on this machine: bench ipi);
 * - a PCI configuration dword through sysfs (an MMCONFIG non-posted read of the device);
 * - an MMIO load from a box (uncached, across the mesh);
 * - the kernel's pmu->read of one member of an uncore perf group (a register each);
 * - moving a thread to another CPU (sched_setaffinity migrates it through the stopper thread: two context
 *   switches; make bench measures it here). */
#define COST_SYSCALL_NS 300
#define COST_RDMSR_NS 100
#define COST_IPI_NS 3000
#define COST_PCI_NS 1000
#define COST_MMIO_NS 300
#define COST_PERF_MEMBER_NS 100
#define COST_MIGRATE_NS 8000

/* (in integers: a read at 100 Hz prices every group and box it reads) */
static uint64_t price_ns(enum access_cost_kind k, int n)
{
	uint64_t m = n > 0 ? (uint64_t)n : 0;
	switch (k) {
	case COST_MSR: /* one pread, one rdmsr */
		return m * (COST_SYSCALL_NS + COST_RDMSR_NS);
	case COST_MSR_BATCH: /* one ioctl, n rdmsr on the CPU */
		return COST_SYSCALL_NS + m * COST_RDMSR_NS;
	case COST_PCI: /* one pread of n dwords */
		return COST_SYSCALL_NS + m * COST_PCI_NS;
	case COST_MMIO:
		return m * COST_MMIO_NS;
	case COST_PERF: /* one read(2) of a group of n */
		return COST_SYSCALL_NS + m * COST_PERF_MEMBER_NS;
	case COST_MIGRATE:
		return COST_MIGRATE_NS;
	case COST_IPI:
		return COST_IPI_NS;
	}
	return 0;
}

double access_price(enum access_cost_kind k, int n) { return (double)price_ns(k, n); }

void access_cost(struct access *a, enum access_cost_kind k, int cpu, int n)
{
	struct uncore_stats *st = &a->stats;
	uint64_t ns = price_ns(k, k == COST_MSR ? 1 : n);
	st->batches += k == COST_MSR_BATCH;
	st->migrations += k == COST_MIGRATE;
	if ((k == COST_MSR || k == COST_MSR_BATCH || k == COST_PERF) && cpu >= 0 && cpu != access_here(a)) {
		ns += COST_IPI_NS;
		st->remote_reads++;
	}
	st->modelled_ns += ns;
}

/* The CPU the calling thread runs on now: the simulator's placement, or the real one. */
int access_here(const struct access *a)
{
	if (a->simulated)
		return a->here;
	return a->placed ? a->here : sched_getcpu();
}

int access_worth_moving(const struct access *a, int cpu, int ops)
{
	/* there, and (at the end of the read) back */
	return a->place_ok && cpu >= 0 && cpu != access_here(a) && (int64_t)ops * COST_IPI_NS > 2 * COST_MIGRATE_NS;
}

int access_batches(const struct access *a) { return a->batch_ok && !a->batch_failed && a->ops->msr_read_batch; }

int access_place(struct access *a, int cpu)
{
	if (!a->place_ok || cpu < 0 || cpu == access_here(a))
		return 0;
	if (!a->simulated) {
		cpu_set_t set;
		if (!a->placed && sched_getaffinity(0, sizeof(a->saved_affinity), (cpu_set_t *)a->saved_affinity))
			return -1;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set)) /* not ours to run on (a cpuset): read from here */
			return -1;
		a->placed = 1;
	}
	a->here = cpu;
	access_cost(a, COST_MIGRATE, -1, 0);
	return 0;
}

void access_unplace(struct access *a)
{
	if (!a->simulated && a->placed) {
		sched_setaffinity(0, sizeof(a->saved_affinity), (const cpu_set_t *)a->saved_affinity);
		access_cost(a, COST_MIGRATE, -1, 0);
	} else if (a->simulated && a->here != a->home) {
		access_cost(a, COST_MIGRATE, -1, 0);
	}
	a->placed = 0;
	a->here = a->home;
}

/* ---- MSR batch: one call for a CPU's registers, kept until forgotten ---- */

int access_msr_prefetch(struct access *a, struct msr_prefetch *p)
{
	access_msr_forget(a);
	if (!access_batches(a) || p->n <= 0)
		return 0;
	p->next = 0;
	p->at = 0;
	if (a->ops->msr_read_batch(a, p->cpu, p->reg, p->n, p->val, &p->at)) { /* each read alone then, saying its own error */
		a->batch_failed = 1; /* and from now on (no batch device, a register it refuses) */
		return 0;
	}
	a->prefetch = p;
	return 0;
}

void access_msr_forget(struct access *a)
{
	a->prefetch = NULL;
}

int access_msr_read_many(struct access *a, int cpu, const uint64_t *regs, int n, uint64_t *v)
{
	struct msr_prefetch *p = a->prefetch;
	int i = 0;
	if (p && p->cpu == cpu) /* the prefetched run in its order: taken as it lies */
		for (; i < n && p->next < p->n && p->reg[p->next] == (uint32_t)regs[i]; i++)
			v[i] = p->val[p->next++];
	for (; i < n; i++)
		if (access_msr_read(a, cpu, (uint32_t)regs[i], &v[i]))
			return -1;
	return 0;
}

int access_msr_read(struct access *a, int cpu, uint32_t reg, uint64_t *v)
{
	struct msr_prefetch *p = a->prefetch;
	if (p && p->cpu == cpu) {
		if (p->next < p->n && p->reg[p->next] == reg) { /* read in the order prefetched: no search */
			*v = p->val[p->next++];
			return 0;
		}
		for (int i = 0; i < p->n; i++)
			if (p->reg[i] == reg) {
				*v = p->val[i];
				return 0;
			}
	}
	return a->ops->msr_read(a, cpu, reg, v);
}
