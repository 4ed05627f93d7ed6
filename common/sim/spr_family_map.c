/*
 * The simulator's register map of Emerald Rapids (seed 001, Intel 817509-001): what a unit's
 * registers are, relative to its unit control (MSR and MMIO units: the simulator's builder places
 * each unit and publishes the address in its discovery table) or as PCI config offsets (Table 1-12).
 */
#include <stddef.h>
#include "sim/sim_disc_map.h"
#include "sim/sim_only.h"

#define N(a) UC_ARRAY_LEN(a)

/* PCI units, Table 1-12: 64-bit controls and counters 8 bytes apart. */
#define PCI_UNIT .space = SIM_PCI, .ctl_stride = 8, .ctr_stride = 8, .ctl_bytes = 8, .nctr = 4

/* CHA FILTER0 at +0xE (T1-9; T2-75: tid 9:0). */
static const struct sim_filt cha_filt[] = { { 0xe, 0, 0x3ffull } };
/* PCU_MSR_PMON_BOX_FILTER 0x2FCE = +0xE (T2-419): bands 31:0. */
static const struct sim_filt pcu_filt[] = { { 0xe, 0, 0xffffffffull } };
/* M2M ADDRMATCH0/1, ADDRMASK0/1, OPCODE_MM at 0x490..0x4A0 (T1-12 extras, T2-231..T2-234). */
static const struct sim_filt m2m_filt[] = { { 0x490, 0, 0xffffffffull }, { 0x494, 0, 0x7fffull },
					   { 0x498, 0, 0xffffffffull }, { 0x49c, 0, 0x7fffull },
					   { 0x4a0, 0, 0x0fffffffull } };
/* IIO free-running counters, T1-10/T1-11 (per stack n at base 0x10 n): IOCLK 0x340E, BW In port p
 * 0x3800 + p, BW Out 0x3808 + p; 48 bits (T2-185..T2-187). */
static const struct sim_fr iio_fr[] = {
	{ "ioclk", 0x340e, 48, 0, NULL },
	{ "bw_in_port0", 0x3800, 48, 0, NULL }, { "bw_in_port1", 0x3801, 48, 0, NULL }, { "bw_in_port2", 0x3802, 48, 0, NULL },
	{ "bw_in_port3", 0x3803, 48, 0, NULL }, { "bw_in_port4", 0x3804, 48, 0, NULL }, { "bw_in_port5", 0x3805, 48, 0, NULL },
	{ "bw_in_port6", 0x3806, 48, 0, NULL }, { "bw_in_port7", 0x3807, 48, 0, NULL },
	{ "bw_out_port0", 0x3808, 48, 0, NULL }, { "bw_out_port1", 0x3809, 48, 0, NULL }, { "bw_out_port2", 0x380a, 48, 0, NULL },
	{ "bw_out_port3", 0x380b, 48, 0, NULL }, { "bw_out_port4", 0x380c, 48, 0, NULL }, { "bw_out_port5", 0x380d, 48, 0, NULL },
	{ "bw_out_port6", 0x380e, 48, 0, NULL }, { "bw_out_port7", 0x380f, 48, 0, NULL },
};
/* IMC free-running counters at the MEMn base (section 1.10.3, T2-131..T2-133). */
static const struct sim_fr imc_fr[] = { { "dclk", 0x22b0, 48, 0, NULL }, { "rpq_cycles", 0x2318, 48, 0, NULL }, { "wpq_cycles", 0x2320, 48, 0, NULL } };

