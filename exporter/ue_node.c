/*
 * The node changed under the exporter (uncore_node_check at each read, issue 99 point 2): the series planned
 * again on the node as it is now, as a SIGHUP reload does with the running options -- the old session's last
 * counts read, each counter that stays carried over (ue_carry: its total goes on from its value, never a
 * re-read of the whole count), the series of what went away dropped, those of what came started -- and one
 * line saying what changed.
 */
#include <stdlib.h>
#include <string.h>
#include "ue.h"
#include "ue_log.h"

/* Series of a not in b (by family and labels) */
static int missing(const struct ue_state *a, const struct ue_state *b)
{
	int n = 0;
	for (int i = 0; i < a->nseries; i++) {
		const struct ue_series *x = &a->series[i];
		int found = 0;
		for (int j = 0; j < b->nseries && !found; j++)
			found = !strcmp(a->fams[x->fam].name, b->fams[b->series[j].fam].name) && !strcmp(x->labels, b->series[j].labels);
		n += !found;
	}
	return n;
}

int ue_node_follow(const struct ue_config *c, struct ue_state *st, int changed, ue_start_fn start)
{
	struct ue_state old = *st, next;
	char err[1024], what[128];
	uncore_node_changes(changed, what, sizeof(what));
	ue_let_go(&old);
	if (start(c, &next, &old, err, sizeof(err))) {
		ue_log("the node changed (%s): %s; stopping", what, err);
		ue_teardown(&old);
		memset(st, 0, sizeof(*st));
		return -1;
	}
	ue_carry(&next, &old);
	ue_log("the node changed (%s): %d series, %d gone, %d new", what, next.nseries, missing(&old, &next),
	       missing(&next, &old));
	ue_teardown(&old);
	*st = next;
	return 0;
}

void ue_let_go(struct ue_state *old)
{
	ue_read(old);
	ue_jobs_stop(old);
	ue_energy_stop(old); /* its counters' files are the handle's (the perf backend's kernel): before it closes */
	uncore_session_free(old->s); /* its boxes are free for the new session */
	uncore_close(old->u);
	old->s = NULL;
	old->u = NULL;
}
