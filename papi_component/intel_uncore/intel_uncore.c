/*
 * intel_uncore: a PAPI 7.0 component over libuncore.  It lists the platform's
 * uncore events (and integral metrics) as native events, gives every
 * EventSet one library session, and leaves registers as found when the set
 * is cleaned up.  The backend follows UNCORE_BACKEND, so the simulator works
 * anywhere; when nothing can be accessed the component is disabled with the
 * library's reason.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "papi.h"
#include "papi_internal.h"
#include "papi_vector.h"
#include "papi_memory.h"
#include "iu.h"

#define IU_MAX_EVENTS 128

papi_vector_t _intel_uncore_vector;

typedef struct {
	int dummy;
} iu_context_t;

/* One per EventSet: its library session and what each PAPI slot reads. */
typedef struct {
	uncore_session_t *s;
	int n;
	int running;
	int cpu;                       /* PAPI_CPU_ATTACH: count on this CPU's socket (-1: every socket) */
	unsigned code[IU_MAX_EVENTS];  /* the native events, to rebuild the session when the CPU changes */
	struct {
		int metric; /* 0: event index in the session, 1: metric index, IU_GAUGE: uncore clock gauge (iu_ufreq.c),
			     IU_ENERGY: idx is the RAPL domain, IU_GONE: its unit went away (its count stays),
			     IU_PEAK: the DRAM peak (idx IU_PEAK_ITSELF) or its share (idx the session's mem_bw_total) */
		int idx, socket;
		int node;   /* a metric's NUMA node (its channels summed), -1: none */
	} slot[IU_MAX_EVENTS];
	uncore_energy_t *energy;       /* the energy events' counters (iu_energy.c), NULL: none asked */
	unsigned gen;                  /* the node's generation the session was planned at (iu_node.c) */
	long long carry[IU_MAX_EVENTS];  /* each count since PAPI_start up to the session's last plan (follow) */
	long long offset[IU_MAX_EVENTS]; /* values at the last PAPI_reset */
	long long values[IU_MAX_EVENTS];
} iu_control_t;

static uncore_t *U;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* PAPI's own table of error strings (papi_internal.c): a code for a message, which PAPI_strerror() and
 * PAPI_perror() give back.  PAPI 7.0's components have no other way to tell why. */
extern int _papi_hwi_publish_error(char *error);

/* Why an event or EventSet was refused, as an error code of its own: the library's reason reaches the
 * caller through PAPI_strerror(), and stderr only with PAPI_VERBOSE (PAPIERROR); dflt when PAPI cannot
 * store the message. */
static int refuse_why(int dflt, const char *what, const char *why)
{
	char msg[PAPI_HUGE_STR_LEN];
	int code;
	snprintf(msg, sizeof(msg), "intel_uncore: %s: %s", what, why);
	PAPIERROR("%s", msg);
	code = _papi_hwi_publish_error(msg);
	return code <= -PAPI_NUM_ERRORS ? code : dflt; /* past PAPI's fixed codes: the message's own */
}

static int refuse(int dflt, const char *what) { return refuse_why(dflt, what, uncore_error()); }

static void disable(const char *why)
{
	snprintf(_intel_uncore_vector.cmp_info.disabled_reason, PAPI_HUGE_STR_LEN, "%s", why);
}

static void free_pmu_names(void)
{
	for (int i = 0; i < PAPI_PMU_MAX; i++) {
		free(_intel_uncore_vector.cmp_info.pmu_names[i]);
		_intel_uncore_vector.cmp_info.pmu_names[i] = NULL;
	}
}

