/*
 * -j: the jobs' instances (doc/pcp.md).  Instance 0 is "unattributed"; a job gets the next number when it first
 * appears and keeps it while it stays.  A number is never given again, to another job or to the same job back
 * after it left (its count then starts over at 0, and pmlogger's archive must not join the two): an archive's
 * instances stay apart.  The table holds the jobs present alone, so that it does not grow with every job that
 * ever ran.  What the agent cannot show is said in its log once, when it first happens, with the library's
 * reasons for the entries its scan left out.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "iu_pmda.h"
#include "iu_log.h"

#define UNATTRIBUTED "unattributed"

int iu_jobs_indom(void)
{
	for (int m = 0; m < iu_nmetrics; m++)
		if (iu_metrics[m].src == IU_JOB)
			return m;
	return -1;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct iu_job *)a)->id, ((const struct iu_job *)b)->id);
}

static int by_inst(const void *a, const void *b)
{
	int x = ((const struct iu_job *)a)->inst, y = ((const struct iu_job *)b)->inst;
	return (x > y) - (x < y);
}

/* The table made the jobs of the tally now, each keeping its number or taking the next; the jobs' instance
 * domain made it: 0, or -1 (out of memory: the last table and domain stay, said). */
static int job_table(struct iu_state *st)
{
	pmdaIndom *d = &st->indoms[iu_jobs_indom()];
	struct iu_job *t = calloc((size_t)st->tally.n + 1, sizeof(*t));
	pmdaInstid *set = calloc((size_t)st->tally.n + 1, sizeof(*set));
	int *from = calloc((size_t)st->tally.n + 1, sizeof(*from)); /* t[i]'s place in the old table, -1: new */
	int n = 0, clash = 0, full = 0, oom = !t || !set || !from;
	if (st->njobs) /* for bsearch; by number again below */
		qsort(st->jobs, (size_t)st->njobs, sizeof(*st->jobs), by_name);
	for (int j = 0; !oom && j < st->tally.n; j++) {
		const char *id = st->tally.jobs[j].id;
		struct iu_job key = { .id = (char *)id }, *was;
		if (!st->tally.jobs[j].present)
			continue;
		if (!strcmp(id, UNATTRIBUTED)) { /* the name of instance 0: two instances may not share a name */
			clash = 1;
			continue;
		}
		was = st->njobs ? bsearch(&key, st->jobs, (size_t)st->njobs, sizeof(*st->jobs), by_name) : NULL;
		if (!was && st->next_inst == INT_MAX) {
			full = 1;
			continue;
		}
		from[n] = was ? (int)(was - st->jobs) : -1;
		t[n] = (struct iu_job){ .id = was ? was->id : strdup(id), .inst = was ? was->inst : st->next_inst, .tally = j };
		if (!t[n].id)
			oom = 1;
		else
			st->next_inst += !was, n++;
	}
	if (oom) {
		for (int i = 0; i < n; i++)
			if (from[i] < 0)
				free(t[i].id);
		free(t);
		free(set);
		free(from);
		if (st->njobs)
			qsort(st->jobs, (size_t)st->njobs, sizeof(*st->jobs), by_inst);
		iu_log(LOG_WARNING, "per-job: out of memory: the jobs' instances are those of an earlier read");
		return -1;
	}
	if (clash && !st->said_clash)
		iu_log(LOG_WARNING, "per-job: a job named \"" UNATTRIBUTED "\" has no instance of its own (instance 0 "
			    "is the bytes no job caused): its bytes are in no instance while it runs");
	st->said_clash = clash;
	if (full && !st->said_full)
		iu_log(LOG_WARNING, "per-job: every instance number up to %d has been given: the jobs new since have "
			    "no instance (a restart of the agent numbers them afresh)", INT_MAX);
	st->said_full = full;
	for (int i = 0; i < n; i++) /* the names kept move to the new table; those of the jobs that left go */
		if (from[i] >= 0)
			st->jobs[from[i]].id = NULL;
	for (int i = 0; i < st->njobs; i++)
		free(st->jobs[i].id);
	free(st->jobs);
	free(from);
	qsort(t, (size_t)n, sizeof(*t), by_inst); /* t is never NULL here */
	set[0] = (pmdaInstid){ 0, (char *)UNATTRIBUTED };
	for (int i = 0; i < n; i++)
		set[i + 1] = (pmdaInstid){ t[i].inst, t[i].id };
	st->jobs = t;
	st->njobs = n;
	free(d->it_set); /* its names are the table's */
	d->it_set = set;
	d->it_numinst = n + 1;
	return 0;
}

int iu_job_value(const struct iu_state *st, int m, int inst, double *x)
{
	if (inst == 0) { /* what no job caused, in the table's order of the jobs' metrics */
		const double u[] = { st->tally.unattributed_read, st->tally.unattributed_write,
				     st->tally.unattributed_device_write, st->tally.unattributed_device_read };
		*x = u[m - iu_jobs_indom()];
		return 0;
	}
	struct iu_job key = { .inst = inst };
	const struct iu_job *j = st->njobs ? bsearch(&key, st->jobs, (size_t)st->njobs, sizeof(*st->jobs), by_inst) : NULL;
	if (!j || j->tally >= st->tally.n || strcmp(st->tally.jobs[j->tally].id, j->id))
		return PM_ERR_INST;
	*x = *(const double *)(const void *)((const char *)&st->tally.jobs[j->tally] + iu_metrics[m].off);
	return 0;
}

int iu_jobs_start(struct iu_state *st)
{
	if (uncore_perjob_new(st->u, &st->perjob) || uncore_perjob_start(st->perjob, &st->tally))
		return -1;
	if (!st->next_inst) /* (a node's change carries the numbers given: iu_node.c) */
		st->next_inst = 1;
	iu_log_warnings("per-job: "); /* a scan's entries left out and why, said once while they stay */
	return job_table(st);
}

void iu_jobs_read(struct iu_state *st)
{
	if (!uncore_perjob_started(st->perjob)) {
		if (uncore_perjob_start(st->perjob, &st->tally))
			iu_log(LOG_WARNING, "per-job: %s", uncore_error());
		else
			iu_log(LOG_INFO, "per-job: the jobs are attributed again");
	} else if (uncore_perjob_read(st->perjob, UNCORE_LAST_INTERVAL, &st->tally) < 0) {
		iu_log(LOG_WARNING, "per-job: %s", uncore_error());
	} else if (uncore_perjob_follow(st->perjob, &st->tally) < 0) {
		iu_log(LOG_WARNING, "per-job: %s", uncore_error());
	}
	iu_log_warnings("per-job: "); /* a scan's entries left out and why, said once while they stay */
	job_table(st);
}

void iu_jobs_free(struct iu_state *st)
{
	uncore_perjob_free(st->perjob); /* restores what its sessions programmed */
	uncore_job_tally_free(&st->tally);
	for (int i = 0; i < st->njobs; i++)
		free(st->jobs[i].id);
	free(st->jobs);
	st->perjob = NULL;
	st->jobs = NULL;
	st->njobs = 0;
}
