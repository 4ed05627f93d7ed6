/*
 * Broadwell-DE (Xeon D-1500) uncore: Broadwell-EP's box types (platforms/bdx/bdx.h; Linux 6.12 drives both with
 * bdx_uncore_init) without the SBox, which bdx_uncore_cpu_init drops on INTEL_BROADWELL_D, and without QPI and
 * R3QPI, which a one-socket part does not have (the driver registers PCI types only for devices present);
 * /work/notes/i34/bdx.md section 11.
 */
#include <stddef.h>
#include "../bdx/bdx.h"

UC_PLATFORM_TABLES(bdxde);

static const struct box_type *const bdxde_types[] = { &bdx_ubox, &bdx_cbo, &bdx_pcu, &bdx_ha, &bdx_imc, &bdx_irp, &bdx_r2pcie };
static const int bdxde_models[] = { 86, 0 };

const struct platform_desc platform_bdxde = {
	.name = "bdxde", .desc = "Broadwell-DE (Xeon D-1500)",
	.family = 6, .models = bdxde_models,
	.types = bdxde_types, .ntypes = N(bdxde_types),
	/* bdx_uncore_pci_init: snbep_pci2phy_map_init(0x6f1e, SNBEP_CPUNODEID 0x40, SNBEP_GIDNIDMAP 0x54, reverse) */
	.ubox_devid = 0x6f1e, .cpunodeid = 0x40, .gidnidmap = 0x54,
	.events = uc_events_bdxde, .nevents = &uc_events_bdxde_n, .metrics_json = uc_metrics_bdxde,
	.perfmon_filters = uc_events_bdxde_filters, .perfmon_folds = uc_events_bdxde_folds,
	.perf_aliases = bdx_aliases, .perf_terms = bdx_terms,
};
