/*
 * Sapphire Rapids XCC laid out as a real server lists it: socket 0 of an HPE ProLiant DL380 Gen11 (two sockets,
 * SNC2), lspci -vvnn from linuxhw/LsPCI commit c0a4a3a6b6c16310c33dc428ada641fd8d369f6f, Server/HPE/ProLiant/
 * ProLiant DL380 Gen11/89BBBA931D2E/DEBIAN-12/6.8.4-3-PVE/X86_64/47A35ED32C.  Its root buses 00, 11, 25, 39, 4d,
 * 61 and 75 each carry 09a2/09a4/09a3/0b23 at 00.0-00.4 (sim_pcicfg.c); on 00 the PCH's root port 8086:1bbd at 0d.0
 * (the iLO behind it) and its xHCI 1bcd at 14.0; on 11 root ports at 01.0 and 05.0; on 25 a x16 port at 01.0 (an
 * Adaptec switch and SAS HBA below); on 39 ports 01.0 and 05.0 with a BCM5719 and a BCM57416 NIC; on 4d ports
 * 01.0, 03.0, 05.0, 07.0; on 61 ports 01.0, 03.0; on 75 the DSA 0b25 at 01.0 and the MSM 09a6 at 03.0.
 *
 * Filled, not in the listing: the MSM's CPUBUSNO registers (CPU buses 0-5 on 00-61 in bus order, 8 on 75) and
 * CAPID4 (0b11: XCC); by pcm's spr_xcc_sad_to_pmu_id_mapping (pcm-iio-topology.cpp, intel/pcm 0fae0de1) they make
 * the buses IIO PMUs 1 (DMI), 2, 4, 6, 7, 9 and 0.  PMUs 3, 5 and 8 (CPU buses 9-11, the other accelerator
 * stacks) have no root bus on this part, and none here; their boxes count.  Socket 1's buses are filled as
 * socket 0's + 0x80 (the listing's socket 1 shows only 80 and c8, c8 with ports 01.0 and 03.0).  The devices: the
 * listing's places, the simulator's kinds (sim_pcitree.c) in them: a NIC behind the PCH's port where the iLO is,
 * a switch with two GPUs where the HBA's switch is, and drives, GPUs and HCAs in the listing's empty ports of PMUs
 * 2, 7 and 9.  The simulator's UBox buses, discovery device and PCU CR3 stay its own (spr_family_sim.c,
 * sim_pcicfg.c); the DSA at 75:01.0 and the PCH's functions but its xHCI (14.2, 14.4, 16.0, 1f.0, 1f.5) are left out.
 */
#include "sim/sim.h"

/* pcm: SPR_XCC_DMI_PMON_ID 1 on CPU bus 0, SPR_DMI_PART_ID 7; the PCH's root port at 0d.0 */
static const struct sim_board_stack stacks[] = {
	{ 1, { 0x00, 0x80 }, 0, 0 }, { 2, { 0x11, 0x91 }, 1, 0 }, { 4, { 0x25, 0xa5 }, 2, 0 }, { 6, { 0x39, 0xb9 }, 3, 0 },
	{ 7, { 0x4d, 0xcd }, 4, 0 }, { 9, { 0x61, 0xe1 }, 5, 0 }, { 0, { 0x75, 0xf5 }, 8, 0 },
};
const struct sim_board sim_spr_board = {
	.stacks = stacks, .nstacks = sizeof(stacks) / sizeof(stacks[0]), .dmi_pmu = 1, .pch_port_dev = 0x0d, .dmi_part = 7,
	.msm_pmu = 0,
	.devices = "nic@0.1.7+empty@0.2.0+nvme@0.2.4+gpusw@0.4.0+nic@0.6.0+nic@0.6.4+nvme@0.7.0+empty@0.7.2+"
		   "ib@0.7.4+nvme@0.7.6+gpu@0.9.0+nvme@0.9.2+ib@1.2.0+nvme@1.6.0+gpu@1.9.0+nvme@1.9.2",
};

