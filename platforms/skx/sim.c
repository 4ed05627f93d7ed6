/*
 * Simulated Skylake-SP.  Per socket: the MSR boxes (UBox, CHAs, six IIO stacks with their IRPs and
 * free-running counters, PCU) and the PCI functions of skx_uncore_pci_ids on four buses, the UBox
 * device (0x2014, node id registers) on the lowest: Linux maps a bus without a UBox to the socket of the
 * next lower bus with one (snbep_pci2phy_map_init(..., false)), and the sockets' bus ranges are not in
 * socket order.  The CHAs are as many as CAPID6 (0x2083 at D30 F3, config 0x9C) has bits set: two more
 * than the cores, as on parts with more LLC slices than cores (Xeon Gold 5122: 4 cores, 12 slices),
 * so that a count taken from the cores is wrong.
 */
#include <stdio.h>
#include <string.h>
#include "util/error.h"
#include "sim/sim_disc.h"
#include "sim/sim_devdma.h"
#include "sim/sim_numa.h"
#include "sim/sim_only.h"
#include "sim/sim_pcitree.h"
#include "sim_skx.h"

/* Lowest bus of each socket's range of four, not in socket order. */
static const int skx_bus[UC_MAX_SOCKETS] = { 0x80, 0x00, 0xc0, 0x40, 0xa0, 0x20, 0xe0, 0x60 };
static int node_id(int socket) { return (socket * 3 + 2) & 7; }

#define SKX_LINKS 3
#define SKX_STACKS 6

/* PCI functions (skx_uncore_pci_ids: dev.fn) and the bus of the socket's range they sit on. */
static const struct sim_bus_place places[] = {
	{ "m2pcie", 0, 1, 21, 1 }, { "m2pcie", 1, 1, 22, 1 }, { "m2pcie", 2, 1, 23, 1 }, { "m2pcie", 3, 1, 21, 5 },
	{ "m2m", 0, 2, 8, 0 }, { "m2m", 1, 2, 9, 0 },
	{ "imc", 0, 2, 10, 2 }, { "imc", 1, 2, 10, 6 }, { "imc", 2, 2, 11, 2 }, { "imc", 3, 2, 12, 2 }, { "imc", 4, 2, 12, 6 },
	{ "imc", 5, 2, 13, 2 },
	{ "upi", 0, 3, 14, 0 }, { "upi", 1, 3, 15, 0 }, { "upi", 2, 3, 16, 0 },
	{ "m3upi", 0, 3, 18, 1 }, { "m3upi", 1, 3, 18, 2 }, { "m3upi", 2, 3, 18, 5 },
};

/* The CHAs of a socket (CAPID6's set bits). */
static int chas(const struct sim *s) { return s->cores + 2 < SIM_SKX_MAX_CHA ? s->cores + 2 : SIM_SKX_MAX_CHA; }

/* One kind of request in a CHA's TOR: its opcode (FILTER1 opc0/opc1), hit or miss, homed here or on another
 * socket, its rate a CHA and its latency. */
struct tor_req { unsigned opc; int miss, remote; double rate, lat_ns; };

/* Opcodes of the requests the simulated CHAs see, opc0 of Intel's FILTER_VALUEs (FILTER1 18:9):
 * skylakex_uncore.json UNC_CHA_TOR_INSERTS.IA_MISS_DRD 0x40433, DRd 0x202; skylakex_uncore_experimental.json
 * .IO_MISS_RDCUR 0x43C33, RdCur 0x21E, and .IO_MISS_ITOM 0x49033, ItoM 0x248 (eventtables/SKX/events). */
#define OPC_DRD 0x202u
#define OPC_RDCUR 0x21eu
#define OPC_ITOM 0x248u

/* Does the CHA's FILTER1 select r?  rem/loc (bits 0/1) by the home; opc0/opc1 (18:9, 28:19) the opcode
 * unless all_opc (bit 3); nm/not_nm (4/5) do not filter here (no near memory).  A FILTER1 of 0 filters
 * nothing, as counts through perf's events without a filter value show (skx.md 12 #12: the simulator's
 * rule). */
static int filter1_selects(const struct sim_box *b, const struct tor_req *r)
{
	if (!b->filt[1])
		return 1;
	int rem = (int)sim_field(b, "rem"), loc = (int)sim_field(b, "loc");
	unsigned o0 = (unsigned)sim_field(b, "opc0"), o1 = (unsigned)sim_field(b, "opc1");
	if (!(r->remote ? rem : loc))
		return 0;
	return sim_field(b, "all_opc") || o0 == r->opc || o1 == r->opc;
}

/* Bytes/s in (in 1) or out through the ports of mask (0-3) of IIO stack b: its devices' DMA on the ports that
 * hold devices (sim_devdma.h), and the stack's share of the profile's traffic on port 0 unless it holds some. */
