/* The Linux driver's Haswell-EP PMUs (Linux 6.12 uncore_snbep.c, hswep_uncore_init: hswep_msr_uncores[] and
 * hswep_pci_uncores[]): names, format attributes, RAW_EVENT_MASKs, event aliases, constraint lists and the
 * driver's quirks (the PCU band mask, the CBo count capped by the cores, QPI port 2 without match/mask).
 * The formats and types Broadwell-EP shares are here too (sim_hsx.h). */
#include <stddef.h>
#include "sim_hsx.h"

/* hswep_uncore_ubox_formats_attr: filter_tid2 config1:0, filter_cid config1:5 */
static const char *const ubox_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
					"thresh=config:24-28", "filter_tid=config1:0", "filter_cid=config1:5", NULL };
/* hswep_uncore_cbox_formats_attr: no inv (the mask keeps bit 23); filter_tid3, filter_link2, filter_state3,
 * filter_nid2, filter_opc2, filter_nc, filter_c6, filter_isoc */
const char *const sim_hsx_cbox_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "tid_en=config:19",
					 "thresh=config:24-31", "filter_tid=config1:0-5", "filter_link=config1:6-8",
					 "filter_state=config1:17-23", "filter_nid=config1:32-47",
					 "filter_opc=config1:52-60", "filter_nc=config1:62", "filter_c6=config1:61",
					 "filter_isoc=config1:63", NULL };
/* hswep_uncore_sbox_formats_attr */
const char *const sim_hsx_sbox_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "tid_en=config:19",
					 "inv=config:23", "thresh=config:24-31", NULL };
const char *const sim_hsx_pcu_fmt[] = { SK_SNBEP_PCU_FORMATS, NULL };
const char *const sim_hsx_pci_fmt[] = { SK_SNBEP_FORMATS, NULL };
const char *const sim_hsx_qpi_fmt[] = { SK_SNBEP_QPI_FORMATS, NULL };
/* hswep_uncore_imc_events: clockticks is event 0x00 on a general counter */
const char *const sim_hsx_imc_events[] = { "clockticks=event=0x00,umask=0x00", "cas_count_read=event=0x04,umask=0x03",
					   "cas_count_write=event=0x04,umask=0x0c", SK_CAS_SCALE_UNIT, NULL };

const struct sim_perf_type sim_hsx_perf[] = {
	/* hswep_ubox_hw_config: every event takes config1 & HSWEP_U_MSR_PMON_BOX_FILTER_MASK into 0x707 */
	{ .name = "ubox", .unit = "ubox", .disc_type = -1, .formats = ubox_fmt, .fixed = 1,
	  .raw_mask = 0xffffull | 1ull << 18 | 1ull << 23 | 0x1full << 24, .filt_word = { 1 }, .extra = sk_hswep_ubox_extra,
	  .xfld = { { 1, 0x3full } } },
	SIM_HSX_PERF_TYPES(18, sk_hswep_cbox_constraints, NULL, sk_hswep_r2pcie_constraints, sk_hswep_r3qpi_constraints),
};
const int sim_hsx_nperf = sizeof(sim_hsx_perf) / sizeof(sim_hsx_perf[0]);
