/*
 * The memory of the simulated Broadwell-EP board (sim_dimms.c): the Dell PowerEdge R730 of the field snapshot
 * bdx-r730-2ch, whose listing shows of each memory controller's four channel functions only 0 and 1 (14.0/14.1
 * 6fb0/6fb1, 17.0/17.1 6fd0/6fd1): iMC boxes 0, 1, 4, 5 of bdx_uncore_imc's 8 are its 4 channels a socket, boxes
 * 2, 3, 6, 7 no channel (the Supermicro X10DRi of bdx-x10dri-2s shows the same).  Its 24 slots, three a channel
 * (Dell, "PowerEdge R730 Technical Guide"), with a stated typical population (the listing shows no DIMM): one
 * 32 GB DDR4-2400 RDIMM a channel (Xeon E5 v4's top speed, Intel ARK).  The EDAC names are sb_edac's (Linux 6.12
 * sb_edac.c): "Broadwell SrcID#%d_Ha#%d", SLOT layer MAX_DIMMS 3 wide, the label
 * "CPU_SrcID#%u_Ha#%u_Chan#%u_DIMM#%u", haswell_get_memory_type's MEM_RDDR4 "Registered-DDR4".
 */
#include "sim/sim.h"

const struct sim_mem_board sim_bdx_mem = {
	.dimms = "11--11--", .boxes_per_mc = 4, .slots = 3, .layer_slots = 3, .mc_name = "Broadwell SrcID#%d_Ha#%d",
	.label = "CPU_SrcID#%d_Ha#%d_Chan#%d_DIMM#%d", .type = "Registered-DDR4", .mib = 32768, .mts = 2400,
	.source = "Dell PowerEdge R730 (field snapshot bdx-r730-2ch): 4 DDR4-2400 channels a socket, one DIMM each",
	/* the Dell PowerEdge R730's SMBIOS 2.8 table (public dmidecode listings): type 17 of 40 bytes, socket 0's
	 * slots "A1".., socket 1's "B1".. */
	.t17_len = 40, .locators = SIM_LOC_DELL,
};
/* ha=1 (platforms/hsx/sim.c): the die with home agent 0 alone, its iMC's four channels (boxes 0-3: 14.0, 14.1,
 * 15.0, 15.1), one controller a socket "Broadwell SrcID#N_Ha#0", channels 0-3; the same DIMMs in the same R730
 * slots, so the peak stays 4 x 2400 MT/s x 8 B a socket */
const struct sim_mem_board sim_bdx_mem_one_ha = {
	.dimms = "1111", .boxes_per_mc = 4, .slots = 3, .layer_slots = 3, .mc_name = "Broadwell SrcID#%d_Ha#%d",
	.label = "CPU_SrcID#%d_Ha#%d_Chan#%d_DIMM#%d", .type = "Registered-DDR4", .mib = 32768, .mts = 2400,
	.source = "one-home-agent die (ha=1) on a Dell PowerEdge R730: 4 DDR4-2400 channels on home agent 0, one DIMM each",
	.t17_len = 40, .locators = SIM_LOC_DELL,
};
