/*
 * The node changed under the plugin (uncore_node_check at each dispatching read, issue 99 point 2): the values
 * planned again on the node as it is now -- the old session let go, the configuration set up and started again --
 * each cumulative count and each socket's energy carried over (its total goes on from the last it dispatched or,
 * energy, read at the change; never a re-read of the whole count), the values of what went away no longer sent,
 * those of what came sent from now on, and one line said.
 */
#include <string.h>
#include "iu_collectd.h"

static int same(const struct iu_series *a, const struct iu_series *b)
{
	return !strcmp(a->plugin_instance, b->plugin_instance) && !strcmp(a->type, b->type) &&
	       !strcmp(a->type_instance, b->type_instance);
}

/* Series of a not in b */
static int missing(const struct iu_state *a, const struct iu_state *b)
{
	int n = 0;
	for (int i = 0; i < a->nseries; i++) {
		int found = 0;
		for (int j = 0; j < b->nseries && !found; j++)
			found = same(&a->series[i], &b->series[j]);
		n += !found;
	}
	return n;
}

int iu_node_follow(const struct iu_config *c, struct iu_state *st, int changed, uint64_t energy_sample_ns)
{
	struct iu_state old = *st, next;
	char err[1024], what[128];
	uncore_node_changes(changed, what, sizeof(what));
	iu_energy_keep(&old); /* its joules up to now, carried as the counts are */
	iu_let_go(&old); /* its boxes free for the new session; its series kept for their counts */
	memset(st, 0, sizeof(*st));
	if (iu_setup(c, &next, err, sizeof(err)) || iu_start(&next, err, sizeof(err))) {
		ERROR("%s plugin: the node changed (%s): %s; nothing is sent until the plugin is loaded again", IU_NAME, what, err);
		iu_teardown(&next);
		uncore_job_tally_free(&old.tally);
		free(old.series);
		return -1;
	}
	next.tally = old.tally; /* each job's bytes go on, and what was said of the jobs: before their scan */
	for (int i = 0; i < next.nseries; i++)
		for (int j = 0; j < old.nseries; j++)
			if (next.series[i].derive && same(&next.series[i], &old.series[j])) {
				next.series[i].base = old.series[j].last;
				break;
			}
	memcpy(next.energy_base, old.energy_base, sizeof(next.energy_base));
	if (c->per_job && iu_jobs_start(&next, err, sizeof(err)))
		ERROR("%s plugin: %s; the other values go on", IU_NAME, err);
	iu_energy_start(&next, energy_sample_ns);
	next.wall = old.wall; /* (stamps never back over the restart) */
	next.every = old.every;
	next.calls = old.calls;
	next.period_ns = old.period_ns;
	INFO("%s plugin: the node changed (%s): %d values, %d gone, %d new", IU_NAME, what, next.nseries,
	     missing(&old, &next), missing(&next, &old));
	free(old.series);
	uncore_node_check(next.u); /* what the node is now */
	*st = next;
	return 0;
}
