/* The public jobs calls (uncore.h): the node's jobs kept on the handle, their CPUs by socket, each under the
 * handle's lock (as api/ takes it: jobs/ sits above api/, its attribution a client of the public calls). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jobs.h"
#include "handle/handle.h"
#include "open/open.h"
#include "access/access.h"
#include "devices/dev_fs.h"
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
	struct dev_fs fs = { 0 }; /* a simulated machine's files, made once on its access (access_files) */
	int rc = u->acc && access_files(u->acc, &fs.mem) ? -1 : 0;
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

/* What the longest job's entry may take: its id, "=", its CPUs as a list (at most UC_MAX_CPUS / 2 items, one
 * CPU or a range apart from the next, "4094-4095," the longest), "/", its devices ("0000:17:00.0," each), ";". */
#define SET_ENTRY_MAX (UC_JOB_ID_MAX + 1 + UC_MAX_CPUS / 2 * 10 + 1 + UC_JOB_MAX_DEVS * 13 + 1)

/* Room for one entry more and the end at buf[at]: 0, or -1 (out of memory). */
static int set_room(char **buf, size_t *cap, size_t at)
{
	if (*cap - at >= SET_ENTRY_MAX + 1)
		return 0;
	size_t n = *cap ? 2 * *cap : 4 * SET_ENTRY_MAX;
	char *b = realloc(*buf, n);
	if (!b)
		return uc_err("out of memory");
	*buf = b;
	*cap = n;
	return 0;
}

/* The jobs j as "id=cpus/devices;" a job, each whole (every CPU and device, where uncore_job_info's forms are cut
 * at 256 characters), into *buf (grown as needed; *cap its size): its length, or -1 (out of memory). */
static long set_write(const struct uc_jobs *j, char **buf, size_t *cap)
{
	size_t at = 0;
	if (set_room(buf, cap, at))
		return -1;
	(*buf)[0] = 0;
	for (int i = 0; j && i < j->n; i++) {
		const struct uc_job *jb = &j->v[i];
		if (set_room(buf, cap, at))
			return -1;
		at += (size_t)snprintf(*buf + at, *cap - at, "%s=", jb->id);
		cpulist_format(jb->cpus, *buf + at, *cap - at);
		at += strlen(*buf + at);
		(*buf)[at++] = '/';
		for (int d = 0; d < jb->ndev; d++)
			at += (size_t)snprintf(*buf + at, *cap - at, "%s%s", d ? "," : "", jb->dev[d]);
		(*buf)[at++] = ';';
		(*buf)[at] = 0;
	}
	return (long)at;
}

int jobs_set_text(uncore_t *u, char **buf, size_t *cap, size_t *len)
{
	int n = uncore_jobs_scan(u);
	if (n < 0)
		return -1;
	handle_lock(u);
	long k = set_write(u->jobs, buf, cap);
	handle_unlock(u);
	if (k < 0)
		return -1;
	*len = (size_t)k;
	return n;
}

int uncore_jobs_signature(uncore_t *u, char *out, size_t len)
{
	char *buf = NULL;
	size_t cap = 0, at = 0;
	int n = jobs_set_text(u, &buf, &cap, &at);
	if (len)
		out[0] = 0;
	if (n >= 0 && at >= len) /* a set cut short would hide a change past the cut (issue 89 point 1) */
		n = uc_err("the jobs' signature takes %zu bytes, more than the %zu given", at + 1, len);
	else if (n >= 0)
		memcpy(out, buf, at + 1);
	free(buf);
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
