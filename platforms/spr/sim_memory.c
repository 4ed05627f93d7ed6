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
	.dimms = "11111111", .boxes_per_mc = 2, .slots = 2, .layer_slots = 2, .mc_name = "Intel_10nm Socket#%d IMC#%d",
	.label = "CPU_SrcID#%d_MC#%d_Chan#%d_DIMM#%d", .type = "Unbuffered-DDR5", .mib = 32768, .mts = 4800,
	.source = "HPE ProLiant DL380 Gen11 (QuickSpecs): 8 DDR5-4800 channels a socket, one DIMM each",
	/* its SMBIOS 3.4 table (public dmidecode listings of the DL380 Gen11): type 17 of 92 bytes, the slots named
	 * "PROC 1 DIMM 1" (single-spaced, numbered over the processor's 16), bank locator "Not Specified", as linuxhw/DMI
	 * "Server/HPE/ProLiant/ProLiant DL380 Gen11/89BBBA931D2E" shows the board (the same slots as sim:emr's) */
	.t17_len = 92, .locators = SIM_LOC_PROLIANT,
	/* Xeon Max (hbm=...): i10nm_base.c spr_cfg hbm_imc_num 16, hbm_chan_num 2, hbm_dimm_num 1, its controllers
	 * after the DDR ones (lmc 4-19) at I10NM_HBM_IMC_MMIO_SIZE 0x9000 apart, a channel hbm_chan_mmio_sz 0x4000:
	 * the order of the HBM PMON boxes (spr_family_sim.c hbm_units, PCM's map); 64 GB HBM2e a socket (the Max 9480)
	 * over 32 channels, 2 GiB each; skx_get_dimm_info's HBM label and MEM_HBM2 */
	.hbm_mcs = 16, .hbm_chans = 2, .hbm_mib = 2048, .hbm_label = "CPU_SrcID#%d_HBMC#%d_Chan#%d",
	.hbm_type = "High-bandwidth-memory-Gen2",
};
