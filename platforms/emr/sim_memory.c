/*
 * The memory of the simulated Emerald Rapids board (sim_dimms.c): a stated typical population, one 32 GB DDR5-5600
 * RDIMM on each of a socket's 8 channels (DDR5-5600 at one DIMM a channel, the 5th Gen Xeon's top speed, Intel
 * ARK), two slots a channel in SMBIOS as the HPE ProLiant DL380 Gen11's 16 a processor.  The 8 iMC boxes are the
 * channels, two a controller (i10nm_base.c spr_cfg, which Emerald Rapids takes: ddr_imc_num 4, ddr_chan_num 2);
 * the EDAC names are i10nm_edac's (skx_common.c skx_register_mci "%s#%d IMC#%d" with "Intel_10nm Socket", slot
 * layer NUM_DIMMS 2 wide, skx_get_dimm_info's label and its MEM_DDR5 "Unbuffered-DDR5", which it gives registered
 * DIMMs too; Linux 6.12).
 */
#include "sim/sim.h"

const struct sim_mem_board sim_emr_mem = {
	.dimms = "11111111", .boxes_per_mc = 2, .slots = 2, .layer_slots = 2, .mc_name = "Intel_10nm Socket#%d IMC#%d",
	.label = "CPU_SrcID#%d_MC#%d_Chan#%d_DIMM#%d", .type = "Unbuffered-DDR5", .mib = 32768, .mts = 5600,
	.source = "typical: 8 DDR5-5600 channels a socket, one DIMM each",
	/* the table of the board platforms/emr/board.c lays the machine out as, an HPE ProLiant DL380 Gen11, with
	 * Emerald Rapids in it (linuxhw/DMI, "Server/HPE/ProLiant/ProLiant DL380 Gen11/89BBBA931D2E": two Xeon Gold
	 * 6526Y, family 6 model 207, BIOS U54 2.16 of 03/01/2024): SMBIOS 3.4, type 17 of 92 bytes, slots
	 * "PROC 1 DIMM 1" .. "PROC 1 DIMM 16" single-spaced, bank locator "Not Specified"; its DDR5-5600 RDIMMs run
	 * at 5200, that Gold's ceiling (Intel ARK), where this simulated CPU, a Platinum 8592+, runs them at 5600:
	 * configured as rated */
	.t17_len = 92, .locators = SIM_LOC_PROLIANT,
};
