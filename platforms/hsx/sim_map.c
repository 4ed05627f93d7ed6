/* The simulator's register map of Haswell-EP, written from Linux 6.12 uncore_snbep.c (HSWEP_* defines,
 * hswep_uncore_* types and hswep_uncore_pci_ids; /work/notes/i34/hsx.md): MSR units at their HSWEP_*
 * addresses, PCI units with SNB-EP's layout (SNBEP_PCI_PMON_*), control bits as SNB-EP's. */
#include "sim/map_xeon_ep.h"
#include "sim/sim_only.h"

/* UBox filter HSWEP_U_MSR_PMON_FILTER 0x707: tid bit 0, cid bits 5:1 (HSWEP_U_MSR_PMON_BOX_FILTER_TID/CID). */
static const struct sim_filt ubox_filt[] = { { 0x707, 0, 0x3full } };
/* CBo FILTER0 0xE05 (tid 5:0, link 9:6, state 23:17) and FILTER1 0xE06 (nid 15:0, opc 28:20, c6 29, nc 30,
 * isoc 31): HSWEP_C0_MSR_PMON_BOX_FILTER0, HSWEP_CB0_MSR_PMON_BOX_FILTER_*, hswep_cbox_enable_event. */
static const struct sim_filt cbo_filt[] = { { 0xe05, 0, 0xfe03ffull }, { 0xe06, 0, 0xfff0ffffull } };
static const struct sim_fld cbo_fld[] = { { "state", 0, 17, 7 }, { "opc", 1, 20, 9 }, { "nid", 1, 0, 16 } };
/* PCU band filter HSWEP_PCU_MSR_PMON_BOX_FILTER 0x715, four bytes. */
static const struct sim_filt hsx_pcu_filt[] = { { 0x715, 0, 0xffffffffull } };

#define CBO_BITS (EV_UMASK | RST | EDGE | TID_EN | EN | INV | THRESH8) /* SNBEP_CBO_MSR_PMON_RAW_EVENT_MASK + rst, en */
#define PCI_BITS (EV_UMASK | RST | EDGE | EN | INV | THRESH8)

