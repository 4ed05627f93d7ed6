/* Memory traffic by job on a shared node (issue 46 point 3, doc/jobs.md "Shared nodes"): attrib.c samples
 * each job core's LLC misses at one CBo/CHA through its tid filter, rotating cores over the boxes. */
#ifndef UNCORE_ATTRIB_H
#define UNCORE_ATTRIB_H

#include <stddef.h>

struct attrib_plat {
	const char *platform;  /* "spr" */
	const char *event;     /* the TOR count of one thread's misses, with any filter it needs */
	int tid_core_lo;       /* the core id starts at this bit of the tid, the thread below it */
	int tid_bits;          /* the tid field's width: a core id above it cannot be named */
	const char *counts;    /* what it counts, for the docs and messages */
};

/* The platform's row, or NULL where none is known. */
const struct attrib_plat *attrib_plat_of(const char *platform);

struct uncore_session;
/* Whether the attribution's sampled event, started after session s, would find on each of its boxes a
 * counter and filter bits s leaves it: 0; 1 with why not (session_joins); -1 with an error.  0 where the
 * platform has no attribution (its start says so). */
int attrib_clash(struct uncore_session *s, char *why, size_t len);

#endif
