/*
 * Clearwater Forest (Xeon 6+ with E-cores), family 6 model 0xdd (Linux INTEL_ATOM_DARKMONT_X): the uncore of Granite
 * Rapids, driven by the same gnr_uncore_init (uncore.c intel_uncore_match), so the unit types, quirks and
 * aliases are platforms/gnr's (gnr.h); the events are Intel's CWF files (perfmon_units.txt).
 */
#include "../gnr/gnr.h"

UC_PLATFORM_TABLES(cwf);

static const int cwf_models[] = { 0xdd, 0 };

const struct platform_desc platform_cwf = {
	.name = "cwf", .desc = "Clearwater Forest (Xeon 6+ with E-cores)",
	.family = 6, .models = cwf_models,
	GNR_UNCORE(cwf), .ecore_only = 1,
};
