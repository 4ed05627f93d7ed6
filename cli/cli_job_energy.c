/*
 * Energy beside a job's count (issue 68 point 3, doc/jobs.md "Energy"): the energy counters opened and started
 * with the job's count, sampled between its reads so that no wrap goes unseen, and a job's share of each
 * socket's energy (uncore_job_energy: DRAM by bytes, the package a node figure) written into its row.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cli.h"

uncore_energy_t *job_energy_open(uncore_t *u, double every_s)
{
	uncore_energy_t *e = NULL;
	if (uncore_energy_new(u, NULL, &e) || uncore_energy_start(e, (uint64_t)(every_s * 1e9))) {
		fprintf(stderr, "uncore: warning: the jobs' energy is not given: %s\n", uncore_error());
		uncore_energy_free(e);
		return NULL;
	}
	return e;
}

void job_energy_read(uncore_energy_t *e, int close_interval)
{
	if (e && (close_interval ? uncore_energy_read(e) : uncore_energy_sample(e)))
		fprintf(stderr, "uncore: warning: %s\n", uncore_error());
}

/* ", \"key\": v" (null for NaN) */
static size_t field(char *b, size_t len, const char *key, double v)
{
	return (size_t)(isnan(v) ? snprintf(b, len, ", \"%s\": null", key) : snprintf(b, len, ", \"%s\": %.17g", key, v));
}

void job_energy_json(const uncore_energy_t *e, int socket, double job_bytes, double socket_bytes, int window,
		     char *buf, size_t len)
{
	struct uncore_job_energy je = { NAN, NAN, NAN, NAN, NAN };
	size_t n = 0;
	buf[0] = 0;
	if (!e)
		return;
	uncore_job_energy(e, socket, job_bytes, socket_bytes, window, &je);
	n += field(buf + n, len - n, "dram_joules", je.dram_joules);
	n += n < len ? field(buf + n, len - n, "socket_dram_joules", je.socket_dram_joules) : 0;
	n += n < len ? field(buf + n, len - n, "socket_pkg_joules", je.socket_pkg_joules) : 0;
	n += n < len ? field(buf + n, len - n, "bytes_per_dram_joule", je.bytes_per_dram_joule) : 0;
	if (n < len)
		field(buf + n, len - n, "dram_watts_per_gbps", je.dram_watts_per_gbps);
}

void job_energy_text(const uncore_energy_t *e, int socket, double job_bytes, double socket_bytes, int window,
		     char *buf, size_t len)
{
	struct uncore_job_energy je;
	buf[0] = 0;
	if (e && !uncore_job_energy(e, socket, job_bytes, socket_bytes, window, &je))
		snprintf(buf, len, "  DRAM %.1f J of the socket's %.1f J (package %.1f J)", je.dram_joules,
			 je.socket_dram_joules, je.socket_pkg_joules);
}
