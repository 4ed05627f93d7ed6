/*
 * Ice Lake-SP as real servers list it.  One socket: a Lenovo ThinkSystem SR630 V2 with one Xeon Scalable 3rd gen,
 * lspci -vvnn from linuxhw/LsPCI commit 28198bc06e2ea64dc579adb73bb9a75b0b784bcf, Server/Lenovo/ThinkSystem/
 * ThinkSystem SR630 V2/ECB5C724E79D/CENTOS-7/3.10.0-1160.49.1.EL7.X86_64/X86_64/FF6113B91D
 * (tests/snapshots/field/icx-sr630v2.source).  Its IIO stacks' root buses (09a2 at 00.0) are 00 (the CBDMA/DMI
 * stack, with the C620 PCH's functions), 17, 50, 89 and c2; the UBox bus fe and the PCU bus ff hold the rest of
 * the uncore's functions.  Two sockets: a Lenovo ThinkSystem SR650 V2, linuxhw/LsPCI commit
 * 92efda81321132e4b6956884ef44784ea8495d86, Server/Lenovo/ThinkSystem/ThinkSystem SR650 V2/D65FD98664FE/DEBIAN-11/
 * 5.10.0-20-AMD64/X86_64/29F89998EE (tests/snapshots/field/icx-sr650v2-2s.source): socket 0 (NUMA node 0) has root
 * buses 00, 16, 30, 4a, 64, its UBox 3450 at 7e:00.0 and PCU 3458-345f at 7f:1e.0-7; socket 1 (node 1) 80 (its
 * CBDMA, 0b00 at 80:01.x), 97, b0, c9, e2, its UBox at fe:00.0 and PCU at ff:1e.x.  Five root buses a socket: the
 * sixth stack, the MCP one (SAD 3, IIO PMU 2), has none, as pcm's WhitleyPlatformMapping gives it none
 * (pcm-iio-topology.cpp, intel/pcm 0fae0de1).
 *
 * Filled, not in the listings: which PMU each root bus is.  The SAD ids of SAD_CONTROL_CFG (Linux 6.12
 * icx_sad_pmon_mapping { 5, 0, 1, 2, 3, 4 }) are register values; the CBDMA/DMI stack is SAD 0 (PMU 5, bus 00 and
 * 80, ICX_CBDMA_DMI_PMON_ID), the others SAD 1, 2, 4, 5 (PMUs 0, 1, 3, 4) in bus order.  Every other register value
 * (CPUNODEID, GIDNIDMAP, CAPID6/7, the memory controller's windows) the simulator fills (platforms/icx/sim.c).
 * The devices: the simulator's kinds (sim_pcitree.c) in the stacks that have a root bus, the PCH's root port 00:1c.0
 * with a NIC below it (sim_pcitree.c icx_pch), the CBDMA engines on each socket (sim_icx_cbdma).
 */
#include "platform/platform.h"
#include "sim/sim.h"

/* The uncore's register functions of the listing: they move no data of their own, so no device group holds them
 * (dev_map.c).  Left out on purpose: the CBDMA engines 8086:0b00 (00:01.0-7: they copy memory, ioatdma), the root
 * ports 8086:347a (bridges, placed by dev_ports.c). */
const struct pci_id_range icx_own_functions[] = {
	{ 0x0998, 0x0998 }, /* every stack's 00.4 and fe:00.3 (class 0x0600, a host bridge by class) */
	{ 0x09a2, 0x09a4 }, /* every stack's 00.0 Mesh2IIO MMAP/SAD 09a2, 00.2 RAS 09a3, 00.1 09a4 */
	{ 0x09a6, 0x09a7 }, /* the DMI stack's MSM and its PMON function, 00:02.0-1 */
	{ 0x2880, 0x2880 }, /* fe:1a.0-1d.0 (class 0x1101, performance counters) */
	{ 0x3440, 0x3443 }, /* UPI fe:02.0-2 and fe:04.0-3 (PMON 3441 at .1) */
	{ 0x3445, 0x3448 }, /* M3UPI fe:05.0-07.2 (PMON 3446 at .1), fe:0b.0-1 */
	{ 0x344a, 0x344d }, /* M2M fe:0c.0-0f.0 (class 0x1101), fe:0b.2 344b; ff:00.0-03.3 344c, ff:0a.0-0d.3 344d */
	{ 0x344f, 0x3452 }, /* ff:1d.0 344f; the UBox fe:00.0 3450, the memory controller fe:00.1 3451, fe:00.2 3452 */
	{ 0x3455, 0x345f }, /* fe:00.5 3455, 00:02.4 3456 (class 0x1300), ff:1d.1 3457, the PCU ff:1e.0-7 3458-345f
			     * (CAPID6/7 in 345b at 1e.3) */
	{ 0, 0 },
};

