/*
 * The batch jobs a node runs and the CPUs each holds (issue 46), from the batch system's cgroup tree and
 * from a spool directory any scheduler's prolog can write, all read below UNCORE_SYSROOT:
 *   Slurm, cgroup v2:  /sys/fs/cgroup/system.slice/[NODE_]slurmstepd.scope/job_ID/cpuset.cpus.effective
 *   Slurm, cgroup v1:  /sys/fs/cgroup/cpuset/slurm[_NODE]/uid_UID/job_ID/cpuset.effective_cpus (or cpuset.cpus)
 *   spool:             /run/intel-uncore/jobs/ID, its first line the job's CPU list ("0-15,32-47")
 * (the Slurm paths: Slurm's cgroup_v2 and cgroups guides, the hierarchies its cgroup/v2 and cgroup/v1
 * plugins make; the CPU list format: the kernel's cpuset documentation, "cpuset.cpus").
 */
#ifndef UNCORE_JOBS_H
#define UNCORE_JOBS_H

#include <stddef.h>
#include <stdint.h>
#include "access/access.h"
#include "util/cpulist.h"

#define UC_JOB_ID_MAX 64 /* Slurm "123" or "123_4", PBS "123.server", LSF "123[4]" fit */

struct uc_job {
	char id[UC_JOB_ID_MAX + 1];
	const char *source; /* "slurm-cgroup2", "slurm-cgroup1", "spool" */
	uint8_t cpus[UC_MAX_CPUS / 8];
	int ncpus;
};

struct uc_jobs {
	struct uc_job *v;
	int n, cap;
};

/* Every job of every source, in place of what j held: 0, or -1 with a message (out of memory).  An entry
 * that cannot be used (a file gone mid-read, an odd id, a spool file another user planted) is left out
 * with a warning naming it; a job two sources name is listed once, from the first. */
int jobs_scan(struct uc_jobs *j);
void jobs_free(struct uc_jobs *j);

/* A job id the library accepts: 1..UC_JOB_ID_MAX of [A-Za-z0-9._-] and "[]" (LSF array elements), not
 * starting with '.' or '-'. */
int job_id_ok(const char *id);

struct uncore;
/* The handle's jobs let go (uncore_close). */
void jobs_release(struct uncore *u);
int uncore_jobs_scan_impl(struct uncore *u);
int uncore_num_jobs_impl(const struct uncore *u);
struct uncore_job_info;
int uncore_job_info_impl(const struct uncore *u, int job, struct uncore_job_info *out);
int uncore_job_socket_cpus_impl(const struct uncore *u, int job, int socket, int *total);

#endif
