/*
 * Ivy Bridge-EP (Xeon E5 v2, "Ivytown") uncore.  Seed 002 (Intel 329468-002 p.17)
 * gives the register names and the sampling protocol but no addresses; the
 * addresses are Linux uncore_snbep.c (IVBEP_*) and likwid's registers.h, as
 * collected in ../shared/notes/snbep_ivbep.md section 10.  Everything not named
 * there is as on SNB-EP (seed 000).
 */
#include <stddef.h>
#include "platform/xeon_ep.h"

UC_PLATFORM_TABLES(ivbep);

/* CTL bit 20 ov_en: an overflow of this counter is reported to the UBox's global status and
 * freezes counting (seed 002 L37-43 "set the counters to freeze on overflow").  The bit is not in
 * the seed excerpt: 329468 Table 2-x as remembered, Linux never sets it [unverified]. */
#define IVB_OV_EN [CR_OV_EN] = { 20, 1 }

/* Box control: rst_ctrl 0, rst_ctrs 1 and frz 8 as on SNB-EP, but no freeze enable.  Seed 002 (2.1.2 f)
 * unfreezes with ".frz to 0" and names no frz_en; Linux initialises IVB-EP boxes with
 * IVBEP_PMON_BOX_CTL_INT = rst_ctrl | rst_ctrs and freezes with frz alone, leaving out the SNB-EP
 * FRZ_EN bit 16 (a reserved MSR bit written raises #GP, EIO from the msr driver). */
static const struct box_ctl_bits box_ctl_ivbep = { &bc_style_frz, .rst_ctrl = 1u << 0, .rst_ctrs = 1u << 1, .frz = 1u << 8 };

/* Control words: the SNB-EP fields plus ov_en, but no invert bit 23: every IVBEP_*_RAW_EVENT_MASK
 * leaves it out and seed 002 does not name it (regs_differences.txt). */
#define IVB_LAY(n, ...) { .name = "ivbep-" n, .f = { XEP_EV_UMASK, XEP_EDGE, IVB_OV_EN, __VA_ARGS__ }, .enable = XEP_EN }
static const struct ctl_layout lay_ubox = IVB_LAY("ubox", XEP_RST, XEP_THRESH5);
static const struct ctl_layout lay_cbo = IVB_LAY("cbo", XEP_RST, XEP_TID_EN, XEP_THRESH8);
static const struct ctl_layout lay_pcu = { .name = "ivbep-pcu",
	.f = { XEP_EV_UMASK, XEP_RST, XEP_EDGE, XEP_EV_EXT, IVB_OV_EN, XEP_THRESH5, XEP_PCU_OCC },
	.enable = XEP_EN, .reserved = XEP_PCU_RESERVED };
static const struct ctl_layout lay_ha_imc = IVB_LAY("ha-imc", XEP_THRESH8);
static const struct ctl_layout lay_qpi = IVB_LAY("qpi", XEP_RST, XEP_EV_EXT, XEP_THRESH8);
static const struct ctl_layout lay_rst = IVB_LAY("irp-r2pcie-r3qpi", XEP_RST, XEP_THRESH8);
#define IVB_COMMON .disc_type = -1, .bc = &box_ctl_ivbep, .ctl_bytes = 4

/* CBo filter: 64 bits in two MSRs, FILTER0 at +0x14 and FILTER1 at +0x1A (Linux writes the high
 * half to the filter MSR + 6; likwid 0xD1A).  Fields: Linux format attributes, notes section 10. */
static const struct filter_reg cbo_filt[] = {
	{ "Cn_MSR_PMON_BOX_FILTER", 0xd14, 0, 32 },
	{ "Cn_MSR_PMON_BOX_FILTER1", 0xd1a, 0, 32 },
};
static const struct filter_field cbo_fields[] = {
	{ "tid", 0, 0, 5, "thread id: core << 1 | thread (sets tid_en)" },
	{ "link", 0, 5, 4, "QPI link the request came in on" },
	{ "state", 0, 17, 6, "LLC state mask: 0x20 F, 0x10 M, 0x08 E, 0x04 S, 0x02 I... (Linux filter_state2 17-22)" },
	{ "nid", 1, 0, 16, "node id mask, one bit per node" },
	{ "opc", 1, 20, 9, "IDI opcode, e.g. 0x182 DRd" },
	{ "c6", 1, 29, 1, "match requests from cores in C6" },
	{ "nc", 1, 30, 1, "match non-coherent requests" },
	{ "isoc", 1, 31, 1, "match isochronous requests" },
};

