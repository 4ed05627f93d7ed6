/*
 * Register access for a box: MSRs are 64-bit; PCI config registers are dwords
 * and 48-bit PCI counters are pairs of dwords (low at A0+8k, high at A4+8k,
 * seed 000 L2176-2179) that must be read consistently while counting.
 */
#include <string.h>
#include "uncore_priv.h"
#include "error.h"

static const struct pci_loc *loc_of(const struct box *b, int companion)
{
	return companion ? &b->comp : &b->pci;
}

int reg_read_ctl(uncore_t *u, const struct box *b, uint32_t addr, int companion, uint64_t *v)
{
	struct access *a = u->acc;
	if (b->t->space == UC_MSR)
		return a->ops->msr_read(a, b->cpu, addr, v);
	uint32_t d;
	if (companion && !b->has_comp)
		return uc_err("%s %d (socket %d) has no match/mask function", b->t->name, b->idx, b->socket);
	if (a->ops->pci_read(a, loc_of(b, companion), addr, &d, 4))
		return -1;
	*v = d;
	return 0;
}

int reg_write_ctl(uncore_t *u, const struct box *b, uint32_t addr, int companion, uint64_t v)
{
	struct access *a = u->acc;
	if (b->t->space == UC_MSR)
		return a->ops->msr_write(a, b->cpu, addr, v);
	if (companion && !b->has_comp)
		return uc_err("%s %d (socket %d) has no match/mask function", b->t->name, b->idx, b->socket);
	return a->ops->pci_write32(a, loc_of(b, companion), addr, (uint32_t)v);
}

int reg_write_counter(uncore_t *u, const struct box *b, uint32_t addr, uint64_t v)
{
	struct access *a = u->acc;
	if (b->t->space == UC_MSR)
		return a->ops->msr_write(a, b->cpu, addr, v);
	if (a->ops->pci_write32(a, &b->pci, addr, (uint32_t)v))
		return -1;
	return a->ops->pci_write32(a, &b->pci, addr + 4, (uint32_t)(v >> 32));
}

int reg_read_counter(uncore_t *u, const struct box *b, uint32_t addr, uint64_t *v)
{
	return reg_read_counters(u, b, &addr, 1, v);
}

/*
 * PCI: one block read covering every counter asked for, then a second one.
 * For each counter the triple (high from the first, low and high from the
 * second) is consistent when both highs agree; if a carry slipped in between,
 * the low half is read again after the second high.  Two system calls per box
 * in the common case, against four per counter for dword-by-dword reads.
 */
int reg_read_counters(uncore_t *u, const struct box *b, const uint32_t *addr, int n, uint64_t *v)
{
	struct access *a = u->acc;
	uint32_t lo = ~0u, hi = 0;
	uint32_t first[64], second[64];
	if (b->t->space == UC_MSR) {
		for (int i = 0; i < n; i++)
			if (a->ops->msr_read(a, b->cpu, addr[i], &v[i]))
				return -1;
		return 0;
	}
	for (int i = 0; i < n; i++) {
		if (addr[i] < lo)
			lo = addr[i];
		if (addr[i] + 8 > hi)
			hi = addr[i] + 8;
	}
	if (n == 0)
		return 0;
	if (hi - lo > sizeof(first))
		return uc_err("internal: counter block of %s too large", b->t->name);
	if (a->ops->pci_read(a, &b->pci, lo, first, hi - lo) || a->ops->pci_read(a, &b->pci, lo, second, hi - lo))
		return -1;
	for (int i = 0; i < n; i++) {
		uint32_t k = (addr[i] - lo) / 4;
		uint32_t hi1 = first[k + 1], lo2 = second[k], hi2 = second[k + 1];
		if (hi1 != hi2 && a->ops->pci_read(a, &b->pci, addr[i], &lo2, 4))
			return -1;
		v[i] = (uint64_t)hi2 << 32 | lo2;
	}
	return 0;
}
