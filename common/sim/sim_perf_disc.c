/*
 * The Linux driver's format attributes of the discovery generation (uncore_snbep.c, 6.1 and 6.12), shared
 * by the simulated kernels of SPR, EMR, GNR, SRF and CWF: spr_uncore_chabox_format_group,
 * spr_uncore_raw_format_group, snr_uncore_iio_format_group and the generic discovery formats
 * (uncore_discovery.c generic_uncore_formats_attr), and the IIO free-running PMU's events.
 */
#include <stddef.h>
#include "sim/sim_perf.h"

const char *const sk_spr_cha_fmt[] = { "event=config:0-7", "umask=config:8-15,32-63", "tid_en=config:16",
				       "edge=config:18", "inv=config:23", "thresh=config:24-31",
				       "filter_tid=config1:0-9", NULL };
const char *const sk_spr_raw_fmt[] = { "event=config:0-7", "umask=config:8-15,32-55", "edge=config:18",
				       "inv=config:23", "thresh=config:24-31", NULL };
const char *const sk_snr_iio_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
				       "thresh=config:24-35", "ch_mask=config:36-47", "fc_mask=config:48-50", NULL };
const char *const sk_generic_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
				       "thresh=config:24-31", NULL };
/* the bw_out aliases were removed upstream (their increment is inconsistent); the umasks still count */
/* each bw_in_port alias with its scale (a count is 32 bytes: 32 / 2^20 MiB, Linux 6.12) and unit */
#define BW_IN(n) "bw_in_port" #n "=event=0xff,umask=0x2" #n, "bw_in_port" #n ".scale=3.0517578125e-5", \
		 "bw_in_port" #n ".unit=MiB"
const char *const sk_spr_iio_fr_events[] = { "ioclk=event=0xff,umask=0x10", BW_IN(0), BW_IN(1), BW_IN(2), BW_IN(3),
					 BW_IN(4), BW_IN(5), BW_IN(6), BW_IN(7), NULL };
