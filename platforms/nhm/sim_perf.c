/* The Linux driver's Nehalem-EP uncore: one PMU named "uncore" (uncore_snb.c nhm_uncore, L1259-1294),
 * 8 general counters and the fixed one, NHM_UNC_RAW_EVENT_MASK, and its event aliases. */
#include <stddef.h>
#include "sim/sim_perf.h"
#include "sim/sim_only.h"

static const char *const fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
				   "cmask=config:24-31", NULL };
static const char *const ev[] = { "clockticks=event=0xff,umask=0x00", "qmc_writes_full_any=event=0x2f,umask=0x0f",
				  "qmc_normal_reads_any=event=0x2c,umask=0x0f", "qhl_request_ioh_reads=event=0x20,umask=0x01",
				  "qhl_request_ioh_writes=event=0x20,umask=0x02", "qhl_request_remote_reads=event=0x20,umask=0x04",
				  "qhl_request_remote_writes=event=0x20,umask=0x08", "qhl_request_local_reads=event=0x20,umask=0x10",
				  "qhl_request_local_writes=event=0x20,umask=0x20", NULL };

const struct sim_perf_type sim_nhm_perf[] = {
	{ .name = "", .unit = "unc", .disc_type = -1, .formats = fmt, .events = ev, .fixed = 1,
	  .raw_mask = 0xffffull | 1ull << 18 | 1ull << 23 | 0xffull << 24 },
};
const int sim_nhm_nperf = 1;
