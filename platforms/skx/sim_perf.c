/*
 * The Linux 6.12 driver's Skylake-SP PMUs (uncore_snbep.c skx_msr_uncores[], skx_pci_uncores[]; Linux 6.1
 * lists the same): names, format attributes, raw event masks, constraint and extra-register tables
 * (common/sim/sim_perf_rules.c), the iMC and free-running IIO aliases, and the driver's quirks: the PCU
 * band mask (hswep_pcu_hw_config), the UPI and M2M controls' high dword never written, tid_en claiming
 * every CHA filter field.  platforms/skx/linux_pmus.txt is the listing.
 */
#include <stddef.h>
#include "sim/sim_perf.h"
#include "sim/sim_only.h"
#include "sim_skx.h"

#define EV_UMASK 0xffffull
#define EDGE (1ull << 18)
#define TID_EN (1ull << 19)
#define INV (1ull << 23)
#define RAW (EV_UMASK | EDGE | INV | 0xffull << 24) /* SNBEP_PMON_RAW_EVENT_MASK */
#define FMT_BASE "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23"

/* ivbep_uncore_ubox_formats_attr */
const char *const sim_skx_ubox_fmt[] = { FMT_BASE, "thresh=config:24-28", NULL };
/* skx_uncore_cha_formats_attr */
static const char *const cha_fmt[] = { FMT_BASE, "tid_en=config:19", "thresh=config:24-31", "filter_tid=config1:0-8",
				       "filter_state=config1:17-26", "filter_rem=config1:32", "filter_loc=config1:33",
				       "filter_nm=config1:36", "filter_all_op=config1:35", "filter_not_nm=config1:37",
				       "filter_opc0=config1:41-50", "filter_opc1=config1:51-60", "filter_nc=config1:62",
				       "filter_isoc=config1:63", NULL };
/* skx_uncore_iio_formats_attr */
static const char *const iio_fmt[] = { FMT_BASE, "thresh=config:24-35", "ch_mask=config:36-43", "fc_mask=config:44-46", NULL };
/* skx_uncore_formats_attr: IRP, iMC, M2M, M2PCIe, M3UPI */
static const char *const pci_fmt[] = { FMT_BASE, "thresh=config:24-31", NULL };
/* skx_uncore_pcu_formats_attr */
const char *const sim_skx_pcu_fmt[] = { FMT_BASE, "thresh=config:24-31", "occ_invert=config:30", "occ_edge_det=config:31",
				       "filter_band0=config1:0-7", "filter_band1=config1:8-15", "filter_band2=config1:16-23",
				       "filter_band3=config1:24-31", NULL };
/* skx_upi_uncore_formats_attr: format_attr_umask_ext */
static const char *const upi_fmt[] = { "event=config:0-7", "umask=config:8-15,32-43,45-55", "edge=config:18",
				       "inv=config:23", "thresh=config:24-31", NULL };
/* hswep_uncore_imc_events */
static const char *const imc_ev[] = { "clockticks=event=0x00,umask=0x00", "cas_count_read=event=0x04,umask=0x03",
				      "cas_count_write=event=0x04,umask=0x0c", SK_CAS_SCALE_UNIT, NULL };
/* skx_uncore_iio_freerunning_events: a bandwidth count is 4 bytes (4 / 2^20 MiB) */
#define BW(d, p, um) #d "_port" #p "=event=0xff,umask=" #um, #d "_port" #p ".scale=3.814697266e-6", #d "_port" #p ".unit=MiB"
static const char *const iio_fr_ev[] = { "ioclk=event=0xff,umask=0x10",
	BW(bw_in, 0, 0x20), BW(bw_in, 1, 0x21), BW(bw_in, 2, 0x22), BW(bw_in, 3, 0x23),
	BW(bw_out, 0, 0x24), BW(bw_out, 1, 0x25), BW(bw_out, 2, 0x26), BW(bw_out, 3, 0x27),
	"util_in_port0=event=0xff,umask=0x30", "util_out_port0=event=0xff,umask=0x31",
	"util_in_port1=event=0xff,umask=0x32", "util_out_port1=event=0xff,umask=0x33",
	"util_in_port2=event=0xff,umask=0x34", "util_out_port2=event=0xff,umask=0x35",
	"util_in_port3=event=0xff,umask=0x36", "util_out_port3=event=0xff,umask=0x37", NULL };

const struct sim_perf_type sim_skx_perf[] = {
	SIM_SKX_PERF_UBOX,
	/* HSWEP_S_MSR_PMON_RAW_EVENT_MASK; FILTER0 = config1 31:0, FILTER1 = config1 63:32 (hswep_cbox_enable_event) */
	{ .name = "cha", .unit = "cha", .disc_type = -1, .formats = cha_fmt, .raw_mask = RAW | TID_EN,
	  .filt_word = { 1, 1 }, .filt_shift = { 0, 32 }, .constraints = sk_skx_chabox_constraints, .extra = sk_skx_cha_extra,
	  .xfld = { { 1, 0x1ffull }, { 1, 0xfull << 9 }, { 1, 0x3ffull << 17 },
		    { 1, 0x3bull << 32 | 0x3ffull << 41 | 0x3ffull << 51 | 3ull << 62 } } },
	/* SKX_IIO_PMON_RAW_EVENT_MASK | SKX_IIO_PMON_RAW_EVENT_MASK_EXT << 32 (skx_iio_enable_event writes 64 bits) */
	{ .name = "iio", .unit = "iio", .disc_type = -1, .formats = iio_fmt, .raw_mask = RAW | 0x7fffull << 32,
	  .constraints = sk_skx_iio_constraints, .fr_name = "iio_free_running", .fr_first = { 0, 1, 9 },
	  .fr_n = { 1, 8, 8 }, .fr_events = iio_fr_ev },
	{ .name = "irp", .unit = "irp", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW },
	SIM_SKX_PERF_PCU,
	{ .name = "imc", .unit = "imc", .disc_type = -1, .formats = pci_fmt, .events = imc_ev, .fixed = 1, .raw_mask = RAW },
	{ .name = "m2m", .unit = "m2m", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW, .ctl_write = SK_CTL_DWORD },
	/* event_mask_ext SKX_UPI_CTL_UMASK_EXT: accepted, but only the low dword is written */
	{ .name = "upi", .unit = "upi", .disc_type = -1, .formats = upi_fmt, .raw_mask = RAW | 0xffefffull << 32,
	  .ctl_write = SK_CTL_DWORD },
	{ .name = "m2pcie", .unit = "m2pcie", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW,
	  .constraints = sk_skx_m2pcie_constraints },
	{ .name = "m3upi", .unit = "m3upi", .disc_type = -1, .formats = pci_fmt, .raw_mask = RAW,
	  .constraints = sk_skx_m3upi_constraints },
};
const int sim_skx_nperf = sizeof(sim_skx_perf) / sizeof(sim_skx_perf[0]);
