/* The Linux driver's Broadwell-EP PMUs (Linux 6.12 uncore_snbep.c, bdx_uncore_init: bdx_msr_uncores[] and
 * bdx_pci_uncores[]): Haswell-EP's types (platforms/hsx/sim_hsx.h) with IVB-EP's UBox (no filter formats, no
 * hw_config: config1 never reaches 0x707) and BDX's constraint lists, the PCU's set at init
 * (bdx_uncore_cpu_init). */
#include <stddef.h>
#include "../hsx/sim_hsx.h"

/* ivbep_uncore_ubox_formats_attr */
static const char *const ubox_fmt[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
					"thresh=config:24-28", NULL };

const struct sim_perf_type sim_bdx_perf[] = {
	{ .name = "ubox", .unit = "ubox", .disc_type = -1, .formats = ubox_fmt, .fixed = 1,
	  .raw_mask = 0xffffull | 1ull << 18 | 1ull << 23 | 0x1full << 24 /* SNBEP_U_MSR_PMON_RAW_EVENT_MASK */ },
	SIM_HSX_PERF_TYPES(24, sk_bdx_cbox_constraints, sk_bdx_pcu_constraints, sk_bdx_r2pcie_constraints, sk_bdx_r3qpi_constraints),
};
const int sim_bdx_nperf = sizeof(sim_bdx_perf) / sizeof(sim_bdx_perf[0]);
