/*
 * --per-job: each job's memory traffic (uncore_attrib_*, doc/jobs.md "Shared nodes") as the counters
 * uncore_job_memory_read_bytes_total{job_id="..."} and ..._write_..., the bytes since the exporter first saw
 * the job, over the node's sockets (a job across nodes is one sum by (job_id)); what no job's core caused
 * is uncore_unattributed_memory_{read,write}_bytes_total.  The label is job_id, not job: Prometheus gives
 * every target a job label (its scrape job), and an exposed one would arrive renamed exported_job.  The
 * jobs are read again at every read; when they change the attribution starts over on the new set (a job
 * that stays keeps its count) and a job that left is no longer exported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ue.h"

static struct ue_job *job_of(struct ue_state *st, const char *id)
{
	for (int i = 0; i < st->njobs; i++)
		if (!strcmp(st->jobs[i].id, id))
			return &st->jobs[i];
	struct ue_job *j = realloc(st->jobs, (size_t)(st->njobs + 1) * sizeof(*j));
	if (!j)
		return NULL;
	st->jobs = j;
	j = &st->jobs[st->njobs++];
	memset(j, 0, sizeof(*j));
	snprintf(j->id, sizeof(j->id), "%s", id);
	return j;
}

int ue_jobs_start(struct ue_state *st, char *err, size_t len)
{
	if (uncore_jobs_signature(st->u, st->jobset, sizeof(st->jobset)) < 0 || uncore_attrib_new(st->u, &st->attrib) ||
	    uncore_attrib_start(st->attrib)) {
		snprintf(err, len, "--per-job: %s", uncore_error());
		uncore_attrib_free(st->attrib);
		st->attrib = NULL;
		return -1;
	}
	for (int i = 0; i < st->njobs; i++)
		st->jobs[i].present = 0;
	for (int i = 0; i < uncore_num_jobs(st->u); i++) {
		struct uncore_job_info ji;
		struct ue_job *j;
		if (!uncore_job_info(st->u, i, &ji) && (j = job_of(st, ji.id)))
			j->present = 1;
	}
	/* a job that left is not exported again: its entry goes */
	int k = 0;
	for (int i = 0; i < st->njobs; i++)
		if (st->jobs[i].present)
			st->jobs[k++] = st->jobs[i];
	st->njobs = k;
	return 0;
}

int ue_jobs_read(struct ue_state *st)
{
	char set[sizeof(st->jobset)], err[512];
	int n = uncore_attrib_read(st->attrib, UNCORE_LAST_INTERVAL);
	if (n < 0) {
		fprintf(stderr, "uncore-exporter: --per-job: %s\n", uncore_error());
		return -1;
	}
	uint64_t lib, real, t = uncore_attrib_read_time_ns(st->attrib);
	uncore_clock_pair(st->u, &lib, &real);
	st->jobs_t_ns = t && t <= lib ? real - (lib - t) : real;
	for (int i = 0; i < n; i++) {
		struct uncore_attrib_row r;
		struct ue_job *j;
		if (uncore_attrib_row(st->attrib, i, &r))
			continue;
		if (!r.job[0]) {
			st->un_rd += r.read_bytes;
			st->un_wr += r.write_bytes;
		} else if ((j = job_of(st, r.job))) {
			j->rd += r.read_bytes;
			j->wr += r.write_bytes;
		}
	}
	if (uncore_jobs_signature(st->u, set, sizeof(set)) >= 0 && strcmp(set, st->jobset)) {
		uncore_attrib_free(st->attrib);
		st->attrib = NULL;
		if (ue_jobs_start(st, err, sizeof(err)))
			fprintf(stderr, "uncore-exporter: %s\n", err);
	}
	return 0;
}

void ue_jobs_stop(struct ue_state *st)
{
	uncore_attrib_free(st->attrib); /* restores what its sessions programmed */
	st->attrib = NULL;
}