/* The same functions on each simulated stack's root bus (sim_kind root_fns; classes as the listing gives them):
 * 00.1 09a4, 00.2 09a3, 00.4 0998 of every stack (09a2 at 00.0 comes with its SAD_CONTROL_CFG, sim_pcicfg.c), the
 * MSM 09a6/09a7 at 02.0/02.1 and 3456 at 02.4 of the CBDMA/DMI stack (PMU 5, bus 00).  The UBox and PCU buses'
 * functions the library reads are the simulator's own (sim.c). */
#define SYS 0x088000u
#define STACK_FNS(st) { st, 0, 1, 1, 0x09a4, 0, SYS }, { st, 0, 2, 2, 0x09a3, 0, SYS }, { st, 0, 4, 4, 0x0998, 0, 0x060000u }
const struct sim_root_fn sim_icx_root_fns[] = {
	STACK_FNS(0), STACK_FNS(1), STACK_FNS(2), STACK_FNS(3), STACK_FNS(4), STACK_FNS(5),
	{ 5, 2, 0, 1, 0x09a6, 1, SYS }, { 5, 2, 4, 4, 0x3456, 0, 0x130000u },
	{ 0 },
};

/* The CBDMA engines 8086:0b00 at 01.0-7 of each socket's CBDMA/DMI stack root bus (both listings: 00:01.x, and
 * 80:01.x on the SR650 V2), their DMA counted at that stack's (PMU 5's) part 3: pcm's WhitleyPlatformMapping
 * (pcm-iio-topology.cpp, intel/pcm 0fae0de1 and 202302: ICX_CBDMA_PART_ID 3, "There is one DMA Controller on each
 * socket"; issue 90 D7, doc/platforms.md) */
const struct sim_cbdma sim_icx_cbdma = { .dev = 1, .nfn = 8, .did = 0x0b00, .part = 3 };

/* SR650 V2 (two sockets) and SR630 V2 (one); PMU 2 (the MCP stack) has no root bus on either */
static const struct sim_board_stack stacks_2s[] = {
	{ 5, { 0x00, 0x80 }, 0, 0 }, { 0, { 0x16, 0x97 }, 0, 0 }, { 1, { 0x30, 0xb0 }, 0, 0 },
	{ 3, { 0x4a, 0xc9 }, 0, 0 }, { 4, { 0x64, 0xe2 }, 0, 0 },
};
static const struct sim_board_stack stacks_1s[] = {
	{ 5, { 0x00, -1 }, 0, 0 }, { 0, { 0x17, -1 }, 0, 0 }, { 1, { 0x50, -1 }, 0, 0 },
	{ 3, { 0x89, -1 }, 0, 0 }, { 4, { 0xc2, -1 }, 0, 0 },
};
/* The simulator's default set (SIM_DEVICES_DEFAULT) with PMU 2's items on stacks that have a root bus, socket 0's
 * on PMU 4, socket 1's on PMU 0 (socket 0's PMU 0 stays without a root port, as in the default set) */
#define ICX_DEVICES                                                                                              \
	"nic@0.1.0+nvme@0.1.1+nvme@0.1.2+gpusw@0.4.0+empty@0.4.1+ib@0.3.0+gpusw@1.1.0+nvme@1.1.1+ib@1.0.0+"        \
	"gpu@1.3.0+nic@1.4.0"
/* The PCH's root port is the simulator's (pch_port_dev 0: sim_kind pch_nic); no MSM with CPU buses (msm_pmu:
 * Ice Lake-SP's stacks go by SAD_CONTROL_CFG, iio_regs sad_id) */
static const struct sim_board board_1s = {
	.stacks = stacks_1s, .nstacks = sizeof(stacks_1s) / sizeof(stacks_1s[0]), .dmi_pmu = 5, .msm_pmu = 5,
	.devices = ICX_DEVICES, .ubox = { 0xfe, 0 },
};
const struct sim_board sim_icx_board = {
	.stacks = stacks_2s, .nstacks = sizeof(stacks_2s) / sizeof(stacks_2s[0]), .dmi_pmu = 5, .msm_pmu = 5,
	.devices = ICX_DEVICES, .ubox = { 0x7e, 0xfe }, .one_socket = &board_1s,
};
