/*
 * Haswell-EP (Xeon E5 v3, "Haswell-X") uncore.  No seed covers it: every address, width, count and id
 * is Linux 6.12 arch/x86/events/intel/uncore_snbep.c ("Haswell-EP uncore support": HSWEP_* defines,
 * hswep_uncore_* types, hswep_uncore_pci_ids), as collected in /work/notes/i34/hsx.md.  The control
 * words and the PCI box layout are SNB-EP's (xeon_ep.h); the MSR map and the CBo filter are new.  The
 * box types are hsx.h's macros, which Broadwell-EP shares.
 */
#include <stddef.h>
#include "hsx.h"

UC_PLATFORM_TABLES(hsx);

/* UBox filter HSWEP_U_MSR_PMON_FILTER 0x707: tid bit 0, cid bits 1-5 (HSWEP_U_MSR_PMON_BOX_FILTER_TID/CID,
 * hswep_ubox_hw_config writes config1 & 0x3f for every UBox event).  Linux's filter_cid format is
 * config1:5 alone, so its value is our "core" at bit 4 (HSX_TERMS). */
const struct filter_reg hsx_ubox_filt[] = { { "U_MSR_PMON_BOX_FILTER", 0x707, 0, 32 } };
const struct filter_field hsx_ubox_fields[] = {
	{ "tid", 0, 0, 1, "thread id match enable bit (filter bit 0)" },
	{ "core", 0, 1, 5, "core id (cid) to match, filter bits 5:1" },
};

/* CBo filter: 64 bits in two MSRs, FILTER0 0xE05 + 0x10n (HSWEP_C0_MSR_PMON_BOX_FILTER0) and FILTER1 = FILTER0 + 1
 * (hswep_cbox_enable_event writes the high dword there).  Fields: HSWEP_CB0_MSR_PMON_BOX_FILTER_* (config1
 * bit n of 32-63 is FILTER1 bit n-32). */
