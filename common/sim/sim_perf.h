/*
 * What the simulated kernel (common/sim_kernel/: Linux's intel_uncore driver and perf core as far as a
 * perf_event backend sees them) runs over a simulated machine: each platform lists its kernel PMU types
 * (platforms/<p>/sim_perf.c), which its machine carries (struct sim_kind's perf), with the driver's own names,
 * format strings, kept config bits and filter registers, written from the driver (uncore_snbep.c,
 * uncore_snb.c, uncore_discovery.c), never from the library's tables.
 */
#ifndef UNCORE_SIM_PERF_H
#define UNCORE_SIM_PERF_H

#include <stdint.h>
#include "sim_model.h"

#define SK_MAX_FR_GROUPS 4
#define SK_MAX_XFLD 5 /* shared filter fields of one box (IVB-EP CBo: tid, link, state, nid, opc) */

/* A counter constraint of the driver (UNCORE_EVENT_CONSTRAINT): an event whose select (config bits
 * 0-7) is code goes only on the counters of mask.  A list ends with mask 0. */
struct sim_perf_constraint {
	uint8_t code;
	uint16_t mask;
};

/* A row of the driver's extra_regs (or of what its hw_config tests): an event with (config & cmask)
 * == event uses the box's shared filter fields idx (bit i: field i).  A list ends with cmask 0. */
struct sim_perf_extra {
	uint64_t event, cmask;
	uint8_t idx;
};

/* A shared filter field: its bits in config<word> (word 0 ends the list). */
struct sim_perf_xfld {
	uint8_t word;
	uint64_t mask;
};

enum { SK_CTL_BY_ACCESS, SK_CTL_DWORD, SK_CTL_QWORD };