/* PCU bands, HA address/opcode match and QPI match/mask as on SNB-EP (platform_xeon_ep.h). */

/* PCI device IDs, Linux pci_ids.h (notes section 10). */
static const uint16_t ha_ids[] = { 0x0e30, 0x0e38 };
static const uint16_t imc_ids[] = { 0x0eb4, 0x0eb5, 0x0eb0, 0x0eb1, 0x0ef4, 0x0ef5, 0x0ef0, 0x0ef1 };
static const uint16_t irp_ids[] = { 0x0e39 };
static const uint16_t qpi_ids[] = { 0x0e32, 0x0e33, 0x0e3a };
static const uint16_t qpi_comp_ids[] = { 0x0e86, 0x0e96, 0 }; /* port 2 has no match/mask function */
static const uint16_t r2pcie_ids[] = { 0x0e34 };
static const uint16_t r3qpi_ids[] = { 0x0e36, 0x0e37, 0x0e3e };

/* IRP counters are "not properly aligned" (Linux ivbep_uncore_irp_ctrs). */
static const uint32_t irp_ctrs[] = { 0xa0, 0xb0, 0xb8, 0xc0 };

/* Box status: PCI boxes 0xF8, UBox 0xC15 (likwid).  No source gives the CBo or PCU status MSR,
 * so those boxes cannot be sampled. */
#define PCI_STATUS .status = 0xf8

/* UBox: as SNB-EP, plus the global control 0xC00 and status 0xC01 (platform below). */
static const struct box_type ubox = {
	.name = "ubox", .perf = "ubox", .desc = "system configuration controller (UBox)", .prefix = "UNC_U", .perfmon = "UBOX",
	.space = UC_MSR, IVB_COMMON, .max_boxes = 1, .nctr = 2, .width = 44,
	.has_box_ctl = 0, .ctl0 = 0xc10, .ctl_stride = 1, .ctr0 = 0xc16, .ctr_stride = 1,
	.lay = &lay_ubox, .status = 0xc15,
	.has_fixed = 1, .fixed_ctl = 0xc08, .fixed_ctr = 0xc09, .fixed_width = 48,
	.fixed_en = 1u << 22,
};

/* CBo n: up to 15 (one per core), same MSR layout as SNB-EP with stride 0x20. */
static const struct box_type cbo = {
	.name = "cbo", .perf = "cbox", .desc = "LLC slice caching agent (CBo)", .prefix = "UNC_C", .perfmon = "CBO",
	.space = UC_MSR, IVB_COMMON, .max_boxes = 15, .nctr = 4, .width = 44, .box_stride = 0x20,
	.has_box_ctl = 1, .box_ctl_resets = 1, .box_ctl = 0xd04, .ctl0 = 0xd10, .ctl_stride = 1,
	.ctr0 = 0xd16, .ctr_stride = 1, .lay = &lay_cbo,
	.filt_regs = cbo_filt, .nfilt_regs = N(cbo_filt), .fields = cbo_fields, .nfields = N(cbo_fields),
};

static const struct box_type pcu = {
	.name = "pcu", .perf = "pcu", .desc = "power control unit (PCU)", .prefix = "UNC_P", .perfmon = "PCU",
	.space = UC_MSR, IVB_COMMON, .max_boxes = 1, .nctr = 4, .width = 48,
	.has_box_ctl = 1, .box_ctl_resets = 1, .box_ctl = 0xc24, .ctl0 = 0xc30, .ctl_stride = 1,
	.ctr0 = 0xc36, .ctr_stride = 1, .lay = &lay_pcu,
	.filt_regs = xep_pcu_filt, .nfilt_regs = N(xep_pcu_filt), .fields = xep_pcu_fields, .nfields = N(xep_pcu_fields),
	.band_ev = 0x0b, /* FREQ_BAND0-3_CYCLES (seed 000 Table 2-81) */
};

