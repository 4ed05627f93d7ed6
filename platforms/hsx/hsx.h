/*
 * Haswell-EP's box types, which Broadwell-EP keeps (Linux 6.12 uncore_snbep.c: the bdx_uncore_* types use the
 * HSWEP_* registers): each a macro over what the two differ in (PCI ids, widths, the CBo count).  The
 * filter registers and fields are platforms/hsx/platform.c's.
 */
#ifndef UNCORE_PLATFORM_HSX_H
#define UNCORE_PLATFORM_HSX_H

#include "platform/xeon_ep.h"

/* UBox filter 0x707 (tid, core), CBo FILTER0/FILTER1 0xE05/0xE06 and fields, PCU filter 0x715 */
extern const struct filter_reg hsx_ubox_filt[1], hsx_cbo_filt[2], hsx_pcu_filt[1];
extern const struct filter_field hsx_ubox_fields[2], hsx_cbo_fields[8];

/* Every box with a box control takes SNB-EP's: init rst_ctrl | rst_ctrs | frz_en (0x10003,
 * SNBEP_PMON_BOX_CTL_INT, written by snbep_uncore_msr/pci_init_box to every box, HA and iMC included),
 * freeze by frz bit 8. */
#define HSX_COMMON .disc_type = -1, .bc = &box_ctl_snbep, .ctl_bytes = 4
#define HSX_PCI PCI_REGS, HSX_COMMON

/* UBox: no box control; CTL0 0x705, CTR0 0x709, fixed UCLK 0x703/0x704 (HSWEP_U_MSR_PMON_*), w bits */
#define HSX_UBOX(w)                                                                                            \
	{ .name = "ubox", .perf = "ubox", .desc = "system configuration controller (UBox)", .prefix = "UNC_U",    \
	  .perfmon = "UBOX", .space = UC_MSR, HSX_COMMON, .max_boxes = 1, .nctr = 2, .width = w, .has_box_ctl = 0, \
	  .ctl0 = 0x705, .ctl_stride = 1, .ctr0 = 0x709, .ctr_stride = 1, .lay = &xep_lay_ubox, .has_fixed = 1,   \
	  .fixed_ctl = 0x703, .fixed_ctr = 0x704, .fixed_width = 48, .fixed_en = 1u << 22, .filt_regs = hsx_ubox_filt, \
	  .nfilt_regs = 1, .fields = hsx_ubox_fields, .nfields = 2 }

/* CBo n: BOX_CTL 0xE00 + 0x10 n, CTL0 +1, CTR0 +8 (HSWEP_C0_MSR_PMON_*, HSWEP_CBO_MSR_OFFSET), 48 bits; up to
 * n boxes, capped by the cores per package */
#define HSX_CBO(n)                                                                                             \
	{ .name = "cbo", .perf = "cbox", .desc = "LLC slice caching agent (CBo)", .prefix = "UNC_C", .perfmon = "CBO", \
	  .space = UC_MSR, HSX_COMMON, .max_boxes = n, .nctr = 4, .width = 48, .box_stride = 0x10, .has_box_ctl = 1, \
	  .box_ctl_resets = 1, .box_ctl = 0xe00, .ctl0 = 0xe01, .ctl_stride = 1, .ctr0 = 0xe08, .ctr_stride = 1,  \
	  .lay = &xep_lay_cbo, .filt_regs = hsx_cbo_filt, .nfilt_regs = 2, .fields = hsx_cbo_fields, .nfields = 8 }

/* SBox n: BOX_CTL 0x720 + 0xA n, CTL0 +1, CTR0 +6 (HSWEP_S0_MSR_PMON_*, HSWEP_SBOX_MSR_OFFSET); the mask
 * HSWEP_S_MSR_PMON_RAW_EVENT_MASK is the CBo's (tid_en included); w bits; 4 boxes, or as many as count
 * says (NULL: 4) */
#define HSX_SBOXES(w, cnt)                                                                                     \
	{ .name = "sbox", .perf = "sbox", .desc = "ring stop to the other ring (SBox)", .prefix = "UNC_S",        \
	  .perfmon = "SBO", .space = UC_MSR, HSX_COMMON, .max_boxes = 4, .nctr = 4, .width = w, .box_stride = 0xa, \
	  .has_box_ctl = 1, .box_ctl_resets = 1, .box_ctl = 0x720, .ctl0 = 0x721, .ctl_stride = 1, .ctr0 = 0x726, \
	  .ctr_stride = 1, .lay = &xep_lay_cbo, .count = cnt }
#define HSX_SBOX(w) HSX_SBOXES(w, NULL)
/* The SBox count read from the PCU's CAPID4 (PCI device did, config 0x94): lim boxes where its chop (bits 7:6) is
 * 0, else (and without the device) 4 (Linux 6.12 hswep_has_limit_sbox: HSWEP_PCU_CAPID4_OFFET 0x94,
 * hswep_get_chop(capid4) ((capid4) >> 6) & 0x3) */
#define HSX_SBOX_COUNT(did, lim) { .devid = did, .off = 0x94, .mask = 0x3 << 6, .limit_if_clear = 1, .limited = lim }

