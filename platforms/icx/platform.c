/*
 * Ice Lake-SP (Xeon Scalable 3rd gen, family 6 model 0x6A; Ice Lake-D 0x6C).  No discovery tables: every
 * register is fixed per model, as Linux 6.12 arch/x86/events/intel/uncore_snbep.c programs it
 * (icx_msr_uncores[], icx_pci_uncores[], icx_uncore_pci_ids[], icx_mmio_uncores[]).  New against
 * Skylake-SP: MSR boxes at irregular offsets (icx_cha_msr_offsets, icx_msr_offsets), 64-bit control words
 * with a umask extension, the iMC channels in MMIO windows that the memory controller device 0x3451 places,
 * and free-running IIO and iMC counters.  The UBox and PCU are Skylake-SP's (skx.h).  Where Intel's JSON
 * and the driver disagree, json_differences.txt and regs_differences.txt say which we chose.
 */
#include <stddef.h>
#include "platform/xeon_disc.h"
#include "platform/xeon_ep.h"
#include "../skx/skx.h"

UC_PLATFORM_TABLES(icx);
extern const struct pci_id_range icx_own_functions[]; /* board.c */

#define ICX_COMMON .disc_type = -1, .bc = &box_ctl_skx, .box_ctl_resets = 1, .has_box_ctl = 1, .width = 48

/* Control words (SNBEP_PMON_CTL_*: ev 7:0, umask 15:8, rst 17, edge 18, tid_en 19, en 22, inv 23, thresh
 * 31:24), each type with what its raw event mask and event_mask_ext keep. */
#define ICX_LAY(n, ...) { .name = "icx-" n, .f = { XEP_EV_UMASK, XEP_RST, XEP_EDGE, XEP_INV, __VA_ARGS__ }, .enable = XEP_EN }
/* CHA: HSWEP_S_MSR_PMON_RAW_EVENT_MASK (tid_en 19), SNR_CHA_RAW_EVENT_MASK_EXT 0x3ffffff (umask_ext2
 * config:8-15,32-57), written whole (snr_cha_enable_event: wrmsrl) */
static const struct ctl_layout lay_cha = ICX_LAY("cha", XEP_TID_EN, XEP_THRESH8, [CR_UMASK_EXT] = { 32, 26 });
/* IIO: thresh9 config:24-35, ch_mask2 config:36-47, fc_mask2 config:48-50 (SNR_IIO_PMON_RAW_EVENT_MASK_EXT
 * 0x7ffff, written whole by skx_iio_enable_event) */
static const struct ctl_layout lay_iio = ICX_LAY("iio", [CR_THRESH] = { 24, 12 }, [CR_UMASK_EXT] = { 32, 19 });
/* IRP, M2PCIe, M3UPI, iMC: SNBEP_PMON_RAW_EVENT_MASK */
static const struct ctl_layout lay_base = ICX_LAY("base", XEP_THRESH8);
/* M2M: umask_ext3 config:8-15,32-39 (SNR_M2M_PCI_PMON_UMASK_EXT 0xff) */
static const struct ctl_layout lay_m2m = ICX_LAY("m2m", XEP_THRESH8, [CR_UMASK_EXT] = { 32, 8 });
/* UPI: umask_ext4 config:8-15,32-55 (ICX_UPI_CTL_UMASK_EXT 0xffffff) */
static const struct ctl_layout lay_upi = ICX_LAY("upi", XEP_THRESH8, [CR_UMASK_EXT] = { 32, 24 });

/* icx_cha_msr_offsets: CHA n's registers are ICX_C34_MSR_PMON_* (box 0xB60) + this; 40 at most (the table's
 * length, which icx_uncore_cpu_init checks the CAPID count against) */
