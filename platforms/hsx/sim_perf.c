/* The Linux driver's Haswell-EP PMUs (Linux 6.12 uncore_snbep.c, hswep_uncore_init: hswep_msr_uncores[] and
 * hswep_pci_uncores[]): names, format attributes, RAW_EVENT_MASKs, event aliases, constraint lists and the
 * driver's quirks (the PCU band mask, the CBo count capped by the cores, QPI port 2 without match/mask). */
#include <stddef.h>
#include "sim/sim_kernel.h"
#include "sim/sim_only.h"

#define EV_UMASK 0xffffull
#define EDGE (1ull << 18)
#define TID_EN (1ull << 19)
#define EV_EXT (1ull << 21)
#define INV (1ull << 23)
#define THRESH5 (0x1full << 24)
#define THRESH8 (0xffull << 24)
#define RAW (EV_UMASK | EDGE | INV | THRESH8) /* SNBEP_PMON_RAW_EVENT_MASK */

/* hswep_uncore_ubox_formats_attr: filter_tid2 config1:0, filter_cid config1:5 */
static const char *const ubox_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
					"thresh=config:24-28", "filter_tid=config1:0", "filter_cid=config1:5", NULL };
/* hswep_uncore_cbox_formats_attr: no inv (the mask keeps bit 23); filter_tid3, filter_link2, filter_state3,
 * filter_nid2, filter_opc2, filter_nc, filter_c6, filter_isoc */
static const char *const cbox_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "tid_en=config:19",
					"thresh=config:24-31", "filter_tid=config1:0-5", "filter_link=config1:6-8",
					"filter_state=config1:17-23", "filter_nid=config1:32-47",
					"filter_opc=config1:52-60", "filter_nc=config1:62", "filter_c6=config1:61",
					"filter_isoc=config1:63", NULL };
/* hswep_uncore_sbox_formats_attr */
static const char *const sbox_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "tid_en=config:19",
					"inv=config:23", "thresh=config:24-31", NULL };
static const char *const pcu_fmt[] = { SK_SNBEP_PCU_FORMATS, NULL };
static const char *const pci_fmt[] = { SK_SNBEP_FORMATS, NULL };
static const char *const qpi_fmt[] = { SK_SNBEP_QPI_FORMATS, NULL };
/* hswep_uncore_imc_events: clockticks is event 0x00 on a general counter */
static const char *const imc_ev[] = { "clockticks=event=0x00,umask=0x00", "cas_count_read=event=0x04,umask=0x03",
				      "cas_count_write=event=0x04,umask=0x0c", SK_CAS_SCALE_UNIT, NULL };

const struct sim_perf_type sim_hsx_perf[] = {
	{ .name = "ubox", .unit = "ubox", .disc_type = -1, .formats = ubox_fmt, .fixed = 1,
	  .raw_mask = EV_UMASK | EDGE | INV | THRESH5, .filt_word = { 1 }, .extra = sk_hswep_ubox_extra,
	  .xfld = { { 1, 0x3full } } /* HSWEP_U_MSR_PMON_BOX_FILTER_MASK */ },
	{ .name = "cbox", .unit = "cbo", .disc_type = -1, .formats = cbox_fmt, .raw_mask = RAW | TID_EN, .cap_by_cores = 1,
	  .filt_word = { 1, 1 }, .filt_shift = { 0, 32 }, .constraints = sk_hswep_cbox_constraints,
	  .extra = sk_hswep_cbox_extra, /* HSWEP_CB0_MSR_PMON_BOX_FILTER_*: tid, link, state, nid, opc+c6+nc+isoc */
	  .xfld = { { 1, 0x3full }, { 1, 0xfull << 6 }, { 1, 0x7full << 17 }, { 1, 0xffffull << 32 }, { 1, 0xfffull << 52 } } },
	{ .name = "sbox", .unit = "sbox", .disc_type = -1, .formats = sbox_fmt, .raw_mask = RAW | TID_EN },
	{ .name = "pcu", .unit = "pcu", .disc_type = -1, .formats = pcu_fmt, .filt_word = { 1 },
	  .raw_mask = 0xffull | 0xc000ull | EDGE | INV | THRESH5 | 1ull << 30 | 1ull << 31,
	  .extra = sk_pcu_band_extra, .xfld = SK_PCU_BAND_FIELDS, .bands = 1, .band_mask_by_index = 1 },
	{ .name = "ha", .unit = "ha", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW },
	{ .name = "imc", .unit = "imc", .disc_type = -1, .formats = pci_fmt, .events = imc_ev, .fixed = 1, .raw_mask = RAW },
	{ .name = "irp", .unit = "irp", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW },
	{ .name = "qpi", .unit = "qpi", .disc_type = -1, .formats = qpi_fmt, .raw_mask = RAW | EV_EXT,
	  .filt_word = { 1, 1, 2, 2 }, .filt_shift = { 0, 32, 0, 32 }, .extra = sk_qpi_match_extra, .xfld = SK_QPI_MATCH_FIELDS },
	{ .name = "r2pcie", .unit = "r2pcie", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW,
	  .constraints = sk_hswep_r2pcie_constraints },
	{ .name = "r3qpi", .unit = "r3qpi", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW,
	  .constraints = sk_hswep_r3qpi_constraints },
};
const int sim_hsx_nperf = sizeof(sim_hsx_perf) / sizeof(sim_hsx_perf[0]);