const struct sim_unit sim_spr_units[] = {
	{ .name = "cha", CHA_UNIT,
	  .filt = cha_filt, .nfilt = N(cha_filt), .src = "T1-9 CHA rows; T2-72 tid_en 16, umask_ext 63:32" },
	{ .name = "iio", IIO_UNIT, .fr = iio_fr, .nfr = N(iio_fr),
	  .src = "T1-9 IIO rows; T2-184 thresh 35:24, ch_mask 47:36, fc_mask 50:48; T1-10/T1-11" },
	{ .name = "irp", MSR_UNIT(2), CTL(BASE | EXT24), .disc_type = 2, .src = "T1-9 IRP rows: 2 counters" },
	{ .name = "m2pcie", MSR_UNIT(4), CTL(BASE | EXT24), .disc_type = 3, .src = "T1-9 M2PCIe rows" },
	{ .name = "pcu", MSR_UNIT(4), CTL(BASE), .disc_type = 4, .filt = pcu_filt, .nfilt = N(pcu_filt),
	  .src = "T1-9 PCU row 0x2FC0; filter T2-419" },
	/* the UCLK fixed counter is one of the global registers (T1-8, beside the global control), not the UBox
	 * unit's (T1-9): the unit's freeze leaves it counting, a global freeze stops it.  PCM 202302 freezes the
	 * UBox unit for good (0x2FD0 = 0x101) and reads its uncore clock there. */
	{ .name = "ubox", MSR_UNIT(2), CTL(BASE | EXT24), .disc_type = 5, .fixed_ctl = 0xe, .fixed_ctr = 0xf,
	  .fixed_width = 48, .fixed_en = 1u << 22, .fixed_global = 1,
	  .src = "T1-8 UCLK fixed 0x2FDE/0x2FDF; PCM UBox PMON 0x2FD0, UCLK_FIXED_CTL_EN bit 22" },
	{ .name = "imc", .space = SIM_MMIO, .ctl0 = 0x40, .ctl_stride = 4, .ctr0 = 0x08, .ctr_stride = 8, .status = 0x5c,
	  .nctr = 4, .ctl_bytes = 4, CTL(BASE), .disc_type = 6, .fixed_ctl = 0x54, .fixed_ctr = 0x38, .fixed_width = 48,
	  .fixed_en = 1u << 22, .fixed_rst = 1u << 19, .fr = imc_fr, .nfr = N(imc_fr),
	  .src = "T1-12 / notes 3.5 (channel 0x22800 + 0x8000 ch); fixed T2-129 (ctl +0x54, ctr +0x38 Linux SNR_IMC_*)" },
	{ .name = "m2m", PCI_UNIT, .box_ctl = 0x438, .ctl0 = 0x468, .ctr0 = 0x440, .status = 0x4a8, CTL(BASE | EXT24),
	  .disc_type = 7, .filt = m2m_filt, .nfilt = N(m2m_filt), .ids = { 0x324a, 0x324a, 0x324a, 0x324a },
	  .src = "T1-12 M2M row, DID 0x324A; T2-231..T2-234" },
	{ .name = "upi", PCI_UNIT, .box_ctl = 0x318, .ctl0 = 0x350, .ctr0 = 0x320, .status = 0x38c, CTL(BASE | EXT24),
	  .disc_type = 8, .ids = { 0x3241, 0x3241, 0x3241, 0x3241 }, .src = "T1-12 UPI LL row, DID 0x3241" },
	{ .name = "m3upi", PCI_UNIT, .box_ctl = 0xa0, .ctl0 = 0xd8, .ctr0 = 0xa8, .status = 0xf8, CTL(BASE | EXT24),
	  .disc_type = 9, .ids = { 0x3246, 0x3246, 0x3246, 0x3246 }, .src = "T1-12 M3UPI row, DID 0x3246" },
	{ .name = "mdf", MSR_UNIT(4), CTL(BASE | EXT24), .disc_type = 11, .src = "T1-9 MDF rows (no Extra)" },
	/* CXL: MMIO through discovery only (L14319-14329), an 8-byte register step as PCM uses; CM unit 1
	 * sends no overflow to the UBox (L14329). */
	{ .name = "cxlcm", .space = SIM_MMIO, .ctl0 = 0x08, .ctl_stride = 8, .ctr0 = 0x48, .ctr_stride = 8, .status = 0x88,
	  .nctr = 8, .ctl_bytes = 8, CTL_NOOV(BASE | EXT24), .disc_type = 12, .src = "L14319-14329; PCM" },
	{ .name = "cxldp", .space = SIM_MMIO, .ctl0 = 0x08, .ctl_stride = 8, .ctr0 = 0x28, .ctr_stride = 8, .status = 0x48,
	  .nctr = 4, .ctl_bytes = 8, CTL_NOOV(BASE | EXT24), .disc_type = 13, .src = "L14319-14329; PCM" },
	/* HBM channel (Xeon Max, sim:spr,hbm=...): discovery type 14 (Linux spr_uncores[14] hbm), MMIO with the
	 * iMC channel's offsets, which the table gives (likwid treats type 14 as the iMC; Linux's generic MMIO
	 * ops: controls 4 bytes apart, counters 8); placed at PCM's HBM map (SCF BAR + 0x141C00 + 0x9000 box
	 * + 0x4000 channel, src/types.h) */
	{ .name = "hbm", .space = SIM_MMIO, .ctl0 = 0x40, .ctl_stride = 4, .ctr0 = 0x08, .ctr_stride = 8, .status = 0x5c,
	  .nctr = 4, .ctl_bytes = 4, CTL(BASE | EXT24), .disc_type = 14,
	  .src = "Linux spr_uncores[14]; generic MMIO ops (uncore_discovery.c); PCM HBM map" },
};
const int sim_spr_nunits = N(sim_spr_units);
const struct sim_ubox_dev sim_spr_ubox = { 0x3250, 0xc0, 0xd4 }; /* Linux SPR: snbep_pci2phy_map_init(0x3250, ...) */
/* U_MSR_PMON_GLOBAL_CTL 0x2FF0 (frz_all bit 0, no unfreeze: clear frz_all, L1291), STATUS 0x2FF2-0x2FF3 (T1-8) */
const struct sim_global sim_spr_global = { 0x2ff0, 0x2ff2, 2, 1ull << 0, 0 };

/* sim:generic: a unit of a type no table names (21), laid out as the MSR units above. */
const struct sim_unit sim_generic_type21 = { .name = "type21", MSR_UNIT(4), CTL_NOOV(~0ull), .disc_type = 21,
					     .src = "invented: a unit type the library does not know" };