static const uint32_t cha_offs[] = {
	0x2a0, 0x2ae, 0x2bc, 0x2ca, 0x2d8, 0x2e6, 0x2f4, 0x302, 0x310, 0x31e, 0x32c, 0x33a, 0x348, 0x356,
	0x364, 0x372, 0x380, 0x38e, 0x3aa, 0x3b8, 0x3c6, 0x3d4, 0x3e2, 0x3f0, 0x3fe, 0x40c, 0x41a, 0x428,
	0x436, 0x444, 0x452, 0x460, 0x46e, 0x47c, 0x0,   0xe,   0x1c,  0x2a,  0x38,  0x46,
};
/* icx_msr_offsets: IIO, IRP and M2PCIe stack n (and icx_iio_clk_freerunning_box_offsets, the same) */
static const uint32_t stack_offs[] = { 0x0, 0x20, 0x40, 0x90, 0xb0, 0xd0 };
/* icx_iio_bw_freerunning_box_offsets */
static const uint32_t bw_offs[] = { 0x0, 0x10, 0x20, 0x90, 0xa0, 0xb0 };

/* CHA count: the set bits of CAPID6 (config 0x9C) and CAPID7 (0xA0) of 8086:345B, D30 F3 (icx_count_chabox:
 * hweight64 of the two dwords), on the bus above the socket's UBox 8086:3450: fe:00.0 and ff:1e.3 on a
 * Lenovo SR630 V2 (sim.c cites the listing), where the backward-filled UBox map gives ff no socket */
static const struct box_count cha_count = { .devid = 0x345b, .off = 0x9c, .off_hi = 0xa0, .mask = ~0ull, .ubox_below = 1 };
/* IIO, IRP, M2PCIe: six stacks whatever the cores (num_boxes 6) */
static const struct box_count fixed_count = { 0 };

/* CHA tid filter ICX_C34_MSR_PMON_BOX_FILTER0 0xB65 (+ the CHA's offset), used only with tid_en
 * (icx_cha_hw_config); the driver keeps config1 & SKX_CHA_MSR_PMON_BOX_FILTER_TID (bits 8:0), although its
 * format (filter_tid5) spells config1:0-9 */
static const struct filter_reg cha_filt[] = { { "Cn_MSR_PMON_BOX_FILTER0", 0xb65, 0, 32 } };
static const struct filter_field cha_fields[] = {
	{ "tid", 0, 0, 9, "thread id: core << 3 | thread (sets tid_en)" },
};

/* IIO free-running counters (icx_iio_freerunning): IOCLK 0xA55 at the stack offsets, BW_IN 0xAA0 + port at
 * the bandwidth offsets, 48 bits; umasks 0x10 x (group + 1) + index (snr_uncore_iio_freerunning_events).
 * Numbered as Intel's JSON numbers them (Counter 0 the clock, 1-8 BANDWIDTH_IN.PART0-7). */
#define BW_IN(p) { "bw_in_port" #p, 0xaa0 + (p), 48, 0x20 + (p), 0, bw_offs }
static const struct freerun iio_fr[] = {
	{ "ioclk", 0xa55, 48, 0x10, 0, stack_offs },
	BW_IN(0), BW_IN(1), BW_IN(2), BW_IN(3), BW_IN(4), BW_IN(5), BW_IN(6), BW_IN(7),
};
/* iMC free-running counters (icx_imc_freerunning), at the controller's MMIO base: DDR read/write 0x2290 +
 * 8 k, DDRT (Optane) read/write 0x22A0 + 8 k, DCLK 0x22B0; 48 bits.  Numbered so that DCLK is Intel's
 * Counter 4 (UNC_M_CLOCKTICKS_FREERUN); umasks icx_uncore_imc_freerunning_events. */
static const struct freerun imc_fr[] = {
	{ "read", 0x2290, 48, 0x20, 0, NULL },      { "write", 0x2298, 48, 0x21, 0, NULL },
	{ "ddrt_read", 0x22a0, 48, 0x30, 0, NULL }, { "ddrt_write", 0x22a8, 48, 0x31, 0, NULL },
	{ "dclk", 0x22b0, 48, 0x10, 0, NULL },
};

