/*
 * The memory of the simulated Skylake-SP and Cascade Lake boards (sim_dimms.c): a stated typical population, one
 * 32 GB DDR4 RDIMM on each of a socket's 6 channels at 2666 MT/s (the Xeon Scalable 1st generation's top DDR4 speed,
 * Intel ARK; the Dell PowerEdge R440 of platforms/skx/board.c lists no DIMMs), two slots a channel in SMBIOS.  The
 * 6 iMC boxes are the channels, three a controller in skx_uncore_imc's order (uncore_snbep.c, num_boxes 6: IMC0's
 * channels 0-2, then IMC1's); the EDAC names are skx_edac's: skx_base.c "Skylake Socket" in skx_common.c
 * skx_register_mci's "%s#%d IMC#%d", its slot layer NUM_DIMMS 2 wide, skx_get_dimm_info's label (Linux 6.12).
 */
#include "sim/sim.h"
#include "sim_skx.h"

const struct sim_mem_board sim_skx_mem = {
	.dimms = "111111", .boxes_per_mc = 3, .slots = 2, .layer_slots = 2, .mc_name = "Skylake Socket#%d IMC#%d",
	.label = "CPU_SrcID#%d_MC#%d_Chan#%d_DIMM#%d", .type = "Unbuffered-DDR4", .mib = 32768, .mts = 2666,
	.source = "typical: 6 DDR4-2666 channels a socket, one DIMM each",
	/* the SMBIOS 3.2 table of a Supermicro X11 board (public dmidecode listings): type 17 of 84 bytes, slots
	 * "P1-DIMMA1" with bank "P0_Node0_Channel0_Dimm0"; DDR4-2933 DIMMs (the Xeon Scalable 2nd generation's) run at
	 * the 1st generation's 2666, the table saying both */
	.t17_len = 84, .rated_mts = 2933, .locators = SIM_LOC_SUPERMICRO,
};
