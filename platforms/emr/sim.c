/*
 * Simulated Emerald Rapids: the machine publishes its units only through PMON
 * discovery tables, as the real one does.  Per socket: a discovery device
 * (0x09A7) whose DVSEC names a 64-bit BAR holding the table; MSR units (CHA,
 * IIO, IRP, M2PCIe, PCU, UBox, MDF), MMIO IMC channels at the address the
 * 0x3251 config registers give, PCI units (M2M, UPI, M3UPI) on the socket's
 * bus, free-running IIO and IMC counters, and the documented quirks: a broken
 * third UPI entry, 0 from MSR 0x2FFE, CXL units on socket 0 only.
 * "generic" builds another unit list and reports a CPU model without tables.
 */
#include <string.h>
#include "sim/sim.h"
#include "sim/sim_disc.h"
#include "util/error.h"
#include "sim/sim_kernel.h"
#include "sim/sim_only.h"

SIM_PERF_DECL(emr);

SIM_MAP_DECL(emr);
extern const struct sim_ubox_dev sim_emr_ubox;
extern const struct sim_global sim_emr_global;
extern const struct sim_unit sim_generic_type21;

static const int emr_bus[UC_MAX_SOCKETS] = { 0xfe, 0x7e, 0xbe, 0x3e, 0xde, 0x5e, 0x9e, 0x1e };
static int node_id(int socket) { return (socket * 3 + 1) & 7; }

#define TABLE_MAX 160                         /* unit slots per table */
#define BAR_BASE 0x200000000ull               /* above 4 GiB: the BAR must be read as 64-bit */
#define IMC_BASE 0xc8000000ull                /* MMIO base of socket 0 (cfg 0xD0 << 23) */

/* IMC channel ch of controller imc (MMIO at MEMn + 0x22800 + 0x8000 ch, section 1.10.3); the
 * controller's free-running counters go with channel 0. */
static struct sim_box *imc_unit(struct sim *s, struct sim_disc_table *tb, const struct sim_unit *u, int sock, int imc,
				int ch, uint64_t memn)
{
	struct sim_box *b = sim_disc_placed(s, tb, u, sock, imc * 2 + ch, memn + 0x22800 + 0x8000ull * (uint64_t)ch);
	if (b && ch == 0) {
		b->fr_base = memn;
		b->nfr = u->nfr;
	}
	return b;
}

#define EMR_SIM_STACKS 6 /* IIO stacks per socket, all traffic of a stack on its port 0 */

/* The free-running counters: IMC clocks and queue cycles, IIO clock and per-port bandwidth. */
static double fr_rate(const struct sim_profile *p, const char *n, int sock)
{
	int nstacks = EMR_SIM_STACKS;
	if (!strcmp(n, "dclk"))
		return p->dram_hz;
	if (!strcmp(n, "rpq_cycles"))
		return 0.5 * p->dram_hz;
	if (!strcmp(n, "wpq_cycles"))
		return 0.25 * p->dram_hz;
	if (!strcmp(n, "ioclk"))
		return p->iio_hz;
	/* all traffic of a stack on its port 0; 32 bytes per count (README, "IIO bandwidth scale") */
	if (!strcmp(n, "bw_in_port0"))
		return p->iio_in_bps[sock] / nstacks / 32;
	if (!strcmp(n, "bw_out_port0"))
		return p->iio_out_bps[sock] / nstacks / 32;
	return 0;
}

/* IMC channel events: traffic spread over the channels built (EMR 4 IMCs x 2, generic 2); CAS_COUNT
 * umask: 7:6 pseudo-channels, 3:0 read kinds, 5:4 write kinds. */
