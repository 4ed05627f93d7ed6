/*
 * The simulator's register map of the Nehalem-EP uncore PMU.  Seed 003 (Core i7 / Xeon 5500
 * Performance Analysis Guide) gives 8 counters and a fixed one but no addresses; the MSRs are the
 * Linux driver's (uncore_snb.c nhm_uncore) and libpfm4's, as collected in notes B.2.
 */
#include "sim/sim_model.h"
#include "sim/sim_only.h"

#define N(a) UC_ARRAY_LEN(a)

/* MSR_UNCORE_PERF_GLOBAL_CTRL 0x391: EN_PC0-7 bits 0-7, EN_FC0 bit 32 (Linux NHM_UNC_GLOBAL_CTL_EN_*). */
static const struct sim_boxctl nhm_bc = { .run = 0xffull | 1ull << 32, .readable = 0xffull | 1ull << 32 };
/* MSR_UNCORE_ADDR_OPCODE_MATCH 0x396 (seed Table 37: address 39:3, opcode 47:40, match select 63:61) and
 * MSR_GQ_SNOOP_MESF 0x301 (seed Table 28: 8 select bits). */
static const struct sim_filt nhm_filt[] = { { 0x396, 0, 0xe000fffffffffff8ull }, { 0x301, 0, 0xffull } };

const struct sim_unit sim_nhm_units[] = {
	{ .name = "unc", .space = SIM_MSR, .nboxes = 1, .bc = &nhm_bc, .box_ctl = 0x391, .ctl0 = 0x3c0, .ctl_stride = 1,
	  .ctr0 = 0x3b0, .ctr_stride = 1, .nctr = 8, .width = 48, .ctl_en = 1ull << 22,
	  /* PERFEVTSEL: event 7:0, umask 15:8, edge 18, PMI 20, EN 22, INV 23, cmask 31:24 (libpfm unc_perfevtsel) */
	  .ctl_writable = 0xffffull | 1ull << 18 | 1ull << 20 | 1ull << 22 | 1ull << 23 | 0xff000000ull,
	  .ov_en = 1ull << 20, .status = 0x392, .status_clr = 0x393, /* GLOBAL_STATUS OV_PC0-7, OVF_CTRL W1C */
	  .fixed_ctl = 0x395, .fixed_ctr = 0x394, .fixed_width = 48, .fixed_en = 1,
	  .filt = nhm_filt, .nfilt = N(nhm_filt),
	  .src = "Linux NHM_UNC_* (PMC 0x3B0, PERFEVTSEL 0x3C0, fixed 0x394/0x395, 48 bits); nvmemu 0x392/0x393" },
};
const int sim_nhm_nunits = N(sim_nhm_units);
