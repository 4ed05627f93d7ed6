/*
 * What a front end reports (uncore_select, uncore.h): the collectd plugin and the exporter take the same
 * options (metrics, groups, events, sockets, per-box units) and the same default set, so the choice is
 * made here once.  A metric becomes one series per socket and, for the units asked, one per box; a raw
 * event one per socket it counts on.  Like the attribution, this is a client of the public calls.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "uncore.h"
#include "access/access.h" /* UC_MAX_SOCKETS */
#include "util/error.h"
#include "jobs/jobs.h"
#include "select.h"

/* What is reported when nothing is named (memory bandwidth, LLC, QPI/UPI, uncore frequency). */
static const char *const default_groups[] = { "memory", "llc", "interconnect", "clock" };
/* Intel's perf metric files' names for the same, where a CPU has no platform of ours */
static const char *const intel_defaults[] = { "memory_bandwidth_read", "memory_bandwidth_write",
					      "memory_bandwidth_total", "uncore_frequency" };

struct plan {
	uncore_t *u;
	uncore_session_t *s;
	const struct uncore_selection *sel;
	struct uncore_series *series;
	int n;
	char beside[160]; /* per_job: the default metrics left out for the attribution ... */
	char why[400];    /* ... and why the first was */
	double sums_ns;   /* what the node series' sums add to a read (select_node_sums_ns), in the budget with it */
	uint64_t nodimm[UC_MAX_SOCKETS]; /* bit b: iMC box b of the socket left out of the per-box series, no DIMM */
};

static const char *opt(const char *given, const char *dflt) { return given ? given : dflt; }

