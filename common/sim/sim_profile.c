/* Workload profiles: the truth the simulator turns into event counts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "util/error.h"
#include "util/safe_file.h"
#include "sim_only.h"

void sim_profile_defaults(struct sim_profile *p, int nsockets)
{
	memset(p, 0, sizeof(*p));
	for (int s = 0; s < nsockets && s < UC_MAX_SOCKETS; s++) {
		/* socket 1 busier than socket 0 so per-socket mix-ups show */
		p->mem_read_bps[s] = 12.8e9 * (1 + s);
		p->mem_write_bps[s] = 4.8e9 * (1 + s);
		p->llc_lookups[s] = 1.6e9 / (1 + s);
		p->llc_miss_ratio[s] = 0.125 * (1 + s);
		p->qpi_rx_bps[s] = 3.2e9 + 0.8e9 * s;
		p->qpi_tx_bps[s] = 2.4e9 + 0.8e9 * s;
		p->iio_in_bps[s] = 1.6e9 * (1 + s);
		p->iio_out_bps[s] = 0.96e9 * (1 + s);
		p->llc_miss_lat_ns[s] = 80 + 20 * s;
		p->llc_hit_lat_ns[s] = 15 + 2 * s;
		p->mem_read_lat_ns[s] = 40 + 10 * s;
		p->link_util[s] = 0.3 + 0.1 * s;
		p->pcu_thermal[s] = 0.05 * (1 + s);
		p->pcu_power[s] = 0.1 + 0.05 * s;
		p->pcu_os[s] = 0.02 * (1 + s);
		p->pcu_current[s] = 0.01 * (1 + s);
		p->bus_hitm_ratio[s] = 0.04 * (1 + s);
		p->bus_partial_ratio[s] = 0.05 + 0.05 * s;
		p->bus_io_ratio[s] = 0.02 * (1 + s);
		p->llc_miss_parallel[s] = 2 + s;
		p->remote_ratio[s] = 0.1 * (1 + s);
		p->pmem_read_lat_ns[s] = 300 + 50 * s;
		p->io_miss_ratio[s] = 0.3 + 0.1 * s;
		p->io_partial_ratio[s] = 0.2;
		p->dir_update_bps[s] = 0.32e9 * (1 + s);
		p->cores_c0[s] = 0.6 + 0.1 * s;
		p->cores_c6[s] = 0.3 - 0.1 * s;
		p->mem_sch0_ratio[s] = 0.7 - 0.1 * s; /* uneven: a count of one scheduler alone is wrong */
		for (int k = 0; k < SIM_IIO_PORTS; k++) /* uneven, and mirrored on odd sockets: port 0 alone or a */
			p->iio_port_share[k][s] = s % 2 ? k + 1 : SIM_IIO_PORTS - k; /* port mask off by one is wrong */
	}
	p->tsc_hz = 2.6e9;
	p->iio_hz = 500e6;
	p->uncore_hz = 2.7e9;
	p->dram_hz = 800e6;  /* DCLK, half the DDR3-1600 transfer rate (seed 000 L2255) */
	p->qpi_hz = 1e9;     /* qfclk, 8 GT/s / 8 (L3732) */
	p->pcu_hz = 800e6;   /* fixed PCU clock (L3029) */
}