static int iu_init_component(int cidx)
{
	int rc = PAPI_OK;
	_intel_uncore_vector.cmp_info.CmpIdx = cidx;
	if (uncore_open(NULL, &U)) { /* UNCORE_BACKEND, read by the library (ignored when privileged), else auto */
		disable(uncore_error());
		rc = PAPI_ENOSUPP;
		goto out;
	}
	if (iu_names_init(U)) {
		disable("out of memory while listing uncore events");
		uncore_close(U);
		U = NULL;
		rc = PAPI_ENOMEM;
		goto out;
	}
	_intel_uncore_vector.cmp_info.num_native_events = iu_num_native();
	if (iu_pfm_pmus(U, _intel_uncore_vector.cmp_info.pmu_names, PAPI_PMU_MAX) < 0) {
		disable("out of memory while listing uncore PMU names");
		free_pmu_names();
		iu_names_fini();
		uncore_close(U);
		U = NULL;
		rc = PAPI_ENOMEM;
		goto out;
	}
	snprintf(_intel_uncore_vector.cmp_info.description, PAPI_MAX_STR_LEN, "Intel uncore PMON: %s%s",
		 uncore_platform_desc(U), uncore_is_simulated(U) ? " (SIMULATED)" : "");
out:
	_papi_hwd[cidx]->cmp_info.disabled = rc;
	return rc;
}

static int iu_shutdown_component(void)
{
	pthread_mutex_lock(&lock);
	free_pmu_names();
	iu_names_fini();
	uncore_close(U);
	U = NULL;
	pthread_mutex_unlock(&lock);
	return PAPI_OK;
}

static int iu_init_thread(hwd_context_t *ctx)
{
	(void)ctx;
	return PAPI_OK;
}

static int iu_shutdown_thread(hwd_context_t *ctx)
{
	(void)ctx;
	return PAPI_OK;
}

/* A slot whose value is a gauge's, read as it is now: no count to carry over, reset or take from a start. */
static int gauge(int metric) { return metric == IU_GAUGE || metric == IU_PEAK; }

/* The socket a gauge of socket (-1: none named) reads: an attached EventSet's CPU's where it names none. */
static int gauge_socket(const iu_control_t *c, int socket)
{
	return socket >= 0 || c->cpu < 0 ? socket : uncore_cpu_socket(U, c->cpu);
}

static int iu_init_control_state(hwd_control_state_t *ctl)
{
	memset(ctl, 0, sizeof(iu_control_t));
	((iu_control_t *)ctl)->cpu = -1;
	return PAPI_OK;
}

static void drop_session(iu_control_t *c)
{
	uncore_session_free(c->s); /* restores every register the session programmed */
	c->s = NULL;
	uncore_energy_free(c->energy);
	c->energy = NULL;
	c->n = 0;
	c->running = 0;
}

/* An event of the session, reusing one a metric added already (one counter, one value). */
static int session_event(uncore_session_t *s, const char *spec)
{
	for (int e = 0; e < uncore_session_num_events(s); e++)
		if (!strcmp(uncore_session_event_name(s, e), spec))
			return e;
	return uncore_session_add(s, spec);
}

/* Why a metric's NUMA node has no value of it (issue 67): a node whose channels cannot be known (the library's
 * reason), or of another kind of memory; NULL when it has one. */
static const char *node_refused(const struct iu_target *t)
{
	int rc = uncore_numa_metric_serves(U, uncore_metric_find(U, t->spec), t->node);
	return rc == 1 ? NULL : rc < 0 ? uncore_error() : "no channel of this metric's memory serves the node (doc/numa.md)";
}

/* Slot i's unit went away with a change of the node (follow): it counts no more, its count stays; what and why
 * added to gone's list. */
static void lost(iu_control_t *c, int i, const char *what, const char *why, char *gone, size_t len)
{
	size_t n = strlen(gone);
	c->slot[i].metric = IU_GONE;
	if (n < len)
		snprintf(gone + n, len - n, "%s%s (%s)", n ? "; " : "", what, why);
}

/* Build the EventSet's session from its n native events in c->code (under the lock).  With gone (a change of the
 * node followed), a slot that cannot be counted now is left out (lost) rather than the EventSet refused. */
