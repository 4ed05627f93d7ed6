/* Public functions that touch a handle's mutable state, each under the handle's lock (open/open.h). */
#include "open/open.h"
#include "health/health.h"
#include "health/health_devices.h"
#include "memory/memory.h"
#include "numa/numa.h"
#include "api_node.h"
#include "open/uncore_priv.h"

#define H(s) session_owner(s)

/* ret name(params): lock the handle h, call name_impl(args), unlock. */
#define LOCKED(ret, name, params, args, h)                                                                       \
	ret name params                                                                                          \
	{                                                                                                         \
		handle_lock(h);                                                                                   \
		ret r_ = name##_impl args;                                                                        \
		handle_unlock(h);                                                                                 \
		return r_;                                                                                        \
	}
#define LOCKED_VOID(name, params, args, h)                                                                       \
	void name params                                                                                          \
	{                                                                                                         \
		handle_lock(h);                                                                                   \
		name##_impl args;                                                                                 \
		handle_unlock(h);                                                                                 \
	}

LOCKED(int, uncore_load_events, (uncore_t *u, const char *file), (u, file), u)
LOCKED(int, uncore_num_events, (const uncore_t *u), (u), u)
LOCKED(int, uncore_event_info, (const uncore_t *u, int idx, struct uncore_event_info *out), (u, idx, out), u)
LOCKED(int, uncore_deprecated_info, (const uncore_t *u, int i, struct uncore_event_info *out, const char **replacement),
       (u, i, out, replacement), u)
LOCKED(int, uncore_sim_traffic, (uncore_t *u, int socket, double read_bps, double write_bps), (u, socket, read_bps, write_bps), u)
LOCKED(int, uncore_sim_workload_cpus,
       (uncore_t *u, int n, const char *const *cpus, const double *read_bytes, const double *write_bytes, uint64_t ns),
       (u, n, cpus, read_bytes, write_bytes, ns), u)
LOCKED(int, uncore_sim_workload, (uncore_t *u, int socket, double read_bytes, double write_bytes, uint64_t ns),
       (u, socket, read_bytes, write_bytes, ns), u)
LOCKED(int, uncore_sim_workload_on,
       (uncore_t *u, int socket, const char *memory, double read_bytes, double write_bytes, uint64_t ns),
       (u, socket, memory, read_bytes, write_bytes, ns), u)
LOCKED(int, uncore_resctrl_bytes, (uncore_t *u, int socket, uint64_t *bytes), (u, socket, bytes), u)
LOCKED(int, uncore_alias_info, (const uncore_t *u, int i, struct uncore_alias_info *out), (u, i, out), u)
LOCKED(int, uncore_event_find, (const uncore_t *u, const char *name), (u, name), u)
LOCKED(int, uncore_event_qualifiers, (const uncore_t *u, int idx, struct uncore_qualifier *out, int max), (u, idx, out, max), u)
LOCKED_VOID(uncore_get_stats, (const uncore_t *u, struct uncore_stats *out), (u, out), u)
LOCKED_VOID(uncore_set_force, (uncore_t *u, int force), (u, force), u)
LOCKED_VOID(uncore_set_local_reads, (uncore_t *u, int on), (u, on), u)
LOCKED_VOID(uncore_set_scaling, (uncore_t *u, int on), (u, on), u)
LOCKED(int, uncore_load_metrics, (uncore_t *u, const char *file), (u, file), u)
LOCKED(int, uncore_metric_find, (uncore_t *u, const char *name), (u, name), u)
LOCKED(int, uncore_metric_here, (uncore_t *u, int idx), (u, idx), u)
LOCKED(int, uncore_metric_info, (uncore_t *u, int idx, struct uncore_metric_info *out), (u, idx, out), u)
LOCKED(int, uncore_num_metrics, (uncore_t *u), (u), u)
/* A metric of the DRAM peak (mem_bw_peak_share's peak_bw) reads the peaks the node's memory population hands down
 * (handle.h mem_peak): the population built here, when the metric is added, where it is not yet. */
int uncore_session_add_metric(uncore_session_t *s, const char *name)
{
	uncore_t *u = H(s);
	handle_lock(u);
	int m = uncore_session_add_metric_impl(s, name);
	if (m >= 0 && u->mem_peak_wanted && !u->mem_peak_set)
		mem_pop_get(u); /* (where it cannot be built, the peaks stay unknown: the metric has no value) */
	handle_unlock(u);
	return m;
}
LOCKED(int, uncore_session_metric_value, (const uncore_session_t *s, int m, int socket, int box, int window, double *out),
       (s, m, socket, box, window, out), H(s))
LOCKED(const char *, uncore_session_metric_name, (const uncore_session_t *s, int m), (s, m), H(s))
LOCKED(int, uncore_session_num_metrics, (const uncore_session_t *s), (s), H(s))
LOCKED(uint64_t, uncore_session_metric_read_time_ns, (const uncore_session_t *s, int m, int socket, int box),
       (s, m, socket, box), H(s))
