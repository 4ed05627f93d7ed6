/*
 * Granite Rapids (Xeon 6 with P-cores, family 6 models 0xAD and 0xAE = GNR-D).  Boxes come from the PMON
 * discovery tables; the unit types are those Linux 6.12.117 names for GNR (uncore_snbep.c gnr_uncores[] as
 * 6d642735cdb6 made it: Linux 6.14, 6.12.y from March 2026; 6.12.0 ignores five, SINCE_6D64 below;
 * indexed by discovery type), with the driver's quirks: no type is ignored (gnr_uncore_units_ignore is
 * empty: the UPI entries are good here, unlike SPR/EMR's), the types gnr_uncores[] has no entry for (3, 7,
 * 9-11, 14, 19: NULL) are the generic types "type<N>" as the driver's uncore_type_<N>[_<box>] PMUs
 * (uncore_get_uncores, intel_uncore_generic_init_uncores; disc_unnamed), the CHA count is discovery's (gnr_uncore_cpu_init
 * does not read MSR 0x2FFE), no IMC free-running PMU.  Each IMC channel has two schedulers (SCH0, SCH1)
 * with their own CAS counts (perfmon UNC_M_CAS_COUNT_SCH0/SCH1, events 0x05/0x06): memory metrics add both.
 * Sierra Forest and Clearwater Forest share this layout (platforms/srf, platforms/cwf when built).
 */
#include <stddef.h>
#include "discover/discover.h"
#include "platform/xeon_disc.h"
#include "gnr.h"

UC_PLATFORM_TABLES(gnr);

#define N(a) UC_ARRAY_LEN(a)

/* MMIO IMC: controls 4 bytes apart, counters 8 (Linux SPR_UNCORE_MMIO_COMMON_FORMAT, generic MMIO ops);
 * the fixed DCLK counter at +0x38, its control at +0x54 (gnr_uncore_imc: SNR_IMC_MMIO_PMON_FIXED_CTR/CTL,
 * 48 bits), en 22 and rst 19 as on EMR (seed 001 T2-129). */
#define MMIO4 .space = UC_MMIO, .ctl_stride = 4, .ctr_stride = 8, .ctl_bytes = 4
/* MMIO with 8-byte control steps (Linux SPR_UNCORE_MMIO_OFFS8_COMMON_FORMAT: b2cxl, and spr_uncore_cxlcm/dp), which
 * Linux writes with writel, 32 bits (spr_uncore_mmio_enable_event): the umask extension the direct backend writes
 * cannot reach these registers through perf (perf_reach.c) */
#define MMIO8 .space = UC_MMIO, .ctl_stride = 8, .ctr_stride = 8, .ctl_bytes = 8
/* Types Linux 6.12.0 to 6.13 register no PMU for (gnr_uncore_units_ignore: UNCORE_SPR_UPI, UNCORE_GNR_TYPE_15,
 * UNCORE_GNR_B2UPI, UNCORE_GNR_TYPE_21, _22), which 6d642735cdb6 named; types 12 and 13 were NULL in its
 * gnr_uncores[], so uncore_type_12/13 PMUs (the perf backend finds them by disc_type) */
#define SINCE_6D64 .perf_since = "Linux 6.14, and 6.12.y after its March 2026 backport (6d642735cdb6)"

/* IIO free-running counters (Linux 6.12 gnr_iio_freerunning, read through spr_uncore_iio_free_running):
 * IOCLK 0x290E + 0x10 per stack; BW_IN port p 0x360E + 0x10 p + 0x80 per stack; BW_OUT 0x2E0E + 0x10 p
 * + 0x80 per stack; 48 bits.  Umasks: 0x10 x (group + 1) + index, the driver's encoding. */
#define GNR_BW(dir, base, um, p) { "bw_" dir "_port" #p, (base) + 0x10 * (p), 48, (um) + (p), 0x80, NULL }
static const struct freerun iio_fr[] = {
	{ "ioclk", 0x290e, 48, 0x10, 0x10, NULL },
	GNR_BW("in", 0x360e, 0x20, 0), GNR_BW("in", 0x360e, 0x20, 1), GNR_BW("in", 0x360e, 0x20, 2), GNR_BW("in", 0x360e, 0x20, 3),
	GNR_BW("in", 0x360e, 0x20, 4), GNR_BW("in", 0x360e, 0x20, 5), GNR_BW("in", 0x360e, 0x20, 6), GNR_BW("in", 0x360e, 0x20, 7),
	GNR_BW("out", 0x2e0e, 0x30, 0), GNR_BW("out", 0x2e0e, 0x30, 1), GNR_BW("out", 0x2e0e, 0x30, 2), GNR_BW("out", 0x2e0e, 0x30, 3),
	GNR_BW("out", 0x2e0e, 0x30, 4), GNR_BW("out", 0x2e0e, 0x30, 5), GNR_BW("out", 0x2e0e, 0x30, 6), GNR_BW("out", 0x2e0e, 0x30, 7),
};

