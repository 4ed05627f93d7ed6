/*
 * Simulated Ice Lake-SP.  Per socket: the MSR boxes at the driver's irregular offsets (UBox, CHAs, six IIO
 * stacks with their IRPs, M2PCIe and free-running counters, PCU); on the UBox's bus the PCI functions of
 * icx_uncore_pci_ids, the UBox device 0x3450 (node id registers) and the memory controller device 0x3451, whose
 * config registers place the twelve iMC channels' MMIO windows and the four controllers' free-running counters
 * (snr_uncore_mmio_map), and on the bus above it the PCU functions with CAPID6/7 (0x345B at 1e.3).  The buses are
 * the real boards' (board.c): one socket the Lenovo SR630 V2's UBox fe:00.0 and 345B at ff:1e.3, two the SR650
 * V2's 7e/7f and fe/ff.  Linux maps a bus without a UBox to the socket of the next higher bus with one
 * (snbep_pci2phy_map_init(..., true)), so a PCU's bus belongs to the next socket or to none (socket 0's 7f maps
 * to socket 1, socket 1's ff to none).  The CHAs are as many as CAPID6 and CAPID7 (0x345B at D30 F3, config 0x9C
 * and 0xA0) have bits set among the die's 40 slices, spread over both dwords (40 on the simulated part, the
 * Platinum 8380's: CAPID6 then reads all ones; CHAs 34-39 sit at the low offsets 0x0-0x46 of icx_cha_msr_offsets).
 */
#include <string.h>
#include "util/error.h"
#include "sim/sim_disc.h"
#include "sim/sim_numa.h"
#include "sim/sim_only.h"
#include "sim_icx.h"

/* The UBox bus of a socket (the PCU's is the next): the board's (board.c); with more than two sockets, which no
 * Ice Lake-SP board has, a fill in the boards' pattern: the two buses below the next socket's first root bus (the
 * stacks' root buses spread evenly in socket order, as sim_pcitree.c spreads them), fe and ff for the last socket. */
static int ubox_bus(const struct sim *s, int sock)
{
	int b = sim_board_ubox_bus(s, sock);
	if (b >= 0)
		return b;
	int share = 0x100 / (SIM_ICX_STACKS * s->nsockets), step = share > 0x20 ? 0x20 : share; /* sim_pcitree.c bus_step */
	return sock + 1 < s->nsockets ? (sock + 1) * SIM_ICX_STACKS * step - 2 : 0xfe;
}
/* CPUNODEID and GIDNIDMAP are not in a listing: filled, node ids not equal to the sockets' */
static int node_id(int socket) { return (socket * 5 + 3) & 7; }

#define ICX_LINKS 3
#define ICX_IMC_BASE 0xd0000000ull /* socket 0's MMIO base (config 0xD0 << 23); + 0x1000000 a socket */

/* PCI functions (icx_uncore_pci_ids: dev.fn) on the UBox's bus, as the SR630 V2 lists UPI 3441 at fe:02.1 and
 * fe:04.1, M3UPI 3446 at fe:05.1-07.1 and M2M 344a at fe:0c.0-0f.0 */
static const struct sim_bus_place places[] = {
	{ "upi", 0, 0, 2, 1 }, { "upi", 1, 0, 3, 1 }, { "upi", 2, 0, 4, 1 },
	{ "m3upi", 0, 0, 5, 1 }, { "m3upi", 1, 0, 6, 1 }, { "m3upi", 2, 0, 7, 1 },
	{ "m2m", 0, 0, 12, 0 }, { "m2m", 1, 0, 13, 0 }, { "m2m", 2, 0, 14, 0 }, { "m2m", 3, 0, 15, 0 },
};

/* The free-running counters: IIO clock and bandwidth in by port (sim_disc_iio_fr_rate), and per memory
 * controller its three channels' reads and writes (64-byte lines), Optane traffic and DCLK. */
