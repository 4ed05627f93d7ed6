/* A replayed node's discovery units that the simulated machine has elsewhere (replay_units.c). */
#ifndef UNCORE_REPLAY_UNITS_H
#define UNCORE_REPLAY_UNITS_H

#include <stdint.h>
#include "sim/sim.h"
#include "util/memfs.h"

/* One unit of the node's tables and the simulated one of its access, type and id: where each has its unit control
 * (MSR, MMIO address, or PCI function and config offset) and its registers' offsets from it (counter control 0,
 * counter 0, status); scope: the simulated table's logical die (MSR units). */
struct unit_alias {
	int access, scope, nctr;
	struct pci_loc nloc, sloc;
	uint64_t nbase, sbase;
	unsigned n_ctl, n_ctr, n_st, s_ctl, s_ctr, s_st;
};
struct unit_aliases {
	struct unit_alias *v;
	int n;
};
/* The node's units (snap's mmio/ tables) the simulated machine s has at another place or with other offsets: 0, or
 * -1 with the reason (out of memory). */
int unit_aliases_build(struct unit_aliases *ua, const struct memfs *snap, const struct sim *s);
void unit_aliases_free(struct unit_aliases *ua);
/* Where the simulated machine has the node's register: 1 and *out (an MSR of logical die scope, an MMIO address;
 * a PCI config offset of function l, *sl and *soff), or 0 where it belongs to no unit aliased. */
int unit_alias_msr(const struct unit_aliases *ua, int scope, uint32_t reg, uint32_t *out);
int unit_alias_mmio(const struct unit_aliases *ua, uint64_t phys, uint64_t *out);
int unit_alias_pci(const struct unit_aliases *ua, const struct pci_loc *l, uint32_t off, struct pci_loc *sl, uint32_t *soff);

#endif
