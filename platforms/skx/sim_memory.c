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
};