static int build(iu_control_t *c, int count, char *gone, size_t len)
{
	drop_session(c);
	c->gen = iu_node_gen();
	if (count == 0)
		return PAPI_OK;
	if (uncore_session_new(U, &c->s))
		return PAPI_ENOMEM;
	int detached = c->cpu >= 0 && uncore_session_set_cpu(c->s, c->cpu);
	if (detached && !gone) {
		int rc = refuse(PAPI_EINVAL, "PAPI_CPU_ATTACH");
		drop_session(c);
		return rc;
	}
	for (int i = 0; i < count; i++) {
		struct iu_target t;
		int idx;
		if (iu_target_of(c->code[i], &t)) {
			drop_session(c);
			return PAPI_ENOEVNT;
		}
		if (detached && t.metric != IU_GAUGE) { /* the CPU it was attached to went offline */
			lost(c, i, t.spec, uncore_error(), gone, len);
			continue;
		}
		if (t.metric == IU_ENERGY) {
			if ((!c->energy && uncore_energy_new(U, NULL, &c->energy)) ||
			    (t.socket >= 0 && !uncore_energy_has(c->energy, t.socket, t.domain))) {
				if (gone) {
					lost(c, i, t.spec, uncore_error(), gone, len);
					continue;
				}
				int rc = refuse(PAPI_ENOEVNT, t.spec);
				drop_session(c);
				return rc;
			}
			c->slot[i].metric = IU_ENERGY;
			c->slot[i].idx = t.domain;
			c->slot[i].socket = t.socket;
			continue;
		}
		const char *why = NULL;
		if (t.metric == IU_PEAK)
			idx = iu_peak_plan(U, c->s, iu_peak_find(t.spec, strcspn(t.spec, ":")), gauge_socket(c, t.socket), &why);
		else
			idx = t.metric == IU_GAUGE ? iu_ufreq_find(t.spec, strcspn(t.spec, ":"))
					    : t.metric ? uncore_session_add_metric(c->s, t.spec) : session_event(c->s, t.spec);
		if (!why)
			why = idx < 0 ? uncore_error() : t.node >= 0 ? node_refused(&t) : NULL;
		if (why) {
			char what[300];
			snprintf(what, sizeof(what), t.node >= 0 ? "%s:node=%d" : "%s", t.spec, t.node);
			if (gone) {
				lost(c, i, what, why, gone, len);
				continue;
			}
			int rc = refuse_why(PAPI_ECNFLCT, what, why);
			drop_session(c);
			return rc;
		}
		c->slot[i].metric = t.metric;
		c->slot[i].idx = idx;
		c->slot[i].socket = t.socket;
		c->slot[i].node = t.node;
	}
	c->n = count;
	return PAPI_OK;
}

/* Rebuild the EventSet's session from its native events. */
static int iu_update_control_state(hwd_control_state_t *ctl, NativeInfo_t *native, int count, hwd_context_t *ctx)
{
	iu_control_t *c = (iu_control_t *)ctl;
	int rc;
	(void)ctx;
	if (count > IU_MAX_EVENTS)
		return PAPI_ECOUNT;
	for (int i = 0; i < count; i++) {
		c->code[i] = (unsigned)native[i].ni_event;
		native[i].ni_position = i;
	}
	pthread_mutex_lock(&lock);
	rc = build(c, count, NULL, 0);
	pthread_mutex_unlock(&lock);
	return rc;
}

/* A slot's value since start; UNCORE_BOX_FAILED when a box of it was given up (it failed, or another agent
 * took it over): the count would be short, so PAPI gets an error rather than a number. */
static int slot_now(const iu_control_t *c, int i, long long *out)
{
	int rc;
	if (c->slot[i].metric == IU_GONE)
		return *out = 0, 0; /* (its carry alone) */
	if (c->slot[i].metric == IU_GAUGE) /* a gauge: read now, never reset (an unreadable one reads 0); attached, its CPU's socket */
		return iu_ufreq_value(U, c->slot[i].idx, gauge_socket(c, c->slot[i].socket), out), 0;
	if (c->slot[i].metric == IU_PEAK)
		return iu_peak_value(U, c->s, c->slot[i].idx, gauge_socket(c, c->slot[i].socket), out);
	if (c->slot[i].metric == IU_ENERGY)
		return iu_energy_value(c->energy, c->slot[i].idx, c->slot[i].socket, out);
	if (c->slot[i].metric) {
		double v = 0;
		rc = c->slot[i].node >= 0 ? uncore_session_node_value(c->s, c->slot[i].idx, c->slot[i].node, UNCORE_SINCE_START, &v)
					  : uncore_session_metric_value(c->s, c->slot[i].idx, c->slot[i].socket, -1, UNCORE_SINCE_START, &v);
		*out = rc || isnan(v) ? 0 : llround(v);
	} else {
		uint64_t v = 0;
		rc = uncore_session_value(c->s, c->slot[i].idx, -1, -1, &v);
		*out = (long long)v;
	}
	return rc == UNCORE_BOX_FAILED ? rc : 0;
}

