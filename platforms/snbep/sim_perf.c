/* The Linux driver's Sandy Bridge-EP PMUs (uncore_snbep.c, snbep_uncore_init / snbep_uncore_pci_init):
 * names, format attributes (L469-547, attr lists L662-733), RAW_EVENT_MASKs and event aliases (L736-752). */
#include <stddef.h>
#include "sim/sim_perf.h"
#include "sim/sim_only.h"

#define EV_UMASK 0xffffull
#define EDGE (1ull << 18)
#define TID_EN (1ull << 19)
#define EV_EXT (1ull << 21)
#define INV (1ull << 23)
#define THRESH5 (0x1full << 24)
#define THRESH8 (0xffull << 24)
#define RAW (EV_UMASK | EDGE | INV | THRESH8) /* SNBEP_PMON_RAW_EVENT_MASK */

static const char *const ubox_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
					"thresh=config:24-28", NULL };
static const char *const cbox_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "tid_en=config:19",
					"inv=config:23", "thresh=config:24-31", "filter_tid=config1:0-4",
					"filter_nid=config1:10-17", "filter_state=config1:18-22",
					"filter_opc=config1:23-31", NULL };
static const char *const pcu_fmt[] = { SK_SNBEP_PCU_FORMATS, NULL };
static const char *const pci_fmt[] = { SK_SNBEP_FORMATS, NULL };
static const char *const qpi_fmt[] = { SK_SNBEP_QPI_FORMATS, NULL };
static const char *const imc_ev[] = { "clockticks=event=0xff,umask=0x00", "cas_count_read=event=0x04,umask=0x03",
				      "cas_count_write=event=0x04,umask=0x0c", SK_CAS_SCALE_UNIT, NULL };
static const char *const qpi_ev[] = { "clockticks=event=0x14", "txl_flits_active=event=0x00,umask=0x06",
				      "drs_data=event=0x102,umask=0x08", "ncb_data=event=0x103,umask=0x04", NULL };

const struct sim_perf_type sim_snbep_perf[] = {
	{ .name = "ubox", .unit = "ubox", .disc_type = -1, .formats = ubox_fmt, .fixed = 1,
	  .raw_mask = EV_UMASK | EDGE | INV | THRESH5 },
	{ .name = "cbox", .unit = "cbo", .disc_type = -1, .formats = cbox_fmt, .raw_mask = RAW | TID_EN,
	  .filt_word = { 1 }, .constraints = sk_snbep_cbox_constraints, .extra = sk_snbep_cbox_extra,
	  .xfld = { { 1, 0x1f }, { 1, 0x3fc00 }, { 1, 0x7c0000 }, { 1, 0xff800000 } } }, /* SNBEP_CB0_..._FILTER_* */
	{ .name = "pcu", .unit = "pcu", .disc_type = -1, .formats = pcu_fmt, .filt_word = { 1 },
	  .raw_mask = 0xffull | 0xc000ull | EDGE | INV | THRESH5 | 1ull << 30 | 1ull << 31,
	  .extra = sk_pcu_band_extra, .xfld = SK_PCU_BAND_FIELDS, .bands = 1 },
	{ .name = "ha", .unit = "ha", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW },
	{ .name = "imc", .unit = "imc", .disc_type = -1, .formats = pci_fmt, .events = imc_ev, .fixed = 1, .raw_mask = RAW },
	{ .name = "qpi", .unit = "qpi", .disc_type = -1, .formats = qpi_fmt, .events = qpi_ev, .raw_mask = RAW | EV_EXT,
	  .filt_word = { 1, 1, 2, 2 }, .filt_shift = { 0, 32, 0, 32 }, .extra = sk_qpi_match_extra, .xfld = SK_QPI_MATCH_FIELDS },
	{ .name = "r2pcie", .unit = "r2pcie", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW,
	  .constraints = sk_snbep_r2pcie_constraints },
	{ .name = "r3qpi", .unit = "r3qpi", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW,
	  .constraints = sk_snbep_r3qpi_constraints },
};
const int sim_snbep_nperf = sizeof(sim_snbep_perf) / sizeof(sim_snbep_perf[0]);
