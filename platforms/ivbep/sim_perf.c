/* The Linux driver's Ivy Bridge-EP PMUs (uncore_snbep.c, ivbep_uncore_init / ivbep_uncore_pci_init,
 * L1554-2060): format attributes, IVBEP_*_RAW_EVENT_MASKs (no invert bit: the driver lists "inv" on
 * the UBox and PCI boxes but drops it) and the R3QPI's two boxes. */
#include <stddef.h>
#include "sim/sim_perf.h"
#include "sim/sim_only.h"

#define EV_UMASK 0xffffull
#define EDGE (1ull << 18)
#define TID_EN (1ull << 19)
#define EV_EXT (1ull << 21)
#define THRESH5 (0x1full << 24)
#define THRESH8 (0xffull << 24)
#define RAW (EV_UMASK | EDGE | THRESH8) /* IVBEP_PMON_RAW_EVENT_MASK */

static const char *const ubox_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
					"thresh=config:24-28", NULL };
static const char *const cbox_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "tid_en=config:19",
					"thresh=config:24-31", "filter_tid=config1:0-4", "filter_link=config1:5-8",
					"filter_state=config1:17-22", "filter_nid=config1:32-47",
					"filter_opc=config1:52-60", "filter_c6=config1:61", "filter_nc=config1:62",
					"filter_isoc=config1:63", NULL };
static const char *const pcu_fmt[] = { "event=config:0-7", "occ_sel=config:14-15", "edge=config:18",
				       "thresh=config:24-28", "occ_invert=config:30", "occ_edge=config:14-51",
				       "filter_band0=config1:0-7", "filter_band1=config1:8-15",
				       "filter_band2=config1:16-23", "filter_band3=config1:24-31", NULL };
static const char *const pci_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
				       "thresh=config:24-31", NULL };
/* ivbep_uncore_qpi_formats_attr (Linux 6.1, 6.12): SNB-EP's match and mask fields, no inv */
static const char *const qpi_fmt[] = { "event=config:0-7,21", "umask=config:8-15", "edge=config:18",
				       "thresh=config:24-31", SK_XEON_EP_QPI_MATCH_MASK, NULL };
static const char *const imc_ev[] = { "clockticks=event=0xff,umask=0x00", "cas_count_read=event=0x04,umask=0x03",
				      "cas_count_write=event=0x04,umask=0x0c", SK_CAS_SCALE_UNIT, NULL };

const struct sim_perf_type sim_ivbep_perf[] = {
	{ .name = "ubox", .unit = "ubox", .disc_type = -1, .formats = ubox_fmt, .fixed = 1, .raw_mask = EV_UMASK | EDGE | THRESH5 },
	{ .name = "cbox", .unit = "cbo", .disc_type = -1, .formats = cbox_fmt, .raw_mask = RAW | TID_EN,
	  .filt_word = { 1, 1 }, .filt_shift = { 0, 32 }, .constraints = sk_snbep_cbox_constraints,
	  .extra = sk_ivbep_cbox_extra, /* IVBEP_CB0_MSR_PMON_BOX_FILTER_*: tid, link, state, nid, opc+c6+nc+isoc */
	  .xfld = { { 1, 0x1full }, { 1, 0xfull << 5 }, { 1, 0x3full << 17 }, { 1, 0xffffull << 32 }, { 1, 0xfffull << 52 } } },
	{ .name = "pcu", .unit = "pcu", .disc_type = -1, .formats = pcu_fmt, .filt_word = { 1 },
	  .raw_mask = 0xffull | 0xc000ull | EDGE | THRESH5 | 1ull << 30 | 1ull << 31,
	  .extra = sk_pcu_band_extra, .xfld = SK_PCU_BAND_FIELDS, .bands = 1 },
	{ .name = "ha", .unit = "ha", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW },
	{ .name = "imc", .unit = "imc", .disc_type = -1, .formats = pci_fmt, .events = imc_ev, .fixed = 1, .raw_mask = RAW },
	{ .name = "irp", .unit = "irp", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW },
	{ .name = "qpi", .unit = "qpi", .disc_type = -1, .formats = qpi_fmt, .raw_mask = RAW | EV_EXT,
	  .filt_word = { 1, 1, 2, 2 }, .filt_shift = { 0, 32, 0, 32 }, .extra = sk_qpi_match_extra, .xfld = SK_QPI_MATCH_FIELDS },
	{ .name = "r2pcie", .unit = "r2pcie", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW,
	  .constraints = sk_snbep_r2pcie_constraints },
	{ .name = "r3qpi", .unit = "r3qpi", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW, .max_boxes = 2,
	  .constraints = sk_snbep_r3qpi_constraints },
};
const int sim_ivbep_nperf = sizeof(sim_ivbep_perf) / sizeof(sim_ivbep_perf[0]);