static double iio_ports_bps(const struct sim *s, const struct sim_box *b, int in, unsigned mask)
{
	const struct sim_profile *p = &s->prof;
	unsigned dev = sim_dev_ports(s, b);
	return (mask & ~dev & 1 ? (in ? p->iio_in_bps[b->socket] : p->iio_out_bps[b->socket]) / SKX_STACKS : 0) +
	       sim_dev_ports_bps(s, b, in, mask & dev & 0xf);
}

/* Bytes/s the IIO stacks of socket sock move into memory (in 1) or out of it, over all their ports. */
static double socket_io_bps(const struct sim *s, int sock, int in)
{
	double v = 0;
	for (int i = 0; i < s->nboxes; i++)
		if (s->boxes[i].socket == sock && !strcmp(s->boxes[i].u->name, "iio"))
			v += iio_ports_bps(s, &s->boxes[i], in, 0xf);
	return v;
}

/* CHA: clockticks, LLC lookups of data reads by FILTER0's state (bit 0 I = miss; 4 S, 5 E, 6 M, 7 F share
 * the hits 3:2:3:2), TOR inserts and occupancy of the IA queue (umask 0x01) by hit 0x10 / miss 0x20 and
 * FILTER1, memory requests by home.  The IO queue (umask 0x04, UNC_CHA_TOR_INSERTS.IO 0x34 in Intel's
 * skylakex_uncore_experimental.json; PCM's pcm-pcie calls it PRQ) takes the local IIO stacks' DMA, a 64-byte
 * line a request spread over the CHAs: a device's reads of memory as RdCur, its full-line writes as ItoM (the
 * JSON's .IO_MISS_RDCUR, "used by IIO to read data without changing state", and .IO_MISS_ITOM, "used by IIO to
 * request a data write without first reading the data"), homed on this socket and hitting the LLC as the
 * cores' reads do (1 - llc_miss_ratio; the simulator's rule); inserts alone, their occupancy is not modelled. */
static double cha_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, unsigned ev, unsigned um,
		       unsigned thresh)
{
	const struct sim_profile *p = &s->prof;
	int sock = b->socket, n = chas(s);
	double look = p->llc_lookups[sock] / n * sim_tid_share(s, b, ctl), m = p->llc_miss_ratio[sock], r = p->remote_ratio[sock];
	if (thresh && !(ev == 0x36 && thresh == 1))
		return 0;
	if (ev == 0x00)
		return p->uncore_hz;
	if (ev == 0x34 && um == 0x03) {
		unsigned st = (unsigned)sim_field(b, "state");
		double hit = (st & 0x10 ? 0.3 : 0) + (st & 0x20 ? 0.2 : 0) + (st & 0x40 ? 0.3 : 0) + (st & 0x80 ? 0.2 : 0);
		return look * ((st & 1 ? m : 0) + (1 - m) * hit);
	}
	if (ev == 0x50) { /* REQUESTS: READS_LOCAL 1, READS_REMOTE 2, WRITES_LOCAL 4, WRITES_REMOTE 8 */
		double rd = p->mem_read_bps[sock] / 64 / n, wr = p->mem_write_bps[sock] / 64 / n;
		return rd * ((um & 1 ? 1 - r : 0) + (um & 2 ? r : 0)) + wr * ((um & 4 ? 1 - r : 0) + (um & 8 ? r : 0));
	}
	if (ev != 0x35 && ev != 0x36)
		return 0;
	double v = 0, cyc = p->uncore_hz / 1e9;
	if (um & 0x01) {
		const struct tor_req req[] = { { OPC_DRD, 0, 0, look * (1 - m), p->llc_hit_lat_ns[sock] },
					       { OPC_DRD, 1, 0, look * m * (1 - r), p->llc_miss_lat_ns[sock] },
					       { OPC_DRD, 1, 1, look * m * r, p->llc_miss_lat_ns[sock] } };
		for (size_t i = 0; i < sizeof(req) / sizeof(req[0]); i++)
			if ((um & (req[i].miss ? 0x20 : 0x10)) && filter1_selects(b, &req[i]))
				v += req[i].rate * (ev == 0x35 ? 1 : req[i].lat_ns * cyc); /* occupancy: Little's law */
	}
	if ((um & 0x04) && ev == 0x35) {
		double rd = socket_io_bps(s, sock, 0) / 64 / n, wr = socket_io_bps(s, sock, 1) / 64 / n;
		const struct tor_req io[] = { { OPC_RDCUR, 0, 0, rd * (1 - m), 0 }, { OPC_RDCUR, 1, 0, rd * m, 0 },
					      { OPC_ITOM, 0, 0, wr * (1 - m), 0 }, { OPC_ITOM, 1, 0, wr * m, 0 } };
		for (size_t i = 0; i < sizeof(io) / sizeof(io[0]); i++)
			if ((um & (io[i].miss ? 0x20 : 0x10)) && filter1_selects(b, &io[i]))
				v += io[i].rate;
	}
	return thresh ? v / p->llc_miss_parallel[sock] : v;
}

