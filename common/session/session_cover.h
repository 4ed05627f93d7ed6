/*
 * What a metric's value on a socket or box covers, as the session counts it (session_cover.c): handed to the
 * metric code in one call with the session's metric, so that its evaluation asks the session nothing more but
 * its events' values.
 */
#ifndef UNCORE_SESSION_COVER_H
#define UNCORE_SESSION_COVER_H

#include <math.h>
#include "session.h"

struct session_cover {
	int socket;        /* the socket the call was for (-2 before the first: see session_metric_cover) */
	int measured;      /* one of its events is counted on the socket (a value of every socket: 1) */
	double packages;   /* perf's #num_packages (and #num_dies: one die a package where Linux has no die level) */
	double cores;      /* #num_cores: the cores of the sockets covered */
	double duration_s; /* the mean time its boxes counted over the window (timed metrics; else 0) */
	double peak;       /* 'peak_bw' of what the value covers (NaN until the memory population set it) */
};
/* The session's metric sm (nev events; timed: it divides by its duration) on socket and box (-1: every one)
 * over window, into out; out's socket and cores kept from the call before where it was for the same socket
 * (set out->socket to -2 before the first). */
void session_metric_cover(const uncore_session_t *s, const struct session_metric *sm, int nev, int timed, int socket,
			  int box, int window, struct session_cover *out);

#endif
