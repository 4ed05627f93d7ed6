/* The simulator's register map of Ivy Bridge-EP (seed 002, Intel 329468-002; addresses from Linux
 * uncore_snbep.c IVBEP_* and likwid registers.h). */
#include "sim/map_xeon_ep.h"
#include "sim/sim_only.h"

/* IVB-EP: as SNB-EP, but ov_en at 20 (seed 002 2.1.2 freeze on overflow; bit [unverified]), no invert
 * (Linux IVBEP_*_RAW_EVENT_MASK), box status at 0xC15 (UBox) and 0xF8 (PCI units, likwid). */
#define OV (1ull << 20)
#define IVB_CTL SNB_CTL, .ov_en = OV
/* CBo FILTER0 0xD14 (tid 4:0, link 8:5, state 22:17) and FILTER1 0xD1A (nid 15:0, opc 28:20, c6 29,
 * nc 30, isoc 31): Linux config1 fields filter_*2, high half written to the filter MSR + 6. */
static const struct sim_filt ivb_cbo_filt[] = { { 0xd14, 0, 0x7e01ffull }, { 0xd1a, 0, 0xfff0ffffull } };
/* FILTER0 tid 4:0 (Linux IVBEP_CB0_MSR_PMON_BOX_FILTER_TID 0x1f), thread bit 0 */
static const struct sim_fld ivb_cbo_fld[] = { { "state", 0, 17, 6 }, { "opc", 1, 20, 9 }, { "nid", 1, 0, 16 }, { "tid", 0, 0, 5 } };
static const uint32_t irp_ctrs[] = { 0xa0, 0xb0, 0xb8, 0xc0 }; /* Linux ivbep_uncore_irp_ctrs */

const struct sim_unit sim_ivbep_units[] = {
	{ .name = "ubox", .space = SIM_MSR, .nboxes = 1, .ctl0 = 0xc10, .ctl_stride = 1, .ctr0 = 0xc16, .ctr_stride = 1,
	  .status = 0xc15, .nctr = 2, .width = 44, IVB_CTL, .ctl_rst = RST, .ctl_writable = EV_UMASK | RST | EDGE | OV | EN | THRESH5,
	  .fixed_ctl = 0xc08, .fixed_ctr = 0xc09, .fixed_width = 48, .fixed_en = EN,
	  .src = "likwid MSR_UNC_U_PMON_* (notes 10); Linux IVBEP_U_MSR_PMON_*" },
	{ .name = "cbo", .space = SIM_MSR, .nboxes = 15, .bc = &ivb_bc, .box_stride = 0x20, .box_ctl = 0xd04,
	  .ctl0 = 0xd10, .ctl_stride = 1, .ctr0 = 0xd16, .ctr_stride = 1, .nctr = 4, .width = 44, IVB_CTL, .ctl_rst = RST,
	  .ctl_writable = EV_UMASK | RST | EDGE | TID_EN | OV | EN | THRESH8,
	  .filt = ivb_cbo_filt, .nfilt = N(ivb_cbo_filt), .fld = ivb_cbo_fld, .nfld = N(ivb_cbo_fld), SNB_TID,
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
