/*
 * Per-job accounting, the folder's interface: the jobs (here), their attribution (attrib.c), the tally
 * (job_tally.c) and the object the front ends call (perjob.c, uncore_perjob_*).
 *
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
#include "platform/platform_facts.h"
#include "util/cpulist.h"
#include "util/name_index.h"

struct uncore_job_tally;

#define UC_JOB_ID_MAX 64 /* Slurm "123" or "123_4", PBS "123.server", LSF "123[4]" fit */

#define UC_JOB_MAX_DEVS 64 /* PCI functions a job holds on one node: 8 GPUs and their NICs fit */
#define UC_JOB_MAX_GPU 1023 /* a GPU index above it is no GPU of a node */

struct uc_job {
	char id[UC_JOB_ID_MAX + 1];
	const char *source; /* "slurm-cgroup2", "slurm-cgroup1", "spool" */
	uint8_t cpus[UC_MAX_CPUS / 8];
	int ncpus;
	/* its devices (job_devs.c): the GPU indexes its spool entry gives (gpus=), the device nodes its cgroup v1
	 * allows (major:minor), and the PCI functions they are */
	uint8_t gpus[UC_MAX_CPUS / 8];
	int ngpus;
	int nnodes;
	unsigned node_major[UC_JOB_MAX_DEVS], node_minor[UC_JOB_MAX_DEVS];
	int ndev;
	char dev[UC_JOB_MAX_DEVS][16]; /* "0000:17:00.0" */
};

struct uc_jobs {
	struct uc_job *v;
	int n, cap;
	struct name_index ids; /* v by id, so that a scan of 10,000 jobs finds a job named twice in constant time */
};

/* Every job of every source, in place of what j held, read through the node's files fs (dev_fs.h: the machine's
 * below the sysroot, or a simulated node's own with the sysroot's first): 0, or -1 with a message (out of
 * memory).  An entry that cannot be used (a file gone mid-read, an odd id, a spool file another user planted) is
 * left out with a warning naming it; a job two sources name is listed once, from the first.
 *
 * A spool entry: its first line the job's CPU list, or "-" where another source (its cgroup) gives them;
 * then "gpus=LIST", the job's GPUs as the batch system indexes them (Slurm's SLURM_JOB_GPUS, IDX of scontrol
 * show job -d; the CPU list syntax).  An entry of a job another source named adds its devices alone. */
struct dev_fs;
int jobs_scan(struct uc_jobs *j, const struct dev_fs *fs);
void jobs_free(struct uc_jobs *j);

/* The jobs' devices (job_devs.c): each job's GPU indexes and device nodes made the PCI functions they are,
 * from the node's files fs: index -> device node (gres.conf's File= order, else /dev/nvidia<index>) -> minor ->
 * PCI function (/proc/driver/nvidia/gpus/<bdf>/information "Device Minor:", /sys/class/drm/cardN/device).  What
 * cannot be made a device is a warning naming the job. */
void job_devs_resolve(struct uc_jobs *j, const struct dev_fs *fs);

/* The jobs scanned afresh (uncore_jobs_scan) and written whole as uncore_jobs_signature writes them into *buf,
 * grown as needed (*cap its size, *len the text's length; free(*buf) when done): the number of jobs, or -1.  A
 * follower compares the whole text with the last, so that no change goes unseen however many jobs there are. */
struct uncore;
int jobs_set_text(struct uncore *u, char **buf, size_t *cap, size_t *len);

/* A job id the library accepts: 1..UC_JOB_ID_MAX of [A-Za-z0-9._-] and "[]" (LSF array elements), not
 * starting with '.' or '-'. */
int job_id_ok(const char *id);

/*
 * Memory traffic by job on a shared node (issue 46 point 3, doc/jobs.md "Shared nodes"): attrib.c samples
 * each job core's LLC misses at one CBo/CHA through its tid filter, rotating cores over the boxes.
 */
/* The platform's count (its descriptor's attrib, platform_facts.h struct attrib_plat), or NULL where none is
 * known. */
struct platform_desc;
const struct attrib_plat *attrib_plat_of(const struct platform_desc *p);

struct uncore_session;
/* Whether the attribution's sampled event, started after session s, would find on each of its boxes a
 * counter and filter bits s leaves it: 0; 1 with why not (session_joins); -1 with an error.  0 where the
 * platform has no attribution (its start says so). */
int attrib_clash(struct uncore_session *s, char *why, size_t len);

/*
 * Who owns which bytes (perjob.c, uncore_perjob_*): each source attributes some of the node's memory
 * traffic to the jobs of the handle's last scan.  The cores' source (attrib.c) comes first and makes each
 * socket's rows, its jobs' and the unattributed rest; the devices' source after it (attrib_dev.c, issue 66
 * point 3) adds each device group's IIO bytes to the row of the job that holds the group whole (a row made
 * where it has none), the other groups' to the unattributed row.  The front ends
 * see only the rows and the tally, so a source is added in perjob.c's table alone.
 */
struct uncore;
struct uncore_attrib_row;
struct perjob_rows {
	struct uncore_attrib_row *v;
	int n;
	uint64_t t_ns; /* the library's clock when the counts were read (the first source's) */
	unsigned lost; /* the sockets a source has no rows of (their memory controllers not counted: bit k socket k) */
};
/* n rows more (a source's read, all at once): 0, or -1 (out of memory). */
int perjob_rows_add(struct perjob_rows *rows, const struct uncore_attrib_row *r, int n);
struct perjob_source {
	const char *name;
	int (*plan)(struct uncore *u, void **ctx); /* over the jobs of the handle's last scan */
	int (*start)(void *ctx);
	int (*step)(void *ctx);                   /* every 100 ms or so */
	int (*read)(void *ctx, int window, struct perjob_rows *rows);
	int (*stop)(void *ctx);                   /* it may be read after */
	void (*free)(void *ctx);                  /* restores what it programmed */
};
extern const struct perjob_source attrib_source;  /* the jobs' cores (attrib.c) */
extern const struct perjob_source devices_source; /* the device groups they hold whole (attrib_dev.c) */

/* The tally (job_tally.c, struct uncore_job_tally): its jobs made those of the handle's last scan (new ones
 * added at 0, the others dropped), and the rows of a read added: 0, or -1 (out of memory). */
int job_tally_jobs(struct uncore_job_tally *t, struct uncore *u);
int job_tally_add(struct uncore_job_tally *t, const struct uncore_attrib_row *rows, int n);

#endif