/* PCU: hswep_uncore_pcu, BOX_CTL 0x710, CTL0 0x711, CTR0 0x717, 48 bits; bands 0xb-0xe (hswep_pcu_hw_config) */
#define HSX_PCU                                                                                                \
	{ .name = "pcu", .perf = "pcu", .desc = "power control unit (PCU)", .prefix = "UNC_P", .perfmon = "PCU",  \
	  .space = UC_MSR, HSX_COMMON, .max_boxes = 1, .nctr = 4, .width = 48, .has_box_ctl = 1, .box_ctl_resets = 1, \
	  .box_ctl = 0x710, .ctl0 = 0x711, .ctl_stride = 1, .ctr0 = 0x717, .ctr_stride = 1, .lay = &xep_lay_pcu,   \
	  .filt_regs = hsx_pcu_filt, .nfilt_regs = 1, .fields = xep_pcu_fields, .nfields = 4, .band_ev = 0x0b }

/* HA: 2 boxes; the match registers are SNB-EP's (the driver programs none of them) */
#define HSX_HA(ids)                                                                                            \
	{ .name = "ha", .perf = "ha", .desc = "home agent (HA)", .prefix = "UNC_H", .perfmon = "HA", HSX_PCI,     \
	  .max_boxes = 2, .nctr = 4, .width = 48, .box_ctl_resets = 1, .lay = &xep_lay_ha_imc, .pci_ids = ids,   \
	  .filt_regs = xep_ha_filt, .nfilt_regs = 3, .fields = xep_ha_fields, .nfields = 3 }

/* iMC channel: 8 channels, fixed DCLK SNBEP_MC_CHy_PCI_PMON_FIXED_CTL/CTR 0xF0/0xD0 (enable 22, reset 19) */
#define HSX_IMC(ids)                                                                                           \
	{ .name = "imc", .perf = "imc", .desc = "integrated memory controller channel (iMC)", .prefix = "UNC_M",  \
	  .perfmon = "iMC", HSX_PCI, .max_boxes = 8, .nctr = 4, .width = 48, .box_ctl_resets = 1,                 \
	  .lay = &xep_lay_ha_imc, .pci_ids = ids, .has_fixed = 1, .fixed_ctl = 0xf0, .fixed_ctr = 0xd0,           \
	  .fixed_width = 48, .fixed_en = 1u << 22, .fixed_rst = 1u << 19 }

/* IRP: its control (ivbep_uncore_irp_ctls 0xD8..0xE4) and counter (hswep_uncore_irp_ctrs 0xA0..0xB8) tables
 * are the common layout's */
#define HSX_IRP(ids)                                                                                           \
	{ .name = "irp", .perf = "irp", .desc = "IIO ring port (IRP)", .prefix = "UNC_I", .perfmon = "IRP", HSX_PCI, \
	  .max_boxes = 1, .nctr = 4, .width = 48, .box_ctl_resets = 1, .lay = &xep_lay_rst, .pci_ids = ids }

/* QPI: 3 ports, match/mask on each port's filter function (comp: 0 where a port has none) */
#define HSX_QPI(ids, comp)                                                                                     \
	{ .name = "qpi", .perf = "qpi", .desc = "QPI link layer port", .prefix = "UNC_Q", .perfmon = "QPI LL",    \
	  HSX_PCI, .max_boxes = 3, .nctr = 4, .width = 48, .box_ctl_resets = 1, .lay = &xep_lay_qpi,              \
	  .pci_ids = ids, .companion_ids = comp, .filt_regs = xep_qpi_filt, .nfilt_regs = 4,                     \
	  .fields = xep_qpi_fields, .nfields = 4 }

/* R2PCIe: 48 bits (SNB-EP's is 44) */
#define HSX_R2PCIE(ids)                                                                                        \
	{ .name = "r2pcie", .perf = "r2pcie", .desc = "ring to PCIe interface (R2PCIe)", .prefix = "UNC_R2",      \
	  .perfmon = "R2PCIe", HSX_PCI, .max_boxes = 1, .nctr = 4, .width = 48, .box_ctl_resets = 1,              \
	  .lay = &xep_lay_rst, .pci_ids = ids }

/* R3QPI: 3 links of 3 counters, w bits */
#define HSX_R3QPI(ids, w)                                                                                      \
	{ .name = "r3qpi", .perf = "r3qpi", .desc = "ring to QPI interface (R3QPI)", .prefix = "UNC_R3",          \
	  .perfmon = "R3QPI", HSX_PCI, .max_boxes = 3, .nctr = 3, .width = w, .box_ctl_resets = 1,                \
	  .lay = &xep_lay_rst, .pci_ids = ids }

/* The driver's IMC aliases (hswep_uncore_imc_events, bdx_uncore_imc too): clockticks is event 0x00 on a
 * general counter, not SNB-EP's fixed 0xff; and the perf terms: filter_tid config1:0 is our UBox tid,
 * filter_cid config1:5 the top bit of our core field (filter bit 5), where the driver has them. */
#define HSX_ALIASES { "imc", "clockticks", "event=0x00,umask=0x00", 0, NULL }, XEP_IMC_CAS_ALIASES, { 0 }
#define HSX_TERMS XEP_PERF_TERMS, { "ubox", "filter_cid", "core", 4, 1 }, { 0 }

#endif
