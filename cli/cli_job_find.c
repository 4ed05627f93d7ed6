/*
 * uncore job begin: the job on this node (as `uncore jobs` finds it) and the sockets and device groups it
 * holds whole; or, for a job Slurm has not made the cgroup of yet (it does so after the prolog), the wait for
 * it in the counting process (issue 78 point 1, doc/jobs.md "When a job given part of a node is counted").
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "cli_job.h"
#include "cli_job_log.h"

double job_unix_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The job's index in a new scan of the node's jobs, -1 where it is not there. */
static int job_index(uncore_t *u, const char *id)
{
	int n = uncore_jobs_scan(u);
	for (int j = 0; j < n; j++) {
		struct uncore_job_info ji;
		if (!uncore_job_info(u, j, &ji) && !strcmp(ji.id, id))
			return j;
	}
	return -1;
}

/* The job on this node and the sockets it holds whole; -1 with a message when there is none, -2 (nothing
 * said: the scan's "left out" is not news to one who waits) when the job is not there and waiting. */
int job_find(uncore_t *u, struct job_run *r, int waiting)
{
	if (r->whole_node) { /* no cgroup or spool entry needed: every socket is the job's, and every device */
		for (int k = 0; k < uncore_num_sockets(u) && k < 64; k++)
			r->sock[r->nsock++] = k;
		struct uncore_device_group g;
		for (int k = 0; k < uncore_num_device_groups(u) && r->ndg < 32; k++)
			if (!uncore_device_group_info(u, k, &g) && g.ndevices && g.port >= 0)
				r->dg[r->ndg++] = k;
		return 0;
	}
	int job = job_index(u, r->id), n = uncore_num_jobs(u);
	if (job < 0 && waiting)
		return -2;
	job_lib_warnings();
	if (job < 0) {
		job_say("no such job on this node (see 'uncore jobs')");
		return -1;
	}
	for (int k = 0; k < uncore_num_sockets(u) && r->nsock < 64; k++) {
		int total = 0, mine = uncore_job_socket_cpus(u, job, k, &total);
		if (mine > 0 && mine == total)
			r->sock[r->nsock++] = k;
	}
	/* another job on a socket it holds (Slurm's OverSubscribe, srun --overlap): the socket's counts are not
	 * this job's alone, and both summaries carry them whole */
	for (int k = 0; k < r->nsock; k++)
		for (int j = 0; j < n; j++) {
			struct uncore_job_info ji;
			if (j != job && uncore_job_socket_cpus(u, j, r->sock[k], NULL) > 0 && !uncore_job_info(u, j, &ji))
				job_say("socket %d is shared with job %s (its CPUs are given to both, OverSubscribe or --overlap): "
					"the socket's counts in this summary are not this job's alone", r->sock[k], ji.id);
		}
	int ndg = uncore_job_device_groups(u, job, r->dg, 32);
	r->ndg = ndg > 0 ? ndg : 0;
	job_lib_warnings(); /* a device group it holds part of */
	if (!r->nsock) {
		job_say("it holds no socket whole: its sockets' counts are shared with other work, and a shared socket's "
			"traffic is not given to one job");
		return -1;
	}
	return 0;
}

/* The job begin did not find, waited for by the counting process.  Slurm makes a job's cgroup after the
 * prolog (slurmd runs the prolog, then starts the job's first step: with PrologFlags=Alloc the batch
 * script's or the first srun's, with Contain the extern step, at once), so the jobs are scanned again
 * 0.2 s later, then after twice as long each time up to JOB_WAIT_MAX_GAP (issue 89 point 4: a scan reads
 * every job of the node, and 20 waiters scanning 500 jobs five times a second took a core for up to the
 * hour they wait; most cgroups come within the first second, and a late one, a salloc's first srun, is
 * counted from at most that gap after it came, which counted_from says), for at most --wait seconds or
 * until end's signal.  0: the job is there and holds a socket whole. */
#define JOB_WAIT_FIRST_GAP 0.2
#define JOB_WAIT_MAX_GAP 5.0
int job_wait(uncore_t **u, struct job_run *r)
{
	double until = job_unix_now() + r->wait, gap = JOB_WAIT_FIRST_GAP;
	for (;;) {
		if (job_index(*u, r->id) >= 0) { /* the polls' warnings ("left out") fill the list: a new open starts it
						    afresh, to say the job's own */
			uncore_close(*u);
			*u = NULL;
			if (cli_open(u)) {
				job_say("%s: not counted", uncore_error());
				return -1;
			}
			return job_find(*u, r, 0);
		}
		if (cli_stopped()) {
			job_say("the job ended before its cgroup appeared (no step of it started on this node): not counted");
			return -1;
		}
		if (job_unix_now() >= until) {
			job_say("no cgroup of the job appeared in the %g s begin waited for it (--wait): not counted", r->wait);
			return -1;
		}
		double left = until - job_unix_now(), nap = gap < left ? gap : left;
		cli_sleep(*u, (uint64_t)(nap > 0 ? nap * 1e9 : 0));
		gap = gap * 2 < JOB_WAIT_MAX_GAP ? gap * 2 : JOB_WAIT_MAX_GAP;
	}
}
