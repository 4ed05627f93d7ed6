/*
 * The simulator's register map of Ice Lake-SP, written from the Linux 6.12 driver's constants
 * (arch/x86/events/intel/uncore_snbep.c: ICX_* and SNR_* defines, icx_uncore_* types, icx_cha_msr_offsets,
 * icx_msr_offsets, icx_iio_freerunning, icx_imc_freerunning, icx_uncore_pci_ids) and never from
 * platforms/icx/platform.c.  The UBox and PCU are Skylake-SP's registers (skx_uncore_ubox, skx_uncore_pcu).
 */
#include "sim/map_xeon_ep.h"
#include "sim/sim_only.h"
#include "../skx/sim_skx.h"
#include "sim_icx.h"

#define CTL48 .width = 48, .ctl_en = EN, .ctl_rst = RST
#define BASE_CTL (EV_UMASK | RST | EDGE | EN | INV | THRESH8) /* SNBEP_PMON_RAW_EVENT_MASK and rst, en */

static const uint32_t cha_offs[SIM_ICX_MAX_CHA] = {
	0x2a0, 0x2ae, 0x2bc, 0x2ca, 0x2d8, 0x2e6, 0x2f4, 0x302, 0x310, 0x31e, 0x32c, 0x33a, 0x348, 0x356,
	0x364, 0x372, 0x380, 0x38e, 0x3aa, 0x3b8, 0x3c6, 0x3d4, 0x3e2, 0x3f0, 0x3fe, 0x40c, 0x41a, 0x428,
	0x436, 0x444, 0x452, 0x460, 0x46e, 0x47c, 0x0,   0xe,   0x1c,  0x2a,  0x38,  0x46,
};
static const uint32_t stack_offs[SIM_ICX_STACKS] = { 0x0, 0x20, 0x40, 0x90, 0xb0, 0xd0 };
/* icx_iio_bw_freerunning_box_offsets */
static const uint32_t bw_offs[SIM_ICX_STACKS] = { 0x0, 0x10, 0x20, 0x90, 0xa0, 0xb0 };

/* CHA FILTER0 ICX_C34_MSR_PMON_BOX_FILTER0 0xB65: tid 8:0 (SKX_CHA_MSR_PMON_BOX_FILTER_TID) */
static const struct sim_filt cha_filt[] = { { 0xb65, 0, 0x1ffull } };
static const struct sim_fld cha_fld[] = { { "tid", 0, 0, 9 } }; /* core id 8:3, thread 2:0 */

/* icx_iio_freerunning: IOCLK 0xA55 at icx_iio_clk_freerunning_box_offsets (= icx_msr_offsets), BW_IN 0xAA0 +
 * port at icx_iio_bw_freerunning_box_offsets; 48 bits */
#define BW(p) { "bw_in_port" #p, 0xaa0 + (p), 48, 0, bw_offs }
static const struct sim_fr iio_fr[] = {
	{ "ioclk", 0xa55, 48, 0, stack_offs },
	BW(0), BW(1), BW(2), BW(3), BW(4), BW(5), BW(6), BW(7),
};
/* icx_imc_freerunning, at the controller's MMIO base: DDR read/write 0x2290 + 8 k, DDRT 0x22A0 + 8 k, DCLK 0x22B0 */
static const struct sim_fr imc_fr[] = {
	{ "read", 0x2290, 48, 0, NULL }, { "write", 0x2298, 48, 0, NULL }, { "ddrt_read", 0x22a0, 48, 0, NULL },
	{ "ddrt_write", 0x22a8, 48, 0, NULL }, { "dclk", 0x22b0, 48, 0, NULL },
};