static double imc_rate(const struct sim *s, int sock, unsigned ev, unsigned um)
{
	const struct sim_profile *p = &s->prof;
	int nch = s->mem_channels[sock] > 0 ? s->mem_channels[sock] : 1;
	double rd = p->mem_read_bps[sock] / 64 / nch, wr = p->mem_write_bps[sock] / 64 / nch;
	double pch = ((um & 0x40) ? 0.5 : 0) + ((um & 0x80) ? 0.5 : 0);
	if (ev == 0x01)
		return p->dram_hz;
	if (ev == 0x05)
		return pch * (rd * ((um & 1 ? 0.7 : 0) + (um & 2 ? 0.2 : 0) + (um & 4 ? 0.06 : 0) + (um & 8 ? 0.04 : 0)) +
			      wr * ((um & 0x10 ? 0.6 : 0) + (um & 0x20 ? 0.4 : 0)));
	if (ev == 0x10)
		return rd * (((um & 1) ? 0.5 : 0) + ((um & 2) ? 0.5 : 0)); /* RPQ_INSERTS.PCH0/1 */
	if (ev == 0x80 || ev == 0x81) /* RPQ_OCCUPANCY_PCH0/1: inserts x residency in DCLKs */
		return rd * 0.5 * p->mem_read_lat_ns[sock] * p->dram_hz / 1e9;
	if (ev == 0x20)
		return wr * (((um & 1) ? 0.5 : 0) + ((um & 2) ? 0.5 : 0)); /* WPQ_INSERTS.PCH0/1 */
	if (ev == 0xe3 || ev == 0xe7) /* PMM_RPQ_INSERTS, PMM_WPQ_INSERTS: PMem traffic over the same channels */
		return (ev == 0xe3 ? p->pmem_read_bps[sock] : p->pmem_write_bps[sock]) / 64 / nch;
	return 0;
}

/* One kind of TOR request of a CHA: its queue (TOR umask: 0x01 IRQ_IA, 0x04 PRQ), IDI opcode, whether it
 * missed the LLC, is homed on another socket, is served by PMem; its rate per CHA and TOR residency. */
struct tor_req {
	unsigned queue, opc;
	int miss, remote, pmm;
	double rate, lat_ns;
};

/* Whether the TOR umask extension ext selects r (T2-73, notes/emr.md 4.5): hit/miss bits 0/1, memory
 * target DDR/PMM bits 2/3 (HBM, MMCFG, MMIO 4-6 not modelled), local/remote home bits 7/8, opcode
 * match bit 9 with the opcode in 21:11. A pair with neither or both bits set does not filter. */
static int tor_selects(uint32_t ext, const struct tor_req *r)
{
	int hit = ext & 1, miss = ext >> 1 & 1, loc = ext >> 7 & 1, rem = ext >> 8 & 1;
	if (hit != miss && (r->miss ? !miss : !hit))
		return 0;
	if ((ext >> 2 & 0x1f) && !(ext >> (r->pmm ? 3 : 2) & 1))
		return 0;
	if (loc != rem && (r->remote ? !rem : !loc))
		return 0;
	return !(ext >> 9 & 1) || ((ext >> 11) & 0x7ff) == r->opc;
}

/* The TOR requests of one CHA (the socket's traffic spread evenly over its CHAs): IA data reads (DRd 0x102),
 * hits local, misses homed remotely by remote_ratio and served by PMem by llc_miss_pmem_ratio; I/O reads
 * (PCIRdCur 0x11E) and writes (ItoM 0x188 whole lines, ItoMCacheNear 0x1A8 partial) of the IIO traffic, 64
 * bytes each, missing by io_llc_miss_ratio and homed remotely by remote_ratio (T3-1..3-5 opcodes). */
static int tor_requests(const struct sim *s, int sock, struct tor_req *out)
{
	const struct sim_profile *p = &s->prof;
	double per_cha = 1.0 / s->cores, look = p->llc_lookups[sock] * per_cha, m = p->llc_miss_ratio[sock];
	double r = p->remote_ratio[sock], q = p->llc_miss_pmem_ratio[sock], mi = p->io_miss_ratio[sock];
	double io[3] = { p->iio_out_bps[sock] / 64 * per_cha, p->iio_in_bps[sock] / 64 * per_cha * (1 - p->io_partial_ratio[sock]),
			 p->iio_in_bps[sock] / 64 * per_cha * p->io_partial_ratio[sock] };
	static const unsigned io_opc[3] = { 0x11e, 0x188, 0x1a8 };
	int n = 0;
	out[n++] = (struct tor_req){ 0x01, 0x102, 0, 0, 0, look * (1 - m), p->llc_hit_lat_ns[sock] };
	for (int rem = 0; rem < 2; rem++) {
		for (int pmm = 0; pmm < 2; pmm++)
			out[n++] = (struct tor_req){ 0x01, 0x102, 1, rem, pmm, look * m * (rem ? r : 1 - r) * (pmm ? q : 1 - q),
						     pmm ? p->pmem_read_lat_ns[sock] : p->llc_miss_lat_ns[sock] };
		for (int k = 0; k < 3; k++)
			for (int miss = 0; miss < 2; miss++)
				out[n++] = (struct tor_req){ 0x04, io_opc[k], miss, rem, 0, io[k] * (rem ? r : 1 - r) * (miss ? mi : 1 - mi), 0 };
	}
	return n;
}

