/*
 * Skylake-SP (Xeon Scalable 1st gen, family 6 model 0x55 steppings 0-4) uncore.  No discovery tables:
 * every register is fixed per model, as Linux 6.12 arch/x86/events/intel/uncore_snbep.c programs it
 * (skx_msr_uncores[], skx_pci_uncores[], skx_uncore_pci_ids[]); the notes are /work/notes/i34/skx.md.
 * Cascade Lake and Cooper Lake are the same hardware to the driver (platforms/clx reuses these types
 * through skx.h).  Where Intel's JSON and the driver disagree, json_differences.txt and
 * regs_differences.txt say which we chose.
 */
#include <stddef.h>
#include "platform/xeon_ep.h"
#include "skx.h"

UC_PLATFORM_TABLES(skx);

/* Box control: rst_ctrl 0, rst_ctrs 1, frz 8, no freeze enable ("There is no frz_en for chabox ctl";
 * every SKX type initialises with IVBEP_PMON_BOX_CTL_INT and freezes with SNBEP_PMON_BOX_CTL_FRZ). */
const struct box_ctl_bits box_ctl_skx = { &bc_style_frz, .rst_ctrl = 1u << 0, .rst_ctrs = 1u << 1, .frz = 1u << 8 };
#define SKX_COMMON .disc_type = -1, .bc = &box_ctl_skx, .box_ctl_resets = 1, .width = 48
#define SKX_BOXED SKX_COMMON, .has_box_ctl = 1

/* Control words (SNBEP_PMON_CTL_*: ev 7:0, umask 15:8, rst 17, edge 18, tid_en 19, en 22, inv 23,
 * thresh 31:24); each type keeps what its raw event mask keeps. */
#define SKX_LAY(n, ...) { .name = "skx-" n, .f = { XEP_EV_UMASK, XEP_RST, XEP_EDGE, XEP_INV, __VA_ARGS__ }, .enable = XEP_EN }
/* UBox: SNBEP_U_MSR_PMON_RAW_EVENT_MASK, thresh 28:24 */
static const struct ctl_layout lay_ubox = SKX_LAY("ubox", XEP_THRESH5);
/* CHA: HSWEP_S_MSR_PMON_RAW_EVENT_MASK (tid_en 19) */
static const struct ctl_layout lay_cha = SKX_LAY("cha", XEP_TID_EN, XEP_THRESH8);
/* IRP, iMC, M2M, M2PCIe, M3UPI: SNBEP_PMON_RAW_EVENT_MASK */
static const struct ctl_layout lay_base = SKX_LAY("base", XEP_THRESH8);
/* IIO: thresh 35:24 (format thresh9 config:24-35), ch_mask 43:36, fc_mask 46:44 as control bits 46:32
 * (SKX_IIO_PMON_RAW_EVENT_MASK_EXT 0x7fff, written whole by skx_iio_enable_event) */
static const struct ctl_layout lay_iio = SKX_LAY("iio", [CR_THRESH] = { 24, 12 }, [CR_UMASK_EXT] = { 32, 15 });
/* UPI: umask config:8-15,32-43,45-55 (format umask_ext, SKX_UPI_CTL_UMASK_EXT 0xffefff): the extension is
 * control bits 55:32 with bit 44 reserved */
static const struct ctl_layout lay_upi = { .name = "skx-upi",
	.f = { XEP_EV_UMASK, XEP_RST, XEP_EDGE, XEP_INV, XEP_THRESH8, [CR_UMASK_EXT] = { 32, 24 } },
	.enable = XEP_EN, .reserved = 1ull << 44 };
/* PCU: SNBEP_PCU_MSR_PMON_RAW_EVENT_MASK: occ_sel 15:14 (umask format 8-15, bits 13:8 dropped), thresh
 * 28:24, occ_invert 30, occ_edge_det 31 */
static const struct ctl_layout lay_pcu = { .name = "skx-pcu",
	.f = { XEP_EV_UMASK, XEP_RST, XEP_EDGE, XEP_INV, XEP_THRESH5, XEP_PCU_OCC },
	.enable = XEP_EN, .reserved = XEP_PCU_RESERVED };

