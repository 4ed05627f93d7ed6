/*
 * Discovery tables' global controls that may be frozen at power-on.  A table's global block names its
 * global control (seed 001 Table 1-13, word 1), reached as the block's access type says.  On Diamond Rapids
 * the compute dies' tables (the MSR 0x710 domain) have theirs in MMIO with freeze_all, bit 0, set at
 * power-on: Linux 7.0 clears it with a 32-bit write of 0 before it parses the table (uncore.c
 * uncore_mmio_global_init, the domain's global_init, commit b575fc0e3357).  This library clears a frozen
 * one when a session starts on the handle (a write, which opening never makes), and sets it again when no
 * session of the handle counts any more and at close (freeze_all alone: no source defines another bit there, and the guard allows bit 0
 * alone), leaving the machine as found.  The controls of the domains that say so (disc_domain.unfreeze)
 * are kept, in MMIO whatever access their global block names, as Linux maps them; the address is checked as a unit's MMIO address is, and the write
 * guard allows bit 0 there alone.
 */
#include "discover.h"
#include "regs/write_guard.h"
#include "util/error.h"

#define GCTL_FRZ_ALL 0x1u /* freeze_all, bit 0 (b575fc0e3357: "Clear freeze bit (0) to enable all counters") */

/* The one domain of the platforms that name none: PCI, any device with the DVSEC (0x09A7 first). */
static const struct disc_domain pci_any = { "pci", 0, DISC_ANY_DEVICE, NULL, 0 };

const struct disc_domain *disc_domains_of(const struct platform_desc *p, int *n)
{
	if (p->disc_domains && p->ndisc_domains > 0) {
		*n = p->ndisc_domains < UC_MAX_DISC_DOMAINS ? p->ndisc_domains : UC_MAX_DISC_DOMAINS;
		return p->disc_domains;
	}
	*n = 1;
	return &pci_any;
}

int disc_globals_keep(uncore_t *u, const struct disc_table *t, int n)
{
	int ndom;
	const struct disc_domain *dm = disc_domains_of(u->plat, &ndom);
	u->ngctl = 0;
	for (int i = 0; i < n; i++) {
		int dup = 0;
		/* whatever access the block names: Linux's uncore_mmio_global_init ioremaps the address (b575fc0e3357) */
		if (t[i].domain < 0 || t[i].domain >= ndom || !dm[t[i].domain].unfreeze)
			continue;
		if (t[i].global_ctl & 3 || t[i].global_ctl < 0x100000 || t[i].global_ctl >= 1ull << 52) {
			uc_warn("discovery table at 0x%llx names global control 0x%llx, not a plausible MMIO register; "
				"it is left alone", (unsigned long long)t[i].bar, (unsigned long long)t[i].global_ctl);
			continue;
		}
		for (int k = 0; k < u->ngctl; k++)
			dup |= u->gctl[k].addr == t[i].global_ctl;
		if (dup)
			continue;
		if (u->ngctl == UC_MAX_DISC_GCTL)
			return uc_err("more than %d discovery tables with a global control to unfreeze", UC_MAX_DISC_GCTL);
		u->gctl[u->ngctl].addr = t[i].global_ctl;
		u->gctl[u->ngctl].found = 0;
		u->gctl[u->ngctl++].unfrozen = 0;
	}
	return 0;
}

int disc_globals_unfreeze(uncore_t *u)
{
	for (int k = 0; k < u->ngctl; k++) {
		uint32_t v;
		if (u->gctl[k].unfrozen)
			continue;
		if (u->acc->ops->mmio_read(u->acc, u->gctl[k].addr, &v, 4))
			return -1;
		u->gctl[k].found = v;
		if (!(v & GCTL_FRZ_ALL))
			continue;
		if (guarded_mmio_write(u->acc, u->gctl[k].addr, 0, 4)) /* as Linux: writel(0) */
			return -1;
		u->gctl[k].unfrozen = 1;
	}
	return 0;
}

void disc_globals_restore(uncore_t *u)
{
	for (int k = 0; k < u->ngctl; k++)
		if (u->gctl[k].unfrozen && !guarded_mmio_write(u->acc, u->gctl[k].addr, GCTL_FRZ_ALL, 4))
			u->gctl[k].unfrozen = 0;
}