/* CHA events: LLC lookups, TOR inserts and occupancy (thresh 1: the cycles it holds any, when llc_miss_parallel
 * requests are outstanding on average meanwhile), home-agent requests, directory updates. */
static double cha_rate(const struct sim *s, int sock, unsigned ev, unsigned um, uint32_t ext, unsigned thresh)
{
	const struct sim_profile *p = &s->prof;
	int nch = s->cores;
	double miss = p->llc_miss_ratio[sock], cyc = p->uncore_hz / 1e9, r = p->remote_ratio[sock];
	if (thresh && !(ev == 0x36 && thresh == 1))
		return 0; /* other thresholded forms are not modelled */
	if (ev == 0x01)
		return p->uncore_hz;
	if (ev == 0x34 && (ext & 1)) { /* LLC_LOOKUP of data reads: umask bit 0 = miss (I), the rest hit states */
		double hit_states = __builtin_popcount(um & 0xfe) / 7.0;
		return p->llc_lookups[sock] / nch * ((um & 1 ? miss : 0) + hit_states * (1 - miss));
	}
	if (ev == 0x50) { /* REQUESTS: READS_LOCAL 1, READS_REMOTE 2, WRITES_LOCAL 4, WRITES_REMOTE 8 (64-byte lines) */
		double rd = p->mem_read_bps[sock] / 64 / nch, wr = p->mem_write_bps[sock] / 64 / nch;
		return rd * ((um & 1 ? 1 - r : 0) + (um & 2 ? r : 0)) + wr * ((um & 4 ? 1 - r : 0) + (um & 8 ? r : 0));
	}
	if (ev == 0x54) /* DIR_UPDATE: HA 1, TOR 2, each a quarter of the directory writes (M2M has the other half) */
		return p->dir_update_bps[sock] / 64 / nch * ((um & 1 ? 0.25 : 0) + (um & 2 ? 0.25 : 0));
	if (ev != 0x35 && ev != 0x36)
		return 0;
	struct tor_req req[32];
	double v = 0;
	for (int i = 0, n = tor_requests(s, sock, req); i < n; i++)
		if ((um & req[i].queue) && tor_selects(ext, &req[i]))
			v += req[i].rate * (ev == 0x35 ? 1 : req[i].lat_ns * cyc); /* occupancy: Little's law */
	return thresh ? v / p->llc_miss_parallel[sock] : v;
}

/* UPI link events: clocks and flits (a 64-byte line travels as 9 flits, notes 12.3). */
static double upi_rate(const struct sim_profile *p, int sock, unsigned ev, unsigned um)
{
	double links = 4, data = 9.0 / 64;
	if (ev == 0x01)
		return p->qpi_hz;
	if (ev == 0x02 && um == 0x97) { /* TxL_FLITS.NON_DATA: the slots not carrying data, 3 per clock */
		double nondata = p->link_util[sock] * 3 * p->qpi_hz - p->qpi_tx_bps[sock] / links * data;
		return nondata > 0 ? nondata : 0;
	}
	if (ev == 0x02 && (um & 0x08))
		return p->qpi_tx_bps[sock] / links * data;
	if (ev == 0x03 && (um & 0x08))
		return p->qpi_rx_bps[sock] / links * data;
	return 0;
}

