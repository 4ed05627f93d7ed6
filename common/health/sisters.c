/*
 * Sister boxes' clocks (health's twin condition, doc/health.md).  The boxes of a unit on one die count one
 * clock: every CBo/CHA the ring's or mesh's (one uncore clock a die: Linux intel-uncore-frequency sets it per
 * die), every channel its controller's DCLK ("never changes frequency", seed 000 L2256).  A box whose count of
 * it falls behind its sisters' or runs ahead, beyond what its read window explains, counted something else
 * for part of the interval: another agent that reprogrammed the box and put its control words back before
 * the library read them (the read-back sees the words, not what they counted in between), or a counter that
 * stopped and went again.  The boxes' median is the reference: one odd box of three or more cannot move it.
 * Two counters of one clock on the same box (a fixed one the borrower leaves, a general one it takes) are
 * held against each other the same way, where a box has no sisters (the UBox) or the session counts one.
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

/* A box's rate of one clock, where it counted: 1, else 0. */
static int box_rate(const struct session_box_view *b, double *hz)
{
	if (b->failed || b->flags || !b->ns || !b->delta)
		return 0;
	*hz = (double)b->delta * 1e9 / (double)b->ns;
	return 1;
}

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
			if (b->die == die && !b->freerun && box_rate(b, &r[m]))
				m++;
		}
		if (m >= 3) {
			qsort(r, (size_t)m, sizeof(r[0]), by_rate);
			double ref = m % 2 ? r[m / 2] : (r[m / 2 - 1] + r[m / 2]) / 2;
			for (int i = 0; i < n; i++) {
				const struct session_box_view *b = &v[i];
				double hz;
				if (b->die != die || b->freerun || !box_rate(b, &hz))
					continue;
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

int sisters_pair_odd(const uncore_session_t *s, int a, int b, int socket, double tol, double skew_ns,
		     struct sister_odd *out, int max)
{
	struct session_box_view va[SISTERS_MAX], vb[SISTERS_MAX];
	int na = session_event_views(s, a, socket, va, SISTERS_MAX), nb = session_event_views(s, b, socket, vb, SISTERS_MAX);
	int odd = 0;
	for (int i = 0; i < na; i++)
		for (int j = 0; j < nb; j++) {
			double x, y;
			if (va[i].box != vb[j].box || strcmp(va[i].unit, vb[j].unit) || !box_rate(&va[i], &x) || !box_rate(&vb[j], &y))
				continue;
			uint64_t ns = va[i].ns < vb[j].ns ? va[i].ns : vb[j].ns;
			if (fabs(x - y) <= (tol + skew(skew_ns, ns)) * fmax(x, y))
				continue;
			if (odd < max)
				out[odd] = (struct sister_odd){ va[i].unit, va[i].box, 0, x, y };
			odd++;
		}
	return odd;
}