static double fr_rate(const struct sim *s, const struct sim_box *b, const char *n)
{
	const struct sim_profile *p = &s->prof;
	int sock = b->socket, nch = s->mem_channels[sock] > 0 ? s->mem_channels[sock] : 1, mine = 0;
	for (int k = b->idx; k < b->idx + 3; k++) /* the controller's boxes (this one its first) that carry traffic */
		mine += sim_imc_populated(s, sock, k);
	double ctrl_share = (double)mine / nch;
	if (!strcmp(n, "dclk"))
		return p->dram_hz;
	if (!strcmp(n, "read") || !strcmp(n, "write"))
		return (n[0] == 'r' ? p->mem_read_bps[sock] : p->mem_write_bps[sock]) / 64 * ctrl_share;
	if (!strcmp(n, "ddrt_read") || !strcmp(n, "ddrt_write"))
		return (n[5] == 'r' ? p->pmem_read_bps[sock] : p->pmem_write_bps[sock]) / 64 * ctrl_share;
	return sim_disc_iio_fr_rate(s, b, n, SIM_ICX_STACKS, 32);
}

/* iMC channel: CLOCKTICKS (0x00), CAS_COUNT (0x04: reads RD_REG 1, RD_PRE_REG 2, RD_UNDERFILL 4,
 * RD_PRE_UNDERFILL 8; writes WR_NONPRE 0x10, WR_PRE 0x20), RPQ inserts (0x10, PCH0 1 / PCH1 2) and occupancy
 * (0x80 PCH0, 0x81 PCH1), WPQ inserts (0x20), Optane read and write queue inserts (0xE3, 0xE7); traffic spread
 * over the socket's populated channels (sim_dimms.c), half on each pseudo-channel. */
static double imc_rate(const struct sim *s, const struct sim_box *b, unsigned ev, unsigned um)
{
	const struct sim_profile *p = &s->prof;
	int sock = b->socket;
	if (!sim_chan_populated(s, b)) /* an empty channel, or a box that is none: its clock alone */
		return ev == 0x00 ? p->dram_hz : 0;
	int nch = s->mem_channels[sock] > 0 ? s->mem_channels[sock] : 1;
	double rd = p->mem_read_bps[sock] / 64 / nch, wr = p->mem_write_bps[sock] / 64 / nch;
	switch (ev) {
	case 0x00: return p->dram_hz;
	case 0x04:
		return rd * ((um & 1 ? 0.6 : 0) + (um & 2 ? 0.2 : 0) + (um & 4 ? 0.15 : 0) + (um & 8 ? 0.05 : 0)) +
		       wr * ((um & 0x10 ? 0.7 : 0) + (um & 0x20 ? 0.3 : 0));
	case 0x10: return rd * ((um & 1 ? 0.5 : 0) + (um & 2 ? 0.5 : 0));
	case 0x80:
	case 0x81: return rd * 0.5 * p->mem_read_lat_ns[sock] * p->dram_hz / 1e9;
	case 0x20: return wr * ((um & 1 ? 0.5 : 0) + (um & 2 ? 0.5 : 0));
	case 0xe3: return p->pmem_read_bps[sock] / 64 / nch;
	case 0xe7: return p->pmem_write_bps[sock] / 64 / nch;
	default: return 0;
	}
}

/* ICX's own events around the discovery machines' model (the same CHA TOR, UPI and IIO encodings in Intel's
 * JSON): CHA, iMC, M2M and PCU clockticks are event 0x00 here; the iMC; M2M directory updates (0x2E); the
 * PCU's frequency limits. */
