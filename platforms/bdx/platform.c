/*
 * Broadwell-EP (Xeon E5 v4) uncore: Haswell-EP's registers (Linux 6.12 uncore_snbep.c, "BDX uncore support":
 * the bdx_uncore_* types use the HSWEP_* addresses; platforms/hsx/hsx.h), with BDX's widths, CBo count and
 * PCI ids (bdx_uncore_pci_ids), as collected in /work/notes/i34/bdx.md.
 */
#include <stddef.h>
#include "bdx.h"

UC_PLATFORM_TABLES(bdx);

/* PCI device ids, bdx_uncore_pci_ids (box index = UNCORE_PCI_DEV_DATA's idx). */
const uint16_t bdx_ha_ids[] = { 0x6f30, 0x6f38 };
const uint16_t bdx_imc_ids[] = { 0x6fb0, 0x6fb1, 0x6fb4, 0x6fb5, 0x6fd0, 0x6fd1, 0x6fd4, 0x6fd5 };
const uint16_t bdx_irp_ids[] = { 0x6f39 };
static const uint16_t qpi_ids[] = { 0x6f32, 0x6f33, 0x6f3a };
/* QPI match/mask functions (UNCORE_EXTRA_PCI_DEV): ports 0, 1 and, unlike HSX, 2 (BDX_PCI_QPI_PORT2_FILTER) */
static const uint16_t qpi_comp_ids[] = { 0x6f86, 0x6f96, 0x6f46 };
const uint16_t bdx_r2pcie_ids[] = { 0x6f34 };
static const uint16_t r3qpi_ids[] = { 0x6f36, 0x6f37, 0x6f3e };

/* bdx_uncore_*: UBox 48 bits (bdx_uncore_ubox; ivbep_uncore_msr_ops and formats, so the driver never writes
 * the UBox filter: the registers still take it on direct), up to 24 CBos (bdx_uncore_cbox), SBox 48 bits
 * (bdx_uncore_sbox, counted below), PCU hswep_uncore_pcu, R3QPI 48 bits (bdx_uncore_r3qpi) */
const struct box_type bdx_ubox = HSX_UBOX(48), bdx_cbo = HSX_CBO(24), bdx_pcu = HSX_PCU;
const struct box_type bdx_ha = HSX_HA(bdx_ha_ids), bdx_imc = HSX_IMC(bdx_imc_ids), bdx_irp = HSX_IRP(bdx_irp_ids);
const struct box_type bdx_r2pcie = HSX_R2PCIE(bdx_r2pcie_ids);
/* The SBoxes: 4, but none where the PCU's CAPID4 (device 0x6fc0, config 0x94) has a chop (bits 7:6) of 0 (Linux 6.12
 * bdx_uncore_cpu_init: BDX_PCU_DID 0x6fc0, hswep_has_limit_sbox(BDX_PCU_DID) sets bdx_msr_uncores[BDX_MSR_UNCORE_SBOX]
 * to NULL; on Broadwell-DE always: platforms/bdxde has no SBox type) */
static const struct box_count sbox_count = HSX_SBOX_COUNT(0x6fc0, 0);
static const struct box_type sbox = HSX_SBOXES(48, &sbox_count);
static const struct box_type qpi = HSX_QPI(qpi_ids, qpi_comp_ids), r3qpi = HSX_R3QPI(r3qpi_ids, 48);

/* bdx_uncore_imc has hswep_uncore_imc_events; the UBox has no filter formats (ivbep_uncore_ubox_formats_attr),
 * so perf's filter_cid term does not apply */
const struct perf_alias bdx_aliases[] = { HSX_ALIASES };
const struct perf_term bdx_terms[] = { XEP_PERF_TERMS, { 0 } };

/* bdx_msr_uncores order: ubox, cbox, pcu, sbox */
static const struct box_type *const bdx_types[] = { &bdx_ubox, &bdx_cbo, &bdx_pcu, &sbox, &bdx_ha, &bdx_imc, &bdx_irp, &qpi,
						     &bdx_r2pcie, &r3qpi };
static const int bdx_models[] = { 79, 0 };

