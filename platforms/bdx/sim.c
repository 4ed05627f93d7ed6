/* The simulated Broadwell-EP: Haswell-EP's machine and rates (platforms/hsx/sim.c) with BDX's map (sim_map.c),
 * PCI ids, CPUID and 22 cores, fewer than the 24 CBos the map has, as on the E5-2699 v4, so the CBos
 * counted are capped by the cores.  Its PCU function holds CAPID4 as HSX's does (chop=N); ha=1 is its
 * one-home-agent die as HSX's. */
#include "../hsx/sim_hsx.h"

SIM_PERF_DECL(bdx);
SIM_MAP_DECL(bdx);
extern const struct sim_ubox_dev sim_bdx_ubox;
extern const struct sim_unit sim_bdx_units_chop0[];
extern const int sim_bdx_nunits_chop0;

/* BDX's PCU is 0x6fc0 (Linux BDX_PCU_DID); a chop of 0 leaves no SBox (bdx_uncore_cpu_init) */
extern const struct sim_mem_board sim_bdx_mem, sim_bdx_mem_one_ha; /* sim_memory.c */
static int bdx_build(struct sim *s)
{
	return sim_hsx_build_capid4(s, 0x6fc0, sim_bdx_units_chop0, sim_bdx_nunits_chop0, &sim_bdx_mem_one_ha);
}

/* stepping 1 (B0, 0x406F1) */
const struct sim_kind sim_kind_bdx = { .name = "bdx", .cores = 22, .max_cores = 24 /* E7-8894 v4, model 79 too: bdx_uncore_cbox num_boxes 24 */, .family = 6, .model = 79, .stepping = 1,
				       .build = bdx_build, .units = sim_bdx_units, .nunits = &sim_bdx_nunits,
				       .ubox = &sim_bdx_ubox, .glob = &sim_hsx_global, .perf = sim_bdx_perf, .nperf = &sim_bdx_nperf,
				       .option_help = "chop=0..3, ha=1|2", .option = sim_hsx_option,
				       .ufreq_mode = SIM_UFREQ_LEGACY, .ufreq_min_ratio = 12 /* 1.2 GHz floor: sim_ufreq.c */,
				       .mem = &sim_bdx_mem };
