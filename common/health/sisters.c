/*
 * Sister boxes' clocks (health's twin condition, doc/health.md).  The boxes of a unit on one die count one
 * clock: every CBo/CHA the ring's or mesh's (one uncore clock a die: Linux intel-uncore-frequency sets it per
 * die), every channel its controller's DCLK ("never changes frequency", seed 000 L2256).  A box whose count of
 * it falls behind its sisters' or runs ahead, beyond what its read window explains, counted something else
 * for part of the interval: another agent that reprogrammed the box and put its control words back before
 * the library read them (the read-back sees the words, not what they counted in between), or a counter that
 * stopped and went again.  The boxes' median is the reference: one odd box of three or more cannot move it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sisters.h"
#include "clock_ranges.h"
#include "session/session.h"

#define SISTERS_MAX 256 /* boxes of a unit on a socket (health.c's VIEWS) */

int sisters_plan(const uncore_session_t *s, int *ev, int *kind, int max)
{
	int n = 0;
	for (int e = 0; e < uncore_session_num_events_impl(s) && n < max; e++) {
		int exact, k = health_clock_event(uncore_session_event_name_impl(s, e), &exact);
		if ((k == HEALTH_CLK_UNCORE || k == HEALTH_CLK_DRAM) && exact)
			ev[n] = e, kind[n++] = k;
	}
	return n;
}

static int by_rate(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* What reading a window of ns skew_ns late at each end may make its rate err by, for two such windows. */
static double skew(double skew_ns, uint64_t ns) { return ns ? 4 * skew_ns / (double)ns : INFINITY; }

int sisters_odd(const uncore_session_t *s, int ev, int socket, double tol, double skew_ns, struct sister_odd *out,
		int max)
{
	struct session_box_view v[SISTERS_MAX];
	double lo, hi, r[SISTERS_MAX];
	uint64_t ns;
	int odd = 0;
	/* every box within the least slack of any (its longest window's) of every other: none to look at */
	if (session_event_rate_span(s, ev, socket, &lo, &hi, &ns) < 3 || hi <= lo * (1 + tol + skew(skew_ns, ns)))
		return 0;
	int n = session_event_views(s, ev, socket, v, SISTERS_MAX);
	for (int die = 0; die < UC_MAX_DIES; die++) {
		int m = 0, more = 0;
		for (int i = 0; i < n; i++) {
			const struct session_box_view *b = &v[i];
			more |= b->die > die;
			/* a box that counted nothing is stopped's or silent's; one flagged or failed its own condition's */
			if (b->die == die && !b->failed && !b->flags && !b->freerun && b->ns && b->delta)
				r[m++] = (double)b->delta * 1e9 / (double)b->ns;
		}
		if (m >= 3) {
			qsort(r, (size_t)m, sizeof(r[0]), by_rate);
			double ref = m % 2 ? r[m / 2] : (r[m / 2 - 1] + r[m / 2]) / 2;
			for (int i = 0; i < n; i++) {
				const struct session_box_view *b = &v[i];
				if (b->die != die || b->failed || b->flags || b->freerun || !b->ns || !b->delta)
					continue;
				double hz = (double)b->delta * 1e9 / (double)b->ns;
				if (fabs(hz - ref) <= (tol + skew(skew_ns, b->ns)) * ref)
					continue;
				if (odd < max)
					out[odd] = (struct sister_odd){ b->unit, b->box, m, hz, ref };
				odd++;
			}
		}
		if (!more)
			break;
	}
	return odd;
}
