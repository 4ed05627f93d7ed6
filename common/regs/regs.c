/*
 * Register access for a box, whatever its space: MSRs are 64-bit; PCI config
 * registers are dwords, so 64-bit control words are written upper half first
 * (the lower half holds ev_sel, which starts counting on EMR; Linux does the
 * same) and 48-bit counters are pairs of dwords that must be read
 * consistently while counting (seed 000 L2176-2179); MMIO counters are read
 * with one 64-bit load.
 */
#include <string.h>
#include "regs.h"
#include "util/error.h"
#include "write_guard.h"
#include "pmon_regs.h"

static const struct pci_loc *loc_of(const struct box *b, int companion)
{
	return companion ? &b->comp : &b->pci;
}


int reg_read(uncore_t *u, const struct box *b, uint64_t addr, int companion, int bytes, uint64_t *v)
{
	struct access *a = u->acc;
	uint32_t d[2] = { 0, 0 };
	switch (b->t->space) {
	case UC_MSR:
		return access_msr_read(a, b->cpu, (uint32_t)addr, v);
	case UC_MMIO:
		*v = 0;
		return a->ops->mmio_read(a, addr, v, (size_t)bytes);
	case UC_PCI:
		if (companion && !b->has_comp)
			return uc_err("%s %d (socket %d) has no match/mask function", b->t->name, b->idx, b->socket);
		if (a->ops->pci_read(a, loc_of(b, companion), (uint32_t)addr, d, bytes == 8 ? 8 : 4))
			return -1;
		*v = (uint64_t)d[1] << 32 | d[0];
		return 0;
	}
	return uc_err("internal: unknown register space");
}

int reg_write(uncore_t *u, const struct box *b, uint64_t addr, int companion, int bytes, uint64_t v)
{
	struct access *a = u->acc;
	switch (b->t->space) {
	case UC_MSR:
		return guarded_msr_write(a, b->cpu, (uint32_t)addr, v);
	case UC_MMIO:
		return guarded_mmio_write(a, addr, v, bytes);
	case UC_PCI:
		if (companion && !b->has_comp)
			return uc_err("%s %d (socket %d) has no match/mask function", b->t->name, b->idx, b->socket);
		if (bytes == 8 && guarded_pci_write32(a, loc_of(b, companion), (uint32_t)addr + 4, (uint32_t)(v >> 32)))
			return -1;
		return guarded_pci_write32(a, loc_of(b, companion), (uint32_t)addr, (uint32_t)v);
	}
	return uc_err("internal: unknown register space");
}

int reg_write_counter(uncore_t *u, const struct box *b, uint64_t addr, uint64_t v)
{
	struct access *a = u->acc;
	if (b->t->space != UC_PCI)
		return reg_write(u, b, addr, 0, 8, v);
	if (guarded_pci_write32(a, &b->pci, (uint32_t)addr, (uint32_t)v))
		return -1;
	return guarded_pci_write32(a, &b->pci, (uint32_t)addr + 4, (uint32_t)(v >> 32));
}

int pmon_read(uncore_t *u, const struct box *b, const struct pmon_reg *r, uint64_t *v)
{
	return r->counter ? reg_read_counter(u, b, r->addr, v) : reg_read(u, b, r->addr, r->companion, r->bytes, v);
}

int pmon_write(uncore_t *u, const struct box *b, const struct pmon_reg *r, uint64_t v)
{
	return r->counter ? reg_write_counter(u, b, r->addr, v) : reg_write(u, b, r->addr, r->companion, r->bytes, v);
}

int reg_read_counter(uncore_t *u, const struct box *b, uint64_t addr, uint64_t *v)
{
	return reg_read_counters(u, b, &addr, 1, v);
}