/* IIO DATA_REQ_OF_CPU (0x83): the same traffic as the free-running bandwidth counters, in 4-byte units
 * (umask 0x01 MEM_WRITE = bytes in, 0x04 MEM_READ = bytes out), on port 0 of ch_mask 47:36 for any flow
 * class of fc_mask 50:48 (ext = control bits 63:32). */
static double iio_req_rate(const struct sim_profile *p, int sock, unsigned um, uint32_t ext)
{
	if (!(ext >> 4 & 1) || !(ext >> 16 & 7))
		return 0;
	return ((um & 0x01 ? p->iio_in_bps[sock] : 0) + (um & 0x04 ? p->iio_out_bps[sock] : 0)) / EMR_SIM_STACKS / 4;
}

static double emr_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr)
{
	const struct sim_profile *p = &s->prof;
	const char *u = b->u->name;
	unsigned ev = ctl & 0xff, um = (ctl >> 8) & 0xff;
	int sock = b->socket;
	if (SIM_CTR_IS_FR(ctr))
		return fr_rate(p, b->u->fr[SIM_CTR_FR_INDEX(ctr)].name, sock);
	if (ctr == SIM_CTR_FIXED)
		return !strcmp(u, "imc") ? p->dram_hz : p->uncore_hz; /* DCLK fixed; UBox UCLK */
	unsigned thresh = (unsigned)(ctl >> 24) & 0xff;
	if (ctl & (SIM_EDGE | SIM_INV))
		return 0; /* edge and invert forms are not modelled */
	if (!strcmp(u, "cha"))
		return cha_rate(s, sock, ev, um, (uint32_t)(ctl >> 32), thresh);
	if (thresh)
		return 0; /* thresholds are modelled for the TOR occupancy only */
	if (!strcmp(u, "imc"))
		return imc_rate(s, sock, ev, um);
	if (!strcmp(u, "m2m") && ev == 0x21) /* DIRECTORY_UPDATE: half the directory writes, hit (ext 1) or miss (2) */
		return (um & 1) * p->dir_update_bps[sock] / 64 / 4 * 0.5 * (((ctl >> 32) & 1 ? 0.5 : 0) + ((ctl >> 33) & 1 ? 0.5 : 0));
	if (!strcmp(u, "upi"))
		return upi_rate(p, sock, ev, um);
	if (!strcmp(u, "iio") && ev == 0x83)
		return iio_req_rate(p, sock, um, (uint32_t)(ctl >> 32));
	if (!strcmp(u, "pcu") && (ev == 0x04 || ev == 0x05)) /* FREQ_MAX_LIMIT_THERMAL / _POWER_CYCLES */
		return (ev == 0x04 ? p->pcu_thermal[sock] : p->pcu_power[sock]) * p->pcu_hz;
	if (!strcmp(u, "pcu") && (ev == 0x35 || ev == 0x37)) /* POWER_STATE_OCCUPANCY_CORES_C0 / _C6: cores per clock */
		return (ev == 0x35 ? p->cores_c0[sock] : p->cores_c6[sock]) * s->cores * p->pcu_hz;
	if (ev == 0x01)
		return !strcmp(u, "pcu") ? p->pcu_hz : !strcmp(u, "iio") ? p->iio_hz : p->uncore_hz;
	return 0;
}

static int fault(struct sim *s, const char *kind, struct sim_box *b)
{
	if (!strcmp(kind, "imcbase")) { /* the config registers place the box's IMC a page off its table entry */
		for (int i = 0; i < s->ndevs; i++) {
			struct sim_dev *d = &s->devs[i];
			uint32_t v;
			if (d->info.device != 0x3251 || d->info.loc.bus != emr_bus[b->socket] || b->u->space != SIM_MMIO)
				continue;
			memcpy(&v, d->cfg + 0xd8 + 4 * (b->idx / 2), 4);
			v += 1;
			memcpy(d->cfg + 0xd8 + 4 * (b->idx / 2), &v, 4);
			return 0;
		}
		return uc_err("simulator fault imcbase: %s %d is not an IMC channel", b->u->name, b->idx);
	}
	return sim_disc_fault(s, kind, b);
}

