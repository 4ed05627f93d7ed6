/* The simulated Ivy Bridge-EP: the Xeon E5 machine (common/sim/sim_xeon_ep.c) with IVB-EP's PCI places,
 * register map (sim_map.c) and UBox global control. */
#include "sim/sim.h"
#include "sim/sim_perf.h"
#include "sim/sim_only.h"

SIM_PERF_DECL(ivbep);

/* IVB-EP: no seed gives device numbers; boxes are found by device ID (sim_map.c), so these
 * places are only plausible ones: two HAs, two controllers of four channels, three QPI ports. */
static const struct sim_pci_place places[] = {
	{ "ha", 0, 14, 1, 0 }, { "ha", 1, 28, 1, 0 },
	{ "imc", 0, 15, 2, 0 }, { "imc", 1, 15, 3, 0 }, { "imc", 2, 15, 4, 0 }, { "imc", 3, 15, 5, 0 },
	{ "imc", 4, 29, 2, 0 }, { "imc", 5, 29, 3, 0 }, { "imc", 6, 29, 4, 0 }, { "imc", 7, 29, 5, 0 },
	{ "irp", 0, 5, 6, 0 },
	{ "qpi", 0, 8, 2, 0 }, { "qpi", 1, 9, 2, 0 }, { "qpi", 2, 24, 2, 0 }, { "qpi", 0, 8, 6, 1 }, { "qpi", 1, 9, 6, 1 },
	{ "r2pcie", 0, 19, 1, 0 }, { "r3qpi", 0, 19, 5, 0 }, { "r3qpi", 1, 19, 6, 0 }, { "r3qpi", 2, 18, 5, 0 },
	{ NULL, 0, 0, 0, 0 },
};

SIM_MAP_DECL(ivbep);
extern const struct sim_ubox_dev sim_ivbep_ubox;
extern const struct sim_global sim_ivbep_global;

static int build(struct sim *s) { return sim_xeon_ep_build(s, places); }

const struct sim_kind sim_kind_ivbep = { .name = "ivbep", .cores = 15, .family = 6, .model = 62, .stepping = 4, .build = build,
					 .units = sim_ivbep_units, .nunits = &sim_ivbep_nunits, .glob = &sim_ivbep_global,
					 .ubox = &sim_ivbep_ubox, .perf = sim_ivbep_perf, .nperf = &sim_ivbep_nperf };
