/* The simulator's register map of Sandy Bridge-EP (seed 000, Intel 327043-001).  MSR units: box i at
 * i x box_stride; PCI units: config offsets of their function. */
#include "sim/map_xeon_ep.h"
#include "sim/sim_only.h"

const struct sim_unit sim_snbep_units[] = {
	{ .name = "ubox", .space = SIM_MSR, .nboxes = 1, .ctl0 = 0xc10, .ctl_stride = 1, .ctr0 = 0xc16, .ctr_stride = 1,
	  .nctr = 2, .width = 44, SNB_CTL, .ctl_rst = RST, .ctl_writable = EV_UMASK | RST | EDGE | EN | INV | THRESH5,
	  .fixed_ctl = 0xc08, .fixed_ctr = 0xc09, .fixed_width = 48, .fixed_en = EN,
	  .src = "Linux SNBEP_U_MSR_PMON_* (Table 2-1 lost); widths L323-324; ctl Table 2-2; fixed Table 2-4" },
	{ .name = "cbo", .space = SIM_MSR, .nboxes = 8, .bc = &snb_bc, .box_stride = 0x20, .box_ctl = 0xd04,
	  .ctl0 = 0xd10, .ctl_stride = 1, .ctr0 = 0xd16, .ctr_stride = 1, .nctr = 4, .width = 44, SNB_CTL, .ctl_rst = RST,
	  .ctl_writable = EV_UMASK | RST | EDGE | TID_EN | EN | INV | THRESH8,
	  .filt = snb_cbo_filt, .nfilt = N(snb_cbo_filt), .fld = snb_cbo_fld, .nfld = N(snb_cbo_fld), SNB_TID,
	  .src = "Table 2-8 (0xD04/0xD10/0xD14/0xD16 + 0x20 n), Table 1-2 C-Box 3-7, width L423, ctl Table 2-10" },
	{ .name = "pcu", .space = SIM_MSR, .nboxes = 1, .bc = &snb_bc, .box_ctl = 0xc24, .ctl0 = 0xc30, .ctl_stride = 1,
	  .ctr0 = 0xc36, .ctr_stride = 1, .nctr = 4, .width = 48, SNB_CTL, .ctl_rst = RST,
	  /* ev_sel, occ_sel 15:14, rst, edge, en, invert, thresh 28:24, occ_invert 30, occ_edge 31 (Table 2-75),
	   * and bit 21 that the perfmon JSON's ExtSel events set */
	  .ctl_writable = 0xffull | 0xc000ull | RST | EDGE | EXT | EN | INV | THRESH5 | 1ull << 30 | 1ull << 31,
	  .filt = pcu_filt, .nfilt = N(pcu_filt),
	  .src = "Table 2-73 (CTL 0xC30, BOX_CTL 0xC24); CTR 0xC36 and FILTER 0xC34 Linux SNBEP_PCU_MSR_*; width L2742" },
	{ .name = "ha", PCI_UNIT, .nboxes = 1, .bc = &snb_bc_norst, .nctr = 4, .width = 48, SNB_CTL,
	  .ctl_writable = EV_UMASK | EDGE | EN | INV | THRESH8, .filt = ha_filt, .nfilt = N(ha_filt), .ids = { 0x3c46 },
	  .src = "D14:F1 (L1523), Table 2-34/2-35, width L1514; device ID Linux pci_ids.h" },
	{ .name = "imc", PCI_UNIT, .nboxes = 4, .bc = &snb_bc_norst, .nctr = 4, .width = 48, SNB_CTL,
	  .ctl_writable = EV_UMASK | EDGE | EN | INV | THRESH8,
	  .fixed_ctl = 0xf0, .fixed_ctr = 0xd0, .fixed_width = 48, .fixed_en = EN, .fixed_rst = 1u << 19,
	  .ids = { 0x3cb0, 0x3cb1, 0x3cb4, 0x3cb5 },
	  .src = "D16:F0,F1,F4,F5 (L2162-2165), Tables 2-59..2-62, width L2149; device IDs Linux pci_ids.h" },
	{ .name = "qpi", PCI_UNIT, .nboxes = 2, .bc = &snb_bc, .nctr = 4, .width = 48, SNB_CTL, .ctl_rst = RST,
	  .ctl_writable = EV_UMASK | RST | EDGE | EXT | EN | INV | THRESH8, .filt = qpi_filt, .nfilt = N(qpi_filt),
	  .ids = { 0x3c41, 0x3c42 }, .comp_ids = { 0x3c86, 0x3c96 },
	  .src = "D8:F2, D9:F2 and F6 (L3392-3407), Table 2-86, width L3380; device IDs Linux pci_ids.h" },
	{ .name = "r2pcie", PCI_UNIT, .nboxes = 1, .bc = &snb_bc, .nctr = 4, .width = 44, SNB_CTL, .ctl_rst = RST,
	  .ctl_writable = EV_UMASK | RST | EDGE | EN | INV | THRESH8, .ids = { 0x3c43 },
	  .src = "D19:F1 (L176), Table 1-3; 4 counters of 44 bits Linux snbep_uncore_r2pcie" },
	{ .name = "r3qpi", PCI_UNIT, .nboxes = 2, .bc = &snb_bc, .nctr = 3, .width = 44, SNB_CTL, .ctl_rst = RST,
	  .ctl_writable = EV_UMASK | RST | EDGE | EN | INV | THRESH8, .ids = { 0x3c44, 0x3c45 },
	  .src = "D19:F5, F6 (L172), Table 1-3 (CTL E0-D8: 3 counters); 44 bits Linux snbep_uncore_r3qpi" },
};
const int sim_snbep_nunits = N(sim_snbep_units);
const struct sim_ubox_dev sim_snbep_ubox = { 0x3ce0, 0x40, 0x54 }; /* Linux snbep_pci2phy_map_init */