/* ... and since PAPI_start: the count carried over the session's plans before this one */
static int slot_value(const iu_control_t *c, int i, long long *out)
{
	int rc = slot_now(c, i, out);
	if (!gauge(c->slot[i].metric))
		*out += c->carry[i];
	return rc;
}

/* The slots a change of the node took away, said once (with the EventSet's plan that left them out). */
static void said_gone(const char *gone)
{
	if (gone[0])
		PAPIWARN("intel_uncore: after the node's change no longer counted, each count kept at its last value: %s", gone);
}

static int start_session(iu_control_t *c)
{
	int rc = PAPI_OK;
	if (!c->s)
		rc = PAPI_ENOEVNT;
	else if (uncore_session_num_events(c->s) > 0 && uncore_session_start(c->s)) /* none: gauges or energy alone */
		rc = refuse(PAPI_ESYS, "PAPI_start");
	else if (c->energy && uncore_energy_start(c->energy, 0)) {
		rc = refuse(PAPI_ESYS, "PAPI_start");
		uncore_session_stop(c->s);
	}
	else {
		c->running = 1;
		memset(c->offset, 0, sizeof(c->offset));
	}
	return rc;
}

static int iu_start(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	iu_control_t *c = (iu_control_t *)ctl;
	int rc = PAPI_OK;
	(void)ctx;
	pthread_mutex_lock(&lock);
	if (c->s && iu_node_poll(U) != c->gen) { /* the node changed since the EventSet was planned */
		char gone[PAPI_HUGE_STR_LEN] = "";
		rc = build(c, c->n, gone, sizeof(gone));
		said_gone(gone);
	}
	memset(c->carry, 0, sizeof(c->carry));
	if (rc == PAPI_OK)
		rc = start_session(c);
	pthread_mutex_unlock(&lock);
	return rc;
}

/* A health condition that makes slot i's value wrong now (uncore.h): PAPI_EMISC with the condition published,
 * or PAPI_OK. */
static int unhealthy(const iu_control_t *c, int i, const char *what)
{
	if (c->slot[i].metric == IU_GAUGE || (c->slot[i].metric == IU_PEAK && c->slot[i].idx == IU_PEAK_ITSELF))
		return PAPI_OK; /* a gauge of the kernel's or the population's, no counter's */
	if (c->slot[i].metric == IU_ENERGY || c->slot[i].metric == IU_GONE)
		return PAPI_OK; /* no uncore health of its own; no counter any more */
	/* (the share's health is its mem_bw_total's, a metric of the session) */
	unsigned bits = c->slot[i].metric ? uncore_session_metric_health(c->s, c->slot[i].idx, c->slot[i].socket, -1)
					  : uncore_session_event_health(c->s, c->slot[i].idx, -1, -1);
	struct uncore_health h[16];
	int n = bits ? uncore_session_health(c->s, h, 16) : 0;
	for (int k = 0; k < n && k < 16; k++)
		if (bits & 1u << h[k].kind) {
			char msg[PAPI_HUGE_STR_LEN];
			snprintf(msg, sizeof(msg), "intel_uncore: %s: health %s: %s (%s)", what, uncore_health_name(h[k].kind),
				 h[k].what, uncore_health_advice(h[k].kind));
			PAPIERROR("%s", msg);
			int code = _papi_hwi_publish_error(msg);
			return code <= -PAPI_NUM_ERRORS ? code : PAPI_EMISC;
		}
	return PAPI_OK;
}