/* The generic platform's units of one socket: a CHA-like MSR unit of an unknown type, two IMC channels
 * (MMIO) and an M2M (PCI). */
static int generic_units(struct sim *s, struct sim_disc_table *tb, int sock, int bus, uint64_t imcbase)
{
	const struct sim_unit *imc = sim_unit_named(s, "imc"), *m2m = sim_unit_named(s, "m2m");
	if (!sim_disc_placed(s, tb, &sim_generic_type21, sock, 0, 0x2e00))
		return -1;
	if (!sim_add_dev(s, bus, 0, 1, 0x3251))
		return uc_err("simulator: too many devices");
	for (int ch = 0; ch < 2; ch++)
		if (!imc_unit(s, tb, imc, sock, 0, ch, imcbase))
			return -1;
	return sim_disc_pci(s, tb, m2m, sock, 0, bus, 12, 0) ? 0 : -1;
}

/* The IMC config device (MMIO base at 0xD0, address 51:23; MEM0..3 at 0xD8 + 4n, address 22:12) and the
 * two channels of each of the four IMCs it places. */
static int emr_imcs(struct sim *s, struct sim_disc_table *tb, int sock, int bus, uint64_t imcbase)
{
	const struct sim_unit *imc = sim_unit_named(s, "imc");
	struct sim_dev *d = sim_add_dev(s, bus, 0, 1, 0x3251);
	uint32_t v = (uint32_t)(imcbase >> 23);
	if (!d)
		return uc_err("simulator: too many devices");
	memcpy(d->cfg + 0xd0, &v, 4);
	for (int imcn = 0; imcn < 4; imcn++) {
		uint64_t off = 0x280000ull + 0x80000ull * (uint64_t)imcn;
		v = (uint32_t)(off >> 12);
		memcpy(d->cfg + 0xd8 + 4 * imcn, &v, 4);
		for (int ch = 0; ch < 2; ch++)
			if (!imc_unit(s, tb, imc, sock, imcn, ch, imcbase + off))
				return -1;
	}
	return 0;
}

/* EMR's units of one socket besides the CHAs, at the addresses of T1-9 and T1-12. */
static int emr_units(struct sim *s, struct sim_disc_table *tb, int sock, int bus, uint64_t imcbase)
{
	const struct sim_unit *iio = sim_unit_named(s, "iio"), *irp = sim_unit_named(s, "irp"),
			      *m2p = sim_unit_named(s, "m2pcie"), *pcu = sim_unit_named(s, "pcu"), *ubox = sim_unit_named(s, "ubox"),
			      *m2m = sim_unit_named(s, "m2m"), *upi = sim_unit_named(s, "upi"), *m3upi = sim_unit_named(s, "m3upi"),
			      *mdf = sim_unit_named(s, "mdf"), *cxlcm = sim_unit_named(s, "cxlcm"), *cxldp = sim_unit_named(s, "cxldp");
	static const uint32_t mdf_ctl[] = { 0x2800, 0x2810, 0x2820, 0x2830 }; /* T1-9 */
	for (int i = 0; i < EMR_SIM_STACKS; i++) { /* T1-9: IIO 0x3000, IRP 0x3400, M2PCIe 0x3200, + 0x10 n */
		struct sim_box *b = sim_disc_placed(s, tb, iio, sock, i, 0x3000 + 0x10u * (unsigned)i);
		if (!b || !sim_disc_placed(s, tb, irp, sock, i, 0x3400 + 0x10u * (unsigned)i) ||
		    !sim_disc_placed(s, tb, m2p, sock, i, 0x3200 + 0x10u * (unsigned)i))
			return -1;
		b->fr_base = 0x10u * (unsigned)i;
		b->nfr = iio->nfr;
	}
	if (!sim_disc_placed(s, tb, pcu, sock, 0, 0x2fc0) || !sim_disc_placed(s, tb, ubox, sock, 0, 0x2fd0))
		return -1;
	for (int i = 0; i < 4; i++)
		if (!sim_disc_placed(s, tb, mdf, sock, i, mdf_ctl[i]))
			return -1;
	if (emr_imcs(s, tb, sock, bus, imcbase))
		return -1;
	for (int i = 0; i < 4; i++) { /* T1-12: UPI D1-4:F1, M3UPI D5-8:F1, M2M D12-15:F0 */
		struct sim_box *u3 = sim_disc_pci(s, tb, upi, sock, i, bus, 1 + i, 1);
		if (!u3 || !sim_disc_pci(s, tb, m3upi, sock, i, bus, 5 + i, 1) || !sim_disc_pci(s, tb, m2m, sock, i, bus, 12 + i, 0))
			return -1;
		if (i == 2) /* quirk 1: the third UPI entry points at a device that does not exist */
			sim_disc_put64(sim_disc_entry(tb, u3->disc_entry) + 8,
				       (uint64_t)bus << 20 | (uint64_t)(0x1f << 3 | 7) << 12 | upi->box_ctl);
	}
	/* CXL on socket 0 only: dies are not symmetric (Linux 0007f393) */
	if (sock == 0 && (!sim_disc_placed(s, tb, cxlcm, sock, 0, 0xd0000000ull) ||
			  !sim_disc_placed(s, tb, cxldp, sock, 0, 0xd0001000ull)))
		return -1;
	return 0;
}

