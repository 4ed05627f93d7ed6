/*
 * The simulated Xeon E5 generation (Sandy Bridge-EP, Ivy Bridge-EP): MSR boxes per socket, PCI
 * functions on one uncore bus per socket (buses deliberately not in socket order, node ids mapped
 * through the UBox CPUNODEID/GIDNIDMAP registers) at the places each platform gives
 * (platforms/<name>/sim.c), and how the workload profile becomes event rates.
 */
#include <string.h>
#include "sim.h"
#include "util/error.h"
#include "sim_only.h"
#include "sim_numa.h"

/* Socket 0 on the highest bus, so enumeration order is not socket order. */
static const int snbep_bus[UC_MAX_SOCKETS] = { 0xff, 0x7f, 0xbf, 0x3f, 0xdf, 0x5f, 0x9f, 0x1f };
static int node_id(int socket) { return (socket * 3 + 1) & 7; } /* a non-identity node numbering */

#define CTL_CONDITIONED (SIM_EDGE | SIM_INV)

int sim_xeon_ep_peers(const struct sim *s, const struct sim_box *b)
{
	int n = 0;
	for (int i = 0; i < s->nboxes; i++)
		n += s->boxes[i].u == b->u && s->boxes[i].socket == b->socket;
	return n;
}

double sim_xeon_ep_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr)
{
	int fixed = ctr == SIM_CTR_FIXED;
	const struct sim_profile *p = &s->prof;
	const char *u = b->u->name;
	unsigned ev = ctl & 0xff, um = (ctl >> 8) & 0xff;
	int ext = !!(ctl & SIM_EV_EXT), sock = b->socket;
	int nb = b->u->nboxes; /* every channel box is there, populated unless a board says */
	int cbos = s->cores < nb ? s->cores : nb;
	if (fixed)
		return !strcmp(u, "imc") ? p->dram_hz : p->uncore_hz; /* iMC DCLK; UBox UCLK */
	unsigned thresh = (unsigned)(ctl >> 24) & 0xff;
	if (ctl & CTL_CONDITIONED)
		return 0; /* edge and invert forms are not modelled */
	if (thresh && !(!strcmp(u, "cbo") && ev == 0x36 && thresh == 1))
		return 0; /* thresholds: only the TOR occupancy's "not empty" (1) is modelled */
	if (!strcmp(u, "imc")) {
		/* spread over the populated channels (sim_dimms.c), none on an empty one */
		int nch = s->mem_channels[sock] > 0 ? s->mem_channels[sock] : nb;
		if (!sim_chan_populated(s, b))
			return 0;
		double rd = p->mem_read_bps[sock] / 64 / nch, wr = p->mem_write_bps[sock] / 64 / nch;
		if (ev == 0x04) /* CAS_COUNT: RD_REG 1, RD_UNDERFILL 2, WR_WMM 4, WR_RMM 8 */
			return (um & 1 ? rd : 0) + (um & 4 ? 0.75 * wr : 0) + (um & 8 ? 0.25 * wr : 0);
		if (ev == 0x10)
			return rd; /* RPQ_INSERTS */
		if (ev == 0x80) /* RPQ_OCCUPANCY: inserts x residency in DCLKs (Little's law) */
			return rd * p->mem_read_lat_ns[sock] * p->dram_hz / 1e9;
		if (ev == 0x20)
			return wr; /* WPQ_INSERTS */
	} else if (!strcmp(u, "cbo")) {
		if (ev == 0x00)
			return p->uncore_hz;
		if (b->idx >= cbos)
			return 0;
		double tid = sim_tid_share(s, b, ctl); /* every request of the model is a core's data read */
		if (ev == 0x34 && um == 0x03) { /* LLC_LOOKUP.DATA_READ by the state filter */
			unsigned st = (unsigned)sim_field(b, "state");
			double miss = p->llc_miss_ratio[sock];
			double frac = (st & 0x01 ? miss : 0) +
				      (1 - miss) * ((st & 0x08 ? 0.2 : 0) + (st & 0x04 ? 0.5 : 0) + (st & 0x02 ? 0.3 : 0));
			return p->llc_lookups[sock] / cbos * frac * tid;
		}
		/* TOR_INSERTS / TOR_OCCUPANCY .OPCODE (umask 1) and .MISS_OPCODE (3) of data reads, opc=0x182;
		 * .ALL (8) and .MISS_ALL (0xa) count the same, as every request of the model is a data read */
		int kinds = um == 0x08 || um == 0x0a;
		if ((ev == 0x35 || ev == 0x36) && (kinds || ((um == 0x01 || um == 0x03) && sim_field(b, "opc") == 0x182))) {
			double miss = p->llc_lookups[sock] / cbos * p->llc_miss_ratio[sock];
			double all = p->llc_lookups[sock] / cbos, cyc = p->uncore_hz / 1e9;
			int misses_only = um == 0x03 || um == 0x0a;
			miss *= tid;
			all *= tid;
			if (ev == 0x35)
				return misses_only ? miss : all;
			double occ = miss * p->llc_miss_lat_ns[sock] * cyc +
				     (misses_only ? 0 : (all - miss) * p->llc_hit_lat_ns[sock] * cyc);
			/* thresh 1: the cycles with any, while llc_miss_parallel are outstanding on average */
			return thresh ? occ / p->llc_miss_parallel[sock] : occ;
		}
	} else if (!strcmp(u, "ha")) {
		if (ev == 0x00)
			return p->uncore_hz;
		if (ev == 0x01)
			return (um & 0x03 ? p->mem_read_bps[sock] / 64 : 0) + (um & 0x0c ? p->mem_write_bps[sock] / 64 : 0);
	} else if (!strcmp(u, "qpi")) {
		int links = sim_xeon_ep_peers(s, b);
		double rx = p->qpi_rx_bps[sock] / links / 8, tx = p->qpi_tx_bps[sock] / links / 8; /* flits per link */
		if (!ext && ev == 0x14)
			return p->qpi_hz;
		if (ext && ev == 0x02 && (um & 0x08))
			return rx; /* RxL_FLITS_G1.DRS_DATA */
		if (!ext && ev == 0x01) { /* RxL_FLITS_G0: DATA 2, NON_DATA 4; two flits per qfclk fill the link */
			return (um & 0x02 ? rx : 0) + (um & 0x04 ? sim_link_nondata(p, sock, 2, rx) : 0);
		}
		if ((ext && ev == 0x00 && (um & 0x08)) || (!ext && ev == 0x00 && (um & 0x02)))
			return tx; /* TxL_FLITS_G1.DRS_DATA, TxL_FLITS_G0.DATA */
	} else if (!strcmp(u, "pcu")) {
		/* FREQ_MAX_LIMIT_THERMAL 4, _POWER 5, _OS 6, _CURRENT 7 (seed 000 Table 2-82 metrics) */
		const double limited[] = { p->pcu_thermal[sock], p->pcu_power[sock], p->pcu_os[sock], p->pcu_current[sock] };
		if (!ext && ev == 0x00)
			return p->pcu_hz;
		if (!ext && ev >= 0x04 && ev <= 0x07)
			return limited[ev - 4] * p->pcu_hz;
		if (!ext && ev >= 0x0b && ev <= 0x0e) { /* FREQ_BAND0-3_CYCLES (000:L3159-3209): the PCU clock */
			unsigned f = (unsigned)(b->filt[0] >> 8 * (ev - 0x0b)) & 0xff; /* while the uncore runs at or */
			return p->uncore_hz >= f * 100e6 ? p->pcu_hz : 0;            /* above its band, 100 MHz units */
		}
	} else if (ev == (strcmp(u, "irp") ? 0x01 : 0x00)) { /* r2pcie, r3qpi, irp CLOCKTICKS */
		return p->uncore_hz;
	}
	return 0;
}