/* The values PAPI gets: the session's, less those at the last PAPI_reset; PAPI_ESYS (the library's reason
 * published) when a box of one of them was given up, an error naming the health condition when one makes a
 * value wrong. */
static int fill_values(iu_control_t *c, const char *what)
{
	int rc = PAPI_OK;
	for (int i = 0; i < c->n; i++) {
		long long v;
		if (slot_value(c, i, &v) && rc == PAPI_OK)
			rc = refuse(PAPI_ESYS, what);
		if (rc == PAPI_OK)
			rc = unhealthy(c, i, what);
		c->values[i] = v - c->offset[i];
	}
	return rc;
}

/*
 * The node changed under a running EventSet (iu_node.c): its session planned again on the node as it is now,
 * each count carried over -- the old session's last counts read, its registers restored, the new one started
 * at once, so that nothing counts twice and, on the simulator's clock or between two counts of the hardware,
 * nothing is lost -- a slot whose unit went away kept at its last count and said once.
 */
static void follow(iu_control_t *c)
{
	long long carry[IU_MAX_EVENTS];
	char gone[PAPI_HUGE_STR_LEN] = "";
	int n = c->n;
	if (uncore_session_num_events(c->s))
		uncore_session_read(c->s); /* (a box that failed: its last value, below) */
	if (c->energy)
		uncore_energy_read(c->energy);
	for (int i = 0; i < n; i++)
		if (gauge(c->slot[i].metric))
			carry[i] = 0;
		else if (slot_value(c, i, &carry[i]))
			carry[i] = c->values[i] + c->offset[i]; /* the last it gave */
	if (build(c, n, gone, sizeof(gone)) != PAPI_OK) { /* out of memory: every slot kept where it was */
		for (int i = 0; i < n; i++)
			c->values[i] = carry[i] - c->offset[i];
		return;
	}
	memcpy(c->carry, carry, sizeof(carry[0]) * (size_t)n);
	char why[2][PAPI_HUGE_STR_LEN] = { "", "" }; /* (each start's reason, before a lookup below says another) */
	if (uncore_session_num_events(c->s) && uncore_session_start(c->s))
		snprintf(why[0], sizeof(why[0]), "%s", uncore_error());
	if (c->energy && uncore_energy_start(c->energy, 0))
		snprintf(why[1], sizeof(why[1]), "%s", uncore_error());
	for (int i = 0; i < n; i++) {
		int k = c->slot[i].metric == 0 || c->slot[i].metric == 1 || c->slot[i].metric == IU_PEAK ? 0
			: c->slot[i].metric == IU_ENERGY ? 1 : -1;
		struct iu_target t;
		if (k >= 0 && why[k][0])
			lost(c, i, iu_target_of(c->code[i], &t) ? "?" : t.spec, why[k], gone, sizeof(gone));
	}
	if (why[0][0]) { /* what did not start is not read: an empty session in its place */
		uncore_session_free(c->s);
		if (uncore_session_new(U, &c->s))
			c->s = NULL;
	}
	if (why[1][0]) {
		uncore_energy_free(c->energy);
		c->energy = NULL;
	}
	c->running = 1;
	said_gone(gone);
}

static int sample(iu_control_t *c)
{
	int rc = c->running && uncore_session_num_events(c->s) ? uncore_session_read(c->s) : 0;
	if (rc && rc != UNCORE_BOX_FAILED) /* a failed box is the values' business: fill_values says which */
		return refuse(PAPI_ESYS, "PAPI_read");
	if (c->running && c->energy && uncore_energy_read(c->energy)) /* later than a wrap: a lower bound */
		return fill_values(c, "PAPI_read"), refuse(PAPI_ESYS, "PAPI_read");
	return fill_values(c, "PAPI_read");
}

static int iu_read(hwd_context_t *ctx, hwd_control_state_t *ctl, long long **events, int flags)
{
	iu_control_t *c = (iu_control_t *)ctl;
	int rc;
	(void)ctx;
	(void)flags;
	pthread_mutex_lock(&lock);
	if (c->s && c->running && iu_node_poll(U) != c->gen)
		follow(c);
	rc = c->s ? sample(c) : PAPI_ENOEVNT;
	pthread_mutex_unlock(&lock);
	*events = c->values;
	return rc;
}

