/* The node object (node.h): its facts' slots, their builds counted, and the caller's refresh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "node.h"
#include "util/error.h"

struct node {
	struct node_slot s[NODE_FACTS];
	int builds[NODE_FACTS]; /* since the handle opened: a refresh does not reset them */
};

struct node_slot *node_slot(uncore_t *u, enum node_fact f)
{
	if (!u->node && !(u->node = calloc(1, sizeof(*u->node))))
		return uc_err("out of memory"), NULL;
	return &u->node->s[f];
}

int node_ready(struct node_slot *s)
{
	if (s->state < 0)
		uc_err("%s", s->why);
	return s->state;
}

void node_built(uncore_t *u, struct node_slot *s, enum node_fact f, int rc)
{
	u->node->builds[f]++;
	s->state = rc ? -1 : 1;
	if (rc)
		snprintf(s->why, sizeof(s->why), "%s", uncore_error());
}

void node_builds(const uncore_t *u, int out[NODE_FACTS])
{
	for (int f = 0; f < NODE_FACTS; f++)
		out[f] = u->node ? u->node->builds[f] : 0;
}

/* The facts let go, the counts kept */
static void release_facts(struct node *n)
{
	for (int f = 0; f < NODE_FACTS; f++) {
		struct node_slot *s = &n->s[f];
		if (s->fact && s->release)
			s->release(s->fact);
		memset(s, 0, sizeof(*s));
	}
}

void node_free(uncore_t *u)
{
	if (u->node)
		release_facts(u->node);
	free(u->node);
	u->node = NULL;
}

int uncore_node_refresh(uncore_t *u)
{
	if (!u)
		return uc_err("no handle");
	handle_lock(u);
	if (u->node)
		release_facts(u->node);
	handle_unlock(u);
	return 0;
}
