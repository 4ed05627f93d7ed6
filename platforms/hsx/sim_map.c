/* The simulator's register map of Haswell-EP, written from Linux 6.12 uncore_snbep.c (HSWEP_* defines,
 * hswep_uncore_* types and hswep_uncore_pci_ids; /work/notes/i34/hsx.md): MSR units at their HSWEP_*
 * addresses, PCI units with SNB-EP's layout (SNBEP_PCI_PMON_*), control bits as SNB-EP's (sim_hsx.h). */
#include "sim_hsx.h"

const struct sim_filt sim_hsx_ubox_filt[] = { { 0x707, 0, 0x3full } }; /* HSWEP_U_MSR_PMON_BOX_FILTER_TID/CID */
/* HSWEP_C0_MSR_PMON_BOX_FILTER0, HSWEP_CB0_MSR_PMON_BOX_FILTER_*, FILTER1 = FILTER0 + 1 (hswep_cbox_enable_event) */
const struct sim_filt sim_hsx_cbo_filt[] = { { 0xe05, 0, 0xfe03ffull }, { 0xe06, 0, 0xfff0ffffull } };
/* tid 5:0 (HSWEP_CB0_MSR_PMON_BOX_FILTER_TID 0x3f): thread bit 0, the core above */
const struct sim_fld sim_hsx_cbo_fld[] = { { "state", 0, 17, 7 }, { "opc", 1, 20, 9 }, { "nid", 1, 0, 16 }, { "tid", 0, 0, 6 } };
const struct sim_filt sim_hsx_pcu_filt[] = { { 0x715, 0, 0xffffffffull } }; /* HSWEP_PCU_MSR_PMON_BOX_FILTER */

/* hswep_uncore_*: UBox, SBox and R3QPI of 44 bits, 18 CBos; ids of hswep_uncore_pci_ids */
#define HSX_PCI_UNITS                                                                                            \
	SIM_HSX_PCI_UNIT("ha", 2, 4, 48, 0, .filt = ha_filt, .nfilt = N(ha_filt), .ids = { 0x2f30, 0x2f38 },          \
			 .src = "Linux hswep_uncore_ha, hswep_uncore_pci_ids Home Agent 0/1"),                        \
	SIM_HSX_PCI_UNIT("imc", 8, 4, 48, 0, .fixed_ctl = 0xf0, .fixed_ctr = 0xd0, .fixed_width = 48, .fixed_en = EN, \
			 .fixed_rst = 1u << 19, .ids = { 0x2fb0, 0x2fb1, 0x2fb4, 0x2fb5, 0x2fd0, 0x2fd1, 0x2fd4, 0x2fd5 }, \
			 .src = "Linux hswep_uncore_imc (SNBEP_MC_CHy_PCI_PMON_FIXED_*), MC0/MC1 channels 0-3"),      \
	SIM_HSX_PCI_UNIT("irp", 1, 4, 48, 0, .ids = { 0x2f39 },                                                       \
			 .src = "Linux hswep_uncore_irp (hswep_uncore_irp_ctrs 0xA0-0xB8, ivbep_uncore_irp_ctls 0xD8-0xE4)"), \
	SIM_HSX_PCI_UNIT("qpi", 3, 4, 48, EXT, .filt = qpi_filt, .nfilt = N(qpi_filt),                                \
			 .ids = { 0x2f32, 0x2f33, 0x2f3a }, .comp_ids = { 0x2f86, 0x2f96 },                           \
			 .src = "Linux hswep_uncore_qpi, QPI ports 0-2 and the port 0/1 filters (none for port 2)"),  \
	SIM_HSX_PCI_UNIT("r2pcie", 1, 4, 48, 0, .ids = { 0x2f34 }, .src = "Linux hswep_uncore_r2pcie (48 bits)"),     \
	SIM_HSX_PCI_UNIT("r3qpi", 3, 3, 44, 0, .ids = { 0x2f36, 0x2f37, 0x2f3e },                                     \
			 .src = "Linux hswep_uncore_r3qpi (3 counters, 44 bits), R3QPI0 links 0/1, R3QPI1 link 2"),

const struct sim_unit sim_hsx_units[] = { SIM_HSX_MSR_UNITS(44, 18), SIM_HSX_SBOX(44), HSX_PCI_UNITS };
const int sim_hsx_nunits = N(sim_hsx_units);
/* The 6-8 core die (its PCU's CAPID4 chop 0): two SBoxes (Linux hswep_uncore_cpu_init, hswep_has_limit_sbox) */
const struct sim_unit sim_hsx_units_chop0[] = { SIM_HSX_MSR_UNITS(44, 18), SIM_HSX_SBOXES(44, 2), HSX_PCI_UNITS };
const int sim_hsx_nunits_chop0 = N(sim_hsx_units_chop0);
const struct sim_ubox_dev sim_hsx_ubox = { 0x2f1e, 0x40, 0x54 }; /* hswep_uncore_pci_init */
