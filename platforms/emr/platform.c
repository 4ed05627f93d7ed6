/*
 * 5th Gen Xeon Scalable (Emerald Rapids, family 6 model 0xCF), seed 001 (Intel 817509-001).  Its
 * units, layouts and quirks are the Sapphire Rapids family's (common/discover/spr_family.c).
 */
#include "discover/spr_family.h"

UC_PLATFORM_TABLES(emr);
UC_PLATFORM_TABLES(spr); /* its perfmon files write Filter as Sapphire Rapids' do: SPR's unit map says what they mean */

static const int emr_models[] = { 0xcf, 0 };

const struct platform_desc platform_emr = {
	.name = "emr", .desc = "Emerald Rapids (5th Gen Xeon Scalable)", .models = emr_models,
	.events = uc_events_emr, .nevents = &uc_events_emr_n, .perfmon_filters = uc_events_spr_filters,
	.perfmon_folds = uc_events_spr_folds,
	.metrics_json = uc_metrics_emr,
	SPR_FAMILY_DESC,
};
