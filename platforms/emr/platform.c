/*
 * 5th Gen Xeon Scalable (Emerald Rapids, family 6 model 0xCF), seed 001 (Intel 817509-001).  Its
 * units, layouts and quirks are the Sapphire Rapids family's (common/discover/spr_family.c).
 */
#include "discover/spr_family.h"

UC_PLATFORM_TABLES(emr);
UC_PLATFORM_TABLES(spr); /* its perfmon files write Filter as Sapphire Rapids' do: SPR's unit map says what they mean */

static const int emr_models[] = { 0xcf, 0 };

/* RAPL: Linux 6.12 rapl.c model_spr, rapl_defaults_spr_server; max_w: twice Intel ARK's Platinum 8593Q, 385 W */
static const struct energy_part emr_energy = { PLAT_RAPL_PKG_DRAM_PSYS, 0, 1.0, ENERGY_MSR_DIE, 770,
					       "rapl.c model_spr, rapl_defaults_spr_server" };
/* Clocks: DDR5-5600 and UPI 20 GT/s (seed 001's floor plan, L286) */
static const struct plat_clocks emr_clocks = {
	{ { PLAT_MESH, "EMR mesh clock: conservative 0.8-3 GHz" },
	  { PLAT_DDR5(5600), "EMR DCLK: DDR5-3200 / 4 to DDR5-5600 / 2 (seed 001 L286)" },
	  { PLAT_LINK_GTS(4.8, 20), "EMR UPI clock: 4.8-20 GT/s / 8 (seed 001 L286, L7957)" } } };
/* Attribution: the discovery parts' CHA filter tid 9:0 (seed 001 T2-75: [9:3] Core-ID, [2:0] Thread) */
static const struct attrib_plat emr_attrib = { "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 10, "the core's requests that missed the LLC" };
/* SNC: perf's spr_emr_snc2_map {0, 0, 1, 1} (tools/perf/arch/x86/util/pmu.c) */
static const struct snc_geom emr_snc[] = {
	{ 2, 4, { 0, 0, 1, 1 }, "perf's spr_emr_snc2_map (tools/perf/arch/x86/util/pmu.c)" },
	{ 0, 0, { 0 }, NULL },
};

/* Eagle Stream (EagleStreamPlatformMapping, pcm-iio-topology.cpp, intel/pcm 0fae0de1): parts 0-7 at devices 1-8;
 * the DMI stack, PMU 7 (EMR_DMI_PMON_ID), part 7 (SPR_DMI_PART_ID); CPU bus -> IIO PMU: emr_sad_to_pmu_id_mapping */
#define NO -1
static const signed char emr_cpubus[IIO_MSM_CPUBUSES] = { 7, 1, 2, 3, 8, 6, NO, NO, 0, 4, 5, 9, NO, NO, NO, NO,
							  NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO };
#undef NO
static const int emr_iio_models[] = { 0xcf, 0 }; /* INTEL_EMERALDRAPIDS_X */
static const struct iio_layout emr_iio = { .models = emr_iio_models, .port_lo = 1, .port_hi = 8, .ndmi = 1,
					   .dmi_stacks = { 7 }, .dmi_part = 7, .cpubus_pmu = emr_cpubus };

/* The memory controllers as Linux's EDAC driver names them (platform_facts.h struct mem_layout) */
static const struct mem_layout emr_mem = { "Intel_10nm Socket#", " IMC#", 2, 2, 4,
	.source = "Linux 6.12 i10nm_base.c \"Intel_10nm Socket\", spr_cfg for EMERALDRAPIDS_X: ddr_imc_num 4 x ddr_chan_num 2; the discovery table's IMC unit ids 0-7, two a controller" };

const struct platform_desc platform_emr = {
	.name = "emr", .desc = "Emerald Rapids (5th Gen Xeon Scalable)", .models = emr_models,
	.events = &uc_events_emr, .perfmon_filters = uc_events_spr_filters,
	.perfmon_folds = uc_events_spr_folds,
	.metrics_json = uc_metrics_emr,
	SPR_FAMILY_DESC,
	.energy = &emr_energy, .clocks = &emr_clocks, .attrib = &emr_attrib, .mem = &emr_mem, .snc = emr_snc,
	/* spr_iio_freerunning's bw_in_port scale 3.0517578125e-5 MiB (Linux 6.12): 32 bytes a count */
	.iio_fr_bytes = 32, .iio = &emr_iio,
	.ufreq_msr = 1, /* Linux 6.12 uncore-frequency.c intel_uncore_cpu_ids: EMERALDRAPIDS_X */
};
