/*
 * 4th Gen Xeon Scalable (Sapphire Rapids, family 6 model 0x8F: perfmon's mapfile GenuineIntel-6-8F,
 * Linux INTEL_SAPPHIRERAPIDS_X).  Linux drives it with EMR's spr_uncore_init, and so does this
 * library: units, layouts and quirks are the Sapphire Rapids family's (common/discover/spr_family.c),
 * including the one that matters most here, the CHA count from MSR 0x2FFE (Linux 38776cc4).
 */
#include "discover/spr_family.h"

UC_PLATFORM_TABLES(spr);

static const int spr_models[] = { 0x8f, 0 };

const struct platform_desc platform_spr = {
	.name = "spr", .desc = "Sapphire Rapids (4th Gen Xeon Scalable)", .models = spr_models,
	.events = uc_events_spr, .nevents = &uc_events_spr_n, .metrics_json = uc_metrics_spr,
	.perfmon_filters = uc_events_spr_filters, .perfmon_folds = uc_events_spr_folds,
	SPR_FAMILY_DESC,
};
