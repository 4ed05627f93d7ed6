/*
 * What the plugin measures and how each value reaches collectd.
 *
 * A metric becomes one series per socket (plugin instance socketN) and, with
 * ReportPerBox, one per box of its unit.  Per-second metrics and integral
 * counts go out as DERIVE cumulative counts: collectd turns them into rates,
 * and the library's 64-bit accumulators mean a 48-bit counter wrap is never a
 * step.  Ratios, latencies and frequencies go out as GAUGEs over the last
 * interval.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iu_collectd.h"

/* What the plugin reports when the configuration names nothing (memory bandwidth, LLC, QPI/UPI, uncore
 * frequency). */
static const char *const default_groups[] = { "memory", "llc", "interconnect", "clock" };
/* The counters the default set may read each interval.  Each costs the plugin a register read (on
 * hardware an MSR pread, a PCI config read or an MMIO load) and its share of the evaluation; make bench
 * measures 60-80 us a read for a set of this size on the simulator, under the per-node budget of 0.01 %
 * of a core at Interval 1 (100 us).  The largest real machine of a built-in platform, a 2-socket
 * Clearwater Forest, reads 1016 with its whole default set; a default group that would take the set past
 * the limit (on a 4-socket CWF the LLC group alone reads 1152 CHA counters) is left out, with a notice,
 * and MetricGroups names it to read it anyway. */
#define IU_DEFAULT_COUNTERS 1024
/* Intel's perf metric files' names for the same, where a CPU has no platform of ours */
static const char *const intel_defaults[] = { "memory_bandwidth_read", "memory_bandwidth_write",
					      "memory_bandwidth_total", "uncore_frequency" };

