/* Workload profiles: the truth the simulator turns into event counts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "util/error.h"
#include "util/safe_file.h"
#include "sim_only.h"
#include "util/cpulist.h"
#include "sim_devdma.h"

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
		p->hbm_read_bps[s] = 25.6e9 * (1 + s); /* only a machine with HBM counts these */
		p->hbm_write_bps[s] = 9.6e9 * (1 + s);
		p->hbm_hit_ratio[s] = 0.8 - 0.1 * s;
		p->mem_sch0_ratio[s] = 0.7 - 0.1 * s; /* uneven: a count of one scheduler alone is wrong */
		p->cxl_read_bps[s] = 6.4e9 * (1 + s); /* only a machine with CXL memory counts these */
		p->cxl_write_bps[s] = 2.4e9 * (1 + s);
		/* energy (sim_rapl.c): the package's watts NAN for the part's own (sim_rapl_init), DRAM uneven */
		p->pkg_w[s] = NAN;
		p->dram_idle_w[s] = 6 + 2 * s;
		p->dram_w_per_gbps[s] = 0.25 + 0.05 * s;
		for (int k = 0; k < SIM_IIO_PORTS; k++) /* uneven, and mirrored on odd sockets: port 0 alone or a */
			p->iio_port_share[k][s] = s % 2 ? k + 1 : SIM_IIO_PORTS - k; /* port mask off by one is wrong */
	}
	sim_devdma_defaults(p);
	p->tsc_hz = 2.6e9;
	p->psys_rest_w = 40;
	p->iio_hz = 500e6;
	p->uncore_hz = 2.7e9;
	p->dram_hz = 800e6;  /* DCLK, half the DDR3-1600 transfer rate (seed 000 L2255) */
	p->qpi_hz = 1e9;     /* qfclk, 8 GT/s / 8 (L3732) */
	p->pcu_hz = 800e6;   /* fixed PCU clock (L3029) */
}

/* A per-socket key's values, or NULL; *ratio: the key is a share of a whole, from 0 to 1 (above 1 the
 * simulator would count more of a kind than there is in all, and a negative rest). */