static const struct box_type cha = {
	.name = "cha", .perf = "cha", .desc = "caching and home agent with its LLC slice and mesh stop (CHA)", .prefix = "UNC_CHA", .perfmon = "CHA", .nctr = 4,
	XD_DISC(0), XD_MSR_STEP, .max_boxes = 144, .lay = &xd_lay_cha, XD_CHA_FILTERS,
};
static const struct box_type iio = {
	.name = "iio", .perf = "iio", .desc = "integrated I/O stack (IIO)", .prefix = "UNC_IIO", .perfmon = "IIO", .nctr = 4,
	XD_DISC(1), XD_MSR_STEP, .max_boxes = 16, .lay = &xd_lay_iio, XD_IIO_FIELDS, .fr = iio_fr, .nfr = N(iio_fr),
};
static const struct box_type irp = {
	.name = "irp", .perf = "irp", .desc = "I/O coherency ring port of an IIO stack (IRP)", .prefix = "UNC_I", .perfmon = "IRP", .nctr = 4, /* perfmon GNR IRP: counters 0-3 */
	XD_DISC(2), XD_MSR_STEP, .max_boxes = 16, .lay = &xd_lay_ext24,
};
static const struct box_type pcu = {
	.name = "pcu", .perf = "pcu", .desc = "power control unit (PCU)", .prefix = "UNC_P", .perfmon = "PCU", .nctr = 4,
	XD_DISC(4), XD_MSR_STEP, .max_boxes = 1, .lay = &xd_lay_base, XD_PCU_FILTERS,
};
/* gnr_uncore_ubox: the generic discovery format (no umask_ext) */
static const struct box_type ubox = {
	.name = "ubox", .perf = "ubox", .desc = "system configuration controller (UBox)", .prefix = "UNC_U", .perfmon = "UBOX", .nctr = 2,
	XD_DISC(5), XD_MSR_STEP, .max_boxes = 1, .lay = &xd_lay_base,
};
static const struct box_type imc = {
	.name = "imc", .perf = "imc", .desc = "integrated memory controller channel with two schedulers (iMC)", .prefix = "UNC_M", .perfmon = "IMC", .nctr = 4,
	XD_DISC(6), MMIO4, .max_boxes = 16, .lay = &xd_lay_ext24,
	.has_fixed = 1, .fixed_ctl = 0x54, .fixed_ctr = 0x38, .fixed_width = 48, .fixed_en = 1u << 22, .fixed_rst = 1u << 19,
};
static const struct box_type upi = {
	.name = "upi", .perf = "upi", .desc = "UPI link layer (UPI LL)", .prefix = "UNC_UPI", .perfmon = "UPI LL|UPI", .nctr = 4,
	XD_DISC(8), XD_PCI_STEP, SPR_PCI_OPS, .max_boxes = 6, .lay = &xd_lay_ext24, SINCE_6D64,
};
static const struct box_type cxlcm = {
	.name = "cxlcm", .perf = "cxlcm", .desc = "CXL cache/mem protocol stack (CXL CM)", .prefix = "UNC_CXLCM", .perfmon = "CXLCM", .nctr = 8,
	XD_DISC(12), MMIO8, .max_boxes = 8, .lay = &xd_lay_cxl,
};
static const struct box_type cxldp = {
	.name = "cxldp", .perf = "cxldp", .desc = "CXL data path (CXL DP)", .prefix = "UNC_CXLDP", .perfmon = "CXLDP", .nctr = 4,
	XD_DISC(13), MMIO8, .max_boxes = 8, .lay = &xd_lay_cxl,
};
/* gnr_uncore_b2hot and gnr_uncore_mdf_sbo: the generic discovery format; MSR units here as EMR's MDF */
static const struct box_type b2hot = {
	.name = "b2hot", .perf = "b2hot", .desc = "mesh to home-agent tracker bridge (B2HOT)", .prefix = "UNC_B2HOT", .perfmon = "B2HOT", .nctr = 4,
	XD_DISC(15), XD_MSR_STEP, .max_boxes = 16, .lay = &xd_lay_base, SINCE_6D64,
};
static const struct box_type b2cmi = {
	.name = "b2cmi", .perf = "b2cmi", .desc = "mesh to memory controller bridge (B2CMI, the M2M of GNR)", .prefix = "UNC_B2CMI", .perfmon = "B2CMI", .nctr = 4,
	XD_DISC(16), XD_PCI_STEP, SPR_PCI_OPS, .max_boxes = 16, .lay = &xd_lay_ext24,
};
static const struct box_type b2cxl = {
	.name = "b2cxl", .perf = "b2cxl", .desc = "mesh to CXL bridge (B2CXL)", .prefix = "UNC_B2CXL", .perfmon = "B2CXL", .nctr = 4,
	XD_DISC(17), MMIO8, .max_boxes = 16, .lay = &xd_lay_ext24,
};
static const struct box_type b2upi = {
	.name = "b2upi", .perf = "b2upi", .desc = "mesh to UPI bridge (B2UPI, the M3UPI of GNR)", .prefix = "UNC_B2UPI", .perfmon = "B2UPI", .nctr = 4,
	XD_DISC(18), XD_PCI_STEP, SPR_PCI_OPS, .max_boxes = 6, .lay = &xd_lay_ext24, SINCE_6D64,
};
static const struct box_type mdf = {
	.name = "mdf", .perf = "mdf_sbo", .desc = "multi-die fabric stop (MDF SBO)", .prefix = "UNC_MDF", .perfmon = "MDF", .nctr = 4,
	XD_DISC(20), XD_MSR_STEP, .max_boxes = 32, .lay = &xd_lay_base,
};
static const struct box_type pciex16 = {
	.name = "pciex16", .perf = "pciex16", .desc = "PCIe x16 controller (PCIEX16)", .prefix = "UNC_PCIEX16", .perfmon = "PCIEX16", .nctr = 4,
	XD_DISC(21), XD_PCI_STEP, SPR_PCI_OPS, .max_boxes = 16, .lay = &xd_lay_ext24, SINCE_6D64,
};
static const struct box_type pciex8 = {
	.name = "pciex8", .perf = "pciex8", .desc = "PCIe x8 controller (PCIEX8)", .prefix = "UNC_PCIEX8", .perfmon = "PCIEX8", .nctr = 4,
	XD_DISC(22), XD_PCI_STEP, SPR_PCI_OPS, .max_boxes = 16, .lay = &xd_lay_ext24, SINCE_6D64,
};