/* The uncore's own register functions (doc/devices.md): read for registers, they move no data, so the PCI map
 * puts them in no device group.  Seen in a Supermicro X10DRi's listing (tests/snapshots/field/bdx-x10dri-2s):
 * DMI2 00:00.0 (6f00), the IIO's VT-d/RAS/IOAPIC 05.0-05.4 (6f28-6f2c), and every function of the uncore buses
 * 7f/ff (6f1d-6f1f, 6f30-6f3f, 6f60-6fff: QPI, R3QPI, CBo, PCU, R2PCIe, UBox, HA, iMC, DDRIO).  Not the CBDMA
 * engines 04.0-7 (6f20-6f27, ioatdma: devices) nor 6f50-6f5f (Broadwell-DE's DMA engines among them). */
static const struct pci_id_range bdx_own_fns[] = { { 0x6f00, 0x6f00 }, { 0x6f10, 0x6f1f }, { 0x6f28, 0x6f2f },
						   { 0x6f30, 0x6f4f }, { 0x6f60, 0x6fff }, { 0, 0 } };
/* RAPL: Linux 6.12 rapl.c model_hsx, rapl_defaults_hsw_server; max_w: twice Intel ARK's E7-8894 v4, 165 W */
static const struct energy_part bdx_energy = { PLAT_RAPL_PKG_DRAM, PLAT_RAPL_DRAM_15_3, 0, ENERGY_MSR_DIE, 330,
					       "rapl.c model_hsx, rapl_defaults_hsw_server" };
/* Clocks: as Haswell-EP's (a ring of its own clock, DDR4-1333 to -2400, SNB-EP's QPI rates) */
static const struct plat_clocks bdx_clocks = {
	{ { 0.8 * PLAT_GHZ, 3.5 * PLAT_GHZ, "BDX uncore clock: conservative 0.8-3.5 GHz (no seed bound)" },
	  { PLAT_DDR_HALF(1333, 2400), "BDX DCLK: DDR4-1333 to -2400, half the DDR rate (seed 000 L2255; speeds not in a seed)" },
	  { PLAT_LINK_GTS(5.6, 9.6), "BDX QPI clock: SNB-EP's QPI rates / 8 (seed 000 L3608-3613, L3732)" } } };
/* Attribution: as Haswell-EP's (Linux bdx_uncore_cbox: HSWEP_CB0_MSR_PMON_BOX_FILTER_TID 5:0) */
static const struct attrib_plat bdx_attrib = { "UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182", 1, 6,
					       "demand data reads that missed the LLC" };

/* The memory controllers as Linux's EDAC driver names them (platform_facts.h struct mem_layout) */
static const struct mem_layout bdx_mem = { "Broadwell SrcID#", "_Ha#", 4, 4, 2,
	.source = "Linux 6.12 sb_edac.c \"Broadwell SrcID#%d_Ha#%d\"; uncore_snbep.c bdx_uncore_imc num_boxes 8: IMC0 and IMC1 channels 0-3" };

const struct platform_desc platform_bdx = {
	.name = "bdx", .desc = "Broadwell-EP (Xeon E5 v4)",
	.family = 6, .models = bdx_models,
	.types = bdx_types, .ntypes = N(bdx_types),
	/* bdx_uncore_pci_init: snbep_pci2phy_map_init(0x6f1e, SNBEP_CPUNODEID 0x40, SNBEP_GIDNIDMAP 0x54, reverse) */
	.ubox_devid = 0x6f1e, .cpunodeid = 0x40, .gidnidmap = 0x54,
	.events = &uc_events_bdx, .metrics_json = uc_metrics_bdx,
	.perfmon_filters = uc_events_bdx_filters, .perfmon_folds = uc_events_bdx_folds,
	.perf_aliases = bdx_aliases, .perf_terms = bdx_terms, .own_fns = bdx_own_fns,
	.energy = &bdx_energy, .clocks = &bdx_clocks, .attrib = &bdx_attrib, .mem = &bdx_mem,
	.ufreq_msr = 1, /* Linux 6.12 uncore-frequency.c intel_uncore_cpu_ids: BROADWELL_X */
};
