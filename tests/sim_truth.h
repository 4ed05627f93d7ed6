/* What each metric must equal on the simulator: the truth its profile was given. */
#ifndef TEST_SIM_TRUTH_H
#define TEST_SIM_TRUTH_H

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "sim/sim.h"

#define TRUTH_BOXES 64
struct truth {
	double v;  /* per socket, in the metric's unit */
	int split; /* a rate spread evenly over the boxes (per-box truth = v / boxes), else the same per box;
		    * TRUTH_BY_PORT: box k of n carries (k + 1) / (1 + .. + n) (the CXL ports, platforms/gnr/sim.c);
		    * TRUTH_BY_BOX: box k carries box[k] (the IIO stacks, each its devices' DMA) */
	double box[TRUTH_BOXES];
};
#define TRUTH_BY_PORT 2
#define TRUTH_NO_BOX 3 /* the socket has no box of the metric's events: its value is refused, not measured there */
#define TRUTH_BY_BOX 4

/* A rate's truth times a window: the socket's and each box's */
static inline void truth_scale(struct truth *t, double f)
{
	t->v *= f;
	for (int k = 0; k < TRUTH_BOXES; k++)
		t->box[k] *= f;
}

/* A box's share of its socket's truth t, box k of nb. */
static inline double truth_box(struct truth t, int k, int nb)
{
	if (t.split == TRUTH_BY_BOX)
		return k < TRUTH_BOXES ? t.box[k] : NAN;
	return t.split == TRUTH_BY_PORT ? t.v * (k + 1) / (nb * (nb + 1) / 2.0) : t.split ? t.v / nb : t.v;
}

/* GNR, SRF, CWF with CXL memory (cxl=1): the bytes/s of socket s's CXL memory, read or written; NAN without
 * (the lone CXL port of socket 0 moves nothing, the other sockets have none: no truth to compare) */
static inline double cxl_bps(const struct sim *sim, int s, int write)
{
	int gnr = !strcmp(sim->name, "gnr") || !strcmp(sim->name, "srf") || !strcmp(sim->name, "cwf");
	return gnr && sim->variant == 1 ? (write ? sim->prof.cxl_write_bps[s] : sim->prof.cxl_read_bps[s]) : NAN;
}

/* IIO bytes per second in (write: devices write into the socket) or out through the ports of mask (bit k =
 * port k) of IIO box b: on a port with devices (the machine's device set, sim->pdev) their DMA payload times
 * 1 + their overhead ratio, none of a device with fault uncounted; on the others the stack's share of the
 * profile's traffic (iio_in/out_bytes_per_s over the socket's stacks), by the ports' iio_port<k>_share
 * weights over their sum -- on Skylake-SP all on port 0 of its 4. */
static inline double iio_box_bps(const struct sim *sim, const struct sim_box *b, int write, unsigned mask)
{
	const struct sim_profile *p = &sim->prof;
	int s = b->socket, skx = !strcmp(sim->name, "skx") || !strcmp(sim->name, "clx"), nst = 0;
	unsigned dev = 0;
	double v = 0, sum = 0, sel = 0;
	for (int i = 0; i < sim->nboxes; i++)
		nst += !strcmp(sim->boxes[i].u->name, "iio") && sim->boxes[i].socket == s;
	for (int i = 0; i < sim->npdev; i++) {
		const struct sim_pcidev *d = &sim->pdev[i];
		if (d->socket != s || d->die != b->die || d->stack != b->idx)
			continue;
		dev |= 1u << d->port;
		if (mask >> d->port & 1 && !d->uncounted)
			v += (write ? d->in_bps : d->out_bps) * (1 + d->overhead);
	}
	for (int k = 0; k < SIM_IIO_PORTS; k++) {
		double w = skx ? k == 0 : p->iio_port_share[k][s];
		sum += w;
		sel += (mask & ~dev) >> k & 1 ? w : 0;
	}
	return v + (write ? p->iio_in_bps[s] : p->iio_out_bps[s]) / nst * sel / sum;
}