const struct box_type *const gnr_types[] = { &cha, &iio, &irp, &pcu, &ubox, &imc, &upi, &cxlcm, &cxldp,
						    &b2hot, &b2cmi, &b2cxl, &b2upi, &mdf, &pciex16, &pciex8 };
/* Linux intel-family.h INTEL_GRANITERAPIDS_X 0xAD, INTEL_GRANITERAPIDS_D 0xAE (uncore.c intel_uncore_match) */
static const int gnr_models[] = { 0xad, 0xae, 0 };

/* The driver's IMC aliases (gnr_uncore_imc_events): one read and one write CAS alias per scheduler, a
 * CAS moving 64 bytes (64 / 2^20 MiB). */
/* The uncore's own register functions Intel's two-socket Birch Stream board lists (linuxhw/LsPCI commit
 * b6f7d8f21b9a2b2be1e232663e46b81e2fec611c, Server/Intel/BIRCHSTREAM/BIRCHSTREAM/1F03C9158405/XUBUNTU-24.04/
 * 6.8.0-48-GENERIC/X86_64/F71EAE46A6; tests/snapshots/field/gnr-birchstream-2s.source): on every stack's root
 * bus Memory Map/VT-d 09a2 (00.0), Mesh 2 PCIe 09a4 (00.1), RAS 09a3 (00.2) and the root complex event
 * collector 0b23 (00.4, class 0x0807, driver pcieport: it owns no traffic, the stack's RCiEPs do); on the
 * accelerator stacks 00 and 80 the MSM 09a6 and PMON MSM 09a7 (03.0, 03.1, the discovery DVSEC); on the UBox
 * buses 7e/7f and fe/ff 3250-3252 (00.0-2), the integrated error handler 0998 (02.0, a host bridge by class),
 * 3258 (05.0-09.0), 324a (05.1-06.5, class 0x1101; pcm cpucounters.cpp M2M_DEV_IDS), 344f/3457 (0d.0-1),
 * 324c (0e.0-1d.5) and 324d (7f:00.0-0f.5), UPI 3240-3242 (pcm UPI_DEV_IDS 0x3241) and 3245 (7f:10.0-1d.0).
 * The DSA 0b25, IAA 0cfe, QAT 4944 and DLB 2714 beside them move data and are devices.  Sierra Forest and
 * Clearwater Forest share the list unchecked (no public listing of theirs read). */
