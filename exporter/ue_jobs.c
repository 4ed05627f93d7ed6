/*
 * --per-job: each job's memory traffic (uncore_perjob_*, doc/jobs.md "Shared nodes") as the counters
 * uncore_job_memory_read_bytes_total{job_id="..."} and ..._write_..., the bytes since the exporter first saw
 * the job, over the node's sockets (a job across nodes is one sum by (job_id)); what no job's core caused
 * is uncore_unattributed_memory_{read,write}_bytes_total; the DMA of the device groups a job holds whole,
 * uncore_job_device_{write,read}_bytes_total{job_id}, and of the others uncore_unattributed_device_*.
 * The label is job_id, not job: Prometheus gives
 * every target a job label (its scrape job), and an exposed one would arrive renamed exported_job.  The
 * jobs are read again at every read; when they change the attribution starts over on the new set (a job
 * that stays keeps its count) and a job that left is no longer exported.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ue.h"
#include "ue_log.h"

int ue_jobs_start(struct ue_state *st, char *err, size_t len)
{
	if ((!st->perjob && uncore_perjob_new(st->u, &st->perjob)) || uncore_perjob_start(st->perjob, &st->tally))
		return ue_fail(err, len, "--per-job: %s", uncore_error());
	ue_log_warnings("--per-job: "); /* a start's entries left out, and why a job's devices are not its own */
	return 0;
}

int ue_jobs_read(struct ue_state *st, uint64_t lib, uint64_t real)
{
	if (uncore_perjob_read(st->perjob, UNCORE_LAST_INTERVAL, &st->tally) < 0) {
		ue_log("--per-job: %s", uncore_error());
		return -1;
	}
	st->jobs_t_ns = ue_stamp(lib, real, uncore_perjob_read_time_ns(st->perjob));
	int moved = uncore_perjob_follow(st->perjob, &st->tally);
	if (moved < 0)
		ue_log("--per-job: %s", uncore_error());
	ue_log_warnings("--per-job: "); /* what the scan left out, said once while it stays (a new entry too) */
	return 0;
}

void ue_jobs_stop(struct ue_state *st)
{
	uncore_perjob_free(st->perjob); /* restores what its sessions programmed */
	st->perjob = NULL;
}
