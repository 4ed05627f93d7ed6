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

int ue_jobs_start(struct ue_state *st, char *err, size_t len)
{
	if (uncore_jobs_signature(st->u, st->jobset, sizeof(st->jobset)) < 0 || uncore_attrib_new(st->u, &st->attrib) ||
	    uncore_attrib_start(st->attrib)) {
		snprintf(err, len, "--per-job: %s", uncore_error());
		uncore_attrib_free(st->attrib);
		st->attrib = NULL;
		return -1;
	}
	/* a job that left is not exported again: its entry goes */
	if (uncore_job_tally_jobs(&st->tally, st->u)) {
		snprintf(err, len, "--per-job: %s", uncore_error());
		return -1;
	}
	uncore_job_tally_prune(&st->tally);
	return 0;
}

int ue_jobs_read(struct ue_state *st, uint64_t lib, uint64_t real)
{
	char set[sizeof(st->jobset)], err[512];
	int n = uncore_attrib_read(st->attrib, UNCORE_LAST_INTERVAL);
	if (n < 0) {
		fprintf(stderr, "uncore-exporter: --per-job: %s\n", uncore_error());
		return -1;
	}
	st->jobs_t_ns = ue_stamp(lib, real, uncore_attrib_read_time_ns(st->attrib));
	if (uncore_job_tally_add(&st->tally, st->attrib, n))
		fprintf(stderr, "uncore-exporter: --per-job: %s\n", uncore_error());
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
