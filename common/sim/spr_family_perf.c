/* The Linux driver's Sapphire/Emerald Rapids PMUs (uncore_snbep.c spr_uncores[], spr_uncore_init;
 * uncore_discovery.c generic formats): names by discovery type (5, the UBox, has none), the CHA, raw,
 * IIO and generic format attributes, event masks with their extensions, the IMC's fixed counter and
 * aliases, and the IIO and IMC free-running PMUs (spr_iio_freerunning, spr_imc_freerunning).  The MMIO
 * types (imc: spr_uncore_mmio_ops; cxlcm, cxldp: spr_uncore_mmio_offs8_ops; hbm: the generic MMIO ops) write
 * config with writel, 32 bits, as their access gives (ctl_write SK_CTL_BY_ACCESS): the umask extension their
 * mask keeps never reaches the register through the kernel. */
#include <stddef.h>
#include "sim/sim_perf.h"
#include "sim/sim_only.h"

#define BASE (0xffffull | 1ull << 18 | 1ull << 23 | 0xffull << 24) /* SNBEP_PMON_RAW_EVENT_MASK */
#define EXT24 (0xffffffull << 32)                                  /* SPR_RAW_EVENT_MASK_EXT */
#define EXT32 (0xffffffffull << 32) /* SPR_CHA_EVENT_MASK_EXT: Linux 6.1 and 6.12, "umask_ext5" */

static const char *const imc_ev[] = { "clockticks=event=0x01,umask=0x00", "cas_count_read=event=0x05,umask=0xcf",
				      "cas_count_write=event=0x05,umask=0xf0", SK_CAS_SCALE_UNIT, NULL };
static const char *const imc_fr_ev[] = { "dclk=event=0xff,umask=0x10", "rpq_cycles=event=0xff,umask=0x20",
					 "wpq_cycles=event=0xff,umask=0x21", NULL };

#define RAW_TYPE_C(n, t, c) { .name = n, .unit = n, .disc_type = t, .formats = sk_spr_raw_fmt, .raw_mask = BASE | EXT24, \
			     .constraints = c }
#define RAW_TYPE(n, t) RAW_TYPE_C(n, t, NULL)
const struct sim_perf_type sim_spr_perf[] = {
	{ .name = "cha", .unit = "cha", .disc_type = 0, .formats = sk_spr_cha_fmt, .raw_mask = BASE | 1ull << 16 | EXT32,
	  .filt_word = { 1 }, .constraints = sk_skx_chabox_constraints, .extra = sk_spr_cha_extra,
	  .xfld = { { 1, 0x3ff } } }, /* SPR_CHA_PMON_BOX_FILTER_TID */
	{ .name = "iio", .unit = "iio", .disc_type = 1, .formats = sk_snr_iio_fmt, .raw_mask = BASE | 0x7ffffull << 32,
	  .constraints = sk_icx_iio_constraints,
	  .fr_name = "iio_free_running", .fr_first = { 0, 1, 9 }, .fr_n = { 1, 8, 8 }, .fr_events = sk_spr_iio_fr_events },
	RAW_TYPE("irp", 2),
	RAW_TYPE_C("m2pcie", 3, sk_spr_m2pcie_constraints),
	{ .name = "pcu", .unit = "pcu", .disc_type = 4, .formats = sk_generic_fmt, .raw_mask = BASE },
	{ .name = NULL, .unit = "ubox", .disc_type = 5, .formats = sk_generic_fmt, .raw_mask = BASE },
	{ .name = "imc", .unit = "imc", .disc_type = 6, .formats = sk_spr_raw_fmt, .events = imc_ev, .fixed = 1,
	  .raw_mask = BASE | EXT24, .fr_name = "imc_free_running", .fr_first = { 0, 1 }, .fr_n = { 1, 2 },
	  .fr_events = imc_fr_ev },
	/* spr_uncore_pci_ops: spr_uncore_pci_enable_event writes both dwords of config */
	{ .name = "m2m", .unit = "m2m", .disc_type = 7, .formats = sk_spr_raw_fmt, .raw_mask = BASE | EXT24,
	  .ctl_write = SK_CTL_QWORD },
	/* found by device id (0x3241, 0x3246), so a broken table entry does not hide one (Linux 6.12) */
	{ .name = "upi", .unit = "upi", .disc_type = 8, .formats = sk_spr_raw_fmt, .raw_mask = BASE | EXT24, .by_devid = 1,
	  .ctl_write = SK_CTL_QWORD },
	{ .name = "m3upi", .unit = "m3upi", .disc_type = 9, .formats = sk_spr_raw_fmt, .raw_mask = BASE | EXT24, .by_devid = 1,
	  .constraints = sk_icx_m3upi_constraints, .ctl_write = SK_CTL_QWORD },
	RAW_TYPE("mdf", 11),
	RAW_TYPE_C("cxlcm", 12, sk_spr_cxlcm_constraints),
	RAW_TYPE("cxldp", 13),
	RAW_TYPE("hbm", 14), /* spr_uncore_hbm: SPR_UNCORE_COMMON_FORMAT (Linux f8a86a9bb5f7) */
};
const int sim_spr_nperf = sizeof(sim_spr_perf) / sizeof(sim_spr_perf[0]);
