/*
 * The register-map vocabulary of the discovery generation's simulated units (spr_family_map.c,
 * platforms/gnr/sim_map.c; included by map files only): unit control, seed 001 Table 1-3 (Linux
 * GENERIC_PMON_BOX_CTL_*): frz 0, rst_ctrl 8, rst_ctrs 9, all write-only (read 0); counter control,
 * Table 1-5: ev_sel 7:0, umask 15:8, rst 17, edge 18, frz_ovf 20, invert 23, thresh 31:24, no enable
 * bit (an ev_sel != 0 counts, L541); MSR units, Table 1-9: UnitStatus +1, Ctrl0.. +2, Ctr0.. +8.
 */
#ifndef UNCORE_SIM_DISC_MAP_H
#define UNCORE_SIM_DISC_MAP_H

#include "sim/sim_model.h"

extern const struct sim_boxctl sim_disc_bc;
extern const struct sim_fld sim_disc_cha_fld[1]; /* FILTER0 tid 9:0 (seed 001 T2-75) */

#define OV (1ull << 20)
#define RST (1ull << 17)
#define BASE (0xffffull | RST | (1ull << 18) | OV | (1ull << 23) | 0xff000000ull)
#define EXT24 0x00ffffff00000000ull /* umask_ext 55:32, Linux SPR_RAW_EVENT_MASK_EXT */
#define CTL_NOOV(w) .ctl_writable = (w), .ctl_rst = RST, .width = 48, .bc = &sim_disc_bc
#define CTL(w) CTL_NOOV(w), .ov_en = OV
#define MSR_UNIT(n) .space = SIM_MSR, .status = 1, .ctl0 = 2, .ctl_stride = 1, .ctr0 = 8, .ctr_stride = 1, .nctr = (n)
/* CHA: tid_en 16, umask_ext 63:32 (T2-72; Linux spr_uncore_chabox); IIO: thresh 35:24, ch_mask 47:36,
 * fc_mask 50:48 (T2-184; Linux spr_uncore_iio) -- alike on every discovery platform. */
/* tid_en bit 16 (seed 001 T2-72) applies FILTER0's tid: core id 9:3, thread 2:0 (T2-75) */
#define CHA_UNIT MSR_UNIT(4), CTL(BASE | (1ull << 16) | 0xffffffff00000000ull), .disc_type = 0, .tid_en = 1ull << 16, \
		 .tid_core_lo = 3, .fld = sim_disc_cha_fld, .nfld = 1
#define IIO_UNIT MSR_UNIT(4), CTL(0xffffull | RST | (1ull << 18) | OV | (1ull << 23) | 0x7ffffff000000ull), .disc_type = 1

#endif