/* The same over socket s's IIO boxes, each box's in t->box (in the simulator's order of them). */
static inline double iio_ports_bps(const struct sim *sim, int s, int write, unsigned mask, struct truth *t)
{
	double v = 0;
	int k = 0;
	for (int i = 0; i < sim->nboxes; i++) {
		const struct sim_box *b = &sim->boxes[i];
		if (strcmp(b->u->name, "iio") || b->socket != s)
			continue;
		double x = iio_box_bps(sim, b, write, mask);
		if (t && k < TRUTH_BOXES)
			t->box[k] = x;
		k++;
		v += x;
	}
	return v;
}

/* An IIO metric's truth (scale 1e-9: GB/s; 1: bytes a second), box by box */
static inline struct truth iio_truth(const struct sim *sim, int s, int write, unsigned mask, double scale)
{
	struct truth t = { 0, TRUTH_BY_BOX, { 0 } };
	t.v = iio_ports_bps(sim, s, write, mask, &t) * scale;
	for (int k = 0; k < TRUTH_BOXES; k++)
		t.box[k] *= scale;
	return t;
}

static inline struct truth truth_even(const struct sim *sim, const char *m, int s)
{
	const struct sim_profile *p = &sim->prof;
	/* Diamond Rapids' IIO free-running counters are socket 0's hub's alone (one fixed window set, Linux 7.0
	 * d8987048f665; platforms/dmr/platform.c dmr_fixup): another socket has no box of them */
	if (!strcmp(sim->name, "dmr") && s > 0 && !strncmp(m, "iio_", 4))
		return (struct truth){ .v = 0, .split = TRUTH_NO_BOX };
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
		{ "upi_tx_util", F(link_util), 100, 0 },          { "qpi_tx_util", F(link_util), 100, 0 },
		{ "pcu_thermal_limited", F(pcu_thermal), 100, 0 },
		{ "pcu_power_limited", F(pcu_power), 100, 0 },    { "pcu_os_limited", F(pcu_os), 100, 0 },
		{ "pcu_current_limited", F(pcu_current), 100, 0 },
		/* integral counts (group totals): the rate per second, multiplied by the window below */
		{ "mem_read_bytes", F(mem_read_bps), 1, 1 },      { "mem_write_bytes", F(mem_write_bps), 1, 1 },
		{ "qpi_rx_bytes", F(qpi_rx_bps), 1, 1 },          { "qpi_tx_bytes", F(qpi_tx_bps), 1, 1 },
		{ "upi_rx_bytes", F(qpi_rx_bps), 1, 1 },          { "upi_tx_bytes", F(qpi_tx_bps), 1, 1 },

		/* Xeon Max's HBM channels (sim:spr,hbm=...) */
		{ "hbm_bw_read", F(hbm_read_bps), 1e-9, 1 },      { "hbm_bw_write", F(hbm_write_bps), 1e-9, 1 },
		{ "hbm_read_bytes", F(hbm_read_bps), 1, 1 },      { "hbm_write_bytes", F(hbm_write_bps), 1, 1 },
#undef F
	};
	for (size_t i = 0; i < sizeof(per_socket) / sizeof(per_socket[0]); i++)
		if (!strcmp(m, per_socket[i].name))
			return (struct truth){ ((const double *)((const char *)p + per_socket[i].off))[s] * per_socket[i].scale,
					       per_socket[i].split, { 0 } };
	int port, end = 0;
	char dir[8];
	/* IIO bandwidth of a socket's stacks, all their ports, in GB/s, and its integral count */
	if (!strcmp(m, "iio_bw_write") || !strcmp(m, "iio_bw_read"))
		return iio_truth(sim, s, m[7] == 'w', 0xff, 1e-9);
	if (!strcmp(m, "iio_write_bytes") || !strcmp(m, "iio_read_bytes"))
		return iio_truth(sim, s, m[4] == 'w', 0xff, 1);
	/* IIO bandwidth of one port in GB/s, and its integral count (bytes a second, times the window) */
	if (sscanf(m, "iio_bw_%5[a-z]_port%d%n", dir, &port, &end) == 2 && !m[end] && port >= 0 && port < SIM_IIO_PORTS &&
	    (!strcmp(dir, "write") || !strcmp(dir, "read")))
		return iio_truth(sim, s, !strcmp(dir, "write"), 1u << port, 1e-9);
	if (sscanf(m, "iio_%5[a-z]_bytes_port%d%n", dir, &port, &end) == 2 && !m[end] && port >= 0 &&
	    port < SIM_IIO_PORTS && (!strcmp(dir, "write") || !strcmp(dir, "read")))
		return iio_truth(sim, s, !strcmp(dir, "write"), 1u << port, 1);
	if (!strcmp(m, "cxl_bw_read") || !strcmp(m, "cxl_bw_write"))
		return (struct truth){ .v = cxl_bps(sim, s, m[7] == 'w') * 1e-9, .split = TRUTH_BY_PORT };
	if (!strcmp(m, "cxl_read_bytes") || !strcmp(m, "cxl_write_bytes"))
		return (struct truth){ .v = cxl_bps(sim, s, m[4] == 'w'), .split = TRUTH_BY_PORT };
	/* the socket's memory reads and writes at its home agents by requester (issue 67): remote_ratio of them
	 * other sockets', the rest its own (the CHAs' REQUESTS, spread evenly over them) */
	char rw[8], where[8];
	if (sscanf(m, "mem_%5[a-z]_%6[a-z]_bytes%n", rw, where, &end) == 2 && !m[end] && (!strcmp(where, "local") || !strcmp(where, "remote"))) {
		double bps = !strcmp(rw, "write") ? p->mem_write_bps[s] : p->mem_read_bps[s], r = p->remote_ratio[s];
		return (struct truth){ .v = bps * (where[0] == 'l' ? 1 - r : r), .split = 1 };
	}
	if (!strcmp(m, "mem_bw_total"))
		return (struct truth){ .v = (p->mem_read_bps[s] + p->mem_write_bps[s]) * 1e-9, .split = 1 };
	if (!strcmp(m, "hbm_bw_total"))
		return (struct truth){ .v = (p->hbm_read_bps[s] + p->hbm_write_bps[s]) * 1e-9, .split = 1 };
	if (!strcmp(m, "llc_misses"))
		return (struct truth){ .v = p->llc_lookups[s] * p->llc_miss_ratio[s] * 1e-6, .split = 1 };
	if (!strcmp(m, "uncore_freq"))
		return (struct truth){ .v = p->uncore_hz * 1e-9, .split = 0 };
	if (!strcmp(m, "dram_freq"))
		return (struct truth){ .v = p->dram_hz * 1e-9, .split = 0 };
	if (!strcmp(m, "core_freq")) /* Montecito: the simulator's core clock is its TSC rate */
		return (struct truth){ .v = p->tsc_hz * 1e-9, .split = 0 };
	/* Montecito bus ratios (socket-wide: counted on core 0) */
	if (!strcmp(m, "bus_hitm_ratio"))
		return (struct truth){ .v = p->bus_hitm_ratio[s] * 100, .split = 0 };
	if (!strcmp(m, "bus_partial_ratio"))
		return (struct truth){ .v = p->bus_partial_ratio[s] * 100, .split = 0 };
	if (!strcmp(m, "bus_io_cycle_ratio"))
		return (struct truth){ .v = p->bus_io_ratio[s] * 100, .split = 0 };
	if (!strcmp(m, "bus_wb_ratio")) /* write-backs over all memory transactions, partial ones included */
		return (struct truth){ .v = 100 * p->mem_write_bps[s] * (1 - p->bus_partial_ratio[s]) /
					       (p->mem_read_bps[s] + p->mem_write_bps[s]), .split = 0 };
	return (struct truth){ .v = NAN, .split = 0 };
}

