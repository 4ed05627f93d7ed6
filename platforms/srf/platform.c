/*
 * Sierra Forest (Xeon 6 with E-cores), family 6 model 0xaf (Linux INTEL_ATOM_CRESTMONT_X): the uncore of Granite
 * Rapids, driven by the same gnr_uncore_init (uncore.c intel_uncore_match), so the unit types, quirks and
 * aliases are platforms/gnr's (gnr.h); the events are Intel's SRF files (perfmon_units.txt).
 */
#include "../gnr/gnr.h"

UC_PLATFORM_TABLES(srf);

static const int srf_models[] = { 0xaf, 0 };

const struct platform_desc platform_srf = {
	.name = "srf", .desc = "Sierra Forest (Xeon 6 with E-cores)",
	.family = 6, .models = srf_models,
	GNR_UNCORE(srf), .ecore_only = 1,
};
