/*
 * Haswell-EP (Xeon E5 v3, "Haswell-X") uncore.  No seed covers it: every address, width, count and id
 * is Linux 6.12 arch/x86/events/intel/uncore_snbep.c ("Haswell-EP uncore support": HSWEP_* defines,
 * hswep_uncore_* types, hswep_uncore_pci_ids), as collected in /work/notes/i34/hsx.md.  The control
 * words and the PCI box layout are SNB-EP's (xeon_ep.h); the MSR map and the CBo filter are new.
 */
#include <stddef.h>
#include "platform/xeon_ep.h"

UC_PLATFORM_TABLES(hsx);

/* Every HSX box with a box control takes SNB-EP's: init rst_ctrl | rst_ctrs | frz_en (0x10003,
 * SNBEP_PMON_BOX_CTL_INT, written by snbep_uncore_msr/pci_init_box to every box, HA and iMC included),
 * freeze by frz bit 8. */
#define HSX_COMMON .disc_type = -1, .bc = &box_ctl_snbep, .ctl_bytes = 4

/* UBox filter HSWEP_U_MSR_PMON_FILTER 0x707: tid bit 0, cid bits 1-5 (HSWEP_U_MSR_PMON_BOX_FILTER_TID/CID,
 * hswep_ubox_hw_config writes config1 & 0x3f for every UBox event).  Linux's filter_cid format is
 * config1:5 alone, so its value is our "core" at bit 4 (perf term below). */
static const struct filter_reg ubox_filt[] = { { "U_MSR_PMON_BOX_FILTER", 0x707, 0, 32 } };
static const struct filter_field ubox_fields[] = {
	{ "tid", 0, 0, 1, "thread id match enable bit (filter bit 0)" },
	{ "core", 0, 1, 5, "core id (cid) to match, filter bits 5:1" },
};

/* CBo filter: 64 bits in two MSRs, FILTER0 0xE05 + 0x10n (HSWEP_C0_MSR_PMON_BOX_FILTER0) and FILTER1 = FILTER0 + 1
 * (hswep_cbox_enable_event writes the high dword there).  Fields: HSWEP_CB0_MSR_PMON_BOX_FILTER_* (config1
 * bit n of 32-63 is FILTER1 bit n-32). */
static const struct filter_reg cbo_filt[] = {
	{ "Cn_MSR_PMON_BOX_FILTER0", 0xe05, 0, 32 },
	{ "Cn_MSR_PMON_BOX_FILTER1", 0xe06, 0, 32 },
};
static const struct filter_field cbo_fields[] = {
	{ "tid", 0, 0, 6, "thread id: core << 1 | thread (sets tid_en)" },       /* _TID 0x3f */
	{ "link", 0, 6, 4, "QPI link the request came in on" },                   /* _LINK 0xf << 6 */
	{ "state", 0, 17, 7, "LLC state mask, one bit per state (7 bits)" },    /* _STATE 0x7f << 17 */
	{ "nid", 1, 0, 16, "node id mask, one bit per node" },                    /* _NID 0xffff << 32 */
	{ "opc", 1, 20, 9, "IDI opcode, e.g. 0x182 DRd" },                        /* _OPC 0x1ff << 52 */
	{ "c6", 1, 29, 1, "match requests from cores in C6" },                    /* _C6 1 << 61 */
	{ "nc", 1, 30, 1, "match non-coherent requests" },                        /* _NC 1 << 62 */
	{ "isoc", 1, 31, 1, "match isochronous requests" },                       /* _ISOC 1 << 63 */
};

/* PCU band filter HSWEP_PCU_MSR_PMON_BOX_FILTER 0x715: SNB-EP's four band bytes (xep_pcu_fields). */
static const struct filter_reg pcu_filt[] = { { "PCU_MSR_PMON_BOX_FILTER", 0x715, 0, 32 } };

/* PCI device ids, hswep_uncore_pci_ids (box index = UNCORE_PCI_DEV_DATA's idx). */
static const uint16_t ha_ids[] = { 0x2f30, 0x2f38 };
static const uint16_t imc_ids[] = { 0x2fb0, 0x2fb1, 0x2fb4, 0x2fb5, 0x2fd0, 0x2fd1, 0x2fd4, 0x2fd5 };
static const uint16_t irp_ids[] = { 0x2f39 };
static const uint16_t qpi_ids[] = { 0x2f32, 0x2f33, 0x2f3a };
/* QPI match/mask functions (UNCORE_EXTRA_PCI_DEV, SNBEP_PCI_QPI_PORT0/1_FILTER): ports 0 and 1 only; port 2
 * has none on HSX, so its CTO_COUNT match/mask cannot be set (BDX adds 0x6f46). */
