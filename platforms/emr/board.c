/*
 * Emerald Rapids laid out as Sapphire Rapids' board (platforms/spr/board.c: an HPE ProLiant DL380
 * Gen11, linuxhw/LsPCI c0a4a3a6 .../47A35ED32C): no Emerald Rapids listing was read.  The same buses and CPU buses
 * (filled as there), which pcm's emr_sad_to_pmu_id_mapping (pcm-iio-topology.cpp, intel/pcm 0fae0de1) makes IIO
 * PMUs 7 (DMI: EMR_DMI_PMON_ID), 1, 2, 3, 8, 6 and 0; PMUs 4, 5 and 9 (CPU buses 9-11) have no root bus.
 * Socket 1's buses as that listing's socket 1 (80, 89, 9e, b3, c8, dd, f2), its devices on c8's and dd's ports.
 */
#include "sim/sim.h"

static const struct sim_board_stack stacks[] = {
	{ 7, { 0x00, 0x80 }, 0, 0 }, { 1, { 0x11, 0x89 }, 1, 0 }, { 2, { 0x25, 0x9e }, 2, 0 }, { 3, { 0x39, 0xb3 }, 3, 0 },
	{ 8, { 0x4d, 0xc8 }, 4, 0 }, { 6, { 0x61, 0xdd }, 5, 0 }, { 0, { 0x75, 0xf2 }, 8, 0 },
};
const struct sim_board sim_emr_board = {
	.stacks = stacks, .nstacks = sizeof(stacks) / sizeof(stacks[0]), .dmi_pmu = 7, .pch_port_dev = 0x0d, .dmi_part = 7,
	.msm_pmu = 0,
	.devices = "nic@0.7.7+empty@0.1.0+nvme@0.1.4+gpusw@0.2.0+nic@0.3.0+nic@0.3.4+nvme@0.8.0+empty@0.8.2+"
		   "ib@0.8.4+nvme@0.8.6+gpu@0.6.0+nvme@0.6.2+ib@1.8.0+nvme@1.8.2+empty@1.8.4+empty@1.8.6+gpu@1.6.0+"
		   "nvme@1.6.2+empty@1.6.4+empty@1.6.6",
};

