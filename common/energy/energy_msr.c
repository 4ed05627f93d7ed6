/*
 * Energy from the RAPL MSRs (root, or an msr-safe allowlist granting them): MSR_RAPL_POWER_UNIT for the unit,
 * then each domain's 32-bit ENERGY_STATUS counter, read on a CPU of each die (Linux) or socket (PCM's parts).
 * Addresses: Linux arch/x86/include/asm/msr-index.h (tests/reference/linux_regs.txt, rows "rapl").
 */
#include <stdio.h>
#include <string.h>
#include "energy.h"
#include "handle/handle.h"
#include "util/error.h"

/* MSR_RAPL_POWER_UNIT, MSR_*_ENERGY_STATUS: platform_facts.h */
#define ENERGY_STATUS_MASK 0xffffffffull /* rapl.c RAPL_MSR_MASK: the low 32 bits are the counter */

static const uint32_t status_reg[UNCORE_ENERGY_DOMAINS] = { MSR_PKG_ENERGY_STATUS, MSR_DRAM_ENERGY_STATUS,
							    MSR_PLATFORM_ENERGY_STATUS };

static int rd(struct uncore_energy *e, int cpu, uint32_t reg, uint64_t *v)
{
	struct uncore_stats st = { 0 };
	struct access *a = e->u->acc->inner ? e->u->acc->inner : e->u->acc;
	if (e->msr)
		return msr_backend_read(e->msr, cpu, reg, v, &st);
	return a->ops->msr_read(a, cpu, reg, v);
}

/* The counters of the domains in mask (bits UNCORE_ENERGY_x; the package's required where it is asked for) */
static int msr_counters(struct uncore_energy *e, unsigned mask)
{
	const struct host_info *h = &e->u->host;
	char err[256] = "";
	if (e->part->msr == ENERGY_MSR_NONE)
		return uc_err("RAPL MSRs: no public source reads them on %s (Linux reads its RAPL through TPMI, "
			      "powercap's intel-rapl zones)", e->plat);
	/* the machine's own MSR device below the sysroot, whatever the handle's backend; a simulator's own MSRs */
	if (!e->u->acc->simulated && !(e->msr = msr_backend_open()))
		return -1;
	for (int s = 0; s < h->nsockets; s++) {
		int dies = e->part->msr == ENERGY_MSR_DIE && h->socket_dies[s] > 0 ? h->socket_dies[s] : 1;
		for (int d = 0; d < dies; d++) {
			int cpu = dies > 1 ? h->die_cpu[s][d] : h->socket_cpu[s];
			uint64_t unit, v;
			if (rd(e, cpu, MSR_RAPL_POWER_UNIT, &unit)) {
				snprintf(err, sizeof(err), "%s", uncore_error());
				return uc_err("RAPL MSRs: MSR_RAPL_POWER_UNIT (0x606) on CPU %d: %s", cpu, err);
			}
			for (int dom = 0; dom < UNCORE_ENERGY_DOMAINS; dom++) {
				double u = dom == UNCORE_ENERGY_DRAM && e->part->dram_unit_j ? e->part->dram_unit_j
					 : dom == UNCORE_ENERGY_PSYS ? e->part->psys_unit_j : energy_msr_unit_j(unit);
				struct energy_counter *c;
				if (!(mask & (1u << dom)) || !energy_msr_reads(e->part, dom, d))
					continue; /* psys: one platform counter a socket at most (SPR, EMR, GNR, SRF) */
				if (rd(e, cpu, status_reg[dom], &v)) {
					snprintf(e->missing[dom], sizeof(e->missing[dom]), "MSR 0x%x on CPU %d: %s",
						 (unsigned)status_reg[dom], cpu, uncore_error());
					if (dom == UNCORE_ENERGY_PKG)
						return uc_err("RAPL MSRs: MSR_PKG_ENERGY_STATUS (0x611) on CPU %d: %s", cpu,
							      e->missing[dom]);
					continue;
				}
				/* a platform counter that reads 0 counts nothing here: the platform's is one socket's (PCM
				 * reads socket 0's and takes a 0 as no value, cpucounters.h systemEnergyStatusValid; Linux
				 * 6.12 rapl.c probes none on SPR, intel_rapl_spr_msrs' psys no_check, and shows socket 0's) */
				if (dom == UNCORE_ENERGY_PSYS && !(v & ENERGY_STATUS_MASK)) {
					snprintf(e->missing[dom], sizeof(e->missing[dom]), "MSR 0x%x on CPU %d reads 0: no "
						 "platform counter there", (unsigned)status_reg[dom], cpu);
					continue;
				}
				if (!(c = energy_add(e, s, d, dom, u, ENERGY_STATUS_MASK + 1)))
					return uc_err("RAPL MSRs: too many counters");
				c->cpu = cpu;
				c->reg = status_reg[dom];
				c->ops = &energy_msr_ops;
			}
		}
	}
	return 0;
}

static int msr_open(struct uncore_energy *e)
{
	if (msr_counters(e, ~0u))
		return -1;
	snprintf(e->source, sizeof(e->source), "RAPL MSRs (0x611 package, 0x619 DRAM%s; %s)",
		 e->part->psys_unit_j ? ", 0x64d psys" : "", e->msr ? "/dev/cpu/N/msr" : "the simulator's");
	return 0;
}

int energy_msr_psys(struct uncore_energy *e)
{
	int n = e->n;
	char why[160];
	if (!e->part->psys_unit_j || e->part->msr == ENERGY_MSR_NONE)
		return 0;
	if (msr_counters(e, 1u << UNCORE_ENERGY_PSYS)) { /* no MSR device: psys is not read, said */
		snprintf(why, sizeof(why), "MSR 0x%x: %s", MSR_PLATFORM_ENERGY_STATUS, uncore_error());
		snprintf(e->missing[UNCORE_ENERGY_PSYS], sizeof(e->missing[0]), "%s", why);
		return 0;
	}
	if (e->n > n)
		snprintf(e->source + strlen(e->source), sizeof(e->source) - strlen(e->source), "; psys from MSR 0x%x (%s)",
			 MSR_PLATFORM_ENERGY_STATUS, e->msr ? "/dev/cpu/N/msr" : "the simulator's");
	return e->n - n;
}

static int msr_read(struct uncore_energy *e, struct energy_counter *c, uint64_t *raw)
{
	uint64_t v;
	if (rd(e, c->cpu, c->reg, &v))
		return -1;
	*raw = v & ENERGY_STATUS_MASK;
	return 0;
}

static void msr_close(struct uncore_energy *e)
{
	if (e->msr)
		msr_backend_close(e->msr);
	e->msr = NULL;
}

const struct energy_source_ops energy_msr_ops = { "msr", msr_open, msr_read, msr_close };
