/*
 * The workload model the discovery-table machines share (SPR, EMR, GNR, SRF, CWF: the same CHA, UPI and IIO
 * events in Intel's perfmon JSON): CHA LLC lookups, TOR inserts and occupancy, home-agent requests and
 * directory updates; UPI flits; IIO DATA_REQ_OF_CPU and the bandwidth counters, by port.  Each platform's
 * sim.c adds its own units (IMC, M2M or B2CMI, IMC free-running counters) through sim_disc_rate's own hook.
 * The encodings are seed 001's (notes/emr.md 4.5, T2-73, T3-1..3-5), which GNR's perfmon JSON repeats
 * (TOR umask_ext 0xC817FE, LLC_LOOKUP 0x1FC1, UPI 0x0F/0x97).
 */
#include <stdio.h>
#include <string.h>
#include "sim/sim_disc.h"
#include "sim/sim_devdma.h"

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
	/* the memory a miss goes to: bits 6:2 (DDR 2, PMM 3), CXL accelerator memory bit 28, CXL expander memory 29
	 * (Intel's perfmon, EMR: UNC_CHA_TOR_INSERTS.IA_MISS_DRD_DDR 0xc81786, _LOCAL_PMM 0xc8168a, _CXL_ACC 0x10c81782,
	 * _CXL_EXP_LOCAL 0x20c81682); none named: all.  The profile's misses go to DDR or PMM, never to CXL. */
	if (((ext >> 2 & 0x1f) || (ext >> 28 & 3)) && !(ext >> (r->pmm ? 3 : 2) & 1))
		return 0;
	if (loc != rem && (r->remote ? !rem : !loc))
		return 0;
	return !(ext >> 9 & 1) || ((ext >> 11) & 0x7ff) == r->opc;
}

/* Bytes/s the IIO stacks of socket sock move into memory (in 1) or out of it, over all their ports: what its
 * IIO counters count (the devices' DMA with the profile's share), so the CHAs see the same I/O; the profile's
 * alone where the machine models no stacks (nstacks 0). */
static double socket_iio_bps(const struct sim *s, int sock, int in, int nstacks)
{
	if (nstacks <= 0)
		return in ? s->prof.iio_in_bps[sock] : s->prof.iio_out_bps[sock];
	double v = 0;
	for (int i = 0; i < s->nboxes; i++)
		if (s->boxes[i].socket == sock && !strcmp(s->boxes[i].u->name, "iio"))
			v += sim_disc_iio_ports_bps(s, &s->boxes[i], in, (1u << SIM_IIO_PORTS) - 1, nstacks);
	return v;
}

/* The TOR requests of one CHA (the socket's traffic spread evenly over its CHAs): IA data reads (DRd 0x102),
 * hits local, misses homed remotely by remote_ratio and served by PMem by llc_miss_pmem_ratio; I/O reads
 * (PCIRdCur 0x11E) and writes (ItoM 0x188 whole lines, ItoMCacheNear 0x1A8 partial) of the IIO traffic (the
 * socket's stacks', devices' DMA included, as on Skylake-SP: platforms/skx/sim.c), 64 bytes each, missing by
 * io_llc_miss_ratio and homed remotely by remote_ratio (T3-1..3-5 opcodes). */
static int tor_requests(const struct sim *s, int sock, int nstacks, struct tor_req *out)
{
	const struct sim_profile *p = &s->prof;
	double per_cha = 1.0 / (sim_chas(s) * s->dies), look = p->llc_lookups[sock] * per_cha, m = p->llc_miss_ratio[sock];
	double r = p->remote_ratio[sock], q = p->llc_miss_pmem_ratio[sock], mi = p->io_miss_ratio[sock];
	double in = socket_iio_bps(s, sock, 1, nstacks), out_bps = socket_iio_bps(s, sock, 0, nstacks);
	double io[3] = { out_bps / 64 * per_cha, in / 64 * per_cha * (1 - p->io_partial_ratio[sock]),
			 in / 64 * per_cha * p->io_partial_ratio[sock] };
	static const unsigned io_opc[3] = { 0x11e, 0x188, 0x1a8 };
	unsigned drd = s->kind && s->kind->ia_read_opc ? s->kind->ia_read_opc : 0x102;
	int n = 0;
	out[n++] = (struct tor_req){ 0x01, drd, 0, 0, 0, look * (1 - m), p->llc_hit_lat_ns[sock] };
	for (int rem = 0; rem < 2; rem++) {
		for (int pmm = 0; pmm < 2; pmm++)
			out[n++] = (struct tor_req){ 0x01, drd, 1, rem, pmm, look * m * (rem ? r : 1 - r) * (pmm ? q : 1 - q),
						     pmm ? p->pmem_read_lat_ns[sock] : p->llc_miss_lat_ns[sock] };
		for (int k = 0; k < 3; k++)
			for (int miss = 0; miss < 2; miss++)
				out[n++] = (struct tor_req){ 0x04, io_opc[k], miss, rem, 0, io[k] * (rem ? r : 1 - r) * (miss ? mi : 1 - mi), 0 };
	}
	return n;
}