static int add_series(struct plan *p, const struct uncore_series *se)
{
	struct uncore_series *ns = realloc(p->series, (size_t)(p->n + 1) * sizeof(*ns));
	if (!ns)
		return uc_err("out of memory");
	p->series = ns;
	ns[p->n++] = *se;
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

static int wants_boxes(const struct plan *p, int unit)
{
	struct uncore_unit_info ui;
	if (unit < 0 || uncore_unit_info(p->u, unit, &ui))
		return 0;
	if (p->sel->per_box_all)
		return 1;
	for (int i = 0; i < p->sel->nbox_units; i++)
		if (!strcmp(p->sel->box_units[i], ui.name))
			return 1;
	return 0;
}

/* Whether box of unit on socket is an iMC box the node's population says moves nothing (an empty channel, or a box
 * that is no channel: issue 91, doc/memory.md): no per-box series of it, which would be a zero no one could tell
 * from a dead channel (uncore check tells those apart); said once a box in the notice.  Unknown: kept. */
static int no_dimm(struct plan *p, int unit, int sock, int box)
{
	struct uncore_unit_info ui;
	struct uncore_channel ch;
	if (uncore_unit_info(p->u, unit, &ui) || strcmp(ui.name, "imc") || uncore_memory_channel(p->u, sock, box, &ch) ||
	    (ch.state != UNCORE_CHAN_EMPTY && ch.state != UNCORE_CHAN_NONE))
		return 0;
	if (sock < UC_MAX_SOCKETS && box < 64)
		p->nodimm[sock] |= 1ull << box; /* (a box once, whichever metrics ask for it) */
	return 1;
}

/* The boxes no_dimm left out, in the notice after what it holds: "8 iMC boxes without a DIMM (socket:box 0:imc2
 * ...) get no per-box series ...", the list cut with "..." where it would not fit. */
static void say_nodimm(const struct plan *p, char *notice, size_t len)
{
	char list[256] = "";
	size_t at = 0;
	int n = 0, full = 0;
	for (int sock = 0; sock < UC_MAX_SOCKETS; sock++)
		for (int b = 0; b < 64; b++) {
			if (!(p->nodimm[sock] >> b & 1))
				continue;
			n++;
			int w = full ? 0 : snprintf(list + at, sizeof(list) - at, " %d:imc%d", sock, b);
			if (!full && w > 0 && at + (size_t)w + 5 < sizeof(list))
				at += (size_t)w;
			else if (!full++)
				snprintf(list + at, sizeof(list) - at, " ...");
		}
	size_t k = len ? strlen(notice) : 0;
	if (n && k < len)
		snprintf(notice + k, len - k, "%s%d iMC box%s without a DIMM (socket:box%s) get%s no per-box series: an "
			 "empty channel, or a box that is no channel, moves nothing (doc/memory.md)", k ? "; " : "", n,
			 n == 1 ? "" : "es", list, n == 1 ? "s" : "");
}

/* The series of session metric m on socket sock: the socket, then its boxes if asked for. */
static int plan_metric(struct plan *p, int m, int sock)
{
	struct uncore_metric_info mi;
	int info = uncore_metric_find(p->u, uncore_session_metric_name(p->s, m));
	if (uncore_metric_info(p->u, info, &mi))
		return uc_err("metric %s: not in the platform's list", uncore_session_metric_name(p->s, m));
	struct uncore_series se = { .metric = m, .info = info, .event = -1, .socket = sock, .unit = mi.box_unit,
				    .box = -1, .name = mi.name };
	if (add_series(p, &se))
		return -1;
	if (!wants_boxes(p, mi.box_unit))
		return 0;
	for (int k = 0; k < uncore_unit_boxes(p->u, mi.box_unit, sock); k++) {
		se.box = uncore_box_number(p->u, mi.box_unit, sock, k);
		if (no_dimm(p, mi.box_unit, sock, se.box))
			continue;
		if (add_series(p, &se))
			return -1;
	}
	return 0;
}

/* A metric on the selected sockets; from names the option it came from, for errors. */
static int add_metric(struct plan *p, const char *name, const char *from)
{
	int m, nsock = uncore_num_sockets(p->u);
	if (!p->sel->sockets) { /* one session metric covers every socket */
		if ((m = uncore_session_add_metric(p->s, name)) < 0)
			return uc_err_prefix("%s: ", from);
		for (int sock = 0; sock < nsock; sock++)
			if (plan_metric(p, m, sock))
				return -1;
		return 0;
	}
	for (int sock = 0; sock < nsock; sock++) {
		char spec[160];
		if (!(p->sel->sockets & (1u << sock)))
			continue;
		snprintf(spec, sizeof(spec), "%s:socket=%d", name, sock);
		if ((m = uncore_session_add_metric(p->s, spec)) < 0)
			return uc_err_prefix("%s: ", from);
		if (plan_metric(p, m, sock))
			return -1;
	}
	return 0;
}

static int already_added(const struct plan *p, const char *name)
{
	for (int m = 0; m < uncore_session_num_metrics(p->s); m++)
		if (!strcmp(uncore_session_metric_name(p->s, m), name))
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

/* Whether metric i is of group and counted here: a metric of a unit the machine has no box of (Xeon Max's
 * HBM channels on a Sapphire Rapids without HBM) is left out of its group. */
static int group_metric(uncore_t *u, int i, const char *group, struct uncore_metric_info *mi)
{
	return !uncore_metric_info(u, i, mi) && !strcmp(mi->group, group) && uncore_metric_here(u, i) > 0;
}

static int probe_group(const struct plan *p, const char *group, const char *only, int current, uncore_session_t **probe);

/* With the per-job attribution beside the default set (sel->per_job), a default metric whose events would
 * leave its sampled event no counter or no filter value on a box it samples is left out (p->beside, said
 * once by uncore_select): SNB-EP and IVB-EP have TOR_INSERTS on CBo counters 0-1 only (327043-001, 2.3.7
 * TOR_INSERTS: "Register Restrictions: 0-1"), and SKX's DRd LLC events set the CHA's FILTER1 opcode that
 * IA_MISS needs clear.  1: left out; 0: kept (a metric that fails to add is left to add_metric to name). */
static int beside_attrib(struct plan *p, const char *group, const char *name)
{
	uncore_session_t *probe = NULL;
	char why[400];
	int rc = 0;
	if (!p->sel->per_job)
		return 0;
	if (!probe_group(p, group, name, 1, &probe))
		rc = attrib_clash(probe, why, sizeof(why)) == 1;
	uncore_session_free(probe);
	if (rc) {
		size_t n = strlen(p->beside);
		snprintf(p->beside + n, sizeof(p->beside) - n, "%s%s", n ? ", " : "", name);
		if (!p->why[0])
			snprintf(p->why, sizeof(p->why), "%s", why);
	}
	return rc;
}

/* A named group must exist; a default one (optional) is skipped where the platform has none (Nehalem-EP
 * and Montecito have no interconnect metrics), and loses the metrics the per-job attribution cannot count
 * beside. */
static int add_group(struct plan *p, const char *group, int optional)
{
	struct uncore_metric_info mi;
	const char *o = opt(p->sel->opt_groups, "groups");
	char from[128];
	int found = 0;
	snprintf(from, sizeof(from), "%s: %s", o, group);
	for (int i = 0; i < uncore_num_metrics(p->u); i++) {
		if (!group_metric(p->u, i, group, &mi))
			continue;
		found = 1;
		if (already_added(p, mi.name) || (optional && beside_attrib(p, group, mi.name)))
			continue;
		if (add_metric(p, mi.name, from))
			return -1;
	}
	if (!found && !optional) {
		char groups[512];
		list_groups(p->u, groups, sizeof(groups));
		return uc_err("%s: no metric of group '%s' on %s (groups: %s)", o, group, uncore_platform_name(p->u),
			      groups);
	}
	return 0;
}

int select_counters(uncore_session_t *s, int nsock)
{
	int n = 0;
	for (int ev = 0; ev < uncore_session_num_events(s); ev++)
		for (int sock = 0; sock < nsock; sock++)
			n += uncore_session_event_boxes(s, ev, sock);
	return n;
}

/* A session never started with a group's metrics (only that one, where only is set) on the selected sockets,
 * after those of the plan's session when current is set (to price them together): 0, or -1 where one fails
 * to add (add_group then names the problem); *probe is to be freed either way. */
static int probe_group(const struct plan *p, const char *group, const char *only, int current, uncore_session_t **probe)
{
	struct uncore_metric_info mi;
	unsigned socks = p->sel->sockets;
	if (uncore_session_new(p->u, probe))
		return -1;
	for (int m = 0; current && m < uncore_session_num_metrics(p->s); m++)
		if (uncore_session_add_metric(*probe, uncore_session_metric_name(p->s, m)) < 0)
			return -1;
	for (int i = 0; i < uncore_num_metrics(p->u); i++) {
		if (!group_metric(p->u, i, group, &mi) || (only && strcmp(mi.name, only)))
			continue;
		for (int sock = socks ? 0 : -1; sock < (socks ? uncore_num_sockets(p->u) : 0); sock++) {
			char spec[160];
			if (sock >= 0 && !(socks & (1u << sock)))
				continue;
			snprintf(spec, sizeof(spec), sock < 0 ? "%s" : "%s:socket=%d", mi.name, sock);
			if (uncore_session_add_metric(*probe, spec) < 0)
				return -1;
		}
	}
	return 0;
}

/* The counters a group's metrics read on their own; -1 where one fails to add. */
static int group_counters(const struct plan *p, const char *group)
{
	uncore_session_t *probe = NULL;
	int n = probe_group(p, group, NULL, 0, &probe) ? -1 : select_counters(probe, uncore_num_sockets(p->u));
	uncore_session_free(probe);
	return n;
}

/* What a read of the plan's session with the group added would cost, ns (uncore_session_estimate_read_ns);
 * -1 where a metric fails to add. */
static double cost_with(const struct plan *p, const char *group)
{
	uncore_session_t *probe = NULL;
	double ns = probe_group(p, group, NULL, 1, &probe) ? -1 : uncore_session_estimate_read_ns(probe, p->sel->interval_s);
	uncore_session_free(probe);
	return ns;
}

/* The default groups that the platform has, as far as they fit UNCORE_DEFAULT_COUNTERS together and, where
 * the front end says how often it reads, a read of them costs at most UNCORE_DEFAULT_SHARE of a core by the
 * cost model (the first always: a node reports its memory bandwidth whatever it costs); the rest are named
 * in the notice.  The default groups share no event on any built-in platform, so a group adds what it reads
 * on its own. */
static int add_default_groups(struct plan *p, char *notice, size_t len)
{
	char left[128] = "", dear[128] = "";
	int wanted = 0, nomem = 0; /* every default group's counters; the platform has no memory metric */
	double budget_ns = p->sel->interval_s > 0 ? p->sel->interval_s * 1e9 * UNCORE_DEFAULT_SHARE : 0, cost = 0;
	for (int g = 0; g < (int)(sizeof(default_groups) / sizeof(*default_groups)); g++) {
		int have = select_counters(p->s, uncore_num_sockets(p->u));
		int more = group_counters(p, default_groups[g]);
		double ns = have > 0 && more > 0 && budget_ns > 0 ? cost_with(p, default_groups[g]) : 0;
		wanted += more > 0 ? more : 0;
		nomem |= g == 0 && more <= 0;
		if (have > 0 && more > 0 && have + more > UNCORE_DEFAULT_COUNTERS) {
			snprintf(left + strlen(left), sizeof(left) - strlen(left), "%s\"%s\"", left[0] ? " " : "",
				 default_groups[g]);
		} else if (budget_ns > 0 && ns + p->sums_ns >= budget_ns) { /* under the budget, not at it */
			snprintf(dear + strlen(dear), sizeof(dear) - strlen(dear), "%s\"%s\" (%.0f us)", dear[0] ? " " : "",
				 default_groups[g], (ns - cost) / 1e3);
		} else {
			if (add_group(p, default_groups[g], 1))
				return -1;
			cost = budget_ns > 0 ? uncore_session_estimate_read_ns(p->s, p->sel->interval_s) : 0;
		}
	}
	size_t n = 0;
	/* a platform without a memory metric (Diamond Rapids: no public CAS encoding; generic): say what is missing */
	if (nomem && len && uncore_metric_find(p->u, "mem_read_bytes") < 0)
		n = (size_t)snprintf(notice, len, "the default set has no memory bandwidth on %s: no metric "
				     "mem_read_bytes is known there (uncore info says what the platform has)", uncore_platform_name(p->u));
	if (n >= len)
		n = len ? len - 1 : 0;
	if (left[0] && n < len)
		n += (size_t)snprintf(notice + n, len - n,
				     "%sthe default set leaves out %s %s on %s: with them it would read %d counters an "
				     "interval, over its limit of %d; name every group wanted in %s to read them",
				     n ? "; " : "", opt(p->sel->opt_groups, "groups"), left, uncore_platform_name(p->u), wanted,
				     UNCORE_DEFAULT_COUNTERS, opt(p->sel->opt_groups, "groups"));
	if (dear[0] && n < len)
		snprintf(notice + n, len - n,
			 "%sthe default set leaves out %s %s on %s at a read every %g s: each would add that much to a "
			 "read of %.0f us%s, over the budget of %g %% of a core (%.0f us; doc/cost.md); name every group "
			 "wanted in %s to read them, or read less often",
			 n ? "; " : "", opt(p->sel->opt_groups, "groups"), dear, uncore_platform_name(p->u),
			 p->sel->interval_s, (cost + p->sums_ns) / 1e3, p->sums_ns > 0 ? " with the NUMA node series' sums" : "",
			 UNCORE_DEFAULT_SHARE * 100, budget_ns / 1e3, opt(p->sel->opt_groups, "groups"));
	return 0;
}

static int add_event(struct plan *p, const char *spec)
{
	int ev = uncore_session_add(p->s, spec), socks[32];
	if (ev < 0)
		return uc_err_prefix("%s: ", opt(p->sel->opt_events, "events"));
	struct uncore_series se = { .metric = -1, .info = -1, .event = ev, .unit = -1, .box = -1,
				    .name = uncore_session_event_name(p->s, ev) };
	int n = uncore_session_event_sockets(p->s, ev, socks, 32);
	for (int i = 0; i < n && i < 32; i++) {
		if (p->sel->sockets && !(p->sel->sockets & (1u << socks[i])))
			continue;
		se.socket = socks[i];
		if (add_series(p, &se))
			return -1;
	}
	return 0;
}

/* Names that depend on the platform: sockets and per-box units. */
static int check_names(const struct plan *p)
{
	int nsock = uncore_num_sockets(p->u);
	for (int s = nsock; s < 32; s++)
		if (p->sel->sockets & (1u << s))
			return uc_err("%s: socket %d does not exist (this machine has %d: 0-%d)",
				      opt(p->sel->opt_sockets, "sockets"), s, nsock, nsock - 1);
	for (int i = 0; i < p->sel->nbox_units; i++)
		if (unit_index(p->u, p->sel->box_units[i]) < 0) {
			char units[512];
			size_t n = 0;
			struct uncore_unit_info ui;
			units[0] = 0;
			for (int k = 0; k < uncore_num_units(p->u) && n < sizeof(units); k++)
				if (!uncore_unit_info(p->u, k, &ui))
					n += (size_t)snprintf(units + n, sizeof(units) - n, "%s%s", k ? ", " : "", ui.name);
			return uc_err("%s: no unit '%s' on %s (units: %s)", opt(p->sel->opt_per_box, "per-box"),
				      p->sel->box_units[i], uncore_platform_name(p->u), units);
		}
	return 0;
}

int uncore_select(uncore_t *u, uncore_session_t *s, const struct uncore_selection *sel, struct uncore_series **out,
		  int *nout, char *notice, size_t len)
{
	struct plan p = { .u = u, .s = s, .sel = sel };
	int named = sel->nmetrics || sel->ngroups || sel->nevents;
	*out = NULL;
	*nout = 0;
	if (len)
		notice[0] = 0;
	if (check_names(&p))
		goto fail;
	/* the node series' sums are priced first: their bytes metrics count the memory group's events, which the
	 * default set always has, and a group or the device series comes in only where the read and the sums fit */
	if (!named && sel->interval_s > 0 && (p.sums_ns = select_node_sums_ns(u, sel->sockets)) < 0)
		goto fail;
	if (!named && add_default_groups(&p, notice, len))
		goto fail;
	if (!named && select_device_series(u, s, sel->sockets, sel->interval_s * 1e9 * UNCORE_DEFAULT_SHARE, p.sums_ns,
					   sel->interval_s, &p.series, &p.n, notice, len))
		goto fail;
	if (!named && select_node_series(u, s, sel->sockets, &p.series, &p.n))
		goto fail;
	if (p.beside[0])
		uc_warn("the default set leaves out %s on %s to count the jobs beside it (per-job): %s; name them (metrics or "
			"groups) to count them instead of the jobs", p.beside, uncore_platform_name(u), p.why);
	/* a CPU without a platform of ours (perf on the kernel's PMUs) has Intel's metrics, in no group of
	 * ours: the default set is those of them that Intel names alike on every platform */
	int none = !named && !uncore_session_num_metrics(s);
	for (int i = 0; none && i < (int)(sizeof(intel_defaults) / sizeof(*intel_defaults)); i++)
		if (uncore_metric_find(u, intel_defaults[i]) >= 0 && add_metric(&p, intel_defaults[i], "the default metrics"))
			goto fail;
	for (int i = 0; i < sel->ngroups; i++) /* the energy metrics are the front end's energy object's */
		if (!uncore_energy_named(sel->groups[i], 1) && add_group(&p, sel->groups[i], 0))
			goto fail;
	for (int i = 0; i < sel->nmetrics; i++)
		if (!uncore_energy_named(sel->metrics[i], 0) && !already_added(&p, sel->metrics[i]) &&
		    add_metric(&p, sel->metrics[i], opt(sel->opt_metrics, "metrics")))
			goto fail;
	for (int i = 0; i < sel->nevents; i++)
		if (add_event(&p, sel->events[i]))
			goto fail;
	say_nodimm(&p, notice, len);
	/* an event's name is in the session's array of events, which each event added may have moved */
	for (int i = 0; i < p.n; i++)
		if (p.series[i].metric < 0)
			p.series[i].name = uncore_session_event_name(s, p.series[i].event);
	*out = p.series;
	*nout = p.n;
	return 0;
fail:
	free(p.series);
	return -1;
}
