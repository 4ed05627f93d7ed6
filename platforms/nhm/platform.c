/*
 * Nehalem-EP (Core i7 / Xeon 5500) uncore: one PMU per socket with 8 general counters and a fixed
 * uncore-clock counter (seed 003 L222, L1126).  The seed gives no register addresses; they are
 * Linux's nhm_uncore (uncore_snb.c) and the notes' nehalem_montecito.md B.2.  Counting is started
 * and stopped by the global control MSR, so it plays the part of a box control here.
 */
#include <stddef.h>
#include "platform/platform.h"

UC_PLATFORM_TABLES(nhm);

#define N(a) UC_ARRAY_LEN(a)

/* MSR_UNCORE_PERF_GLOBAL_CTRL 0x391: EN_PC0-7 bits 0-7, EN_FC0 bit 32 (Linux NHM_UNC_GLOBAL_CTL_EN_*). */
static const struct box_ctl_bits box_ctl_nhm = { &bc_style_enable, .run = 0xffull | 1ull << 32 };

/* Registers shared by one event at a time (seed 003 L1275 "only one MSR"; L1497-1529 Table 37). */
static const struct filter_reg unc_filt[] = {
	{ "MSR_UNCORE_ADDR_OPCODE_MATCH", 0x396, 0, 64 },
	{ "MSR_GQ_SNOOP_MESF", 0x301, 0, 64 },
};
static const struct filter_field unc_fields[] = {
	{ "match", 0, 0, 64, "the whole address/opcode match word (Table 37)" },
	{ "addr", 0, 3, 37, "physical address bits 39:3 to match" },
	{ "opc", 0, 40, 8, "opcode to match, e.g. 0x19 RspFwdI" },
	{ "match_sel", 0, 61, 3, "4 address only, 2 opcode only, 6 address or opcode, 1 address and opcode" },
	{ "mesf", 1, 0, 8, "GQ_SNOOP prior-state select: bits 0-3 M/E/S/F to S, bits 4-7 M/E/S/F to I" },
};

/* MSR_UNCORE_PERFEVTSEL0-7: event 7:0, umask 15:8, edge 18, PMI 20 (reports an overflow in the global
 * status), EN 22, INV 23, cmask 31:24 (Linux NHM_UNC_*; notes B.2). */
static const struct ctl_layout lay_unc = { .name = "nhm",
	.f = { [CR_EVENT] = { 0, 8 }, [CR_UMASK] = { 8, 8 }, [CR_EDGE] = { 18, 1 }, [CR_OV_EN] = { 20, 1 },
	       [CR_INV] = { 23, 1 }, [CR_THRESH] = { 24, 8 } }, .enable = 1ull << 22 };

/* MSR_UNCORE_PERFEVTSEL0-7 0x3C0.. (event 7:0, umask 15:8, edge 18, EN 22, INV 23, cmask 31:24),
 * MSR_UNCORE_PMC0-7 0x3B0.. 48-bit; fixed MSR_UNCORE_FIXED_CTR_CTRL 0x395 (EN bit 0), CTR 0x394. */
static const struct box_type unc = {
	.name = "unc", .perf = "", .desc = "uncore PMU (GQ, L3, QHL, QMC, QPI home)", .prefix = "UNC",
	.space = UC_MSR, .disc_type = -1, .bc = &box_ctl_nhm,
	.max_boxes = 1, .nctr = 8, .width = 48,
	.has_box_ctl = 1, .box_ctl_resets = 0, .box_ctl = 0x391, .ctl0 = 0x3c0, .ctl_stride = 1,
	.ctr0 = 0x3b0, .ctr_stride = 1,
	.lay = &lay_unc,
	/* overflow: PerfEvtSel PMI bit 20 reports it in MSR_UNCORE_PERF_GLOBAL_STATUS 0x392 (OV_PC0-7 bits
	 * 0-7), cleared through MSR_UNCORE_PERF_GLOBAL_OVF_CTRL 0x393 (notes B.2, libpfm and nvmemu).
	 * Counting goes on after an overflow: the freeze-on-PMI bit is not used. */
	.status = 0x392, .status_clr = 0x393,
	.has_fixed = 1, .fixed_ctl = 0x395, .fixed_ctr = 0x394, .fixed_width = 48, .fixed_en = 1,
	.filt_regs = unc_filt, .nfilt_regs = N(unc_filt), .fields = unc_fields, .nfields = N(unc_fields),
};

/* The driver's aliases of the lone "uncore" PMU (nhm_uncore_events, Linux 6.12 uncore_snb.c), and its
 * threshold, which it calls cmask (format cmask8, config:24-31). */
static const struct perf_alias nhm_aliases[] = {
	{ "", "clockticks", "event=0xff,umask=0x00", 0, NULL },
	{ "", "qmc_writes_full_any", "event=0x2f,umask=0x0f", 0, NULL },
	{ "", "qmc_normal_reads_any", "event=0x2c,umask=0x0f", 0, NULL },
	{ "", "qhl_request_ioh_reads", "event=0x20,umask=0x01", 0, NULL },
	{ "", "qhl_request_ioh_writes", "event=0x20,umask=0x02", 0, NULL },
	{ "", "qhl_request_remote_reads", "event=0x20,umask=0x04", 0, NULL },
	{ "", "qhl_request_remote_writes", "event=0x20,umask=0x08", 0, NULL },
	{ "", "qhl_request_local_reads", "event=0x20,umask=0x10", 0, NULL },
	{ "", "qhl_request_local_writes", "event=0x20,umask=0x20", 0, NULL },
	{ 0 },
};
static const struct perf_term nhm_terms[] = { { NULL, "cmask", "thresh", 0, 0 }, { 0 } };

static const struct box_type *const nhm_types[] = { &unc };
static const int nhm_models[] = { 26, 30, 0 }; /* 0x1A Nehalem-EP, 0x1E (Linux nhm_uncore) */

/* Clocks: one uncore clock, which no seed gives (seed 003 names none): conservatively 1-3.5 GHz */
static const struct plat_clocks nhm_clocks = {
	{ { 1.0 * PLAT_GHZ, 3.5 * PLAT_GHZ, "Nehalem uncore clock: conservative 1-3.5 GHz (no seed bound)" } } };

const struct platform_desc platform_nhm = {
	.name = "nhm", .desc = "Nehalem-EP (Xeon 5500)",
	.family = 6, .models = nhm_models,
	.types = nhm_types, .ntypes = N(nhm_types),
	.events = &uc_events_nhm, .metrics_json = uc_metrics_nhm,
	.perf_aliases = nhm_aliases, .perf_terms = nhm_terms,
	.caveat = "occupancy events (GQ_TRACKER_OCCUP, QHL_OCCUPANCY, IMC_*_OCCUPANCY) need an empty queue when "
		  "first programmed, which Intel's driver gets with a bus lock (seed 003 L1134); this tool cannot, so "
		  "the first interval may include requests already queued. Divide occupancy by inserts for a latency, "
		  "but not again by the queue depth: on the uncore every core suffers the full latency (L1196).",
	.clocks = &nhm_clocks,
	.no_energy = "Nehalem-EP has no RAPL (running average power limit came with Sandy Bridge; Intel SDM vol. 3B, "
		     "RAPL interfaces): its package and DRAM energy cannot be read",
};
