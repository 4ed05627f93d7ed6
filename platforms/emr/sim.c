/*
 * Simulated Emerald Rapids: the Sapphire Rapids family's machine (common/sim/spr_family_sim.c) with
 * EMR's CPUID and 60 CHAs per socket, whose MSR 0x2FFE reads 0 (EMR XCC, Linux 6f7f984f) and whose
 * discovery tables list the CHAs there are.
 */
#include "sim/spr_family_sim.h"
#include "sim/sim_only.h"

static int build(struct sim *s)
{
	static const struct spr_sim_variant emr = { .cbo_count = 0, .extra_chas = 0 };
	return spr_family_build(s, &emr);
}

const struct sim_kind sim_kind_emr = { .name = "emr", .cores = 60, .family = 6, .model = 0xcf, .stepping = 2,
				       .build = build, SPR_FAMILY_SIM_KIND,
				       .board = &sim_emr_board };
