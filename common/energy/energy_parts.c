/*
 * Which energy domains each server part has, their fixed units, and the power no domain of a socket exceeds.
 *
 * Domains and units as Linux 6.12 reads them: arch/x86/events/rapl.c rapl_model_match (model_snbep: pkg and
 * ram; model_hsx: pkg and ram, RAPL_UNIT_QUIRK_INTEL_HSW; model_spr: pkg, ram and psys,
 * RAPL_UNIT_QUIRK_INTEL_SPR) and drivers/powercap/intel_rapl_common.c rapl_ids (rapl_defaults_hsw_server:
 * dram_domain_energy_unit = 15300 nJ; rapl_defaults_spr_server: psys_domain_energy_unit = 1e9 nJ).  The DRAM
 * unit of those servers is "15.3 uJ" in the Haswell-EP datasheet (330784-001 vol. 2, DRAM_ENERGY_STATUS): 2^-16 J
 * (15.2588 uJ) rounded, which rapl.c's quirk takes (rapl_hw_unit[PERF_RAPL_RAM] = 16) and so does the library;
 * powercap multiplies by 15300 nJ, 0.27 % more, which energy_powercap.c takes back.  PCM and likwid take
 * 15.3 uJ itself (pcm cpucounters.h getDRAMConsumedJoules 0.0000153 on HSX, BDX, SKX, ICX; likwid power.c
 * 15.3E-6): their DRAM joules are 0.27 % above the library's (doc/energy.md).
 * Granite Rapids and later: Linux 6.12 reads their RAPL through TPMI (intel_rapl_tpmi.c: package, memory ->
 * dram, system -> psys) and neither rapl.c nor rapl_ids names them; TPMI has a system (psys) domain only where
 * the firmware gives one (parse_one_domain: TPMI_RAPL_DOMAIN_ROOT).  Intel PCM reads MSRs 0x611/0x619 on GNR and
 * SRF with MSR_RAPL_POWER_UNIT's unit (cpucounters.h packageEnergyMetricsAvailable, dramEnergyMetricsAvailable,
 * getDRAMConsumedJoules), and MSR 0x64D (MSR_SYS_ENERGY_STATUS) on SKX, ICX, SPR, EMR, GNR and SRF
 * (systemEnergyMetricAvailable), on a CPU of socket 0 alone, at 1 J on SPR, EMR, GNR and SRF and at
 * MSR_RAPL_POWER_UNIT's unit elsewhere (getSystemConsumedJoules; intel/pcm 0fae0de1): so GNR and SRF list psys,
 * read from MSR 0x64D at 1 J where the node has it (a node whose MSR does not read has no psys counter), and
 * through powercap or perf where their TPMI shows one.  SKX and ICX: no Linux table reads their psys
 * (rapl.c model_hsx has none), and PCM's unit there is the package's, so they list none.  No public source
 * reads any RAPL MSR on CWF or DMR: there the kernel's interfaces alone.
 *
 * max_w bounds the wrap time: twice the highest TDP of the family (Intel ARK: E5-2687W 150 W, E7-8890 v2 155 W,
 * E7-8890 v3 and E7-8894 v4 165 W, D-1587 65 W, Platinum 8180 205 W, 9282 400 W, 8380 270 W, 8490H 350 W,
 * 8593Q 385 W, 6980P and 6980E 500 W; Clearwater Forest and Diamond Rapids: the 500 W of the Xeon 6 socket and
 * 1000 W, no TDP published yet), above any PL2 (which Intel sets at 1.2 x TDP on servers), and a bound for DRAM
 * too, which draws less than its package.
 */
#include <stdio.h>
#include <string.h>
#include "energy.h"

#define PKG_DRAM ((1u << UNCORE_ENERGY_PKG) | (1u << UNCORE_ENERGY_DRAM))
#define PKG_DRAM_PSYS (PKG_DRAM | (1u << UNCORE_ENERGY_PSYS))
#define DRAM_15_3 (1.0 / 65536) /* J: the datasheet's 15.3 uJ, 2^-16 J as rapl.c RAPL_UNIT_QUIRK_INTEL_HSW (PCM and
					* likwid: 15.3e-6 J, 0.27 % more) */

static const struct energy_part parts[] = {
	{ "snbep", PKG_DRAM, 0, 0, ENERGY_MSR_DIE, 300, "rapl.c model_snbep" },
	{ "ivbep", PKG_DRAM, 0, 0, ENERGY_MSR_DIE, 310, "rapl.c model_snbep" },
	{ "hsx", PKG_DRAM, DRAM_15_3, 0, ENERGY_MSR_DIE, 330, "rapl.c model_hsx, rapl_defaults_hsw_server" },
	{ "bdx", PKG_DRAM, DRAM_15_3, 0, ENERGY_MSR_DIE, 330, "rapl.c model_hsx, rapl_defaults_hsw_server" },
	/* BROADWELL_D: rapl.c model_hsx (the fixed DRAM unit) while rapl_ids gives it rapl_defaults_core; PCM and
	 * perf take the fixed unit, as here */
	{ "bdxde", PKG_DRAM, DRAM_15_3, 0, ENERGY_MSR_DIE, 130, "rapl.c model_hsx" },
	{ "skx", PKG_DRAM, DRAM_15_3, 0, ENERGY_MSR_DIE, 410, "rapl.c model_hsx, rapl_defaults_hsw_server" },
	{ "clx", PKG_DRAM, DRAM_15_3, 0, ENERGY_MSR_DIE, 800, "rapl.c model_hsx, rapl_defaults_hsw_server" },
	{ "icx", PKG_DRAM, DRAM_15_3, 0, ENERGY_MSR_DIE, 540, "rapl.c model_hsx, rapl_defaults_hsw_server" },
	{ "spr", PKG_DRAM_PSYS, 0, 1.0, ENERGY_MSR_DIE, 700, "rapl.c model_spr, rapl_defaults_spr_server" },
	{ "emr", PKG_DRAM_PSYS, 0, 1.0, ENERGY_MSR_DIE, 770, "rapl.c model_spr, rapl_defaults_spr_server" },
	{ "gnr", PKG_DRAM_PSYS, 0, 1.0, ENERGY_MSR_SOCKET, 1000, "intel_rapl_tpmi.c; PCM for the MSRs, 0x64D at 1 J" },
	{ "srf", PKG_DRAM_PSYS, 0, 1.0, ENERGY_MSR_SOCKET, 1000, "intel_rapl_tpmi.c; PCM for the MSRs, 0x64D at 1 J" },
	{ "cwf", PKG_DRAM, 0, 0, ENERGY_MSR_NONE, 1000, "intel_rapl_tpmi.c" },
	{ "dmr", PKG_DRAM, 0, 0, ENERGY_MSR_NONE, 1000, "intel_rapl_tpmi.c" },
};

const struct energy_part *energy_part_of(const char *platform, char *why, size_t len)
{
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (!strcmp(parts[i].platform, platform))
			return &parts[i];
	if (!strcmp(platform, "nhm"))
		snprintf(why, len, "Nehalem-EP has no RAPL (running average power limit came with Sandy Bridge; Intel "
			 "SDM vol. 3B, RAPL interfaces): its package and DRAM energy cannot be read");
	else if (!strcmp(platform, "montecito"))
		snprintf(why, len, "Montecito (Itanium 2) has no RAPL and no energy counter: its package and DRAM energy "
			 "cannot be read");
	else
		snprintf(why, len, "platform %s: no public source says which RAPL energy domains it has: its energy is "
			 "not read", platform);
	return NULL;
}
