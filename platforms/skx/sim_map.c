/*
 * The simulator's register map of Skylake-SP, written from the Linux 6.12 driver's constants
 * (arch/x86/events/intel/uncore_snbep.c: HSWEP_* and SKX_* defines, skx_uncore_* types,
 * skx_iio_freerunning, skx_uncore_pci_ids) and never from platforms/skx/platform.c.  Cascade Lake reuses
 * it (sim_skx.h).
 */
#include "sim/map_xeon_ep.h"
#include "sim/sim_only.h"
#include "sim_skx.h"

/* Every box control: rst_ctrl 0 and rst_ctrs 1 (IVBEP_PMON_BOX_CTL_INT), frz 8, no frz_en (ivb_bc); UPI's keeps
 * bits 17:16 (upi_bc, map_xeon_ep.h: PCM's link check). */
#define CTL48 .width = 48, .ctl_en = EN, .ctl_rst = RST
#define BASE_CTL (EV_UMASK | RST | EDGE | EN | INV | THRESH8) /* SNBEP_PMON_RAW_EVENT_MASK and rst, en */

/* CHA FILTER0 0xE05 + 0x10 n: tid 8:0, link 12:9, state 26:17; FILTER1 0xE06: rem 0, loc 1, all_opc 3,
 * nm 4, not_nm 5, opc0 18:9, opc1 28:19, c6 29, nc 30, isoc 31 (SKX_CHA_MSR_PMON_BOX_FILTER_*, whose
 * FILTER1 bits are config1 63:32) */
static const struct sim_filt cha_filt[] = { { 0xe05, 0, 0x1ffull | 0xfull << 9 | 0x3ffull << 17 },
					    { 0xe06, 0, 0xfffffe3bull } };
static const struct sim_fld cha_fld[] = { { "state", 0, 17, 10 }, { "rem", 1, 0, 1 }, { "loc", 1, 1, 1 },
					  { "all_opc", 1, 3, 1 }, { "opc0", 1, 9, 10 }, { "opc1", 1, 19, 10 },
					  { "tid", 0, 0, 9 } };
/* PCU band filter HSWEP_PCU_MSR_PMON_BOX_FILTER 0x715 */
const struct sim_filt sim_skx_pcu_filt[1] = { { 0x715, 0, 0xffffffffull } };

/* skx_iio_freerunning: IOCLK 0xA45 (+0x20 a stack), BW 0xB00 + i and UTIL 0xB08 + i (+0x10 a stack), 36 bits */
#define FR(n, a) { n, a, 36, 0x10, NULL }
static const struct sim_fr iio_fr[] = {
	{ "ioclk", 0xa45, 36, 0x20, NULL },
	FR("bw_in_port0", 0xb00), FR("bw_in_port1", 0xb01), FR("bw_in_port2", 0xb02), FR("bw_in_port3", 0xb03),
	FR("bw_out_port0", 0xb04), FR("bw_out_port1", 0xb05), FR("bw_out_port2", 0xb06), FR("bw_out_port3", 0xb07),
	FR("util_in_port0", 0xb08), FR("util_out_port0", 0xb09), FR("util_in_port1", 0xb0a), FR("util_out_port1", 0xb0b),
	FR("util_in_port2", 0xb0c), FR("util_out_port2", 0xb0d), FR("util_in_port3", 0xb0e), FR("util_out_port3", 0xb0f),
};