/* CHA filters: FILTER0 at box + 5, FILTER1 at box + 6 (HSWEP_C0_MSR_PMON_BOX_FILTER0 0xE05,
 * hswep_cbox_enable_event writes config1's high dword to FILTER0 + 1); fields SKX_CHA_MSR_PMON_BOX_FILTER_*
 * (FILTER1's are config1 bits 63:32). */
static const struct filter_reg cha_filt[] = {
	{ "Cn_MSR_PMON_BOX_FILTER0", 0xe05, 0, 32 },
	{ "Cn_MSR_PMON_BOX_FILTER1", 0xe06, 0, 32 },
};
static const struct filter_field cha_fields[] = {
	{ "tid", 0, 0, 9, "thread id: core << 3 | thread (sets tid_en)" },
	{ "link", 0, 9, 4, "UPI link the request came in on" },
	{ "state", 0, 17, 10, "LLC state mask: 0x80 F, 0x40 M, 0x20 E, 0x10 S, 0x01 I (CHAFilter0[24:21,17])" },
	{ "rem", 1, 0, 1, "match requests homed on another socket" },
	{ "loc", 1, 1, 1, "match requests homed on this socket" },
	{ "all_op", 1, 3, 1, "match every opcode (opc0/opc1 ignored)" },
	{ "nm", 1, 4, 1, "match requests to near memory" },
	{ "not_nm", 1, 5, 1, "match requests not to near memory" },
	{ "opc0", 1, 9, 10, "first opcode to match, e.g. 0x202 DRd" },
	{ "opc1", 1, 19, 10, "second opcode to match" },
	{ "nc", 1, 30, 1, "match non-coherent requests" },
	{ "isoc", 1, 31, 1, "match isochronous requests" },
};

/* PCU band filter HSWEP_PCU_MSR_PMON_BOX_FILTER 0x715, four 8-bit bands (filter_band0-3 config1:0-31). */
static const struct filter_reg pcu_filt[] = { { "PCU_MSR_PMON_BOX_FILTER", 0x715, 0, 32 } };

/* IIO port and flow-class masks in the control word (format ch_mask config:36-43, fc_mask config:44-46). */
static const struct filter_field iio_fields[] = {
	{ "ch_mask", UC_FIELD_CTL, 36, 8, "ports: bit n = PART n (Intel's PortMask)" },
	{ "fc_mask", UC_FIELD_CTL, 44, 3, "flow classes: 1 posted, 2 non-posted, 4 completions" },
};

/* IIO free-running counters, skx_iio_freerunning[]: IOCLK 0xA45 + 0x20 per stack; BW 0xB00 + i and UTIL
 * 0xB08 + i + 0x10 per stack; 36 bits.  Umasks 0x10 x (group + 1) + index (the driver's aliases). */
#define FR(n, a, um) { n, a, 36, um, 0x10, NULL }
static const struct freerun iio_fr[] = {
	{ "ioclk", 0xa45, 36, 0x10, 0x20, NULL },
	FR("bw_in_port0", 0xb00, 0x20), FR("bw_in_port1", 0xb01, 0x21), FR("bw_in_port2", 0xb02, 0x22),
	FR("bw_in_port3", 0xb03, 0x23), FR("bw_out_port0", 0xb04, 0x24), FR("bw_out_port1", 0xb05, 0x25),
	FR("bw_out_port2", 0xb06, 0x26), FR("bw_out_port3", 0xb07, 0x27),
	FR("util_in_port0", 0xb08, 0x30), FR("util_out_port0", 0xb09, 0x31), FR("util_in_port1", 0xb0a, 0x32),
	FR("util_out_port1", 0xb0b, 0x33), FR("util_in_port2", 0xb0c, 0x34), FR("util_out_port2", 0xb0d, 0x35),
	FR("util_in_port3", 0xb0e, 0x36), FR("util_out_port3", 0xb0f, 0x37),
};

/* CHA count: the set bits of CAPID6 (PCI 8086:2083, config 0x9C, bits 27:0) (skx_count_chabox). */
static const struct box_count cha_count = { .devid = 0x2083, .off = 0x9c, .mask = 0x0fffffff };
/* IIO, IRP: six stacks whatever the cores (num_boxes 6) */
static const struct box_count fixed_count = { 0 };

