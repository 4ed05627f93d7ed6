/*
 * The stack-to-bus registers of a simulated machine, as a kernel's sysfs shows them: Ice Lake-SP has on
 * each IIO stack's root bus, at 00.0, the "Memory Map/VT-d" function 8086:09a2 whose SAD_CONTROL_CFG
 * (config offset 0x3f4) holds the socket's node id in bits 3:0 and the stack's SAD id in bits 6:4 (Linux
 * 6.12 uncore_snbep.c SNR_ICX_MESH2IIO_MMAP_DID, SNR_ICX_SAD_CONTROL_CFG, SAD_CONTROL_STACK_ID; pcm
 * pcm-iio-topology.cpp getSadIdRootBusMap for the node id).  The SAD id of IIO PMU n is the inverse of
 * Linux's icx_sad_pmon_mapping { 5, 0, 1, 2, 3, 4 }: PMU 5 (CBDMA/DMI) is SAD 0, PMU n < 5 is SAD n + 1.
 *
 * Sapphire Rapids and later, as pcm reads them (src/types.h, utils.cpp get_cpu_bus, pcm-iio-topology.cpp):
 * each socket's MSM function 8086:09a6 at device 3 function 0 lists its "CPU buses", CPUBUSNO_VALID at 0x1a0
 * and their numbers 4 a dword at 0x190 (0-15) and 0x1c0 (16-31); function 0 of the first valid one has the
 * package in SAD_CONTROL_CFG bits 3:0; Sapphire Rapids' PCU CR3 (8086:325b, 1e.3) says its die in CAPID4
 * (0x94) bits 7:6 (0b11: XCC, the simulated part), and its CHAs, there and on Emerald Rapids, in CAPID6/7.  A
 * machine laid out as a real board (sim_board) has the MSM at 03.0 of the board's stack (as listed) and lists the
 * board's CPU buses; its PCU CR3 sits beside the MSM, at 1e.3 (the listing has it on the UBox's second bus, 7f,
 * which the simulator's UBox buses are not).  Without a board the MSM and PCU CR3 sit on a bus of their own, the
 * last of the socket's, and the CPU bus of IIO PMU n is the inverse of pcm's spr_xcc_, emr_ and
 * srf_sad_to_pmu_id_mapping for PMUs 0-5.
 */
#include <stdio.h>
#include <string.h>
#include <stdint.h>
#include "sim.h"
#include "sim_pcicfg.h"
#include "sim_numa.h"
#include "sim_pcitree.h"
#include "util/error.h"

/* The kind's registers; a kind with none: no uncore functions, root ports at devices 1-8 */
static const struct sim_iio_regs *regs(const struct sim *s)
{
	static const struct sim_iio_regs none = { .port_dev = 1 };
	return s->kind->iio_regs ? s->kind->iio_regs : &none;
}

int sim_root_port_dev(const struct sim *s, int port) { return regs(s)->port_dev + port; }

/* CPU bus of IIO PMU 0..5, NULL: no such registers (a board's: board_cpubus) */
static const int *cpu_bus_of(const struct sim *s) { return regs(s)->cpubus; }

/* Sapphire and Emerald Rapids show three more uncore functions beside 09a2 on every stack's root bus: Mesh 2
 * PCIe 09a4 at 00.1, RAS 09a3 at 00.2 (class 0x0880) and the root complex event collector 0b23 at 00.4 (class
 * 0x0807), as a real board lists them (HPE ProLiant DL380 Gen11, linuxhw/LsPCI c0a4a3a6, Server/HPE/ProLiant/
 * ProLiant DL380 Gen11/89BBBA931D2E/DEBIAN-12/6.8.4-3-PVE/X86_64/47A35ED32C); their registers are zeros here. */
static int spr_family(const struct sim *s) { return regs(s)->eagle_fns; }
static const struct {
	int fn;
	unsigned did, cls;
} spr_root_fns[] = { { 1, 0x09a4, 0x088000 }, { 2, 0x09a3, 0x088000 }, { 4, 0x0b23, 0x080700 } };

