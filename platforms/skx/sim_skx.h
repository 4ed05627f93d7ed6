/*
 * The simulated Skylake-SP machine that sim:clx reuses (the same Linux driver and registers for every
 * stepping of model 0x55): its builder, register map and PMU types.  A kind sets its CPUID and cores.
 */
#ifndef UNCORE_SIM_SKX_H
#define UNCORE_SIM_SKX_H

#include "sim/sim.h"
#include "sim/sim_perf.h"

#define SIM_SKX_MAX_CHA 28 /* CAPID6 bits 27:0 (SKX_CHA_BIT_MASK) */

SIM_MAP_DECL(skx);
SIM_PERF_DECL(skx);
extern const struct sim_ubox_dev sim_skx_ubox;
extern const struct sim_global sim_skx_global; /* sim_map.c: U_MSR_PMON_GLOBAL_CTL 0x700 */
/* The UBox and PCU units, which Ice Lake-SP keeps (icx_msr_uncores: skx_uncore_ubox, skx_uncore_pcu): HSWEP_U_MSR_PMON_*
 * and HSWEP_PCU_MSR_PMON_* with the band filter HSWEP_PCU_MSR_PMON_BOX_FILTER 0x715.  For map files that include
 * sim/map_xeon_ep.h and define CTL48 (the counter width and the enable and reset bits). */
extern const struct sim_filt sim_skx_pcu_filt[1];
#define SIM_SKX_UBOX_UNIT(source)                                                                          \
	{ .name = "ubox", .space = SIM_MSR, .nboxes = 1, .ctl0 = 0x705, .ctl_stride = 1, .ctr0 = 0x709, .ctr_stride = 1, \
	  .nctr = 2, CTL48, .ctl_bytes = 4, .ctl_writable = EV_UMASK | RST | EDGE | EN | INV | THRESH5,            \
	  .fixed_ctl = 0x703, .fixed_ctr = 0x704, .fixed_width = 48, .fixed_en = EN, .src = source }
#define SIM_SKX_PCU_UNIT(source)                                                                           \
	{ .name = "pcu", .space = SIM_MSR, .nboxes = 1, .bc = &ivb_bc, .box_ctl = 0x710, .ctl0 = 0x711, .ctl_stride = 1, \
	  .ctr0 = 0x717, .ctr_stride = 1, CTL48, .nctr = 4, .ctl_bytes = 4,                                      \
	  .ctl_writable = 0xffull | 0xc000ull | RST | EDGE | EN | INV | THRESH5 | 1ull << 30 | 1ull << 31,         \
	  .filt = sim_skx_pcu_filt, .nfilt = 1, .src = source }
int sim_skx_build(struct sim *s);

/* The UBox and PCU PMUs, which Ice Lake-SP keeps (icx_msr_uncores: skx_uncore_ubox, skx_uncore_pcu):
 * ivbep_uncore_ubox_formats_attr with SNBEP_U_MSR_PMON_RAW_EVENT_MASK; skx_uncore_pcu_formats_attr with
 * SNBEP_PCU_MSR_PMON_RAW_EVENT_MASK (occ_sel 15:14, thresh 28:24, occ_invert 30, occ_edge_det 31), its band
 * filter and hswep_pcu_hw_config's band mask. */
extern const char *const sim_skx_ubox_fmt[], *const sim_skx_pcu_fmt[];
#define SIM_SKX_PERF_UBOX                                                                                  \
	{ .name = "ubox", .unit = "ubox", .disc_type = -1, .formats = sim_skx_ubox_fmt, .fixed = 1,       \
	  .raw_mask = 0xffffull | 1ull << 18 | 1ull << 23 | 0x1full << 24 }
#define SIM_SKX_PERF_PCU                                                                                   \
	{ .name = "pcu", .unit = "pcu", .disc_type = -1, .formats = sim_skx_pcu_fmt, .filt_word = { 1 },  \
	  .raw_mask = 0xffull | 0xc000ull | 1ull << 18 | 1ull << 23 | 0x1full << 24 | 1ull << 30 | 1ull << 31, \
	  .extra = sk_pcu_band_extra, .xfld = SK_PCU_BAND_FIELDS, .bands = 1, .band_bug = 1 }

/* A kind on SKX's machine: name, cores per socket, CPUID stepping. */
extern const struct sim_root_fn sim_skx_root_fns[]; /* board.c */
extern const struct sim_iio_regs sim_skx_iio_regs; /* board.c */
extern const struct sim_mem_board sim_skx_mem; /* sim_memory.c */
#define SIM_SKX_KIND(n, c, st)                                                                             \
	{ .name = n, .cores = (c), .max_cores = SIM_SKX_MAX_CHA /* Platinum 8180, 8280 */, .family = 6, .model = 0x55, .stepping = (st), .build = sim_skx_build,      \
	  .units = sim_skx_units, .nunits = &sim_skx_nunits, .ubox = &sim_skx_ubox, .perf = sim_skx_perf,     \
	  .glob = &sim_skx_global,                                                                           \
	  .nperf = &sim_skx_nperf, .root_fns = sim_skx_root_fns, .iio_regs = &sim_skx_iio_regs, \
	  .ufreq_mode = SIM_UFREQ_LEGACY, .ufreq_min_ratio = 12 /* 1.2-2.4 GHz: sim_ufreq.c */,                     \
	  .mem = &sim_skx_mem }

#endif
