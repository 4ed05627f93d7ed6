/*
 * The simulated kernel: Linux's intel_uncore driver and perf core as far as a perf_event backend sees
 * them, over a simulated machine.  Each platform lists its kernel PMU types (platforms/<p>/sim_perf.c)
 * with the driver's own names, format strings, kept config bits and filter registers, written from the
 * driver (uncore_snbep.c, uncore_snb.c, uncore_discovery.c), never from the library's tables.
 */
#ifndef UNCORE_SIM_KERNEL_H
#define UNCORE_SIM_KERNEL_H

#include <stdint.h>
#include "sim_model.h"

#define SK_MAX_FR_GROUPS 4

struct sim_perf_type {
	const char *name;  /* "cbox": uncore_cbox_N (uncore_cbox alone with one box); "": the lone "uncore";
			    * NULL: a type the driver does not name, uncore_type_<disc_type>[_N] */
	const char *unit;  /* the simulator unit it drives */
	int disc_type;     /* discovery type, for uncore_type_* names and alias files (-1: none) */
	const char *const *formats;  /* "event=config:0-7", ... (NULL-terminated) */
	const char *const *events;   /* "clockticks=event=0xff,umask=0x00", ... (NULL: none) */
	uint64_t raw_mask; /* config bits the driver keeps: the rest are dropped without an error */
	int fixed;         /* config 0xff selects the box's fixed counter */
	int max_boxes;     /* boxes of the unit the driver knows (0: every one the machine has) */
	int by_devid;      /* the model's driver finds its boxes by PCI device id, not through the discovery
			    * table (SPR/EMR UPI, M3UPI: spr_uncore_units_ignore, spr_update_device_location) */
	/* filter register i is config<filt_word[i]> >> filt_shift[i] (word 0: the driver does not write it) */
	uint8_t filt_word[SIM_MAX_FILT], filt_shift[SIM_MAX_FILT];
	/* free-running counters: uncore_<fr_name>_N, config event 0xff, umask 0x10 x (group + 1) + index;
	 * group g holds the unit's counters fr_first[g] .. + fr_n[g] - 1 */
	const char *fr_name;
	uint8_t fr_first[SK_MAX_FR_GROUPS], fr_n[SK_MAX_FR_GROUPS];
	const char *const *fr_events;
};

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

/* The scale and unit files of the CAS aliases every Xeon driver of Linux gives (a count is 64 bytes:
 * 64 / 2^20 MiB), as events/cas_count_read.scale and .unit. */
#define SK_CAS_SCALE_UNIT                                                                                  \
	"cas_count_read.scale=6.103515625e-5", "cas_count_read.unit=MiB", "cas_count_write.scale=6.103515625e-5", \
		"cas_count_write.unit=MiB"

#endif
