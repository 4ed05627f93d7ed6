/*
 * The Linux driver's Granite Rapids PMUs (uncore_snbep.c gnr_uncores[], gnr_uncore_cpu/pci/mmio_init) as
 * Linux 6.12.117 has them (Debian's linux-source-6.12; 7.0 the same): names by discovery type, the spr_*
 * formats and masks the GNR types reuse, the generic format for the types the driver gives none (ubox,
 * b2hot, mdf_sbo, pcu), the IMC's fixed counter and per-scheduler CAS aliases (gnr_uncore_imc_events,
 * 6a8a48644c4b).  Every unit is found through the discovery table (gnr_uncore_units_ignore is empty since
 * 6d642735cdb6: Linux 6.14, and 6.12.y from its March 2026 backport).
 * kernel=6.12.0 (linux_6120): before 6d642735cdb6, gnr_uncore_units_ignore held UNCORE_SPR_UPI (8),
 * UNCORE_GNR_TYPE_15, UNCORE_GNR_B2UPI (18), UNCORE_GNR_TYPE_21 and _22, and gnr_uncores[] had NULL at 12 and
 * 13 (spr_uncore_cxlcm, spr_uncore_cxldp came with it); before 6a8a48644c4b the IMC was spr_uncore_imc.
 * The MMIO types (imc, cxlcm, cxldp, b2cxl) write config with writel, 32 bits, as their access gives (ctl_write
 * SK_CTL_BY_ACCESS), although their mask keeps the umask extension (SPR_RAW_EVENT_MASK_EXT).
 */
#include <stddef.h>
#include "sim/sim_perf.h"
#include "sim/sim_only.h"

#define BASE (0xffffull | 1ull << 18 | 1ull << 23 | 0xffull << 24) /* SNBEP_PMON_RAW_EVENT_MASK */
#define EXT24 (0xffffffull << 32)                                  /* SPR_RAW_EVENT_MASK_EXT */
#define EXT32 (0xffffffffull << 32)                                /* SPR_CHA_EVENT_MASK_EXT */

#define CAS(n, ev, um) #n "=event=" #ev ",umask=" #um, #n ".scale=6.103515625e-5", #n ".unit=MiB"
static const char *const imc_ev[] = { "clockticks=event=0x01,umask=0x00", CAS(cas_count_read_sch0, 0x05, 0xcf),
				      CAS(cas_count_read_sch1, 0x06, 0xcf), CAS(cas_count_write_sch0, 0x05, 0xf0),
				      CAS(cas_count_write_sch1, 0x06, 0xf0), NULL };
/* spr_uncore_imc_events: Linux 6.12.0's on GNR, whose cas_count_* (event 0x05) count scheduler 0 only */
static const char *const imc_ev_6120[] = { "clockticks=event=0x01,umask=0x00", "cas_count_read=event=0x05,umask=0xcf",
					   "cas_count_write=event=0x05,umask=0xf0", SK_CAS_SCALE_UNIT, NULL };

#define RAW_TYPE_C(n, u, t, c, old) { .name = n, .unit = u, .disc_type = t, .formats = sk_spr_raw_fmt, .raw_mask = BASE | EXT24, \
				      .constraints = c, .linux_6120 = old }
#define RAW_TYPE(n, t) RAW_TYPE_C(n, n, t, NULL, SK_6120_SAME)
#define RAW_TYPE_OLD(n, t, old) RAW_TYPE_C(n, n, t, NULL, old)
#define GEN_TYPE_OLD(n, u, t, old) { .name = n, .unit = u, .disc_type = t, .formats = sk_generic_fmt, .raw_mask = BASE, \
				     .linux_6120 = old }
#define GEN_TYPE(n, u, t) GEN_TYPE_OLD(n, u, t, SK_6120_SAME)
/* SPR_UNCORE_PCI_COMMON_FORMAT: spr_uncore_pci_ops, whose enable_event writes both dwords of config */
#define PCI_TYPE_OLD(n, t, old) { .name = n, .unit = n, .disc_type = t, .formats = sk_spr_raw_fmt, .raw_mask = BASE | EXT24, \
				  .ctl_write = SK_CTL_QWORD, .linux_6120 = old }
#define PCI_TYPE(n, t) PCI_TYPE_OLD(n, t, SK_6120_SAME)
const struct sim_perf_type sim_gnr_perf[] = {
	{ .name = "cha", .unit = "cha", .disc_type = 0, .formats = sk_spr_cha_fmt, .raw_mask = BASE | 1ull << 16 | EXT32,
	  .filt_word = { 1 }, .constraints = sk_skx_chabox_constraints, .extra = sk_spr_cha_extra,
	  .xfld = { { 1, 0x3ff } } }, /* SPR_CHA_PMON_BOX_FILTER_TID */
	{ .name = "iio", .unit = "iio", .disc_type = 1, .formats = sk_snr_iio_fmt, .raw_mask = BASE | 0x7ffffull << 32,
	  .constraints = sk_icx_iio_constraints, /* gnr_uncore_cpu_init: spr_uncore_iio_free_running, gnr_iio_freerunning */
	  .fr_name = "iio_free_running", .fr_first = { 0, 1, 9 }, .fr_n = { 1, 8, 8 }, .fr_events = sk_spr_iio_fr_events },
	RAW_TYPE("irp", 2),
	GEN_TYPE("pcu", "pcu", 4),
	GEN_TYPE("ubox", "ubox", 5),
	{ .name = "imc", .unit = "imc", .disc_type = 6, .formats = sk_spr_raw_fmt, .events = imc_ev, .fixed = 1,
	  .raw_mask = BASE | EXT24, .events_6120 = imc_ev_6120 },
	PCI_TYPE_OLD("upi", 8, SK_6120_IGNORED),
	RAW_TYPE_C("cxlcm", "cxlcm", 12, sk_spr_cxlcm_constraints, SK_6120_UNNAMED),
	RAW_TYPE_OLD("cxldp", 13, SK_6120_UNNAMED),
	GEN_TYPE_OLD("b2hot", "b2hot", 15, SK_6120_IGNORED),
	PCI_TYPE("b2cmi", 16),
	RAW_TYPE("b2cxl", 17), /* spr_uncore_mmio_offs8_ops: 8-byte control steps, but writel, 32 bits */
	PCI_TYPE_OLD("b2upi", 18, SK_6120_IGNORED),
	GEN_TYPE("mdf_sbo", "mdf", 20),
	PCI_TYPE_OLD("pciex16", 21, SK_6120_IGNORED),
	PCI_TYPE_OLD("pciex8", 22, SK_6120_IGNORED),
	/* no entry in gnr_uncores[]: the generic discovery PMUs, uncore_type_<t>[_<box>] */
	GEN_TYPE(NULL, "type3", 3), GEN_TYPE(NULL, "type7", 7), GEN_TYPE(NULL, "type9", 9), GEN_TYPE(NULL, "type10", 10),
	GEN_TYPE(NULL, "type11", 11), GEN_TYPE(NULL, "type14", 14), GEN_TYPE(NULL, "type19", 19),
};
const int sim_gnr_nperf = sizeof(sim_gnr_perf) / sizeof(sim_gnr_perf[0]);