static const uint16_t qpi_comp_ids[] = { 0x2f86, 0x2f96, 0 };
static const uint16_t r2pcie_ids[] = { 0x2f34 };
static const uint16_t r3qpi_ids[] = { 0x2f36, 0x2f37, 0x2f3e };

/* UBox: hswep_uncore_ubox, no box control; CTL0 0x705, CTR0 0x709, fixed UCLK 0x703/0x704. */
static const struct box_type ubox = {
	.name = "ubox", .perf = "ubox", .desc = "system configuration controller (UBox)", .prefix = "UNC_U", .perfmon = "UBOX",
	.space = UC_MSR, HSX_COMMON, .max_boxes = 1, .nctr = 2, .width = 44,
	.has_box_ctl = 0, .ctl0 = 0x705, .ctl_stride = 1, .ctr0 = 0x709, .ctr_stride = 1, .lay = &xep_lay_ubox,
	.has_fixed = 1, .fixed_ctl = 0x703, .fixed_ctr = 0x704, .fixed_width = 48, .fixed_en = 1u << 22,
	.filt_regs = ubox_filt, .nfilt_regs = N(ubox_filt), .fields = ubox_fields, .nfields = N(ubox_fields),
};

/* CBo n: hswep_uncore_cbox, up to 18 (capped by the cores per package, hswep_uncore_cpu_init), 48-bit. */
static const struct box_type cbo = {
	.name = "cbo", .perf = "cbox", .desc = "LLC slice caching agent (CBo)", .prefix = "UNC_C", .perfmon = "CBO",
	.space = UC_MSR, HSX_COMMON, .max_boxes = 18, .nctr = 4, .width = 48, .box_stride = 0x10,
	.has_box_ctl = 1, .box_ctl_resets = 1, .box_ctl = 0xe00, .ctl0 = 0xe01, .ctl_stride = 1,
	.ctr0 = 0xe08, .ctr_stride = 1, .lay = &xep_lay_cbo,
	.filt_regs = cbo_filt, .nfilt_regs = N(cbo_filt), .fields = cbo_fields, .nfields = N(cbo_fields),
};

/* SBox n: hswep_uncore_sbox, 4 boxes of 44 bits at 0x720 + 0xA n (HSWEP_S0_MSR_PMON_*, HSWEP_SBOX_MSR_OFFSET);
 * the mask HSWEP_S_MSR_PMON_RAW_EVENT_MASK is the CBo's (tid_en included). */
static const struct box_type sbox = {
	.name = "sbox", .perf = "sbox", .desc = "ring stop to the other ring (SBox)", .prefix = "UNC_S", .perfmon = "SBO",
	.space = UC_MSR, HSX_COMMON, .max_boxes = 4, .nctr = 4, .width = 44, .box_stride = 0xa,
	.has_box_ctl = 1, .box_ctl_resets = 1, .box_ctl = 0x720, .ctl0 = 0x721, .ctl_stride = 1,
	.ctr0 = 0x726, .ctr_stride = 1, .lay = &xep_lay_cbo,
};

/* PCU: hswep_uncore_pcu, BOX_CTL 0x710, CTL0 0x711, CTR0 0x717, 48-bit. */
static const struct box_type pcu = {
	.name = "pcu", .perf = "pcu", .desc = "power control unit (PCU)", .prefix = "UNC_P", .perfmon = "PCU",
	.space = UC_MSR, HSX_COMMON, .max_boxes = 1, .nctr = 4, .width = 48,
	.has_box_ctl = 1, .box_ctl_resets = 1, .box_ctl = 0x710, .ctl0 = 0x711, .ctl_stride = 1,
	.ctr0 = 0x717, .ctr_stride = 1, .lay = &xep_lay_pcu,
	.filt_regs = pcu_filt, .nfilt_regs = N(pcu_filt), .fields = xep_pcu_fields, .nfields = N(xep_pcu_fields),
	.band_ev = 0x0b, /* FREQ_BAND0-3_CYCLES, events 0xb-0xe (hswep_pcu_hw_config) */
};

#define HSX_PCI PCI_REGS, HSX_COMMON

/* HA: hswep_uncore_ha, 2 boxes.  The match registers are SNB-EP's (the driver programs none of them). */
static const struct box_type ha = {
	.name = "ha", .perf = "ha", .desc = "home agent (HA)", .prefix = "UNC_H", .perfmon = "HA", HSX_PCI,
	.max_boxes = 2, .nctr = 4, .width = 48, .box_ctl_resets = 1, .lay = &xep_lay_ha_imc, .pci_ids = ha_ids,
	.filt_regs = xep_ha_filt, .nfilt_regs = N(xep_ha_filt), .fields = xep_ha_fields, .nfields = N(xep_ha_fields),
};

