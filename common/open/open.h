/*
 * The public functions that touch a handle's mutable state, as implemented (name_impl).  api.c wraps
 * each in the handle's lock, so that one handle may be used from several threads at once (uncore.h).
 * The layers declare their own implementations (events.h, session.h, metrics.h) and call each other's
 * directly; these are the handle's, in uncore.c (health's are in health/health.h).
 */
#ifndef UNCORE_OPEN_H
#define UNCORE_OPEN_H

#include "uncore_priv.h"


int uncore_num_events_impl(const uncore_t *u);
int uncore_event_info_impl(const uncore_t *u, int idx, struct uncore_event_info *out);
int uncore_deprecated_info_impl(const uncore_t *u, int i, struct uncore_event_info *out, const char **replacement);
int uncore_alias_info_impl(const uncore_t *u, int i, struct uncore_alias_info *out);
int uncore_sim_traffic_impl(uncore_t *u, int socket, double read_bps, double write_bps);
int uncore_sim_workload_impl(uncore_t *u, int socket, double read_bytes, double write_bytes, uint64_t ns);
int uncore_sim_workload_on_impl(uncore_t *u, int socket, const char *memory, double read_bytes, double write_bytes,
				uint64_t ns);
int uncore_sim_workload_cpus_impl(uncore_t *u, int n, const char *const *cpus, const double *read_bytes,
				  const double *write_bytes, uint64_t ns);
int uncore_resctrl_bytes_impl(uncore_t *u, int socket, uint64_t *bytes);
int uncore_metric_here_impl(uncore_t *u, int idx);
int uncore_event_find_impl(const uncore_t *u, const char *name);
int uncore_event_qualifiers_impl(const uncore_t *u, int idx, struct uncore_qualifier *out, int max);
void uncore_get_stats_impl(const uncore_t *u, struct uncore_stats *out);
void uncore_set_force_impl(uncore_t *u, int force);
void uncore_set_local_reads_impl(uncore_t *u, int on);

#endif
