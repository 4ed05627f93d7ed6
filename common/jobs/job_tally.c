/*
 * Each job's memory bytes since a front end first saw it (uncore.h struct uncore_job_tally): the collectd
 * plugin's PerJob series and the exporter's job counters.  An attribution starts over when the job set
 * changes (perjob.c), so the counts that front ends show as never-resetting counters are kept here, across
 * them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "uncore.h"
#include "jobs.h"
#include "util/error.h"

static struct uncore_job_bytes *job_of(struct uncore_job_tally *t, const char *id)
{
	for (int i = 0; i < t->n; i++)
		if (!strcmp(t->jobs[i].id, id))
			return &t->jobs[i];
	struct uncore_job_bytes *j = realloc(t->jobs, (size_t)(t->n + 1) * sizeof(*j));
	if (!j)
		return NULL;
	t->jobs = j;
	j = &t->jobs[t->n++];
	memset(j, 0, sizeof(*j));
	snprintf(j->id, sizeof(j->id), "%s", id);
	return j;
}

int job_tally_jobs(struct uncore_job_tally *t, uncore_t *u)
{
	for (int i = 0; i < t->n; i++)
		t->jobs[i].present = 0;
	for (int i = 0; i < uncore_num_jobs(u); i++) {
		struct uncore_job_info ji;
		struct uncore_job_bytes *j;
		if (uncore_job_info(u, i, &ji))
			continue;
		if (!(j = job_of(t, ji.id)))
			return uc_err("out of memory");
		j->present = 1;
	}
	int k = 0; /* a job that left is shown no more: its entry goes */
	for (int i = 0; i < t->n; i++)
		if (t->jobs[i].present)
			t->jobs[k++] = t->jobs[i];
	t->n = k;
	return 0;
}

int job_tally_add(struct uncore_job_tally *t, const struct uncore_attrib_row *rows, int n)
{
	for (int i = 0; i < t->n; i++) /* a read's rows say the CPUs shared now */
		t->jobs[i].shared_cpus = 0;
	for (int i = 0; i < n; i++) {
		const struct uncore_attrib_row *r = &rows[i];
		struct uncore_job_bytes *j;
		if (!r->job[0]) {
			t->unattributed_read += r->read_bytes;
			t->unattributed_write += r->write_bytes;
			t->unattributed_device_write += r->device_write_bytes;
			t->unattributed_device_read += r->device_read_bytes;
		} else if ((j = job_of(t, r->job))) {
			j->read_bytes += r->read_bytes;
			j->write_bytes += r->write_bytes;
			j->device_write_bytes += r->device_write_bytes;
			j->device_read_bytes += r->device_read_bytes;
			j->shared_cpus += r->shared_cpus;
		} else
			return uc_err("out of memory");
	}
	return 0;
}

void uncore_job_tally_free(struct uncore_job_tally *t)
{
	free(t->jobs);
	memset(t, 0, sizeof(*t));
}