const struct pci_id_range gnr_own_fns[] = { { 0x0998, 0x0998 }, { 0x09a2, 0x09a4 }, { 0x09a6, 0x09a7 },
					     { 0x0b23, 0x0b23 }, { 0x3240, 0x325f }, { 0x344f, 0x344f },
					     { 0x3457, 0x3457 }, { 0, 0 } };

const struct perf_alias gnr_aliases[] = {
	{ "imc", "clockticks", "event=0x01,umask=0x00", 0, NULL },
	SNR_IIO_FREERUNNING_ALIASES, /* spr_uncore_iio_free_running's events */
	{ "imc", "cas_count_read_sch0", "event=0x05,umask=0xcf", 6.103515625e-5, "MiB" },
	{ "imc", "cas_count_read_sch1", "event=0x06,umask=0xcf", 6.103515625e-5, "MiB" },
	{ "imc", "cas_count_write_sch0", "event=0x05,umask=0xf0", 6.103515625e-5, "MiB" },
	{ "imc", "cas_count_write_sch1", "event=0x06,umask=0xf0", 6.103515625e-5, "MiB" },
	{ 0 },
};
/* The CHA's tid_en (format tid_en2, config:16) comes with filter_tid (our tid sets it). */
const struct perf_term gnr_terms[] = { { "cha", "tid_en", NULL, 0, 0 }, { 0 } };

/* Every IIO stack has the free-running counters, at addresses of its own (iio_fr), not in discovery. */
int gnr_fixup(struct disc_ctx *c)
{
	for (int k = 0; k < c->n; k++)
		if (c->v[k].t == &iio) {
			c->v[k].fr_base = 0;
			c->v[k].nfr = N(iio_fr);
		}
	return 0;
}

_Static_assert(N(gnr_types) == GNR_NTYPES, "gnr.h: GNR_NTYPES is the number of gnr_types");

/* RAPL: Linux 6.12 reads Granite Rapids' and later parts' RAPL through TPMI (intel_rapl_tpmi.c: package,
 * memory -> dram, system -> psys) and neither rapl.c nor rapl_ids names them; TPMI has a system (psys) domain
 * only where the firmware gives one (parse_one_domain: TPMI_RAPL_DOMAIN_ROOT).  Intel PCM reads MSRs 0x611/0x619
 * on GNR and SRF with MSR_RAPL_POWER_UNIT's unit (cpucounters.h packageEnergyMetricsAvailable,
 * dramEnergyMetricsAvailable, getDRAMConsumedJoules) and MSR 0x64D at 1 J on a CPU of socket 0
 * (systemEnergyMetricAvailable, getSystemConsumedJoules; intel/pcm 0fae0de1): so psys is listed, read from MSR
 * 0x64D where the node has it, and through powercap or perf where TPMI shows one. */
/* max_w: twice Intel ARK's Xeon 6980P, 500 W */
static const struct energy_part gnr_energy = { PLAT_RAPL_PKG_DRAM_PSYS, 0, 1.0, ENERGY_MSR_SOCKET, 1000,
					       "intel_rapl_tpmi.c; PCM for the MSRs, 0x64D at 1 J" };
/* Clocks: MRDIMM 8800 (the speed health's channel bandwidth uses) and UPI 24 GT/s (Xeon 6) */
static const struct plat_clocks gnr_clocks = {
	{ { PLAT_MESH, "GNR mesh clock: conservative 0.8-3 GHz" },
	  { PLAT_DDR5(8800), "GNR DCLK: DDR5-3200 / 4 to MRDIMM-8800 / 2 (JESD79-5C)" },
	  { PLAT_LINK_GTS(4.8, 24), "GNR UPI clock: 4.8-24 GT/s / 8 (seed 001 L7957)" } } };
