/*
 * Sandy Bridge-EP (Xeon E5-2600, "Jaketown") uncore, seed 000 (Intel 327043-001).
 * Addresses cite the seed's tables; where the seed lost a value, the public
 * source is named (Linux uncore_snbep.c, see ../shared/notes/snbep_ivbep.md).
 */
#include <stddef.h>
#include "platform/xeon_ep.h"

UC_PLATFORM_TABLES(snbep);

/* CBo filter, Table 2-12 (tid bits from Linux: the table lost them). */
static const struct filter_reg cbo_filt[] = { { "Cn_MSR_PMON_BOX_FILTER", 0xd14, 0, 32 } };
static const struct filter_field cbo_fields[] = {
	{ "tid", 0, 0, 5, "thread id: core << 1 | thread (sets tid_en)" },
	{ "nid", 0, 10, 8, "node id mask, one bit per node" },
	{ "state", 0, 18, 5, "LLC state mask: 0x10 F, 0x08 M, 0x04 E, 0x02 S, 0x01 I" },
	{ "opc", 0, 23, 9, "IDI opcode (Table 2-13), e.g. 0x182 DRd" },
};

/* PCI device IDs: not in seed 000 (it gives only device:function); Linux pci_ids.h. */
static const uint16_t ha_ids[] = { 0x3c46 };
static const uint16_t imc_ids[] = { 0x3cb0, 0x3cb1, 0x3cb4, 0x3cb5 }; /* D16:F0,F1,F4,F5 (L2162-2165) */
static const uint16_t qpi_ids[] = { 0x3c41, 0x3c42 };                  /* D8:F2, D9:F2 (L3392-3393) */
static const uint16_t qpi_comp_ids[] = { 0x3c86, 0x3c96 };             /* D8:F6, D9:F6 (L3406-3407) */
static const uint16_t r2pcie_ids[] = { 0x3c43 };                       /* D19:F1 (L176) */
static const uint16_t r3qpi_ids[] = { 0x3c44, 0x3c45 };                /* D19:F5, F6 (L172) */


/* Counter control layouts: xep_lay_* (common/platform/xeon_ep.c). */

/* UBox: Table 2-1 lost; MSRs from Linux (SNBEP_U_MSR_*).  No box control (L290). */
static const struct box_type ubox = {
	.name = "ubox", .perf = "ubox", .desc = "system configuration controller (UBox)", .prefix = "UNC_U", .perfmon = "UBOX",
	.space = UC_MSR, SNB_COMMON, .max_boxes = 1, .nctr = 2, .width = 44 /* L323 */,
	.has_box_ctl = 0, .ctl0 = 0xc10, .ctl_stride = 1, .ctr0 = 0xc16, .ctr_stride = 1,
	.lay = &xep_lay_ubox,
	.has_fixed = 1, .fixed_ctl = 0xc08, .fixed_ctr = 0xc09, .fixed_width = 48 /* L323-324 */,
	.fixed_en = 1u << 22 /* Table 2-4 */, .fixed_rst = 0,
};

/* CBo n: Table 2-8; BOX_CTL 0xD04 + 0x20n, CTL 0xD10.., FILTER 0xD14, CTR 0xD16.. */
static const struct box_type cbo = {
	.name = "cbo", .perf = "cbox", .desc = "LLC slice caching agent (CBo)", .prefix = "UNC_C", .perfmon = "CBO",
	.space = UC_MSR, SNB_COMMON, .max_boxes = 8, .nctr = 4, .width = 44 /* L423 */, .box_stride = 0x20,
	.has_box_ctl = 1, .box_ctl_resets = 1, .box_ctl = 0xd04, .ctl0 = 0xd10, .ctl_stride = 1,
	.ctr0 = 0xd16, .ctr_stride = 1, .lay = &xep_lay_cbo,
	.filt_regs = cbo_filt, .nfilt_regs = N(cbo_filt), .fields = cbo_fields, .nfields = N(cbo_fields),
};

