/*
 * Simulated Montecito front-side bus: two cores a socket, each with its own PMU; the bus traffic of
 * the socket is what the profile says.  Reads and write-backs move 128-byte lines; the cores share
 * the traffic evenly; no I/O agent touches memory (our model).
 */
#include <string.h>
#include "sim/sim.h"
#include "util/error.h"
#include "sim/sim_only.h"

SIM_MAP_DECL(montecito);


#define CORES 2
#define ARB_NS 10.0  /* time a read waits for the arbiter before the bus (our model, seed L3370-3376) */
#define BRIL_SHARE 0.1 /* of the full-line reads: burst read-invalidate; the rest burst reads */

static double montecito_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr)
{
	const struct sim_profile *p = &s->prof;
	unsigned ev = (ctl >> 8) & 0xff, um = (ctl >> 16) & 0xf, who = um & 3;
	int sock = b->socket;
	double hz = p->tsc_hz, rd = p->mem_read_bps[sock] / 128, wb = p->mem_write_bps[sock] / 128;
	double full = rd + wb, all = full / (1 - p->bus_partial_ratio[sock]);
	double io = all * p->bus_io_ratio[sock] / (1 - p->bus_io_ratio[sock]);
	/* initiator: EITHER 0 and ANY 3 see the socket's CPU traffic, SELF 2 this core's half, IO 1 none */
	double share = who == 2 ? 1.0 / CORES : who == 1 ? 0 : 1;
	double core_rd = rd / CORES;
	(void)ctr;
	if (ctl & (0x700000ull)) /* thresholded forms are not modelled */
		return 0;
	switch (ev) {
	case 0x12: return hz; /* CPU_OP_CYCLES */
	case 0x8b: /* BUS_MEM_READ: BIL 0, BRL 1, BRIL 2, ALL 3 in bits 3:2 */
		return share * rd * ((um >> 2) == 1 ? 1 - BRIL_SHARE : (um >> 2) == 2 ? BRIL_SHARE : (um >> 2) == 3 ? 1 : 0);
	case 0x8a: /* BUS_MEMORY: EQ_128BYTE 1, LT_128BYTE 2, ALL 3 */
		return share * ((um >> 2) == 1 ? full : (um >> 2) == 2 ? all - full : (um >> 2) == 3 ? all : 0);
	case 0x92: /* BUS_WR_WB: EQ_128BYTE 0x5-7 and ALL 0xd-f; no clean castouts */
		return (um >> 2) == 1 || (um >> 2) == 3 ? share * wb : 0;
	case 0x84: return share * all * p->bus_hitm_ratio[sock]; /* BUS_HITM */
	case 0x90: return share * io;                            /* BUS_IO */
	case 0x87: return share * (all + io);                    /* BUS_ALL */
	case 0xb4: case 0xb5: { /* ER_MEM_READ_OUT_HI/LO: this core's outstanding reads, HI*8 + LO, per clock */
		double occ = core_rd * (p->mem_read_lat_ns[sock] + ARB_NS) * 1e-9, hi = (double)(long)(occ / 8);
		return (ev == 0xb4 ? hi : occ - 8 * hi) * hz;
	}
	case 0x9f: /* SI_RQ_LIVE_REQ_LO: arbiter wait of this core's reads (HI stays 0 below 8) */
		return (um & 1 ? core_rd : rd) * ARB_NS * 1e-9 * hz;
	}
	return 0;
}

static int build(struct sim *s)
{
	const struct sim_unit *t = &s->units[0];
	s->rate = montecito_rate;
	for (int sock = 0; sock < s->nsockets; sock++)
		for (int c = 0; c < CORES; c++)
			if (!sim_add_box(s, t, sock, c))
				return uc_err("simulator: too many boxes");
	return 0;
}

/* Itanium 2 9000: CPUID family 0x20 (seed 004 L287-296) */
const struct sim_kind sim_kind_montecito = { .name = "montecito", .cores = 2, .max_cores = 2 /* Itanium 2 9050, dual-core */, .family = 0x20, .model = 0, .build = build,
					     .units = sim_montecito_units, .nunits = &sim_montecito_nunits };