const struct sim_unit sim_hsx_units[] = {
	{ .name = "ubox", .space = SIM_MSR, .nboxes = 1, .ctl0 = 0x705, .ctl_stride = 1, .ctr0 = 0x709, .ctr_stride = 1,
	  .nctr = 2, .width = 44, SNB_CTL, .ctl_rst = RST, .ctl_writable = EV_UMASK | RST | EDGE | EN | INV | THRESH5,
	  .fixed_ctl = 0x703, .fixed_ctr = 0x704, .fixed_width = 48, .fixed_en = EN, .filt = ubox_filt, .nfilt = N(ubox_filt),
	  .src = "Linux hswep_uncore_ubox: HSWEP_U_MSR_PMON_CTL0/CTR0/FILTER/UCLK_FIXED_*" },
	{ .name = "cbo", .space = SIM_MSR, .nboxes = 18, .bc = &snb_bc, .box_stride = 0x10, .box_ctl = 0xe00,
	  .ctl0 = 0xe01, .ctl_stride = 1, .ctr0 = 0xe08, .ctr_stride = 1, .nctr = 4, .width = 48, SNB_CTL, .ctl_rst = RST,
	  .ctl_writable = CBO_BITS, .filt = cbo_filt, .nfilt = N(cbo_filt), .fld = cbo_fld, .nfld = N(cbo_fld),
	  .src = "Linux hswep_uncore_cbox: HSWEP_C0_MSR_PMON_*, HSWEP_CBO_MSR_OFFSET 0x10, 18 boxes, 48 bits" },
	{ .name = "sbox", .space = SIM_MSR, .nboxes = 4, .bc = &snb_bc, .box_stride = 0xa, .box_ctl = 0x720,
	  .ctl0 = 0x721, .ctl_stride = 1, .ctr0 = 0x726, .ctr_stride = 1, .nctr = 4, .width = 44, SNB_CTL, .ctl_rst = RST,
	  .ctl_writable = CBO_BITS, .src = "Linux hswep_uncore_sbox: HSWEP_S0_MSR_PMON_*, HSWEP_SBOX_MSR_OFFSET 0xa, 44 bits" },
	{ .name = "pcu", .space = SIM_MSR, .nboxes = 1, .bc = &snb_bc, .box_ctl = 0x710, .ctl0 = 0x711, .ctl_stride = 1,
	  .ctr0 = 0x717, .ctr_stride = 1, .nctr = 4, .width = 48, SNB_CTL, .ctl_rst = RST,
	  /* SNBEP_PCU_MSR_PMON_RAW_EVENT_MASK, rst, en, and bit 21 that the JSON's ExtSel PCU events set */
	  .ctl_writable = 0xffull | 0xc000ull | RST | EDGE | EXT | EN | INV | THRESH5 | 1ull << 30 | 1ull << 31,
	  .filt = hsx_pcu_filt, .nfilt = N(hsx_pcu_filt), .src = "Linux hswep_uncore_pcu: HSWEP_PCU_MSR_PMON_*" },
	{ .name = "ha", PCI_UNIT, .nboxes = 2, .bc = &snb_bc, .nctr = 4, .width = 48, SNB_CTL, .ctl_rst = RST,
	  .ctl_writable = PCI_BITS, .filt = ha_filt, .nfilt = N(ha_filt), .ids = { 0x2f30, 0x2f38 },
	  .src = "Linux hswep_uncore_ha, hswep_uncore_pci_ids Home Agent 0/1" },
	{ .name = "imc", PCI_UNIT, .nboxes = 8, .bc = &snb_bc, .nctr = 4, .width = 48, SNB_CTL, .ctl_rst = RST,
	  .ctl_writable = PCI_BITS, .fixed_ctl = 0xf0, .fixed_ctr = 0xd0, .fixed_width = 48, .fixed_en = EN, .fixed_rst = 1u << 19,
	  .ids = { 0x2fb0, 0x2fb1, 0x2fb4, 0x2fb5, 0x2fd0, 0x2fd1, 0x2fd4, 0x2fd5 },
	  .src = "Linux hswep_uncore_imc (SNBEP_MC_CHy_PCI_PMON_FIXED_*), hswep_uncore_pci_ids MC0/MC1 channels 0-3" },
	{ .name = "irp", PCI_UNIT, .nboxes = 1, .bc = &snb_bc, .nctr = 4, .width = 48, SNB_CTL, .ctl_rst = RST,
	  .ctl_writable = PCI_BITS, .ids = { 0x2f39 },
	  .src = "Linux hswep_uncore_irp (hswep_uncore_irp_ctrs 0xA0-0xB8, ivbep_uncore_irp_ctls 0xD8-0xE4)" },
	{ .name = "qpi", PCI_UNIT, .nboxes = 3, .bc = &snb_bc, .nctr = 4, .width = 48, SNB_CTL, .ctl_rst = RST,
	  .ctl_writable = PCI_BITS | EXT, .filt = qpi_filt, .nfilt = N(qpi_filt),
	  .ids = { 0x2f32, 0x2f33, 0x2f3a }, .comp_ids = { 0x2f86, 0x2f96 },
	  .src = "Linux hswep_uncore_qpi, hswep_uncore_pci_ids QPI ports 0-2 and the port 0/1 filters (none for port 2)" },
	{ .name = "r2pcie", PCI_UNIT, .nboxes = 1, .bc = &snb_bc, .nctr = 4, .width = 48, SNB_CTL, .ctl_rst = RST,
	  .ctl_writable = PCI_BITS, .ids = { 0x2f34 }, .src = "Linux hswep_uncore_r2pcie (48 bits)" },
	{ .name = "r3qpi", PCI_UNIT, .nboxes = 3, .bc = &snb_bc, .nctr = 3, .width = 44, SNB_CTL, .ctl_rst = RST,
	  .ctl_writable = PCI_BITS, .ids = { 0x2f36, 0x2f37, 0x2f3e },
	  .src = "Linux hswep_uncore_r3qpi (3 counters, 44 bits), R3QPI0 links 0/1, R3QPI1 link 2" },
};
const int sim_hsx_nunits = N(sim_hsx_units);
const struct sim_ubox_dev sim_hsx_ubox = { 0x2f1e, 0x40, 0x54 }; /* hswep_uncore_pci_init */
