/* Which count tells a core's memory reads apart on each platform (attrib.c): a CBo/CHA TOR insert of the
 * core's requests that missed the LLC, filtered by the thread id in the box's filter, and where the core id
 * sits in that tid. */
#include <string.h>
#include "jobs.h"

static const struct attrib_plat plats[] = {
	/* seed 000 Table 2-12: tid 4:0, "[0] Thread"; TOR_INSERTS.MISS_ALL umask 0x0a: every miss */
	{ "snbep", "UNC_C_TOR_INSERTS.MISS_ALL", 1, 5, "every request that missed the LLC" },
	/* Linux IVBEP/HSWEP_CB0_MSR_PMON_BOX_FILTER_TID (4:0, 5:0), thread bit 0; no MISS_ALL in Intel's lists:
	 * the demand data reads (opcode 0x182, seed 000 Table 2-13) */
	{ "ivbep", "UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182", 1, 5, "demand data reads that missed the LLC" },
	{ "hsx", "UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182", 1, 6, "demand data reads that missed the LLC" },
	{ "bdx", "UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182", 1, 6, "demand data reads that missed the LLC" },
	/* Broadwell-DE: bdx_uncore_cbox's filter too (Linux bdx_uncore_cpu_init for BROADWELL_D) */
	{ "bdxde", "UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182", 1, 6, "demand data reads that missed the LLC" },
	/* SKX_CHA_MSR_PMON_BOX_FILTER_TID 8:0 and the discovery parts' 9:0 (seed 001 T2-75: [9:3] Core-ID,
	 * [2:0] Thread); IA_MISS: the cores' requests that missed */
	{ "skx", "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 9, "the core's requests that missed the LLC" },
	/* Cascade Lake: skx_uncore_init's CHA (SKX_CHA_MSR_PMON_BOX_FILTER_TID 8:0) */
	{ "clx", "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 9, "the core's requests that missed the LLC" },
	{ "icx", "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 9, "the core's requests that missed the LLC" },
	{ "spr", "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 10, "the core's requests that missed the LLC" },
	{ "emr", "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 10, "the core's requests that missed the LLC" },
	{ "gnr", "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 10, "the core's requests that missed the LLC" },
	{ "srf", "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 10, "the core's requests that missed the LLC" },
	{ "cwf", "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 10, "the core's requests that missed the LLC" },
};

const struct attrib_plat *attrib_plat_of(const char *platform)
{
	for (size_t i = 0; i < sizeof(plats) / sizeof(plats[0]); i++)
		if (!strcmp(plats[i].platform, platform))
			return &plats[i];
	return NULL;
}
