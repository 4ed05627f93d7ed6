/*
 * Itanium 2 9000 (Montecito), seed 004 (Intel 308065-001): the shared front-side bus and system
 * interface seen through each core's PMU.  Per core: PMC0 holds the freeze bit (fr, bit 0) and the
 * overflow bits 15:4 (bit n for PMDn, Table 3-8); PMC4-15 select events (Table 3-6: plm 3:0, oi 5,
 * pm 6, es 15:8, umask 19:16, threshold 22:20, ism 25:24 = '10', all 26, MESI 30:27); PMD4-15 are
 * 47-bit counters with the overflow at bit 47 (Table 3-7).  IA-64 PMC/PMD are reached by
 * instructions, not MSRs, and Linux no longer runs on IA-64: the simulator is the only backend.  It
 * numbers PMC n of core k as 0x1000 + 0x200 k + n and PMD n as 0x1100 + 0x200 k + n.
 */
#include <stddef.h>
#include "platform/platform.h"

UC_PLATFORM_TABLES(montecito);

#define N(a) UC_ARRAY_LEN(a)

/* PMC0.fr: set by an overflow with oi = 1, cleared by software (Table 3-8); no reset bits. */
static const struct box_ctl_bits box_ctl_pmc0 = { &bc_style_pmc0, .frz = 1u << 0 };

static const struct filter_field pmu_fields[] = {
	{ "all", UC_FIELD_CTL, 26, 1, "count both hardware threads of the core (PMC4-9 only, Table 3-6)" },
};

/* PMC4-15, Table 3-6: es 15:8, umask 19:16, threshold 22:20, oi 5 (overflow interrupt); all 26 is a
 * qualifier field (pmu_fields).  Counting system-wide (Figure 3-8): plm = 1001 (PL0 and PL3), pm = 1,
 * ism = '10'; plm 3:0, pm 6, ism 25:24 and MESI 30:27 are kept but set by no qualifier. */
static const struct ctl_layout lay_pmc = { .name = "montecito-pmc",
	.f = { [CR_EVENT] = { 8, 8 }, [CR_UMASK] = { 16, 4 }, [CR_THRESH] = { 20, 3 }, [CR_OV_EN] = { 5, 1 } },
	.enable = 0x9ull | 1ull << 6 | 2ull << 24, .other = 0xfull | 1ull << 6 | 3ull << 24 | 0xfull << 27 };

static const struct box_type pmu = {
	.name = "pmu", .desc = "core PMU counting the shared bus and system interface (PMC/PMD4-15)",
	.prefix = "", .space = UC_MSR, .disc_type = -1, .bc = &box_ctl_pmc0,
	.max_boxes = 2 /* two cores a socket */, .nctr = 12, .width = 47 /* count 46:0, ov 47 */,
	.box_stride = 0x200, .has_box_ctl = 1, .box_ctl_resets = 0,
	.box_ctl = 0x1000, .ctl0 = 0x1004, .ctl_stride = 1, .ctr0 = 0x1104, .ctr_stride = 1,
	.lay = &lay_pmc, .status = 0x1000 /* PMC0 */, .status_shift = 4,
	.fields = pmu_fields, .nfields = N(pmu_fields),
};

static const struct box_type *const montecito_types[] = { &pmu };

const struct platform_desc platform_montecito = {
	.name = "montecito", .desc = "Itanium 2 9000 (Montecito) front-side bus, simulator only",
	.family = 0x20, .models = NULL, /* CPUID family 0x20 (seed 004 L287-296) */
	.types = montecito_types, .ntypes = N(montecito_types),
	.events = &uc_events_montecito, .metrics_json = uc_metrics_montecito,
	.sim_only = 1,
	.caveat = "simulator only: Linux no longer runs on IA-64, so no hardware backend exists; PMC/PMD numbers "
		  "are the simulator's. Socket-wide events (initiator EITHER, IO, ANY and the SI/ER queues) are "
		  "counted on core 0 only; SELF events on every core.",
	/* clocks: seed 004 gives Itanium 2's core clocks, 0.9-1.66 GHz, but for Montecito "Individual SKUs TBD"
	 * (L311): health's broad range */
	.no_energy = "Montecito (Itanium 2) has no RAPL and no energy counter: its package and DRAM energy cannot be read",
};
