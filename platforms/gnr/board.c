/*
 * Granite Rapids and Sierra Forest laid out as Intel's Birch Stream reference board lists its accelerator (HC)
 * stacks: lspci -vvnn from linuxhw/LsPCI commit b6f7d8f21b9a2b2be1e232663e46b81e2fec611c, Server/Intel/BIRCHSTREAM/
 * BIRCHSTREAM/1F03C9158405/XUBUNTU-24.04/6.8.0-48-GENERIC/X86_64/F71EAE46A6.  Four HC stacks a socket on root buses
 * 00, 05, 0a and 0f, each with 09a2/09a4/09a3 and the root complex event collector 0b23 at 00.0-00.4 (00:00.4
 * "RCiEP at Device(s): 0-3, AssociatedBusNumbers: 01-03"), DSA 0b25 at 01.0 and IAA 0cfe at 02.0 of the stack's bus,
 * QAT 4944 at 00.0 of the next bus and DLB 2714 at 00.0 three buses on, root-complex endpoints on root buses of
 * their own; the MSM 09a6 at 00:03.0.
 *
 * The six PCIe stacks' root buses as the same listing gives them, each with 09a2/09a4/09a3 and 0b23 at 00.0-00.4
 * ("AssociatedBusNumbers: [none]"): 14, 29, 3a, 4b, 5c, 6d on socket 0 and 94, a6, b7, c8, d9, ea on socket 1 (not
 * socket 0's + 0x80 past the first); the HC stacks' 80, 85, 8a, 8f on socket 1; the UBox buses 7e/7f and fe/ff.
 *
 * Filled, not in the listing: the MSM's CPUBUSNO registers, CPU buses 8, 12, 16 and 20 (pcm SRF_HC0/1/3/2_SAD_BUS_ID)
 * on 00, 05, 0a, 0f in that order, which pcm's srf_sad_to_pmu_id_mapping (pcm-iio-topology.cpp, intel/pcm 0fae0de1,
 * since cbeba329) makes IIO PMUs 1, 6, 14 and 9, and CPU buses 0-5 (pcm SRF_PE6/PE2/PE0/PE1/PE3/PE7: PMUs 0, 2, 3,
 * 4, 5, 7) on the six PCIe stacks in bus order (the listing cannot tell which stack a bus is); PMUs 8 and 10-13
 * (CPU buses 26-29, FlexUPI) have no root bus.  The RCEC's associated-bus capability is not in the simulated config
 * space.  The devices as the listing has them: on socket 0's first PCIe stack (14, IIO PMU 0) root ports 14:06.0,
 * 07.0, 08.0 and 09.0 (parts 4-7, part = device - 2) with an NVMe drive, a NIC, the BMC's VGA behind its AST1150
 * bridge and a USB controller below them, on the third (3a, PMU 3) 3a:02.0 (part 0) with a NIC; every HC stack's
 * DSA, IAA, QAT and DLB on socket 0, on socket 1 those of HC0 and HC1 (a set holds at most 32 items).  The simulator's
 * endpoints are its kinds' (an E810 NIC where the listing has an I210 and an X710, one function each).  pcm's
 * loop (slot < 9) never probes 14:09.0: the part there is its stated rule's ("A-H at devices 2-9"), not its
 * output (platforms/gnr/platform.c).
 */
#include "sim/sim.h"
#include "sim_gnr.h"

static const struct sim_board_stack stacks[] = {
	/* the HC stacks (00:00.4 "AssociatedBusNumbers: 01-03" .. 8f:00.4 "90-92") */
	{ 1, { 0x00, 0x80 }, 8, 1 }, { 6, { 0x05, 0x85 }, 12, 1 }, { 14, { 0x0a, 0x8a }, 16, 1 }, { 9, { 0x0f, 0x8f }, 20, 1 },
	/* the PCIe stacks (14:00.0-00.4 .. 6d:00.4, 94:00.0-00.4 .. ea:00.4) */
	{ 0, { 0x14, 0x94 }, 0, 0 }, { 2, { 0x29, 0xa6 }, 1, 0 }, { 3, { 0x3a, 0xb7 }, 2, 0 }, { 4, { 0x4b, 0xc8 }, 3, 0 },
	{ 5, { 0x5c, 0xd9 }, 4, 0 }, { 7, { 0x6d, 0xea }, 5, 0 },
};
/* Birch Stream (GNR, SRF): root ports A-H at devices 2-9 (part = device - 2, pcm-iio-topology.cpp); without a
 * board the CPU bus of IIO PMU n is pcm's srf_sad_to_pmu_id_mapping inverted (pcm-iio-topology.cpp) */
static const int srf_cpubus[6] = { 0, 8, 1, 2, 3, 4 };
const struct sim_iio_regs sim_gnr_iio_regs = { .port_dev = 2, .cpubus = srf_cpubus };

const struct sim_board sim_gnr_board = {
	.stacks = stacks, .nstacks = sizeof(stacks) / sizeof(stacks[0]), .dmi_pmu = -1, .msm_pmu = 1,
	.devices = "nvme@0.0.4+nic@0.0.5+vga@0.0.6+usb@0.0.7+nic@0.3.0+"
		   "dsa@0.1.0+iaa@0.1.0+qat@0.1.4+dlb@0.1.5+dsa@0.6.0+iaa@0.6.0+qat@0.6.4+dlb@0.6.5+"
		   "dsa@0.14.0+iaa@0.14.0+qat@0.14.4+dlb@0.14.5+dsa@0.9.0+iaa@0.9.0+qat@0.9.4+dlb@0.9.5+"
		   "dsa@1.1.0+iaa@1.1.0+qat@1.1.4+dlb@1.1.5+dsa@1.6.0+iaa@1.6.0+qat@1.6.4+dlb@1.6.5",
};
