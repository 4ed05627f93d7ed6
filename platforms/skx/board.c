/*
 * Skylake-SP as a real server lists it: a Dell PowerEdge R440 with two Xeon Scalable, lspci -vvnn from
 * linuxhw/LsPCI commit c0a4a3a6b6c16310c33dc428ada641fd8d369f6f, Server/Dell/PowerEdge/PowerEdge R440/
 * 4A122AB18262/FEDORA-41/6.12.7-200.FC41.X86_64/X86_64/069319FA9F (tests/snapshots/field/skx-r440-ubox00.source).
 * Socket 0's IIO stacks 0-3 have root buses 00, 17, 3a, 5d (socket 1: 80, 85, ae, d7); the uncore's register
 * functions sit on them at the places below.  Not in the listing, and so not here: any register value (the
 * CPU_BUS_NUMBER MSR 0x300, CPUNODEID, GIDNIDMAP, CAPID6: the simulator fills them, platforms/skx/sim.c), the
 * stacks 4-5 (MCP0/1, absent on this part).  Cascade Lake has the same ids (Linux's skx_uncore_pci_ids serve
 * both): a Lenovo ThinkSystem SR650 of revision 07 functions (linuxhw/LsPCI commit
 * 48079bcbeb2a70ce93c7c59c26f77742702b7bb9, Server/Lenovo/ThinkSystem/ThinkSystem SR650 -[7X06CTO1WW]-/
 * 5D8AB08CFEB3/CENTOS-7/3.10.0-1160.21.1.EL7.X86_64/X86_64/928EE22E71, tests/snapshots/field/clx-sr650-2s.source)
 * lists the same functions on buses 00, 05, 2e, 57 (80, 85, ae, d7), and besides them 0x2059 at 0e.1, 0f.1,
 * 10.1 of stack 3's bus; its snapshot's expected answer holds every function of it to this table.
 */
#include "skx.h"
#include "sim/sim.h"
#include "sim_skx.h"

/* The register functions of the listing (and skx_uncore_pci_ids' M2PCIe 0x2088, which it does not show): they
 * move no data of their own, so no device group holds them.  Left out on purpose: the CBDMA engines 0x2021
 * (00:04.0-7, class 0x0880, driver ioatdma: they copy memory), the VMD 0x201d and the root ports 0x2030-0x2033
 * (bridges, placed by dev_ports.c). */
const struct pci_id_range skx_own_functions[] = {
	{ 0x2014, 0x2016 }, /* UBox 08.0-08.2 of stack 0's bus (0x2015 is class 0x1101, performance counters) */
	{ 0x2018, 0x2018 }, /* M2PCI 15.0, 16.0, 16.4, 17.0 of stack 3's bus */
	{ 0x2020, 0x2020 }, /* DMI3 registers 00:00.0 (class 0x0600, a host bridge: the DMI port itself) */
	{ 0x2024, 0x2026 }, /* stack 0's MM/VT-d, RAS, IOAPIC 05.0, 05.2, 05.4 */
	{ 0x2034, 0x2036 }, /* the other stacks' VT-d, RAS, IOxAPIC 05.0, 05.2, 05.4 */
	{ 0x2040, 0x204e }, /* iMC channels 0a.0-0d.3 of stack 2's bus (PMON 0x2042, 0x2046, 0x204a), M3UPI 12.x */
	{ 0x2054, 0x2059 }, /* 1d.0-1d.3 of stack 1's bus, UPI 0e.0, 0f.0, 10.0 of stack 3's and their "UPI
			     * Registers" 0e.1, 0f.1, 10.1 (0x2059: the Lenovo SR650 lists them, the R440 not) */
	{ 0x2066, 0x2066 }, /* M2M 08.0, 09.0 of stack 2's bus */
	{ 0x2080, 0x2086 }, /* PCU 1e.0-1e.6 of stack 1's bus (0x2083: CAPID6) */
	{ 0x2088, 0x2088 }, /* M2PCIe (Linux skx_uncore_pci_ids 21.1, 22.1, 23.1, 21.5) */
	{ 0x208d, 0x208e }, /* CHA 08.0-0b.3 and 0e.0-11.3 of stack 1's bus */
	{ 0, 0 },
};