/* The CPU bus of stack st on a board (-1: none) */
static int board_cpubus(const struct sim_board *b, int st)
{
	for (int i = 0; i < b->nstacks; i++)
		if (b->stacks[i].pmu == st)
			return b->stacks[i].cpubus;
	return -1;
}

/* An accelerator stack of a board: its root complex event collector at 00.4 (Birch Stream) */
static int board_hc(const struct sim_board *b, int st)
{
	for (int i = 0; b && i < b->nstacks; i++)
		if (b->stacks[i].pmu == st)
			return b->stacks[i].hc;
	return 0;
}

int sim_pcicfg_functions(const struct sim *s)
{
	const struct sim_board *b = sim_board_of(s);
	if (regs(s)->sad_id) { /* 09a2 on each root bus (a board's stack with none has none) */
		int n = 0;
		for (int st = 0; st < sim_iio_stacks(s); st++)
			n += sim_iio_tree_bus(s, 0, 0, st) >= 0;
		return n;
	}
	if (b) {
		int n = 1 + regs(s)->pcu_cr3;
		for (int i = 0; i < b->nstacks; i++)
			n += spr_family(s) ? 4 : 1 + b->stacks[i].hc;
		return n;
	}
	return cpu_bus_of(s) ? sim_iio_stacks(s) * (spr_family(s) ? 4 : 1) + 1 + regs(s)->pcu_cr3 : 0;
}

static int put(struct memfs *m, const char *dir, const char *file, const char *text)
{
	char p[512];
	snprintf(p, sizeof(p), "%.400s/%s", dir, file);
	return memfs_put(m, p, text, 0);
}

/* A function of the uncore at bus:dev.fn below dir, its config space cfg (its ids put in) */
static int uncore_fn_class(struct memfs *m, const char *dir, int node, int bus, int dev, int fn, unsigned did,
			   unsigned cls, uint8_t cfg[4096])
{
	char path[512], bdf[16], nodes[16], id[16], cfgpath[96], class[16];
	uint32_t ids = did << 16 | 0x8086;
	snprintf(bdf, sizeof(bdf), "0000:%02x:%02x.%d", bus, dev, fn);
	snprintf(path, sizeof(path), "%.400s/%s", dir, bdf);
	snprintf(nodes, sizeof(nodes), "%d", node);
	snprintf(id, sizeof(id), "0x%04x", did);
	memcpy(cfg, &ids, 4); /* vendor and device id (PCI config offsets 0 and 2) */
	snprintf(cfgpath, sizeof(cfgpath), "/sys/bus/pci/devices/%s/config", bdf);
	snprintf(class, sizeof(class), "0x%06x", cls);
	if (put(m, path, "vendor", "0x8086") || put(m, path, "device", id) || put(m, path, "class", class) ||
	    put(m, path, "numa_node", nodes) || memfs_put_bytes(m, cfgpath, cfg, 4096, 0))
		return uc_err("out of memory");
	return 0;
}

static int uncore_fn(struct memfs *m, const char *dir, int node, int bus, int dev, int fn, unsigned did,
		     uint8_t cfg[4096])
{
	return uncore_fn_class(m, dir, node, bus, dev, fn, did, 0x088000, cfg);
}

