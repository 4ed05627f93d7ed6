/*
 * The discovery generation's shared control layouts and filters (xeon_disc.h).  Facts from seed 001
 * (Intel 817509-001, Emerald Rapids); Linux 6.12 uncore_snbep.c gives the same fields for SPR, EMR and
 * GNR (spr_uncore_raw_format_group, spr_uncore_chabox, spr_uncore_iio, spr_uncore_pcu).
 */
#include "xeon_disc.h"

/* Unit control, seed 001 Table 1-3 (L420): frz 0, rst_ctrl 8, rst_ctrs 9, all write-only. */
const struct box_ctl_bits box_ctl_discovery = { &bc_style_frz, .rst_ctrl = 1u << 8, .rst_ctrs = 1u << 9, .frz = 1u << 0 };

/* Counter control, Table 1-5 (L470): ev_sel 7:0, umask 15:8, rst 17, edge 18, frz_ovf 20, invert 23,
 * thresh 31:24; no enable bit (ev_sel != 0 counts, L541); umask_ext from bit 32.  frz_ovf sends an
 * overflow to the UBox, which sets the unit's Global Status Position bit and freezes (L511-521). */
#define XD_F [CR_EVENT] = { 0, 8 }, [CR_UMASK] = { 8, 8 }, [CR_RST] = { 17, 1 }, [CR_EDGE] = { 18, 1 }, \
	[CR_OV_EN] = { 20, 1 }, [CR_INV] = { 23, 1 }
const struct ctl_layout xd_lay_base = { .name = "xeon-disc", .f = { XD_F, [CR_THRESH] = { 24, 8 } } };
/* umask_ext 55:32 (Linux SPR_RAW_EVENT_MASK_EXT) */
const struct ctl_layout xd_lay_ext24 = { .name = "xeon-disc-ext24",
	.f = { XD_F, [CR_THRESH] = { 24, 8 }, [CR_UMASK_EXT] = { 32, 24 } } };
/* CHA, T2-72: tid_en 16, umask_ext 63:32 */
const struct ctl_layout xd_lay_cha = { .name = "xeon-disc-cha",
	.f = { XD_F, [CR_TID_EN] = { 16, 1 }, [CR_THRESH] = { 24, 8 }, [CR_UMASK_EXT] = { 32, 32 } } };
/* CXL: frz_ovf is in the register, but CXL CM unit 1 sends no overflow message and is not frozen
 * (L14329), so the bit is kept and not offered for sampling */
const struct ctl_layout xd_lay_cxl = { .name = "xeon-disc-cxl",
	.f = { [CR_EVENT] = { 0, 8 }, [CR_UMASK] = { 8, 8 }, [CR_RST] = { 17, 1 }, [CR_EDGE] = { 18, 1 },
	       [CR_INV] = { 23, 1 }, [CR_THRESH] = { 24, 8 }, [CR_UMASK_EXT] = { 32, 24 } }, .other = 1ull << 20 };
/* IIO, Table 2-184: thresh 35:24, ch_mask 47:36, fc_mask 50:48 (qualifier fields, xd_iio_fields).  The
 * perfmon JSON's UMaskExt of an IIO event is control bits 50:32, i.e. its ch_mask and fc_mask (bits
 * 35:32 are zero in every event), so the umask extension overlaps the threshold's top bits here. */
const struct ctl_layout xd_lay_iio = { .name = "xeon-disc-iio",
	.f = { XD_F, [CR_THRESH] = { 24, 12 }, [CR_UMASK_EXT] = { 32, 19 } } };

/* CHA FILTER0 at unit control + 0xE (T1-9; T2-75: tid 9:0 = core << 3 | thread). */
const struct filter_reg xd_cha_filt[1] = { { "Cn_MSR_PMON_BOX_FILTER0", 0xe, 0, 64 } };
const struct filter_field xd_cha_fields[1] = {
	{ "tid", 0, 0, 10, "thread id: core << 3 | thread (sets tid_en)" },
};

/* PCU filter 0x2FCE = unit control + 0xE (T2-419): four 8-bit frequency bands. */
const struct filter_reg xd_pcu_filt[1] = { { "PCU_MSR_PMON_BOX_FILTER", 0xe, 0, 64 } };
const struct filter_field xd_pcu_fields[4] = {
	{ "band0", 0, 0, 8, "frequency band 0 threshold, 100 MHz units" },
	{ "band1", 0, 8, 8, "frequency band 1 threshold, 100 MHz units" },
	{ "band2", 0, 16, 8, "frequency band 2 threshold, 100 MHz units" },
	{ "band3", 0, 24, 8, "frequency band 3 threshold, 100 MHz units" },
};

/* IIO port and flow-class masks live in the control word (T2-184). */
const struct filter_field xd_iio_fields[2] = {
	{ "ch_mask", UC_FIELD_CTL, 36, 12, "ports: bit n = PART n (0..7), bit 8/9 = IOMMU0/1" },
	{ "fc_mask", UC_FIELD_CTL, 48, 3, "flow classes: 1 posted, 2 non-posted, 4 completions" },
};
