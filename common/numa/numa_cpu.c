/* Which SNC domain a CPU is in (numa.h): the per-job attribution samples a core's misses at its domain's CHAs.
 * Without a map (a replay, no node directory) a socket is one domain, as before SNC was known. */
#include "numa.h"
#include "handle/handle.h"

int numa_cpu_domain(uncore_t *u, int cpu, int *snc)
{
	struct numa_map *m = numa_map_get(u);
	int s = cpu >= 0 && cpu < UC_MAX_CPUS ? u->host.cpu_socket[cpu] : -1;
	*snc = 1;
	if (!m || s < 0 || s >= UC_MAX_SOCKETS || m->snc[s] <= 1)
		return 0;
	*snc = m->snc[s];
	return m->cpu_domain[cpu];
}
