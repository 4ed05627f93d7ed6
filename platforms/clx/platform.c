/*
 * Cascade Lake (Xeon Scalable 2nd gen, family 6 model 0x55 steppings 5-7) and Cooper Lake (steppings 10-11),
 * which Intel's mapfile gives the CLX files: to Linux the same hardware as Skylake-SP (skx_uncore_init for
 * every stepping of INTEL_SKYLAKE_X; its one stepping test, skx_upi_get_topology's for 11, only hides the
 * UPI mapping files), so the box types, quirks and aliases are platforms/skx's (skx.h); the events are
 * Intel's CLX files (perfmon_units.txt), which add the Optane (PMM) iMC and M2M events.  Cooper Lake's six
 * UPI links are not Linux's: it registers three (skx_uncore_upi.num_boxes), and so do we.
 */
#include "../skx/skx.h"

UC_PLATFORM_TABLES(clx);

/* detection goes by the mapfile (6-55-[56789ABCDEF] CLX); these only for CPUs it does not list */
static const int clx_models[] = { 0x55, 0 };

/* RAPL: Linux 6.12 rapl.c model_hsx, rapl_defaults_hsw_server; max_w: twice Intel ARK's Platinum 9282, 400 W */
static const struct energy_part clx_energy = { PLAT_RAPL_PKG_DRAM, PLAT_RAPL_DRAM_15_3, 0, ENERGY_MSR_DIE, 800,
					       "rapl.c model_hsx, rapl_defaults_hsw_server" };
/* Clocks: DDR4-1600 (JESD79-4's lowest bin) to -2933; UPI as Skylake-SP's */
static const struct plat_clocks clx_clocks = {
	{ { PLAT_MESH, "CLX mesh clock: conservative 0.8-3 GHz (Linux intel-uncore-frequency: 1.2-2.4 GHz)" },
	  { PLAT_DDR_HALF(1600, 2933), "CLX DCLK: DDR4-1600 to -2933, half the DDR rate (seed 000 L2255)" },
	  { PLAT_LINK_GTS(4.8, 11.2), "CLX UPI clock: 4.8-11.2 GT/s / 8 (seed 001 L7957; speeds conservative)" } } };
/* Attribution: skx_uncore_init's CHA (SKX_CHA_MSR_PMON_BOX_FILTER_TID 8:0) */
static const struct attrib_plat clx_attrib = { "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 9, "the core's requests that missed the LLC" };

/* The memory controllers as Linux's EDAC driver names them (platform_facts.h struct mem_layout) */
static const struct mem_layout clx_mem = { "Skylake Socket#", " IMC#", 3, 3, 2,
	.source = "Linux 6.12 skx_edac drives Cascade Lake as Skylake (skx_base.c \"Skylake Socket\"), 2 controllers x 3 channels; uncore_snbep.c skx_uncore_imc num_boxes 6" };

const struct platform_desc platform_clx = {
	.name = "clx", .desc = "Cascade Lake / Cooper Lake (Xeon Scalable 2nd and 3rd gen)",
	.family = 6, .models = clx_models,
	SKX_UNCORE(clx),
	.energy = &clx_energy, .clocks = &clx_clocks, .attrib = &clx_attrib, .mem = &clx_mem,
	/* skx_iio_freerunning's bw_in_port scale 3.814697266e-6 MiB (Linux 6.12): 4 bytes a count */
	.iio_fr_bytes = 4,
	.ufreq_msr = 1, /* Linux 6.12 uncore-frequency.c intel_uncore_cpu_ids: SKYLAKE_X (Cascade Lake's model) */
};