/* IIO DATA_REQ_OF_CPU (0x83): the traffic of the ports of ch_mask (bits 39:36 ports 0-3) in 4-byte units for
 * any flow class (fc_mask 46:44); MEM_WRITE 0x01 the bytes devices write in, MEM_READ 0x04 those they read. */
static double iio_rate(const struct sim *s, const struct sim_box *b, unsigned ev, unsigned um, uint64_t ctl)
{
	unsigned mask = (unsigned)(ctl >> 36) & 0xf;
	if (ev == 0x01)
		return s->prof.iio_hz;
	if (ev != 0x83 || !mask || !(ctl >> 44 & 7))
		return 0;
	return ((um & 0x01 ? iio_ports_bps(s, b, 1, mask) : 0) + (um & 0x04 ? iio_ports_bps(s, b, 0, mask) : 0)) / 4;
}

/* iMC channel: DCLK (0x00), CAS_COUNT (0x04: RD_REG 1, RD_UNDERFILL 2, WR_WMM 4, WR_RMM 8), RPQ inserts (0x10)
 * and occupancy (0x80), WPQ inserts (0x20); Cascade Lake's Optane (PMM) read and write queue inserts (0xE3,
 * 0xE7, one a 64-byte line, Intel's CLX pmem_memory_bandwidth_*) of the profile's PMem traffic; traffic spread
 * over the socket's populated channels (sim_dimms.c); an empty one counts its clock alone. */
static double imc_rate(const struct sim *s, const struct sim_box *b, unsigned ev, unsigned um)
{
	const struct sim_profile *p = &s->prof;
	int sock = b->socket, n = s->mem_channels[sock] > 0 ? s->mem_channels[sock] : 6;
	double rd = p->mem_read_bps[sock] / 64 / n, wr = p->mem_write_bps[sock] / 64 / n;
	if (!sim_chan_populated(s, b))
		return ev == 0x00 ? p->dram_hz : 0;
	switch (ev) {
	case 0xe3: return p->pmem_read_bps[sock] / 64 / n;
	case 0xe7: return p->pmem_write_bps[sock] / 64 / n;
	case 0x00: return p->dram_hz;
	case 0x04: return (um & 1 ? 0.9 * rd : 0) + (um & 2 ? 0.1 * rd : 0) + (um & 4 ? 0.75 * wr : 0) + (um & 8 ? 0.25 * wr : 0);
	case 0x10: return rd;
	case 0x80: return rd * p->mem_read_lat_ns[sock] * p->dram_hz / 1e9;
	case 0x20: return wr;
	default: return 0;
	}
}

static double skx_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr)
{
	const struct sim_profile *p = &s->prof;
	const char *u = b->u->name;
	unsigned ev = ctl & 0xff, um = (ctl >> 8) & 0xff, thresh = (unsigned)(ctl >> 24) & 0xff;
	int sock = b->socket;
	if (SIM_CTR_IS_FR(ctr)) { /* IIO: IOCLK and each port's traffic, 4 bytes a count; with fault portmap,
				   * port N's counters count port N+1's traffic (of the stack's 4) */
		const char *n = b->u->fr[SIM_CTR_FR_INDEX(ctr)].name;
		int port;
		if (!strcmp(n, "ioclk"))
			return p->iio_hz;
		if ((sscanf(n, "bw_in_port%d", &port) == 1 || sscanf(n, "bw_out_port%d", &port) == 1) && port >= 0)
			return iio_ports_bps(s, b, n[3] == 'i', 1u << (port + b->port_skew) % 4) / 4;
		return 0;
	}
	if (ctr == SIM_CTR_FIXED)
		return !strcmp(u, "imc") ? p->dram_hz : p->uncore_hz; /* iMC DCLK, UBox UCLK */
	if (ctl & (SIM_EDGE | SIM_INV))
		return 0; /* edge and invert forms are not modelled */
	if (!strcmp(u, "cha"))
		return b->idx < chas(s) ? cha_rate(s, b, ctl, ev, um, thresh) : 0;
	if (thresh)
		return 0;
	if (!strcmp(u, "imc"))
		return imc_rate(s, b, ev, um);
	if (!strcmp(u, "iio"))
		return iio_rate(s, b, ev, um, ctl);
	if (!strcmp(u, "upi")) /* the UPI events' codes are SPR's: the discovery machines' model */
		return sim_disc_upi_rate(p, sock, ev, um, SKX_LINKS);
	if (!strcmp(u, "pcu"))
		return ev == 0x00 ? p->pcu_hz : 0;
	/* CLOCKTICKS: M2M event 0x00, IRP, M2PCIe, M3UPI 0x01 */
	return ev == (strcmp(u, "m2m") ? 0x01u : 0x00u) ? p->uncore_hz : 0;
}