/* The socket's MSM (and on SPR its PCU CR3): on a board at its place, else on the bus after its stacks' */
static int msm(const struct sim *s, struct memfs *m, int socket, const int *cpubus)
{
	const struct sim_board *b = sim_board_of(s);
	int nst = sim_iio_stacks(s), step = sim_iio_tree_bus(s, 0, 0, 1) - sim_iio_tree_bus(s, 0, 0, 0);
	int bus = b ? sim_iio_tree_bus(s, socket, 0, b->msm_pmu) : sim_iio_tree_bus(s, socket, 0, nst - 1) + step - 1;
	uint8_t cfg[4096] = { 0 };
	uint32_t valid = 0, no[8] = { 0 }, capid4 = 3u << 6; /* an XCC die */
	char dir[64];
	for (int st = 0; st < nst && (b || st < 6); st++) {
		int cb = b ? board_cpubus(b, st) : cpubus[st];
		if (cb < 0)
			continue;
		valid |= 1u << cb;
		no[cb / 4] |= (uint32_t)sim_iio_root_bus(s, socket, 0, st) << (cb % 4 * 8);
	}
	memcpy(cfg + 0x1a0, &valid, 4);
	memcpy(cfg + 0x190, no, 16);
	memcpy(cfg + 0x1c0, no + 4, 16);
	snprintf(dir, sizeof(dir), "/sys/devices/pci0000:%02x", bus);
	int node = s->numa_off ? -1 : sim_node_of_scope(s, socket * s->dies); /* the MSM's bus: the socket's first node */
	if (uncore_fn(m, dir, node, bus, 3, 0, 0x09a6, cfg))
		return -1;
	/* CAPID6 and CAPID7 (0x9C, 0xA0): a bit a CHA of the die's slots (the part's largest, max_cores), 32 each
	 * (seed 001 section 1.7.1, "Querying Number of CHAs": "read bits 31:0 in the CAPID6 register located at Device
	 * 30, Function 3, Offset 0x9C and CAPID7 register located at Offset 0xA0"; PCM getMaxNumOfCBoxes counts their
	 * bits on SPR, 202302 and later, and on EMR).  With dies=N each die has the cores= CHAs and this is a die's. */
	uint64_t capid = sim_cha_capid(s->cores, s->kind->max_cores);
	uint32_t capid6 = (uint32_t)capid, capid7 = (uint32_t)(capid >> 32);
	memset(cfg, 0, sizeof(cfg));
	memcpy(cfg + 0x94, &capid4, 4);
	memcpy(cfg + 0x9c, &capid6, 4);
	memcpy(cfg + 0xa0, &capid7, 4);
	return regs(s)->pcu_cr3 ? uncore_fn(m, dir, node, bus, 0x1e, 3, 0x325b, cfg) : 0;
}

int sim_pcicfg_root(const struct sim *s, struct memfs *m, int socket, int stack, const char *dir)
{
	const int *cpubus = cpu_bus_of(s);
	const struct sim_board *b = sim_board_of(s);
	if (!regs(s)->sad_id && !cpubus)
		return 0;
	uint8_t cfg[4096] = { 0 };
	/* SAD_CONTROL_CFG: the node id, and on ICX the stack's SAD id */
	uint32_t sad = (uint32_t)(stack == 5 ? 0 : stack + 1), ctl = (uint32_t)socket | (cpubus ? 0 : sad << 4);
	memcpy(cfg + 0x3f4, &ctl, 4);
	int node = sim_stack_node(s, socket, 0, stack), bus = sim_iio_root_bus(s, socket, 0, stack);
	if (uncore_fn(m, dir, node, bus, 0, 0, 0x09a2, cfg))
		return -1;
	for (size_t i = 0; spr_family(s) && i < sizeof(spr_root_fns) / sizeof(spr_root_fns[0]); i++) {
		memset(cfg, 0, 4096);
		if (uncore_fn_class(m, dir, node, bus, 0, spr_root_fns[i].fn, spr_root_fns[i].did, spr_root_fns[i].cls, cfg))
			return -1;
	}
	memset(cfg, 0, 4096);
	if (!spr_family(s) && board_hc(b, stack) && uncore_fn_class(m, dir, node, bus, 0, 4, 0x0b23, 0x080700, cfg))
		return -1; /* the HC stack's event collector (its associated buses are not in the simulated config space) */
	return cpubus && stack == (b ? b->msm_pmu : sim_iio_stacks(s) - 1) ? msm(s, m, socket, cpubus) : 0;
}
