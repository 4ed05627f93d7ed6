/* Sister boxes' clocks, for health's twin condition (sisters.c, doc/health.md). */
#ifndef HEALTH_SISTERS_H
#define HEALTH_SISTERS_H

#include <stdint.h>
#include "open/uncore_priv.h"

/* The session's events that count a clock every box of their unit on a die shares: each box's count of
 * every cycle (no qualifier that counts some) of the uncore clock (CBo/CHA) or a channel's DCLK.  Their
 * indices in ev and kinds (enum health_clock) in kind, at most max: how many. */
int sisters_plan(const uncore_session_t *s, int *ev, int *kind, int max);

/* A box whose clock strays from its sisters', or from its twin on the box. */
struct sister_odd {
	const char *unit;
	int box, sisters; /* ... and how many boxes of its die were measured with it (0: its twin's) */
	double hz, ref;   /* its clock and its die's (the median box's), or its twin's, over the last interval */
};

/* The boxes of event ev on socket whose clock over the last interval strays from the median of their die's
 * boxes (at least 3 measured) by more than tol plus what reading each box's window skew_ns late at both ends
 * explains: at most max in out, how many there were. */
int sisters_odd(const uncore_session_t *s, int ev, int socket, double tol, double skew_ns, struct sister_odd *out,
		int max);

/* The boxes that count both events a and b (two counters of one clock on a box: a fixed one and a general
 * one, UNC_M_FIXED_DCLK and UNC_M_CLOCKTICKS) on socket whose counts of it disagree by more than tol plus the
 * window's skew: at most max in out (hz a's, ref b's), how many there were. */
int sisters_pair_odd(const uncore_session_t *s, int a, int b, int socket, double tol, double skew_ns,
		     struct sister_odd *out, int max);

#endif