/* CHA events: LLC lookups, TOR inserts and occupancy (thresh 1: the cycles it holds any, when llc_miss_parallel
 * requests are outstanding on average meanwhile), home-agent requests, directory updates. */
double sim_disc_cha_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int nstacks)
{
	const struct sim_profile *p = &s->prof;
	unsigned ev = ctl & 0xff, um = (ctl >> 8) & 0xff, thresh = (unsigned)(ctl >> 24) & 0xff;
	uint32_t ext = (uint32_t)(ctl >> 32);
	int sock = b->socket;
	/* a tid filter: the cores' requests by its thread's share, the devices' (no core's tid) none */
	double tid = sim_tid_share(s, b, ctl), dev = sim_tid_devices(b, ctl);
	int nch = sim_chas(s) * s->dies; /* the socket's CHAs, over its dies */
	double miss = p->llc_miss_ratio[sock], cyc = p->uncore_hz / 1e9, r = p->remote_ratio[sock];
	if (thresh && !(ev == 0x36 && thresh == 1))
		return 0; /* other thresholded forms are not modelled */
	if (ev == 0x01)
		return p->uncore_hz;
	if (ev == 0x34 && (ext & 1)) { /* LLC_LOOKUP of data reads: umask bit 0 = miss (I), the rest hit states */
		double hit_states = __builtin_popcount(um & 0xfe) / 7.0;
		return p->llc_lookups[sock] / nch * ((um & 1 ? miss : 0) + hit_states * (1 - miss)) * tid;
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
	for (int i = 0, n = tor_requests(s, sock, nstacks, req); i < n; i++)
		if ((um & req[i].queue) && tor_selects(ext, &req[i]))
			v += req[i].rate * (ev == 0x35 ? 1 : req[i].lat_ns * cyc) * /* occupancy: Little's law */
			     (req[i].queue == 0x01 ? tid : dev);
	return thresh ? v / p->llc_miss_parallel[sock] : v;
}

/* UPI link events: clocks and flits.  TxL_FLITS (0x02) and RxL_FLITS (0x03) count slots (seed 001 Table 2-230):
 * a flit has three, a data flit fills them all and counts once for each slot its umask names in bits 2:0, so
 * ALL_DATA 0x0F counts 9 a 64-byte line (3 flits, notes 12.3); the other kinds a umask names add up: non-data
 * (LLCRD bit 4, PROTHDR bit 7) the slots that fill the link to its use, NULL (bit 5) the idle rest, each taken as
 * spread evenly over the slots.  A socket's received flits are filled to its own link use, as it sends. */
static double upi_slots(const struct sim_profile *p, int sock, unsigned um, double data_bps, int links)
{
	double k = (double)((um & 1) + (um >> 1 & 1) + (um >> 2 & 1)) / 3; /* the share of the slots counted */
	double d = data_bps / links * 9.0 / 64, nd = sim_link_nondata(p, sock, 3, d), idle = 3 * p->qpi_hz - d - nd;
	return k * ((um & 0x08 ? d : 0) + (um & 0x90 ? nd : 0) + (um & 0x20 && idle > 0 ? idle : 0));
}

double sim_disc_upi_rate(const struct sim_profile *p, int sock, unsigned ev, unsigned um, int links)
{
	if (ev == 0x01)
		return p->qpi_hz;
	if (ev == 0x02 || ev == 0x03)
		return upi_slots(p, sock, um, ev == 0x02 ? p->qpi_tx_bps[sock] : p->qpi_rx_bps[sock], links);
	return 0;
}

/* The share of each stack's IIO traffic that the ports in mask (bit k = port k) carry: the profile's
 * iio_port<k>_share weights over their sum (sim_profile_load refuses a socket whose weights are all 0). */
static double port_share(const struct sim_profile *p, int sock, unsigned mask)
{
	double sum = 0, sel = 0;
	for (int k = 0; k < SIM_IIO_PORTS; k++) {
		sum += p->iio_port_share[k][sock];
		sel += mask >> k & 1 ? p->iio_port_share[k][sock] : 0;
	}
	return sum > 0 ? sel / sum : 0;
}

/* Bytes/s in (in 1) or out through the ports of mask of IIO box b, one of the socket's nstacks: its devices'
 * DMA on the ports that hold devices (sim_devdma.h), the profile's share of the stack's traffic elsewhere. */
double sim_disc_iio_ports_bps(const struct sim *s, const struct sim_box *b, int in, unsigned mask, int nstacks)
{
	const struct sim_profile *p = &s->prof;
	unsigned dev = sim_dev_ports(s, b);
	return (in ? p->iio_in_bps[b->socket] : p->iio_out_bps[b->socket]) / nstacks * port_share(p, b->socket, mask & ~dev) +
	       sim_dev_ports_bps(s, b, in, mask & dev);
}

/* IIO DATA_REQ_OF_CPU (0x83): the same traffic as the free-running bandwidth counters, in 4-byte units
 * (umask 0x01 MEM_WRITE = bytes in, 0x04 MEM_READ = bytes out), on the ports of ch_mask 47:36 (ext bits
 * 15:4; ports 8-11 carry nothing) for any flow class of fc_mask 50:48 (ext = control bits 63:32). */
double sim_disc_iio_req_rate(const struct sim *s, const struct sim_box *b, unsigned um, uint32_t ext, int nstacks)
{
	unsigned mask = ext >> 4 & 0xff;
	if (!(ext >> 16 & 7))
		return 0;
	return ((um & 0x01 ? sim_disc_iio_ports_bps(s, b, 1, mask, nstacks) : 0) +
		(um & 0x04 ? sim_disc_iio_ports_bps(s, b, 0, mask, nstacks) : 0)) / 4;
}

/* IIO free-running counters: the IIO clock (IOCLK; Diamond Rapids' clockticks), and each stack's traffic on
 * port N of bw_in_portN / bw_out_portN, bytes a count (32: the driver's bw_in_port scale 3.0517578125e-5 MiB
 * through GNR, README "IIO bandwidth scale"; 4: Diamond Rapids' 3.814697266e-6 MiB, d8987048f665); Diamond
 * Rapids' inb_data_portN (ITC_INB_DATA_BW) counts the same inbound data as bw_in_portN (the simulator's model:
 * no source tells the two apart).  With skew 1 (fault portmap) port N's counters count port N+1's traffic. */
double sim_disc_iio_fr_rate(const struct sim *s, const struct sim_box *b, const char *n, int nstacks, double bytes)
{
	int port;
	if (!strcmp(n, "ioclk") || !strcmp(n, "clockticks"))
		return s->prof.iio_hz;
	if ((sscanf(n, "bw_in_port%d", &port) == 1 || sscanf(n, "inb_data_port%d", &port) == 1) && port >= 0 &&
	    port < SIM_IIO_PORTS)
		return sim_disc_iio_ports_bps(s, b, 1, 1u << (port + b->port_skew) % SIM_IIO_PORTS, nstacks) / bytes;
	if (sscanf(n, "bw_out_port%d", &port) == 1 && port >= 0 && port < SIM_IIO_PORTS)
		return sim_disc_iio_ports_bps(s, b, 0, 1u << (port + b->port_skew) % SIM_IIO_PORTS, nstacks) / bytes;
	return 0;
}

double sim_disc_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, const struct sim_disc_model *m)
{
	const struct sim_profile *p = &s->prof;
	const char *u = b->u->name;
	unsigned ev = ctl & 0xff, um = (ctl >> 8) & 0xff, thresh = (unsigned)(ctl >> 24) & 0xff;
	int sock = b->socket;
	double v;
	if (ctl & (SIM_EDGE | SIM_INV))
		return 0; /* edge and invert forms are not modelled */
	if (!strcmp(u, "cha"))
		return sim_disc_cha_rate(s, b, ctl, m->stacks * s->dies);
	if (thresh)
		return 0; /* thresholds are modelled for the TOR occupancy only */
	if ((v = m->own(s, b, ev, um, ctl)) >= 0)
		return v;
	if (!strcmp(u, "upi"))
		return sim_disc_upi_rate(p, sock, ev, um, m->links * s->dies); /* the socket's, every die's links */
	if (!strcmp(u, "iio") && ev == 0x83)
		return sim_disc_iio_req_rate(s, b, um, (uint32_t)(ctl >> 32), m->stacks * s->dies);
	if (!strcmp(u, "pcu") && (ev == 0x35 || ev == 0x37)) /* POWER_STATE_OCCUPANCY_CORES_C0 / _C6: cores per clock */
		return (ev == 0x35 ? p->cores_c0[sock] : p->cores_c6[sock]) * s->cores * p->pcu_hz;
	if (ev == 0x01)
		return !strcmp(u, "pcu") ? p->pcu_hz : !strcmp(u, "iio") ? p->iio_hz : p->uncore_hz;
	return 0;
}
