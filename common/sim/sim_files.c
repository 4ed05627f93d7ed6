/*
 * The simulator as a host: its machine's files, all in one tree (access.h ops->files), and its drive (what
 * its workload moves: ops->drive), so that the feature folders read it as any host and call no sim_*.
 */
#include "sim.h"
#include "sim_numa.h"
#include "sim_pcitree.h"
#include "sim_rapl.h"
#include "sim_ufreq.h"
#include "util/memfs.h"

/* Every file the simulated kernel shows: its PCI tree and the uncore driver's stack attributes, its NUMA
 * nodes, powercap, intel_uncore_frequency, its jobs (spool, cgroups, gres.conf, /proc/driver/nvidia), and its
 * memory's EDAC tree and SMBIOS table.
 * Fixed when the machine opens, but for its job set (sim_workload_cpus: access_files_refresh) and the node's
 * changes (changes=FILE, sim_changes.c: made again when one is made). */
int sim_files(struct access *a, struct memfs *m)
{
	struct sim *s = a->priv;
	return sim_pci_sysfs(s, m) || sim_numa_sysfs(s, m) || sim_rapl_sysfs(s, m) || sim_ufreq_sysfs(s, m) ||
	       sim_jobs_files(s, m) || sim_dimms_sysfs(s, m) || sim_cpu_sysfs(s, m) ? -1 : 0;
}

static int traffic(struct access *a, int socket, double read_bps, double write_bps)
{
	return sim_traffic(a->priv, socket, read_bps, write_bps);
}
static int workload(struct access *a, int socket, double read_bytes, double write_bytes, uint64_t ns)
{
	return sim_workload(a->priv, socket, read_bytes, write_bytes, ns);
}
static int workload_on(struct access *a, int socket, const char *memory, double read_bytes, double write_bytes,
		       uint64_t ns)
{
	return sim_workload_on(a->priv, socket, memory, read_bytes, write_bytes, ns);
}
/* The CPU sets are the machine's jobs: its spool and cgroups change with them. */
static int workload_cpus(struct access *a, int n, const uint8_t *const *sets, const double *read_bytes,
			 const double *write_bytes, uint64_t ns)
{
	return sim_workload_cpus(a->priv, n, sets, read_bytes, write_bytes, ns) || access_files_refresh(a) ? -1 : 0;
}
static int mbm_bytes(struct access *a, int socket, uint64_t *bytes) { return sim_mbm_bytes(a->priv, socket, bytes); }

static int iio_stacks(struct access *a, int *nsockets, int *dies)
{
	const struct sim *s = a->priv;
	*nsockets = s->nsockets;
	*dies = s->dies;
	return sim_iio_stacks(s);
}
static int iio_root_bus(struct access *a, int socket, int die, int stack)
{
	return sim_iio_root_bus(a->priv, socket, die, stack);
}

const struct access_drive sim_drive = {
	.iio_stacks = iio_stacks,
	.iio_root_bus = iio_root_bus,
	.traffic = traffic,
	.workload = workload,
	.workload_on = workload_on,
	.workload_cpus = workload_cpus,
	.mbm_bytes = mbm_bytes,
};
