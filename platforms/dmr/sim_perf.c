/*
 * The Linux 7.0 driver's Diamond Rapids PMUs (uncore_snbep.c dmr_uncores[], dmr_uncore_init; facts and commits:
 * platforms/dmr/README.md): names by discovery type, the DMR formats (the iMC's thresh10, the CXL CM's inv2,
 * thresh9_2 and port_en, PCIe's selectors), the generic format for the types the driver gives none (pcu, ubox,
 * santa, cncu, sncu, crs, cms), the iMC's fixed counter (event 0xff) and no event alias; the constraints of
 * aacb0718fddf/171b5292a82d; and the IIO free-running PMU (dmr_uncore_iio_free_running, d8987048f665).  Types
 * dmr_uncores[] has no entry for are uncore_type_<N>.  The driver gives ops to the iMC alone (spr_uncore_mmio_ops);
 * every other type takes the generic ops of its unit's access (ctl_write SK_CTL_BY_ACCESS), and on Diamond Rapids
 * those are all PCI or MMIO (dmr_uncore_init has no cpu_init): 32-bit writes, so no config bit at 32 or above
 * (umask_ext, port_en, thresh_ext, the PCIe selectors) reaches a register through the kernel.
 */
#include <stddef.h>
#include "sim/sim_perf.h"
#include "sim/sim_only.h"

SIM_PERF_DECL(dmr);

/* GENERIC_PMON_RAW_EVENT_MASK (uncore_discovery.h), which every type whose dmr_uncores[] entry sets no event_mask
 * keeps (intel_uncore_generic_init_uncores; uncore_type_customized_copy copies only a set one) */
#define BASE (0xffffull | 1ull << 18 | 1ull << 23 | 0xffull << 24)

/* dmr_sca/hamvf/...: umask_ext5 (config:8-15,32-63), DMR_HAMVF_EVENT_MASK_EXT 0xffffffff */
static const char *const sca_fmt[] = { "event=config:0-7", "umask=config:8-15,32-63", "edge=config:18", "inv=config:23",
				       "thresh=config:24-31", NULL };
/* dmr_imc_uncore_formats_attr: thresh10 config:23-32 */
static const char *const imc_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
				       "thresh=config:23-32", NULL };
/* dmr_cxlcm_uncore_formats_attr: inv2 config:21, thresh9_2 config:23-31, port_en config:32-35 */
static const char *const cxlcm_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:21",
					 "thresh=config:23-31", "port_en=config:32-35", NULL };
/* dmr_pcie4_uncore_formats_attr (pcie6 the same) */
static const char *const pcie_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
					"thresh=config:24-31", "thresh_ext=config:32-35", "rs3_sel=config:36",
					"rx_sel=config:37", "tx_sel=config:38", "iep_sel=config:39", "vc_sel=config:40-47",
					"port_sel=config:48-55", NULL };

/* dmr_uncore_cxlcm_constraints: 0x01-0x24 on counters 0-3; 0x41, 0x50-0x5e, 0x60-0x61 on 4-7 (ranges, aacb0718fddf) */
#define LO(c) { c, 0x0f }
#define HI(c) { c, 0xf0 }
static const struct sim_perf_constraint cxlcm_constraints[] = {
	LO(0x01), LO(0x02), LO(0x03), LO(0x04), LO(0x05), LO(0x06), LO(0x07), LO(0x08), LO(0x09), LO(0x0a), LO(0x0b), LO(0x0c),
	LO(0x0d), LO(0x0e), LO(0x0f), LO(0x10), LO(0x11), LO(0x12), LO(0x13), LO(0x14), LO(0x15), LO(0x16), LO(0x17), LO(0x18),
	LO(0x19), LO(0x1a), LO(0x1b), LO(0x1c), LO(0x1d), LO(0x1e), LO(0x1f), LO(0x20), LO(0x21), LO(0x22), LO(0x23), LO(0x24),
	HI(0x41), HI(0x50), HI(0x51), HI(0x52), HI(0x53), HI(0x54), HI(0x55), HI(0x56), HI(0x57), HI(0x58), HI(0x59), HI(0x5a),
	HI(0x5b), HI(0x5c), HI(0x5d), HI(0x5e), HI(0x60), HI(0x61), { 0, 0 }
};
/* dmr_uncore_cbo_constraints: 0x11, 0x19-0x1a, 0x1f, 0x21, 0x25, 0x36 on counter 0 (171b5292a82d) */
static const struct sim_perf_constraint cbo_constraints[] = {
	{ 0x11, 0x1 }, { 0x19, 0x1 }, { 0x1a, 0x1 }, { 0x1f, 0x1 }, { 0x21, 0x1 }, { 0x25, 0x1 }, { 0x36, 0x1 }, { 0, 0 }
};
/* dmr_uncore_sbo_constraints: 0x1f, 0x25 on counter 0 */
static const struct sim_perf_constraint sbo_constraints[] = { { 0x1f, 0x1 }, { 0x25, 0x1 }, { 0, 0 } };

