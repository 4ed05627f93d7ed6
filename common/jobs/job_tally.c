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

static int by_id(const void *a, const void *b)
{
	return strcmp(((const struct uncore_job_bytes *)a)->id, ((const struct uncore_job_bytes *)b)->id);
}

/* The tally's entry of job id, found by its id: the entries are kept sorted by it (job_tally_jobs), so that a
 * node of 10,000 jobs costs a read some 14 comparisons a row rather than 5,000.  A job it has not (a tally the
 * caller built) is added at the end and the entries sorted again.  NULL: out of memory. */
static struct uncore_job_bytes *job_of(struct uncore_job_tally *t, const char *id)
{
	struct uncore_job_bytes key, *j;
	snprintf(key.id, sizeof(key.id), "%s", id);
	if (t->n && (j = bsearch(&key, t->jobs, (size_t)t->n, sizeof(*t->jobs), by_id)))
		return j;
	for (int i = 0; i < t->n; i++) /* a caller's tally out of order */
		if (!strcmp(t->jobs[i].id, id))
			return &t->jobs[i];
	if (!(j = realloc(t->jobs, (size_t)(t->n + 1) * sizeof(*j))))
		return NULL;
	t->jobs = j;
	j = &t->jobs[t->n++];
	memset(j, 0, sizeof(*j));
	snprintf(j->id, sizeof(j->id), "%s", id);
	qsort(t->jobs, (size_t)t->n, sizeof(*t->jobs), by_id);
	return bsearch(&key, t->jobs, (size_t)t->n, sizeof(*t->jobs), by_id);
}

int job_tally_jobs(struct uncore_job_tally *t, uncore_t *u)
{
	int n = uncore_num_jobs(u), k = t->n;
	struct uncore_job_bytes *v = realloc(t->jobs, (size_t)(t->n + n + 1) * sizeof(*v)); /* room for each new */
	if (!v)
		return uc_err("out of memory");
	t->jobs = v;
	qsort(t->jobs, (size_t)t->n, sizeof(*t->jobs), by_id);
	for (int i = 0; i < t->n; i++)
		t->jobs[i].present = 0;
	for (int i = 0; i < n; i++) { /* the jobs new since, added at the end: sorted in once below */
		struct uncore_job_info ji;
		struct uncore_job_bytes key, *j;
		if (uncore_job_info(u, i, &ji))
			continue;
		snprintf(key.id, sizeof(key.id), "%s", ji.id);
		if (k && (j = bsearch(&key, t->jobs, (size_t)k, sizeof(*t->jobs), by_id))) {
			j->present = 1;
			continue;
		}
		j = &t->jobs[t->n++];
		memset(j, 0, sizeof(*j));
		memcpy(j->id, key.id, sizeof(j->id));
		j->present = 1;
	}
	int m = 0; /* a job that left is shown no more: its entry goes */
	for (int i = 0; i < t->n; i++)
		if (t->jobs[i].present)
			t->jobs[m++] = t->jobs[i];
	t->n = m;
	qsort(t->jobs, (size_t)t->n, sizeof(*t->jobs), by_id);
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
	free(t->said);
	memset(t, 0, sizeof(*t));
}
