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

/* The library's warnings after the first said bytes, a line each on stderr: a start's entries left out, and
 * why a job's devices are not its own (a device group it holds part of) */
static void say_since(size_t said)
{
	for (const char *w = uncore_warnings() + said; *w; w += strcspn(w, "\n") + (w[strcspn(w, "\n")] == '\n'))
		ue_log("--per-job: %.*s", (int)strcspn(w, "\n"), w);
	uncore_warnings_clear(); /* said: a daemon's list would fill (2 KiB) and hide what comes later */
}

int ue_jobs_start(struct ue_state *st, char *err, size_t len)
{
	size_t said = strlen(uncore_warnings());
	if ((!st->perjob && uncore_perjob_new(st->u, &st->perjob)) || uncore_perjob_start(st->perjob, &st->tally))
		return ue_fail(err, len, "--per-job: %s", uncore_error());
	say_since(said);
	return 0;
}

int ue_jobs_read(struct ue_state *st, uint64_t lib, uint64_t real)
{
	if (uncore_perjob_read(st->perjob, UNCORE_LAST_INTERVAL, &st->tally) < 0) {
		ue_log("--per-job: %s", uncore_error());
		return -1;
	}
	st->jobs_t_ns = ue_stamp(lib, real, uncore_perjob_read_time_ns(st->perjob));
	size_t said = strlen(uncore_warnings());
	int moved = uncore_perjob_follow(st->perjob, &st->tally);
	if (moved < 0)
		ue_log("--per-job: %s", uncore_error());
	say_since(said); /* what the scan left out, said once while it stays (a new entry too, the set unchanged) */
	return 0;
}

void ue_jobs_stop(struct ue_state *st)
{
	uncore_perjob_free(st->perjob); /* restores what its sessions programmed */
	st->perjob = NULL;
}
