/*
 * The Linux 6.12 driver's Ice Lake-SP PMUs (uncore_snbep.c icx_msr_uncores[], icx_pci_uncores[],
 * icx_mmio_uncores[]; Linux 6.1 lists the same): names, format attributes, raw event masks with their
 * extensions, constraint and extra-register tables (common/sim/sim_perf_rules.c), the iMC aliases and
 * the IIO and iMC free-running PMUs, and the driver's quirks: the UPI and M2M controls' high dword never
 * written (snbep_uncore_pci_enable_event), the PCU band mask (the PCU is Skylake-SP's).
 * platforms/icx/linux_pmus.txt is the listing.
 */
#include <stddef.h>
#include "sim/sim_perf.h"
#include "sim/sim_only.h"
#include "../skx/sim_skx.h"
#include "sim_icx.h"

#define EV_UMASK 0xffffull
#define RAW (EV_UMASK | 1ull << 18 | 1ull << 23 | 0xffull << 24) /* SNBEP_PMON_RAW_EVENT_MASK */
#define FMT_TAIL "edge=config:18", "inv=config:23", "thresh=config:24-31"

/* snr_uncore_cha_formats_attr */
static const char *const cha_fmt[] = { "event=config:0-7", "umask=config:8-15,32-57", "edge=config:18", "tid_en=config:19",
				       "inv=config:23", "thresh=config:24-31", "filter_tid=config1:0-9", NULL };
/* ivbep_uncore_formats_attr (IRP, M2PCIe), skx_uncore_formats_attr (M3UPI, iMC): the same five */
static const char *const base_fmt[] = { "event=config:0-7", "umask=config:8-15", FMT_TAIL, NULL };
/* snr_m2m_uncore_formats_attr */
static const char *const m2m_fmt[] = { "event=config:0-7", "umask=config:8-15,32-39", FMT_TAIL, NULL };
/* icx_upi_uncore_formats_attr */
static const char *const upi_fmt[] = { "event=config:0-7", "umask=config:8-15,32-55", FMT_TAIL, NULL };
/* snr_uncore_imc_events */
static const char *const imc_ev[] = { "clockticks=event=0x00,umask=0x00", "cas_count_read=event=0x04,umask=0x0f",
				      "cas_count_write=event=0x04,umask=0x30", SK_CAS_SCALE_UNIT, NULL };
/* icx_uncore_imc_freerunning_events: a read or write count is 64 bytes */
#define MIB(n) #n ".scale=6.103515625e-5", #n ".unit=MiB"
static const char *const imc_fr_ev[] = { "dclk=event=0xff,umask=0x10", "read=event=0xff,umask=0x20", MIB(read),
					 "write=event=0xff,umask=0x21", MIB(write), "ddrt_read=event=0xff,umask=0x30",
					 MIB(ddrt_read), "ddrt_write=event=0xff,umask=0x31", MIB(ddrt_write), NULL };

const struct sim_perf_type sim_icx_perf[] = {
	SIM_SKX_PERF_UBOX,
	/* HSWEP_S_MSR_PMON_RAW_EVENT_MASK | SNR_CHA_RAW_EVENT_MASK_EXT << 32; FILTER0 = config1 & 0x1ff with tid_en */
	{ .name = "cha", .unit = "cha", .disc_type = -1, .formats = cha_fmt, .raw_mask = RAW | 1ull << 19 | 0x3ffffffull << 32,
	  .filt_word = { 1 }, .constraints = sk_skx_chabox_constraints, .extra = sk_icx_cha_extra, .xfld = { { 1, 0x1ffull } } },
	/* SNR_IIO_PMON_RAW_EVENT_MASK_EXT 0x7ffff, written whole by skx_iio_enable_event */
	{ .name = "iio", .unit = "iio", .disc_type = -1, .formats = sk_snr_iio_fmt, .raw_mask = RAW | 0x7ffffull << 32,
	  .constraints = sk_icx_iio_constraints, .fr_name = "iio_free_running", .fr_first = { 0, 1 }, .fr_n = { 1, 8 },
	  .fr_events = sk_spr_iio_fr_events },
	{ .name = "irp", .unit = "irp", .disc_type = -1, .formats = base_fmt, .raw_mask = RAW },
	{ .name = "m2pcie", .unit = "m2pcie", .disc_type = -1, .formats = base_fmt, .raw_mask = RAW,
	  .constraints = sk_icx_m2pcie_constraints },
	SIM_SKX_PERF_PCU,
	/* SNR_M2M_PCI_PMON_UMASK_EXT: accepted, but only the low dword is written */
	{ .name = "m2m", .unit = "m2m", .disc_type = -1, .formats = m2m_fmt, .raw_mask = RAW | 0xffull << 32,
	  .ctl_write = SK_CTL_DWORD },
	/* ICX_UPI_CTL_UMASK_EXT: the same */
	{ .name = "upi", .unit = "upi", .disc_type = -1, .formats = upi_fmt, .raw_mask = RAW | 0xffffffull << 32,
	  .ctl_write = SK_CTL_DWORD },
	{ .name = "m3upi", .unit = "m3upi", .disc_type = -1, .formats = base_fmt, .raw_mask = RAW,
	  .constraints = sk_icx_m3upi_constraints },
	/* icx_uncore_imc (12 channels) and icx_uncore_imc_free_running (4 controllers): DCLK (group 0) is our
	 * counter 4, DDR read/write (group 1) 0-1, DDRT (group 2) 2-3 */
	{ .name = "imc", .unit = "imc", .disc_type = -1, .formats = base_fmt, .events = imc_ev, .fixed = 1, .raw_mask = RAW,
	  .fr_name = "imc_free_running", .fr_first = { 4, 0, 2 }, .fr_n = { 1, 2, 2 }, .fr_events = imc_fr_ev },
};
const int sim_icx_nperf = sizeof(sim_icx_perf) / sizeof(sim_icx_perf[0]);
