/* Derived metrics, as the public API sees them: definitions, expressions, and metrics bound to sessions. */
#ifndef UNCORE_METRICS_H
#define UNCORE_METRICS_H

#include "handle/handle.h"
#include "session/session.h"
#include "metric_expr.h"

/* A derived metric: its definition and, once parsed, its expression. */
struct uc_metric {
	const char *name, *expr, *unit, *group, *desc;
	double scale;     /* value = expression x scale, in unit */
	struct mx_expr x; /* parsed, metric references inlined */
	int root;
	int state;        /* 0 not parsed, 1 being parsed, 2 parsed, 3 uses core events (skipped) */
	int type_idx;     /* the one unit all its events belong to, or -1 */
	int timed;        /* its expression uses the window's duration (a value spares working it out otherwise) */
};
int metrics_ensure(uncore_t *u);
void metrics_free(uncore_t *u);

void session_metrics_free(struct session_metric *m, int n);
/* Free the metrics bound to session s (before the session itself is freed). */
void session_metrics_release(uncore_session_t *s);
/* Metric name's events on socket (-1: every socket) and, where they are all of one unit, on box number box
 * alone (-1: every box): its session index, or -1 (uncore_session_add_metric once its spec is parsed; a
 * device group's port counters, devices/dev_counters.c) */
int session_add_metric_on(uncore_session_t *s, const char *name, int socket, int box);
int uncore_load_metrics_impl(uncore_t *u, const char *file);
int uncore_metric_find_impl(uncore_t *u, const char *name);
int uncore_metric_info_impl(uncore_t *u, int idx, struct uncore_metric_info *out);
int uncore_num_metrics_impl(uncore_t *u);
int uncore_session_add_metric_impl(uncore_session_t *s, const char *name);
int uncore_session_metric_value_impl(const uncore_session_t *s, int m, int socket, int box, int window, double *out);
/* Metric m's values on the n boxes (sockets[i], boxes[i]) summed in that order, as that many
 * uncore_session_metric_value_impl calls would (the first failing one's status), the metric worked out once
 * (a NUMA node's sum over its channels at every read: uncore_session_node_value). */
int session_metric_sum(const uncore_session_t *s, int m, const int *sockets, const int *boxes, int n, int window,
		       double *out);
const char *uncore_session_metric_name_impl(const uncore_session_t *s, int m);
int uncore_session_num_metrics_impl(const uncore_session_t *s);
uint64_t uncore_session_metric_read_time_ns_impl(const uncore_session_t *s, int m, int socket, int box);
int uncore_session_metric_failed_box_impl(const uncore_session_t *s, int m, int socket, int box, char *buf, size_t len);
int uncore_session_metric_times_impl(const uncore_session_t *s, int m, int socket, int box, uint64_t *enabled,
				     uint64_t *running);

#endif