/* A metric's truth: the DDR channels' bytes, where the simulated board populates its channels (sim_dimms.c, issue
 * 91), spread over its populated channels alone, an empty one or a box that is no channel carrying none; their
 * read latency the same on every populated channel and none (NAN: no read to time) on the others. */
static inline struct truth truth_of(const struct sim *sim, const char *m, int s)
{
	static const char *const ddr[] = { "mem_bw_read", "mem_bw_write", "mem_bw_total", "mem_read_bytes", "mem_write_bytes",
					   NULL };
	struct truth t = truth_even(sim, m, s);
	for (int i = 0; ddr[i] && sim->dimms_on && t.split == 1; i++)
		if (!strcmp(m, ddr[i])) {
			int n = 0;
			for (int k = 0; k < TRUTH_BOXES && k < SIM_DIMM_BOXES; k++)
				n += sim->dimms[s][k] > 0;
			for (int k = 0; k < TRUTH_BOXES && k < SIM_DIMM_BOXES; k++)
				t.box[k] = n && sim->dimms[s][k] > 0 ? t.v / n : 0;
			t.split = TRUTH_BY_BOX;
		}
	/* the DRAM bandwidth as a share of the peak (issue 98): the board's populated channels x its DIMMs' speed x 8
	 * bytes, in %; a channel without a DIMM, or a box that is no channel, 0; none (NAN) where the simulated machine
	 * has no board (every box a channel, no EDAC files: the population and the peak unknown) */
	if (!strcmp(m, "mem_bw_peak_share")) {
		struct truth bw = truth_of(sim, "mem_bw_total", s);
		int n = 0;
		if (!sim->dimms_on || !sim->mem || bw.split != TRUTH_BY_BOX)
			return (struct truth){ .v = NAN, .split = 0 };
		for (int k = 0; k < TRUTH_BOXES && k < SIM_DIMM_BOXES; k++)
			n += sim->dimms[s][k] > 0;
		const struct sim_mem_board *mb = sim->mem; /* the speed the table says: configured, else rated */
		double chan = (sim->smbios26 && mb->rated_mts ? mb->rated_mts : mb->mts) * 1e6 * 8; /* a channel's peak */
		t = (struct truth){ .v = n ? 100 * bw.v * 1e9 / (n * chan) : 0, .split = TRUTH_BY_BOX };
		for (int k = 0; k < TRUTH_BOXES && k < SIM_DIMM_BOXES; k++)
			t.box[k] = sim->dimms[s][k] > 0 ? 100 * bw.box[k] * 1e9 / chan : 0;
		return t;
	}
	if (sim->dimms_on && !strcmp(m, "mem_read_latency_ns")) {
		for (int k = 0; k < TRUTH_BOXES && k < SIM_DIMM_BOXES; k++)
			t.box[k] = sim->dimms[s][k] > 0 ? t.v : NAN;
		t.split = TRUTH_BY_BOX;
	}
	return t;
}