int sim_xeon_ep_build(struct sim *s, const struct sim_pci_place *place)
{
	uint32_t gidnidmap = 0;
	s->rate = sim_xeon_ep_rate;
	for (int g = 0; g < s->nsockets; g++)
		gidnidmap |= (uint32_t)node_id(g) << (3 * g);
	for (int sock = 0; sock < s->nsockets; sock++) {
		int bus = snbep_bus[sock];
		struct sim_dev *ubox;
		for (int t = 0; t < s->nunits; t++)
			if (s->units[t].space == SIM_MSR)
				for (int i = 0; i < s->units[t].nboxes; i++)
					if (!sim_add_box(s, &s->units[t], sock, i))
						return uc_err("simulator: too many boxes");
		int ubox_dev = 11, ubox_fn = 0; /* 0b.0 unless the places give the UBox's */
		for (const struct sim_pci_place *pl = place; pl->unit; pl++) {
			if (!strcmp(pl->unit, "ubox")) {
				ubox_dev = pl->dev, ubox_fn = pl->fn;
				continue;
			}
			const struct sim_unit *u = sim_unit_named(s, pl->unit);
			struct sim_box *b = NULL;
			struct sim_dev *d;
			/* a unit or function this model lacks (Broadwell-DE's QPI; HSX's QPI port 2 match/mask) */
			uint16_t id = !u || pl->idx >= u->nboxes ? 0 : pl->companion ? u->comp_ids[pl->idx] : u->ids[pl->idx];
			if (!id)
				continue;
			for (int i = 0; i < s->nboxes; i++)
				if (s->boxes[i].u == u && s->boxes[i].socket == sock && s->boxes[i].idx == pl->idx)
					b = &s->boxes[i];
			if (!b && !(b = sim_add_box(s, u, sock, pl->idx)))
				return uc_err("simulator: too many boxes");
			d = sim_add_dev(s, bus, pl->dev, pl->fn, id);
			if (!d)
				return uc_err("simulator: too many devices");
			d->box = b;
			d->companion = pl->companion;
		}
		/* UBox device (0b.0 unless the platform places it): CPUNODEID and GIDNIDMAP, Linux
		 * snbep_pci2phy_map_init */
		ubox = sim_add_dev(s, bus, ubox_dev, ubox_fn, s->ubox->devid);
		if (!ubox)
			return uc_err("simulator: too many devices");
		memcpy(ubox->cfg + s->ubox->cpunodeid, &(uint32_t){ (uint32_t)node_id(sock) }, 4);
		memcpy(ubox->cfg + s->ubox->gidnidmap, &gidnidmap, 4);
	}
	return 0;
}

void sim_xeon_ep_nodes(struct sim *s)
{
	for (int d = 0; d < s->ndevs; d++)
		for (int sock = 0; sock < s->nsockets; sock++)
			if (s->devs[d].info.loc.bus == snbep_bus[sock])
				s->devs[d].info.node = sim_node_of_scope(s, sock * s->dies);
}