/* Attribution: the discovery parts' CHA filter tid 9:0 (seed 001 T2-75: [9:3] Core-ID, [2:0] Thread) */
static const struct attrib_plat gnr_attrib = { "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 10, "the core's requests that missed the LLC" };
/* SNC: perf's gnr_snc2_map {1, 1, 0, 0} and snc3_map {1, 1, 0, 0, 2, 2} (tools/perf/arch/x86/util/pmu.c) */
static const struct snc_geom gnr_snc[] = {
	{ 2, 4, { 1, 1, 0, 0 }, "perf's gnr_snc2_map (tools/perf/arch/x86/util/pmu.c)" },
	{ 3, 6, { 1, 1, 0, 0, 2, 2 }, "perf's snc3_map (tools/perf/arch/x86/util/pmu.c)" },
	{ 0, 0, { 0 }, NULL },
};

/* Birch Stream (BirchStreamPlatform, pcm-iio-topology.cpp, intel/pcm 0fae0de1), which pcm uses for Granite Rapids
 * and Sierra Forest alone (not GNR-D): "Bifurcated Root Ports A-H appear as devices 2-9", part = device - 2, eight
 * parts as perfmon's UNC_IIO_*.PART0-PART7 (port masks 0x01-0x80, GNR/SRF uncore.json, intel/perfmon 6dadedf3).
 * pcm's loop (birchStreamPciStackProbe, slot < 9) stops at device 8 and so lists nothing of port H, where Intel's
 * Birch Stream board has a root port (14:09.0, an xHCI below it: tests/snapshots/field/gnr-birchstream-2s.source):
 * this follows the rule pcm states, part 7 there, not its loop; the accelerator stacks' DSA, IAA, QAT and DLB
 * (birchStreamAcceleratorStackProbe); CPU bus -> IIO PMU srf_sad_to_pmu_id_mapping: PE6 (UPI0) 0, PE2 1, PE0 2, PE1 3, PE3 4, PE7 5, HC0 8, HC1 12, HC3 16, HC2 20,
 * PE5 26, PE8 28, PE4 29 (SRF_*_SAD_BUS_ID); HC3 is PMU 14 and HC2 PMU 9 (SRF_HC3_PMON_ID, SRF_HC2_PMON_ID as
 * intel/pcm cbeba329 "Fix incorrect PMON IDs for HCx stacks", 2024-05-19, set them: before it 16 -> 9 and
 * 20 -> 14).  On FlexUPI configurations buses 26 and 29 are PMUs 10 and 13 instead, which pcm's table (its first
 * entry of a repeated key) does not tell apart either.  The HC stacks are CPU buses 8, 12, 16 and 20
 * (SRF_HC0-3_SAD_BUS_ID). */
#define NO -1
static const signed char gnr_cpubus[IIO_MSM_CPUBUSES] = { 0, 2, 3, 4, 5, 7, NO, NO, 1, NO, NO, NO, 6, NO, NO, NO,
							  14, NO, NO, NO, 9, NO, NO, NO, NO, NO, 12, NO, 8, 11, NO, NO };
#undef NO
static const int gnr_iio_models[] = { 0xad, 0xaf, 0 }; /* INTEL_GRANITERAPIDS_X, INTEL_ATOM_CRESTMONT_X */
const struct iio_layout gnr_iio = { .models = gnr_iio_models, .port_lo = 2, .port_hi = 9, .accel = 1,
				    .cpubus_pmu = gnr_cpubus, .hc_cpubuses = 1u << 8 | 1u << 12 | 1u << 16 | 1u << 20 };

const struct platform_desc platform_gnr = {
	.name = "gnr", .desc = "Granite Rapids (Xeon 6 with P-cores)",
	.family = 6, .models = gnr_models,
	/* tables placed by their devices' NUMA nodes, no UBox map (Linux 6.12 gnr_uncore_pci_init); the PMON
	 * MSR range 0x2000-0x3FFF; U_MSR_PMON_GLOBAL_CTL 0x2FF0 and GLOBAL_STATUS 0x2FF2-0x2FF3 as EMR
	 * (seed 001 T1-1, T1-2): GNR_UNCORE in gnr.h */
	GNR_UNCORE(gnr),
	.energy = &gnr_energy, .clocks = &gnr_clocks, .attrib = &gnr_attrib, .snc = gnr_snc,
	/* gnr_iio_freerunning's bw_in_port scale 3.0517578125e-5 MiB (Linux 6.12): 32 bytes a count */
	.iio_fr_bytes = 32, .iio = &gnr_iio,
};
