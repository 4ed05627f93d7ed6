/* The simulated Sandy Bridge-EP: the Xeon E5 machine (common/sim/sim_xeon_ep.c) with SNB-EP's PCI places
 * and register map (sim_map.c). */
#include "sim/sim.h"
#include "sim/sim_perf.h"
#include "sim/sim_only.h"

SIM_PERF_DECL(snbep);

/* Device:function of each PCI box, seed 000 Table 1-3 and section text (L172-192, L1523, L2162-2165, L3392-3407). */
static const struct sim_pci_place places[] = {
	{ "ha", 0, 14, 1, 0 },
	{ "imc", 0, 16, 0, 0 }, { "imc", 1, 16, 1, 0 }, { "imc", 2, 16, 4, 0 }, { "imc", 3, 16, 5, 0 },
	{ "qpi", 0, 8, 2, 0 }, { "qpi", 1, 9, 2, 0 }, { "qpi", 0, 8, 6, 1 }, { "qpi", 1, 9, 6, 1 },
	{ "r2pcie", 0, 19, 1, 0 }, { "r3qpi", 0, 19, 5, 0 }, { "r3qpi", 1, 19, 6, 0 },
	{ NULL, 0, 0, 0, 0 },
};

SIM_MAP_DECL(snbep);
extern const struct sim_ubox_dev sim_snbep_ubox;

/* The uncore functions on their socket's node, as on Ivy Bridge-EP: the Dell R720 takes both generations, and
 * its listing with E5-2600 v2 parts gives each uncore bus its socket's node (ivbep-r720-2s.source; no listing of
 * an E5-2600 here) */
static int build(struct sim *s)
{
	if (sim_xeon_ep_build(s, places))
		return -1;
	sim_xeon_ep_nodes(s);
	return 0;
}

extern const struct sim_mem_board sim_snbep_mem; /* sim_memory.c */
const struct sim_kind sim_kind_snbep = { .name = "snbep", .cores = 8, .max_cores = 8 /* E5-2690: seed 000, up to 8 C-boxes */, .family = 6, .model = 45, .stepping = 7, .build = build,
					 .units = sim_snbep_units, .nunits = &sim_snbep_nunits, .ubox = &sim_snbep_ubox, .perf = sim_snbep_perf, .nperf = &sim_snbep_nperf,
				       .mem = &sim_snbep_mem };