/* The iMC windows: the memory controller device 0x3451 (SNR_MC_DEVICE_ID) gives the MMIO base at 0xD0
 * (SNR_IMC_MMIO_BASE_MASK 0x1FFFFFFF << 23) and controller c's offset at 0xD8 + 4 c (SNR_IMC_MMIO_MEM0_MASK
 * 0x7FF << 12, ICX_IMC_MEM_STRIDE); channel k's box control at + 0x22800 + 0x4000 k (SNR_IMC_MMIO_PMON_BOX_CTL,
 * SNR_IMC_MMIO_OFFSET); 4 controllers x 3 channels (icx_uncore_imc num_boxes 12, ICX_NUMBER_IMC_CHN). */
static const struct mmio_place imc_place = { .devid = 0x3451, .base_off = 0xd0, .mem_off = 0xd8, .mem_step = 4,
					     .base_mask = 0x1fffffff, .mem_mask = 0x7ff, .base_shift = 23, .mem_shift = 12,
					     .nctrl = 4, .nchan = 3, .box_off = 0x22800, .chan_step = 0x4000 };

/* icx_uncore_chabox: box 0xB60, CTL0 0xB61, CTR0 0xB68 (ICX_C34_MSR_PMON_*), + icx_cha_msr_offsets[n] */
static const struct box_type cha = {
	.name = "cha", .perf = "cha", .desc = "caching and home agent with its LLC slice (CHA)", .prefix = "UNC_CHA", .perfmon = "CHA",
	.space = UC_MSR, ICX_COMMON, .max_boxes = (int)N(cha_offs), .nctr = 4, .box_offs = cha_offs,
	.box_ctl = 0xb60, .ctl0 = 0xb61, .ctl_stride = 1, .ctr0 = 0xb68, .ctr_stride = 1, .lay = &lay_cha,
	.filt_regs = cha_filt, .nfilt_regs = N(cha_filt), .fields = cha_fields, .nfields = N(cha_fields),
	.count = &cha_count,
};

/* icx_uncore_iio: box 0xA50, CTL0 0xA58, CTR0 0xA51 (ICX_IIO_MSR_PMON_*), + icx_msr_offsets[n] */
static const struct box_type iio = {
	.name = "iio", .perf = "iio", .desc = "integrated I/O stack (IIO)", .prefix = "UNC_IIO", .perfmon = "IIO",
	.space = UC_MSR, ICX_COMMON, .max_boxes = 6, .nctr = 4, .box_offs = stack_offs,
	.box_ctl = 0xa50, .ctl0 = 0xa58, .ctl_stride = 1, .ctr0 = 0xa51, .ctr_stride = 1, .lay = &lay_iio,
	XD_IIO_FIELDS, .fr = iio_fr, .nfr = N(iio_fr), .count = &fixed_count,
};

/* icx_uncore_irp: box 0xA4A, CTL0 0xA4D, CTR0 0xA4B (ICX_IRP0_MSR_PMON_*), 2 counters */
static const struct box_type irp = {
	.name = "irp", .perf = "irp", .desc = "IIO ring port (IRP)", .prefix = "UNC_I", .perfmon = "IRP",
	.space = UC_MSR, ICX_COMMON, .max_boxes = 6, .nctr = 2, .box_offs = stack_offs,
	.box_ctl = 0xa4a, .ctl0 = 0xa4d, .ctl_stride = 1, .ctr0 = 0xa4b, .ctr_stride = 1, .lay = &lay_base,
	.count = &fixed_count,
};

/* icx_uncore_m2pcie: box 0xA40, CTL0 0xA46, CTR0 0xA41 (ICX_M2PCIE_MSR_PMON_*) */
static const struct box_type m2pcie = {
	.name = "m2pcie", .perf = "m2pcie", .desc = "mesh to PCIe interface (M2PCIe)", .prefix = "UNC_M2P", .perfmon = "M2PCIe",
	.space = UC_MSR, ICX_COMMON, .max_boxes = 6, .nctr = 4, .box_offs = stack_offs,
	.box_ctl = 0xa40, .ctl0 = 0xa46, .ctl_stride = 1, .ctr0 = 0xa41, .ctr_stride = 1, .lay = &lay_base,
	.count = &fixed_count,
};