static double *per_socket(struct sim_profile *p, const char *key, int *ratio)
{
	static const struct { const char *name; size_t off; int ratio; } keys[] = {
		{ "mem_read_bytes_per_s", offsetof(struct sim_profile, mem_read_bps), 0 },
		{ "mem_write_bytes_per_s", offsetof(struct sim_profile, mem_write_bps), 0 },
		{ "llc_lookups_per_s", offsetof(struct sim_profile, llc_lookups), 0 },
		{ "llc_miss_ratio", offsetof(struct sim_profile, llc_miss_ratio), 1 },
		{ "qpi_rx_bytes_per_s", offsetof(struct sim_profile, qpi_rx_bps), 0 },
		{ "qpi_tx_bytes_per_s", offsetof(struct sim_profile, qpi_tx_bps), 0 },
		{ "upi_rx_bytes_per_s", offsetof(struct sim_profile, qpi_rx_bps), 0 },
		{ "upi_tx_bytes_per_s", offsetof(struct sim_profile, qpi_tx_bps), 0 },
		{ "iio_in_bytes_per_s", offsetof(struct sim_profile, iio_in_bps), 0 },
		{ "iio_out_bytes_per_s", offsetof(struct sim_profile, iio_out_bps), 0 },
		{ "llc_miss_latency_ns", offsetof(struct sim_profile, llc_miss_lat_ns), 0 },
		{ "llc_hit_latency_ns", offsetof(struct sim_profile, llc_hit_lat_ns), 0 },
		{ "mem_read_latency_ns", offsetof(struct sim_profile, mem_read_lat_ns), 0 },
		{ "qpi_link_util", offsetof(struct sim_profile, link_util), 1 },
		{ "upi_link_util", offsetof(struct sim_profile, link_util), 1 },
		{ "pcu_thermal_limited", offsetof(struct sim_profile, pcu_thermal), 1 },
		{ "pcu_power_limited", offsetof(struct sim_profile, pcu_power), 1 },
		{ "pcu_os_limited", offsetof(struct sim_profile, pcu_os), 1 },
		{ "pcu_current_limited", offsetof(struct sim_profile, pcu_current), 1 },
		{ "bus_hitm_ratio", offsetof(struct sim_profile, bus_hitm_ratio), 1 },
		{ "bus_partial_ratio", offsetof(struct sim_profile, bus_partial_ratio), 1 },
		{ "bus_io_ratio", offsetof(struct sim_profile, bus_io_ratio), 1 },
		{ "llc_miss_parallel", offsetof(struct sim_profile, llc_miss_parallel), 0 },
		{ "remote_ratio", offsetof(struct sim_profile, remote_ratio), 1 },
		{ "llc_miss_pmem_ratio", offsetof(struct sim_profile, llc_miss_pmem_ratio), 1 },
		{ "pmem_read_latency_ns", offsetof(struct sim_profile, pmem_read_lat_ns), 0 },
		{ "pmem_read_bytes_per_s", offsetof(struct sim_profile, pmem_read_bps), 0 },
		{ "pmem_write_bytes_per_s", offsetof(struct sim_profile, pmem_write_bps), 0 },
		{ "io_llc_miss_ratio", offsetof(struct sim_profile, io_miss_ratio), 1 },
		{ "io_partial_write_ratio", offsetof(struct sim_profile, io_partial_ratio), 1 },
		{ "dir_update_bytes_per_s", offsetof(struct sim_profile, dir_update_bps), 0 },
		{ "cores_c0_ratio", offsetof(struct sim_profile, cores_c0), 1 },
		{ "cores_c6_ratio", offsetof(struct sim_profile, cores_c6), 1 },
		{ "mem_sch0_ratio", offsetof(struct sim_profile, mem_sch0_ratio), 1 },
		{ "cxl_read_bytes_per_s", offsetof(struct sim_profile, cxl_read_bps), 0 },
		{ "cxl_write_bytes_per_s", offsetof(struct sim_profile, cxl_write_bps), 0 },
		{ "hbm_read_bytes_per_s", offsetof(struct sim_profile, hbm_read_bps), 0 },
		{ "hbm_write_bytes_per_s", offsetof(struct sim_profile, hbm_write_bps), 0 },
		{ "hbm_cache_hit_ratio", offsetof(struct sim_profile, hbm_hit_ratio), 1 },
		{ "dma_read_bytes_per_s", offsetof(struct sim_profile, dma_rd_bps), 0 },
		{ "dma_write_bytes_per_s", offsetof(struct sim_profile, dma_wr_bps), 0 },
		{ "pkg_watts", offsetof(struct sim_profile, pkg_w), 0 },
		{ "dram_idle_watts", offsetof(struct sim_profile, dram_idle_w), 0 },
		{ "dram_watts_per_gbps", offsetof(struct sim_profile, dram_w_per_gbps), 0 },
	};
	int port, end = 0;
	*ratio = 0;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strcmp(key, keys[i].name)) {
			*ratio = keys[i].ratio;
			return (double *)((char *)p + keys[i].off);
		}
	if (sscanf(key, "iio_port%d_share%n", &port, &end) == 1 && end && !key[end] && port >= 0 && port < SIM_IIO_PORTS &&
	    key[8] >= '0' && key[8] <= '9')
		return p->iio_port_share[port];
	return NULL;
}

/* job.NAME.cpus = LIST, job.NAME.mem_read_bytes_per_s = V, job.NAME.mem_write_bytes_per_s = V, job.NAME.gpus = LIST,
 * job.NAME.cgroup_uid = UID */
static int job_key(struct sim_profile *p, const char *key, const char *val, const char *file, int lineno)
{
	char name[24], what[64], why[160];
	int n = 0;
	if (sscanf(key, "job.%23[A-Za-z0-9_-].%63s%n", name, what, &n) != 2 || key[n])
		return uc_err("simulator profile %s:%d: '%s': a job key is job.NAME.cpus, job.NAME.mem_read_bytes_per_s, "
			      "job.NAME.mem_write_bytes_per_s or job.NAME.cgroup_uid (NAME: 1..23 of A-Z a-z 0-9 _ -)", file,
			      lineno, key);
	struct sim_job *j = NULL;
	for (int i = 0; i < p->njobs && !j; i++)
		if (!strcmp(p->jobs[i].name, name))
			j = &p->jobs[i];
	if (!j) {
		if (p->njobs == SIM_MAX_JOBS)
			return uc_err("simulator profile %s:%d: more than %d jobs", file, lineno, SIM_MAX_JOBS);
		j = &p->jobs[p->njobs++];
		snprintf(j->name, sizeof(j->name), "%s", name);
	}
	if (!strcmp(what, "cpus")) {
		char list[512];
		snprintf(list, sizeof(list), "%s", val);
		list[strcspn(list, "\r\n")] = 0;
		if ((j->ncpus = cpulist_parse(list, j->cpus, why, sizeof(why))) <= 0)
			return uc_err("simulator profile %s:%d: job.%s.cpus: %s", file, lineno, name,
				      j->ncpus ? why : "no CPU in the list");
		return 0;
	}
	if (!strcmp(what, "gpus"))
		return sim_job_gpus(j, val, why, sizeof(why)) ? uc_err("simulator profile %s:%d: job.%s.gpus: %s", file, lineno,
								       name, why) : 0;
	char *end;
	if (!strcmp(what, "cgroup_uid")) {
		unsigned long uid = strtoul(val, &end, 10);
		while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
			end++;
		if (end == val || *end || val[strspn(val, " \t")] == '-' || uid > 0xfffffffeul)
			return uc_err("simulator profile %s:%d: job.%s.cgroup_uid needs a uid, 0 to 4294967294", file, lineno,
				      name);
		j->cgroup_uid = (unsigned)uid;
		return 0;
	}
	double v = strtod(val, &end);
	while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
		end++;
	if (end == val || *end || !(v >= 0 && v <= 1e15))
		return uc_err("simulator profile %s:%d: '%s' needs a number from 0 to 1e15", file, lineno, key);
	if (!strcmp(what, "mem_read_bytes_per_s"))
		j->rd_bps = v;
	else if (!strcmp(what, "mem_write_bytes_per_s"))
		j->wr_bps = v;
	else
		return uc_err("simulator profile %s:%d: unknown job key '%s' (cpus, gpus, mem_read_bytes_per_s, "
			      "mem_write_bytes_per_s, cgroup_uid)", file, lineno, what);
	return 0;
}

