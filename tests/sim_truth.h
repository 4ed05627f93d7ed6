/* What each metric must equal on the simulator: the truth its profile was given. */
#ifndef TEST_SIM_TRUTH_H
#define TEST_SIM_TRUTH_H

#include <math.h>
#include <stddef.h>
#include <string.h>
#include "sim/sim.h"

struct truth {
	double v;  /* per socket, in the metric's unit */
	int split; /* a rate spread evenly over the boxes (per-box truth = v / boxes), else the same per box */
};

static inline struct truth truth_of(const struct sim *sim, const char *m, int s)
{
	const struct sim_profile *p = &sim->prof;
	static const struct {
		const char *name;
		size_t off;
		double scale;
		int split;
	} per_socket[] = {
#define F(x) offsetof(struct sim_profile, x)
		{ "mem_bw_read", F(mem_read_bps), 1e-9, 1 },      { "mem_bw_write", F(mem_write_bps), 1e-9, 1 },
		{ "llc_lookups", F(llc_lookups), 1e-6, 1 },       { "llc_miss_ratio", F(llc_miss_ratio), 100, 0 },
		{ "llc_miss_latency_ns", F(llc_miss_lat_ns), 1, 0 }, { "llc_hit_latency_ns", F(llc_hit_lat_ns), 1, 0 },
		{ "mem_read_latency_ns", F(mem_read_lat_ns), 1, 0 }, { "qpi_rx_bw", F(qpi_rx_bps), 1e-9, 1 },
		{ "qpi_tx_bw", F(qpi_tx_bps), 1e-9, 1 },          { "upi_rx_bw", F(qpi_rx_bps), 1e-9, 1 },
		{ "upi_tx_bw", F(qpi_tx_bps), 1e-9, 1 },          { "qpi_rx_util", F(link_util), 100, 0 },
		{ "upi_tx_util", F(link_util), 100, 0 },          { "pcu_thermal_limited", F(pcu_thermal), 100, 0 },
		{ "pcu_power_limited", F(pcu_power), 100, 0 },    { "pcu_os_limited", F(pcu_os), 100, 0 },
		{ "pcu_current_limited", F(pcu_current), 100, 0 }, { "iio_bw_write", F(iio_in_bps), 1e-9, 1 },
		{ "iio_bw_read", F(iio_out_bps), 1e-9, 1 },
		/* integral counts (group totals): the rate per second, multiplied by the window below */
		{ "mem_read_bytes", F(mem_read_bps), 1, 1 },      { "mem_write_bytes", F(mem_write_bps), 1, 1 },
		{ "qpi_rx_bytes", F(qpi_rx_bps), 1, 1 },          { "qpi_tx_bytes", F(qpi_tx_bps), 1, 1 },
		{ "upi_rx_bytes", F(qpi_rx_bps), 1, 1 },          { "upi_tx_bytes", F(qpi_tx_bps), 1, 1 },
		{ "iio_write_bytes", F(iio_in_bps), 1, 1 },       { "iio_read_bytes", F(iio_out_bps), 1, 1 },
#undef F
	};
	for (size_t i = 0; i < sizeof(per_socket) / sizeof(per_socket[0]); i++)
		if (!strcmp(m, per_socket[i].name))
			return (struct truth){ ((const double *)((const char *)p + per_socket[i].off))[s] * per_socket[i].scale,
					       per_socket[i].split };
	if (!strcmp(m, "mem_bw_total"))
		return (struct truth){ (p->mem_read_bps[s] + p->mem_write_bps[s]) * 1e-9, 1 };
	if (!strcmp(m, "llc_misses"))
		return (struct truth){ p->llc_lookups[s] * p->llc_miss_ratio[s] * 1e-6, 1 };
	if (!strcmp(m, "uncore_freq"))
		return (struct truth){ p->uncore_hz * 1e-9, 0 };
	if (!strcmp(m, "dram_freq"))
		return (struct truth){ p->dram_hz * 1e-9, 0 };
	if (!strcmp(m, "core_freq")) /* Montecito: the simulator's core clock is its TSC rate */
		return (struct truth){ p->tsc_hz * 1e-9, 0 };
	/* Montecito bus ratios (socket-wide: counted on core 0) */
	if (!strcmp(m, "bus_hitm_ratio"))
		return (struct truth){ p->bus_hitm_ratio[s] * 100, 0 };
	if (!strcmp(m, "bus_partial_ratio"))
		return (struct truth){ p->bus_partial_ratio[s] * 100, 0 };
	if (!strcmp(m, "bus_io_cycle_ratio"))
		return (struct truth){ p->bus_io_ratio[s] * 100, 0 };
	if (!strcmp(m, "bus_wb_ratio")) /* write-backs over all memory transactions, partial ones included */
		return (struct truth){ 100 * p->mem_write_bps[s] * (1 - p->bus_partial_ratio[s]) /
					       (p->mem_read_bps[s] + p->mem_write_bps[s]), 0 };
	return (struct truth){ NAN, 0 };
}

#endif
