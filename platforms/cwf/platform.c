/*
 * Clearwater Forest (Xeon 6+ with E-cores), family 6 model 0xdd (Linux INTEL_ATOM_DARKMONT_X): the uncore of Granite
 * Rapids, driven by the same gnr_uncore_init (uncore.c intel_uncore_match), so the unit types, quirks and
 * aliases are platforms/gnr's (gnr.h); the events are Intel's CWF files (perfmon_units.txt).
 */
#include "../gnr/gnr.h"

UC_PLATFORM_TABLES(cwf);

static const int cwf_models[] = { 0xdd, 0 };

/* RAPL: through TPMI alone (Linux 6.12 intel_rapl_tpmi.c: package, memory -> dram); no public source reads any
 * RAPL MSR on it.  max_w: the 500 W of the Xeon 6 socket twice, no TDP published yet */
static const struct energy_part cwf_energy = { PLAT_RAPL_PKG_DRAM, 0, 0, ENERGY_MSR_NONE, 1000, "intel_rapl_tpmi.c" };
/* Clocks: MRDIMM 8800 (the speed health's channel bandwidth uses) and UPI 24 GT/s (Xeon 6) */
static const struct plat_clocks cwf_clocks = {
	{ { PLAT_MESH, "CWF mesh clock: conservative 0.8-3 GHz" },
	  { PLAT_DDR5(8800), "CWF DCLK: DDR5-3200 / 4 to MRDIMM-8800 / 2 (JESD79-5C)" },
	  { PLAT_LINK_GTS(4.8, 24), "CWF UPI clock: 4.8-24 GT/s / 8 (seed 001 L7957)" } } };
/* Attribution: the discovery parts' CHA filter tid 9:0 (seed 001 T2-75: [9:3] Core-ID, [2:0] Thread) */
static const struct attrib_plat cwf_attrib = { "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 10, "the core's requests that missed the LLC" };

/* pcm gives Clearwater Forest its default mapping, "without attribution to PCIe devices" (getPlatformMapping):
 * taken as Birch Stream's ports (devices 2-9, platforms/gnr/platform.c) and accelerator stacks (the same Linux driver and counters), which no pcm table
 * confirms; no CPU-bus table, so its root buses are not read from registers */
static const int cwf_iio_models[] = { 0xdd, 0 }; /* INTEL_ATOM_DARKMONT_X */
static const struct iio_layout cwf_iio = { .models = cwf_iio_models, .port_lo = 2, .port_hi = 9, .accel = 1 };

const struct platform_desc platform_cwf = {
	.name = "cwf", .desc = "Clearwater Forest (Xeon 6+ with E-cores)",
	.family = 6, .models = cwf_models,
	GNR_UNCORE(cwf), .ecore_only = 1,
	.energy = &cwf_energy, .clocks = &cwf_clocks, .attrib = &cwf_attrib,
	/* gnr_iio_freerunning's bw_in_port scale 3.0517578125e-5 MiB (Linux 6.12): 32 bytes a count */
	.iio_fr_bytes = 32, .iio = &cwf_iio,
};