void iu_clean_name(char *out, size_t len, const char *in)
{
	size_t n = 0;
	for (; *in && n + 1 < len; in++) {
		char ch = *in >= 'A' && *in <= 'Z' ? (char)(*in - 'A' + 'a') : *in;
		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9')))
			ch = '_';
		if (ch == '_' && (n == 0 || out[n - 1] == '_'))
			continue; /* no leading or doubled separators */
		out[n++] = ch;
	}
	while (n > 0 && out[n - 1] == '_')
		n--;
	out[n] = 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/* The collectd type and value kind of a metric, from its unit (and group for integral counts). */
static void classify(const struct uncore_metric_info *mi, struct iu_series *se)
{
	const char *unit = mi->unit;
	int bytes = unit[0] && (ends_with(unit, "B/s") || ends_with(unit, "B"));
	se->to_base = mi->scale != 0 ? 1 / mi->scale : 1; /* "1e-9GB/s": the expression itself is in B/s */
	if (ends_with(unit, "/s") || !strcmp(mi->group, "totals")) {
		se->derive = 1;
		se->rate = ends_with(unit, "/s");
		se->type = !bytes ? "total_events" : !strcmp(mi->group, "memory") ? "memory_bandwidth" : "total_bytes";
	} else if (ends_with(unit, "Hz")) {
		se->type = "frequency"; /* in Hz, as collectd's cpufreq and turbostat plugins report */
	} else {
		se->to_base = 1; /* kept in the metric's own unit: %, ns, ... */
		se->type = !strcmp(unit, "%") ? "percent" : !strcmp(unit, "ns") ? "latency" : "gauge";
	}
}

static int add_series(struct iu_state *st, const struct iu_series *se, char *err, size_t len)
{
	struct iu_series *ns = realloc(st->series, (size_t)(st->nseries + 1) * sizeof(*ns));
	if (!ns)
		return iu_fail(err, len, "out of memory");
	st->series = ns;
	ns[st->nseries++] = *se;
	return 0;
}

static int unit_index(uncore_t *u, const char *name)
{
	struct uncore_unit_info ui;
	for (int k = 0; k < uncore_num_units(u); k++)
		if (!uncore_unit_info(u, k, &ui) && !strcmp(ui.name, name))
			return k;
	return -1;
}

static int wants_boxes(const struct iu_config *c, uncore_t *u, int unit)
{
	struct uncore_unit_info ui;
	if (unit < 0 || uncore_unit_info(u, unit, &ui))
		return 0;
	if (c->per_box_all)
		return 1;
	for (int i = 0; i < c->nbox_units; i++)
		if (!strcmp(c->box_units[i], ui.name))
			return 1;
	return 0;
}

/* The series of session metric m on socket sock: the socket, then its boxes if asked for. */
static int plan_metric(const struct iu_config *c, struct iu_state *st, int m, int sock, char *err, size_t len)
{
	struct uncore_metric_info mi;
	struct uncore_unit_info ui;
	struct iu_series se = { .metric = m, .event = -1, .socket = sock, .box = -1 };
	const char *name = uncore_session_metric_name(st->s, m);
	uncore_metric_info(st->u, uncore_metric_find(st->u, name), &mi);
	classify(&mi, &se);
	snprintf(se.plugin_instance, sizeof(se.plugin_instance), "socket%d", sock);
	iu_clean_name(se.type_instance, sizeof(se.type_instance), name);
	if (add_series(st, &se, err, len))
		return -1;
	if (!wants_boxes(c, st->u, mi.box_unit) || uncore_unit_info(st->u, mi.box_unit, &ui))
		return 0;
	for (int k = 0; k < uncore_unit_boxes(st->u, mi.box_unit, sock); k++) {
		char ti[DATA_MAX_NAME_LEN + 32];
		se.box = uncore_box_number(st->u, mi.box_unit, sock, k);
		snprintf(ti, sizeof(ti), "%s_%s%d", name, ui.name, se.box);
		iu_clean_name(se.type_instance, sizeof(se.type_instance), ti);
		if (add_series(st, &se, err, len))
			return -1;
	}
	return 0;
}

/* Add a metric on the configured sockets; opt names the option it came from, for errors. */
static int add_metric(const struct iu_config *c, struct iu_state *st, const char *name, const char *opt,
		      char *err, size_t len)
{
	int m;
	if (!c->sockets) { /* one session metric covers every socket */
		if ((m = uncore_session_add_metric(st->s, name)) < 0)
			return iu_fail(err, len, "%s: %s", opt, uncore_error());
		for (int sock = 0; sock < uncore_num_sockets(st->u); sock++)
			if (plan_metric(c, st, m, sock, err, len))
				return -1;
		return 0;
	}
	for (int sock = 0; sock < uncore_num_sockets(st->u); sock++) {
		char spec[160];
		if (!(c->sockets & (1u << sock)))
			continue;
		snprintf(spec, sizeof(spec), "%s:socket=%d", name, sock);
		if ((m = uncore_session_add_metric(st->s, spec)) < 0)
			return iu_fail(err, len, "%s: %s", opt, uncore_error());
		if (plan_metric(c, st, m, sock, err, len))
			return -1;
	}
	return 0;
}

static int already_added(const struct iu_state *st, const char *name)
{
	for (int m = 0; m < uncore_session_num_metrics(st->s); m++)
		if (!strcmp(uncore_session_metric_name(st->s, m), name))
			return 1;
	return 0;
}

static void list_groups(uncore_t *u, char *out, size_t len)
{
	struct uncore_metric_info mi, mj;
	size_t n = 0;
	out[0] = 0;
	for (int i = 0; i < uncore_num_metrics(u) && n < len; i++) {
		int seen = 0;
		uncore_metric_info(u, i, &mi);
		for (int j = 0; j < i && !seen; j++)
			seen = !uncore_metric_info(u, j, &mj) && !strcmp(mi.group, mj.group);
		if (!seen)
			n += (size_t)snprintf(out + n, len - n, "%s%s", n ? ", " : "", mi.group);
	}
}

/* A named group must exist; a default one (optional) is skipped where the platform has none
 * (Nehalem-EP and Montecito have no interconnect metrics). */
static int add_group(const struct iu_config *c, struct iu_state *st, const char *group, int optional, char *err,
		     size_t len)
{
	struct uncore_metric_info mi;
	char opt[96];
	int found = 0;
	snprintf(opt, sizeof(opt), "MetricGroups: %s", group);
	for (int i = 0; i < uncore_num_metrics(st->u); i++) {
		if (uncore_metric_info(st->u, i, &mi) || strcmp(mi.group, group))
			continue;
		found = 1;
		if (!already_added(st, mi.name) && add_metric(c, st, mi.name, opt, err, len))
			return -1;
	}
	if (!found && !optional) {
		char groups[512];
		list_groups(st->u, groups, sizeof(groups));
		return iu_fail(err, len, "MetricGroups: no metric of group '%s' on %s (groups: %s)", group,
			    uncore_platform_name(st->u), groups);
	}
	return 0;
}

/* The counters a session reads each interval: every event's boxes on every socket. */
static int counters_of(uncore_session_t *s, int nsock)
{
	int n = 0;
	for (int ev = 0; ev < uncore_session_num_events(s); ev++)
		for (int sock = 0; sock < nsock; sock++)
			n += uncore_session_event_boxes(s, ev, sock);
	return n;
}

/* The counters a group's metrics read on their own, on the configured sockets (measured on a session that
 * is never started); -1 where one fails to add (the plugin's own add_group then names the problem). */
static int group_counters(const struct iu_config *c, uncore_t *u, const char *group)
{
	struct uncore_metric_info mi;
	uncore_session_t *probe;
	int n = 0;
	if (uncore_session_new(u, &probe))
		return -1;
	for (int i = 0; i < uncore_num_metrics(u) && n == 0; i++) {
		if (uncore_metric_info(u, i, &mi) || strcmp(mi.group, group))
			continue;
		for (int sock = c->sockets ? 0 : -1; sock < (c->sockets ? uncore_num_sockets(u) : 0) && n == 0; sock++) {
			char spec[160];
			if (sock >= 0 && !(c->sockets & (1u << sock)))
				continue;
			snprintf(spec, sizeof(spec), sock < 0 ? "%s" : "%s:socket=%d", mi.name, sock);
			if (uncore_session_add_metric(probe, spec) < 0)
				n = -1;
		}
	}
	if (n == 0)
		n = counters_of(probe, uncore_num_sockets(u));
	uncore_session_free(probe);
	return n;
}

/* The default groups that the platform has, as far as they fit IU_DEFAULT_COUNTERS together (the first
 * always: a node reports its memory bandwidth whatever it costs); the rest are named in a notice.  The
 * default groups share no event on any built-in platform, so a group adds what it reads on its own. */
static int add_default_groups(const struct iu_config *c, struct iu_state *st, char *err, size_t len)
{
	char left[128] = "";
	int wanted = 0; /* every default group's counters */
	for (int g = 0; g < (int)(sizeof(default_groups) / sizeof(*default_groups)); g++) {
		int have = counters_of(st->s, uncore_num_sockets(st->u));
		int more = group_counters(c, st->u, default_groups[g]);
		wanted += more > 0 ? more : 0;
		if (have > 0 && more > 0 && have + more > IU_DEFAULT_COUNTERS)
			snprintf(left + strlen(left), sizeof(left) - strlen(left), "%s\"%s\"", left[0] ? " " : "",
				 default_groups[g]);
		else if (add_group(c, st, default_groups[g], 1, err, len))
			return -1;
	}
	if (left[0])
		snprintf(st->notice, sizeof(st->notice),
			 "the default set leaves out MetricGroups %s on %s: with them it would read %d counters an "
			 "interval, over its limit of %d (the plugin's budget is 0.01 %% of a core at Interval 1); name "
			 "every group wanted in MetricGroups to read them",
			 left, uncore_platform_name(st->u), wanted, IU_DEFAULT_COUNTERS);
	return 0;
}

static int add_event(const struct iu_config *c, struct iu_state *st, const char *spec, char *err, size_t len)
{
	int ev = uncore_session_add(st->s, spec), socks[32];
	struct iu_series se = { .metric = -1, .event = ev, .box = -1, .derive = 1, .to_base = 1,
				.type = "total_events" };
	if (ev < 0)
		return iu_fail(err, len, "Events: %s", uncore_error());
	iu_clean_name(se.type_instance, sizeof(se.type_instance), spec);
	for (int i = 0; i < st->nseries; i++)
		if (st->series[i].metric < 0 && !strcmp(st->series[i].type_instance, se.type_instance))
			return iu_fail(err, len, "Events: '%s' and '%s' would have the same name %s; drop one", spec,
				    uncore_session_event_name(st->s, st->series[i].event), se.type_instance);
	int n = uncore_session_event_sockets(st->s, ev, socks, 32);
	for (int i = 0; i < n && i < 32; i++) {
		if (c->sockets && !(c->sockets & (1u << socks[i])))
			continue;
		se.socket = socks[i];
		snprintf(se.plugin_instance, sizeof(se.plugin_instance), "socket%d", socks[i]);
		if (add_series(st, &se, err, len))
			return -1;
	}
	return 0;
}

/* Names that depend on the platform: sockets and ReportPerBox units. */
static int check_names(const struct iu_config *c, uncore_t *u, char *err, size_t len)
{
	int nsock = uncore_num_sockets(u);
	for (int s = nsock; s < 32; s++)
		if (c->sockets & (1u << s))
			return iu_fail(err, len, "Sockets: socket %d does not exist (this machine has %d: 0-%d)", s, nsock,
				    nsock - 1);
	for (int i = 0; i < c->nbox_units; i++)
		if (unit_index(u, c->box_units[i]) < 0) {
			char units[512];
			size_t n = 0;
			struct uncore_unit_info ui;
			units[0] = 0;
			for (int k = 0; k < uncore_num_units(u) && n < sizeof(units); k++)
				if (!uncore_unit_info(u, k, &ui))
					n += (size_t)snprintf(units + n, sizeof(units) - n, "%s%s", k ? ", " : "", ui.name);
			return iu_fail(err, len, "ReportPerBox: no unit '%s' on %s (units: %s)", c->box_units[i],
				    uncore_platform_name(u), units);
		}
	return 0;
}

static int backend_is_sim(const char *b) { return b && !strncmp(b, "sim:", 4); }

int iu_setup(const struct iu_config *c, struct iu_state *st, char *err, size_t len)
{
	int named = c->nmetrics || c->ngroups || c->nevents;
	memset(st, 0, sizeof(*st));
	if (uncore_open(c->backend, &st->u)) {
		/* a simulator or a misspelt backend is a configuration error; missing hardware access is not */
		int cfg = c->backend && strcmp(c->backend, "auto") && strcmp(c->backend, "direct");
		iu_fail(err, len, "%s%s", cfg || backend_is_sim(c->backend) ? "Backend: " : "", uncore_error());
		return cfg ? -1 : -2;
	}
	if (c->force)
		uncore_set_force(st->u, 1);
	if (check_names(c, st->u, err, len) || uncore_session_new(st->u, &st->s))
		goto fail;
	if (!named && add_default_groups(c, st, err, len))
		goto fail;
	/* a CPU without a platform of ours (perf on the kernel's PMUs) has Intel's metrics, in no group of
	 * ours: the default set is those of them that Intel names alike on every platform */
	int none = !named && !uncore_session_num_metrics(st->s);
	for (int i = 0; none && i < (int)(sizeof(intel_defaults) / sizeof(*intel_defaults)); i++)
		if (uncore_metric_find(st->u, intel_defaults[i]) >= 0 &&
		    add_metric(c, st, intel_defaults[i], "the default metrics", err, len))
			goto fail;
	for (int i = 0; i < c->ngroups; i++)
		if (add_group(c, st, c->groups[i], 0, err, len))
			goto fail;
	for (int i = 0; i < c->nmetrics; i++)
		if (!already_added(st, c->metrics[i]) && add_metric(c, st, c->metrics[i], "Metrics", err, len))
			goto fail;
	for (int i = 0; i < c->nevents; i++)
		if (add_event(c, st, c->events[i], err, len))
			goto fail;
	return 0;
fail:
	iu_teardown(st);
	return -1;
}

int iu_start(struct iu_state *st, char *err, size_t len)
{
	/* a box another agent or user counts on costs its own series, not the plugin: the daemon keeps the rest
	 * (the first read logs which, with a failure notification, and drops those series) */
	if (uncore_session_allow_refused(st->s, 1) || uncore_session_start(st->s))
		return iu_fail(err, len, "cannot start counting: %s", uncore_error());
	st->started = 1;
	if (st->notice[0])
		NOTICE("%s plugin: %s", IU_NAME, st->notice);
	if (uncore_session_refused(st->s) > 0)
		NOTICE("%s plugin: started without %d box%s refused to it: the values summed over them are not reported "
		       "(the first read says why); every other value is", IU_NAME, uncore_session_refused(st->s),
		       uncore_session_refused(st->s) == 1 ? "" : "es");
	for (const char *w = uncore_warnings(); *w;) { /* units left out, a refused claims file, a forced box */
		size_t n = strcspn(w, "\n");
		WARNING("%s plugin: %.*s", IU_NAME, (int)n, w);
		w += n + (w[n] == '\n');
	}
	return 0;
}

/* The value of a series; 1 = nothing to report this time (no rate yet, NaN, multiplexed and not counted
 * yet), -1 = its box failed. */
static int series_value(const struct iu_state *st, const struct iu_series *se, value_t *out)
{
	double v;
	uint64_t n;
	int rc;
	if (se->metric < 0) {
		if ((rc = uncore_session_value(st->s, se->event, se->socket, -1, &n)))
			return rc == UNCORE_NOT_COUNTED ? 1 : -1;
		out->derive = (derive_t)n;
		return 0;
	}
	int window = se->rate ? UNCORE_SINCE_START_COUNT : se->derive ? UNCORE_SINCE_START : UNCORE_LAST_INTERVAL;
	if ((rc = uncore_session_metric_value(st->s, se->metric, se->socket, se->box, window, &v)))
		return rc == UNCORE_NOT_COUNTED ? 1 : -1;
	v *= se->to_base;
	if (!isfinite(v) || (se->derive && v < 0))
		return 1;
	if (se->derive)
		out->derive = (derive_t)llround(v);
	else
		out->gauge = v;
	return 0;
}

/* The daemon's clock (cdtime) at the library's clock reading *lib_now.  Stamps are the library's read
 * times moved by that offset, so a preemption between the two clock readings would move every stamp of
 * this read, and the rates of this interval and the next with it: the pair is taken between two readings
 * of the library's clock, up to CLOCK_TRIES times, keeping the narrowest. */
#define CLOCK_SLACK_NS 20000
#define CLOCK_TRIES 4
cdtime_t iu_clock_pair(uncore_t *u, uint64_t *lib_now)
{
	cdtime_t now = 0;
	uint64_t best = UINT64_MAX;
	*lib_now = 0;
	for (int tries = 0; tries < CLOCK_TRIES && best > CLOCK_SLACK_NS; tries++) {
		uint64_t t0 = uncore_now_ns(u);
		cdtime_t c = cdtime();
		uint64_t t1 = uncore_now_ns(u);
		if (t1 - t0 < best) {
			best = t1 - t0;
			now = c;
			*lib_now = t0 + (t1 - t0) / 2;
		}
	}
	return now;
}

cdtime_t iu_stamp(cdtime_t now, uint64_t lib_now, uint64_t t)
{
	return t && t <= lib_now ? now - NS_TO_CDTIME_T(lib_now - t) : now;
}

/* A failure notification too, for what acts on them (a notify_email or exec plugin, threshold filters):
 * a box given up (failed, or taken over by another agent) stops its series without a value to alert on. */
static void notify_failure(const char *why)
{
	notification_t n = { .severity = NOTIF_FAILURE, .time = cdtime() };
	snprintf(n.message, sizeof(n.message), "%s", why);
	snprintf(n.host, sizeof(n.host), "%s", hostname_g ? hostname_g : "");
	snprintf(n.plugin, sizeof(n.plugin), "%s", IU_NAME);
	plugin_dispatch_notification(&n);
}

int iu_read(struct iu_state *st)
{
	char why[1024] = "";
	value_t value;
	value_list_t vl = VALUE_LIST_INIT;
	int sent = 0, dropped = 0, alive = 0;
	if (!st->started)
		return -1;
	if (uncore_session_read(st->s))
		snprintf(why, sizeof(why), "%s", uncore_error());
	vl.values = &value;
	vl.values_len = 1;
	uint64_t lib_now;
	cdtime_t now = iu_clock_pair(st->u, &lib_now);
	snprintf(vl.plugin, sizeof(vl.plugin), "%s", IU_NAME);
	for (int i = 0; i < st->nseries; i++) {
		struct iu_series *se = &st->series[i];
		if (se->failed)
			continue;
		int rc = series_value(st, se, &value);
		if (rc < 0) {
			if (!why[0])
				snprintf(why, sizeof(why), "%s", uncore_error());
			se->failed = 1; /* never again: a count with a gap in it would be wrong */
			dropped++;
		}
		alive += rc >= 0;
		if (rc)
			continue;
		/* names were made and bounded when the series were planned */
		memcpy(vl.plugin_instance, se->plugin_instance, sizeof(se->plugin_instance));
		memcpy(vl.type, se->type, strlen(se->type) + 1);
		memcpy(vl.type_instance, se->type_instance, sizeof(se->type_instance));
		/* stamped with when its counters were read: rates then divide by the counts' own window,
		 * however long reading every box or reaching this line took */
		uint64_t t = se->metric >= 0 ? uncore_session_metric_read_time_ns(st->s, se->metric, se->socket, se->box)
					     : uncore_session_read_time_ns(st->s, se->event, se->socket, -1);
		vl.time = iu_stamp(now, lib_now, t);
		if (plugin_dispatch_values(&vl) == 0)
			sent++;
	}
	if (why[0]) { /* once: the library reports a box on the read that drops it, and the series drop with it */
		ERROR("%s plugin: %s; %d value%s no longer reported, the others go on", IU_NAME, why, dropped,
		      dropped == 1 ? " is" : "s are");
		notify_failure(why);
	}
	return alive || !st->nseries ? sent : -1;
}

void iu_teardown(struct iu_state *st)
{
	iu_jobs_stop(st);
	uncore_session_free(st->s); /* restores every register the session programmed */
	uncore_close(st->u);
	free(st->series);
	memset(st, 0, sizeof(*st));
}