/* icx_uncore_m2m: SNR_M2M_PCI_PMON_BOX_CTL 0x438, CTL0 0x468, CTR0 0x440, controls 8 apart
 * (snr_m2m_uncore_pci_init_box: UNCORE_BOX_FLAG_CTL_OFFS8); 8086:344A at 12.0-15.0 */
static const uint16_t m2m_ids[] = { 0x344a, 0x344a, 0x344a, 0x344a };
static const uint8_t m2m_df[] = { 12 << 3, 13 << 3, 14 << 3, 15 << 3 };
static const struct box_type m2m = {
	.name = "m2m", .perf = "m2m", .desc = "mesh to memory controller (M2M)", .prefix = "UNC_M2M", .perfmon = "M2M",
	.space = UC_PCI, ICX_COMMON, .ctl_bytes = 8, .max_boxes = 4, .nctr = 4,
	.box_ctl = 0x438, .ctl0 = 0x468, .ctl_stride = 8, .ctr0 = 0x440, .ctr_stride = 8, .lay = &lay_m2m,
	.pci_ids = m2m_ids, .pci_devfn = m2m_df, /* snbep_uncore_pci_enable_event: 32 bits (perf_reach.c) */
};

/* icx_uncore_upi: ICX_UPI_PCI_PMON_BOX_CTL 0x318, CTL0 0x350, CTR0 0x320, controls 8 apart
 * (skx_upi_uncore_pci_init_box); 8086:3441 at 2.1, 3.1, 4.1 */
static const uint16_t upi_ids[] = { 0x3441, 0x3441, 0x3441 };
static const uint8_t upi_df[] = { 2 << 3 | 1, 3 << 3 | 1, 4 << 3 | 1 };
static const struct box_type upi = {
	.name = "upi", .perf = "upi", .desc = "UPI link layer (UPI LL)", .prefix = "UNC_UPI", .perfmon = "UPI LL",
	.space = UC_PCI, ICX_COMMON, .ctl_bytes = 8, .max_boxes = 3, .nctr = 4,
	.box_ctl = 0x318, .ctl0 = 0x350, .ctl_stride = 8, .ctr0 = 0x320, .ctr_stride = 8, .lay = &lay_upi,
	.pci_ids = upi_ids, .pci_devfn = upi_df, /* the extension: direct backend only (32-bit PCI writes, perf_reach.c) */
};

/* icx_uncore_m3upi: ICX_M3UPI_PCI_PMON_BOX_CTL 0xA0, CTL0 0xD8 (4 apart), CTR0 0xA8; 8086:3446 at 5.1-7.1 */
static const uint16_t m3upi_ids[] = { 0x3446, 0x3446, 0x3446 };
static const uint8_t m3upi_df[] = { 5 << 3 | 1, 6 << 3 | 1, 7 << 3 | 1 };
static const struct box_type m3upi = {
	.name = "m3upi", .perf = "m3upi", .desc = "mesh to UPI interface (M3UPI)", .prefix = "UNC_M3UPI", .perfmon = "M3UPI",
	.space = UC_PCI, ICX_COMMON, .ctl_bytes = 4, .max_boxes = 3, .nctr = 4,
	.box_ctl = 0xa0, .ctl0 = 0xd8, .ctl_stride = 4, .ctr0 = 0xa8, .ctr_stride = 8, .lay = &lay_base,
	.pci_ids = m3upi_ids, .pci_devfn = m3upi_df,
};

/* icx_uncore_imc: in its MMIO window, box control at 0, CTL0 0x40 (4 apart, writel), CTR0 0x08 (8 apart,
 * readq), the fixed counter's control 0x54 and counter 0x38 (SNR_IMC_MMIO_PMON_*; en 22, rst 19 as the
 * discovery generation's, seed 001 T2-129) */
