/*
 * The public functions that touch a handle's mutable state, as implemented (name_impl).  api.c wraps
 * each in the handle's lock, so that one handle may be used from several threads at once (uncore.h).
 * Implementations call each other through the public names: the lock is recursive.
 */
#ifndef UNCORE_API_H
#define UNCORE_API_H

#include "uncore.h"

int uncore_load_events_impl(uncore_t *u, const char *file);
int uncore_session_set_cpu_impl(uncore_session_t *s, int cpu);
int uncore_num_events_impl(const uncore_t *u);
int uncore_event_info_impl(const uncore_t *u, int idx, struct uncore_event_info *out);
int uncore_event_find_impl(const uncore_t *u, const char *name);
int uncore_event_qualifiers_impl(const uncore_t *u, int idx, struct uncore_qualifier *out, int max);
void uncore_get_stats_impl(const uncore_t *u, struct uncore_stats *out);
void uncore_set_force_impl(uncore_t *u, int force);
void uncore_set_scaling_impl(uncore_t *u, int on);
int uncore_session_times_impl(const uncore_session_t *s, int ev, int socket, int box, uint64_t *enabled,
			      uint64_t *running);
int uncore_load_metrics_impl(uncore_t *u, const char *file);
int uncore_metric_find_impl(uncore_t *u, const char *name);
int uncore_metric_info_impl(uncore_t *u, int idx, struct uncore_metric_info *out);
int uncore_num_metrics_impl(uncore_t *u);
int uncore_session_add_metric_impl(uncore_session_t *s, const char *name);
int uncore_session_metric_value_impl(const uncore_session_t *s, int m, int socket, int box, int window, double *out);
const char *uncore_session_metric_name_impl(const uncore_session_t *s, int m);
int uncore_session_num_metrics_impl(const uncore_session_t *s);
uint64_t uncore_session_metric_read_time_ns_impl(const uncore_session_t *s, int m, int socket, int box);
int uncore_session_new_impl(uncore_t *u, uncore_session_t **out);
int uncore_session_add_impl(uncore_session_t *s, const char *spec);
int uncore_session_start_impl(uncore_session_t *s);
int uncore_session_read_impl(uncore_session_t *s);
int uncore_session_sample_impl(uncore_session_t *s);
int uncore_session_overflows_impl(uncore_session_t *s, uncore_overflow_t *out, int max);
int uncore_session_stop_impl(uncore_session_t *s);
void uncore_session_free_impl(uncore_session_t *s);
int uncore_session_value_impl(const uncore_session_t *s, int ev, int socket, int box, uint64_t *out);
int uncore_session_failed_box_impl(const uncore_session_t *s, int ev, int socket, int box, char *buf, size_t len);
int uncore_session_metric_failed_box_impl(const uncore_session_t *s, int m, int socket, int box, char *buf, size_t len);
int uncore_session_event_sockets_impl(const uncore_session_t *s, int ev, int *sockets, int max);
int uncore_session_event_boxes_impl(const uncore_session_t *s, int ev, int socket);
const char *uncore_session_event_name_impl(const uncore_session_t *s, int ev);
int uncore_session_num_events_impl(const uncore_session_t *s);
uint64_t uncore_session_elapsed_ns_impl(const uncore_session_t *s);
uint64_t uncore_session_read_time_ns_impl(const uncore_session_t *s, int ev, int socket, int box);
uint64_t uncore_session_max_read_interval_ns_impl(const uncore_session_t *s);

/* The handle's lock (recursive); a session's handle. */
void handle_lock(const uncore_t *u);
void handle_unlock(const uncore_t *u);

#endif
