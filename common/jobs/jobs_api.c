/* The public jobs calls (uncore.h): the node's jobs kept on the handle, their CPUs by socket, each under the
 * handle's lock (as api/ takes it: jobs/ sits above api/, its attribution a client of the public calls). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jobs.h"
#include "handle/handle.h"
#include "open/open.h"
#include "access/access.h"
#include "devices/dev_map.h"
#include "util/error.h"
#include "util/memfs.h"

/* The handle's jobs let go: uncore_close calls it through the handle's jobs_release (jobs/ sits above open/). */
static void let_go(uncore_t *u)
{
	if (u->jobs)
		jobs_free(u->jobs);
	free(u->jobs);
	u->jobs = NULL;
}

/* The jobs and their devices, from the node's files: a simulated node's own (its cgroups, spool, gres.conf and
 * driver files) beside the host's (dev_fs.h with_host: the sysroot's standing in for its own, or the jobs of
 * the host it runs on). */
static int scan(uncore_t *u)
{
	struct dev_fs fs = { 0 }; /* a simulated machine's files, made once a handle (access_files) */
	int rc = u->acc && dev_fs_sim(u, &fs) ? -1 : 0;
	fs.with_host = 1;
	if (!rc)
		rc = jobs_scan(u->jobs, &fs);
	if (!rc)
		job_devs_resolve(u->jobs, &fs);
	return rc ? -1 : u->jobs->n;
}

int uncore_jobs_scan(uncore_t *u)
{
	int rc;
	handle_lock(u);
	if (!u->jobs && !(u->jobs = calloc(1, sizeof(*u->jobs))))
		rc = uc_err("out of memory");
	else {
		u->jobs_release = let_go;
		rc = scan(u);
	}
	handle_unlock(u);
	return rc;
}

int uncore_num_jobs(const uncore_t *u)
{
	handle_lock(u);
	int n = u->jobs ? u->jobs->n : 0;
	handle_unlock(u);
	return n;
}

int uncore_jobs_signature(uncore_t *u, char *out, size_t len)
{
	int n = uncore_jobs_scan(u);
	size_t at = 0;
	if (len)
		out[0] = 0;
	for (int j = 0; j < n && at < len; j++) {
		struct uncore_job_info ji;
		if (!uncore_job_info(u, j, &ji))
			at += (size_t)snprintf(out + at, len - at, "%s=%s/%s;", ji.id, ji.cpus, ji.devices);
	}
	return n;
}

static const struct uc_job *job_at(const uncore_t *u, int job)
{
	if (!u->jobs || job < 0 || job >= u->jobs->n) {
		uc_err("no job %d (uncore_jobs_scan found %d)", job, u->jobs ? u->jobs->n : 0);
		return NULL;
	}
	return &u->jobs->v[job];
}

static int job_info(const uncore_t *u, int job, struct uncore_job_info *out)
{
	const struct uc_job *j = job_at(u, job);
	if (!j)
		return -1;
	memset(out, 0, sizeof(*out));
	snprintf(out->id, sizeof(out->id), "%s", j->id);
	out->source = j->source;
	out->ncpus = j->ncpus;
	cpulist_format(j->cpus, out->cpus, sizeof(out->cpus));
	out->ndevices = j->ndev;
	size_t at = 0;
	for (int i = 0; i < j->ndev; i++) {
		size_t need = strlen(j->dev[i]) + (i > 0);
		if (at + need + 4 >= sizeof(out->devices)) {
			strcpy(out->devices + at, "...");
			break;
		}
		at += (size_t)snprintf(out->devices + at, sizeof(out->devices) - at, "%s%s", i ? "," : "", j->dev[i]);
	}
	return 0;
}

int uncore_job_info(const uncore_t *u, int job, struct uncore_job_info *out)
{
	handle_lock(u);
	int rc = job_info(u, job, out);
	handle_unlock(u);
	return rc;
}

static int socket_cpus(const uncore_t *u, int job, int socket, int *total)
{
	const struct uc_job *j = job_at(u, job);
	if (!j)
		return -1;
	if (socket < 0 || socket >= u->host.nsockets)
		return uc_err("no socket %d (this machine has %d)", socket, u->host.nsockets);
	int mine = 0, all = 0;
	for (int c = 0; c < u->host.ncpus && c < UC_MAX_CPUS; c++)
		if (u->host.cpu_socket[c] == socket) {
			all++;
			mine += cpu_in(j->cpus, c);
		}
	if (total)
		*total = all;
	return mine;
}

int uncore_job_socket_cpus(const uncore_t *u, int job, int socket, int *total)
{
	handle_lock(u);
	int rc = socket_cpus(u, job, socket, total);
	handle_unlock(u);
	return rc;
}