/* The same functions on the simulated machine's stacks' root buses (classes as the listing gives them). */
#define SYS 0x088000u
#define R(st, d, f0, f1, id, inc, c) { st, d, f0, f1, id, inc, c }
/* Purley (SKX, CLX): ports at devices 0-3 (part = device, pcm-iio-topology.cpp); Linux shows the stacks' buses
 * from the CPU_BUS_NUMBER MSR (skx_iio_set_mapping, uncore_snbep.c 6.12) */
const struct sim_iio_regs sim_skx_iio_regs = { .port_dev = 0, .mapping = 1 };

const struct sim_root_fn sim_skx_root_fns[] = {
	R(0, 0x00, 0, 0, 0x2020, 0, 0x060000u), R(0, 0x05, 0, 0, 0x2024, 0, SYS), R(0, 0x05, 2, 2, 0x2025, 0, SYS),
	R(0, 0x05, 4, 4, 0x2026, 0, 0x080020u), R(0, 0x08, 0, 0, 0x2014, 0, SYS), R(0, 0x08, 1, 1, 0x2015, 0, 0x110100u),
	R(0, 0x08, 2, 2, 0x2016, 0, SYS),
	/* stacks 1-3: VT-d, RAS, IOxAPIC */
	R(1, 0x05, 0, 0, 0x2034, 0, SYS), R(1, 0x05, 2, 2, 0x2035, 0, SYS), R(1, 0x05, 4, 4, 0x2036, 0, 0x080020u),
	R(2, 0x05, 0, 0, 0x2034, 0, SYS), R(2, 0x05, 2, 2, 0x2035, 0, SYS), R(2, 0x05, 4, 4, 0x2036, 0, 0x080020u),
	R(3, 0x05, 0, 0, 0x2034, 0, SYS), R(3, 0x05, 2, 2, 0x2035, 0, SYS), R(3, 0x05, 4, 4, 0x2036, 0, 0x080020u),
	/* stack 1: 28 + 28 CHA functions, 1d.0-3, the PCU */
	R(1, 0x08, 0, 7, 0x208d, 0, SYS), R(1, 0x09, 0, 7, 0x208d, 0, SYS), R(1, 0x0a, 0, 7, 0x208d, 0, SYS),
	R(1, 0x0b, 0, 3, 0x208d, 0, SYS), R(1, 0x0e, 0, 7, 0x208e, 0, SYS), R(1, 0x0f, 0, 7, 0x208e, 0, SYS),
	R(1, 0x10, 0, 7, 0x208e, 0, SYS), R(1, 0x11, 0, 3, 0x208e, 0, SYS), R(1, 0x1d, 0, 3, 0x2054, 1, SYS),
	R(1, 0x1e, 0, 6, 0x2080, 1, SYS),
	/* stack 2: M2M, the six channels' functions */
	R(2, 0x08, 0, 0, 0x2066, 0, SYS), R(2, 0x09, 0, 0, 0x2066, 0, SYS), R(2, 0x0a, 0, 7, 0x2040, 1, SYS),
	R(2, 0x0b, 0, 3, 0x2048, 1, SYS), R(2, 0x0c, 0, 7, 0x2040, 1, SYS), R(2, 0x0d, 0, 3, 0x2048, 1, SYS),
	/* stack 3: UPI, M3UPI, M2PCI */
	R(3, 0x0e, 0, 0, 0x2058, 0, SYS), R(3, 0x0f, 0, 0, 0x2058, 0, SYS), R(3, 0x10, 0, 0, 0x2058, 0, SYS),
	R(3, 0x12, 0, 0, 0x204c, 0, SYS), R(3, 0x12, 1, 1, 0x204d, 0, SYS), R(3, 0x12, 2, 2, 0x204e, 0, SYS),
	R(3, 0x12, 4, 4, 0x204c, 0, SYS), R(3, 0x12, 5, 5, 0x204d, 0, SYS), R(3, 0x15, 0, 0, 0x2018, 0, SYS),
	R(3, 0x16, 0, 0, 0x2018, 0, SYS), R(3, 0x16, 4, 4, 0x2018, 0, SYS), R(3, 0x17, 0, 0, 0x2018, 0, SYS),
	{ 0 },
};
