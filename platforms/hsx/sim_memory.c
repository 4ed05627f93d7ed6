/*
 * The memory of the simulated Haswell-EP board (sim_dimms.c): a stated typical population of the 18-core die's two
 * home agents, two channels each (the Dell PowerEdge R730 listings of tests/snapshots/field/bdx-r730-2ch.source,
 * the same uncore: of each controller's four channel functions only 0 and 1, iMC boxes 0, 1, 4, 5 of
 * hswep_uncore_imc's 8), two 16 GB DDR4-2133 RDIMMs a channel (DDR4-2133, Xeon E5 v3's top speed, Intel ARK),
 * three slots a channel as the R730's 24.  The EDAC names are sb_edac's (Linux 6.12 sb_edac.c):
 * "Haswell SrcID#%d_Ha#%d", SLOT layer MAX_DIMMS 3 wide, the label "CPU_SrcID#%u_Ha#%u_Chan#%u_DIMM#%u", and
 * haswell_get_memory_type's MEM_RDDR4 "Registered-DDR4" of registered DIMMs.
 */
#include "sim/sim.h"

const struct sim_mem_board sim_hsx_mem = {
	.dimms = "22--22--", .boxes_per_mc = 4, .slots = 3, .layer_slots = 3, .mc_name = "Haswell SrcID#%d_Ha#%d",
	.label = "CPU_SrcID#%d_Ha#%d_Chan#%d_DIMM#%d", .type = "Registered-DDR4", .mib = 16384, .mts = 2133,
	.source = "typical: two home agents of 2 DDR4-2133 channels a socket (as Dell R730 listings), 2 DIMMs each",
	/* the Dell PowerEdge R730's SMBIOS 2.8 table (public dmidecode listings): type 17 of 40 bytes, socket 0's
	 * slots "A1".., socket 1's "B1".. */
	.t17_len = 40, .locators = SIM_LOC_DELL,
};
/* ha=1 (sim.c): the die with home agent 0 alone, its iMC's four channels (boxes 0-3: 14.0, 14.1, 15.0, 15.1),
 * one controller a socket "Haswell SrcID#N_Ha#0", channels 0-3 (doc/memory.md, "Shapes real nodes show"); the
 * same DIMMs in the same R730 slots, so the peak stays 4 x 2133 MT/s x 8 B a socket */
const struct sim_mem_board sim_hsx_mem_one_ha = {
	.dimms = "2222", .boxes_per_mc = 4, .slots = 3, .layer_slots = 3, .mc_name = "Haswell SrcID#%d_Ha#%d",
	.label = "CPU_SrcID#%d_Ha#%d_Chan#%d_DIMM#%d", .type = "Registered-DDR4", .mib = 16384, .mts = 2133,
	.source = "typical one-home-agent die (ha=1): 4 DDR4-2133 channels on home agent 0, 2 DIMMs each",
	.t17_len = 40, .locators = SIM_LOC_DELL,
};