/* dmr_uncore_iio_freerunning_events: inb_data_port0-7 umask 0x10-0x17, bw_in_port0-7 0x20-0x27, bw_out_port0-7
 * 0x30-0x37, each 3.814697266e-6 MiB a count (4 bytes), and clockticks umask 0x40 */
#define FR_EV(s, n, um) s #n "=event=0xff,umask=" um, s #n ".scale=3.814697266e-6", s #n ".unit=MiB"
#define FR_EV8(s, h) FR_EV(s, 0, h "0"), FR_EV(s, 1, h "1"), FR_EV(s, 2, h "2"), FR_EV(s, 3, h "3"), FR_EV(s, 4, h "4"), \
	FR_EV(s, 5, h "5"), FR_EV(s, 6, h "6"), FR_EV(s, 7, h "7")
static const char *const iio_fr_events[] = { FR_EV8("inb_data_port", "0x1"), FR_EV8("bw_in_port", "0x2"),
					     FR_EV8("bw_out_port", "0x3"), "clockticks=event=0xff,umask=0x40", NULL };

/* dmr_uncore_init has no .cpu_init (6daf2c35b835): no type registers a unit its table lists through MSR */
#define T(n, t, f, m, c) { .name = n, .unit = n, .disc_type = t, .formats = f, .raw_mask = (m), .constraints = c, .no_msr = 1 }
#define SCA(n, t) T(n, t, sca_fmt, BASE | 0xffffffffull << 32, NULL)
#define GEN(n, t) T(n, t, sk_generic_fmt, BASE, NULL)
const struct sim_perf_type sim_dmr_perf[] = {
	GEN("pcu", 4),
	GEN("ubox", 5),
	/* spr_uncore_mmio_ops (writel: 32 bits); the fixed counter is config 0xff.  dmr_uncore_imc sets no event_mask
	 * and no event_mask_ext: GENERIC_PMON_RAW_EVENT_MASK alone, so thresh10's top bit 32 is dropped (6daf2c35b835) */
	{ .name = "imc", .unit = "imc", .disc_type = 6, .formats = imc_fmt, .fixed = 1, .raw_mask = BASE, .no_msr = 1 },
	SCA("sca", 23),
	/* dmr_uncore_cxlcm: GENERIC_PMON_RAW_EVENT_MASK | DMR_CXLCM_EVENT_MASK_EXT 0xf << 32 (6daf2c35b835): inv2's bit 21
	 * is outside it, so Linux drops it */
	T("cxlcm", 24, cxlcm_fmt, BASE | 0xfull << 32, cxlcm_constraints),
	SCA("hamvf", 30),
	T("cbo", 31, sca_fmt, BASE | 0xffffffffull << 32, cbo_constraints),
	GEN("santa", 32), GEN("cncu", 33), GEN("sncu", 34),
	SCA("ula", 35), SCA("dda", 36),
	T("sbo", 38, sca_fmt, BASE | 0xffffffffull << 32, sbo_constraints),
	SCA("ubr", 43),
	T("pcie4", 45, pcie_fmt, BASE | 0xffffffull << 32, NULL),
	GEN("crs", 46),
	SCA("cpc", 47), SCA("itc", 48), SCA("otc", 49),
	GEN("cms", 50),
	T("pcie6", 51, pcie_fmt, BASE | 0xffffffull << 32, NULL),
	/* free-running counters alone, in dmr_iio_freerunning's groups: ITC_INB_DATA_BW, ITC_BW_IN, OTC_BW_OUT (8 each),
	 * OTC_CLOCK_TICKS (the simulator's iio unit holds them in that order) */
	{ .name = "iio", .unit = "iio", .disc_type = -1, .formats = sk_generic_fmt, .fr_name = "iio_free_running",
	  .fr_first = { 0, 8, 16, 24 }, .fr_n = { 8, 8, 8, 1 }, .fr_events = iio_fr_events,
	  .fr_count_type = 0x30 }, /* num_boxes = uncore_type_max_boxes(uncore_mmio_uncores, UNCORE_DMR_ITC) */
};
const int sim_dmr_nperf = sizeof(sim_dmr_perf) / sizeof(sim_dmr_perf[0]);