const struct sim_unit sim_icx_units[] = {
	SIM_SKX_UBOX_UNIT("Linux skx_uncore_ubox (icx_msr_uncores[0]): HSWEP_U_MSR_PMON_CTL0/CTR0, UCLK_FIXED_CTL/CTR"),
	{ .name = "cha", .space = SIM_MSR, .nboxes = SIM_ICX_MAX_CHA, .box_offs = cha_offs, .bc = &ivb_bc, .box_ctl = 0xb60,
	  .ctl0 = 0xb61, .ctl_stride = 1, .ctr0 = 0xb68, .ctr_stride = 1, CTL48, .nctr = 4, .ctl_bytes = 4,
	  .ctl_writable = BASE_CTL | TID_EN | 0x3ffffffull << 32, .filt = cha_filt, .nfilt = N(cha_filt),
	  .fld = cha_fld, .nfld = N(cha_fld), .tid_en = TID_EN, .tid_core_lo = 3,
	  .src = "Linux icx_uncore_chabox: ICX_C34_MSR_PMON_*, icx_cha_msr_offsets, SNR_CHA_RAW_EVENT_MASK_EXT" },
	{ .name = "iio", .space = SIM_MSR, .nboxes = SIM_ICX_STACKS, .box_offs = stack_offs, .bc = &ivb_bc,
	  .box_ctl = 0xa50, .ctl0 = 0xa58, .ctl_stride = 1, .ctr0 = 0xa51, .ctr_stride = 1, CTL48, .nctr = 4, .ctl_bytes = 4,
	  .ctl_writable = BASE_CTL | 0x7ffffull << 32, .fr = iio_fr, .nfr = N(iio_fr),
	  .src = "Linux icx_uncore_iio: ICX_IIO_MSR_PMON_*, icx_msr_offsets, SNR_IIO_PMON_RAW_EVENT_MASK_EXT; icx_iio_freerunning" },
	{ .name = "irp", .space = SIM_MSR, .nboxes = SIM_ICX_STACKS, .box_offs = stack_offs, .bc = &ivb_bc,
	  .box_ctl = 0xa4a, .ctl0 = 0xa4d, .ctl_stride = 1, .ctr0 = 0xa4b, .ctr_stride = 1, CTL48, .nctr = 2, .ctl_bytes = 4,
	  .ctl_writable = BASE_CTL,
	  .src = "Linux icx_uncore_irp: ICX_IRP0_MSR_PMON_*, icx_msr_offsets, 2 counters" },
	{ .name = "m2pcie", .space = SIM_MSR, .nboxes = SIM_ICX_STACKS, .box_offs = stack_offs, .bc = &ivb_bc,
	  .box_ctl = 0xa40, .ctl0 = 0xa46, .ctl_stride = 1, .ctr0 = 0xa41, .ctr_stride = 1, CTL48, .nctr = 4, .ctl_bytes = 4,
	  .ctl_writable = BASE_CTL,
	  .src = "Linux icx_uncore_m2pcie: ICX_M2PCIE_MSR_PMON_*, icx_msr_offsets" },
	SIM_SKX_PCU_UNIT("Linux skx_uncore_pcu (icx_msr_uncores[5]): HSWEP_PCU_MSR_PMON_*"),
	{ .name = "m2m", .space = SIM_PCI, .nboxes = 4, .bc = &ivb_bc, .box_ctl = 0x438, .ctl0 = 0x468, .ctl_stride = 8,
	  .ctr0 = 0x440, .ctr_stride = 8, CTL48, .nctr = 4, .ctl_bytes = 8, .ctl_writable = BASE_CTL | 0xffull << 32,
	  .ids = { 0x344a, 0x344a, 0x344a, 0x344a },
	  .src = "Linux icx_uncore_m2m: SNR_M2M_PCI_PMON_*, CTL_OFFS8, SNR_M2M_PCI_PMON_UMASK_EXT; ids 12.0-15.0" },
	{ .name = "upi", .space = SIM_PCI, .nboxes = 3, .bc = &upi_bc, .box_ctl = 0x318, .ctl0 = 0x350, .ctl_stride = 8,
	  .ctr0 = 0x320, .ctr_stride = 8, CTL48, .nctr = 4, .ctl_bytes = 8, .ctl_writable = BASE_CTL | 0xffffffull << 32,
	  .ids = { 0x3441, 0x3441, 0x3441 },
	  .src = "Linux icx_uncore_upi: ICX_UPI_PCI_PMON_*, CTL_OFFS8, ICX_UPI_CTL_UMASK_EXT; ids 2.1-4.1" },
	{ .name = "m3upi", .space = SIM_PCI, .nboxes = 3, .bc = &ivb_bc, .box_ctl = 0xa0, .ctl0 = 0xd8, .ctl_stride = 4,
	  .ctr0 = 0xa8, .ctr_stride = 8, CTL48, .nctr = 4, .ctl_bytes = 4, .ctl_writable = BASE_CTL,
	  .ids = { 0x3446, 0x3446, 0x3446 }, .src = "Linux icx_uncore_m3upi: ICX_M3UPI_PCI_PMON_*; ids 5.1-7.1" },
	/* in the channel's MMIO window (the builder places it from the 0x3451 config registers) */
	{ .name = "imc", .space = SIM_MMIO, .nboxes = 12, .bc = &ivb_bc, .box_ctl = 0, .ctl0 = 0x40, .ctl_stride = 4,
	  .ctr0 = 0x08, .ctr_stride = 8, CTL48, .nctr = 4, .ctl_bytes = 4, .ctl_writable = BASE_CTL,
	  .fixed_ctl = 0x54, .fixed_ctr = 0x38, .fixed_width = 48, .fixed_en = EN, .fixed_rst = 1u << 19,
	  .fr = imc_fr, .nfr = N(imc_fr),
	  .src = "Linux icx_uncore_imc: SNR_IMC_MMIO_PMON_* (box 0x22800 + 0x4000 ch), fixed CTL 0x54 / CTR 0x38; icx_imc_freerunning" },
};
const int sim_icx_nunits = N(sim_icx_units);
/* icx_uncore_pci_init: snbep_pci2phy_map_init(0x3450, SKX_CPUNODEID 0xC0, SKX_GIDNIDMAP 0xD4, true) */
const struct sim_ubox_dev sim_icx_ubox = { 0x3450, 0xc0, 0xd4 };
/* The UBox's global control 0x700 as Skylake-SP's (frz_all 63, unfrz_all 61: likwid perfmon_icelake.h
 * MSR_UNC_ICX_U_PMON_GLOBAL_CTRL; PCM globalFreezeUncoreCountersInternal, SKX and ICX alike), its overflow
 * status in two MSRs 0x70E-0x70F (likwid registers.h MSR_UNC_ICX_U_PMON_GLOBAL_STATUS1/2) [likwid only: no Intel
 * guide for Ice Lake-SP was read].  Linux's icx driver never writes them. */
const struct sim_global sim_icx_global = { 0x700, 0x70e, 2, 1ull << 63, 1ull << 61 };
