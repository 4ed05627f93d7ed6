/*
 * The Linux driver's format attributes of the discovery generation (uncore_snbep.c, 6.1 and 6.12), shared
 * by the simulated kernels of EMR, GNR, SRF and CWF: spr_uncore_chabox_format_group,
 * spr_uncore_raw_format_group, snr_uncore_iio_format_group and the generic discovery formats
 * (uncore_discovery.c generic_uncore_formats_attr).
 */
#include <stddef.h>
#include "sim/sim_kernel.h"

const char *const sk_spr_cha_fmt[] = { "event=config:0-7", "umask=config:8-15,32-63", "tid_en=config:16",
				       "edge=config:18", "inv=config:23", "thresh=config:24-31",
				       "filter_tid=config1:0-9", NULL };
const char *const sk_spr_raw_fmt[] = { "event=config:0-7", "umask=config:8-15,32-55", "edge=config:18",
				       "inv=config:23", "thresh=config:24-31", NULL };
const char *const sk_snr_iio_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
				       "thresh=config:24-35", "ch_mask=config:36-47", "fc_mask=config:48-50", NULL };
const char *const sk_generic_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
				       "thresh=config:24-31", NULL };
