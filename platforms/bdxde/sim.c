/* The simulated Broadwell-DE: Haswell-EP's machine and rates (platforms/hsx/sim.c) with one socket of 8 cores (the
 * D-1540) and Broadwell-EP's registers without SBox, QPI and R3QPI; the kernel is Broadwell-EP's
 * (sim_bdx_perf: bdx_uncore_init drives both; a type without boxes here registers no PMU).  One home agent and
 * the two channels of memory controller 0 [unverified: the driver probes by id and says nothing of which the DE
 * has; two DDR4 channels per the product briefs]. */
#include "../hsx/sim_hsx.h"

SIM_PERF_DECL(bdx);

/* Broadwell-EP's map (HSWEP_* MSRs, bdx_uncore_pci_ids) for the DE's units */
static const struct sim_unit units[] = {
	SIM_HSX_MSR_UNITS(48, 24),
	SIM_HSX_PCI_UNIT("ha", 1, 4, 48, 0, .filt = ha_filt, .nfilt = N(ha_filt), .ids = { 0x6f30 },
			 .src = "Linux bdx_uncore_ha, bdx_uncore_pci_ids Home Agent 0"),
	SIM_HSX_PCI_UNIT("imc", 2, 4, 48, 0, .fixed_ctl = 0xf0, .fixed_ctr = 0xd0, .fixed_width = 48, .fixed_en = EN,
			 .fixed_rst = 1u << 19, .ids = { 0x6fb0, 0x6fb1 }, .src = "Linux bdx_uncore_imc, MC0 channels 0-1"),
	SIM_HSX_PCI_UNIT("irp", 1, 4, 48, 0, .ids = { 0x6f39 }, .src = "Linux bdx_uncore_irp"),
	SIM_HSX_PCI_UNIT("r2pcie", 1, 4, 48, 0, .ids = { 0x6f34 }, .src = "Linux bdx_uncore_r2pcie"),
};
static const int nunits = N(units);
static const struct sim_ubox_dev ubox = { 0x6f1e, 0x40, 0x54 }; /* bdx_uncore_pci_init */

/* model 0x56 (INTEL_BROADWELL_D), stepping 3 (V2, 0x50663) */
const struct sim_kind sim_kind_bdxde = { .name = "bdxde", .cores = 8, .max_cores = 16 /* Xeon D-1587 */, .family = 6, .model = 0x56, .stepping = 3,
					 .build = sim_hsx_build, .units = units, .nunits = &nunits, .ubox = &ubox, .glob = &sim_hsx_global,
					 .perf = sim_bdx_perf, .nperf = &sim_bdx_nperf, .sockets = 1,
					 .ufreq_mode = SIM_UFREQ_LEGACY, .ufreq_min_ratio = 12 /* 1.2 GHz floor: sim_ufreq.c */ };