LOCKED(int, uncore_session_new, (uncore_t *u, uncore_session_t **out), (u, out), u)
LOCKED(int, uncore_session_add, (uncore_session_t *s, const char *spec), (s, spec), H(s))
LOCKED(int, uncore_session_set_cpu, (uncore_session_t *s, int cpu), (s, cpu), H(s))
LOCKED(int, uncore_session_allow_refused, (uncore_session_t *s, int on), (s, on), H(s))
LOCKED(int, uncore_session_refused, (const uncore_session_t *s), (s), H(s))
/* The node's facts a read takes built first (api_node.c), its health planned: a read builds none */
int uncore_session_start(uncore_session_t *s)
{
	handle_lock(H(s));
	api_node_build_reads(H(s));
	int rc = uncore_session_start_impl(s);
	if (!rc)
		health_start(s); /* (what its reads are judged on, planned now too) */
	handle_unlock(H(s));
	return rc;
}
LOCKED(int, uncore_session_node_value, (uncore_session_t *s, int m, int node, int window, double *out),
       (s, m, node, window, out), H(s))
/* int name(s): locked, and the read it ends with judged (health/health.c) */
#define JUDGED(name)                                                                                             \
	int name(uncore_session_t *s)                                                                            \
	{                                                                                                         \
		handle_lock(H(s));                                                                                \
		int rc = name##_impl(s);                                                                          \
		health_after_read(s, rc);                                                                         \
		handle_unlock(H(s));                                                                              \
		return rc;                                                                                        \
	}
JUDGED(uncore_session_read)
JUDGED(uncore_session_stop)
LOCKED(int, uncore_session_health, (const uncore_session_t *s, struct uncore_health *out, int max),
       ((uncore_session_t *)s, out, max), H(s))
LOCKED(int, uncore_session_health_changes, (uncore_session_t *s, struct uncore_health *out, int max), (s, out, max), H(s))
LOCKED(unsigned, uncore_session_event_health, (const uncore_session_t *s, int ev, int socket, int box),
       ((uncore_session_t *)s, ev, socket, box), H(s))
LOCKED(unsigned, uncore_session_metric_health, (const uncore_session_t *s, int m, int socket, int box),
       ((uncore_session_t *)s, m, socket, box), H(s))
LOCKED(int, uncore_session_device_check, (const uncore_session_t *s, struct uncore_device_check *out, int max),
       ((uncore_session_t *)s, out, max), H(s))
LOCKED(int, uncore_session_watch_energy, (uncore_session_t *s, const struct uncore_energy *e), (s, e), H(s))
LOCKED(int, uncore_session_add_device_ports, (uncore_session_t *s), (s), H(s))
LOCKED(int, uncore_session_verify, (uncore_session_t *s, char *buf, size_t len), (s, buf, len), H(s))
LOCKED(int, uncore_session_sample, (uncore_session_t *s), (s), H(s))
LOCKED(int, uncore_session_overflows, (uncore_session_t *s, uncore_overflow_t *out, int max), (s, out, max), H(s))
LOCKED(int, uncore_session_times,
       (const uncore_session_t *s, int ev, int socket, int box, uint64_t *enabled, uint64_t *running),
       (s, ev, socket, box, enabled, running), H(s))
LOCKED(int, uncore_session_value, (const uncore_session_t *s, int ev, int socket, int box, uint64_t *out),
       (s, ev, socket, box, out), H(s))
LOCKED(int, uncore_session_interval_value, (const uncore_session_t *s, int ev, int socket, int box, uint64_t *out),
       (s, ev, socket, box, out), H(s))
LOCKED(int, uncore_session_failed_box, (const uncore_session_t *s, int ev, int socket, int box, char *buf, size_t len),
       (s, ev, socket, box, buf, len), H(s))
LOCKED(int, uncore_session_metric_failed_box,
       (const uncore_session_t *s, int m, int socket, int box, char *buf, size_t len), (s, m, socket, box, buf, len), H(s))
LOCKED(int, uncore_session_metric_times,
       (const uncore_session_t *s, int m, int socket, int box, uint64_t *enabled, uint64_t *running),
       (s, m, socket, box, enabled, running), H(s))
LOCKED(int, uncore_session_event_sockets, (const uncore_session_t *s, int ev, int *sockets, int max),
       (s, ev, sockets, max), H(s))
LOCKED(int, uncore_session_event_boxes, (const uncore_session_t *s, int ev, int socket), (s, ev, socket), H(s))
LOCKED(int, uncore_session_box_die, (const uncore_session_t *s, int ev, int socket, int box), (s, ev, socket, box), H(s))
LOCKED(const char *, uncore_session_event_name, (const uncore_session_t *s, int ev), (s, ev), H(s))
LOCKED(double, uncore_session_event_scale, (const uncore_session_t *s, int ev, const char **unit), (s, ev, unit), H(s))
LOCKED(int, uncore_session_num_events, (const uncore_session_t *s), (s), H(s))
LOCKED(uint64_t, uncore_session_elapsed_ns, (const uncore_session_t *s), (s), H(s))
LOCKED(uint64_t, uncore_session_read_time_ns, (const uncore_session_t *s, int ev, int socket, int box),
       (s, ev, socket, box), H(s))
LOCKED(uint64_t, uncore_session_max_read_interval_ns, (const uncore_session_t *s), (s), H(s))
LOCKED(double, uncore_session_estimate_read_ns, (const uncore_session_t *s, double interval_s), (s, interval_s), H(s))

/* Freed under its handle's lock (the handle outlives it). */
void uncore_session_free(uncore_session_t *s)
{
	if (!s)
		return;
	uncore_t *u = H(s);
	handle_lock(u);
	health_free(s);
	session_metrics_release(s); /* the metrics layer's part of the session, then the session */
	uncore_session_free_impl(s);
	handle_unlock(u);
}
