/*
 * The simulated Skylake-SP machine that sim:clx reuses (the same Linux driver and registers for every
 * stepping of model 0x55): its builder, register map and PMU types.  A kind sets its CPUID and cores.
 */
#ifndef UNCORE_SIM_SKX_H
#define UNCORE_SIM_SKX_H

#include "sim/sim.h"
#include "sim/sim_kernel.h"

#define SIM_SKX_MAX_CHA 28 /* CAPID6 bits 27:0 (SKX_CHA_BIT_MASK) */

SIM_MAP_DECL(skx);
SIM_PERF_DECL(skx);
extern const struct sim_ubox_dev sim_skx_ubox;
int sim_skx_build(struct sim *s);

/* A kind on SKX's machine: name, cores per socket, CPUID stepping. */
#define SIM_SKX_KIND(n, c, st)                                                                             \
	{ .name = n, .cores = (c), .family = 6, .model = 0x55, .stepping = (st), .build = sim_skx_build,      \
	  .units = sim_skx_units, .nunits = &sim_skx_nunits, .ubox = &sim_skx_ubox, .perf = sim_skx_perf,     \
	  .nperf = &sim_skx_nperf }

#endif