const struct sim_unit sim_skx_units[] = {
	SIM_SKX_UBOX_UNIT("Linux skx_uncore_ubox: HSWEP_U_MSR_PMON_CTL0/CTR0, UCLK_FIXED_CTL/CTR"),
	{ .name = "cha", .space = SIM_MSR, .nboxes = SIM_SKX_MAX_CHA, .bc = &ivb_bc, .box_stride = 0x10, .box_ctl = 0xe00,
	  .ctl0 = 0xe01, .ctl_stride = 1, .ctr0 = 0xe08, .ctr_stride = 1, CTL48, .nctr = 4, .ctl_bytes = 4, .ctl_writable = BASE_CTL | TID_EN,
	  .filt = cha_filt, .nfilt = N(cha_filt), .fld = cha_fld, .nfld = N(cha_fld),
	  .tid_en = TID_EN, .tid_core_lo = 3, /* tid: core id 8:3, thread 2:0 (as T2-75 of the later CHA) */
	  .src = "Linux skx_uncore_chabox: HSWEP_C0_MSR_PMON_*, HSWEP_CBO_MSR_OFFSET 0x10" },
	{ .name = "iio", .space = SIM_MSR, .nboxes = 6, .bc = &ivb_bc, .box_stride = 0x20, .box_ctl = 0xa40, .ctl0 = 0xa48,
	  .ctl_stride = 1, .ctr0 = 0xa41, .ctr_stride = 1, CTL48, .nctr = 4, .ctl_bytes = 4, .ctl_writable = BASE_CTL | 0x7fffull << 32,
	  .fr = iio_fr, .nfr = N(iio_fr),
	  .src = "Linux skx_uncore_iio: SKX_IIO0_MSR_PMON_*, SKX_IIO_MSR_OFFSET 0x20, RAW_EVENT_MASK_EXT 0x7fff" },
	{ .name = "irp", .space = SIM_MSR, .nboxes = 6, .bc = &ivb_bc, .box_stride = 0x20, .box_ctl = 0xa58, .ctl0 = 0xa5b,
	  .ctl_stride = 1, .ctr0 = 0xa59, .ctr_stride = 1, CTL48, .nctr = 2, .ctl_bytes = 4, .ctl_writable = BASE_CTL,
	  .src = "Linux skx_uncore_irp: SKX_IRP0_MSR_PMON_*, 2 counters" },
	SIM_SKX_PCU_UNIT("Linux skx_uncore_pcu: HSWEP_PCU_MSR_PMON_*"),
	{ .name = "imc", PCI_UNIT, .nboxes = 6, .bc = &ivb_bc, CTL48, .nctr = 4, .ctl_bytes = 4, .ctl_writable = BASE_CTL,
	  .fixed_ctl = 0xf0, .fixed_ctr = 0xd0, .fixed_width = 48, .fixed_en = EN, .fixed_rst = 1u << 19,
	  .ids = { 0x2042, 0x2046, 0x204a, 0x2042, 0x2046, 0x204a },
	  .src = "Linux skx_uncore_imc, skx_uncore_pci_ids (10.2, 10.6, 11.2, 12.2, 12.6, 13.2)" },
	{ .name = "m2m", .space = SIM_PCI, .nboxes = 2, .bc = &ivb_bc, .box_ctl = 0x258, .ctl0 = 0x228, .ctl_stride = 8,
	  .ctr0 = 0x200, .ctr_stride = 8, CTL48, .nctr = 4, .ctl_bytes = 8, .ctl_writable = BASE_CTL, .ids = { 0x2066, 0x2066 },
	  .src = "Linux skx_uncore_m2m: SKX_M2M_PCI_PMON_*, CTL_OFFS8; ids 8.0, 9.0" },
	{ .name = "upi", .space = SIM_PCI, .nboxes = 3, .bc = &upi_bc, .box_ctl = 0x378, .ctl0 = 0x350, .ctl_stride = 8,
	  .ctr0 = 0x318, .ctr_stride = 8, CTL48, .nctr = 4, .ctl_bytes = 8, .ctl_writable = BASE_CTL | 0xffefffull << 32,
	  .ids = { 0x2058, 0x2058, 0x2058 },
	  .src = "Linux skx_uncore_upi: SKX_UPI_PCI_PMON_*, SKX_UPI_CTL_UMASK_EXT; ids 14.0-16.0" },
	{ .name = "m2pcie", PCI_UNIT, .nboxes = 4, .bc = &ivb_bc, CTL48, .nctr = 4, .ctl_bytes = 4, .ctl_writable = BASE_CTL,
	  .ids = { 0x2088, 0x2088, 0x2088, 0x2088 }, .src = "Linux skx_uncore_m2pcie; ids 21.1, 22.1, 23.1, 21.5" },
	{ .name = "m3upi", PCI_UNIT, .nboxes = 3, .bc = &ivb_bc, CTL48, .nctr = 3, .ctl_bytes = 4, .ctl_writable = BASE_CTL,
	  .ids = { 0x204d, 0x204e, 0x204d }, .src = "Linux skx_uncore_m3upi (3 counters); ids 18.1, 18.2, 18.5" },
};
const int sim_skx_nunits = N(sim_skx_units);
/* snbep_pci2phy_map_init(0x2014, SKX_CPUNODEID 0xC0, SKX_GIDNIDMAP 0xD4, false) */
const struct sim_ubox_dev sim_skx_ubox = { 0x2014, 0xc0, 0xd4 };
/* The UBox's global control U_MSR_PMON_GLOBAL_CTL 0x700, frz_all bit 63 and unfrz_all bit 61 (commands, read
 * 0), and its overflow status U_MSR_PMON_GLOBAL_STATUS 0x701 (W1C): Intel's Skylake-SP uncore guide 336274-001
 * section 1.3.2, as code quoting it gives them (no seed holds it); likwid 5 freezes with bit 63 and resumes with
 * bit 61 (perfmon_skylake.h, MSR_UNC_V3_U_PMON_GLOBAL_CTL), PCM with bit 61 (globalFreezeUncoreCountersInternal:
 * SKX, ICX).  Linux's skx driver never writes it.  Clearing the freeze takes unfrz_all: frz_all written 0 resumes
 * nothing (as IVB-EP's 0xC00, seed 002 L18). */
const struct sim_global sim_skx_global = { 0x700, 0x701, 1, 1ull << 63, 1ull << 61 };
