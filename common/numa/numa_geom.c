/*
 * The platforms' sub-NUMA clustering geometry: which SNC domain each iMC channel serves.  Linux's perf tool
 * keeps the only public tables (tools/perf/arch/x86/util/pmu.c, init_snc_map, after 6.12: 6.12's perf has no
 * SNC support), indexed by the uncore_imc_N PMU number -- the channel's unit id, our box number -- modulo the
 * table's length: Sapphire and Emerald Rapids' SNC2 spr_emr_snc2_map {0, 0, 1, 1}, Granite Rapids' SNC2
 * gnr_snc2_map {1, 1, 0, 0} and SNC3 snc3_map {1, 1, 0, 0, 2, 2}.  perf has none for SNC4 (Sapphire Rapids,
 * Xeon Max) nor for Sierra Forest and Clearwater Forest: their domains are refused, not guessed.
 */
#include <stdio.h>
#include <string.h>
#include "numa.h"
#include "util/error.h"

struct snc_geom {
	const char *platform;
	int snc, period;
	signed char dom[8];
	const char *source;
};

static const struct snc_geom geoms[] = {
	{ "spr", 2, 4, { 0, 0, 1, 1 }, "perf's spr_emr_snc2_map (tools/perf/arch/x86/util/pmu.c)" },
	{ "emr", 2, 4, { 0, 0, 1, 1 }, "perf's spr_emr_snc2_map (tools/perf/arch/x86/util/pmu.c)" },
	{ "gnr", 2, 4, { 1, 1, 0, 0 }, "perf's gnr_snc2_map (tools/perf/arch/x86/util/pmu.c)" },
	{ "gnr", 3, 6, { 1, 1, 0, 0, 2, 2 }, "perf's snc3_map (tools/perf/arch/x86/util/pmu.c)" },
};

int numa_geom_domain(const char *platform, int snc, int box, const char **source, char *why, size_t len)
{
	for (size_t i = 0; i < sizeof(geoms) / sizeof(geoms[0]); i++)
		if (!strcmp(geoms[i].platform, platform) && geoms[i].snc == snc && box >= 0) {
			*source = geoms[i].source;
			return geoms[i].dom[box % geoms[i].period];
		}
	snprintf(why, len, "no public table says which memory channels serve which domain of SNC%d on %s (perf's "
		 "tools/perf/arch/x86/util/pmu.c has SNC2 of spr, emr and gnr and SNC3 of gnr)", snc, platform);
	return -1;
}
