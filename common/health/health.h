/* Health (health.c, doc/health.md), as the public API calls it: after every read of the caller, what the counts
 * say about the counters themselves. */
#ifndef UNCORE_HEALTH_H
#define UNCORE_HEALTH_H

#include "open/uncore_priv.h"

/* The read that just ended judged (rc its result, whose message is kept), and the
 * session's conditions freed. */
/* What the session's reads will be judged on, planned when it starts (api.c): the first read judges as the
 * hundredth does. */
void health_start(uncore_session_t *s);
void health_after_read(uncore_session_t *s, int rc);
void health_free(uncore_session_t *s);
int uncore_session_health_impl(uncore_session_t *s, struct uncore_health *out, int max);
int uncore_session_health_changes_impl(uncore_session_t *s, struct uncore_health *out, int max);
unsigned uncore_session_event_health_impl(uncore_session_t *s, int ev, int socket, int box);
unsigned uncore_session_metric_health_impl(uncore_session_t *s, int m, int socket, int box);
int uncore_session_watch_energy_impl(uncore_session_t *s, const struct uncore_energy *e);

int uncore_session_device_check_impl(uncore_session_t *s, struct uncore_device_check *out, int max);
/* A session event by the name it was added under (no qualifiers): its index, or -1. */
int health_event_named(const uncore_session_t *s, const char *name);

#endif
