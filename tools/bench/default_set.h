/* The default set (uncore_select with nothing named) counting on a backend, for the benchmarks and the tests
 * that price or compare a read of it (tools/bench/bench_reads.c, tests/test_reads.c). */
#ifndef TOOLS_DEFAULT_SET_H
#define TOOLS_DEFAULT_SET_H

#include <stdlib.h>
#include "uncore.h"

/* Open spec with local reads on or off and start its default set for reads interval_s apart (0: the counter
 * limit alone decides), its series into *series (*n of them; free() it) where series is given: 0, or -1 (*u and
 * *s are set to what must be freed either way: uncore_session_free(*s), uncore_close(*u)). */
static inline int default_set_series(const char *spec, int local, double interval_s, uncore_t **u, uncore_session_t **s,
				     struct uncore_series **series, int *n)
{
	struct uncore_series *got = NULL;
	struct uncore_selection sel = { .interval_s = interval_s };
	char notice[512];
	int k = 0, rc;
	*u = NULL;
	*s = NULL;
	if (uncore_open(spec, u))
		return -1;
	uncore_set_local_reads(*u, local);
	rc = uncore_session_new(*u, s) || uncore_select(*u, *s, &sel, &got, &k, notice, sizeof(notice)) ||
	     uncore_session_start(*s) ? -1 : 0;
	if (series && !rc) {
		*series = got;
		*n = k;
	} else
		free(got);
	return rc;
}

/* The same without the series. */
static inline int default_set_start(const char *spec, int local, double interval_s, uncore_t **u, uncore_session_t **s)
{
	return default_set_series(spec, local, interval_s, u, s, NULL, NULL);
}

#endif