static int iu_stop(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	iu_control_t *c = (iu_control_t *)ctl;
	int rc = PAPI_OK;
	(void)ctx;
	pthread_mutex_lock(&lock);
	if (c->s && c->running && iu_node_poll(U) != c->gen)
		follow(c);
	if (c->s && c->running) {
		int r = uncore_session_num_events(c->s) ? uncore_session_stop(c->s) : 0;
		if (c->energy && uncore_energy_read(c->energy) && !r)
			r = -1;
		c->running = 0;
		rc = fill_values(c, "PAPI_stop");
		if (r && r != UNCORE_BOX_FAILED)
			rc = refuse(PAPI_ESYS, "PAPI_stop");
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

/* Only this EventSet's view restarts from zero: the counters, which other sets or processes may share, are left alone. */
static int iu_reset(hwd_context_t *ctx, hwd_control_state_t *ctl)
{
	iu_control_t *c = (iu_control_t *)ctl;
	int rc = PAPI_OK;
	(void)ctx;
	pthread_mutex_lock(&lock);
	int r = c->s && c->running && uncore_session_num_events(c->s) ? uncore_session_read(c->s) : 0;
	if (!r && c->running && c->energy)
		r = uncore_energy_read(c->energy);
	if (r && r != UNCORE_BOX_FAILED)
		rc = refuse(PAPI_ESYS, "PAPI_reset");
	for (int i = 0; c->s && i < c->n; i++) {
		if (slot_value(c, i, &c->offset[i]) && rc == PAPI_OK)
			rc = refuse(PAPI_ESYS, "PAPI_reset");
		if (gauge(c->slot[i].metric))
			c->offset[i] = 0; /* a gauge is not a count: nothing to start from */
		c->values[i] = 0;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

static int iu_write(hwd_context_t *ctx, hwd_control_state_t *ctl, long long *from)
{
	(void)ctx;
	(void)ctl;
	(void)from;
	return PAPI_ENOSUPP;
}

static int iu_cleanup_eventset(hwd_control_state_t *ctl)
{
	pthread_mutex_lock(&lock);
	drop_session((iu_control_t *)ctl);
	pthread_mutex_unlock(&lock);
	return PAPI_OK;
}

/* Attaching to CPU N (PAPI_CPU_ATTACH, as for perf_event_uncore) counts the uncore of N's socket. */
static int attach(iu_control_t *c, int cpu)
{
	int rc = PAPI_OK;
	pthread_mutex_lock(&lock);
	if (uncore_cpu_socket(U, cpu) < 0)
		rc = refuse(PAPI_EINVAL, "PAPI_CPU_ATTACH");
	else if (c->cpu != cpu) {
		int was = c->cpu, n = c->n;
		c->cpu = cpu;
		if ((rc = build(c, n, NULL, 0)) != PAPI_OK) {
			c->cpu = was; /* the EventSet stays as it was */
			build(c, n, NULL, 0);
		}
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

static int iu_ctl(hwd_context_t *ctx, int code, _papi_int_option_t *option)
{
	(void)ctx;
	if (code == PAPI_CPU_ATTACH)
		return attach((iu_control_t *)option->cpu.ESI->ctl_state, (int)option->cpu.cpu_num);
	/* uncore counts the whole socket: domain and granularity have nothing to select */
	return code == PAPI_DOMAIN || code == PAPI_GRANUL ? PAPI_OK : PAPI_ENOSUPP;
}

static int iu_set_domain(hwd_control_state_t *ctl, int domain)
{
	(void)ctl;
	return domain & PAPI_DOM_ALL ? PAPI_OK : PAPI_EINVAL;
}

/* Name services under the component lock (tools may list from several threads). */
#define LOCKED(call)                          \
	do {                                  \
		int r_;                       \
		pthread_mutex_lock(&lock);    \
		r_ = U ? (call) : PAPI_ECMP;  \
		pthread_mutex_unlock(&lock);  \
		return r_;                    \
	} while (0)

static int iu_ntv_enum_events(unsigned int *code, int modifier) { LOCKED(iu_enum(code, modifier)); }
static int iu_ntv_name_to_code(const char *name, unsigned int *code) { LOCKED(iu_name_to_code(name, code)); }
static int iu_ntv_code_to_name(unsigned int code, char *name, int len) { LOCKED(iu_code_to_name(code, name, len)); }
static int iu_ntv_code_to_descr(unsigned int code, char *d, int len) { LOCKED(iu_code_to_descr(code, d, len)); }

static int info_of(unsigned code, PAPI_event_info_t *info)
{
	int rc = iu_code_to_name(code, info->symbol, sizeof(info->symbol));
	if (rc == PAPI_OK)
		rc = iu_code_to_descr(code, info->long_descr, sizeof(info->long_descr));
	if (rc == PAPI_OK)
		rc = iu_code_to_units(code, info->units, sizeof(info->units));
	if (rc == PAPI_OK) {
		/* PAPI's short description is 64 bytes: the start of the long one */
		snprintf(info->short_descr, sizeof(info->short_descr), "%.*s", (int)sizeof(info->short_descr) - 1,
			 info->long_descr);
		struct iu_target t;
		/* the uncore clock's limits and the DRAM peak: a value now; the peak's share: over the last interval */
		int kind = iu_target_of(code, &t) ? 0 : t.metric;
		int share = kind == IU_PEAK && iu_peak_find(t.spec, strcspn(t.spec, ":")) == IU_PEAK_SHARE;
		info->data_type = PAPI_DATATYPE_INT64;
		info->value_type = gauge(kind) ? PAPI_VALUETYPE_ABSOLUTE : PAPI_VALUETYPE_RUNNING_SUM;
		info->timescope = share ? PAPI_TIMESCOPE_SINCE_LAST : gauge(kind) ? PAPI_TIMESCOPE_POINT : PAPI_TIMESCOPE_SINCE_START;
	}
	return rc;
}

static int iu_ntv_code_to_info(unsigned int code, PAPI_event_info_t *info) { LOCKED(info_of(code, info)); }

papi_vector_t _intel_uncore_vector = {
	.cmp_info = {
		.name = "intel_uncore",
		.short_name = "intel_uncore",
		.description = "Intel uncore PMON (memory controllers, LLC, links, power) via libuncore",
		.version = "1.0",
		.support_version = "n/a",
		.kernel_version = "n/a",
		.num_cntrs = IU_MAX_EVENTS,
		.num_mpx_cntrs = IU_MAX_EVENTS,
		.default_domain = PAPI_DOM_ALL,
		.available_domains = PAPI_DOM_ALL,
		.default_granularity = PAPI_GRN_SYS,
		.available_granularities = PAPI_GRN_SYS,
		.hardware_intr_sig = PAPI_INT_SIGNAL,
		.cpu = 1, /* PAPI_CPU_ATTACH */
	},
	.size = {
		.context = sizeof(iu_context_t),
		.control_state = sizeof(iu_control_t),
		.reg_value = 1,
		.reg_alloc = 1,
	},
	.init_component = iu_init_component,
	.shutdown_component = iu_shutdown_component,
	.init_thread = iu_init_thread,
	.shutdown_thread = iu_shutdown_thread,
	.init_control_state = iu_init_control_state,
	.update_control_state = iu_update_control_state,
	.cleanup_eventset = iu_cleanup_eventset,
	.start = iu_start,
	.stop = iu_stop,
	.read = iu_read,
	.reset = iu_reset,
	.write = iu_write,
	.ctl = iu_ctl,
	.set_domain = iu_set_domain,
	.ntv_enum_events = iu_ntv_enum_events,
	.ntv_name_to_code = iu_ntv_name_to_code,
	.ntv_code_to_name = iu_ntv_code_to_name,
	.ntv_code_to_descr = iu_ntv_code_to_descr,
	.ntv_code_to_info = iu_ntv_code_to_info,
};