/* PCU: Table 2-73 (CTL 0xC30.., BOX_CTL 0xC24); CTR 0xC36.. and FILTER 0xC34 from Linux. */
static const struct box_type pcu = {
	.name = "pcu", .perf = "pcu", .desc = "power control unit (PCU)", .prefix = "UNC_P", .perfmon = "PCU",
	.space = UC_MSR, SNB_COMMON, .max_boxes = 1, .nctr = 4, .width = 48 /* L2742 */,
	.has_box_ctl = 1, .box_ctl_resets = 1, .box_ctl = 0xc24, .ctl0 = 0xc30, .ctl_stride = 1,
	.ctr0 = 0xc36, .ctr_stride = 1, .lay = &xep_lay_pcu,
	.filt_regs = xep_pcu_filt, .nfilt_regs = N(xep_pcu_filt), .fields = xep_pcu_fields, .nfields = N(xep_pcu_fields),
	.band_ev = 0x0b, /* FREQ_BAND0-3_CYCLES (seed 000 Table 2-81) */
};

static const struct box_type ha = {
	.name = "ha", .perf = "ha", .desc = "home agent (HA)", .prefix = "UNC_H", .perfmon = "HA", PCI_LAYOUT,
	.max_boxes = 1, .nctr = 4, .width = 48 /* L1514 */, .box_ctl_resets = 0 /* Table 2-34 */,
	.lay = &xep_lay_ha_imc, .pci_ids = ha_ids,
	.filt_regs = xep_ha_filt, .nfilt_regs = N(xep_ha_filt), .fields = xep_ha_fields, .nfields = N(xep_ha_fields),
};

/* iMC channel: Table 2-59; fixed DCLK counter CTL 0xF0 (en 22, rst 19, Table 2-62), CTR 0xD0. */
static const struct box_type imc = {
	.name = "imc", .perf = "imc", .desc = "integrated memory controller channel (iMC)", .prefix = "UNC_M", .perfmon = "iMC", PCI_LAYOUT,
	.max_boxes = 4, .nctr = 4, .width = 48 /* L2149 */, .box_ctl_resets = 0 /* Table 2-60 */,
	.lay = &xep_lay_ha_imc, .pci_ids = imc_ids,
	.has_fixed = 1, .fixed_ctl = 0xf0, .fixed_ctr = 0xd0, .fixed_width = 48,
	.fixed_en = 1u << 22, .fixed_rst = 1u << 19,
};

static const struct box_type qpi = {
	.name = "qpi", .perf = "qpi", .desc = "QPI link layer port", .prefix = "UNC_Q", .perfmon = "QPI LL", PCI_LAYOUT,
	.max_boxes = 2, .nctr = 4, .width = 48 /* L3380 */, .box_ctl_resets = 1,
	.lay = &xep_lay_qpi, .pci_ids = qpi_ids, .companion_ids = qpi_comp_ids,
	.filt_regs = xep_qpi_filt, .nfilt_regs = N(xep_qpi_filt), .fields = xep_qpi_fields, .nfields = N(xep_qpi_fields),
};

/* R2PCIe / R3QPI: sections lost from the seed; counts and widths from Linux (44-bit). */
static const struct box_type r2pcie = {
	.name = "r2pcie", .perf = "r2pcie", .desc = "ring to PCIe interface (R2PCIe)", .prefix = "UNC_R2", .perfmon = "R2PCIe", PCI_LAYOUT,
	.max_boxes = 1, .nctr = 4, .width = 44, .box_ctl_resets = 1, .lay = &xep_lay_rst, .pci_ids = r2pcie_ids,
};

static const struct box_type r3qpi = {
	.name = "r3qpi", .perf = "r3qpi", .desc = "ring to QPI interface (R3QPI)", .prefix = "UNC_R3", .perfmon = "R3QPI", PCI_LAYOUT,
	.max_boxes = 2, .nctr = 3 /* Table 1-3: ctl E0-D8 */, .width = 44, .box_ctl_resets = 1,
	.lay = &xep_lay_rst, .pci_ids = r3qpi_ids,
};