/* ---- perf's metric files (Linux's jkt/ivt/emr-metrics.json, Intel's EMR perf file) on the simulator ----
 * Each metric as perf computes it from the profile: per socket num/den, and for the machine the sums'
 * ratio, the values' sum or the ratio over the sockets, because perf's formulas are not all per-socket
 * means: a value over uncore_cha_0's
 * or cbox_0's clocks counts one box per socket (the machine's is the sockets' sum), cpu_cstate_c0 scales by
 * #num_packages, and the tma_info_system_upi_data_transmit_bw and *_socket_clks values are counts over
 * the window dur_s (perf divides neither by duration_time). */
enum { PT_RATIO, PT_SUM, PT_PER_SOCKET }; /* machine: the sums' ratio; the values' sum; the sums' ratio / n */

struct perf_part { double num, den; };

/* The per-socket parts of metric m on socket s, and how the machine's value combines them (*mode). */
static inline int perf_parts(const struct sim *sim, const char *m, int s, double dur_s, struct perf_part *pt, int *mode)
{
	const struct sim_profile *p = &sim->prof;
	/* the I/O the CHAs' TOR sees: the IIO stacks' (devices' DMA included) from Skylake-SP on, where the CHA
	 * holds the IIO's requests (platforms/skx/sim.c, common/sim/sim_disc_rates.c); the profile's on the CBo
	 * parts before it */
	int cbo = !strcmp(sim->name, "snbep") || !strcmp(sim->name, "ivbep") || !strcmp(sim->name, "hsx") ||
		  !strcmp(sim->name, "bdx");
	double rd = p->mem_read_bps[s], wr = p->mem_write_bps[s];
	double out = cbo ? p->iio_out_bps[s] : iio_ports_bps(sim, s, 0, 0xff, NULL);
	double in = cbo ? p->iio_in_bps[s] : iio_ports_bps(sim, s, 1, 0xff, NULL);
	double r = p->remote_ratio[s], mi = p->io_miss_ratio[s], w = p->io_partial_ratio[s], q = p->llc_miss_pmem_ratio[s];
	double misses = p->llc_lookups[s] * p->llc_miss_ratio[s], pm = p->pmem > 0;
	double lat = p->llc_miss_lat_ns[s], plat = p->pmem_read_lat_ns[s];
	/* PMem behind the IMC (its TOR misses mix DDR and PMem latencies): ICX, SPR and EMR */
	int sprf = !strcmp(sim->name, "emr") || !strcmp(sim->name, "spr") || !strcmp(sim->name, "icx");
	double mix = sprf ? (1 - q) * lat + q * plat : lat; /* the mean latency of all data-read misses */
	static const struct { const char *name; double scale; int what; } rates[] = {
		/* what: 0 reads, 1 writes, 2 both, 3 I/O reads, 4 I/O writes, 5 UPI tx, 6 UPI rx, 7 directory updates,
		 * 8 PMem reads, 9 PMem writes, 10 PMem both, 11 uncore clock, 12 remote-homed memory reads,
		 * 13 local ones, 14 remote-homed memory writes, 15 local ones, 16-19 I/O reads and writes, local and
		 * remote, 20 I/O reads that miss, 21 I/O writes that miss (those through the CHAs' TOR: out and in
		 * above), 22 and 23 the IIO stacks' reads and writes (DATA_REQ_OF_CPU: the devices'
		 * DMA where ports have devices, iio_ports_bps) */
		{ "memory_bandwidth_read", 1e-6, 0 }, { "memory_bandwidth_write", 1e-6, 1 },
		{ "memory_bandwidth_total", 1e-6, 2 }, { "tma_info_system_dram_bw_use", 1e-9, 2 }, { "DRAM_BW_Use", 1e-9, 2 },
		{ "iio_bandwidth_read", 1e-6, 22 }, { "iio_bandwidth_write", 1e-6, 23 }, { "io_bandwidth_read", 1e-6, 3 },
		{ "io_bandwidth_write", 1e-6, 4 }, { "tma_info_system_io_read_bw", 1e-9, 3 },
		{ "tma_info_system_io_write_bw", 1e-9, 4 }, { "upi_data_transmit_bw", 1e-6, 5 },
		{ "upi_data_receive_bw", 1e-6, 6 }, { "memory_extra_write_bw_due_to_directory_updates", 1e-6, 7 },
		{ "pmem_memory_bandwidth_read", 1e-6, 8 }, { "pmem_memory_bandwidth_write", 1e-6, 9 },
		{ "pmem_memory_bandwidth_total", 1e-6, 10 }, { "tma_info_system_pmm_read_bw", 1e-9, 8 },
		{ "tma_info_system_pmm_write_bw", 1e-9, 9 }, { "llc_miss_remote_memory_bandwidth_read", 1e-6, 12 },
		{ "llc_miss_local_memory_bandwidth_read", 1e-6, 13 }, { "llc_miss_remote_memory_bandwidth_write", 1e-6, 14 },
		{ "llc_miss_local_memory_bandwidth_write", 1e-6, 15 }, { "io_bandwidth_read_local", 1e-6, 16 },
		{ "io_bandwidth_read_remote", 1e-6, 17 }, { "io_bandwidth_write_local", 1e-6, 18 },
		{ "io_bandwidth_write_remote", 1e-6, 19 }, { "io_bandwidth_read_l3_miss", 1e-6, 20 },
		{ "io_bandwidth_write_l3_miss", 1e-6, 21 }, { "tma_info_system_upi_data_transmit_bw", 1e-6, 5 },
		{ "tma_info_system_socket_clks", 1, 11 }, { "Socket_CLKS", 1, 11 },
		{ "tma_info_system_uncore_frequency", 1e-9, 11 }, { "qpi_data_transmit_bw", 1e-6, 5 },
	};
	for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		if (strcmp(m, rates[i].name))
			continue;
		double v[] = { rd, wr, rd + wr, out, in, p->qpi_tx_bps[s], p->qpi_rx_bps[s], p->dir_update_bps[s],
			       p->pmem_read_bps[s], p->pmem_write_bps[s], p->pmem_read_bps[s] + p->pmem_write_bps[s],
			       p->uncore_hz, rd * r, rd * (1 - r), wr * r, wr * (1 - r), out * (1 - r), out * r, in * (1 - r),
			       in * r, out * mi, in * mi, iio_ports_bps(sim, s, 0, 0xff, NULL), iio_ports_bps(sim, s, 1, 0xff, NULL) };
		int what = rates[i].what; /* Skylake-SP's io_bandwidth_* count the IIO's DATA_REQ_OF_CPU, not the TOR */
		if ((!strcmp(sim->name, "skx") || !strcmp(sim->name, "clx")) && (what == 3 || what == 4) &&
		    !strncmp(m, "io_bandwidth_", 13))
			what += 19;
		double x = v[what] * rates[i].scale;
		if (strstr(m, "_pmm_") && !pm)
			x = 0; /* "... if #has_pmem > 0 else 0" */
		if (!strcmp(m, "tma_info_system_upi_data_transmit_bw") || !strcmp(m, "tma_info_system_socket_clks") ||
		    !strcmp(m, "Socket_CLKS"))
			x *= dur_s; /* counts over the window, not rates */
		*pt = (struct perf_part){ x, 1 };
		*mode = PT_SUM;
		return 1;
	}
	*mode = PT_RATIO;
	if (!strcmp(m, "uncore_frequency") || !strcmp(m, "UNCORE_FREQ"))
		*pt = (struct perf_part){ p->uncore_hz * 1e-9, 1 };
	else if (!strcmp(m, "io_read_l3_miss") || !strcmp(m, "io_percent_of_inbound_reads_that_miss_l3"))
		*pt = (struct perf_part){ 100 * out * mi, out };
	else if (!strcmp(m, "io_full_write_l3_miss") || !strcmp(m, "io_percent_of_inbound_full_writes_that_miss_l3"))
		*pt = (struct perf_part){ 100 * in * (1 - w) * mi, in * (1 - w) };
	else if (!strcmp(m, "io_partial_write_l3_miss") || !strcmp(m, "io_percent_of_inbound_partial_writes_that_miss_l3"))
		*pt = (struct perf_part){ 100 * in * w * mi, in * w };
	else if (!strcmp(m, "numa_reads_addressed_to_local_dram"))
		*pt = (struct perf_part){ 100 * misses * (1 - r), misses };
	else if (!strcmp(m, "numa_reads_addressed_to_remote_dram"))
		*pt = (struct perf_part){ 100 * misses * r, misses };
	else if (!strcmp(m, "llc_demand_data_read_miss_latency") ||
		 !strcmp(m, "llc_data_read_demand_plus_prefetch_miss_latency")) /* HSX: DRd misses, over #num_cores */
		*pt = (struct perf_part){ misses * mix, misses };
	else if (!strcmp(m, "llc_demand_data_read_miss_latency_for_local_requests") || /* the target mix of all misses */
		 !strcmp(m, "llc_data_read_demand_plus_prefetch_miss_latency_for_local_requests"))
		*pt = (struct perf_part){ misses * (1 - r) * mix, misses * (1 - r) };
	else if (!strcmp(m, "llc_demand_data_read_miss_latency_for_remote_requests") ||
		 !strcmp(m, "llc_data_read_demand_plus_prefetch_miss_latency_for_remote_requests"))
		*pt = (struct perf_part){ misses * r * mix, misses * r };
	else if (!strcmp(m, "llc_demand_data_read_miss_to_dram_latency"))
		*pt = (struct perf_part){ misses * (1 - q) * lat, misses * (1 - q) };
	else if (!strcmp(m, "llc_demand_data_read_miss_to_pmem_latency"))
		*pt = (struct perf_part){ misses * q * plat, misses * q };
	else if (!strcmp(m, "tma_info_system_mem_read_latency")) /* over socket_clks: one CBo/CHA a socket */
		*pt = (struct perf_part){ misses * mix, misses }, *mode = PT_PER_SOCKET;
	else if (!strcmp(m, "tma_info_system_mem_dram_read_latency")) /* over one CHA's clocks: a count */
		*pt = (struct perf_part){ misses * (1 - q) * lat / dur_s, misses * (1 - q) }, *mode = PT_PER_SOCKET;
	else if (!strcmp(m, "tma_info_system_mem_pmm_read_latency"))
		*pt = pm ? (struct perf_part){ misses * q * plat / dur_s, misses * q } : (struct perf_part){ 0, 1 },
		*mode = PT_PER_SOCKET;
	else if (!strcmp(m, "tma_info_system_mem_parallel_reads"))
		*pt = (struct perf_part){ misses * mix, misses * mix / p->llc_miss_parallel[s] }; /* occupancies' ratio */
	else if (!strcmp(m, "io_number_of_partial_pci_writes")) /* CWF: ItoMCacheNear + RFO (none) a second */
		*pt = (struct perf_part){ in * w / 64, 1 }, *mode = PT_SUM;
	else if (!strcmp(m, "io_msi") || !strcmp(m, "io_lost_fwd")) /* GNR: the simulated devices send no MSI, */
		*pt = (struct perf_part){ 0, 1 }, *mode = PT_SUM;                 /* and no IRP forward is lost */
	else if (!strcmp(m, "cpu_cstate_c0") || !strcmp(m, "cpu_cstate_c6"))
		*pt = (struct perf_part){ (m[12] == '0' ? p->cores_c0[s] : p->cores_c6[s]) * sim->cores, 1 },
		*mode = PT_SUM; /* x #num_packages: the cores in C0 of every socket */
	else
		return 0;
	return 1;
}

