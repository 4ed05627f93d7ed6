/*
 * The simulator's register map of Sandy Bridge-EP (seed 000, Intel 327043-001) and Ivy Bridge-EP
 * (seed 002, Intel 329468-002; addresses from Linux uncore_snbep.c IVBEP_* and likwid registers.h).
 * MSR units: box i at i x box_stride; PCI units: config offsets of their function.
 */
#include "sim_model.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Counter control, seed 000 Table 2-10: ev_sel 7:0, umask 15:8, rst 17, edge 18, en 22, invert 23,
 * thresh 31:24.  Each unit keeps the fields its table lists. */
#define EV_UMASK 0xffffull
#define RST (1ull << 17)
#define EDGE (1ull << 18)
#define TID_EN (1ull << 19) /* T2-10 */
#define EXT (1ull << 21)    /* QPI ev_sel_ext, T2-86 */
#define EN (1ull << 22)
#define INV (1ull << 23)
#define THRESH8 0xff000000ull
#define THRESH5 0x1f000000ull /* UBox T2-2, PCU T2-75 */
#define SNB_CTL .ctl_en = EN, .ctl_bytes = 4

/* Box control, seed 000 Tables 2-9/2-74/2-85: rst_ctrl 0, rst_ctrs 1, frz 8, frz_en 16. */
static const struct sim_boxctl snb_bc = { .rst_ctrl = 1u << 0, .rst_ctrs = 1u << 1, .frz = 1u << 8,
					  .frz_en = 1u << 16, .readable = 1u << 8 | 1u << 16 };
/* HA and iMC, Tables 2-34/2-60: bits 1:0 reserved, no reset (seed text L290-293). */
static const struct sim_boxctl snb_bc_norst = { .frz = 1u << 8, .frz_en = 1u << 16, .readable = 1u << 8 | 1u << 16 };
/* IVB-EP: Linux IVBEP_PMON_BOX_CTL_INT = rst_ctrl | rst_ctrs, freeze with frz alone; no frz_en. */
static const struct sim_boxctl ivb_bc = { .rst_ctrl = 1u << 0, .rst_ctrs = 1u << 1, .frz = 1u << 8 };
static const struct sim_boxctl ivb_bc_norst = { .frz = 1u << 8 };

/* CBo filter, Table 2-12: tid 4:0, nid 17:10, state 22:18, opc 31:23. */
static const struct sim_filt snb_cbo_filt[] = { { 0xd14, 0, 0x1full | 0x3fc00ull | 0x7c0000ull | 0xff800000ull } };
static const struct sim_fld snb_cbo_fld[] = { { "state", 0, 18, 5 }, { "opc", 0, 23, 9 }, { "nid", 0, 10, 8 } };
/* PCU band filter 0xC34 (Linux SNBEP_PCU_MSR_PMON_BOX_FILTER), Table 2-77: bands 31:0. */
static const struct sim_filt pcu_filt[] = { { 0xc34, 0, 0xffffffffull } };
/* HA ADDRMATCH0 0x40 (31:6), ADDRMATCH1 0x44 (13:0), OPCODEMATCH 0x48 (5:0): Tables 2-37..2-39. */
static const struct sim_filt ha_filt[] = { { 0x40, 0, 0xffffffc0ull }, { 0x44, 0, 0x3fffull }, { 0x48, 0, 0x3full } };
/* QPI PKT_MATCH0/1 0x228/0x22C and PKT_MASK0/1 0x238/0x23C on D8/D9:F6 (section 2.7.3.3); Linux takes
 * all 32 bits of each (match0 = config1:0-31). */
static const struct sim_filt qpi_filt[] = { { 0x228, 1, 0xffffffffull }, { 0x22c, 1, 0xffffffffull },
					   { 0x238, 1, 0xffffffffull }, { 0x23c, 1, 0xffffffffull } };

/* PCI units share one layout (Table 1-3): BOX_CTL 0xF4, CTL 0xD8 + 4k, CTR 0xA0 + 8k as two dwords. */
#define PCI_UNIT .space = SIM_PCI, .box_ctl = 0xf4, .ctl0 = 0xd8, .ctl_stride = 4, .ctr0 = 0xa0, .ctr_stride = 8