/* PCI boxes, skx_uncore_pci_ids[]: device ids repeat, so each box is also its dev << 3 | fn
 * (UNCORE_PCI_DEV_FULL_DATA(dev, func, type, idx)). */
#define DF(d, f) ((d) << 3 | (f))
static const uint16_t imc_ids[] = { 0x2042, 0x2046, 0x204a, 0x2042, 0x2046, 0x204a };
static const uint8_t imc_df[] = { DF(10, 2), DF(10, 6), DF(11, 2), DF(12, 2), DF(12, 6), DF(13, 2) };
static const uint16_t m2m_ids[] = { 0x2066, 0x2066 };
static const uint8_t m2m_df[] = { DF(8, 0), DF(9, 0) };
static const uint16_t upi_ids[] = { 0x2058, 0x2058, 0x2058 };
static const uint8_t upi_df[] = { DF(14, 0), DF(15, 0), DF(16, 0) };
static const uint16_t m2pcie_ids[] = { 0x2088, 0x2088, 0x2088, 0x2088 };
static const uint8_t m2pcie_df[] = { DF(21, 1), DF(22, 1), DF(23, 1), DF(21, 5) };
static const uint16_t m3upi_ids[] = { 0x204d, 0x204e, 0x204d };
static const uint8_t m3upi_df[] = { DF(18, 1), DF(18, 2), DF(18, 5) };

/* skx_uncore_ubox: no box control, 2 counters at HSWEP_U_MSR_PMON_CTL0 0x705 / CTR0 0x709, UCLK fixed
 * counter CTL 0x703 / CTR 0x704 (HSWEP_U_MSR_PMON_UCLK_FIXED_*), 48 bits */
const struct box_type skx_ubox = {
	.name = "ubox", .perf = "ubox", .desc = "system configuration controller (UBox)", .prefix = "UNC_U", .perfmon = "UBOX",
	.space = UC_MSR, .disc_type = -1, .bc = &box_ctl_skx, .width = 48, .max_boxes = 1, .nctr = 2,
	.ctl0 = 0x705, .ctl_stride = 1, .ctr0 = 0x709, .ctr_stride = 1, .lay = &lay_ubox,
	.has_fixed = 1, .fixed_ctl = 0x703, .fixed_ctr = 0x704, .fixed_width = 48, .fixed_en = 1u << 22,
};

/* skx_uncore_chabox: box 0xE00 + 0x10 n (HSWEP_C0_MSR_PMON_BOX_CTL, HSWEP_CBO_MSR_OFFSET), CTL0 0xE01,
 * CTR0 0xE08; at most 28 (CAPID6 bits 27:0) */
static const struct box_type cha = {
	.name = "cha", .perf = "cha", .desc = "caching and home agent with its LLC slice (CHA)", .prefix = "UNC_CHA", .perfmon = "CHA",
	.space = UC_MSR, SKX_BOXED, .max_boxes = 28, .nctr = 4, .box_stride = 0x10,
	.box_ctl = 0xe00, .ctl0 = 0xe01, .ctl_stride = 1, .ctr0 = 0xe08, .ctr_stride = 1, .lay = &lay_cha,
	.filt_regs = cha_filt, .nfilt_regs = N(cha_filt), .fields = cha_fields, .nfields = N(cha_fields),
	.count = &cha_count, .tid_holds_all = 1, /* skx_cha_hw_config: tid_en -> idx 0x1ff, every field */
};

/* skx_uncore_iio: box 0xA40 + 0x20 n (SKX_IIO0_MSR_PMON_BOX_CTL, SKX_IIO_MSR_OFFSET), CTL0 0xA48, CTR0 0xA41 */
static const struct box_type iio = {
	.name = "iio", .perf = "iio", .desc = "integrated I/O stack (IIO)", .prefix = "UNC_IIO", .perfmon = "IIO",
	.space = UC_MSR, SKX_BOXED, .max_boxes = 6, .nctr = 4, .box_stride = 0x20,
	.box_ctl = 0xa40, .ctl0 = 0xa48, .ctl_stride = 1, .ctr0 = 0xa41, .ctr_stride = 1, .lay = &lay_iio,
	.fields = iio_fields, .nfields = N(iio_fields), .fr = iio_fr, .nfr = N(iio_fr), .count = &fixed_count,
};

