/*
 * The simulator's register map of Granite Rapids: what a unit's registers are relative to its unit
 * control (MSR and MMIO units: the builder places each and publishes the address in its discovery table)
 * or as PCI config offsets.  Sources: the Linux 6.12 driver (uncore_snbep.c gnr_uncores[], spr_uncore_*
 * formats and masks; uncore_discovery.c generic ops: control 0 and counter 0 offsets from the table,
 * MSR steps 1, PCI 8, MMIO controls 4 apart or 8 with OFFS8, counters 8) and seed 001 (EMR) for the bits the
 * generation shares (unit control Table 1-3, counter control Table 1-5).  Addresses the public sources
 * leave open are the simulator's choice, marked "placed here": discovery publishes them, so the library
 * must find them from the table alone.
 */
#include <stddef.h>
#include "sim/sim_disc_map.h"
#include "sim/sim_only.h"

#define N(a) UC_ARRAY_LEN(a)

/* PCI units: 64-bit controls and counters 8 bytes apart (Linux generic PCI ops); offsets placed here. */
#define PCI_UNIT(b) .space = SIM_PCI, .ctl_stride = 8, .ctr_stride = 8, .ctl_bytes = 8, .nctr = 4, .box_ctl = (b), \
	.ctr0 = (b) + 0x08, .ctl0 = (b) + 0x28, .status = (b) + 0x48
#define PCIE5 .space = SIM_PCI, .ctl_stride = 8, .ctr_stride = 8, .ctl_bytes = 8, .nctr = 4, .box_ctl = 0x620, \
	.box_ctl_bytes = 8, .ctl0 = 0x630, .ctr0 = 0x650, .status = 0x670
/* MMIO units with 8-byte steps (Linux SPR_UNCORE_MMIO_OFFS8_COMMON_FORMAT) */
#define MMIO8(n) .space = SIM_MMIO, .ctl0 = 0x08, .ctl_stride = 8, .ctr0 = 0x08 + 8 * (n), .ctr_stride = 8, \
	.status = 0x08 + 16 * (n), .nctr = (n), .ctl_bytes = 8
/* MMIO units of the generic discovery driver: controls 4 apart, counters 8 (uncore_discovery.c
 * generic_uncore_mmio_ops, uncore_pci_event_ctl without OFFS8); offsets placed here */
#define GEN_MMIO .space = SIM_MMIO, .ctl0 = 0x40, .ctl_stride = 4, .ctr0 = 0x08, .ctr_stride = 8, .status = 0x5c, \
	.nctr = 4, .ctl_bytes = 4, CTL(BASE)
/* Device ids of the PCI units: UPI, B2CMI and B2UPI as the Birch Stream listing has them (board.c: 3241, 324a,
 * 3245), which PCM 202502 looks up (cpucounters.cpp UPI_DEV_IDS, M2M_DEV_IDS); the PCIe units' placed here (Linux
 * finds GNR's PCI units through the discovery table alone, gnr_uncore_units_ignore being empty) */
#define IDS(x) .ids = { x, x, x, x, x, x, x, x }

/* IIO free-running counters, Linux 6.12 gnr_iio_freerunning: IOCLK 0x290E + 0x10 per stack; BW_IN port p
 * 0x360E + 0x10 p + 0x80 per stack, BW_OUT 0x2E0E + 0x10 p + 0x80 per stack; 48 bits. */
#define BW(dir, base, p) { "bw_" dir "_port" #p, (base) + 0x10 * (p), 48, 0x80, NULL }
static const struct sim_fr iio_fr[] = {
	{ "ioclk", 0x290e, 48, 0x10, NULL },
	BW("in", 0x360e, 0), BW("in", 0x360e, 1), BW("in", 0x360e, 2), BW("in", 0x360e, 3),
	BW("in", 0x360e, 4), BW("in", 0x360e, 5), BW("in", 0x360e, 6), BW("in", 0x360e, 7),
	BW("out", 0x2e0e, 0), BW("out", 0x2e0e, 1), BW("out", 0x2e0e, 2), BW("out", 0x2e0e, 3),
	BW("out", 0x2e0e, 4), BW("out", 0x2e0e, 5), BW("out", 0x2e0e, 6), BW("out", 0x2e0e, 7),
};

/* CHA FILTER0 at +0xE (Linux SPR_C0_MSR_PMON_BOX_FILTER0 - SPR_C0_MSR_PMON_BOX_CTL; tid 9:0). */
static const struct sim_filt cha_filt[] = { { 0xe, 0, 0x3ffull } };
/* PCU_MSR_PMON_BOX_FILTER at +0xE, four 8-bit frequency bands (seed 001 T2-419: 0x2FCE on EMR), as the platform
 * table has it (xd_pcu_filt) and PCM 202502 writes it on Birch Stream (cpucounters.cpp: the PCU from the discovery
 * table, its filter the unit control + 0xE) */
