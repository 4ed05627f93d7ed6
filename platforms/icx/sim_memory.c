/*
 * The memory of the simulated Ice Lake-SP board (sim_dimms.c): the Lenovo ThinkSystem SR630 V2's, 16 DIMM slots a
 * processor on its 8 DDR4 channels, two a channel, at 3200 MT/s (Lenovo Press LP1392, "ThinkSystem SR630 V2 Server
 * Product Guide": 32 slots, 8 channels a processor, 2 DIMMs a channel, TruDDR4 3200 MHz), filled with 32 GB RDIMMs.
 * Of Linux's 12 iMC boxes a socket (uncore_snbep.c icx_uncore_imc num_boxes 12, ICX_NUMBER_IMC_CHN 3 a controller)
 * the first two of each controller are its channels: i10nm_base.c i10nm_cfg0/1 ddr_chan_num 2 with channel c's
 * registers at + 0x4000 c, which is where icx_uncore_imc_init_box puts box 3m + c, and pcm counts 2 channels a
 * controller on ICX (cpucounters.cpp ServerUncorePMUs, intel/pcm 0fae0de1: numChannels = 2); the third is none.
 * The EDAC names are i10nm_edac's: skx_common.c skx_register_mci "%s#%d IMC#%d" with "Intel_10nm Socket", its
 * slot layer I10NM_NUM_DIMMS 2 wide, the label skx_get_dimm_info's "CPU_SrcID#%u_MC#%u_Chan#%u_DIMM#%u" (Linux 6.12).
 */
#include "sim/sim.h"
#include "sim_icx.h"

const struct sim_mem_board sim_icx_mem = {
	.dimms = "22-22-22-22-", .boxes_per_mc = 3, .slots = 2, .layer_slots = 2, .mc_name = "Intel_10nm Socket#%d IMC#%d",
	.label = "CPU_SrcID#%d_MC#%d_Chan#%d_DIMM#%d", .type = "Unbuffered-DDR4", .mib = 32768, .mts = 3200,
	.source = "Lenovo ThinkSystem SR630 V2 (LP1392): 8 DDR4-3200 channels x 2 DIMMs a socket",
	/* its SMBIOS 3.3 table as dmidecode lists it (linuxhw/DMI, "Server/Lenovo/ThinkSystem/ThinkSystem SR630
	 * V2/ECB5C724E79D"; the SR650 V2's ".../ThinkSystem SR650 V2/7AC016764E14" and "D65FD98664FE" the same): type 17
	 * of 92 bytes, 16 slots a processor "DIMM 3", "DIMM 4", "DIMM 1", "DIMM 2", "DIMM 7" .. "DIMM 11" in the
	 * table's order (processor 2's the same + 16), bank locator "CPU 1" / "CPU 2"; a channel's two slots together,
	 * its slot 0 first (one DIMM a channel fills 3, 1, 7, 5, 14, 16, 10, 12).  Their DDR4-3200 RDIMMs run at 2666
	 * there, the ceiling of those boards' Xeon Silver 4309Y, 4310 and 4314 (Intel ARK); this simulated CPU is a
	 * Platinum 8380, whose DDR4-3200 at two DIMMs a channel LP1392 gives: configured as rated, 3200 */
	.t17_len = 92, .locators = SIM_LOC_LENOVO,
};