/* The UBox's other functions beside 08.0 (R440 listing, board.c: 00:08.1 8086:2015, class 0x1101, and 00:08.2
 * 8086:2016): 08.2 holds CPUBUSNO, the IIO stacks' root buses a byte each, stacks 0-3 at config 0xCC and 4-5 at
 * 0xD0 (pcm-iio-topology.cpp PurleyPlatformMapping: a 64-bit read at ROOT_BUSES_OFFSET 0xCC, stack k's bus at bits
 * 8k+7:8k; Linux skx_edac reads the same dword of 0x2016, busno_cfg_offset 0xcc, as bus[0..3]).  The buses are
 * those the machine shows its stacks on (sim_iio_root_bus: uncore_iio_<n>/die<d>, its devices' root ports), as
 * the CPU_BUS_NUMBER MSR Linux reads gives them; a stack without one reads 0 (the R440's absent MCP stacks 4-5:
 * pcm-iio takes bus 0 of a stack other than 0 as no stack).  Filled when the machine is built. */
static int ubox_functions(struct sim *s, int sock, int bus)
{
	uint64_t cpubusno = 0;
	for (int st = 0; st < SKX_STACKS; st++) {
		int root = sim_iio_root_bus(s, sock, 0, st);
		cpubusno |= (uint64_t)(root > 0 ? root : 0) << (8 * st);
	}
	struct sim_dev *pmon = sim_add_dev(s, bus, 8, 1, 0x2015), *busno = sim_add_dev(s, bus, 8, 2, 0x2016);
	if (!pmon || !busno)
		return uc_err("simulator: too many devices");
	pmon->cfg[0x0b] = 0x11, pmon->cfg[0x0a] = 0x01; /* class 0x1101: performance counters (the listing's) */
	return sim_put_cfg32(busno, 0xcc, (uint32_t)cpubusno) || sim_put_cfg32(busno, 0xd0, (uint32_t)(cpubusno >> 32)) ? -1 : 0;
}

int sim_skx_build(struct sim *s)
{
	uint32_t gidnidmap = 0;
	s->rate = skx_rate;
	if (sim_ncu_pmon_config(s, chas(s)))
		return -1;
	for (int g = 0; g < s->nsockets; g++)
		gidnidmap |= (uint32_t)node_id(g) << (3 * g);
	for (int sock = 0; sock < s->nsockets; sock++) {
		int bus = skx_bus[sock], first = s->ndevs;
		for (int t = 0; t < s->nunits; t++) {
			const struct sim_unit *u = &s->units[t];
			int n = !strcmp(u->name, "cha") ? chas(s) : u->nboxes;
			for (int i = 0; u->space == SIM_MSR && i < n; i++) {
				struct sim_box *b = sim_add_box(s, u, sock, i);
				if (!b)
					return uc_err("simulator: too many boxes");
				b->nfr = u->nfr; /* IIO: at the driver's addresses, base 0 */
			}
		}
		if (sim_place_functions(s, sock, bus, places, sizeof(places) / sizeof(places[0])))
			return -1;
		/* UBox 8.0 (8086:2014, as real Skylake-SP boards list it: 00:08.0 2014, 08.1 2015, 08.2 2016 in the
		 * linuxhw/LsPCI listings and boot logs; Linux finds it by id, snbep_pci2phy_map_init(0x2014, ..)):
		 * CPUNODEID and GIDNIDMAP; CAPID6 on D30 F3 of the next bus, every other slice bit set first so that
		 * the bits are not contiguous */
		if (sim_ubox_node_device(s, bus, 8, 0, (uint32_t)node_id(sock), gidnidmap) || ubox_functions(s, sock, bus))
			return -1;
		uint32_t capid6 = (uint32_t)sim_cha_capid(chas(s), SIM_SKX_MAX_CHA);
		if (sim_put_cfg32(sim_add_dev(s, bus + 1, 30, 3, 0x2083), 0x9c, capid6 | 0xf0000000u)) /* 31:28 not slices */
			return -1;
		sim_node_functions(s, first, sock * s->dies); /* the SR650's nodes (issue 90 D9) */
	}
	return 0;
}

/* Xeon Gold 6154-like: 18 cores, family 6 model 0x55 (INTEL_SKYLAKE_X) stepping 4 (the mapfile's last SKX) */
const struct sim_kind sim_kind_skx = SIM_SKX_KIND("skx", 18, 4);
