/*
 * The simulated Haswell-EP's machine, map and kernel types as macros and shared pieces, which the
 * simulated Broadwell-EP reuses (Linux 6.12 drives both with the HSWEP_* registers): only PCI ids, widths,
 * the CBo count and the driver's lists differ.  Written from the driver (uncore_snbep.c), never from the
 * library's tables.
 */
#ifndef UNCORE_SIM_HSX_H
#define UNCORE_SIM_HSX_H

#include "sim/map_xeon_ep.h"
#include "sim/sim.h"
#include "sim/sim_perf.h"
#include "sim/sim_only.h"

/* ---- register map (sim_map.c) ---- */
/* UBox filter 0x707 (tid 0, cid 5:1), CBo FILTER0 0xE05 (tid 5:0, link 9:6, state 23:17) and FILTER1 0xE06
 * (nid 15:0, opc 28:20, c6 29, nc 30, isoc 31), PCU band filter 0x715 */
extern const struct sim_filt sim_hsx_ubox_filt[1], sim_hsx_cbo_filt[2], sim_hsx_pcu_filt[1];
extern const struct sim_fld sim_hsx_cbo_fld[4];

#define SIM_HSX_CBO_BITS (EV_UMASK | RST | EDGE | TID_EN | EN | INV | THRESH8) /* SNBEP_CBO_MSR_PMON_RAW_EVENT_MASK */
#define SIM_HSX_PCI_BITS (EV_UMASK | RST | EDGE | EN | INV | THRESH8)

/* The MSR units but the SBox: ubox_w the UBox's width, ncbo the CBos */
#define SIM_HSX_MSR_UNITS(ubox_w, ncbo)                                                                          \
	{ .name = "ubox", .space = SIM_MSR, .nboxes = 1, .ctl0 = 0x705, .ctl_stride = 1, .ctr0 = 0x709, .ctr_stride = 1, \
	  .nctr = 2, .width = ubox_w, SNB_CTL, .ctl_rst = RST, .ctl_writable = EV_UMASK | RST | EDGE | EN | INV | THRESH5, \
	  .fixed_ctl = 0x703, .fixed_ctr = 0x704, .fixed_width = 48, .fixed_en = EN, .filt = sim_hsx_ubox_filt, .nfilt = 1, \
	  .src = "Linux HSWEP_U_MSR_PMON_CTL0/CTR0/FILTER/UCLK_FIXED_*" },                                            \
	{ .name = "cbo", .space = SIM_MSR, .nboxes = ncbo, .bc = &snb_bc, .box_stride = 0x10, .box_ctl = 0xe00,           \
	  .ctl0 = 0xe01, .ctl_stride = 1, .ctr0 = 0xe08, .ctr_stride = 1, .nctr = 4, .width = 48, SNB_CTL, .ctl_rst = RST,  \
	  .ctl_writable = SIM_HSX_CBO_BITS, .filt = sim_hsx_cbo_filt, .nfilt = 2, .fld = sim_hsx_cbo_fld, .nfld = 4,  \
	  .tid_en = TID_EN, .tid_core_lo = 1,                                                                         \
	  .src = "Linux HSWEP_C0_MSR_PMON_*, HSWEP_CBO_MSR_OFFSET 0x10, 48 bits" },                                   \
	{ .name = "pcu", .space = SIM_MSR, .nboxes = 1, .bc = &snb_bc, .box_ctl = 0x710, .ctl0 = 0x711, .ctl_stride = 1,   \
	  .ctr0 = 0x717, .ctr_stride = 1, .nctr = 4, .width = 48, SNB_CTL, .ctl_rst = RST,                              \
	  .ctl_writable = 0xffull | 0xc000ull | RST | EDGE | EXT | EN | INV | THRESH5 | 1ull << 30 | 1ull << 31,        \
	  .filt = sim_hsx_pcu_filt, .nfilt = 1,                                                                        \
	  .src = "Linux HSWEP_PCU_MSR_PMON_*; SNBEP_PCU_MSR_PMON_RAW_EVENT_MASK + bit 21 of the JSON's ExtSel events" }
