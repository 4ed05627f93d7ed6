/* The node object (node.h): its facts' slots, their builds counted, what a read takes of them. */
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

void *node_fact(const uncore_t *u, enum node_fact f)
{
	static const char *const what[NODE_FACTS] = { "NUMA map", "device map", "uncore clock-limit entries",
						      "energy domains", "memory population" };
	const struct node_slot *s = u->node ? &u->node->s[f] : NULL;
	if (s && s->state > 0)
		return s->fact;
	if (s && s->state < 0)
		return uc_err("%s", s->why), NULL;
	return uc_err("the node's %s is not built: a read takes it as built when the front end planned "
		      "(uncore_node_build) or its session started", what[f]), NULL;
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
	node_release(u);
	free(u->node);
	u->node = NULL;
}

void node_release(uncore_t *u)
{
	if (u->node)
		release_facts(u->node);
}