static double icx_own(const struct sim *s, const struct sim_box *b, unsigned ev, unsigned um, uint64_t ctl)
{
	const struct sim_profile *p = &s->prof;
	const char *u = b->u->name;
	(void)ctl;
	if (!strcmp(u, "imc"))
		return imc_rate(s, b, ev, um);
	if (!strcmp(u, "m2m"))
		return ev == 0x00 ? p->uncore_hz : ev == 0x2e && (um & 1) ? p->dir_update_bps[b->socket] / 64 / 4 * 0.5 : 0;
	if (!strcmp(u, "pcu")) /* CLOCKTICKS, FREQ_MAX_LIMIT_THERMAL_CYCLES (0x04), FREQ_MAX_POWER_CYCLES (0x05) */
		return ev == 0x00 ? p->pcu_hz : ev == 0x04 ? p->pcu_thermal[b->socket] * p->pcu_hz
				      : ev == 0x05 ? p->pcu_power[b->socket] * p->pcu_hz : 0;
	return -1;
}

static double icx_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr)
{
	static const struct sim_disc_model model = { .links = ICX_LINKS, .stacks = SIM_ICX_STACKS, .own = icx_own };
	const struct sim_profile *p = &s->prof;
	if (SIM_CTR_IS_FR(ctr))
		return fr_rate(s, b, b->u->fr[SIM_CTR_FR_INDEX(ctr)].name);
	if (ctr == SIM_CTR_FIXED)
		return !strcmp(b->u->name, "imc") ? p->dram_hz : p->uncore_hz; /* iMC DCLK, UBox UCLK */
	if (!strcmp(b->u->name, "cha") && (ctl & 0xff) <= 0x01) /* CLOCKTICKS is 0x00 (0x01 on the discovery parts) */
		return (ctl & 0xff) == 0x00 && !(ctl & (SIM_EDGE | SIM_INV)) ? p->uncore_hz : 0;
	return sim_disc_rate(s, b, ctl, &model);
}

/* The memory controller device 0x3451 on the UBox's bus: the MMIO base at 0xD0 (address 51:23) and controller
 * c's offset at 0xD8 + 4 c (address 22:12); channel k at + 0x22800 + 0x4000 k, the free-running counters at
 * the controller's base. */
static int icx_imcs(struct sim *s, int sock, int bus)
{
	const struct sim_unit *imc = sim_unit_named(s, "imc");
	uint64_t base = ICX_IMC_BASE + 0x1000000ull * (uint64_t)sock;
	struct sim_dev *d = sim_add_dev(s, bus, 0, 1, 0x3451);
	if (sim_put_cfg32(d, 0xd0, (uint32_t)(base >> 23)))
		return -1;
	for (int c = 0; c < 4; c++) {
		uint64_t off = 0x200000ull + 0x80000ull * (uint64_t)c;
		if (sim_put_cfg32(d, 0xd8 + 4u * (uint32_t)c, (uint32_t)(off >> 12)))
			return -1;
		for (int ch = 0; ch < 3; ch++) {
			struct sim_box *b = sim_add_box(s, imc, sock, c * 3 + ch);
			if (!b)
				return uc_err("simulator: too many boxes");
			b->base = base + off + 0x22800 + 0x4000ull * (uint64_t)ch;
			if (ch == 0) {
				b->fr_base = base + off;
				b->nfr = imc->nfr;
			}
		}
	}
	return 0;
}

/* The MSR boxes of a socket, each at its unit's offset table (sim_map.c): as many CHAs as cores. */
static int icx_msr_boxes(struct sim *s, int sock)
{
	for (int t = 0; t < s->nunits; t++) {
		const struct sim_unit *u = &s->units[t];
		int n = !strcmp(u->name, "cha") ? s->cores : u->nboxes;
		for (int i = 0; u->space == SIM_MSR && i < n; i++) {
			struct sim_box *b = sim_add_box(s, u, sock, i);
			if (!b)
				return uc_err("simulator: too many boxes");
			b->nfr = u->nfr; /* IIO: at the driver's addresses, base 0 and the group's own offsets */
		}
	}
	return 0;
}