/*
 * PCI: the counters' dwords read in as few blocks as cover them and nothing else (a gap between them, as
 * SNB-EP's iMC has between its general counters at 0xA0-0xBF and its fixed one at 0xD0, is not read: a
 * dword costs more than the system call another block takes, doc/cost.md).  A 48-bit counter is two dwords
 * the kernel reads low first (seed 000 L2176-2179: read them consistently while counting): a carry between
 * the two reads would pair a new high half with an old low one, and can only happen when the low half was
 * within what the counter counts during the read of its wrap.  Only then (or when the read took long) are the
 * blocks read a second time: the triple (high from the first, low and high from the second) is consistent
 * when both highs agree, and if a carry slipped in between, the low half is read again after the second high.
 * One system call a block of adjacent counters in the common case, against four per counter for
 * dword-by-dword reads.
 */
#define PCI_CARRY_MARGIN (1u << 24) /* 5e9 cycles/s x 64 a cycle (the most any counter counts) for 52 us */
#define PCI_CARRY_NS 50000
#define PCI_MAX_DWORDS 64

uint64_t reg_pci_dwords(const uint64_t *addr, int n, uint32_t *lo)
{
	uint32_t low = ~0u;
	uint64_t need = 0;
	for (int i = 0; i < n; i++)
		low = (uint32_t)addr[i] < low ? (uint32_t)addr[i] : low;
	for (int i = 0; i < n; i++) {
		uint32_t k = ((uint32_t)addr[i] - low) / 4;
		if (k + 1 >= PCI_MAX_DWORDS)
			return 0;
		need |= 3ull << k;
	}
	*lo = low;
	return need;
}

/* The dwords need (bit k: lo + 4k) into buf[k], a block each run of them. */
static int pci_read_runs(struct access *a, const struct pci_loc *l, uint32_t lo, uint64_t need, uint32_t *buf)
{
	for (int k = 0; k < PCI_MAX_DWORDS; k++) {
		if (!(need >> k & 1))
			continue;
		int e = k;
		while (e + 1 < PCI_MAX_DWORDS && need >> (e + 1) & 1)
			e++;
		if (a->ops->pci_read(a, l, lo + 4 * (uint32_t)k, buf + k, 4 * (size_t)(e - k + 1)))
			return -1;
		k = e;
	}
	return 0;
}

int reg_read_counters(uncore_t *u, const struct box *b, const uint64_t *addr, int n, uint64_t *v)
{
	struct access *a = u->acc;
	uint32_t lo = 0;
	uint32_t first[PCI_MAX_DWORDS], second[PCI_MAX_DWORDS];
	if (b->t->space == UC_MSR)
		return access_msr_read_many(a, b->cpu, addr, n, v);
	if (b->t->space != UC_PCI) {
		if (a->ops->mmio_read_many)
			return a->ops->mmio_read_many(a, addr, n, v);
		for (int i = 0; i < n; i++)
			if (reg_read(u, b, addr[i], 0, 8, &v[i]))
				return -1;
		return 0;
	}
	if (n == 0)
		return 0;
	uint64_t need = reg_pci_dwords(addr, n, &lo);
	if (!need)
		return uc_err("internal: counter block of %s too large", b->t->name);
	uint64_t t0 = a->ops->now_ns(a);
	if (pci_read_runs(a, &b->pci, lo, need, first))
		return -1;
	int again = a->ops->now_ns(a) - t0 > PCI_CARRY_NS;
	for (int i = 0; i < n && !again; i++)
		again = first[((uint32_t)addr[i] - lo) / 4] >= UINT32_MAX - PCI_CARRY_MARGIN;
	if (!again) {
		for (int i = 0; i < n; i++) {
			uint32_t k = ((uint32_t)addr[i] - lo) / 4;
			v[i] = (uint64_t)first[k + 1] << 32 | first[k];
		}
		return 0;
	}
	if (pci_read_runs(a, &b->pci, lo, need, second))
		return -1;
	for (int i = 0; i < n; i++) {
		uint32_t k = ((uint32_t)addr[i] - lo) / 4;
		uint32_t hi1 = first[k + 1], lo2 = second[k], hi2 = second[k + 1];
		if (hi1 != hi2 && a->ops->pci_read(a, &b->pci, (uint32_t)addr[i], &lo2, 4))
			return -1;
		v[i] = (uint64_t)hi2 << 32 | lo2;
	}
	return 0;
}