static const struct box_type imc = {
	.name = "imc", .perf = "imc", .desc = "integrated memory controller channel (iMC)", .prefix = "UNC_M", .perfmon = "iMC",
	.space = UC_MMIO, ICX_COMMON, .ctl_bytes = 4, .max_boxes = 12, .nctr = 4, .mmio = &imc_place,
	.box_ctl = 0, .ctl0 = 0x40, .ctl_stride = 4, .ctr0 = 0x08, .ctr_stride = 8, .lay = &lay_base,
	.has_fixed = 1, .fixed_ctl = 0x54, .fixed_ctr = 0x38, .fixed_width = 48, .fixed_en = 1u << 22, .fixed_rst = 1u << 19,
	.fr = imc_fr, .nfr = N(imc_fr),
};

static const struct box_type *const icx_types[] = { &skx_ubox, &cha, &iio, &irp, &m2pcie, &skx_pcu, &m2m, &upi, &m3upi, &imc };

/* The driver's aliases: snr_uncore_imc_events (a CAS is 64 bytes), snr_uncore_iio_freerunning_events (a
 * count is 32 bytes: 32 / 2^20 MiB), icx_uncore_imc_freerunning_events (64 bytes a count). */
static const struct perf_alias icx_aliases[] = {
	{ "imc", "clockticks", "event=0x00,umask=0x00", 0, NULL },
	{ "imc", "cas_count_read", "event=0x04,umask=0x0f", 6.103515625e-5, "MiB" },
	{ "imc", "cas_count_write", "event=0x04,umask=0x30", 6.103515625e-5, "MiB" },
	SNR_IIO_FREERUNNING_ALIASES,
	{ "imc_free_running", "dclk", "event=0xff,umask=0x10", 0, NULL },
	{ "imc_free_running", "read", "event=0xff,umask=0x20", 6.103515625e-5, "MiB" },
	{ "imc_free_running", "write", "event=0xff,umask=0x21", 6.103515625e-5, "MiB" },
	{ "imc_free_running", "ddrt_read", "event=0xff,umask=0x30", 6.103515625e-5, "MiB" },
	{ "imc_free_running", "ddrt_write", "event=0xff,umask=0x31", 6.103515625e-5, "MiB" },
	{ 0 },
};
/* Format names that are not ours: the PCU's occ_invert and occ_edge_det (skx_uncore_pcu_formats_attr), the
 * CHA's tid_en (comes with filter_tid), and raw config1 as the driver cuts it: the CHA's tid (bits 8:0 of
 * filter_tid5), the PCU's four bands. */
static const struct perf_term icx_terms[] = {
	{ "pcu", "occ_invert", "occ_inv", 0, 0 }, { "pcu", "occ_edge_det", "occ_edge", 0, 0 },
	{ "cha", "tid_en", NULL, 0, 0 }, { "cha", "config1", "tid", 0, 9 },
	{ "pcu", "config1", "band0", 0, 8 }, { "pcu", "config1", "band1", 8, 8 }, { "pcu", "config1", "band2", 16, 8 },
	{ "pcu", "config1", "band3", 24, 8 },
	{ 0 },
};

/* Linux intel-family.h INTEL_ICELAKE_X 0x6A, INTEL_ICELAKE_D 0x6C (uncore.c: icx_uncore_init for both):
 * detection goes by the mapfile (6-6A-*, 6-6C-* ICX), these only for CPUs it does not list */
static const int icx_models[] = { 0x6a, 0x6c, 0 };

/* The UBox device 0x3450 with CPUNODEID 0xC0 and GIDNIDMAP 0xD4, buses filled backward (icx_uncore_pci_init:
 * snbep_pci2phy_map_init(0x3450, SKX_CPUNODEID, SKX_GIDNIDMAP, true)). */
/* RAPL: Linux 6.12 rapl.c model_hsx, rapl_defaults_hsw_server; max_w: twice Intel ARK's Platinum 8380, 270 W */
static const struct energy_part icx_energy = { PLAT_RAPL_PKG_DRAM, PLAT_RAPL_DRAM_15_3, 0, ENERGY_MSR_DIE, 540,
					       "rapl.c model_hsx, rapl_defaults_hsw_server" };