struct sim_perf_type {
	const char *name;  /* "cbox": uncore_cbox_N (uncore_cbox alone with one box); "": the lone "uncore";
			    * NULL: a type the driver does not name, uncore_type_<disc_type>[_N] */
	const char *unit;  /* the simulator unit it drives */
	int disc_type;     /* discovery type, for uncore_type_* names and alias files (-1: none) */
	const char *const *formats;  /* "event=config:0-7", ... (NULL-terminated) */
	const char *const *events;   /* "clockticks=event=0xff,umask=0x00", ... (NULL: none) */
	uint64_t raw_mask; /* config bits the driver keeps, its event_mask | event_mask_ext << 32: the rest are
			    * dropped without an error (uncore.c uncore_pmu_event_init) */
	int fixed;         /* config 0xff selects the box's fixed counter */
	int max_boxes;     /* boxes of the unit the driver knows, its num_boxes, which names the PMUs (0: every one the
			    * machine has) */
	int by_devid;      /* the model's driver finds its boxes by PCI device id, not through the discovery
			    * table (SPR/EMR UPI, M3UPI: spr_uncore_units_ignore, spr_update_device_location) */
	/* filter register i is config<filt_word[i]> >> filt_shift[i] (word 0: the driver does not write it) */
	uint8_t filt_word[SIM_MAX_FILT], filt_shift[SIM_MAX_FILT];
	/* free-running counters: uncore_<fr_name>_N, config event 0xff, umask 0x10 x (group + 1) + index;
	 * group g holds the unit's counters fr_first[g] .. + fr_n[g] - 1 */
	const char *fr_name;
	uint8_t fr_first[SK_MAX_FR_GROUPS], fr_n[SK_MAX_FR_GROUPS];
	const char *const *fr_events;
	/* The driver's rules for placing events (uncore.c uncore_get_event_constraint): counter
	 * constraints (NULL: any counter); which events use the shared filter and its fields, each field
	 * held with one value by any number of events (NULL: config1/config2 are not used); bands: a
	 * field an event cannot get moves it to the next free one, its event select with it
	 * (snbep_pcu_get_constraint). */
	const struct sim_perf_constraint *constraints;
	/* constraints on bits of the event select (EVENT_CONSTRAINT(c, n, c): every event with the bits of code
	 * set, BDX's PCU bit 7), after the exact ones */
	const struct sim_perf_constraint *bit_constraints;
	const struct sim_perf_extra *extra;
	struct sim_perf_xfld xfld[SK_MAX_XFLD];
	int bands;
	/* How many bits of config the driver's enable_event writes to the control (ctl_write): SK_CTL_BY_ACCESS,
	 * the generic discovery ops' choice by the unit's access (uncore_discovery.c: wrmsrl on MSR, 64 bits;
	 * pci_write_config_dword on PCI and writel on MMIO, 32 bits), which a type the driver does not name and
	 * every type of the generic driver get too; SK_CTL_DWORD, ops of the type's own that write the low dword
	 * only (snbep_uncore_pci_enable_event on SKX/ICX UPI and M2M, spr_uncore_mmio_enable_event: writel);
	 * SK_CTL_QWORD, ops that write both dwords of a PCI control (spr_uncore_pci_enable_event: SPR/EMR M2M,
	 * UPI, M3UPI and GNR's PCI types).  After a 32-bit write bits 63:32 keep what they had.  Band events
	 * keep config1 & 0xff << band, not << 8 x band (hswep_pcu_hw_config, Haswell-EP onward: band 1 keeps
	 * bit 8 only, bands 2 and 3 nothing) */
	int ctl_write, band_bug;
	/* the driver has no more boxes than the package has cores (hswep_uncore_cpu_init: the CBo count) */
	int cap_by_cores;
	/* the model's driver has no .cpu_init (Diamond Rapids' dmr_uncore_init): a unit its table lists through MSR
	 * gets no PMU */
	int no_msr;
	/* free-running PMUs: as many as uncore_type_max_boxes over the MMIO units of this discovery type (the largest
	 * id below 0x8000, plus 1: DMR's ITCs, d8987048f665), not one per box with free-running counters (0) */
	int fr_count_type;
	/* Linux 6.12.0 (kernel=6.12.0) on gnr_uncore_init, before 6d642735cdb6 (6.14; 6.12.y from its March 2026
	 * backport): SK_6120_IGNORED, a type in its gnr_uncore_units_ignore (no PMU); SK_6120_UNNAMED, NULL in its
	 * gnr_uncores[] (uncore_type_<t>[_N], the generic driver's setup).  events_6120: its aliases there, before
	 * 6a8a48644c4b (spr_uncore_imc_events on GNR's IMC); NULL: the same as events. */
	int linux_6120;
	const char *const *events_6120;
};
enum { SK_6120_SAME, SK_6120_IGNORED, SK_6120_UNNAMED };

/* The discovery generation's format attributes (sim_perf_disc.c): CHA, raw (umask_ext 55:32), IIO, generic. */
extern const char *const sk_spr_cha_fmt[], *const sk_spr_raw_fmt[], *const sk_snr_iio_fmt[], *const sk_generic_fmt[];
/* spr_uncore_iio_free_running's events (snr_uncore_iio_freerunning_events), EMR and GNR */
extern const char *const sk_spr_iio_fr_events[];

#define SIM_PERF_DECL(p) extern const struct sim_perf_type sim_##p##_perf[]; extern const int sim_##p##_nperf

/* The QPI match and mask formats Linux's SNB-EP and IVB-EP drivers share (format_attr_match_* and
 * format_attr_mask_* of uncore_snbep.c). */
#define SK_XEON_EP_QPI_MATCH_MASK                                                                          \
	"match_rds=config1:48-51", "match_rnid30=config1:32-35", "match_rnid4=config1:31",                \
		"match_dnid=config1:13-17", "match_mc=config1:9-12", "match_opc=config1:5-8",              \
		"match_vnw=config1:3-4", "match0=config1:0-31", "match1=config1:32-63",                    \
		"mask_rds=config2:48-51", "mask_rnid30=config2:32-35", "mask_rnid4=config2:31",            \
		"mask_dnid=config2:13-17", "mask_mc=config2:9-12", "mask_opc=config2:5-8",                 \
		"mask_vnw=config2:3-4", "mask0=config2:0-31", "mask1=config2:32-63"

