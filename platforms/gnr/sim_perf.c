/*
 * The Linux 6.12 driver's Granite Rapids PMUs (uncore_snbep.c gnr_uncores[], gnr_uncore_cpu/pci/mmio_init):
 * names by discovery type, the spr_* formats and masks the GNR types reuse, the generic format for the types
 * the driver gives none (ubox, b2hot, mdf_sbo, pcu), the IMC's fixed counter and per-scheduler CAS aliases
 * (gnr_uncore_imc_events).  Every unit is found through the discovery table (gnr_uncore_units_ignore is empty).
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

#define RAW_TYPE_C(n, u, t, c) { .name = n, .unit = u, .disc_type = t, .formats = sk_spr_raw_fmt, .raw_mask = BASE | EXT24, \
				 .constraints = c }
#define RAW_TYPE(n, t) RAW_TYPE_C(n, n, t, NULL)
/* SPR_UNCORE_PCI_COMMON_FORMAT: spr_uncore_pci_ops, whose enable_event writes both dwords of config */
#define PCI_TYPE(n, t) { .name = n, .unit = n, .disc_type = t, .formats = sk_spr_raw_fmt, .raw_mask = BASE | EXT24, \
			 .ctl_write = SK_CTL_QWORD }
#define GEN_TYPE(n, u, t) { .name = n, .unit = u, .disc_type = t, .formats = sk_generic_fmt, .raw_mask = BASE }
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
	  .raw_mask = BASE | EXT24 },
	PCI_TYPE("upi", 8),
	RAW_TYPE_C("cxlcm", "cxlcm", 12, sk_spr_cxlcm_constraints),
	RAW_TYPE("cxldp", 13),
	GEN_TYPE("b2hot", "b2hot", 15),
	PCI_TYPE("b2cmi", 16),
	RAW_TYPE("b2cxl", 17), /* spr_uncore_mmio_offs8_ops: 8-byte control steps, but writel, 32 bits */
	PCI_TYPE("b2upi", 18),
	GEN_TYPE("mdf_sbo", "mdf", 20),
	PCI_TYPE("pciex16", 21),
	PCI_TYPE("pciex8", 22),
	/* no entry in gnr_uncores[]: the generic discovery PMUs, uncore_type_<t>[_<box>] */
	GEN_TYPE(NULL, "type3", 3), GEN_TYPE(NULL, "type7", 7), GEN_TYPE(NULL, "type9", 9), GEN_TYPE(NULL, "type10", 10),
	GEN_TYPE(NULL, "type11", 11), GEN_TYPE(NULL, "type14", 14), GEN_TYPE(NULL, "type19", 19),
};
const int sim_gnr_nperf = sizeof(sim_gnr_perf) / sizeof(sim_gnr_perf[0]);