int sim_profile_load(struct sim_profile *p, const char *file, int nsockets)
{
	char line[512];
	int lineno = 0, ratio;
	FILE *f = uc_open_input(file);
	if (!f)
		return uc_err_prefix("simulator profile: ");
	while (fgets(line, sizeof(line), f)) {
		char key[128], *eq, *end, *k = line;
		double v;
		int sock = -1, c;
		lineno++;
		/* a line fgets cut: its rest would be read as a line of its own (a comment's tail as a key) */
		if (!strchr(line, '\n') && strlen(line) == sizeof(line) - 1 && (c = getc(f)) != EOF && c != '\n') {
			fclose(f);
			return uc_err("simulator profile %s:%d: the line is longer than %zu characters", file, lineno,
				      sizeof(line) - 1);
		}
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
		if (!strncmp(key, "job.", 4) || !strncmp(key, "slurm.", 6)) {
			if (key[0] == 'j' ? job_key(p, key, eq + 1, file, lineno) : sim_slurm_key(p, key, eq + 1, file, lineno)) {
				fclose(f);
				return -1;
			}
			continue;
		}
		v = strtod(eq + 1, &end);
		while (*end == ' ' || *end == '\t' || *end == '\n' || *end == '\r')
			end++;
		if (end == eq + 1 || *end || !(v >= 0 && v <= 1e15)) { /* NaN, inf and absurd rates too */
			fclose(f);
			return uc_err("simulator profile %s:%d: '%s' needs a number from 0 to 1e15", file, lineno, key);
		}
		int dev = sim_devdma_key(p, key, v, file, lineno); /* device.KIND.KEY, device.NAME.KEY */
		if (dev) {
			if (dev < 0) {
				fclose(f);
				return -1;
			}
			continue;
		}
		char *name = key;
		if (!strncmp(key, "socket", 6) && strchr(key, '.')) {
			long n = -1;
			if (key[6] >= '0' && key[6] <= '9') /* atoi took "socketfoo." as socket 0 */
				n = strtol(key + 6, &end, 10);
			if (n < 0 || *end != '.') {
				fclose(f);
				return uc_err("simulator profile %s:%d: '%s': a socket prefix is socketN. with N a socket "
					      "number", file, lineno, key);
			}
			name = end + 1;
			if (n >= nsockets) {
				fclose(f);
				return uc_err("simulator profile %s:%d: no socket %ld (the simulator has %d)", file, lineno,
					      n, nsockets);
			}
			sock = (int)n;
		}
		double *arr = per_socket(p, name, &ratio);
		if (arr && ratio && v > 1) {
			fclose(f);
			return uc_err("simulator profile %s:%d: '%s' is a ratio: it needs a number from 0 to 1", file, lineno,
				      key);
		}
		if (arr) {
			p->mem_given |= arr == p->mem_read_bps || arr == p->mem_write_bps;
			for (int s = 0; s < nsockets; s++)
				if (sock < 0 || s == sock)
					arr[s] = v;
		} else if (sock < 0 && !strcmp(name, "uncore_clock_hz")) {
			p->uncore_hz = v;
		} else if (sock < 0 && !strcmp(name, "uncore_min_clock_hz")) { /* the limits: sim_ufreq.c */
			p->uncore_min_hz = v;
		} else if (sock < 0 && !strcmp(name, "uncore_max_clock_hz")) {
			p->uncore_max_hz = v;
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
		} else if (sock < 0 && !strcmp(name, "psys_rest_watts")) {
			p->psys_rest_w = v;
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
