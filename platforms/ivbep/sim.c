/* The simulated Ivy Bridge-EP: the Xeon E5 machine (common/sim/sim_xeon_ep.c) with IVB-EP's PCI places,
 * register map (sim_map.c) and UBox global control. */
#include "sim/sim.h"
#include "sim/sim_perf.h"
#include "sim/sim_only.h"

SIM_PERF_DECL(ivbep);

/* IVB-EP: boxes are found by device ID (sim_map.c); the places are a Dell R720's (linuxhw/LsPCI c0a4a3a6b6c1,
 * tests/snapshots/field/ivbep-r720-3f7f.source): HAs 0e.1 (0e30) and 1c.1 (0e38), UBox 0b.0 (0e1e), the iMC
 * channels 10.4, 10.5, 10.0, 10.1 (0eb4, 0eb5, 0eb0, 0eb1) and 1e.4, 1e.5, 1e.0, 1e.1 (0ef4-0ef1), R2PCIe 13.1
 * (0e34), R3QPI 13.5 (0e36).  The listing shows no QPI counter (08.2, 09.2, 18.2), R3QPI 13.6 or 12.5, nor IRP
 * (05.6 of bus 00) function: those places are plausible ones. */
static const struct sim_pci_place places[] = {
	{ "ha", 0, 14, 1, 0 }, { "ha", 1, 28, 1, 0 },
	{ "imc", 0, 0x10, 4, 0 }, { "imc", 1, 0x10, 5, 0 }, { "imc", 2, 0x10, 0, 0 }, { "imc", 3, 0x10, 1, 0 },
	{ "imc", 4, 0x1e, 4, 0 }, { "imc", 5, 0x1e, 5, 0 }, { "imc", 6, 0x1e, 0, 0 }, { "imc", 7, 0x1e, 1, 0 },
	{ "irp", 0, 5, 6, 0 },
	{ "qpi", 0, 8, 2, 0 }, { "qpi", 1, 9, 2, 0 }, { "qpi", 2, 24, 2, 0 }, { "qpi", 0, 8, 6, 1 }, { "qpi", 1, 9, 6, 1 },
	{ "r2pcie", 0, 19, 1, 0 }, { "r3qpi", 0, 19, 5, 0 }, { "r3qpi", 1, 19, 6, 0 }, { "r3qpi", 2, 18, 5, 0 },
	{ NULL, 0, 0, 0, 0 },
};

SIM_MAP_DECL(ivbep);
extern const struct sim_ubox_dev sim_ivbep_ubox;
extern const struct sim_global sim_ivbep_global;

/* The uncore functions on their socket's node: the R720's listing (ivbep-r720-2s.source: 3f node 0, 7f node 1;
 * issue 90 D9, where hwloc puts a function of none at its root and likwid 5.2.2 crashes) */
static int build(struct sim *s)
{
	if (sim_xeon_ep_build(s, places))
		return -1;
	sim_xeon_ep_nodes(s);
	return 0;
}

extern const struct sim_mem_board sim_ivbep_mem; /* sim_memory.c */
const struct sim_kind sim_kind_ivbep = { .name = "ivbep", .cores = 15, .max_cores = 15 /* E7-8890 v2, model 62 too: ivbep_uncore_cbox num_boxes 15 */, .family = 6, .model = 62, .stepping = 4, .build = build,
					 .units = sim_ivbep_units, .nunits = &sim_ivbep_nunits, .glob = &sim_ivbep_global,
					 .ubox = &sim_ivbep_ubox, .perf = sim_ivbep_perf, .nperf = &sim_ivbep_nperf,
				       .mem = &sim_ivbep_mem };
