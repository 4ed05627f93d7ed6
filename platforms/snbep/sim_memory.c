/*
 * The memory of the simulated Sandy Bridge-EP board (sim_dimms.c): a stated typical population, one 16 GB DDR3-1600
 * RDIMM on each of a socket's 4 channels (DDR3-1600, the Xeon E5-2600's top speed, Intel ARK), three slots a
 * channel in SMBIOS as a Dell PowerEdge R720's 24 (no SNB-EP field listing shows DIMMs).  The 4 iMC boxes are the
 * one home agent's channels 0-3 (uncore_snbep.c snbep_uncore_imc num_boxes 4).  The EDAC names are sb_edac's
 * (Linux 6.12 sb_edac.c): mc_name "Sandy Bridge SrcID#%d_Ha#%d" (sbridge_register_mci), the layers CHANNEL
 * NUM_CHANNELS 6 and SLOT MAX_DIMMS 3 wide (a DIMM directory dimm<3 c + s>), the label
 * "CPU_SrcID#%u_Ha#%u_Chan#%u_DIMM#%u" (get_dimm_config), the type MEM_RDDR3 "Registered-DDR3" of registered
 * DIMMs (get_memory_type; edac_mc.c edac_mem_types).
 */
#include "sim/sim.h"

const struct sim_mem_board sim_snbep_mem = {
	.dimms = "1111", .boxes_per_mc = 4, .slots = 3, .layer_slots = 3, .mc_name = "Sandy Bridge SrcID#%d_Ha#%d",
	.label = "CPU_SrcID#%d_Ha#%d_Chan#%d_DIMM#%d", .type = "Registered-DDR3", .mib = 16384, .mts = 1600,
	.source = "typical: 4 DDR3-1600 channels a socket, one DIMM each (3 slots a channel, as a Dell R720)",
	/* the Dell PowerEdge R720's SMBIOS 2.7 table (public dmidecode listings): type 17 of 34 bytes, socket 0's
	 * slots "A1".., socket 1's "B1".. */
	.t17_len = 34, .locators = SIM_LOC_DELL,
};
