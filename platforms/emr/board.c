/*
 * Emerald Rapids laid out as Sapphire Rapids' board (platforms/spr/board.c: socket 0 of an HPE ProLiant DL380
 * Gen11, linuxhw/LsPCI c0a4a3a6 .../47A35ED32C): no Emerald Rapids listing was read.  The same buses and CPU buses
 * (filled as there), which pcm's emr_sad_to_pmu_id_mapping (pcm-iio-topology.cpp, intel/pcm 0fae0de1) makes IIO
 * PMUs 7 (DMI: EMR_DMI_PMON_ID), 1, 2, 3, 8, 6 and 0; PMUs 4, 5 and 9 (CPU buses 9-11) have no root bus.
 * Socket 1's buses filled as socket 0's + 0x80, as on Sapphire Rapids.
 */
#include "sim/sim.h"

static const struct sim_board_stack stacks[] = {
	{ 7, { 0x00, 0x80 }, 0, 0 }, { 1, { 0x11, 0x91 }, 1, 0 }, { 2, { 0x25, 0xa5 }, 2, 0 }, { 3, { 0x39, 0xb9 }, 3, 0 },
	{ 8, { 0x4d, 0xcd }, 4, 0 }, { 6, { 0x61, 0xe1 }, 5, 0 }, { 0, { 0x75, 0xf5 }, 8, 0 },
};
const struct sim_board sim_emr_board = {
	.stacks = stacks, .nstacks = sizeof(stacks) / sizeof(stacks[0]), .dmi_pmu = 7, .pch_port_dev = 0x0d, .dmi_part = 7,
	.msm_pmu = 0,
	.devices = "nic@0.7.7+empty@0.1.0+nvme@0.1.4+gpusw@0.2.0+nic@0.3.0+nic@0.3.4+nvme@0.8.0+empty@0.8.2+"
		   "ib@0.8.4+nvme@0.8.6+gpu@0.6.0+nvme@0.6.2+ib@1.1.0+nvme@1.3.0+gpu@1.6.0+nvme@1.6.2",
};

