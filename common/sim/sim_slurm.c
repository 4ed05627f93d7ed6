/*
 * The simulated node's batch-system files, in its one file tree (sim_files.c), as a Slurm node shows them, so
 * that the library reads them as a real node's, through the same readers and the same gres.conf parser:
 *   /proc/sys/kernel/hostname   the node's name ("sim-<kind>"), which slurmd takes for its NodeName;
 *   /run/intel-uncore/jobs/NAME the package's prolog's entry of a job that holds GPUs (doc/jobs.md): its CPU
 *                               list (or "-" where its cgroup gives them), then gpus=, Slurm's indexes;
 *   the job's cgroup (slurm.cgroup = 2 or 1) where Slurm's cgroup plugins make it (Slurm's cgroup_v2 and
 *   cgroups guides): v2 system.slice/slurmstepd.scope/job_NAME/cpuset.cpus{,.effective}; v1
 *   cpuset/slurm/uid_0/job_NAME/cpuset.{cpus,effective_cpus} and devices/slurm/uid_0/job_NAME/devices.list, the
 *   device nodes the job may open as Linux prints them (security/device_cgroup.c devcgroup_seq_show: "c 195:2
 *   rwm"), its GPUs and /dev/nvidiactl (195:255, every CUDA process opens it); the job's directory root's as
 *   slurmstepd makes it, or job.NAME.cgroup_uid's (one a user made: the library leaves it out);
 *   /etc/slurm/gres.conf (slurm.gpu_minors, slurm.autodetect): AutoDetect= and one NodeName= line of the GPUs,
 *   File= their device files in Slurm's index order (gres.conf(5): one index per file, in the order written).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim.h"
#include "util/error.h"
#include "util/cpulist.h"
#include "util/memfs.h"

#define NV_MAJOR 195 /* Linux Documentation/admin-guide/devices.txt: "195 char Nvidia graphics devices" */
#define NV_CTL_MINOR 255 /* /dev/nvidiactl */

int sim_slurm_key(struct sim_profile *p, const char *key, const char *val, const char *file, int lineno)
{
	struct sim_slurm *sl = &p->slurm;
	char v[256];
	snprintf(v, sizeof(v), "%s", val + strspn(val, " \t"));
	v[strcspn(v, " \t\r\n")] = 0;
	if (!strcmp(key, "slurm.cgroup")) {
		if (strcmp(v, "1") && strcmp(v, "2") && strcmp(v, "0"))
			return uc_err("simulator profile %s:%d: slurm.cgroup is 2 (cgroup v2), 1 (v1) or 0 (none)", file, lineno);
		sl->cgroup = v[0] - '0';
		return 0;
	}
	if (!strcmp(key, "slurm.autodetect")) {
		if (!*v || strlen(v) >= sizeof(sl->autodetect) || strspn(v, "abcdefghijklmnopqrstuvwxyz") != strlen(v))
			return uc_err("simulator profile %s:%d: slurm.autodetect is a word of a-z (nvml, rsmi, off)", file, lineno);
		memcpy(sl->autodetect, v, strlen(v) + 1); /* its length checked above */
		return 0;
	}
	if (!strcmp(key, "slurm.gpu_minors")) { /* in the order given: not a CPU list, which sorts */
		sl->ngres = 0;
		for (char *s = v, *end; *s; s = *end ? end + 1 : end) {
			long m = strtol(s, &end, 10);
			if (end == s || (*end && *end != ',') || m < 0 || m > 254 || sl->ngres == SIM_MAX_GRES)
				return uc_err("simulator profile %s:%d: slurm.gpu_minors is up to %d GPU minors 0-254 in Slurm's "
					      "index order, commas between (2,0,1)", file, lineno, SIM_MAX_GRES);
			for (int i = 0; i < sl->ngres; i++)
				if (sl->gres_minor[i] == m)
					return uc_err("simulator profile %s:%d: slurm.gpu_minors names minor %ld twice", file,
						      lineno, m);
			sl->gres_minor[sl->ngres++] = (int)m;
		}
		return sl->ngres ? 0 : uc_err("simulator profile %s:%d: slurm.gpu_minors names no minor", file, lineno);
	}
	return uc_err("simulator profile %s:%d: unknown key '%s' (slurm.cgroup, slurm.gpu_minors, slurm.autodetect)",
		      file, lineno, key);
}

static int put(struct memfs *m, const char *path, const char *text)
{
	return memfs_put(m, path, text, 0) ? uc_err("out of memory") : 0;
}

/* The device minor Slurm's index g names: gres.conf's g-th file, else /dev/nvidia<g>; -1: none */
static int minor_of(const struct sim_slurm *sl, int g)
{
	return !sl->ngres ? g : g < sl->ngres ? sl->gres_minor[g] : -1;
}

