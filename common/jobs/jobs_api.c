/* The public jobs calls (uncore.h): the node's jobs kept on the handle, their CPUs by socket. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jobs.h"
#include "handle/handle.h"
#include "util/error.h"

int uncore_jobs_scan_impl(uncore_t *u)
{
	if (!u->jobs && !(u->jobs = calloc(1, sizeof(*u->jobs))))
		return uc_err("out of memory");
	return jobs_scan(u->jobs) ? -1 : u->jobs->n;
}

int uncore_num_jobs_impl(const uncore_t *u) { return u->jobs ? u->jobs->n : 0; }

static const struct uc_job *job_at(const uncore_t *u, int job)
{
	if (!u->jobs || job < 0 || job >= u->jobs->n) {
		uc_err("no job %d (uncore_jobs_scan found %d)", job, u->jobs ? u->jobs->n : 0);
		return NULL;
	}
	return &u->jobs->v[job];
}

int uncore_job_info_impl(const uncore_t *u, int job, struct uncore_job_info *out)
{
	const struct uc_job *j = job_at(u, job);
	if (!j)
		return -1;
	memset(out, 0, sizeof(*out));
	snprintf(out->id, sizeof(out->id), "%s", j->id);
	out->source = j->source;
	out->ncpus = j->ncpus;
	cpulist_format(j->cpus, out->cpus, sizeof(out->cpus));
	return 0;
}

int uncore_job_socket_cpus_impl(const uncore_t *u, int job, int socket, int *total)
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

void jobs_release(uncore_t *u)
{
	if (u->jobs)
		jobs_free(u->jobs);
	free(u->jobs);
	u->jobs = NULL;
}