#define IVB_PCI PCI_REGS, IVB_COMMON, PCI_STATUS

static const struct box_type ha = {
	.name = "ha", .perf = "ha", .desc = "home agent (HA)", .prefix = "UNC_H", .perfmon = "HA", IVB_PCI,
	.max_boxes = 2, .nctr = 4, .width = 48, .box_ctl_resets = 0,
	.lay = &lay_ha_imc, .pci_ids = ha_ids,
	.filt_regs = xep_ha_filt, .nfilt_regs = N(xep_ha_filt), .fields = xep_ha_fields, .nfields = N(xep_ha_fields),
};

static const struct box_type imc = {
	.name = "imc", .perf = "imc", .desc = "integrated memory controller channel (iMC)", .prefix = "UNC_M", .perfmon = "iMC", IVB_PCI,
	.max_boxes = 8, .nctr = 4, .width = 48, .box_ctl_resets = 0,
	.lay = &lay_ha_imc, .pci_ids = imc_ids,
	.has_fixed = 1, .fixed_ctl = 0xf0, .fixed_ctr = 0xd0, .fixed_width = 48,
	.fixed_en = 1u << 22, .fixed_rst = 1u << 19,
};

static const struct box_type irp = {
	.name = "irp", .perf = "irp", .desc = "IIO ring port (IRP)", .prefix = "UNC_I", .perfmon = "IRP", IVB_PCI,
	.max_boxes = 1, .nctr = 4, .width = 48, .box_ctl_resets = 1, .ctr_offs = irp_ctrs,
	.lay = &lay_rst, .pci_ids = irp_ids,
};

static const struct box_type qpi = {
	.name = "qpi", .perf = "qpi", .desc = "QPI link layer port", .prefix = "UNC_Q", .perfmon = "QPI LL", IVB_PCI,
	.max_boxes = 3, .nctr = 4, .width = 48, .box_ctl_resets = 1,
	.lay = &lay_qpi, .pci_ids = qpi_ids, .companion_ids = qpi_comp_ids,
	.filt_regs = xep_qpi_filt, .nfilt_regs = N(xep_qpi_filt), .fields = xep_qpi_fields, .nfields = N(xep_qpi_fields),
};

static const struct box_type r2pcie = {
	.name = "r2pcie", .perf = "r2pcie", .desc = "ring to PCIe interface (R2PCIe)", .prefix = "UNC_R2", .perfmon = "R2PCIe", IVB_PCI,
	.max_boxes = 1, .nctr = 4, .width = 44, .box_ctl_resets = 1, .lay = &lay_rst,
	.pci_ids = r2pcie_ids,
};

static const struct box_type r3qpi = {
	.name = "r3qpi", .perf = "r3qpi", .desc = "ring to QPI interface (R3QPI)", .prefix = "UNC_R3", .perfmon = "R3QPI", IVB_PCI,
	.max_boxes = 3, .nctr = 3, .width = 44, .box_ctl_resets = 1, .lay = &lay_rst,
	.pci_ids = r3qpi_ids,
};

/* The driver's aliases: ivbep_uncore_imc's (snbep_uncore_imc_events, Linux 6.12 uncore_snbep.c); its QPI
 * has none. */
static const struct perf_alias ivbep_aliases[] = { XEP_IMC_ALIASES, { 0 } };
static const struct perf_term ivbep_terms[] = { XEP_PERF_TERMS, { 0 } };

static const struct box_type *const ivbep_types[] = { &ubox, &cbo, &pcu, &ha, &imc, &irp, &qpi, &r2pcie, &r3qpi };
static const int ivbep_models[] = { 62, 0 };