/* Every socket: its discovery table, UBox node-id device, CHAs and the platform's other units. */
static int build_any(struct sim *s, int generic)
{
	const struct sim_unit *cha = sim_unit_named(s, "cha"), *imc = sim_unit_named(s, "imc");
	uint32_t gidnidmap = 0;
	s->rate = emr_rate;
	s->romsr[s->nromsr].addr = 0x2ffe; /* UNC_CBO_CONFIG: 0 on EMR XCC (Linux 6f7f984f) */
	s->romsr[s->nromsr++].val = 0;
	for (int g = 0; g < s->nsockets; g++)
		gidnidmap |= (uint32_t)node_id(g) << (3 * g);
	for (int sock = 0; sock < s->nsockets; sock++) {
		int bus = emr_bus[sock];
		uint64_t bar = BAR_BASE + 0x100000ull * (uint64_t)sock, imcbase = IMC_BASE + 0x1000000ull * (uint64_t)sock;
		struct sim_disc_table tb;
		if (sim_disc_socket(s, &tb, sock, bus, bar, TABLE_MAX, (uint32_t)node_id(sock), gidnidmap))
			return -1;
		for (int i = 0; i < s->cores; i++) /* T1-9: CHA n at 0x2000 + 0x10 n */
			if (!sim_disc_placed(s, &tb, cha, sock, i, 0x2000 + 0x10u * (unsigned)i))
				return -1;
		if ((generic ? generic_units : emr_units)(s, &tb, sock, bus, imcbase))
			return -1;
		sim_disc_finish(s, &tb);
	}
	for (int i = 0; i < s->nboxes; i++)
		if (s->boxes[i].u == imc)
			s->mem_channels[s->boxes[i].socket]++;
	return 0;
}

static int build(struct sim *s) { return build_any(s, 0); }
static int build_generic(struct sim *s) { return build_any(s, 1); }

/* Faults of discovery entries: corrupt (reads all ones), badaddr (outside its space), dupid, badwidth, nctr,
 * width64, and imcbase (the IMC config registers disagree with the table). */
#define FAULTS SIM_DISC_FAULTS ", imcbase"
const struct sim_kind sim_kind_emr = { .name = "emr", .cores = 60, .family = 6, .model = 0xcf, .stepping = 2, .build = build,
				       .units = sim_emr_units, .nunits = &sim_emr_nunits, .glob = &sim_emr_global,
				       .ubox = &sim_emr_ubox, .faults = FAULTS, .fault = fault, .perf = sim_emr_perf, .nperf = &sim_emr_nperf };
/* EMR's map behind a CPU model without tables (0xEE is invented): the generic discovery platform */
const struct sim_kind sim_kind_generic = { .name = "generic", .cores = 4, .family = 6, .model = 0xee,
					   .build = build_generic, .units = sim_emr_units, .nunits = &sim_emr_nunits,
					   .glob = &sim_emr_global, .ubox = &sim_emr_ubox, .faults = FAULTS, .fault = fault };
