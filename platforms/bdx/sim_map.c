/* The simulator's register map of Broadwell-EP, written from Linux 6.12 uncore_snbep.c ("BDX uncore support":
 * bdx_uncore_* over the HSWEP_* registers, bdx_uncore_pci_ids; /work/notes/i34/bdx.md): Haswell-EP's map
 * (platforms/hsx/sim_hsx.h) with BDX's widths, 24 CBos and PCI ids. */
#include "../hsx/sim_hsx.h"

/* bdx_uncore_*: UBox, SBox and R3QPI of 48 bits, 24 CBos */
const struct sim_unit sim_bdx_units[] = {
	SIM_HSX_MSR_UNITS(48, 24), SIM_HSX_SBOX(48),
	SIM_HSX_PCI_UNIT("ha", 2, 4, 48, 0, .filt = ha_filt, .nfilt = N(ha_filt), .ids = { 0x6f30, 0x6f38 },
			 .src = "Linux bdx_uncore_ha, bdx_uncore_pci_ids Home Agent 0/1"),
	SIM_HSX_PCI_UNIT("imc", 8, 4, 48, 0, .fixed_ctl = 0xf0, .fixed_ctr = 0xd0, .fixed_width = 48, .fixed_en = EN,
			 .fixed_rst = 1u << 19, .ids = { 0x6fb0, 0x6fb1, 0x6fb4, 0x6fb5, 0x6fd0, 0x6fd1, 0x6fd4, 0x6fd5 },
			 .src = "Linux bdx_uncore_imc (SNBEP_MC_CHy_PCI_PMON_FIXED_*), MC0/MC1 channels 0-3"),
	SIM_HSX_PCI_UNIT("irp", 1, 4, 48, 0, .ids = { 0x6f39 }, .src = "Linux bdx_uncore_irp (hswep_uncore_irp_ops)"),
	SIM_HSX_PCI_UNIT("qpi", 3, 4, 48, EXT, .filt = qpi_filt, .nfilt = N(qpi_filt), .ids = { 0x6f32, 0x6f33, 0x6f3a },
			 .comp_ids = { 0x6f86, 0x6f96, 0x6f46 },
			 .src = "Linux bdx_uncore_qpi, QPI ports 0-2 and their filters (BDX_PCI_QPI_PORT2_FILTER 0x6f46)"),
	SIM_HSX_PCI_UNIT("r2pcie", 1, 4, 48, 0, .ids = { 0x6f34 }, .src = "Linux bdx_uncore_r2pcie"),
	SIM_HSX_PCI_UNIT("r3qpi", 3, 3, 48, 0, .ids = { 0x6f36, 0x6f37, 0x6f3e },
			 .src = "Linux bdx_uncore_r3qpi (3 counters, 48 bits)"),
};
const int sim_bdx_nunits = N(sim_bdx_units);
const struct sim_ubox_dev sim_bdx_ubox = { 0x6f1e, 0x40, 0x54 }; /* bdx_uncore_pci_init */