static int sim_icx_build(struct sim *s)
{
	uint32_t gidnidmap = 0;
	s->rate = icx_rate;
	if (s->cores > SIM_ICX_MAX_CHA)
		return uc_err("simulator: icx has at most %d CHAs, one per core (cores=%d)", SIM_ICX_MAX_CHA, s->cores);
	if (sim_ncu_pmon_config(s, s->cores))
		return -1;
	for (int g = 0; g < s->nsockets; g++)
		gidnidmap |= (uint32_t)node_id(g) << (3 * g);
	for (int sock = 0; sock < s->nsockets; sock++) {
		int ubus = ubox_bus(s, sock), pbus = ubus + 1, first = s->ndevs;
		if (icx_msr_boxes(s, sock))
			return -1;
		if (sim_place_functions(s, sock, ubus, places, sizeof(places) / sizeof(places[0])))
			return -1;
		/* the UBox (CPUNODEID, GIDNIDMAP) and the memory controller at 00.0 and 00.1 (fe:00.0, fe:00.1 on the
		 * SR630 V2); CPUNODEID and GIDNIDMAP are not in a listing: filled with node_id() */
		if (sim_ubox_node_device(s, ubus, 0, 0, (uint32_t)node_id(sock), gidnidmap) || icx_imcs(s, sock, ubus))
			return -1;
		/* CAPID6/CAPID7: one bit per CHA among the die's 40 slices (bits 39:0: icx_cha_msr_offsets[] has 40;
		 * icx_count_chabox's WARN_ON refuses more), every other slot first so that a part with fewer CHAs has
		 * its bits neither contiguous nor in one dword; the full die (Platinum 8380, cores=40) sets all 40, so
		 * that CAPID6 reads 0xffffffff and CAPID7 0xff (issue 90: such a part was refused as a hidden device) */
		uint64_t capid = sim_cha_capid(s->cores, SIM_ICX_MAX_CHA);
		struct sim_dev *cap = sim_add_dev(s, pbus, 30, 3, 0x345b); /* ff:1e.3 on the SR630 V2 */
		if (sim_put_cfg32(cap, 0x9c, (uint32_t)capid) || sim_put_cfg32(cap, 0xa0, (uint32_t)(capid >> 32)))
			return -1;
		sim_node_functions(s, first, sock * s->dies); /* the SR650 V2's: 7e/7f node 0, fe/ff node 1 (issue 90 D9) */
	}
	sim_disc_count_channels(s, sim_unit_named(s, "imc"));
	return 0;
}

/* Whitley: PCIe stacks' ports at devices 2-5 (pcm-iio-topology.cpp); Linux shows the stacks' buses
 * (icx_iio_set_mapping) from SAD_CONTROL_CFG, which holds each stack's SAD id */
static const struct sim_iio_regs icx_regs = { .port_dev = 2, .mapping = 1, .sad_id = 1 };

/* Xeon Platinum 8380-like: 40 cores (and CHAs), family 6 model 0x6A (INTEL_ICELAKE_X) stepping 6 */
const struct sim_kind sim_kind_icx = { .name = "icx", .cores = 40, .max_cores = 40, .family = 6, .model = 0x6a, .stepping = 6,
				       .build = sim_icx_build, .units = sim_icx_units, .nunits = &sim_icx_nunits,
				       .ubox = &sim_icx_ubox, .glob = &sim_icx_global, .perf = sim_icx_perf, .nperf = &sim_icx_nperf,
				       .root_fns = sim_icx_root_fns, .board = &sim_icx_board,
				       /* ICX_CBDMA_DMI_PMON_ID 5 (uncore_snbep.c icx_iio_mapping_visible), the PCH as the SR630 V2 */
				       .dmi_pmu = 5, .pch_nic = 1, .cbdma = &sim_icx_cbdma, .iio_regs = &icx_regs,
				       .ufreq_mode = SIM_UFREQ_LEGACY, .ufreq_min_ratio = 8 /* 0.8 GHz floor: sim_ufreq.c */,
				       .mem = &sim_icx_mem };