/* The driver's aliases: the IMC's (XEP_IMC_ALIASES) and the QPI's (snbep_uncore_qpi_events, Linux 6.12
 * uncore_snbep.c; event=0x102 is select 0x02 with the extra bit 21 of format event "config:0-7,21"). */
static const struct perf_alias snbep_aliases[] = {
	XEP_IMC_ALIASES,
	{ "qpi", "clockticks", "event=0x14", 0, NULL },
	{ "qpi", "txl_flits_active", "event=0x00,umask=0x06", 0, NULL },
	{ "qpi", "drs_data", "event=0x102,umask=0x08", 0, NULL },
	{ "qpi", "ncb_data", "event=0x103,umask=0x04", 0, NULL },
	{ 0 },
};
static const struct perf_term snbep_terms[] = { XEP_PERF_TERMS, { 0 } };

static const struct box_type *const snbep_types[] = { &ubox, &cbo, &pcu, &ha, &imc, &qpi, &r2pcie, &r3qpi };
static const int snbep_models[] = { 45, 0 };

/* RAPL: Linux 6.12 rapl.c model_snbep (pkg and ram); max_w: twice Intel ARK's E5-2687W, 150 W */
static const struct energy_part snbep_energy = { PLAT_RAPL_PKG_DRAM, 0, 0, ENERGY_MSR_DIE, 300, "rapl.c model_snbep" };
/* Clocks.  The uncore runs in the cores' clock domain; no seed bounds it (the dclk is "generally a bit slower
 * than the uclk (~800MHz to ~1.066GHz)", seed 000 L2258): conservatively 0.8-4 GHz.  DDR3-800 to -1600 (L2134),
 * and the seed's ~1.066 GHz dclk (L2258); QPI 5.6-9.6 GT/s (QPI_RATE, L3608-3613). */
static const struct plat_clocks snbep_clocks = {
	{ { 0.8 * PLAT_GHZ, 4.0 * PLAT_GHZ, "SNB-EP uncore clock: conservative 0.8-4 GHz (no seed bound)" },
	  { PLAT_DDR_HALF(800, 2133), "SNB-EP DCLK: DDR3-800 and up, half the DDR rate; seed 000 L2134, L2255, L2258" },
	  { PLAT_LINK_GTS(5.6, 9.6), "SNB-EP QPI clock: 5.6-9.6 GT/s / 8; seed 000 L3608-3613, L3732" } } };
/* Attribution: seed 000 Table 2-12: tid 4:0, "[0] Thread"; TOR_INSERTS.MISS_ALL umask 0x0a: every miss */
static const struct attrib_plat snbep_attrib = { "UNC_C_TOR_INSERTS.MISS_ALL", 1, 5, "every request that missed the LLC" };

/* The memory controllers as Linux's EDAC driver names them (platform_facts.h struct mem_layout) */
static const struct mem_layout snbep_mem = { "Sandy Bridge SrcID#", "_Ha#", 4, 4, 1,
	.source = "Linux 6.12 sb_edac.c \"Sandy Bridge SrcID#%d_Ha#%d\"; uncore_snbep.c snbep_uncore_imc num_boxes 4: one home agent's four channels" };

const struct platform_desc platform_snbep = {
	.name = "snbep", .desc = "Sandy Bridge-EP (Xeon E5-2600)",
	.family = 6, .models = snbep_models,
	.types = snbep_types, .ntypes = N(snbep_types),
	/* UBox device and its node-id registers: Linux snbep_pci2phy_map_init(0x3ce0, 0x40, 0x54) */
	.ubox_devid = 0x3ce0, .cpunodeid = 0x40, .gidnidmap = 0x54,
	.events = &uc_events_snbep, .metrics_json = uc_metrics_snbep,
	.perf_aliases = snbep_aliases, .perf_terms = snbep_terms,
	.energy = &snbep_energy, .clocks = &snbep_clocks, .attrib = &snbep_attrib, .mem = &snbep_mem,
};