static const struct sim_filt pcu_filt[] = { { 0xe, 0, 0xffffffffull } };

const struct sim_unit sim_gnr_units[] = {
	{ .name = "cha", CHA_UNIT,
	  .filt = cha_filt, .nfilt = N(cha_filt), .src = "Linux spr_uncore_chabox: tid_en 16, umask_ext 63:32, filter tid" },
	{ .name = "iio", IIO_UNIT, .fr = iio_fr, .nfr = N(iio_fr),
	  .src = "Linux spr_uncore_iio: thresh 35:24, ch_mask 47:36, fc_mask 50:48; gnr_iio_freerunning" },
	{ .name = "irp", MSR_UNIT(4), CTL(BASE | EXT24), .disc_type = 2, .src = "Linux spr_uncore_irp; 4 counters (perfmon GNR IRP: 0,1,2,3)" },
	{ .name = "pcu", MSR_UNIT(4), CTL(BASE), .disc_type = 4, .filt = pcu_filt, .nfilt = N(pcu_filt),
	  .src = "Linux spr_uncore_pcu; filter +0xE (seed 001 T2-419, PCM 202502)" },
	/* UBox at 0x3FF0 (PCM 202502 src/types.h BHS_UBOX_MSR_PMON_BOX_CTL_ADDR; CTL0 0x3FF2, CTR0 0x3FF8) with the UCLK fixed
	 * counter 0x3FFD and its control 0x3FFE (BHS_UCLK_FIXED_CTR_ADDR/_CTL_ADDR; enable bit 22, PCM
	 * UCLK_FIXED_CTL_EN), a global register as on SPR: the unit's freeze leaves it counting */
	{ .name = "ubox", MSR_UNIT(2), CTL(BASE), .disc_type = 5, .fixed_ctl = 0xe, .fixed_ctr = 0xd, .fixed_width = 48,
	  .fixed_en = 1u << 22, .fixed_global = 1,
	  .src = "Linux gnr_uncore_ubox (generic format); 2 counters (perfmon UBOX 0,1); PCM BHS_UBOX_*, BHS_UCLK_FIXED_*" },
	/* IMC channel, MMIO: control 0 at +0x40, counter 0 at +0x08, fixed DCLK counter +0x38 with its control at
	 * +0x54 (Linux SNR_IMC_MMIO_PMON_CTL0/CTR0/FIXED_CTR/FIXED_CTL, gnr_uncore_imc), en 22, rst 19 (T2-129) */
	{ .name = "imc", .space = SIM_MMIO, .ctl0 = 0x40, .ctl_stride = 4, .ctr0 = 0x08, .ctr_stride = 8, .status = 0x5c,
	  .nctr = 4, .ctl_bytes = 4, CTL(BASE | EXT24), .disc_type = 6, .fixed_ctl = 0x54, .fixed_ctr = 0x38, .fixed_width = 48,
	  .fixed_en = 1u << 22, .fixed_rst = 1u << 19, .src = "Linux gnr_uncore_imc, SNR_IMC_MMIO_PMON_*" },
	/* UPI: a 64-bit unit control, as PCM 202502 reads the table's UPI units (getPCICFGPMUsFromDiscovery of type 8) */
	{ .name = "upi", PCI_UNIT(0x318), .box_ctl_bytes = 8, CTL(BASE | EXT24), .disc_type = 8, IDS(0x3241),
	  .src = "Linux gnr_uncore_upi (PCI, table); 3241 as Birch Stream lists it" },
	{ .name = "cxlcm", MMIO8(8), CTL_NOOV(BASE | EXT24), .disc_type = 12, .src = "Linux spr_uncore_cxlcm (8 counters)" },
	{ .name = "cxldp", MMIO8(4), CTL_NOOV(BASE | EXT24), .disc_type = 13, .src = "Linux spr_uncore_cxldp" },
	{ .name = "b2hot", MSR_UNIT(4), CTL(BASE), .disc_type = 15, .src = "Linux gnr_uncore_b2hot (generic format)" },
	/* B2CMI: unit control 0x438, counter 0 0x440, control 0 0x468, 8 bytes apart, as PCM 202502 programs GNR's and SRF's
	 * B2CMI (src/types.h SERVER_M2M_PCI_PMON_BOX_CTL/CTR0/CTL0_ADDR, cpucounters.cpp populateM2MPMUs "B2CMI PMUs"), the
	 * place of SPR's M2M; status 0x4A8 as SPR's (placed here) */
	{ .name = "b2cmi", .space = SIM_PCI, .ctl_stride = 8, .ctr_stride = 8, .ctl_bytes = 8, .nctr = 4, .box_ctl = 0x438,
	  .ctr0 = 0x440, .ctl0 = 0x468, .status = 0x4a8, CTL(BASE | EXT24), .disc_type = 16, IDS(0x324a),
	  .src = "Linux gnr_uncore_b2cmi (PCI); 324a as Birch Stream lists it, PCM M2M_DEV_IDS and SERVER_M2M_PCI_PMON_*" },
	{ .name = "b2cxl", MMIO8(4), CTL(BASE | EXT24), .disc_type = 17, .src = "Linux gnr_uncore_b2cxl (MMIO, OFFS8)" },
	/* B2UPI: unit control 0x408, counter 0 0x410, control 0 0x430 (PCM 202502 src/types.h BHS_M3UPI_PCI_PMON_*) */
	{ .name = "b2upi", PCI_UNIT(0x408), CTL(BASE | EXT24), .disc_type = 18, IDS(0x3245),
	  .src = "Linux gnr_uncore_b2upi (PCI); 3245 as Birch Stream lists it; PCM BHS_M3UPI_PCI_PMON_*" },
	{ .name = "mdf", MSR_UNIT(4), CTL(BASE), .disc_type = 20, .src = "Linux gnr_uncore_mdf_sbo (generic format)" },
	/* PCIe Gen5 x16 and x8: unit control 0x620 (64 bits: PCM reads the discovery table's PCI units as 64-bit registers,
	 * cpucounters.cpp getPCICFGPMUsFromDiscovery), control 0 0x630, counter 0 0x650, 8 bytes apart (PCM 202502 src/types.h
	 * BHS_PCIE_GEN5_PCI_PMON_BOX_CTL/CTL0/CTR0_ADDR); status 0x670 placed here */
	{ .name = "pciex16", PCIE5, CTL(BASE | EXT24), .disc_type = 21, IDS(0x3d50), .src = "Linux gnr_uncore_pciex16 (PCI); PCM BHS_PCIE_GEN5_*" },
	{ .name = "pciex8", PCIE5, CTL(BASE | EXT24), .disc_type = 22, IDS(0x3d51), .src = "Linux gnr_uncore_pciex8 (PCI); PCM BHS_PCIE_GEN5_*" },
	/* The types Linux 6.12's gnr_uncores[] has no entry for (NULL at 3, 7, 9-11, 14, 19): the driver's generic
	 * discovery PMUs uncore_type_<N>[_<box>] (uncore_discovery.c generic ops and formats).  Public sources say
	 * neither what they are on GNR nor how they are reached: their access (MSR, or MMIO with the generic MMIO
	 * steps, controls 4 apart and counters 8) and addresses are placed here; each counts the uncore clock
	 * at event 0x01. */
	{ .name = "type3", MSR_UNIT(4), CTL(BASE), .disc_type = 3, .src = "Linux generic discovery PMU (gnr_uncores[3] NULL)" },
	{ .name = "type7", GEN_MMIO, .disc_type = 7, .src = "Linux generic discovery PMU (gnr_uncores[7] NULL), MMIO" },
	{ .name = "type9", MSR_UNIT(4), CTL(BASE), .disc_type = 9, .src = "Linux generic discovery PMU (gnr_uncores[9] NULL)" },
	{ .name = "type10", MSR_UNIT(4), CTL(BASE), .disc_type = 10, .src = "Linux generic discovery PMU (gnr_uncores[10] NULL)" },
	{ .name = "type11", MSR_UNIT(4), CTL(BASE), .disc_type = 11, .src = "Linux generic discovery PMU (gnr_uncores[11] NULL)" },
	{ .name = "type14", GEN_MMIO, .disc_type = 14, .src = "Linux generic discovery PMU (gnr_uncores[14] NULL), MMIO" },
	{ .name = "type19", MSR_UNIT(2), CTL(BASE), .disc_type = 19, .src = "Linux generic discovery PMU (gnr_uncores[19] NULL)" },
};
const int sim_gnr_nunits = N(sim_gnr_units);
/* A UBox node-id device as SPR's (0x3250, CPUNODEID 0xC0, GIDNIDMAP 0xD4: Linux spr_uncore_pci_init), placed
 * here: Linux 6.12 reads none of it on GNR (gnr_uncore_pci_init maps no bus), it places each discovery table by
 * its device's NUMA node.  Kept so that a map that lies (fault swapped:busmap) proves nothing reads it either. */
const struct sim_ubox_dev sim_gnr_ubox = { 0x3250, 0xc0, 0xd4 };
/* global control 0x2FF0 (frz_all bit 0), status 0x2FF2-0x2FF3: the discovery global block names them */
const struct sim_global sim_gnr_global = { 0x2ff0, 0x2ff2, 2, 1ull << 0, 0 };
