/* A job's share of its socket's energy (uncore.h uncore_job_energy; doc/jobs.md "Energy"). */
#include <math.h>
#include "uncore.h"

int uncore_job_energy(const uncore_energy_t *e, int socket, double job_bytes, double socket_bytes, int window,
		      struct uncore_job_energy *out)
{
	double dram, pkg;
	*out = (struct uncore_job_energy){ NAN, NAN, NAN, NAN, NAN };
	if (uncore_energy_value(e, socket, UNCORE_ENERGY_DRAM, window, &dram) < 0)
		return -1; /* (1: a late read, the joules a lower bound: taken as they are) */
	if (uncore_energy_value(e, socket, UNCORE_ENERGY_PKG, window, &pkg) < 0)
		pkg = NAN;
	out->socket_dram_joules = dram;
	out->socket_pkg_joules = pkg;
	/* idle DRAM included: the rows of a socket (jobs and unattributed) add up to its DRAM energy; a socket that
	 * moved nothing gives its jobs none of it */
	out->dram_joules = socket_bytes > 0 ? dram * job_bytes / socket_bytes : 0;
	out->bytes_per_dram_joule = dram > 0 ? socket_bytes / dram : NAN;
	out->dram_watts_per_gbps = socket_bytes > 0 ? dram / (socket_bytes / 1e9) : NAN; /* (W / (GB/s) = J / GB) */
	return 0;
}