const struct filter_reg hsx_cbo_filt[] = {
	{ "Cn_MSR_PMON_BOX_FILTER0", 0xe05, 0, 32 },
	{ "Cn_MSR_PMON_BOX_FILTER1", 0xe06, 0, 32 },
};
const struct filter_field hsx_cbo_fields[] = {
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
const struct filter_reg hsx_pcu_filt[] = { { "PCU_MSR_PMON_BOX_FILTER", 0x715, 0, 32 } };

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

/* The SBoxes: 4, but 2 on a part whose PCU CAPID4 (device 0x2fc0, config 0x94) has a chop (bits 7:6) of 0, the
 * 6-8 core die (Linux 6.12 hswep_uncore_cpu_init, hswep_has_limit_sbox: HSWEP_PCU_DID, HSWEP_PCU_CAPID4_OFFET,
 * hswep_get_chop) */
static const struct box_count sbox_count = HSX_SBOX_COUNT(0x2fc0, 2);

/* hswep_uncore_*: UBox 44 bits, up to 18 CBos, SBox 44 bits, R3QPI 44 bits */
static const struct box_type ubox = HSX_UBOX(44), cbo = HSX_CBO(18), sbox = HSX_SBOXES(44, &sbox_count), pcu = HSX_PCU;
static const struct box_type ha = HSX_HA(ha_ids), imc = HSX_IMC(imc_ids), irp = HSX_IRP(irp_ids);
static const struct box_type qpi = HSX_QPI(qpi_ids, qpi_comp_ids), r2pcie = HSX_R2PCIE(r2pcie_ids);
static const struct box_type r3qpi = HSX_R3QPI(r3qpi_ids, 44);

static const struct perf_alias hsx_aliases[] = { HSX_ALIASES };
static const struct perf_term hsx_terms[] = { HSX_TERMS };

static const struct box_type *const hsx_types[] = { &ubox, &cbo, &sbox, &pcu, &ha, &imc, &irp, &qpi, &r2pcie, &r3qpi };
static const int hsx_models[] = { 63, 0 };

/* The uncore's own register functions (doc/devices.md), in no device group: DMI2 00:00.0 (2f00), the IIO's
 * VT-d/RAS/IOAPIC 05.0-05.4 (2f28-2f2c) and the uncore bus's functions (2f1d-2f1f, 2f30-2f4f, 2f60-2fff), as a
 * Dell R730's listing shows them (tests/snapshots/field/hsx-r730-1s); not the CBDMA engines (2f20-2f27). */
static const struct pci_id_range hsx_own_fns[] = { { 0x2f00, 0x2f00 }, { 0x2f10, 0x2f1f }, { 0x2f28, 0x2f2f },
						   { 0x2f30, 0x2f4f }, { 0x2f60, 0x2fff }, { 0, 0 } };
/* RAPL: Linux 6.12 rapl.c model_hsx, intel_rapl_common.c rapl_defaults_hsw_server (the fixed DRAM unit);
 * max_w: twice Intel ARK's E7-8890 v3, 165 W */
static const struct energy_part hsx_energy = { PLAT_RAPL_PKG_DRAM, PLAT_RAPL_DRAM_15_3, 0, ENERGY_MSR_DIE, 330,
					       "rapl.c model_hsx, rapl_defaults_hsw_server" };
/* Clocks: a ring of its own clock (uncore frequency scaling): conservatively 0.8-3.5 GHz; DDR4 at 1333-2400 (three
 * DIMMs a channel run at 1333; no seed: Intel's product briefs for E5 v3/v4); QPI at SNB-EP's rates (no seed of
 * its own). */
static const struct plat_clocks hsx_clocks = {
	{ { 0.8 * PLAT_GHZ, 3.5 * PLAT_GHZ, "HSX uncore clock: conservative 0.8-3.5 GHz (no seed bound)" },
	  { PLAT_DDR_HALF(1333, 2400), "HSX DCLK: DDR4-1333 to -2400, half the DDR rate (seed 000 L2255; speeds not in a seed)" },
	  { PLAT_LINK_GTS(5.6, 9.6), "HSX QPI clock: SNB-EP's QPI rates / 8 (seed 000 L3608-3613, L3732)" } } };
/* Attribution: Linux HSWEP_CB0_MSR_PMON_BOX_FILTER_TID (5:0), thread bit 0; the demand data reads (opcode 0x182,
 * seed 000 Table 2-13) */
static const struct attrib_plat hsx_attrib = { "UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182", 1, 6,
					       "demand data reads that missed the LLC" };

/* The memory controllers as Linux's EDAC driver names them (platform_facts.h struct mem_layout) */
static const struct mem_layout hsx_mem = { "Haswell SrcID#", "_Ha#", 4, 4, 2,
	.source = "Linux 6.12 sb_edac.c \"Haswell SrcID#%d_Ha#%d\"; uncore_snbep.c hswep_uncore_imc num_boxes 8: IMC0 and IMC1 channels 0-3" };

const struct platform_desc platform_hsx = {
	.name = "hsx", .desc = "Haswell-EP (Xeon E5 v3)",
	.family = 6, .models = hsx_models,
	.types = hsx_types, .ntypes = N(hsx_types),
	/* hswep_uncore_pci_init: snbep_pci2phy_map_init(0x2f1e, SNBEP_CPUNODEID 0x40, SNBEP_GIDNIDMAP 0x54, reverse) */
	.ubox_devid = 0x2f1e, .cpunodeid = 0x40, .gidnidmap = 0x54,
	.events = &uc_events_hsx, .metrics_json = uc_metrics_hsx,
	.perfmon_filters = uc_events_hsx_filters, .perfmon_folds = uc_events_hsx_folds,
	.perf_aliases = hsx_aliases, .perf_terms = hsx_terms, .own_fns = hsx_own_fns,
	.energy = &hsx_energy, .clocks = &hsx_clocks, .attrib = &hsx_attrib, .mem = &hsx_mem,
};
