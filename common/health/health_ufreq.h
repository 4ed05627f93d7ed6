/* Health's view of the uncore clock's limits (doc/health.md uclkpinned, uclklimits): each socket's limits, read
 * at every read, and what a counted uncore clock says against them. */
#ifndef HEALTH_UFREQ_H
#define HEALTH_UFREQ_H

#include <stddef.h>
#include "uncore.h"

struct health_ufreq;
/* The limits now (*fp made at the first call; limits that cannot be read leave every clock unjudged). */
void health_ufreq_read(uncore_t *u, struct health_ufreq **fp);
void health_ufreq_free(struct health_ufreq *f);

enum { HEALTH_UFREQ_OK, HEALTH_UFREQ_PINNED, HEALTH_UFREQ_OUTSIDE };
/* A counted uncore clock of hz on socket k, measured to within slack (a share): pinned (the socket's limits
 * hold it at one clock below floor, the platform's lowest uncore clock, and it runs there while the socket
 * is busy with memory), outside the limits (above the highest; below the lowest on a busy socket where the
 * count is of every cycle: exact), or ok; why says which limits, for the condition's message. */
int health_ufreq_judge(const struct health_ufreq *f, int k, double hz, int busy, int exact, double slack, double floor,
		       char *why, size_t len);

#endif
