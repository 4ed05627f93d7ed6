/*
 * 4th Gen Xeon Scalable (Sapphire Rapids, family 6 model 0x8F: perfmon's mapfile GenuineIntel-6-8F,
 * Linux INTEL_SAPPHIRERAPIDS_X).  Linux drives it with EMR's spr_uncore_init, and so does this
 * library: units, layouts and quirks are the Sapphire Rapids family's (common/discover/spr_family.c),
 * including the one that matters most here, the CHA count from MSR 0x2FFE (Linux 38776cc4).
 */
#include "discover/spr_family.h"

UC_PLATFORM_TABLES(spr);

static const int spr_models[] = { 0x8f, 0 };

/* RAPL: Linux 6.12 rapl.c model_spr (pkg, ram and psys, RAPL_UNIT_QUIRK_INTEL_SPR), intel_rapl_common.c
 * rapl_defaults_spr_server (psys_domain_energy_unit = 1e9 nJ); max_w: twice Intel ARK's Platinum 8490H, 350 W */
static const struct energy_part spr_energy = { PLAT_RAPL_PKG_DRAM_PSYS, 0, 1.0, ENERGY_MSR_DIE, 700,
					       "rapl.c model_spr, rapl_defaults_spr_server" };
/* Clocks: DDR5-4800, UPI 16 GT/s */
static const struct plat_clocks spr_clocks = {
	{ { PLAT_MESH, "SPR mesh clock: conservative 0.8-3 GHz" },
	  { PLAT_DDR5(4800), "SPR DCLK: DDR5-3200 / 4 to DDR5-4800 / 2 (JESD79-5; seed 000 L2255)" },
	  { PLAT_LINK_GTS(4.8, 16), "SPR UPI clock: 4.8-16 GT/s / 8 (seed 001 L7957)" } } };
/* Attribution: the discovery parts' CHA filter tid 9:0 (seed 001 T2-75: [9:3] Core-ID, [2:0] Thread) */
static const struct attrib_plat spr_attrib = { "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 10, "the core's requests that missed the LLC" };
/* SNC: perf's spr_emr_snc2_map {0, 0, 1, 1} (tools/perf/arch/x86/util/pmu.c); none for SNC4 (Xeon Max) */
static const struct snc_geom spr_snc[] = {
	{ 2, 4, { 0, 0, 1, 1 }, "perf's spr_emr_snc2_map (tools/perf/arch/x86/util/pmu.c)" },
	{ 0, 0, { 0 }, NULL },
};

/* Eagle Stream (EagleStreamPlatformMapping, pcm-iio-topology.cpp, intel/pcm 0fae0de1): parts 0-7 at devices 1-8;
 * the DMI stack, PMU 1 on the XCC die and 10 on the MCC (SPR_XCC_DMI_PMON_ID, SPR_MCC_DMI_PMON_ID), part 7
 * (SPR_DMI_PART_ID); CPU bus -> IIO PMU: spr_xcc_ and spr_mcc_sad_to_pmu_id_mapping, told apart by PCU CR3's
 * CAPID4 */
#define NO -1
static const signed char spr_xcc_cpubus[IIO_MSM_CPUBUSES] = { 1, 2, 4, 6, 7, 9, NO, NO, 0, 3, 5, 8, NO, NO, NO, NO,
							      NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO };
static const signed char spr_mcc_cpubus[IIO_MSM_CPUBUSES] = { 0, 1, 2, 10, 4, 5, NO, NO, 3, NO, NO, NO, NO, NO, NO, NO,
							      NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO };
#undef NO
static const int spr_iio_models[] = { 0x8f, 0 }; /* INTEL_SAPPHIRERAPIDS_X */
static const struct iio_layout spr_iio = { .models = spr_iio_models, .port_lo = 1, .port_hi = 8, .ndmi = 2,
					   .dmi_stacks = { 1, 10 }, .dmi_part = 7, .cpubus_pmu = spr_xcc_cpubus,
					   .cpubus_pmu_mcc = spr_mcc_cpubus };

/* The memory controllers as Linux's EDAC driver names them (platform_facts.h struct mem_layout) */
static const struct mem_layout spr_mem = { "Intel_10nm Socket#", " IMC#", 2, 2, 4,
	.source = "Linux 6.12 i10nm_base.c \"Intel_10nm Socket\", spr_cfg ddr_imc_num 4 x ddr_chan_num 2 (HBM controllers after them); the discovery table's IMC unit ids 0-7, two a controller",
	.hbm_mcs = 16, .hbm_chans = 2 /* spr_cfg hbm_imc_num 16 x hbm_chan_num 2, 0x9000 apart, a channel 0x4000: the HBM PMON boxes' order */ };

const struct platform_desc platform_spr = {
	.name = "spr", .desc = "Sapphire Rapids (4th Gen Xeon Scalable)", .models = spr_models,
	.events = &uc_events_spr, .metrics_json = uc_metrics_spr,
	.perfmon_filters = uc_events_spr_filters, .perfmon_folds = uc_events_spr_folds,
	SPR_FAMILY_DESC,
	.energy = &spr_energy, .clocks = &spr_clocks, .attrib = &spr_attrib, .mem = &spr_mem, .snc = spr_snc,
	/* spr_iio_freerunning's bw_in_port scale 3.0517578125e-5 MiB (Linux 6.12): 32 bytes a count */
	.iio_fr_bytes = 32, .iio = &spr_iio,
	.ufreq_msr = 1, /* Linux 6.12 uncore-frequency.c intel_uncore_cpu_ids: SAPPHIRERAPIDS_X */
};
