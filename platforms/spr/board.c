/*
 * Sapphire Rapids XCC laid out as a real server lists it: an HPE ProLiant DL380 Gen11 (two sockets, SNC2), lspci -vvnn from linuxhw/LsPCI commit c0a4a3a6b6c16310c33dc428ada641fd8d369f6f, Server/HPE/ProLiant/
 * ProLiant DL380 Gen11/89BBBA931D2E/DEBIAN-12/6.8.4-3-PVE/X86_64/47A35ED32C.  Its root buses 00, 11, 25, 39, 4d,
 * 61 and 75 each carry 09a2/09a4/09a3/0b23 at 00.0-00.4 (sim_pcicfg.c); on 00 the PCH's root port 8086:1bbd at 0d.0
 * (the iLO behind it) and its xHCI 1bcd at 14.0; on 11 root ports at 01.0 and 05.0; on 25 a x16 port at 01.0 (an
 * Adaptec switch and SAS HBA below); on 39 ports 01.0 and 05.0 with a BCM5719 and a BCM57416 NIC; on 4d ports
 * 01.0, 03.0, 05.0, 07.0; on 61 ports 01.0, 03.0; on 75 the DSA 0b25 at 01.0 and the MSM 09a6 at 03.0.  Socket 1's
 * root buses, each with the same four functions: 80, 89, 9e, b3, c8, dd and f2 (not socket 0's + 0x80: 11 is 89,
 * 75 is f2); on c8 and dd root ports 01.0, 03.0, 05.0 and 07.0, nothing below them; on f2 the DSA at 01.0 and the
 * MSM at 03.0 (tests/snapshots/field/spr-dl380g11-mcc.source lists every function).
 *
 * Filled, not in the listing: the MSM's CPUBUSNO registers (CPU buses 0-5 on 00-61 and on 80-dd in bus order, 8
 * on 75 and f2) and CAPID4 (0b11: XCC); by pcm's spr_xcc_sad_to_pmu_id_mapping (pcm-iio-topology.cpp, intel/pcm
 * 0fae0de1) they make the buses IIO PMUs 1 (DMI), 2, 4, 6, 7, 9 and 0.  PMUs 3, 5 and 8 (CPU buses 9-11, the other
 * accelerator stacks) have no root bus on this part, and none here; their boxes count (Intel's Eagle Stream board
 * lists all four accelerator stacks a socket, linuxhw/LsPCI 92efda81 Server/Intel/ArcherCity/ArcherCity/
 * 356135E81941/UBUNTU-22.04/6.0.0/X86_64/625DA68153: socket 0's 6a, its DSA/IAA at 01.0/02.0, QAT at 6b:00.0;
 * socket 1's f1 and f6; not read through, not modelled).  The devices: the listing's places, the simulator's kinds
 * (sim_pcitree.c) in them: a NIC behind the PCH's port where the iLO is, a switch with two GPUs where the HBA's
 * switch is, and drives, GPUs and HCAs in the listing's empty ports of PMUs 2, 7 and 9 on socket 0 and of 7 and 9
 * (c8, dd) on socket 1, its other ports there empty.  The simulator's UBox buses, discovery device and PCU CR3 stay its own (spr_family_sim.c,
 * sim_pcicfg.c); the DSA at 75:01.0 and the PCH's functions but its xHCI (14.2, 14.4, 16.0, 1f.0, 1f.5) are left out.
 */
#include "sim/sim.h"

/* pcm: SPR_XCC_DMI_PMON_ID 1 on CPU bus 0, SPR_DMI_PART_ID 7; the PCH's root port at 0d.0 */
static const struct sim_board_stack stacks[] = {
	{ 1, { 0x00, 0x80 }, 0, 0 }, { 2, { 0x11, 0x89 }, 1, 0 }, { 4, { 0x25, 0x9e }, 2, 0 }, { 6, { 0x39, 0xb3 }, 3, 0 },
	{ 7, { 0x4d, 0xc8 }, 4, 0 }, { 9, { 0x61, 0xdd }, 5, 0 }, { 0, { 0x75, 0xf2 }, 8, 0 },
};
const struct sim_board sim_spr_board = {
	.stacks = stacks, .nstacks = sizeof(stacks) / sizeof(stacks[0]), .dmi_pmu = 1, .pch_port_dev = 0x0d, .dmi_part = 7,
	.msm_pmu = 0,
	.devices = "nic@0.1.7+empty@0.2.0+nvme@0.2.4+gpusw@0.4.0+nic@0.6.0+nic@0.6.4+nvme@0.7.0+empty@0.7.2+"
		   "ib@0.7.4+nvme@0.7.6+gpu@0.9.0+nvme@0.9.2+ib@1.7.0+nvme@1.7.2+empty@1.7.4+empty@1.7.6+gpu@1.9.0+"
		   "nvme@1.9.2+empty@1.9.4+empty@1.9.6",
};