/* skx_uncore_irp: box 0xA58 + 0x20 n, CTL0 0xA5B, CTR0 0xA59, 2 counters */
static const struct box_type irp = {
	.name = "irp", .perf = "irp", .desc = "IIO ring port (IRP)", .prefix = "UNC_I", .perfmon = "IRP",
	.space = UC_MSR, SKX_BOXED, .max_boxes = 6, .nctr = 2, .box_stride = 0x20,
	.box_ctl = 0xa58, .ctl0 = 0xa5b, .ctl_stride = 1, .ctr0 = 0xa59, .ctr_stride = 1, .lay = &lay_base,
	.count = &fixed_count,
};

/* skx_uncore_pcu: HSWEP_PCU_MSR_PMON_BOX_CTL 0x710, CTL0 0x711, CTR0 0x717 */
const struct box_type skx_pcu = {
	.name = "pcu", .perf = "pcu", .desc = "power control unit (PCU)", .prefix = "UNC_P", .perfmon = "PCU",
	.space = UC_MSR, SKX_BOXED, .max_boxes = 1, .nctr = 4,
	.box_ctl = 0x710, .ctl0 = 0x711, .ctl_stride = 1, .ctr0 = 0x717, .ctr_stride = 1, .lay = &lay_pcu,
	.filt_regs = pcu_filt, .nfilt_regs = N(pcu_filt), .fields = xep_pcu_fields, .nfields = N(xep_pcu_fields),
	.band_ev = 0x0b, /* hswep_pcu_hw_config: event selects 0xb-0xe use band 0-3 */
};

/* PCI boxes with the SNB-EP layout (SNBEP_PCI_PMON_BOX_CTL 0xF4, CTL0 0xD8, CTR0 0xA0) */
#define SKX_PCI PCI_REGS, SKX_COMMON, .ctl_bytes = 4

/* skx_uncore_imc: fixed DCLK counter CTL 0xF0 / CTR 0xD0 (SNBEP_MC_CHy_PCI_PMON_FIXED_*), 48 bits */
static const struct box_type imc = {
	.name = "imc", .perf = "imc", .desc = "integrated memory controller channel (iMC)", .prefix = "UNC_M", .perfmon = "iMC", SKX_PCI,
	.max_boxes = 6, .nctr = 4, .lay = &lay_base, .pci_ids = imc_ids, .pci_devfn = imc_df,
	.has_fixed = 1, .fixed_ctl = 0xf0, .fixed_ctr = 0xd0, .fixed_width = 48, .fixed_en = 1u << 22, .fixed_rst = 1u << 19,
};

/* skx_uncore_m2m: BOX_CTL 0x258, CTL0 0x228, CTR0 0x200, controls 8 apart (UNCORE_BOX_FLAG_CTL_OFFS8) */
static const struct box_type m2m = {
	.name = "m2m", .perf = "m2m", .desc = "mesh to memory controller (M2M)", .prefix = "UNC_M2M", .perfmon = "M2M",
	.space = UC_PCI, SKX_BOXED, .ctl_bytes = 8, .max_boxes = 2, .nctr = 4,
	.box_ctl = 0x258, .ctl0 = 0x228, .ctl_stride = 8, .ctr0 = 0x200, .ctr_stride = 8, .lay = &lay_base,
	.pci_ids = m2m_ids, .pci_devfn = m2m_df,
};

/* skx_uncore_upi: BOX_CTL 0x378, CTL0 0x350 (64-bit, 8 apart), CTR0 0x318 */
static const struct box_type upi = {
	.name = "upi", .perf = "upi", .desc = "UPI link layer (UPI LL)", .prefix = "UNC_UPI", .perfmon = "UPI LL",
	.space = UC_PCI, SKX_BOXED, .ctl_bytes = 8, .max_boxes = 3, .nctr = 4,
	.box_ctl = 0x378, .ctl0 = 0x350, .ctl_stride = 8, .ctr0 = 0x318, .ctr_stride = 8, .lay = &lay_upi,
	.pci_ids = upi_ids, .pci_devfn = upi_df, /* the extension: direct backend only (32-bit PCI writes, perf_reach.c) */
};