/* Clocks: DDR4 to 3200, UPI 11.2 GT/s */
static const struct plat_clocks icx_clocks = {
	{ { PLAT_MESH, "ICX mesh clock: conservative 0.8-3 GHz" },
	  { PLAT_DDR_HALF(1600, 3200), "ICX DCLK: DDR4-1600 to -3200, half the DDR rate (seed 000 L2255)" },
	  { PLAT_LINK_GTS(4.8, 11.2), "ICX UPI clock: 4.8-11.2 GT/s / 8 (seed 001 L7957; speeds conservative)" } } };
/* Attribution: a 9-bit tid as Skylake-SP's (seed 001 T2-75: [9:3] Core-ID, [2:0] Thread) */
static const struct attrib_plat icx_attrib = { "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 9, "the core's requests that missed the LLC" };

/* Whitley (WhitleyPlatformMapping, pcm-iio-topology.cpp): PCIe stacks' parts 0-3 at devices 2-5; the CBDMA/DMI
 * stack, PMU 5 (ICX_CBDMA_DMI_PMON_ID), part 0 (ICX_PCH_PART_ID) for what crosses the DMI link, and its CBDMA
 * engines at device 1 of its root bus part 3 on every socket (ICX_CBDMA_PART_ID; "one DMA Controller on each
 * socket": issue 90 D7, doc/platforms.md); root buses from SAD_CONTROL_CFG's stack id (Linux 6.12
 * icx_iio_get_topology), which Linux reads on Ice Lake-SP alone (icx_iio_set_mapping: not Ice Lake-D) */
static const int icx_iio_models[] = { 0x6a, 0 }; /* INTEL_ICELAKE_X */
static const struct iio_layout icx_iio = { .models = icx_iio_models, .port_lo = 2, .port_hi = 5,
					   .ndmi = 1, .dmi_stacks = { 5 }, .dmi_part = 0, .sad_stack_id = 1,
					   .cbdma_dev = 1, .cbdma_part = 3 };

/* The memory controllers as Linux's EDAC driver names them (platform_facts.h struct mem_layout) */
static const struct mem_layout icx_mem = { "Intel_10nm Socket#", " IMC#", 3, 2, 4,
	.source = "Linux 6.12 i10nm_base.c \"Intel_10nm Socket\", i10nm_cfg0/1 ddr_imc_num 4 x ddr_chan_num 2; uncore_snbep.c icx_uncore_imc num_boxes 12, ICX_NUMBER_IMC_CHN 3 boxes a controller; pcm cpucounters.cpp (intel/pcm 0fae0de1) numChannels 2 a controller on ICX: box 3m+2 is no channel" };

const struct platform_desc platform_icx = {
	.name = "icx", .desc = "Ice Lake-SP (Xeon Scalable 3rd gen)",
	.family = 6, .models = icx_models,
	.types = icx_types, .ntypes = N(icx_types), .ubox_devid = 0x3450, .cpunodeid = 0xc0, .gidnidmap = 0xd4,
	.events = &uc_events_icx, .metrics_json = uc_metrics_icx,
	.perfmon_filters = uc_events_icx_filters, .perfmon_folds = uc_events_icx_folds,
	.perf_aliases = icx_aliases, .perf_terms = icx_terms, .own_fns = icx_own_functions,
	.energy = &icx_energy, .clocks = &icx_clocks, .attrib = &icx_attrib, .mem = &icx_mem,
	/* snr_uncore_iio_freerunning_events' bw_in_port scale 3.0517578125e-5 MiB (Linux 6.12): 32 bytes a count */
	.iio_fr_bytes = 32, .iio = &icx_iio,
	.ufreq_msr = 1, /* Linux 6.12 uncore-frequency.c intel_uncore_cpu_ids: ICELAKE_X */
};
