/*
 * Simulated Nehalem-EP: one uncore PMU per socket (MSRs only) and how the workload profile becomes
 * its event rates.  Reads are all local and there are three channels, evenly loaded.
 */
#include <string.h>
#include "sim/sim.h"
#include "util/error.h"
#include "sim/sim_perf.h"
#include "sim/sim_only.h"

SIM_PERF_DECL(nhm);

SIM_MAP_DECL(nhm);


#define CHANNELS 3 /* seed 003 L1361 */
#define READ_SHARE 0.8 /* of the L3 lookups; the rest are writes (our model) */

static double nhm_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr)
{
	const struct sim_profile *p = &s->prof;
	unsigned ev = ctl & 0xff, um = (ctl >> 8) & 0xff;
	int sock = b->socket;
	double rd = p->mem_read_bps[sock] / 64, wr = p->mem_write_bps[sock] / 64, cyc = p->uncore_hz / 1e9;
	double miss = p->llc_lookups[sock] * p->llc_miss_ratio[sock], hit = p->llc_lookups[sock] - miss;
	if (ctr == SIM_CTR_FIXED)
		return p->uncore_hz; /* UNC_CLK_UNHALTED */
	if (ctl & ((1ull << 18) | (1ull << 23) | 0xff000000ull))
		return 0; /* edge, invert and cmask forms are not modelled */
	switch (ev) {
	case 0x2c: /* IMC_NORMAL_READS: a bit per channel */
		return __builtin_popcount(um & 7) * rd / CHANNELS;
	case 0x2f: /* IMC_WRITES.FULL: bits 0-2 */
		return __builtin_popcount(um & 7) * wr / CHANNELS;
	case 0x20: /* QHL_REQUESTS.LOCAL_READS */
		return um & 0x10 ? rd : 0;
	case 0x23: /* QHL_OCCUPANCY.LOCAL: reads x time in the home logic, in uncore cycles */
		return um & 0x04 ? rd * p->mem_read_lat_ns[sock] * cyc : 0;
	case 0x08: /* LLC_HITS: READ 1, WRITE 2 */
	case 0x09: /* LLC_MISS */
		return (ev == 0x08 ? hit : miss) * ((um & 1 ? READ_SHARE : 0) + (um & 2 ? 1 - READ_SHARE : 0));
	case 0x03: /* GQ_ALLOC.RT_LLC_MISS */
		return um == 0x02 ? miss * READ_SHARE : 0;
	case 0x02: /* GQ_TRACKER_OCCUP.RT_LLC_MISS */
		return um == 0x02 ? miss * READ_SHARE * p->llc_miss_lat_ns[sock] * cyc : 0;
	}
	return 0;
}

static int build(struct sim *s)
{
	const struct sim_unit *t = &s->units[0];
	s->rate = nhm_rate;
	for (int sock = 0; sock < s->nsockets; sock++)
		if (!sim_add_box(s, t, sock, 0))
			return uc_err("simulator: too many boxes");
	return 0;
}

const struct sim_kind sim_kind_nhm = { .name = "nhm", .cores = 4, .max_cores = 4 /* Xeon X5570 */, .family = 6, .model = 26, .stepping = 5, .build = build,
				       .units = sim_nhm_units, .nunits = &sim_nhm_nunits, .perf = sim_nhm_perf, .nperf = &sim_nhm_nperf };
