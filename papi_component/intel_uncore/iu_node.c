/*
 * intel_uncore PAPI component: the node followed (issue 99 point 2).  The library's cheap check
 * (uncore_node_check) at each PAPI_start, PAPI_read and PAPI_stop; a change bumps a generation, said once
 * through PAPI's warning channel (PAPIWARN: stderr with PAPI_VERBOSE or a verbose error level), and each
 * EventSet planned at an older one is planned again at its next call (intel_uncore.c follow), its counts
 * carried over.
 */
#include "papi.h"
#include "papi_internal.h"
#include "iu.h"

static unsigned gen;       /* the node's changes seen so far */
static int said_unchecked; /* the check's own failure said (once) */

unsigned iu_node_gen(void) { return gen; }

unsigned iu_node_poll(uncore_t *u)
{
	char what[128];
	int changed = uncore_node_check(u);
	if (changed < 0 && !said_unchecked)
		PAPIWARN("intel_uncore: the node's changes are not followed: %s", uncore_error());
	said_unchecked |= changed < 0;
	if (changed > 0) {
		gen++;
		PAPIWARN("intel_uncore: the node changed (%s): each EventSet is planned again at its next call, its counts "
			 "carried over", uncore_node_changes(changed, what, sizeof(what)));
	}
	return gen;
}
