/*
 * Sierra Forest (Xeon 6 with E-cores), family 6 model 0xaf (Linux INTEL_ATOM_CRESTMONT_X): the uncore of Granite
 * Rapids, driven by the same gnr_uncore_init (uncore.c intel_uncore_match), so the unit types, quirks and
 * aliases are platforms/gnr's (gnr.h); the events are Intel's SRF files (perfmon_units.txt).
 */
#include "../gnr/gnr.h"

UC_PLATFORM_TABLES(srf);

static const int srf_models[] = { 0xaf, 0 };

/* RAPL: Linux 6.12 reads Granite Rapids' and later parts' RAPL through TPMI (intel_rapl_tpmi.c: package,
 * memory -> dram, system -> psys) and neither rapl.c nor rapl_ids names them; TPMI has a system (psys) domain
 * only where the firmware gives one (parse_one_domain: TPMI_RAPL_DOMAIN_ROOT).  Intel PCM reads MSRs 0x611/0x619
 * on GNR and SRF with MSR_RAPL_POWER_UNIT's unit (cpucounters.h packageEnergyMetricsAvailable,
 * dramEnergyMetricsAvailable, getDRAMConsumedJoules) and MSR 0x64D at 1 J on a CPU of socket 0
 * (systemEnergyMetricAvailable, getSystemConsumedJoules; intel/pcm 0fae0de1): so psys is listed, read from MSR
 * 0x64D where the node has it, and through powercap or perf where TPMI shows one. */
/* max_w: twice Intel ARK's Xeon 6980E, 500 W */
static const struct energy_part srf_energy = { PLAT_RAPL_PKG_DRAM_PSYS, 0, 1.0, ENERGY_MSR_SOCKET, 1000,
					       "intel_rapl_tpmi.c; PCM for the MSRs, 0x64D at 1 J" };
/* Clocks: MRDIMM 8800 (the speed health's channel bandwidth uses) and UPI 24 GT/s (Xeon 6) */
static const struct plat_clocks srf_clocks = {
	{ { PLAT_MESH, "SRF mesh clock: conservative 0.8-3 GHz" },
	  { PLAT_DDR5(8800), "SRF DCLK: DDR5-3200 / 4 to MRDIMM-8800 / 2 (JESD79-5C)" },
	  { PLAT_LINK_GTS(4.8, 24), "SRF UPI clock: 4.8-24 GT/s / 8 (seed 001 L7957)" } } };
/* Attribution: the discovery parts' CHA filter tid 9:0 (seed 001 T2-75: [9:3] Core-ID, [2:0] Thread) */
static const struct attrib_plat srf_attrib = { "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 10, "the core's requests that missed the LLC" };

const struct platform_desc platform_srf = {
	.name = "srf", .desc = "Sierra Forest (Xeon 6 with E-cores)",
	.family = 6, .models = srf_models,
	GNR_UNCORE(srf), .ecore_only = 1,
	.energy = &srf_energy, .clocks = &srf_clocks, .attrib = &srf_attrib,
	/* gnr_iio_freerunning's bw_in_port scale 3.0517578125e-5 MiB (Linux 6.12): 32 bytes a count */
	.iio_fr_bytes = 32, .iio = &gnr_iio, /* Birch Stream's, as Granite Rapids' (gnr/platform.c) */
};