const struct sim_unit sim_snbep_units[] = {
	{ .name = "ubox", .space = SIM_MSR, .nboxes = 1, .ctl0 = 0xc10, .ctl_stride = 1, .ctr0 = 0xc16, .ctr_stride = 1,
	  .nctr = 2, .width = 44, SNB_CTL, .ctl_rst = RST, .ctl_writable = EV_UMASK | RST | EDGE | EN | INV | THRESH5,
	  .fixed_ctl = 0xc08, .fixed_ctr = 0xc09, .fixed_width = 48, .fixed_en = EN,
	  .src = "Linux SNBEP_U_MSR_PMON_* (Table 2-1 lost); widths L323-324; ctl Table 2-2; fixed Table 2-4" },
	{ .name = "cbo", .space = SIM_MSR, .nboxes = 8, .bc = &snb_bc, .box_stride = 0x20, .box_ctl = 0xd04,
	  .ctl0 = 0xd10, .ctl_stride = 1, .ctr0 = 0xd16, .ctr_stride = 1, .nctr = 4, .width = 44, SNB_CTL, .ctl_rst = RST,
	  .ctl_writable = EV_UMASK | RST | EDGE | TID_EN | EN | INV | THRESH8,
	  .filt = snb_cbo_filt, .nfilt = N(snb_cbo_filt), .fld = snb_cbo_fld, .nfld = N(snb_cbo_fld),
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

/* IVB-EP: as SNB-EP, but ov_en at 20 (seed 002 2.1.2 freeze on overflow; bit [unverified]), no invert
 * (Linux IVBEP_*_RAW_EVENT_MASK), box status at 0xC15 (UBox) and 0xF8 (PCI units, likwid). */
#define OV (1ull << 20)
#define IVB_CTL SNB_CTL, .ov_en = OV
/* CBo FILTER0 0xD14 (tid 4:0, link 8:5, state 22:17) and FILTER1 0xD1A (nid 15:0, opc 28:20, c6 29,
 * nc 30, isoc 31): Linux config1 fields filter_*2, high half written to the filter MSR + 6. */
static const struct sim_filt ivb_cbo_filt[] = { { 0xd14, 0, 0x7e01ffull }, { 0xd1a, 0, 0xfff0ffffull } };
static const struct sim_fld ivb_cbo_fld[] = { { "state", 0, 17, 6 }, { "opc", 1, 20, 9 }, { "nid", 1, 0, 16 } };
static const uint32_t irp_ctrs[] = { 0xa0, 0xb0, 0xb8, 0xc0 }; /* Linux ivbep_uncore_irp_ctrs */

const struct sim_unit sim_ivbep_units[] = {
	{ .name = "ubox", .space = SIM_MSR, .nboxes = 1, .ctl0 = 0xc10, .ctl_stride = 1, .ctr0 = 0xc16, .ctr_stride = 1,
	  .status = 0xc15, .nctr = 2, .width = 44, IVB_CTL, .ctl_rst = RST, .ctl_writable = EV_UMASK | RST | EDGE | OV | EN | THRESH5,
	  .fixed_ctl = 0xc08, .fixed_ctr = 0xc09, .fixed_width = 48, .fixed_en = EN,
	  .src = "likwid MSR_UNC_U_PMON_* (notes 10); Linux IVBEP_U_MSR_PMON_*" },
	{ .name = "cbo", .space = SIM_MSR, .nboxes = 15, .bc = &ivb_bc, .box_stride = 0x20, .box_ctl = 0xd04,
	  .ctl0 = 0xd10, .ctl_stride = 1, .ctr0 = 0xd16, .ctr_stride = 1, .nctr = 4, .width = 44, IVB_CTL, .ctl_rst = RST,
	  .ctl_writable = EV_UMASK | RST | EDGE | TID_EN | OV | EN | THRESH8,
	  .filt = ivb_cbo_filt, .nfilt = N(ivb_cbo_filt), .fld = ivb_cbo_fld, .nfld = N(ivb_cbo_fld),
	  .src = "Linux IVBEP_C0_MSR_PMON_*, IVBEP_CBO_MSR_OFFSET 0x20, 15 boxes; likwid FILTER1 0xD1A" },
	{ .name = "pcu", .space = SIM_MSR, .nboxes = 1, .bc = &ivb_bc, .box_ctl = 0xc24, .ctl0 = 0xc30, .ctl_stride = 1,
	  .ctr0 = 0xc36, .ctr_stride = 1, .nctr = 4, .width = 48, IVB_CTL, .ctl_rst = RST,
	  .ctl_writable = 0xffull | 0xc000ull | RST | EDGE | OV | EXT | EN | THRESH5 | 1ull << 30 | 1ull << 31,
	  .filt = pcu_filt, .nfilt = N(pcu_filt), .src = "as SNB-EP (Linux IVBEP_PCU_MSR_PMON_*)" },
	{ .name = "ha", PCI_UNIT, .nboxes = 2, .bc = &ivb_bc_norst, .status = 0xf8, .nctr = 4, .width = 48, IVB_CTL,
	  .ctl_writable = EV_UMASK | EDGE | OV | EN | THRESH8, .filt = ha_filt, .nfilt = N(ha_filt),
	  .ids = { 0x0e30, 0x0e38 }, .src = "Linux pci_ids.h HA0/HA1; layout likwid (notes 10)" },
	{ .name = "imc", PCI_UNIT, .nboxes = 8, .bc = &ivb_bc_norst, .status = 0xf8, .nctr = 4, .width = 48, IVB_CTL,
	  .ctl_writable = EV_UMASK | EDGE | OV | EN | THRESH8,
	  .fixed_ctl = 0xf0, .fixed_ctr = 0xd0, .fixed_width = 48, .fixed_en = EN, .fixed_rst = 1u << 19,
	  .ids = { 0x0eb4, 0x0eb5, 0x0eb0, 0x0eb1, 0x0ef4, 0x0ef5, 0x0ef0, 0x0ef1 },
	  .src = "Linux pci_ids.h IMC0/1 channels 0-3; layout and fixed counter likwid (notes 10)" },
	{ .name = "irp", PCI_UNIT, .nboxes = 1, .bc = &ivb_bc, .ctr_offs = irp_ctrs, .status = 0xf8, .nctr = 4,
	  .width = 48, IVB_CTL, .ctl_rst = RST, .ctl_writable = EV_UMASK | RST | EDGE | OV | EN | THRESH8, .ids = { 0x0e39 },
	  .src = "Linux ivbep_uncore_irp (counters 0xA0, 0xB0, 0xB8, 0xC0), pci_ids.h" },
	{ .name = "qpi", PCI_UNIT, .nboxes = 3, .bc = &ivb_bc, .status = 0xf8, .nctr = 4, .width = 48, IVB_CTL, .ctl_rst = RST,
	  .ctl_writable = EV_UMASK | RST | EDGE | OV | EXT | EN | THRESH8, .filt = qpi_filt, .nfilt = N(qpi_filt),
	  .ids = { 0x0e32, 0x0e33, 0x0e3a }, .comp_ids = { 0x0e86, 0x0e96 },
	  .src = "Linux pci_ids.h QPI0-2 and filters 0x0E86/0x0E96; match/mask likwid (notes 10)" },
	{ .name = "r2pcie", PCI_UNIT, .nboxes = 1, .bc = &ivb_bc, .status = 0xf8, .nctr = 4, .width = 44, IVB_CTL, .ctl_rst = RST,
	  .ctl_writable = EV_UMASK | RST | EDGE | OV | EN | THRESH8, .ids = { 0x0e34 }, .src = "Linux pci_ids.h" },
	{ .name = "r3qpi", PCI_UNIT, .nboxes = 3, .bc = &ivb_bc, .status = 0xf8, .nctr = 3, .width = 44, IVB_CTL, .ctl_rst = RST,
	  .ctl_writable = EV_UMASK | RST | EDGE | OV | EN | THRESH8, .ids = { 0x0e36, 0x0e37, 0x0e3e },
	  .src = "Linux pci_ids.h R3QPI0-2 (link 2 0x0E3E)" },
};
const int sim_ivbep_nunits = N(sim_ivbep_units);
const struct sim_ubox_dev sim_ivbep_ubox = { 0x0e1e, 0x40, 0x54 }; /* Linux ivbep_pci2phy_map_init */
/* U_MSR_PMON_GLOBAL_CTL 0xC00 (frz_all 31, unfrz_all 29, Linux IVBEP_U_*), GLOBAL_STATUS 0xC01 (likwid) */
const struct sim_global sim_ivbep_global = { 0xc00, 0xc01, 1, 1ull << 31, 1ull << 29 };
