/*
 * Ice Lake-SP as a real server lists it: a Lenovo ThinkSystem SR630 V2 with one Xeon Scalable 3rd gen, lspci -vvnn
 * from linuxhw/LsPCI commit 28198bc06e2ea64dc579adb73bb9a75b0b784bcf, Server/Lenovo/ThinkSystem/ThinkSystem SR630
 * V2/ECB5C724E79D/CENTOS-7/3.10.0-1160.49.1.EL7.X86_64/X86_64/FF6113B91D (tests/snapshots/field/icx-sr630v2.source).
 * Its IIO stacks' root buses are 00 (the CBDMA/DMI stack, with the C620 PCH's functions), 17, 50, 89 and c2; the
 * UBox bus fe and the PCU bus ff hold the rest of the uncore's functions.  Not in the listing, and so not here: any
 * register value (SAD_CONTROL_CFG, CPUNODEID, GIDNIDMAP, CAPID6/7: the simulator fills them, platforms/icx/sim.c).
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