/* skx_uncore_m2pcie: no events in Intel's JSON; raw events only */
static const struct box_type m2pcie = {
	.name = "m2pcie", .perf = "m2pcie", .desc = "mesh to PCIe interface (M2PCIe)", .prefix = "UNC_M2P", .perfmon = "M2PCIe", SKX_PCI,
	.max_boxes = 4, .nctr = 4, .lay = &lay_base, .pci_ids = m2pcie_ids, .pci_devfn = m2pcie_df,
};

/* skx_uncore_m3upi: 3 counters */
static const struct box_type m3upi = {
	.name = "m3upi", .perf = "m3upi", .desc = "mesh to UPI interface (M3UPI)", .prefix = "UNC_M3UPI", .perfmon = "M3UPI", SKX_PCI,
	.max_boxes = 3, .nctr = 3, .lay = &lay_base, .pci_ids = m3upi_ids, .pci_devfn = m3upi_df,
};

const struct box_type *const skx_types[] = { &skx_ubox, &cha, &iio, &irp, &skx_pcu, &imc, &m2m, &upi, &m2pcie, &m3upi };
_Static_assert(N(skx_types) == SKX_NTYPES, "skx.h: SKX_NTYPES is the number of skx_types");

/* The driver's aliases: hswep_uncore_imc_events (clockticks is event 0x00 on a general counter here, not
 * the fixed counter), skx_uncore_iio_freerunning_events (a BW count is 4 bytes: 4 / 2^20 MiB). */
#define BW(d, p, um) { "iio_free_running", "bw_" d "_port" #p, "event=0xff,umask=" #um, 3.814697266e-6, "MiB" }
#define UTIL(d, p, um) { "iio_free_running", "util_" d "_port" #p, "event=0xff,umask=" #um, 0, NULL }
const struct perf_alias skx_aliases[] = {
	{ "imc", "clockticks", "event=0x00,umask=0x00", 0, NULL },
	{ "imc", "cas_count_read", "event=0x04,umask=0x03", 6.103515625e-5, "MiB" },
	{ "imc", "cas_count_write", "event=0x04,umask=0x0c", 6.103515625e-5, "MiB" },
	{ "iio_free_running", "ioclk", "event=0xff,umask=0x10", 0, NULL },
	BW("in", 0, 0x20), BW("in", 1, 0x21), BW("in", 2, 0x22), BW("in", 3, 0x23),
	BW("out", 0, 0x24), BW("out", 1, 0x25), BW("out", 2, 0x26), BW("out", 3, 0x27),
	UTIL("in", 0, 0x30), UTIL("out", 0, 0x31), UTIL("in", 1, 0x32), UTIL("out", 1, 0x33),
	UTIL("in", 2, 0x34), UTIL("out", 2, 0x35), UTIL("in", 3, 0x36), UTIL("out", 3, 0x37),
	{ 0 },
};
/* Format names that are not ours (skx_uncore_pcu_formats_attr, skx_uncore_cha_formats_attr): PCU occ_invert
 * and occ_edge_det (config:30, 31: our occ_inv, occ_edge; its umask config:8-15 is our umask byte, occ_sel
 * at 15:14); the CHA's tid_en comes with filter_tid. */
const struct perf_term skx_terms[] = {
	{ "pcu", "occ_invert", "occ_inv", 0, 0 }, { "pcu", "occ_edge_det", "occ_edge", 0, 0 },
	{ "cha", "tid_en", NULL, 0, 0 },
	/* raw config1 as the driver cuts it: FILTER0 = bits 31:0 (tid 8:0, link 12:9, state 26:17), FILTER1 = bits
	 * 63:32 (SKX_CHA_MSR_PMON_BOX_FILTER_*); the PCU's four bands (filter_band0-3) */
	{ "cha", "config1", "tid", 0, 9 }, { "cha", "config1", "link", 9, 4 }, { "cha", "config1", "state", 17, 10 },
	{ "cha", "config1", "rem", 32, 1 }, { "cha", "config1", "loc", 33, 1 }, { "cha", "config1", "all_op", 35, 1 },
	{ "cha", "config1", "nm", 36, 1 }, { "cha", "config1", "not_nm", 37, 1 }, { "cha", "config1", "opc0", 41, 10 },
	{ "cha", "config1", "opc1", 51, 10 }, { "cha", "config1", "nc", 62, 1 }, { "cha", "config1", "isoc", 63, 1 },
	{ "pcu", "config1", "band0", 0, 8 }, { "pcu", "config1", "band1", 8, 8 }, { "pcu", "config1", "band2", 16, 8 },
	{ "pcu", "config1", "band3", 24, 8 },
	{ 0 },
};

