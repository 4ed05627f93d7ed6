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
	if (ends_with(unit, "/s") || !strcmp(mi->group, "totals") || !strcmp(mi->group, "locality")) {
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

/* One more series at the end of the state's: 0, or -1 with the error. */
static int push_series(struct iu_state *st, const struct iu_series *se, char *err, size_t len)
{
	struct iu_series *ns = realloc(st->series, (size_t)(st->nseries + 1) * sizeof(*ns));
	if (!ns)
		return iu_fail(err, len, "out of memory");
	st->series = ns;
	ns[st->nseries++] = *se;
	return 0;
}

/* A selected series as collectd names it: plugin instance socketN, type instance the metric's name (with
 * the box: mem_bw_read_imc3; a port of a stack with its devices' names) or the event's spec, cleaned. */
static int plan(struct iu_state *st, const struct uncore_series *u, char *err, size_t len)
{
	struct iu_series se = { .metric = u->metric, .event = u->event, .socket = u->socket, .box = u->box,
				.node = u->by_node ? u->node : -1 };
	char ti[DATA_MAX_NAME_LEN + 320]; /* cleaned and cut to DATA_MAX_NAME_LEN */
	struct uncore_unit_info ui;
	if (u->metric >= 0) {
		struct uncore_metric_info mi;
		uncore_metric_info(st->u, u->info, &mi);
		classify(&mi, &se);
		struct uncore_port_devices pd;
		int port = uncore_iio_port_of(u->name);
		if (u->box >= 0 && !uncore_unit_info(st->u, u->unit, &ui)) {
			/* a port of a stack: its devices' names after the box (iio_write_bytes_port0_iio2_card0_card1:
			 * a switch's group in one series), as Graphite paths and collectd's filters select them */
			int n = snprintf(ti, sizeof(ti), "%s_%s%d", u->name, ui.name, u->box);
			if (port >= 0 && n > 0 && (size_t)n < sizeof(ti) &&
			    uncore_port_devices(st->u, u->socket, u->box, port, &pd) > 0 && pd.ndevices)
				snprintf(ti + n, sizeof(ti) - (size_t)n, "_%s", pd.name);
		} else
			snprintf(ti, sizeof(ti), "%s", u->name);
	} else {
		se.derive = 1;
		se.to_base = 1;
		se.type = "total_events";
		snprintf(ti, sizeof(ti), "%s", u->name);
	}
	/* a NUMA node's series: plugin instance nodeN, its type and type instance its metric's (mem_read_bytes) */
	snprintf(se.plugin_instance, sizeof(se.plugin_instance), u->by_node ? "node%d" : "socket%d",
		 u->by_node ? u->node : u->socket);
	iu_clean_name(se.type_instance, sizeof(se.type_instance), ti);
	/* device groups that share one counter port (an accelerator stack's DSA and IAA on part 0) are one port's
	 * bytes: one series, not the same name dispatched twice */
	for (int i = 0; u->metric >= 0 && i < st->nseries; i++)
		if (st->series[i].metric >= 0 && !strcmp(st->series[i].type_instance, se.type_instance) &&
		    !strcmp(st->series[i].plugin_instance, se.plugin_instance))
			return 0;
	for (int i = 0; u->metric < 0 && i < st->nseries; i++)
		if (st->series[i].metric < 0 && st->series[i].event != se.event &&
		    !strcmp(st->series[i].type_instance, se.type_instance))
			return iu_fail(err, len, "Events: '%s' and '%s' would have the same name %s; drop one", u->name,
				    uncore_session_event_name(st->s, st->series[i].event), se.type_instance);
	return push_series(st, &se, err, len);
}

/* Each DDR NUMA node's peak (uncore_memory_node_peak: the channels of its SNC domain, its socket's without SNC),
 * plugin instance nodeN beside its byte series (the default set's), type gauge, type instance mem_bw_peak: where
 * the node has byte series and its peak is known. */
static int plan_node_peaks(struct iu_state *st, char *err, size_t len)
{
	struct uncore_numa_node v[64];
	int n = uncore_numa_nodes(st->u, v, 64);
	for (int i = 0; i < n && i < 64; i++) {
		double bps;
		int counted = 0;
		for (int k = 0; k < st->nseries; k++)
			counted |= st->series[k].node == v[i].node && !st->series[k].peak;
		/* (an HBM, CXL or refused node has no DDR peak: uncore_memory_node_peak says so; a socket's unknown peak
		 * is said at the start, a node's is for the same reason) */
		if (!counted || uncore_memory_node_peak(st->u, v[i].node, &bps) || !(bps > 0))
			continue;
		struct iu_series se = { .metric = -1, .event = -1, .socket = v[i].socket, .box = -1, .node = v[i].node,
					.peak = IU_PEAK, .to_base = bps, .type = "gauge" };
		snprintf(se.plugin_instance, sizeof(se.plugin_instance), "node%d", v[i].node);
		snprintf(se.type_instance, sizeof(se.type_instance), "mem_bw_peak");
		if (push_series(st, &se, err, len))
			return -1;
	}
	return 0;
}

/* Each socket's peak DRAM bandwidth (type gauge, B/s, type instance mem_bw_peak) and the share of it its bandwidth
 * is over the interval (percent, mem_bw_peak_share), plugin instance socketN as its memory series: where the
 * selection counts DRAM bytes read and written, and none on a socket whose peak is not known (doc/memory.md). */
static int plan_peak(struct iu_state *st, unsigned sockets, char *err, size_t len)
{
	int said = 0;
	for (int s = 0; s < uncore_num_sockets(st->u); s++) {
		double bps;
		int rc, m;
		if (sockets && !(sockets >> s & 1))
			continue;
		/* (Sockets: the memory's metrics are each socket's, and so the share's) */
		if ((m = uncore_session_add_peak_share(st->s, sockets ? s : -1)) < 0)
			continue; /* no DRAM bytes counted: no share of them */
		if ((rc = uncore_memory_peak(st->u, s, &bps)) || !(bps > 0)) {
			if (!said++) /* (said at the start: not by the probe of the configuration) */
				snprintf(st->peak_notice, sizeof(st->peak_notice), "no mem_bw_peak of socket %d: %s", s,
					 rc ? uncore_error() : "no channel holds a DIMM");
			continue;
		}
		for (int k = IU_PEAK; k <= IU_PEAK_SHARE; k++) {
			struct iu_series se = { .metric = -1, .event = -1, .socket = s, .box = -1, .node = -1, .peak = k,
						.peak_metric = m, .to_base = bps, .type = k == IU_PEAK ? "gauge" : "percent" };
			snprintf(se.plugin_instance, sizeof(se.plugin_instance), "socket%d", s);
			snprintf(se.type_instance, sizeof(se.type_instance), "%s", k == IU_PEAK ? "mem_bw_peak" : "mem_bw_peak_share");
			if (push_series(st, &se, err, len))
				return -1;
		}
	}
	return plan_node_peaks(st, err, len);
}

static int backend_is_sim(const char *b) { return b && !strncmp(b, "sim:", 4); }

int iu_setup(const struct iu_config *c, struct iu_state *st, char *err, size_t len)
{
	struct uncore_selection sel = {
		.metrics = (const char *const *)c->metrics, .nmetrics = c->nmetrics,
		.groups = (const char *const *)c->groups, .ngroups = c->ngroups,
		.events = (const char *const *)c->events, .nevents = c->nevents,
		.box_units = (const char *const *)c->box_units, .nbox_units = c->nbox_units,
		.sockets = c->sockets, .per_box_all = c->per_box_all, .opt_metrics = "Metrics",
		.opt_groups = "MetricGroups", .opt_events = "Events", .opt_sockets = "Sockets", .opt_per_box = "ReportPerBox",
		/* the default set fits a share of a core at the interval it is read at (uncore.h) */
		.interval_s = c->interval > 0 ? c->interval : CDTIME_T_TO_DOUBLE(plugin_get_interval()),
		.per_job = c->per_job, /* ... and leaves the attribution's counters free */
	};
	struct uncore_series *chosen = NULL;
	int n = 0;
	memset(st, 0, sizeof(*st));
	if (uncore_open(c->backend, &st->u)) {
		/* a simulator or a misspelt backend is a configuration error; missing hardware access is not */
		int cfg = c->backend && strcmp(c->backend, "auto") && strcmp(c->backend, "direct");
		iu_fail(err, len, "%s%s", cfg || backend_is_sim(c->backend) ? "Backend: " : "", uncore_error());
		return cfg ? -1 : -2;
	}
	uncore_node_build(st->u); /* the node's facts now: a read only indexes them (a failed one says why at its use) */
	if (c->force)
		uncore_set_force(st->u, 1);
	if (uncore_session_new(st->u, &st->s) ||
	    uncore_select(st->u, st->s, &sel, &chosen, &n, st->notice, sizeof(st->notice))) {
		iu_fail(err, len, "%s", uncore_error());
		goto fail;
	}
	for (int i = 0; i < n; i++)
		if (plan(st, &chosen[i], err, len))
			goto fail;
	if (plan_peak(st, c->sockets, err, len))
		goto fail;
	st->ufreq = uncore_freq_selected(&sel);
	st->sockets = c->sockets;
	iu_energy_setup(st, uncore_energy_domains(uncore_energy_selected(&sel)));
	free(chosen);
	st->default_set = !c->nmetrics && !c->ngroups && !c->nevents && !c->sockets;
	return 0;
fail:
	free(chosen);
	iu_teardown(st);
	return -1;
}

/* The default set's NUMA nodes whose bytes cannot be given (doc/numa.md): each said once, with why. */
static void log_refused_nodes(const struct iu_state *st)
{
	struct uncore_numa_node v[64];
	int n = st->default_set ? uncore_numa_nodes(st->u, v, 64) : 0;
	for (int i = 0; i < n && i < 64; i++)
		if (v[i].refused)
			NOTICE("%s plugin: NUMA node %d (socket %d) is not reported: %s", IU_NAME, v[i].node, v[i].socket,
			       v[i].refused);
}

int iu_start(struct iu_state *st, char *err, size_t len)
{
	/* a box another agent or user counts on costs its own series, not the plugin: the daemon keeps the rest
	 * (the first read logs which, with a failure notification, and drops those series) */
	if (uncore_session_num_events(st->s) && /* none: energy alone */
	    (uncore_session_allow_refused(st->s, 1) || uncore_session_start(st->s)))
		return iu_fail(err, len, "cannot start counting: %s", uncore_error());
	st->started = 1;
	if (st->notice[0])
		NOTICE("%s plugin: %s", IU_NAME, st->notice);
	log_refused_nodes(st);
	if (st->peak_notice[0])
		NOTICE("%s plugin: %s", IU_NAME, st->peak_notice);
	if (uncore_session_refused(st->s) > 0)
		NOTICE("%s plugin: started without %d box%s refused to it: the values summed over them are not reported "
		       "(the first read says why); every other value is", IU_NAME, uncore_session_refused(st->s),
		       uncore_session_refused(st->s) == 1 ? "" : "es");
	iu_log_warnings(""); /* units left out, a refused claims file, a forced box */
	return 0;
}

/* The value of a series; 1 = nothing to report this time (no rate yet, NaN, multiplexed and not counted
 * yet), -1 = its box failed. */
static int series_value(const struct iu_state *st, struct iu_series *se, value_t *out)
{
	double v;
	uint64_t n;
	int rc;
	if (se->peak == IU_PEAK) {
		out->gauge = se->to_base;
		return 0;
	}
	if (se->peak == IU_PEAK_SHARE) { /* 1: no value yet (no interval) */
		if ((rc = uncore_session_peak_share(st->s, se->peak_metric, se->socket, UNCORE_LAST_INTERVAL, &v)))
			return rc == 1 || rc == UNCORE_NOT_COUNTED ? 1 : -1;
		out->gauge = 100 * v;
		return 0;
	}
	if (se->metric < 0) {
		if ((rc = uncore_session_value(st->s, se->event, se->socket, -1, &n)))
			return rc == UNCORE_NOT_COUNTED ? 1 : -1;
		out->derive = se->last = se->base + (derive_t)n;
		return 0;
	}
	int window = se->rate ? UNCORE_SINCE_START_COUNT : se->derive ? UNCORE_SINCE_START : UNCORE_LAST_INTERVAL;
	if (se->node >= 0) /* 1: no channel of it serves the node (not so when planned) */
		rc = uncore_session_node_value(st->s, se->metric, se->node, window, &v);
	else
		rc = uncore_session_metric_value(st->s, se->metric, se->socket, se->box, window, &v);
	if (rc)
		return rc == UNCORE_NOT_COUNTED || rc == 1 ? 1 : -1;
	v *= se->to_base;
	if (!isfinite(v) || (se->derive && v < 0))
		return 1;
	if (se->derive)
		out->derive = se->last = se->base + (derive_t)llround(v);
	else
		out->gauge = v;
	return 0;
}

/* The daemon's clock (cdtime: CLOCK_REALTIME) at the library's clock reading *lib_now (uncore_clock_pair
 * takes them together, so that a preemption between them cannot move every stamp of a read), never back:
 * collectd refuses a value older than the last (uncore_wall_stamp; st->wall carried over a restart). */
cdtime_t iu_clock_pair(struct iu_state *st, uint64_t *lib_now)
{
	uint64_t real;
	uncore_clock_pair(st->u, lib_now, &real);
	return NS_TO_CDTIME_T(uncore_wall_stamp(&st->wall, *lib_now, real));
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
	snprintf(n.message, sizeof(n.message), "%.*s", (int)sizeof(n.message) - 1, why); /* collectd's fixed size */
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
	if (uncore_session_num_events(st->s) && uncore_session_read(st->s))
		snprintf(why, sizeof(why), "%s", uncore_error());
	vl.values = &value;
	vl.values_len = 1;
	uint64_t lib_now;
	cdtime_t now = iu_clock_pair(st, &lib_now);
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
		uint64_t t = se->peak ? uncore_session_metric_read_time_ns(st->s, se->peak_metric, se->socket, -1)
			     : se->metric >= 0 ? uncore_session_metric_read_time_ns(st->s, se->metric, se->socket, se->box)
					       : uncore_session_read_time_ns(st->s, se->event, se->socket, -1);
		vl.time = iu_stamp(now, lib_now, t);
		if (plugin_dispatch_values(&vl) == 0)
			sent++;
	}
	sent += iu_energy_read(st, now, lib_now);
	sent += iu_health_read(st, now);
	sent += iu_ufreq_read(st, now);
	if (why[0]) { /* once: the library reports a box on the read that drops it, and the series drop with it */
		ERROR("%s plugin: %s; %d value%s no longer reported, the others go on", IU_NAME, why, dropped,
		      dropped == 1 ? " is" : "s are");
		notify_failure(why);
	}
	return alive || !st->nseries ? sent : -1;
}

void iu_let_go(struct iu_state *st)
{
	value_t v;
	if (st->s && uncore_session_num_events(st->s) && !uncore_session_read(st->s))
		for (int i = 0; i < st->nseries; i++) /* the counts up to now, for a restart to carry (last) */
			if (st->series[i].derive && !st->series[i].failed)
				series_value(st, &st->series[i], &v);
	/* the jobs' bytes up to now, for a restart to carry (the tally) */
	if (uncore_perjob_started(st->perjob) && uncore_perjob_read(st->perjob, UNCORE_LAST_INTERVAL, &st->tally) < 0)
		ERROR("%s plugin: PerJob: %s", IU_NAME, uncore_error());
	iu_jobs_stop(st);
	iu_energy_stop(st);
	uncore_session_free(st->s); /* restores every register the session programmed */
	uncore_close(st->u);
	st->s = NULL;
	st->u = NULL;
}

void iu_teardown(struct iu_state *st)
{
	iu_let_go(st);
	uncore_job_tally_free(&st->tally);
	free(st->series);
	memset(st, 0, sizeof(*st));
}