/* The SBoxes (Broadwell-DE has none), sbox_w bits: 4, or n */
#define SIM_HSX_SBOX(sbox_w) SIM_HSX_SBOXES(sbox_w, 4)
#define SIM_HSX_SBOXES(sbox_w, n)                                                                                \
	{ .name = "sbox", .space = SIM_MSR, .nboxes = n, .bc = &snb_bc, .box_stride = 0xa, .box_ctl = 0x720,              \
	  .ctl0 = 0x721, .ctl_stride = 1, .ctr0 = 0x726, .ctr_stride = 1, .nctr = 4, .width = sbox_w, SNB_CTL,          \
	  .ctl_rst = RST, .ctl_writable = SIM_HSX_CBO_BITS, .src = "Linux HSWEP_S0_MSR_PMON_*, HSWEP_SBOX_MSR_OFFSET 0xa" }

/* a PCI unit: its name, boxes, counters, width, the control bits it keeps beyond SNB-EP's (QPI: ev_sel_ext) */
#define SIM_HSX_PCI_UNIT(n, boxes, ctrs, w, more, ...)                                                            \
	{ .name = n, PCI_UNIT, .nboxes = boxes, .bc = &snb_bc, .nctr = ctrs, .width = w, SNB_CTL, .ctl_rst = RST,         \
	  .ctl_writable = SIM_HSX_PCI_BITS | (more), __VA_ARGS__ }

/* The PCI units of HSX and BDX (hswep_uncore_pci_ids, bdx_uncore_pci_ids): drv the driver's prefix, ID(xx) the
 * part's device id 0x2Fxx or 0x6Fxx, r3w R3QPI's width, qpi2 QPI port 2's match/mask function (BDX's 0x6F46;
 * HSX has none: empty) */
#define SIM_HSX_PCI_UNITS(drv, ID, r3w, qpi2)                                                                           \
	SIM_HSX_PCI_UNIT("ha", 2, 4, 48, 0, .filt = ha_filt, .nfilt = N(ha_filt), .ids = { ID(30), ID(38) },            \
			 .src = "Linux " drv "_uncore_ha, " drv "_uncore_pci_ids Home Agent 0/1"),                      \
	SIM_HSX_PCI_UNIT("imc", 8, 4, 48, 0, .fixed_ctl = 0xf0, .fixed_ctr = 0xd0, .fixed_width = 48, .fixed_en = EN,   \
			 .fixed_rst = 1u << 19, .ids = { ID(b0), ID(b1), ID(b4), ID(b5), ID(d0), ID(d1), ID(d4), ID(d5) }, \
			 .src = "Linux " drv "_uncore_imc (SNBEP_MC_CHy_PCI_PMON_FIXED_*), MC0/MC1 channels 0-3"),      \
	SIM_HSX_PCI_UNIT("irp", 1, 4, 48, 0, .ids = { ID(39) },                                                         \
			 .src = "Linux " drv "_uncore_irp (hswep_uncore_irp_ctrs 0xA0-0xB8, ivbep_uncore_irp_ctls 0xD8-0xE4)"), \
	SIM_HSX_PCI_UNIT("qpi", 3, 4, 48, EXT, .filt = qpi_filt, .nfilt = N(qpi_filt), .ids = { ID(32), ID(33), ID(3a) }, \
			 .comp_ids = { ID(86), ID(96), qpi2 }, .src = "Linux " drv "_uncore_qpi, QPI ports 0-2 and their filters"), \
	SIM_HSX_PCI_UNIT("r2pcie", 1, 4, 48, 0, .ids = { ID(34) }, .src = "Linux " drv "_uncore_r2pcie (48 bits)"),     \
	SIM_HSX_PCI_UNIT("r3qpi", 3, 3, r3w, 0, .ids = { ID(36), ID(37), ID(3e) },                                      \
			 .src = "Linux " drv "_uncore_r3qpi (3 counters), R3QPI0 links 0/1, R3QPI1 link 2"),

/* ---- the machine (sim.c): the PCI places both share, the rates HSX adds to the generation's ---- */
extern const struct sim_pci_place sim_hsx_places[];
double sim_hsx_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr);
int sim_hsx_build(struct sim *s);
/* the chop=N and ha=1|2 options of hsx and bdx, and their machine with the PCU's CAPID4 (sim.c) */
int sim_hsx_option(struct sim *s, const char *key, const char *value);
int sim_hsx_build_capid4(struct sim *s, uint16_t pcu_devid, const struct sim_unit *chop0_units, int chop0_nunits,
			 const struct sim_mem_board *one_ha_mem);

