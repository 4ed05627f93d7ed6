/*
 * The memory of the simulated Sapphire Rapids board (sim_dimms.c): the HPE ProLiant DL380 Gen11's 16 DIMM slots a
 * processor on its 8 DDR5 channels, two a channel (HPE QuickSpecs, "HPE ProLiant DL380 Gen11": 32 slots, 8 channels
 * a processor, DDR5-4800 at one DIMM a channel), filled the typical way: one 32 GB RDIMM a channel at 4800 MT/s.
 * The 8 iMC boxes a socket are the channels, two a controller (i10nm_base.c spr_cfg ddr_imc_num 4, ddr_chan_num
 * 2); the EDAC names are i10nm_edac's (skx_common.c skx_register_mci "%s#%d IMC#%d" with "Intel_10nm Socket", slot
 * layer 2 wide, skx_get_dimm_info's label; Linux 6.12).
 */
#include "sim/sim.h"

const struct sim_mem_board sim_spr_mem = {
	.dimms = "11111111", .boxes_per_mc = 2, .slots = 2, .mc_name = "Intel_10nm Socket#%d IMC#%d",
	.label = "CPU_SrcID#%d_MC#%d_Chan#%d_DIMM#%d", .type = "Registered-DDR5", .mib = 32768, .mts = 4800,
	.source = "HPE ProLiant DL380 Gen11 (QuickSpecs): 8 DDR5-4800 channels a socket, one DIMM each",
};