static double *per_socket(struct sim_profile *p, const char *key)
{
	static const struct { const char *name; size_t off; } keys[] = {
		{ "mem_read_bytes_per_s", offsetof(struct sim_profile, mem_read_bps) },
		{ "mem_write_bytes_per_s", offsetof(struct sim_profile, mem_write_bps) },
		{ "llc_lookups_per_s", offsetof(struct sim_profile, llc_lookups) },
		{ "llc_miss_ratio", offsetof(struct sim_profile, llc_miss_ratio) },
		{ "qpi_rx_bytes_per_s", offsetof(struct sim_profile, qpi_rx_bps) },
		{ "qpi_tx_bytes_per_s", offsetof(struct sim_profile, qpi_tx_bps) },
		{ "upi_rx_bytes_per_s", offsetof(struct sim_profile, qpi_rx_bps) },
		{ "upi_tx_bytes_per_s", offsetof(struct sim_profile, qpi_tx_bps) },
		{ "iio_in_bytes_per_s", offsetof(struct sim_profile, iio_in_bps) },
		{ "iio_out_bytes_per_s", offsetof(struct sim_profile, iio_out_bps) },
		{ "llc_miss_latency_ns", offsetof(struct sim_profile, llc_miss_lat_ns) },
		{ "llc_hit_latency_ns", offsetof(struct sim_profile, llc_hit_lat_ns) },
		{ "mem_read_latency_ns", offsetof(struct sim_profile, mem_read_lat_ns) },
		{ "qpi_link_util", offsetof(struct sim_profile, link_util) },
		{ "upi_link_util", offsetof(struct sim_profile, link_util) },
		{ "pcu_thermal_limited", offsetof(struct sim_profile, pcu_thermal) },
		{ "pcu_power_limited", offsetof(struct sim_profile, pcu_power) },
		{ "pcu_os_limited", offsetof(struct sim_profile, pcu_os) },
		{ "pcu_current_limited", offsetof(struct sim_profile, pcu_current) },
		{ "bus_hitm_ratio", offsetof(struct sim_profile, bus_hitm_ratio) },
		{ "bus_partial_ratio", offsetof(struct sim_profile, bus_partial_ratio) },
		{ "bus_io_ratio", offsetof(struct sim_profile, bus_io_ratio) },
		{ "llc_miss_parallel", offsetof(struct sim_profile, llc_miss_parallel) },
		{ "remote_ratio", offsetof(struct sim_profile, remote_ratio) },
		{ "llc_miss_pmem_ratio", offsetof(struct sim_profile, llc_miss_pmem_ratio) },
		{ "pmem_read_latency_ns", offsetof(struct sim_profile, pmem_read_lat_ns) },
		{ "pmem_read_bytes_per_s", offsetof(struct sim_profile, pmem_read_bps) },
		{ "pmem_write_bytes_per_s", offsetof(struct sim_profile, pmem_write_bps) },
		{ "io_llc_miss_ratio", offsetof(struct sim_profile, io_miss_ratio) },
		{ "io_partial_write_ratio", offsetof(struct sim_profile, io_partial_ratio) },
		{ "dir_update_bytes_per_s", offsetof(struct sim_profile, dir_update_bps) },
		{ "cores_c0_ratio", offsetof(struct sim_profile, cores_c0) },
		{ "cores_c6_ratio", offsetof(struct sim_profile, cores_c6) },
		{ "mem_sch0_ratio", offsetof(struct sim_profile, mem_sch0_ratio) },
	};
	int port, end = 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i].name))
			return (double *)((char *)p + keys[i].off);
	if (sscanf(key, "iio_port%d_share%n", &port, &end) == 1 && end && !key[end] && port >= 0 && port < SIM_IIO_PORTS &&
	    key[8] >= '0' && key[8] <= '9')
		return p->iio_port_share[port];
	return NULL;
}

int sim_profile_load(struct sim_profile *p, const char *file, int nsockets)
{
	char line[512];
	int lineno = 0;
	FILE *f = uc_open_input(file);
	if (!f)
		return uc_err_prefix("simulator profile: ");
	while (fgets(line, sizeof(line), f)) {
		char key[128], *eq, *end, *k = line;
		double v;
		int sock = -1;
		lineno++;
		if ((end = strchr(line, '#')))
			*end = 0;
		while (*k == ' ' || *k == '\t')
			k++;
		if (!*k || *k == '\n')
			continue;
		eq = strchr(k, '=');
		if (!eq || sscanf(k, "%127[^= \t]", key) != 1) {
			fclose(f);
			return uc_err("simulator profile %s:%d: expected 'key = value'", file, lineno);
		}
		v = strtod(eq + 1, &end);
		while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
			end++;
		if (end == eq + 1 || *end || !(v >= 0 && v <= 1e15)) { /* NaN, inf and absurd rates too */
			fclose(f);
			return uc_err("simulator profile %s:%d: '%s' needs a number from 0 to 1e15", file, lineno, key);
		}
		char *name = key;
		if (!strncmp(key, "socket", 6) && strchr(key, '.')) {
			sock = atoi(key + 6);
			name = strchr(key, '.') + 1;
			if (sock < 0 || sock >= nsockets) {
				fclose(f);
				return uc_err("simulator profile %s:%d: no socket %d (the simulator has %d)", file, lineno,
					      sock, nsockets);
			}
		}
		double *arr = per_socket(p, name);
		if (arr) {
			for (int s = 0; s < nsockets; s++)
				if (sock < 0 || s == sock)
					arr[s] = v;
		} else if (sock < 0 && !strcmp(name, "uncore_clock_hz")) {
			p->uncore_hz = v;
		} else if (sock < 0 && !strcmp(name, "dram_clock_hz")) {
			p->dram_hz = v;
		} else if (sock < 0 && (!strcmp(name, "qpi_clock_hz") || !strcmp(name, "upi_clock_hz"))) {
			p->qpi_hz = v;
		} else if (sock < 0 && !strcmp(name, "iio_clock_hz")) {
			p->iio_hz = v;
		} else if (sock < 0 && !strcmp(name, "pcu_clock_hz")) {
			p->pcu_hz = v;
		} else if (sock < 0 && !strcmp(name, "tsc_hz")) {
			p->tsc_hz = v;
		} else if (sock < 0 && !strcmp(name, "pmem")) {
			p->pmem = v;
		} else {
			fclose(f);
			return uc_err("simulator profile %s:%d: unknown key '%s'", file, lineno, key);
		}
	}
	fclose(f);
	for (int s = 0; s < nsockets; s++) {
		double sum = 0;
		for (int k = 0; k < SIM_IIO_PORTS; k++)
			sum += p->iio_port_share[k][s];
		if (!(sum > 0)) /* the stacks' traffic must go through some port */
			return uc_err("simulator profile %s: socket %d's iio_port0_share..iio_port%d_share are all 0", file,
				      s, SIM_IIO_PORTS - 1);
	}
	return 0;
}
