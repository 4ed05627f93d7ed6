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

/* The SNB-EP control layouts (seed 000 Tables 2-2, 2-10, 2-35, 2-61, 2-75, 2-86; R2PCIe/R3QPI as the
 * others with a reset bit), which Haswell-EP keeps: Linux 6.12 uncore_snbep.c gives hswep_uncore_* the
 * SNBEP_*_RAW_EVENT_MASKs (invert bit 23 included) and SNB-EP's control bits (xeon_ep.c). */
extern const struct ctl_layout xep_lay_ubox, xep_lay_cbo, xep_lay_pcu, xep_lay_ha_imc, xep_lay_qpi, xep_lay_rst;

/* Filter registers and fields the two generations share (xeon_ep.c): PCU frequency
 * bands (Table 2-77), HA address/opcode match (Tables 2-37..2-39), QPI packet match/mask (2.7.3.3). */
extern const struct filter_reg xep_pcu_filt[1], xep_ha_filt[3], xep_qpi_filt[4];
extern const struct filter_field xep_pcu_fields[4], xep_ha_fields[3], xep_qpi_fields[4];

/* perf's spellings both generations share (Linux 6.12 uncore_snbep.c).  The driver's IMC aliases
 * (snbep_uncore_imc_events; ivbep_uncore_imc uses the same list): a CAS moves 64 bytes, 64 / 2^20 MiB. */
#define XEP_IMC_CAS_ALIASES                                                                                    \
	{ "imc", "cas_count_read", "event=0x04,umask=0x03", 6.103515625e-5, "MiB" },                          \
	{ "imc", "cas_count_write", "event=0x04,umask=0x0c", 6.103515625e-5, "MiB" }
#define XEP_IMC_ALIASES { "imc", "clockticks", "event=0xff,umask=0x00", 0, NULL }, XEP_IMC_CAS_ALIASES
/* Format names that are not ours: PCU occ_sel config:14-15 is the top of our umask byte, occ_invert
 * config:30 and occ_edge (bit 31) our occ_inv and occ_edge (snbep/ivbep_uncore_pcu_formats_attr); QPI
 * match_* and mask_* (config1 = PKT_MATCH1:0, config2 = PKT_MASK1:0, format attrs match_rds .. mask1)
 * are bits of our match0/match1/mask0/mask1; the CBo's tid_en comes with filter_tid (our tid sets it). */
#define XEP_QPI_TERMS(w)                                                                                       \
	{ "qpi", #w "_rds", #w "1", 16, 4 }, { "qpi", #w "_rnid30", #w "1", 0, 4 },                            \
	{ "qpi", #w "_rnid4", #w "0", 31, 1 }, { "qpi", #w "_dnid", #w "0", 13, 5 },                           \
	{ "qpi", #w "_mc", #w "0", 9, 4 }, { "qpi", #w "_opc", #w "0", 5, 4 }, { "qpi", #w "_vnw", #w "0", 3, 2 }
#define XEP_PERF_TERMS                                                                                         \
	{ "pcu", "occ_sel", "umask", 6, 2 }, { "pcu", "occ_invert", "occ_inv", 0, 0 },                         \
	{ "cbo", "tid_en", NULL, 0, 0 }, XEP_QPI_TERMS(match), XEP_QPI_TERMS(mask)

#endif
