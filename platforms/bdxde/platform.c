/*
 * Broadwell-DE (Xeon D-1500) uncore: Broadwell-EP's box types (platforms/bdx/bdx.h; Linux 6.12 drives both with
 * bdx_uncore_init) without the SBox, which bdx_uncore_cpu_init drops on INTEL_BROADWELL_D, and without QPI and
 * R3QPI, which a one-socket part does not have (the driver registers PCI types only for devices present);
 * /work/notes/i34/bdx.md section 11.
 */
#include <stddef.h>
#include "../bdx/bdx.h"

UC_PLATFORM_TABLES(bdxde);

static const struct box_type *const bdxde_types[] = { &bdx_ubox, &bdx_cbo, &bdx_pcu, &bdx_ha, &bdx_imc, &bdx_irp, &bdx_r2pcie };
static const int bdxde_models[] = { 86, 0 };

/* RAPL: BROADWELL_D is in rapl.c model_hsx (the fixed DRAM unit) while rapl_ids gives it rapl_defaults_core;
 * PCM and perf take the fixed unit, as here.  max_w: twice Intel ARK's D-1587, 65 W */
static const struct energy_part bdxde_energy = { PLAT_RAPL_PKG_DRAM, PLAT_RAPL_DRAM_15_3, 0, ENERGY_MSR_DIE, 130,
						 "rapl.c model_hsx" };
/* Clocks: Broadwell-EP's uncore clock; DDR3-800 and up on its DDR3 boards, DDR4 to 2400; no QPI */
static const struct plat_clocks bdxde_clocks = {
	{ { 0.8 * PLAT_GHZ, 3.5 * PLAT_GHZ, "BDX-DE uncore clock: conservative 0.8-3.5 GHz (no seed bound)" },
	  { PLAT_DDR_HALF(800, 2400), "BDX-DE DCLK: DDR3-800 to DDR4-2400, half the DDR rate (seed 000 L2134, L2255)" } } };
/* Attribution: bdx_uncore_cbox's filter too (Linux bdx_uncore_cpu_init for BROADWELL_D) */
static const struct attrib_plat bdxde_attrib = { "UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182", 1, 6,
						 "demand data reads that missed the LLC" };

/* The memory controllers as Linux's EDAC driver names them (platform_facts.h struct mem_layout) */
static const struct mem_layout bdxde_mem = { "Broadwell SrcID#", "_Ha#", 4, 4, 1,
	.source = "Linux 6.12 sb_edac.c \"Broadwell SrcID#%d_Ha#%d\" (Broadwell-DE is its BROADWELL type); one home agent" };

const struct platform_desc platform_bdxde = {
	.name = "bdxde", .desc = "Broadwell-DE (Xeon D-1500)",
	.family = 6, .models = bdxde_models,
	.types = bdxde_types, .ntypes = N(bdxde_types),
	/* bdx_uncore_pci_init: snbep_pci2phy_map_init(0x6f1e, SNBEP_CPUNODEID 0x40, SNBEP_GIDNIDMAP 0x54, reverse) */
	.ubox_devid = 0x6f1e, .cpunodeid = 0x40, .gidnidmap = 0x54,
	.events = &uc_events_bdxde, .metrics_json = uc_metrics_bdxde,
	.perfmon_filters = uc_events_bdxde_filters, .perfmon_folds = uc_events_bdxde_folds,
	.perf_aliases = bdx_aliases, .perf_terms = bdx_terms,
	.energy = &bdxde_energy, .clocks = &bdxde_clocks, .attrib = &bdxde_attrib, .mem = &bdxde_mem,
	.ufreq_msr = 1, /* Linux 6.12 uncore-frequency.c intel_uncore_cpu_ids: BROADWELL_D */
};