/* snbep_uncore_pcu_formats_attr (Haswell-EP's PCU keeps it; occ_edge as the driver writes it, "config:14-51",
 * the hardware bit being 31, which the mask keeps) and snbep_uncore_formats_attr (the PCI boxes of both). */
#define SK_SNBEP_PCU_FORMATS                                                                               \
	"event=config:0-7", "occ_sel=config:14-15", "edge=config:18", "inv=config:23", "thresh=config:24-28", \
		"occ_invert=config:30", "occ_edge=config:14-51", "filter_band0=config1:0-7",                \
		"filter_band1=config1:8-15", "filter_band2=config1:16-23", "filter_band3=config1:24-31"
#define SK_SNBEP_FORMATS "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23", "thresh=config:24-31"
/* snbep_uncore_qpi_formats_attr (Haswell-EP's QPI keeps it) */
#define SK_SNBEP_QPI_FORMATS                                                                               \
	"event=config:0-7,21", "umask=config:8-15", "edge=config:18", "inv=config:23", "thresh=config:24-31", \
		SK_XEON_EP_QPI_MATCH_MASK

/* The scale and unit files of the CAS aliases every Xeon driver of Linux gives (a count is 64 bytes:
 * 64 / 2^20 MiB), as events/cas_count_read.scale and .unit. */
#define SK_CAS_SCALE_UNIT                                                                                  \
	"cas_count_read.scale=6.103515625e-5", "cas_count_read.unit=MiB", "cas_count_write.scale=6.103515625e-5", \
		"cas_count_write.unit=MiB"

/* The driver's constraint and extra-register tables that several platforms share
 * (sim_perf_rules.c). */
extern const struct sim_perf_constraint sk_snbep_cbox_constraints[], sk_snbep_r2pcie_constraints[],
	sk_snbep_r3qpi_constraints[], sk_skx_chabox_constraints[], sk_icx_iio_constraints[],
	sk_spr_m2pcie_constraints[], sk_icx_m3upi_constraints[], sk_spr_cxlcm_constraints[],
	sk_hswep_cbox_constraints[], sk_hswep_r2pcie_constraints[], sk_hswep_r3qpi_constraints[],
	sk_bdx_cbox_constraints[], sk_bdx_pcu_constraints[], sk_bdx_r2pcie_constraints[], sk_bdx_r3qpi_constraints[];
extern const struct sim_perf_extra sk_snbep_cbox_extra[], sk_ivbep_cbox_extra[], sk_pcu_band_extra[],
	sk_qpi_match_extra[], sk_spr_cha_extra[], sk_hswep_cbox_extra[], sk_hswep_ubox_extra[];
/* Skylake-SP's (sim_perf_rules.c): skx_uncore_iio/m2pcie/m3upi_constraints, skx_uncore_cha_extra_regs with
 * skx_cha_hw_config's tid_en rule. */
extern const struct sim_perf_constraint sk_skx_iio_constraints[], sk_skx_m2pcie_constraints[], sk_skx_m3upi_constraints[];
extern const struct sim_perf_extra sk_skx_cha_extra[];
/* Ice Lake-SP's (sim_perf_rules.c): icx_uncore_m2pcie_constraints, icx_cha_hw_config's tid_en rule. */
extern const struct sim_perf_constraint sk_icx_m2pcie_constraints[];
extern const struct sim_perf_extra sk_icx_cha_extra[];
/* The PCU's four band bytes of config1 (snbep_pcu_hw_config), and the QPI's match (config1) and
 * mask (config2) words (snbep_qpi_hw_config), as shared fields. */
#define SK_PCU_BAND_FIELDS { { 1, 0xffull }, { 1, 0xff00ull }, { 1, 0xff0000ull }, { 1, 0xff000000ull } }
#define SK_QPI_MATCH_FIELDS { { 1, ~0ull }, { 2, ~0ull } }

#endif
