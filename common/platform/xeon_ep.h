/*
 * What Sandy Bridge-EP (seed 000) and Ivy Bridge-EP (seed 002, notes snbep_ivbep.md 10) share:
 * the control-word fields each box accepts and the PCI box layout.
 */
#ifndef UNCORE_XEON_EP_H
#define UNCORE_XEON_EP_H

#include "platform.h"

#define N(a) UC_ARRAY_LEN(a)
/* Every SNB-EP box: box control Table 2-9 etc., not in a discovery table. */
#define SNB_COMMON .disc_type = -1, .bc = &box_ctl_snbep, .ctl_bytes = 4

/* Counter control fields of the generation (seed 000 Table 2-10): ev_sel 7:0, umask 15:8, rst 17,
 * edge 18, tid_en 19, ev_sel_ext 21, en 22, invert 23, thresh 31:24.  Each box keeps the fields its
 * table lists (Tables 2-2, 2-10, 2-35, 2-61, 2-75, 2-86); the layouts are in platforms/snbep/platform.c
 * and platforms/ivbep/platform.c. */
#define XEP_EV_UMASK [CR_EVENT] = { 0, 8 }, [CR_UMASK] = { 8, 8 }
#define XEP_RST [CR_RST] = { 17, 1 }
#define XEP_EDGE [CR_EDGE] = { 18, 1 }
#define XEP_TID_EN [CR_TID_EN] = { 19, 1 }
#define XEP_EV_EXT [CR_EV_EXT] = { 21, 1 }
#define XEP_EN (1ull << 22)
#define XEP_INV [CR_INV] = { 23, 1 }
#define XEP_THRESH8 [CR_THRESH] = { 24, 8 }
#define XEP_THRESH5 [CR_THRESH] = { 24, 5 } /* UBox Table 2-2, PCU Table 2-75 */
/* PCU Table 2-75: occ_sel 15:14 in place of a umask, occ_invert 30, occ_edge 31.  Bit 21 is reserved
 * in the table but the "Extra Select Bit: Y" events need it; libpfm4 and the perfmon JSON (ExtSel)
 * put it at bit 21 as on QPI, and so do we. */
#define XEP_PCU_OCC [CR_OCC_SEL] = { 14, 2 }, [CR_OCC_INV] = { 30, 1 }, [CR_OCC_EDGE] = { 31, 1 }
#define XEP_PCU_RESERVED 0x3f00ull /* umask bits 13:8 */

/* PCI boxes share one layout (Table 1-3): BOX_CTL 0xF4, CTL 0xD8 + 4k, CTR 0xA0 + 8k (lo/hi dwords). */
#define PCI_REGS .space = UC_PCI, .has_box_ctl = 1, .box_ctl = 0xf4, .ctl0 = 0xd8, .ctl_stride = 4, .ctr0 = 0xa0, \
		 .ctr_stride = 8
#define PCI_LAYOUT PCI_REGS, SNB_COMMON

/* Filter registers and fields the two generations share (xeon_ep.c): PCU frequency
 * bands (Table 2-77), HA address/opcode match (Tables 2-37..2-39), QPI packet match/mask (2.7.3.3). */
extern const struct filter_reg xep_pcu_filt[1], xep_ha_filt[3], xep_qpi_filt[4];
extern const struct filter_field xep_pcu_fields[4], xep_ha_fields[3], xep_qpi_fields[4];

#endif
