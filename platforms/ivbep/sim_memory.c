/*
 * The memory of the simulated Ivy Bridge-EP board (sim_dimms.c): the Dell PowerEdge R720 of the field snapshot
 * ivbep-r720-2s (12-core parts: the die with two home agents, both in its listing), 24 slots, three a channel,
 * with a stated typical population: one 16 GB DDR3-1866 RDIMM (Xeon E5 v2's top speed, Intel ARK) on each of a
 * socket's 4 channels, two a home agent: its channels 0 and 1, iMC boxes 0, 1 and 4, 5 (ivbep_uncore_imc
 * num_boxes 8: IMC0's channels 0-3, then IMC1's), as the Broadwell-EP listings of the same two-agent layout show
 * (tests/snapshots/field/bdx-*.source); boxes 2, 3, 6, 7 no channel.  Assumed, not read off this listing (which
 * shows every channel function of both controllers).  The EDAC names are sb_edac's (Linux 6.12 sb_edac.c):
 * "Ivy Bridge SrcID#%d_Ha#%d", SLOT layer MAX_DIMMS 3 wide, the label "CPU_SrcID#%u_Ha#%u_Chan#%u_DIMM#%u",
 * MEM_RDDR3 "Registered-DDR3".
 */
#include "sim/sim.h"

const struct sim_mem_board sim_ivbep_mem = {
	.dimms = "11--11--", .boxes_per_mc = 4, .slots = 3, .layer_slots = 3, .mc_name = "Ivy Bridge SrcID#%d_Ha#%d",
	.label = "CPU_SrcID#%d_Ha#%d_Chan#%d_DIMM#%d", .type = "Registered-DDR3", .mib = 16384, .mts = 1866,
	.source = "Dell PowerEdge R720 (field snapshot ivbep-r720-2s), typical: 2 DDR3-1866 channels a home agent, one DIMM each",
	/* the Dell PowerEdge R720's SMBIOS 2.7 table (public dmidecode listings): type 17 of 34 bytes, socket 0's
	 * slots "A1".., socket 1's "B1".. */
	.t17_len = 34, .locators = SIM_LOC_DELL,
};
