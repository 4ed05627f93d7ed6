/*
 * The node changed under the agent (uncore_node_check before each read, issue 99 point 2): what it counts planned
 * again on the node as it is now, one line in its log.  Each instance keeps its number where its name stays (a
 * client's archive goes on), a name that came takes a number past every one given, a name that went is left out
 * of its instance domain; each counter goes on from its count at the change (never a re-read of the whole
 * count).  The instance domains stay where pmda was given them (pmdaInit): their contents are replaced.
 * With -j the jobs are attributed anew on the new handle, each job's bytes and instance number going on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iu_pmda.h"
#include "iu_log.h"

static const char *inst_name(const pmdaIndom *d, int inst)
{
	for (int i = 0; i < d->it_numinst; i++)
		if (d->it_set[i].i_inst == inst)
			return d->it_set[i].i_name;
	return NULL;
}

static int inst_of(const pmdaIndom *d, const char *name)
{
	for (int i = 0; name && i < d->it_numinst; i++)
		if (!strcmp(d->it_set[i].i_name, name))
			return d->it_set[i].i_inst;
	return -1;
}

/* next's instances of metric m numbered as old's where the name stays, past old's highest where it came; the
 * values' numbers with them.  Returns how many came. */
static int renumber(struct iu_state *next, const pmdaIndom *old, int m)
{
	pmdaIndom *d = &next->indoms[m];
	int top = -1, came = 0;
	for (int i = 0; i < old->it_numinst; i++)
		top = old->it_set[i].i_inst > top ? old->it_set[i].i_inst : top;
	for (int i = 0; i < d->it_numinst; i++) {
		int was = d->it_set[i].i_inst, now = inst_of(old, d->it_set[i].i_name);
		came += now < 0;
		now = now < 0 ? ++top : now;
		for (int k = 0; k < next->nv; k++)
			if (next->v[k].m == m && next->v[k].inst == was)
				next->v[k].inst = -2 - now; /* (marked: a number already moved is not moved again) */
		d->it_set[i].i_inst = now;
	}
	for (int k = 0; k < next->nv; k++)
		if (next->v[k].m == m && next->v[k].inst <= -2)
			next->v[k].inst = -2 - next->v[k].inst;
	return came;
}

/* each counter of next goes on from old's count of the same metric and instance name (one whose box failed or
 * was taken over too: its count up to then, kept, is the count to go on from) */
static void carry(struct iu_state *next, const struct iu_state *old)
{
	for (int k = 0; k < next->nv; k++) {
		struct iu_value *v = &next->v[k];
		if (iu_metrics[v->m].sem != PM_SEM_COUNTER)
			continue;
		const char *name = inst_name(&next->indoms[v->m], v->inst);
		for (int j = 0; j < old->nv; j++) {
			const struct iu_value *o = &old->v[j];
			if (o->m == v->m && (o->have || o->failed) && name && o->inst == inst_of(&old->indoms[o->m], name)) {
				v->base = o->value;
				break;
			}
		}
	}
}

static int follow(struct iu_state *st, int changed)
{
	char err[1024], what[128];
	int gone = 0, came = 0;
	uncore_node_changes(changed, what, sizeof(what));
	iu_read(st); /* the counts up to the change */
	/* -j: the jobs' tally and instances go on (each job's bytes and number, what was said of them): before the
	 * new attribution's first scan, as the collectd plugin's (collectd_plugin/iu_node.c) */
	struct iu_state next = { .per_job = st->per_job, .backend = st->backend, .tally = st->tally, .jobs = st->jobs,
				 .njobs = st->njobs, .next_inst = st->next_inst, .said_clash = st->said_clash,
				 .said_full = st->said_full };
	memset(&st->tally, 0, sizeof(st->tally));
	st->jobs = NULL;
	st->njobs = 0;
	iu_let_go(st);
	if (iu_plan(&next, st->backend, err, sizeof(err))) {
		iu_log(LOG_ERR, "the node changed (%s): %s; the agent stops", what, err);
		iu_teardown(&next); /* (the jobs' names with it: no job instance any more) */
		if (iu_jobs_indom() >= 0)
			st->indoms[iu_jobs_indom()].it_numinst = 0;
		free(st->v); /* no value any more (the domains stay pmda's until the agent ends) */
		st->v = NULL;
		st->nv = 0;
		return -1;
	}
	for (int m = 0; m < iu_nmetrics; m++) {
		if (iu_metrics[m].src == IU_JOB)
			continue; /* (the jobs' own numbering: iu_jobs.c) */
		came += renumber(&next, &st->indoms[m], m);
		for (int i = 0; i < st->indoms[m].it_numinst; i++)
			gone += inst_of(&next.indoms[m], st->indoms[m].it_set[i].i_name) < 0;
	}
	carry(&next, st);
	/* the new contents into the domains pmda holds; the old let go */
	for (int m = 0; m < iu_nmetrics; m++) {
		pmdaIndom keep = st->indoms[m];
		st->indoms[m].it_numinst = next.indoms[m].it_numinst;
		st->indoms[m].it_set = next.indoms[m].it_set;
		next.indoms[m] = keep;
	}
	pmdaIndom *theirs = st->indoms;
	pmdaMetric *pm = st->pmetrics;
	st->indoms = next.indoms;
	st->pmetrics = NULL;
	iu_teardown(st); /* the old values and instance names (the handle already let go) */
	next.indoms = theirs;
	next.pmetrics = pm;
	*st = next;
	iu_log(LOG_INFO, "the node changed (%s): %d values, %d instances gone, %d new", what, st->nv, gone, came);
	uncore_node_check(st->u); /* what the node is now */
	return 0;
}

int iu_node_follow(struct iu_state *st)
{
	if (!st->u)
		return -1; /* a change it could not follow ended its counting */
	int changed = uncore_node_check(st->u);
	if (changed < 0 && !st->said_node)
		iu_log(LOG_WARNING, "the node's changes are not followed: %s", uncore_error());
	st->said_node |= changed < 0;
	return changed > 0 ? follow(st, changed) : 0;
}