/* The job's cgroup directory dir made its cgroup_uid's where that is not root (job.NAME.cgroup_uid): 0, or -1. */
static int owner(const struct sim_job *jb, const char *dir, struct memfs *m)
{
	return jb->cgroup_uid && memfs_put_owner(m, dir, jb->cgroup_uid) ? uc_err("out of memory") : 0;
}

static int job_cgroup(const struct sim_slurm *sl, const struct sim_job *jb, const char *cpus, struct memfs *m)
{
	char p[256], line[40], *list;
	if (sl->cgroup == 2) {
		snprintf(p, sizeof(p), "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_%s", jb->name);
		if (owner(jb, p, m))
			return -1;
		snprintf(p, sizeof(p), "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_%s/cpuset.cpus", jb->name);
		if (put(m, p, cpus))
			return -1;
		snprintf(p, sizeof(p), "/sys/fs/cgroup/system.slice/slurmstepd.scope/job_%s/cpuset.cpus.effective", jb->name);
		return put(m, p, cpus);
	}
	snprintf(p, sizeof(p), "/sys/fs/cgroup/cpuset/slurm/uid_0/job_%s", jb->name);
	if (owner(jb, p, m))
		return -1;
	snprintf(p, sizeof(p), "/sys/fs/cgroup/devices/slurm/uid_0/job_%s", jb->name);
	if (owner(jb, p, m))
		return -1;
	snprintf(p, sizeof(p), "/sys/fs/cgroup/cpuset/slurm/uid_0/job_%s/cpuset.cpus", jb->name);
	if (put(m, p, cpus))
		return -1;
	snprintf(p, sizeof(p), "/sys/fs/cgroup/cpuset/slurm/uid_0/job_%s/cpuset.effective_cpus", jb->name);
	if (put(m, p, cpus))
		return -1;
	size_t cap = 32 * (size_t)(jb->ngpus + 1) + 1, at = 0;
	if (!(list = malloc(cap)))
		return uc_err("out of memory");
	at += (size_t)snprintf(list, cap, "c %d:%d rwm\n", NV_MAJOR, NV_CTL_MINOR);
	for (int g = 0; g < UC_MAX_CPUS && jb->ngpus > 0; g++)
		if (cpu_in(jb->gpus, g) && minor_of(sl, g) >= 0) {
			snprintf(line, sizeof(line), "c %d:%d rwm\n", NV_MAJOR, minor_of(sl, g));
			at += (size_t)snprintf(list + at, cap - at, "%s", line);
		}
	snprintf(p, sizeof(p), "/sys/fs/cgroup/devices/slurm/uid_0/job_%s/devices.list", jb->name);
	int rc = put(m, p, list);
	free(list);
	return rc;
}

static int gres_conf(const struct sim_slurm *sl, const char *host, struct memfs *m)
{
	char text[1024];
	size_t at = (size_t)snprintf(text, sizeof(text), "# gres.conf of the simulated node %s\n", host);
	if (sl->autodetect[0])
		at += (size_t)snprintf(text + at, sizeof(text) - at, "AutoDetect=%s\n", sl->autodetect);
	if (sl->ngres) {
		at += (size_t)snprintf(text + at, sizeof(text) - at, "NodeName=%s Name=gpu Type=h100 File=/dev/nvidia[", host);
		for (int i = 0; i < sl->ngres; i++)
			at += (size_t)snprintf(text + at, sizeof(text) - at, "%s%d", i ? "," : "", sl->gres_minor[i]);
		snprintf(text + at, sizeof(text) - at, "]\n");
	}
	return put(m, "/etc/slurm/gres.conf", text);
}

int sim_jobs_files(const struct sim *s, struct memfs *m)
{
	const struct sim_profile *p = &s->prof;
	const struct sim_slurm *sl = &p->slurm;
	char host[64];
	snprintf(host, sizeof(host), "sim-%s", s->kind->name);
	char hostname[80];
	snprintf(hostname, sizeof(hostname), "%s\n", host);
	if (put(m, "/proc/sys/kernel/hostname", hostname) ||
	    ((sl->ngres || sl->autodetect[0]) && gres_conf(sl, host, m)))
		return -1;
	for (int j = 0; j < p->njobs; j++) {
		const struct sim_job *jb = &p->jobs[j];
		char path[96], cpus[4096], gpus[4096], text[8200];
		cpulist_format(jb->cpus, cpus, sizeof(cpus));
		if (sl->cgroup && job_cgroup(sl, jb, cpus, m))
			return -1;
		if (jb->ngpus <= 0)
			continue;
		snprintf(path, sizeof(path), "/run/intel-uncore/jobs/%s", jb->name);
		cpulist_format(jb->gpus, gpus, sizeof(gpus));
		snprintf(text, sizeof(text), "%s\ngpus=%s\n", sl->cgroup ? "-" : cpus, gpus);
		if (put(m, path, text))
			return -1;
	}
	return 0;
}
