/*
 * Cascade Lake (Xeon Scalable 2nd gen, family 6 model 0x55 steppings 5-7) and Cooper Lake (steppings 10-11),
 * which Intel's mapfile gives the CLX files: to Linux the same hardware as Skylake-SP (skx_uncore_init for
 * every stepping of INTEL_SKYLAKE_X; its one stepping test, skx_upi_get_topology's for 11, only hides the
 * UPI mapping files), so the box types, quirks and aliases are platforms/skx's (skx.h); the events are
 * Intel's CLX files (perfmon_units.txt), which add the Optane (PMM) iMC and M2M events.  Cooper Lake's six
 * UPI links are not Linux's: it registers three (skx_uncore_upi.num_boxes), and so do we.
 */
#include "../skx/skx.h"

UC_PLATFORM_TABLES(clx);

/* detection goes by the mapfile (6-55-[56789ABCDEF] CLX); these only for CPUs it does not list */
static const int clx_models[] = { 0x55, 0 };

const struct platform_desc platform_clx = {
	.name = "clx", .desc = "Cascade Lake / Cooper Lake (Xeon Scalable 2nd and 3rd gen)",
	.family = 6, .models = clx_models,
	SKX_UNCORE(clx),
};
