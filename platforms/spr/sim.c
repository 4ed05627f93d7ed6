/*
 * Simulated Sapphire Rapids (Xeon Platinum 8480+: 56 cores, stepping 8 = E5): the Sapphire Rapids
 * family's machine (common/sim/spr_family_sim.c) with the firmware bug Linux 38776cc4 works around:
 * the discovery table lists 60 CHAs (the four dies' slots) while 56 exist, and MSR 0x2FFE reads 56.
 */
#include "sim/spr_family_sim.h"
#include "sim/sim_only.h"

static int build(struct sim *s)
{
	static const struct spr_sim_variant spr = { .cbo_count = 1, .extra_chas = 4 };
	return spr_family_build(s, &spr);
}

const struct sim_kind sim_kind_spr = { .name = "spr", .cores = 56, .family = 6, .model = 0x8f, .stepping = 8,
				       .build = build, SPR_FAMILY_SIM_KIND };
