/*
 * What Sandy Bridge-EP (seed 000) and Ivy Bridge-EP (seed 002, notes snbep_ivbep.md 10) share:
 * the control-word fields each box accepts and the PCI box layout.
 */
#ifndef UNCORE_PLATFORM_XEON_EP_H
#define UNCORE_PLATFORM_XEON_EP_H

#include "platform.h"

#define N(a) ((int)(sizeof(a) / sizeof((a)[0])))
/* Every SNB-EP box: box control Table 2-9 etc., enable bit 22, not in a discovery table. */
#define SNB_COMMON .disc_type = -1, .bc = &box_ctl_snbep, .ctl_en = CTL_EN, .ctl_bytes = 4

/* Control-word bits accepted per box (seed 000 Tables 2-2, 2-10, 2-35, 2-61, 2-75, 2-86). */
#define VALID_BASE   (0xffull | 0xff00ull | CTL_EDGE | CTL_EN | CTL_INVERT | 0xff000000ull)
#define VALID_HA_IMC VALID_BASE                              /* no rst: 17:16 reserved */
#define VALID_RST    (VALID_BASE | CTL_RST)                  /* R2PCIe, R3QPI */
#define VALID_CBO    (VALID_BASE | CTL_RST | CTL_TID_EN)     /* Table 2-10 */
#define VALID_QPI    (VALID_BASE | CTL_RST | CTL_EV_SEL_EXT) /* Table 2-86 bit 21 */
#define VALID_UBOX   (0xffull | 0xff00ull | CTL_RST | CTL_EDGE | CTL_EN | CTL_INVERT | 0x1f000000ull) /* 5-bit thresh */
/* PCU Table 2-75: occ_sel 15:14, thresh 28:24, occ_invert 30, occ_edge 31.  Bit 21 is
 * reserved in the table but the "Extra Select Bit: Y" events need it; libpfm4 and the
 * perfmon JSON (ExtSel) put it at bit 21 as on QPI, and so do we. */
#define VALID_PCU    (0xffull | 0xc000ull | CTL_RST | CTL_EDGE | CTL_EV_SEL_EXT | CTL_EN | CTL_INVERT | \
		      0x1f000000ull | CTL_OCC_INVERT | CTL_OCC_EDGE)

/* PCI boxes share one layout (Table 1-3): BOX_CTL 0xF4, CTL 0xD8 + 4k, CTR 0xA0 + 8k (lo/hi dwords). */
#define PCI_REGS .space = UC_PCI, .has_box_ctl = 1, .box_ctl = 0xf4, .ctl0 = 0xd8, .ctl_stride = 4, .ctr0 = 0xa0, \
		 .ctr_stride = 8
#define PCI_LAYOUT PCI_REGS, SNB_COMMON

/* Filter registers and fields the two generations share (defined in platform_snbep.c): PCU frequency
 * bands (Table 2-77), HA address/opcode match (Tables 2-37..2-39), QPI packet match/mask (2.7.3.3). */
extern const struct filter_reg xep_pcu_filt[1], xep_ha_filt[3], xep_qpi_filt[4];
extern const struct filter_field xep_pcu_fields[4], xep_ha_fields[3], xep_qpi_fields[4];

#endif
