/*
 * Sessions, as the layers above see them (metrics, the public API): their implementations of the
 * public session calls, and what the metric code asks of a session.
 */
#ifndef UNCORE_SESSION_H
#define UNCORE_SESSION_H

#include "handle/handle.h"
#include "events/events.h"
#include "claims.h"

/* A metric bound to a session: the session's event index of each of its events (the session keeps an
 * array of them, session_metrics()). */
struct session_metric {
	int metric;
	int *ev;
};
/* Session internals the metric code uses (session.c). */
/* session_window_value() returns UNCORE_BOX_FAILED when a box the event needs has failed (the reason is
 * in uncore_error()) */
int session_window_value(const uncore_session_t *s, int ev, int socket, int box, int window, uint64_t *out);
uint64_t session_window_ns(const uncore_session_t *s, int window);
uint64_t session_event_window_ns(const uncore_session_t *s, int ev, int socket, int box, int window, int *n);
int session_find_event(const uncore_session_t *s, const char *spec);
int session_truncate(uncore_session_t *s, int nevs);
struct session_metric **session_metrics(uncore_session_t *s, int **n);
const struct session_metric *session_metric_get(const uncore_session_t *s, int m);
uncore_t *session_owner(const uncore_session_t *s);
/* What health/ watches of a session: the k-th box (0..) an event counts on a socket, over the caller's last
 * interval (session_event_box: 0, or -1 past the last); what the reads saw of the box's registers; and the
 * place where health keeps its conditions (NULL until it allocates them; the session never frees it). */
#define SESS_BOX_ALLONES 1 /* a counter read all ones (a device gone, a bus error): nothing of it was counted */
#define SESS_BOX_BEYOND 2  /* a count beyond the counter's width, or more than any event counts in the time */
struct session_box_view {
	const char *unit;  /* its unit's name ("imc") */
	int box;           /* its number in the unit */
	uint64_t delta, ns; /* the count over the interval, and the interval */
	int flags;         /* SESS_BOX_* */
	int taken;         /* another agent reprogrammed it (it failed) */
	int failed;        /* it is no longer counted (taken or a read error) */
	int freerun;       /* a free-running counter */
	int moved;         /* any counter of its programming counted in the interval */
	int die;           /* its die in the socket (0 where the socket has one) */
};
int session_event_box(const uncore_session_t *s, int ev, int socket, int k, struct session_box_view *out);
/* ... every box of event ev on socket at once, at most max: how many */
int session_event_views(const uncore_session_t *s, int ev, int socket, struct session_box_view *out, int max);
/* Bounds of the rates (counts a second) of event ev's boxes on socket that a box-by-box judgement looks at
 * (not failed, no flag, a window): every one is at most *hi, and every one that counted at least *lo
 * (INFINITY if none did); the largest count over the shortest window and the least over the longest, so
 * as tight as the boxes' windows agree.  Also their longest window; returns how many boxes there were. */
int session_event_rate_span(const uncore_session_t *s, int ev, int socket, double *lo, double *hi, uint64_t *max_ns);
/* The k-th box of event ev on socket (as session_event_views gives them), whose counters the read found
 * standing while its sisters counted: every control word read back at once (direct backend), for a take-over
 * the rotation (session_readback.c) has not come round to yet.  1: another agent changed one, and the box is
 * given up as taken (the caller's next read names it); 0: they hold (or nothing to read back); -1: not read. */
int session_event_box_taken(uncore_session_t *s, int ev, int socket, int k);
/* The caller's last read: every counter counted in its interval, and no box shows a flag, failed or was
 * taken (the usual read, in which no box-by-box condition can stand) */
int session_read_quiet(const uncore_session_t *s);
struct health;
struct health **session_health(uncore_session_t *s);
/* A die the caller's last read found frozen by an overflow that no session of this handle services (a
 * sampler killed or stopped before it serviced it: session_freeze.c), the i-th (0, or -1 past the last). */
struct session_frozen {
	int socket, die;
	int pid;         /* the sampling process whose counter's overflow holds the freeze (0: no claim explains it) */
	char state;      /* 0: it had died (its boxes were restored and the die counts again); else its state in
			  * /proc/PID/stat ('T': stopped, 't': traced, 'R', 'S' ...; '?': unknown) */
	uint64_t status; /* the die's global overflow status as found (its first word that had a bit set) */
};
int session_frozen(const uncore_session_t *s, int i, struct session_frozen *out);

/* Whether event spec, in a session started after s (as the per-job attribution's sampled event, beside the
 * default set), would find on every box it counts on a counter s leaves free and filter bits s does not set
 * otherwise: 0; 1 with why it would not (the box, the event, the counters or bits and what of s takes them);
 * -1 when spec is not an event here.  Call with the handle locked (session_clash.c). */
int session_joins(const uncore_session_t *s, const char *spec, char *why, size_t len);
/* How long until a running session of the handle must be sampled (UINT64_MAX: none runs), and a
 * sample of those that are due. */
uint64_t session_next_sample_ns(const uncore_t *u, uint64_t now);
/* At close: clear the records of sessions that left while the claims lock was held elsewhere. */
void session_claims_settle(uncore_t *u);
void session_sample_due(uncore_t *u, uint64_t now);


/* The public session calls, as implemented (api.c wraps each in the handle's lock). */
int uncore_session_set_cpu_impl(uncore_session_t *s, int cpu);
int uncore_session_allow_refused_impl(uncore_session_t *s, int on);
int uncore_session_refused_impl(const uncore_session_t *s);
void uncore_set_scaling_impl(uncore_t *u, int on);
int uncore_session_times_impl(const uncore_session_t *s, int ev, int socket, int box, uint64_t *enabled,
			      uint64_t *running);
int uncore_session_new_impl(uncore_t *u, uncore_session_t **out);
int uncore_session_add_impl(uncore_session_t *s, const char *spec);
int uncore_session_start_impl(uncore_session_t *s);
int uncore_session_verify_impl(uncore_session_t *s, char *buf, size_t len);
int uncore_session_read_impl(uncore_session_t *s);
int uncore_session_sample_impl(uncore_session_t *s);
int uncore_session_overflows_impl(uncore_session_t *s, uncore_overflow_t *out, int max);
int uncore_session_stop_impl(uncore_session_t *s);
void uncore_session_free_impl(uncore_session_t *s);
int uncore_session_value_impl(const uncore_session_t *s, int ev, int socket, int box, uint64_t *out);
int uncore_session_interval_value_impl(const uncore_session_t *s, int ev, int socket, int box, uint64_t *out);
int uncore_session_failed_box_impl(const uncore_session_t *s, int ev, int socket, int box, char *buf, size_t len);
int uncore_session_event_sockets_impl(const uncore_session_t *s, int ev, int *sockets, int max);
int uncore_session_event_boxes_impl(const uncore_session_t *s, int ev, int socket);
int uncore_session_box_die_impl(const uncore_session_t *s, int ev, int socket, int box);
const char *uncore_session_event_name_impl(const uncore_session_t *s, int ev);
double uncore_session_event_scale_impl(const uncore_session_t *s, int ev, const char **unit);
int uncore_session_num_events_impl(const uncore_session_t *s);
uint64_t uncore_session_elapsed_ns_impl(const uncore_session_t *s);
uint64_t uncore_session_read_time_ns_impl(const uncore_session_t *s, int ev, int socket, int box);
uint64_t uncore_session_max_read_interval_ns_impl(const uncore_session_t *s);
double uncore_session_estimate_read_ns_impl(const uncore_session_t *s, double interval_s);

#endif