/* Linux intel-family.h INTEL_SKYLAKE_X 0x55: detection goes by the mapfile (6-55-[01234] SKX), these only
 * for CPUs it does not list */
static const int skx_models[] = { 0x55, 0 };

/* RAPL: Linux 6.12 rapl.c model_hsx, rapl_defaults_hsw_server; max_w: twice Intel ARK's Platinum 8180, 205 W */
static const struct energy_part skx_energy = { PLAT_RAPL_PKG_DRAM, PLAT_RAPL_DRAM_15_3, 0, ENERGY_MSR_DIE, 410,
					       "rapl.c model_hsx, rapl_defaults_hsw_server" };
/* Clocks: DDR4-1600 (JESD79-4's lowest bin) to -2666; UPI 9.6-11.2 GT/s, taken down to 4.8 GT/s (a conservative
 * floor: no seed gives UPI speeds before EMR's) */
static const struct plat_clocks skx_clocks = {
	{ { PLAT_MESH, "SKX mesh clock: conservative 0.8-3 GHz (Linux intel-uncore-frequency: 1.2-2.4 GHz)" },
	  { PLAT_DDR_HALF(1600, 2666), "SKX DCLK: DDR4-1600 to -2666, half the DDR rate (seed 000 L2255)" },
	  { PLAT_LINK_GTS(4.8, 11.2), "SKX UPI clock: 4.8-11.2 GT/s / 8 (seed 001 L7957; speeds conservative)" } } };
/* Attribution: SKX_CHA_MSR_PMON_BOX_FILTER_TID 8:0 (seed 001 T2-75: [9:3] Core-ID, [2:0] Thread); IA_MISS: the
 * cores' requests that missed */
static const struct attrib_plat skx_attrib = { "UNC_CHA_TOR_INSERTS.IA_MISS", 3, 9, "the core's requests that missed the LLC" };

/* Purley (PurleyPlatformMapping, pcm-iio-topology.cpp): parts 0-3 at devices 0-3; the CBDMA/DMI stack, PMU 0,
 * part 0 (its bus 0 the mapping attribute shows for PMU 0 alone: Linux skx_iio_mapping_visible).  Every stepping
 * of model 0x55: Skylake-SP, Cascade Lake, Cooper Lake. */
static const int skx_iio_models[] = { 0x55, 0 }; /* INTEL_SKYLAKE_X */
const struct iio_layout skx_iio = { .models = skx_iio_models, .port_lo = 0, .port_hi = 3,
				    .ndmi = 1, .dmi_stacks = { 0 }, .dmi_part = 0 };

/* The memory controllers as Linux's EDAC driver names them (platform_facts.h struct mem_layout) */
static const struct mem_layout skx_mem = { "Skylake Socket#", " IMC#", 3, 3, 2,
	.source = "Linux 6.12 skx_base.c \"Skylake Socket\" (skx_register_mci \"%s#%d IMC#%d\"), SKX_NUM_IMC 2 x SKX_NUM_CHANNELS 3; uncore_snbep.c skx_uncore_imc num_boxes 6 in that order" };

const struct platform_desc platform_skx = {
	.name = "skx", .desc = "Skylake-SP (Xeon Scalable 1st gen)",
	.family = 6, .models = skx_models,
	SKX_UNCORE(skx),
	.energy = &skx_energy, .clocks = &skx_clocks, .attrib = &skx_attrib, .mem = &skx_mem,
	/* skx_iio_freerunning's bw_in_port scale 3.814697266e-6 MiB (Linux 6.12): 4 bytes a count */
	.iio_fr_bytes = 4,
	.ufreq_msr = 1, /* Linux 6.12 uncore-frequency.c intel_uncore_cpu_ids: SKYLAKE_X */
};