/* iMC channel: hswep_uncore_imc, 8 channels, fixed DCLK counter SNBEP_MC_CHy_PCI_PMON_FIXED_CTL/CTR 0xF0/0xD0
 * (enable 22, reset 19 as on SNB-EP). */
static const struct box_type imc = {
	.name = "imc", .perf = "imc", .desc = "integrated memory controller channel (iMC)", .prefix = "UNC_M", .perfmon = "iMC", HSX_PCI,
	.max_boxes = 8, .nctr = 4, .width = 48, .box_ctl_resets = 1, .lay = &xep_lay_ha_imc, .pci_ids = imc_ids,
	.has_fixed = 1, .fixed_ctl = 0xf0, .fixed_ctr = 0xd0, .fixed_width = 48, .fixed_en = 1u << 22, .fixed_rst = 1u << 19,
};

/* IRP: hswep_uncore_irp; its control (ivbep_uncore_irp_ctls 0xD8..0xE4) and counter (hswep_uncore_irp_ctrs
 * 0xA0..0xB8) tables are the common layout's. */
static const struct box_type irp = {
	.name = "irp", .perf = "irp", .desc = "IIO ring port (IRP)", .prefix = "UNC_I", .perfmon = "IRP", HSX_PCI,
	.max_boxes = 1, .nctr = 4, .width = 48, .box_ctl_resets = 1, .lay = &xep_lay_rst, .pci_ids = irp_ids,
};

static const struct box_type qpi = {
	.name = "qpi", .perf = "qpi", .desc = "QPI link layer port", .prefix = "UNC_Q", .perfmon = "QPI LL", HSX_PCI,
	.max_boxes = 3, .nctr = 4, .width = 48, .box_ctl_resets = 1, .lay = &xep_lay_qpi, .pci_ids = qpi_ids,
	.companion_ids = qpi_comp_ids,
	.filt_regs = xep_qpi_filt, .nfilt_regs = N(xep_qpi_filt), .fields = xep_qpi_fields, .nfields = N(xep_qpi_fields),
};

/* R2PCIe: hswep_uncore_r2pcie, 48-bit (SNB-EP's is 44). */
static const struct box_type r2pcie = {
	.name = "r2pcie", .perf = "r2pcie", .desc = "ring to PCIe interface (R2PCIe)", .prefix = "UNC_R2", .perfmon = "R2PCIe", HSX_PCI,
	.max_boxes = 1, .nctr = 4, .width = 48, .box_ctl_resets = 1, .lay = &xep_lay_rst, .pci_ids = r2pcie_ids,
};

/* R3QPI: hswep_uncore_r3qpi, 3 links of 3 counters, 44-bit. */
static const struct box_type r3qpi = {
	.name = "r3qpi", .perf = "r3qpi", .desc = "ring to QPI interface (R3QPI)", .prefix = "UNC_R3", .perfmon = "R3QPI", HSX_PCI,
	.max_boxes = 3, .nctr = 3, .width = 44, .box_ctl_resets = 1, .lay = &xep_lay_rst, .pci_ids = r3qpi_ids,
};

/* The driver's aliases: hswep_uncore_imc_events, whose clockticks is event 0x00 on a general counter (not
 * SNB-EP's fixed 0xff); no QPI aliases. */
static const struct perf_alias hsx_aliases[] = {
	{ "imc", "clockticks", "event=0x00,umask=0x00", 0, NULL }, XEP_IMC_CAS_ALIASES, { 0 }
};
/* hswep_uncore_ubox_formats_attr: filter_tid config1:0 is our tid, filter_cid config1:5 the top bit of
 * our core field (filter bit 5). */
static const struct perf_term hsx_terms[] = {
	XEP_PERF_TERMS, { "ubox", "filter_cid", "core", 4, 1 }, { 0 }
};

static const struct box_type *const hsx_types[] = { &ubox, &cbo, &sbox, &pcu, &ha, &imc, &irp, &qpi, &r2pcie, &r3qpi };
static const int hsx_models[] = { 63, 0 };

const struct platform_desc platform_hsx = {
	.name = "hsx", .desc = "Haswell-EP (Xeon E5 v3)",
	.family = 6, .models = hsx_models,
	.types = hsx_types, .ntypes = N(hsx_types),
	/* hswep_uncore_pci_init: snbep_pci2phy_map_init(0x2f1e, SNBEP_CPUNODEID 0x40, SNBEP_GIDNIDMAP 0x54, reverse) */
	.ubox_devid = 0x2f1e, .cpunodeid = 0x40, .gidnidmap = 0x54,
	.events = uc_events_hsx, .nevents = &uc_events_hsx_n, .metrics_json = uc_metrics_hsx,
	.perf_aliases = hsx_aliases, .perf_terms = hsx_terms,
};