/* ---- the driver's PMU types (sim_perf.c) ---- */
/* hswep_uncore_cbox_formats_attr, hswep_uncore_sbox_formats_attr, snbep_uncore_pcu/_/qpi formats, and
 * hswep_uncore_imc_events (bdx_uncore_imc has them too) */
extern const char *const sim_hsx_cbox_fmt[], *const sim_hsx_sbox_fmt[], *const sim_hsx_pcu_fmt[],
	*const sim_hsx_pci_fmt[], *const sim_hsx_qpi_fmt[], *const sim_hsx_imc_events[];

#define SK_RAW (0xffffull | 1ull << 18 | 1ull << 23 | 0xffull << 24) /* SNBEP_PMON_RAW_EVENT_MASK */
#define SK_TID_EN (1ull << 19)
/* The types after the UBox: cbox (ncbo boxes, constraints cc), sbox, pcu (bit constraints pc), the PCI ones
 * (r2pcie and r3qpi constraints r2, r3), each with the driver's num_boxes */
#define SIM_HSX_PERF_TYPES(ncbo, cc, pc, r2, r3)                                                                  \
	{ .name = "cbox", .unit = "cbo", .disc_type = -1, .formats = sim_hsx_cbox_fmt, .raw_mask = SK_RAW | SK_TID_EN, \
	  .max_boxes = ncbo, .cap_by_cores = 1, .filt_word = { 1, 1 }, .filt_shift = { 0, 32 }, .constraints = cc,                        \
	  .extra = sk_hswep_cbox_extra, /* HSWEP_CB0_MSR_PMON_BOX_FILTER_*: tid, link, state, nid, opc+c6+nc+isoc */    \
	  .xfld = { { 1, 0x3full }, { 1, 0xfull << 6 }, { 1, 0x7full << 17 }, { 1, 0xffffull << 32 }, { 1, 0xfffull << 52 } } }, \
	{ .name = "sbox", .unit = "sbox", .disc_type = -1, .formats = sim_hsx_sbox_fmt, .raw_mask = SK_RAW | SK_TID_EN, \
	  .max_boxes = 4 },                                                                                            \
	{ .name = "pcu", .unit = "pcu", .disc_type = -1, .formats = sim_hsx_pcu_fmt, .filt_word = { 1 },               \
	  .raw_mask = 0xffull | 0xc000ull | 1ull << 18 | 1ull << 23 | 0x1full << 24 | 1ull << 30 | 1ull << 31,           \
	  .bit_constraints = pc, .extra = sk_pcu_band_extra, .xfld = SK_PCU_BAND_FIELDS, .bands = 1, .band_bug = 1 }, \
	{ .name = "ha", .unit = "ha", .disc_type = -1, .formats = sim_hsx_pci_fmt, .raw_mask = SK_RAW, .max_boxes = 2 },   \
	{ .name = "imc", .unit = "imc", .disc_type = -1, .formats = sim_hsx_pci_fmt, .events = sim_hsx_imc_events,        \
	  .fixed = 1, .raw_mask = SK_RAW, .max_boxes = 8 },                                                            \
	{ .name = "irp", .unit = "irp", .disc_type = -1, .formats = sim_hsx_pci_fmt, .raw_mask = SK_RAW },                 \
	{ .name = "qpi", .unit = "qpi", .disc_type = -1, .formats = sim_hsx_qpi_fmt, .raw_mask = SK_RAW | 1ull << 21,  \
	  .max_boxes = 3,                                                                                              \
	  .filt_word = { 1, 1, 2, 2 }, .filt_shift = { 0, 32, 0, 32 }, .extra = sk_qpi_match_extra,                    \
	  .xfld = SK_QPI_MATCH_FIELDS },                                                                               \
	{ .name = "r2pcie", .unit = "r2pcie", .disc_type = -1, .formats = sim_hsx_pci_fmt, .raw_mask = SK_RAW,             \
	  .constraints = r2 },                                                                                         \
	{ .name = "r3qpi", .unit = "r3qpi", .disc_type = -1, .formats = sim_hsx_pci_fmt, .raw_mask = SK_RAW, .constraints = r3, \
	  .max_boxes = 3 }

extern const struct sim_global sim_hsx_global; /* sim_map.c: U_MSR_PMON_GLOBAL_CTL 0x700, HSX, BDX, BDX-DE */

#endif