/* Metric m as perf computes it on the simulator, on socket s or (s < 0) the machine; NaN: no such metric
 * or no value (a latency of no requests). */
static inline double perf_truth(const struct sim *sim, const char *m, int s, double dur_s)
{
	struct perf_part pt, all = { 0, 0 };
	int mode = PT_RATIO, n = sim->nsockets;
	double sum = 0;
	if (s >= 0)
		return perf_parts(sim, m, s, dur_s, &pt, &mode) && pt.den != 0 ? pt.num / pt.den : NAN;
	for (int k = 0; k < n; k++) {
		if (!perf_parts(sim, m, k, dur_s, &pt, &mode))
			return NAN;
		all.num += pt.num;
		all.den += pt.den;
		sum += pt.den != 0 ? pt.num / pt.den : NAN;
	}
	if (mode == PT_SUM)
		return sum;
	return all.den == 0 ? NAN : mode == PT_PER_SOCKET ? all.num / all.den / n : all.num / all.den;
}

/* Energy (issue 68): the joules domain d (SIM_RAPL_PKG, _DRAM, _PSYS) of socket s consumed from the machine's
 * making to its clock's now, from the profile and the bytes its memory moved alone: the package pkg_watts x t;
 * DRAM dram_idle_watts x t + dram_watts_per_gbps x the GB moved (resctrl's count, sim_mbm_bytes); psys, on
 * socket 0 only, every socket's package and DRAM and psys_rest_watts x t. */
static inline double truth_energy_j(struct sim *sim, int s, int d)
{
	const struct sim_profile *p = &sim->prof;
	double t = (double)sim_now(sim) / 1e9, e = 0;
	uint64_t bytes = 0;
	if (d == SIM_RAPL_PSYS) {
		for (int k = 0; k < sim->nsockets && !s; k++)
			e += truth_energy_j(sim, k, SIM_RAPL_PKG) + truth_energy_j(sim, k, SIM_RAPL_DRAM);
		return s ? 0 : e + p->psys_rest_w * t;
	}
	if (d == SIM_RAPL_PKG)
		return p->pkg_w[s] * t;
	if (sim_mbm_bytes(sim, s, &bytes))
		return NAN;
	return p->dram_idle_w[s] * t + p->dram_w_per_gbps[s] * (double)bytes / 1e9;
}

#endif