/* The uncore's own register functions (doc/devices.md), in no device group, as a Dell R720's listing shows them
 * (tests/snapshots/field/ivbep-r720-2s): DMI2 00:00.0 (0e00, a host bridge by class), the IIO's VT-d and RAS
 * 05.0/05.2 (0e28, 0e2a; 0e28-0e2f as on Haswell-EP), and the uncore buses' functions: R2PCIe 13.0 (0e1d), UBox
 * 0b.0/0b.3 (0e1e, 0e1f) and 0e30-0eff (HA, iMC, QPI, PCU, SAD, unicast and broadcast registers); not the CBDMA
 * engines 0e20-0e27 (ioatdma copies memory), nor the root ports 0e02-0e0b (bridges). */
static const struct pci_id_range ivbep_own_fns[] = { { 0x0e00, 0x0e00 }, { 0x0e1d, 0x0e1f }, { 0x0e28, 0x0e2f },
						     { 0x0e30, 0x0eff }, { 0, 0 } };

/* RAPL: Linux 6.12 rapl.c model_snbep; max_w: twice Intel ARK's E7-8890 v2, 155 W */
static const struct energy_part ivbep_energy = { PLAT_RAPL_PKG_DRAM, 0, 0, ENERGY_MSR_DIE, 310, "rapl.c model_snbep" };
/* Clocks: its seed (002) gives none; the same socket and memory as SNB-EP (DDR3 to 1866, within the ~1.066 GHz
 * dclk), so SNB-EP's ranges. */
static const struct plat_clocks ivbep_clocks = {
	{ { 0.8 * PLAT_GHZ, 4.0 * PLAT_GHZ, "IVB-EP uncore clock: conservative 0.8-4 GHz (no seed bound)" },
	  { PLAT_DDR_HALF(800, 2133), "IVB-EP DCLK: as SNB-EP's (seed 000 L2134, L2255, L2258)" },
	  { PLAT_LINK_GTS(5.6, 9.6), "IVB-EP QPI clock: as SNB-EP's (seed 000 L3608-3613, L3732)" } } };
/* Attribution: Linux IVBEP_CB0_MSR_PMON_BOX_FILTER_TID (4:0), thread bit 0; no MISS_ALL in Intel's lists: the
 * demand data reads (opcode 0x182, seed 000 Table 2-13) */
static const struct attrib_plat ivbep_attrib = { "UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182", 1, 5,
						 "demand data reads that missed the LLC" };

/* The memory controllers as Linux's EDAC driver names them (platform_facts.h struct mem_layout) */
static const struct mem_layout ivbep_mem = { "Ivy Bridge SrcID#", "_Ha#", 4, 4, 2,
	.source = "Linux 6.12 sb_edac.c \"Ivy Bridge SrcID#%d_Ha#%d\"; uncore_snbep.c ivbep_uncore_imc num_boxes 8: IMC0 and IMC1 channels 0-3" };

const struct platform_desc platform_ivbep = {
	.name = "ivbep", .desc = "Ivy Bridge-EP (Xeon E5 v2)",
	.family = 6, .models = ivbep_models,
	.types = ivbep_types, .ntypes = N(ivbep_types),
	.ubox_devid = 0x0e1e, .cpunodeid = 0x40, .gidnidmap = 0x54, /* Linux ivbep_pci2phy_map_init */
	.events = &uc_events_ivbep, .metrics_json = uc_metrics_ivbep,
	.perf_aliases = ivbep_aliases, .perf_terms = ivbep_terms, .own_fns = ivbep_own_fns,
	/* U_MSR_PMON_GLOBAL_CTL 0xC00 (frz_all 31, unfrz_all 29: Linux IVBEP_U_PMON_GLOBAL_*),
	 * U_MSR_PMON_GLOBAL_STATUS 0xC01 (likwid) */
	.glob_ctl = 0xc00, .glob_status = 0xc01, .glob_frz_all = 1ull << 31, .glob_unfrz_all = 1ull << 29,
	.energy = &ivbep_energy, .clocks = &ivbep_clocks, .attrib = &ivbep_attrib, .mem = &ivbep_mem,
};
