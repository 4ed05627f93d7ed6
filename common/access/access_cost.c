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

/* The model's prices, ns.  A system call's entry and exit on a server kernel with the speculation
 * mitigations on (pread of /dev/cpu/N/msr, read of a perf fd, an ioctl); an uncore MSR read on its own
 * CPU (rdmsr of a box's register goes out over the mesh to the box); the interrupt round trip of
 * smp_call_function_single to a CPU of another socket, which waits for the other CPU to take the interrupt;
 * a PCI configuration dword (sysfs config: an MMCONFIG non-posted read); an MMIO load from a box; the
 * kernel's read of an uncore perf group's members (pmu->read per member, a register each); moving a thread
 * to another CPU (sched_setaffinity migrates it through the stopper thread, then it runs there: two context
 * switches and cold caches).  make bench prints what this machine really takes for the last three kinds. */
#define COST_SYSCALL_NS 700
#define COST_RDMSR_NS 150
#define COST_IPI_NS 4000
#define COST_PCI_NS 1000
#define COST_MMIO_NS 300
#define COST_PERF_MEMBER_NS 150
#define COST_MIGRATE_NS 8000

void access_cost(struct access *a, enum access_cost_kind k, int cpu, int n)
{
	struct uncore_stats *st = &a->stats;
	int remote = (k == COST_MSR || k == COST_MSR_BATCH || k == COST_PERF) && cpu >= 0 && cpu != access_here(a);
	double ns = 0;
	switch (k) {
	case COST_MSR: /* one pread, one rdmsr */
		ns = COST_SYSCALL_NS + COST_RDMSR_NS;
		break;
	case COST_MSR_BATCH: /* one ioctl, n rdmsr on the CPU */
		ns = COST_SYSCALL_NS + (double)n * COST_RDMSR_NS;
		st->batches++;
		break;
	case COST_PCI:
		ns = COST_SYSCALL_NS + (double)n * COST_PCI_NS;
		break;
	case COST_MMIO:
		ns = (double)n * COST_MMIO_NS;
		break;
	case COST_PERF: /* one read(2) of a group of n */
		ns = COST_SYSCALL_NS + (double)n * COST_PERF_MEMBER_NS;
		break;
	case COST_MIGRATE:
		ns = COST_MIGRATE_NS;
		st->migrations++;
		break;
	}
	if (remote) {
		ns += COST_IPI_NS;
		st->remote_reads++;
	}
	st->modelled_ns += (uint64_t)ns;
}

/* The CPU the calling thread runs on now: the simulator's placement, or the real one. */
int access_here(const struct access *a)
{
	if (a->simulated)
		return a->here;
	return a->placed ? a->here : sched_getcpu();
}

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

int access_msr_prefetch(struct access *a, int cpu, const uint32_t *regs, int n)
{
	access_msr_forget(a);
	if (!a->batch_ok || !a->ops->msr_read_batch || n <= 0)
		return 0;
	struct msr_prefetch *p = malloc(sizeof(*p) + (size_t)n * (sizeof(uint32_t) + sizeof(uint64_t)));
	if (!p)
		return uc_err("out of memory");
	p->cpu = cpu;
	p->n = n;
	p->next = 0;
	p->val = (uint64_t *)(p + 1);
	p->reg = (uint32_t *)(p->val + n);
	memcpy(p->reg, regs, (size_t)n * sizeof(*regs));
	if (a->ops->msr_read_batch(a, cpu, p->reg, n, p->val)) { /* each read alone then, saying its own error */
		free(p);
		return 0;
	}
	a->prefetch = p;
	return 0;
}

void access_msr_forget(struct access *a)
{
	free(a->prefetch);
	a->prefetch = NULL;
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
