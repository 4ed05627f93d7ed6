/*
 * What the discovery-table generation shares (Sapphire/Emerald/Granite Rapids, Sierra and Clearwater
 * Forest: the Linux driver drives them all with the spr_uncore_* formats, uncore_snbep.c): the counter
 * control layouts and the CHA, PCU and IIO filter fields.  Sources: seed 001 (EMR) tables, cited below.
 */
#ifndef UNCORE_XEON_DISC_H
#define UNCORE_XEON_DISC_H

#include "platform.h"

extern const struct ctl_layout xd_lay_base, xd_lay_ext24, xd_lay_cha, xd_lay_cxl, xd_lay_iio;
extern const struct filter_reg xd_cha_filt[1], xd_pcu_filt[1];
extern const struct filter_field xd_cha_fields[1], xd_pcu_fields[4], xd_iio_fields[2];

#define XD_DISC(t) .disc_type = (t), .bc = &box_ctl_discovery, .has_box_ctl = 1, .box_ctl_resets = 1, .width = 48
#define XD_MSR_STEP .space = UC_MSR, .ctl_stride = 1, .ctr_stride = 1
/* Linux's generic MMIO ops (uncore_discovery.c generic_uncore_mmio_ops): controls 4 bytes apart written with
 * writel, counters 8 apart read with readq; the access taken from each discovery entry (access_from_entry) */
#define XD_ENTRY_ACCESS .space = UC_MMIO, .ctl_stride = 4, .ctr_stride = 8, .ctl_bytes = 4, .access_from_entry = 1
#define XD_PCI_STEP .space = UC_PCI, .ctl_stride = 8, .ctr_stride = 8, .ctl_bytes = 8 /* T1-12: 8 bytes apart */
/* Linux's spr_uncore_pci_ops (SPR_UNCORE_PCI_COMMON_FORMAT, spr_uncore_upi): spr_uncore_pci_enable_event writes both
 * dwords of config, where the generic PCI ops write bits 31:0 alone (perf_reach.c) */
#define SPR_PCI_OPS .perf_ctl_qword = 1
#define XD_CHA_FILTERS .filt_regs = xd_cha_filt, .nfilt_regs = 1, .fields = xd_cha_fields, .nfields = 1
#define XD_PCU_FILTERS .filt_regs = xd_pcu_filt, .nfilt_regs = 1, .fields = xd_pcu_fields, .nfields = 4
#define XD_IIO_FIELDS .fields = xd_iio_fields, .nfields = 2

#endif
