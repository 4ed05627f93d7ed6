/*
 * Derived metrics: definitions (the platform's platforms/<platform>/metrics.json,
 * embedded at build time, plus files loaded at run time), parsed once into
 * expressions whose leaves are event specs, and evaluated over a session.
 */
#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "metrics.h"
#include "session/session_cover.h"
#include "events/perf_spell.h"
#include "util/arena.h"
#include "util/env.h"
#include "util/error.h"
#include "util/json_in.h"

static const char *metric_name(const void *ctx, int i) { return ((const uncore_t *)ctx)->metrics[i].name; }

/* Without regard to case, as perf matches metric names (metricgroup.c match_metric, strcasecmp); the exact
 * name wins where two files (Linux's UNCORE_FREQ, our uncore_freq) differ only in case. */
static int find(const uncore_t *u, const char *name)
{
	int i = name_index_find(&u->metric_names, name, metric_name, u);
	for (int m = 0; i >= 0 && strcmp(u->metrics[i].name, name) && m < u->nmetrics; m++)
		if (!strcmp(u->metrics[m].name, name))
			return m;
	return i;
}

/* ---- parsing: event names are resolved against the catalog; a metric named in another is parsed once
 * and its nodes copied in once per expression, however often it is named (shared, not re-inlined) ---- */

#define MAX_REFS 64 /* distinct metrics one expression copies in */

struct resolve_ctx {
	uncore_t *u;
	int type_idx; /* -2 none yet, -1 several units */
	int refs;     /* metric references being parsed */
	int core;     /* the formula names a core event or fact (perf's files mix both): skip, not refuse */
	struct { int metric, root; } copied[MAX_REFS];
	int ncopied;
};

static void merge_type(struct resolve_ctx *c, int t)
{
	c->type_idx = c->type_idx == -2 ? t : (c->type_idx == t ? t : -1);
}

static int parse_metric(uncore_t *u, int m, char *err, size_t len, int refs, int depth);

/* What perf's metric files name besides uncore events: core events (INST_RETIRED.ANY, TSC, cpu@..@), perf's
 * own names of core events (cycles, cycles-t, topdown-fe-bound, mem_load_uops_retired.hit_lfb: perf takes
 * event names in any case) and facts of the cores (#smt_on, #num_cpus).  Only names the catalog does not
 * know are asked; an unknown UNC_ name or plain lower-case word (a misspelt metric) is an error. */
static int core_name(const char *name)
{
	static const char *const generic[] = { "cycles", "instructions", "branches", "branch-misses", "cache-misses",
					       "cache-references", "ref-cycles", "bus-cycles", NULL };
	for (int i = 0; generic[i]; i++)
		if (!strcmp(name, generic[i]))
			return 1;
	return *name == '#' || (isupper((unsigned char)*name) && strncmp(name, "UNC_", 4)) ||
	       (islower((unsigned char)*name) && strpbrk(name, "-.") && !strchr(name, '/'));
}

static int resolve(void *arg, struct mx_expr *e, const char *perf_name, int depth, char *err, size_t len)
{
	struct resolve_ctx *c = arg;
	struct perf_spelled sp; /* perf's PMU@terms@ and EVENT@terms@ in our words; a name stays as it is */
	int kind = perf_spell(c->u, perf_name, &sp);
	const char *name = sp.spec;
	if (kind && strchr(perf_name, '@')) {
		c->core |= kind > 0; /* another PMU's event: cpu@..@ */
		snprintf(err, len, "%s", kind > 0 ? "a core event" : uncore_error());
		return -1;
	}
	int m = find(c->u, name);
	if (m >= 0 && c->u->metrics[m].state == 3) {
		c->core = 1;
		snprintf(err, len, "metric %s uses core events", name);
		return -1;
	}
	if (m >= 0) { /* another metric: parsed once, its nodes copied in once */
		char sub[256];
		for (int i = 0; i < c->ncopied; i++)
			if (c->copied[i].metric == m)
				return c->copied[i].root;
		if (c->refs >= 8) {
			snprintf(err, len, "metric references nest more than 8 deep at %s", name);
			return -1;
		}
		if (c->ncopied == MAX_REFS) {
			snprintf(err, len, "more than %d metrics named in one formula", MAX_REFS);
			return -1;
		}
		int r = parse_metric(c->u, m, sub, sizeof(sub), c->refs + 1, depth);
		if (r) {
			c->core |= r == -2;
			snprintf(err, len, "metric %s: %s", name, sub);
			return -1;
		}
		const struct uc_metric *ref = &c->u->metrics[m];
		int root = mx_copy(e, &ref->x, ref->root);
		if (root < 0) {
			snprintf(err, len, "metric %s: the formula grows beyond %d terms", name, MX_MAX_NODES);
			return -1;
		}
		if (ref->x.nev)
			merge_type(c, ref->type_idx);
		c->copied[c->ncopied].metric = m;
		c->copied[c->ncopied++].root = root;
		return root;
	}
	struct encoded enc;
	if (spec_encode(c->u, name, &enc)) { /* a unit this machine lacks is refused when the metric is used */
		c->core |= core_name(name);
		snprintf(err, len, "%s", uncore_error());
		return -1;
	}
	if (enc.socket >= 0 || (enc.box >= 0 && enc.box != sp.box)) {
		snprintf(err, len, "'%s': socket= and box= are chosen when the metric is read, not in its formula", name);
		return -1;
	}
	merge_type(c, sp.box >= 0 ? -1 : enc.type_idx); /* a numbered PMU's one box: no value per box */
	return mx_add_event(e, name);
}

/* perf's CPU id on x86, vendor-family-model-stepping ("GenuineIntel-6-CF-2", tools/perf/arch/x86/util/header.c
 * get_cpuid_str), matched against the regular expression id as a whole; an id without a stepping ignores it
 * (arch/x86 strcmp_cpuid_str). 1 match, 0 not, -1 a bad expression. */
static int cpuid_matches(const struct host_info *h, const char *id, char *err, size_t len)
{
	char cpuid[64];
	regex_t re;
	regmatch_t m;
	int dashes = 0;
	for (const char *p = id; *p; p++)
		dashes += *p == '-';
	int n = snprintf(cpuid, sizeof(cpuid), "%s-%d-%X-%X", h->vendor, h->family, (unsigned)h->model, (unsigned)h->stepping);
	if (regcomp(&re, id, REG_EXTENDED)) {
		snprintf(err, len, "strcmp_cpuid_str(%s): not a regular expression", id);
		return -1;
	}
	int hit = !regexec(&re, cpuid, 1, &m, 0);
	regfree(&re);
	size_t whole = dashes >= 3 ? (size_t)n : (size_t)(strrchr(cpuid, '-') - cpuid);
	return hit && m.rm_so == 0 && (size_t)m.rm_eo == whole;
}

/* What the expression parser asks: has_event() and strcmp_cpuid_str() probes, #has_pmem (a fact of the machine,
 * fixed when parsed as perf's literals are), and every other name through resolve(). */
static int resolve_name(void *arg, struct mx_expr *e, const char *name, int depth, char *err, size_t len)
{
	struct resolve_ctx *c = arg;
	if (depth == MX_PROBE_CPUID)
		return cpuid_matches(&c->u->host, name, err, len);
	if (depth == MX_PROBE_EVENT) { /* whether it names an event here (a metric is none); not counted */
		if (find(c->u, name) >= 0)
			return 0;
		struct resolve_ctx keep = *c;
		struct mx_expr scratch = { 0 };
		char why[256];
		int n = resolve(c, &scratch, name, 0, why, sizeof(why));
		int ev = n >= 0 && scratch.n[n].op == MX_EVENT;
		mx_free(&scratch);
		*c = keep;
		return ev;
	}
	if (!strcmp(name, "#has_pmem"))
		return mx_add_num(e, c->u->host.has_pmem);
	return resolve(arg, e, name, depth, err, len);
}

/* 0 parsed; -1 refused (err says why); -2 it uses core events: state 3, skipped by the loader. */
/* refs: metric references it is parsed within; depth: their expressions' nesting, which it continues */
static int parse_metric(uncore_t *u, int m, char *err, size_t len, int refs, int depth)
{
	struct uc_metric *mt = &u->metrics[m];
	if (mt->state == 2)
		return 0;
	if (mt->state == 3)
		return -2;
	if (mt->state == 1) {
		snprintf(err, len, "metric %s refers to itself", mt->name);
		return -1;
	}
	mt->state = 1;
	struct resolve_ctx c = { .u = u, .type_idx = -2, .refs = refs };
	mt->root = mx_parse(&mt->x, mt->expr, depth, resolve_name, &c, err, len);
	if (mt->root < 0) {
		mx_free(&mt->x);
		mt->state = c.core ? 3 : 0;
		return c.core ? -2 : -1;
	}
	mt->type_idx = c.type_idx < 0 ? -1 : c.type_idx;
	mt->timed = 0;
	for (int i = 0; i < mt->x.nn; i++)
		mt->timed |= mt->x.n[i].op == MX_DURATION;
	mt->state = 2;
	return 0;
}

/* ---- definitions ---- */

static const char *json_str(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

/* perf's ScaleUnit: "1e-9GB/s" -> 1e-9 and "GB/s", a unit alone scales by 1; absent: 1 and "".  -1 with
 * what is wrong in why when it is no string, or its scale is hexadecimal or not finite. */
static int scale_unit(json_t *v, double *scale, const char **unit, const char **why)
{
	const char *su = v ? json_string_value(v) : "", *p;
	char *end;
	if (!su) {
		*why = "is not a string";
		return -1;
	}
	for (p = su; isspace((unsigned char)*p) || *p == '+' || *p == '-'; p++)
		;
	double d = strtod(su, &end);
	if (*p == '0' && (p[1] == 'x' || p[1] == 'X')) /* strtod reads hexadecimal; perf's files never use it */
		*why = "has a hexadecimal scale";
	else if (end != su && !isfinite(d))
		*why = "has a scale that is not a finite number";
	else
		*why = NULL;
	*scale = end == su ? 1 : d;
	*unit = end == su ? su : end;
	return *why ? -1 : 0;
}

/* Letters, digits and '_', a letter first: perf's files write UNCORE_FREQ and C6_Pkg_Residency. */
static int valid_name(const char *s)
{
	if (!isalpha((unsigned char)*s))
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}

/* Keep the first n metrics (rare: a refused file, a file's core metrics), and index them again. */
static void keep_first(uncore_t *u, int n)
{
	u->nmetrics = n;
	name_index_free(&u->metric_names);
	for (int m = 0; m < u->nmetrics; m++)
		name_index_add(&u->metric_names, m, metric_name, u);
}

static void drop_from(uncore_t *u, int first)
{
	for (int m = first; m < u->nmetrics; m++)
		mx_free(&u->metrics[m].x);
	keep_first(u, first);
}

/* Warn once for the metrics of a file that use core events (how many, a few names, their groups), and
 * take them out: an uncore tool cannot count them, and the rest of the file is still good. */
static void drop_skipped(uncore_t *u, const char *what, int first, int skipped)
{
	char names[160] = "", groups[160] = "";
	size_t nn = 0, ng = 0;
	int total = u->nmetrics - first, keep = first, shown = 0, full = 0;
	for (int m = first; m < u->nmetrics; m++) {
		const struct uc_metric *mt = &u->metrics[m];
		if (mt->state != 3) { /* a skipped metric's expression is freed already */
			u->metrics[keep++] = *mt;
			continue;
		}
		if (shown++ < 3 && nn < sizeof(names))
			nn += (size_t)snprintf(names + nn, sizeof(names) - nn, "%s%s", nn ? ", " : "", mt->name);
		if (!*mt->group || strstr(groups, mt->group) || full)
			continue;
		full = ng + strlen(mt->group) + 7 >= sizeof(groups); /* whole groups only, then "..." */
		ng += (size_t)snprintf(groups + ng, sizeof(groups) - ng, "%s%s", ng ? ", " : "", full ? "..." : mt->group);
	}
	uc_warn("%s: %d of %d metrics left out: they use core events (%s%s; groups: %s), which this uncore tool "
		"does not count", what, skipped, total, names, skipped > 3 ? ", ..." : "", ng ? groups : "none");
	keep_first(u, keep);
}

/* Add the definitions of one JSON text; returns how many, or -1 (nothing added). */
static int load_defs(uncore_t *u, const char *what, json_t *root)
{
	int first = u->nmetrics;
	if (!json_is_array(root))
		return uc_err("%s: expected a JSON array of metric objects", what);
	for (size_t i = 0; i < json_array_size(root); i++) {
		json_t *o = json_array_get(root, i);
		const char *name = json_str(o, "MetricName"), *expr = json_str(o, "MetricExpr");
		struct uc_metric d = { .type_idx = -1 }, *nm = NULL;
		/* a name perf takes and we do not ('%', a space: Linux's srf-metrics.json) waits for its formula: a
		 * core metric is left out with the others, an uncore one refuses the file below */
		if (!json_is_object(o) || !*name || !*expr) {
			drop_from(u, first);
			return uc_err("%s: metric %zu%s%s: needs MetricName (letters, digits, '_') and MetricExpr", what,
				      i + 1, *name ? " " : "", name);
		}
		/* the exact name defined before, or in this file in another case (perf could not tell them apart) */
		int same = find(u, name);
		if (same >= 0 && strcmp(u->metrics[same].name, name))
			same = -1;
		/* the index matches without regard to case: the file is scanned only when some name matches */
		int any = same < 0 ? name_index_find(&u->metric_names, name, metric_name, u) : -1;
		for (int m = first; any >= 0 && same < 0 && m < u->nmetrics; m++)
			if (!strcasecmp(u->metrics[m].name, name))
				same = m;
		if (same >= 0) {
			const char *prev = u->metrics[same].name; /* in the arena: kept after drop_from */
			drop_from(u, first);
			if (strcmp(prev, name))
				return uc_err("%s: metric %s is already defined as %s (names match without regard to case, "
					      "as in perf); give it another name", what, name, prev);
			return uc_err("%s: metric %s is already defined; give it another name", what, name);
		}
		d.name = arena_strdup(&u->arena, name);
		d.expr = arena_strdup(&u->arena, expr);
		d.group = arena_strdup(&u->arena, json_str(o, "MetricGroup"));
		d.desc = arena_strdup(&u->arena, json_str(o, "BriefDescription"));
		const char *why;
		if (scale_unit(json_object_get(o, "ScaleUnit"), &d.scale, &d.unit, &why)) {
			drop_from(u, first);
			return uc_err("%s: metric %s: ScaleUnit %s: write a decimal scale and the unit, as in \"1e-9GB/s\"",
				      what, name, why);
		}
		d.unit = arena_strdup(&u->arena, d.unit);
		int cap = u->metrics_cap < 64 ? 64 : u->metrics_cap * 2;
		if (!d.name || !d.expr || !d.group || !d.desc || !d.unit ||
		    (u->nmetrics == u->metrics_cap && !(nm = realloc(u->metrics, (size_t)cap * sizeof(*nm))))) {
			drop_from(u, first);
			return uc_err("out of memory");
		}
		if (u->nmetrics == u->metrics_cap) {
			u->metrics = nm;
			u->metrics_cap = cap;
		}
		u->metrics[u->nmetrics++] = d;
		if (name_index_add(&u->metric_names, u->nmetrics - 1, metric_name, u)) {
			drop_from(u, first);
			return -1;
		}
	}
	/* every expression must parse: refuse the file at load, naming metric and position; perf's files
	 * also hold core metrics, which are left out with one warning */
	int skipped = 0;
	for (int m = first; m < u->nmetrics; m++) {
		char err[512];
		int r = parse_metric(u, m, err, sizeof(err), 0, 0);
		skipped += r == -2;
		if (r != -2 && !valid_name(u->metrics[m].name)) {
			uc_err("%s: metric %d %s: needs MetricName (letters, digits, '_') and MetricExpr", what, m - first + 1,
			       u->metrics[m].name);
			drop_from(u, first);
			return -1;
		}
		if (r == -1) {
			uc_err("%s: metric %s: %s in '%s'", what, u->metrics[m].name, err, u->metrics[m].expr);
			drop_from(u, first);
			return -1;
		}
	}
	if (skipped)
		drop_skipped(u, what, first, skipped);
	return u->nmetrics - first;
}

static int load_file(uncore_t *u, const char *file)
{
	json_t *root = uc_json_load(file);
	int n;
	if (!root)
		return -1;
	n = load_defs(u, file, root);
	json_decref(root);
	return n;
}

int metrics_ensure(uncore_t *u)
{
	const char *env = uc_env("UNCORE_METRICS");
	if (u->metrics_ready)
		return 0;
	u->metrics_ready = 1;
	if (u->plat->metrics_json) {
		json_error_t jerr;
		json_t *root = json_loads(u->plat->metrics_json, 0, &jerr);
		int n = root ? load_defs(u, "built-in metrics", root) : uc_err("built-in metrics:%d:%d: %s", jerr.line,
										 jerr.column, jerr.text);
		json_decref(root);
		if (n < 0)
			return -1;
	}
	if (uc_load_list(u, env, load_file) < 0)
		return uc_err_prefix("UNCORE_METRICS: ");
	return 0;
}

void metrics_free(uncore_t *u)
{
	for (int i = 0; i < u->nmetrics; i++)
		mx_free(&u->metrics[i].x);
	free(u->metrics);
	name_index_free(&u->metric_names);
}

int uncore_load_metrics_impl(uncore_t *u, const char *file)
{
	if (metrics_ensure(u))
		return -1;
	return uc_load_list(u, file, load_file);
}

int uncore_num_metrics_impl(uncore_t *u) { return metrics_ensure(u) ? -1 : u->nmetrics; }

int uncore_metric_find_impl(uncore_t *u, const char *name)
{
	if (metrics_ensure(u))
		return -1;
	int m = find(u, name);
	if (m < 0)
		return uc_err("unknown metric '%s' on %s (see 'uncore list --metrics')", name, u->plat->name);
	return m;
}

int uncore_metric_info_impl(uncore_t *u, int idx, struct uncore_metric_info *o)
{
	if (metrics_ensure(u))
		return -1;
	if (idx < 0 || idx >= u->nmetrics)
		return uc_err("no metric %d", idx);
	const struct uc_metric *m = &u->metrics[idx];
	*o = (struct uncore_metric_info){ m->name, m->expr, m->unit, m->scale, m->group, m->desc, m->type_idx };
	return 0;
}

/* ---- a metric in a session ---- */

void session_metrics_free(struct session_metric *m, int n)
{
	for (int i = 0; i < n; i++)
		free(m[i].ev);
	free(m);
}

/* "name", "name:socket=N" or "name:cpu=N" (the socket of CPU N): the metric's events, on one socket or all. */
static int metric_spec(uncore_t *u, const char *spec, char *name, size_t len, int *socket)
{
	size_t n = strcspn(spec, ":");
	int cpu = !strncmp(spec + n, ":cpu=", 5);
	const char *num = spec + n + (cpu ? 5 : 8);
	char *end;
	*socket = -1;
	snprintf(name, len, "%.*s", (int)n, spec);
	if (!spec[n])
		return 0;
	if ((!cpu && strncmp(spec + n, ":socket=", 8)) || *num < '0' || *num > '9')
		return uc_err("'%s': a metric takes only the qualifier socket=N or cpu=N", spec);
	long v = strtol(num, &end, 10);
	if (*end || v > INT_MAX)
		return uc_err("'%s': '%s' is not a number", spec, num);
	if (cpu)
		return (*socket = uncore_cpu_socket(u, (int)v)) < 0 ? uc_err_prefix("'%s': ", spec) : 0;
	if (v >= uncore_num_sockets(u))
		return uc_err("'%s': socket must be a number from 0 to %d", spec, uncore_num_sockets(u) - 1);
	*socket = (int)v;
	return 0;
}

int uncore_session_add_metric_impl(uncore_session_t *s, const char *spec)
{
	char name[128];
	int socket;
	if (metric_spec(session_owner(s), spec, name, sizeof(name), &socket))
		return -1;
	return session_add_metric_on(s, name, socket, -1);
}

int session_add_metric_on(uncore_session_t *s, const char *name, int socket, int box)
{
	uncore_t *u = session_owner(s);
	char ev_spec[300];
	int *n, before = uncore_session_num_events_impl(s);
	int m = uncore_metric_find_impl(u, name);
	struct session_metric **list = session_metrics(s, &n), *nl;
	if (m < 0)
		return -1;
	const struct uc_metric *mt = &u->metrics[m];
	if (box >= 0 && mt->type_idx < 0)
		return uc_err("metric %s on box %d alone: its events are not all of one unit", name, box);
	int *ev = calloc((size_t)mt->x.nev + 1, sizeof(*ev));
	if (!ev)
		return uc_err("out of memory");
	for (int i = 0; i < mt->x.nev; i++) {
		int at = socket >= 0 ? snprintf(ev_spec, sizeof(ev_spec), "%s:socket=%d", mt->x.events[i], socket)
				     : snprintf(ev_spec, sizeof(ev_spec), "%s", mt->x.events[i]);
		if (box >= 0 && at > 0 && (size_t)at < sizeof(ev_spec))
			snprintf(ev_spec + at, sizeof(ev_spec) - (size_t)at, ":box=%d", box);
		ev[i] = session_find_event(s, ev_spec);
		if (ev[i] < 0 && (ev[i] = uncore_session_add_impl(s, ev_spec)) < 0) {
			char why[512];
			snprintf(why, sizeof(why), "%s", uncore_error());
			free(ev);
			session_truncate(s, before);
			return uc_err("metric %s cannot be measured%s: %s", name,
				      before ? " together with the session's other events" : "", why);
		}
	}
	nl = realloc(*list, (size_t)(*n + 1) * sizeof(*nl));
	if (!nl) {
		free(ev);
		session_truncate(s, before);
		return uc_err("out of memory");
	}
	*list = nl;
	nl[*n] = (struct session_metric){ m, ev };
	for (int i = 0; i < mt->x.nn && !u->mem_peak_wanted; i++) /* a metric of the DRAM peak: asked of the layer */
		u->mem_peak_wanted = mt->x.n[i].op == MX_PEAK; /* above, which hands it down (api.c) */
	return (*n)++;
}

int uncore_session_num_metrics_impl(const uncore_session_t *s)
{
	int n = 0;
	while (session_metric_get(s, n))
		n++;
	return n;
}

const char *uncore_session_metric_name_impl(const uncore_session_t *s, int m)
{
	const struct session_metric *sm = session_metric_get(s, m);
	return sm ? session_owner(s)->metrics[sm->metric].name : NULL;
}

uint64_t uncore_session_metric_read_time_ns_impl(const uncore_session_t *s, int m, int socket, int box)
{
	const struct session_metric *sm = session_metric_get(s, m);
	if (!sm || session_owner(s)->metrics[sm->metric].x.nev < 1)
		return 0;
	return uncore_session_read_time_ns_impl(s, sm->ev[0], socket, box);
}

struct eval_ctx {
	const uncore_session_t *s;
	const struct session_metric *sm;
	int socket, box, window;
	int failed; /* an event's box failed: the metric has no value */
	int not_counted; /* an event was not counted over the window (multiplexed): no value either */
	double peak;     /* 'peak_bw' of what the value covers */
};

static double ev_peak(void *arg) { return ((const struct eval_ctx *)arg)->peak; }

static double ev_value(void *arg, int ev)
{
	struct eval_ctx *c = arg;
	uint64_t v;
	int rc = session_window_value(c->s, c->sm->ev[ev], c->socket, c->box, c->window, &v);
	if (rc == UNCORE_BOX_FAILED)
		c->failed = 1;
	if (rc == UNCORE_NOT_COUNTED)
		c->not_counted = 1;
	if (rc)
		return NAN;
	return (double)v;
}

static double ev_boxes(void *arg, int ev)
{
	const struct eval_ctx *c = arg;
	int n = 0;
	if (c->box >= 0)
		return 1;
	for (int sock = 0; sock < session_owner(c->s)->host.nsockets; sock++)
		if (c->socket < 0 || c->socket == sock)
			n += uncore_session_event_boxes_impl(c->s, c->sm->ev[ev], sock);
	return n ? n : NAN;
}

int uncore_session_metric_value_impl(const uncore_session_t *s, int m, int socket, int box, int window, double *out)
{
	return session_metric_sum(s, m, &socket, &box, 1, window, out);
}

int session_metric_sum(const uncore_session_t *s, int m, const int *sockets, const int *boxes, int n, int window,
		       double *out)
{
	const struct session_metric *sm = session_metric_get(s, m);
	uncore_t *u = session_owner(s);
	double sum = 0;
	if (!sm)
		return uc_err("no metric %d in this session", m);
	const struct uc_metric *mt = &u->metrics[sm->metric];
	struct eval_ctx c = { s, sm, -1, -1, window == UNCORE_LAST_INTERVAL ? window : UNCORE_SINCE_START, 0, 0, NAN };
	struct mx_env env = { ev_value, ev_boxes, 0, u->host.tsc_hz, &c, 0, 0, 0, ev_peak };
	struct session_cover cv = { .socket = -2 }; /* (what it covers, handed down with the session's counts) */
	for (int i = 0; i < n; i++) {
		int socket = sockets[i], box = boxes[i], was = i ? sockets[i - 1] : -2;
		if (box >= 0 && mt->type_idx < 0)
			return uc_err("metric %s combines several units: it has no per-box value", mt->name);
		session_metric_cover(s, sm, mt->x.nev, mt->timed, socket, box, window, &cv);
		if (socket >= 0 && socket != was && !cv.measured)
			return uc_err("metric %s is not measured on socket %d in this session", mt->name, socket);
		c.socket = socket;
		c.box = box;
		/* one die per package: Linux's topology has no die level on SNB-EP, IVB-EP or EMR (no CPUID leaf 0x1F
		 * dies), so perf's #num_dies there is its #num_packages */
		env.packages = env.dies = cv.packages;
		env.duration_s = cv.duration_s;
		c.peak = cv.peak;
		env.cores = cv.cores;
		double v = mx_eval(&mt->x, mt->root, &env) * mt->scale;
		if (c.failed || c.not_counted) { /* the message of that event is still the thread's last error */
			uc_err_prefix("metric %s: ", mt->name);
			*out = NAN;
			return c.failed ? UNCORE_BOX_FAILED : UNCORE_NOT_COUNTED;
		}
		sum = i ? sum + v : v;
	}
	*out = sum;
	return 0;
}

/* Every event of the metric is evaluated (mx_eval computes both sides of a condition), so the metric's
 * value fails exactly when one of its events on socket/box names a failed box. */
int uncore_session_metric_failed_box_impl(const uncore_session_t *s, int m, int socket, int box, char *buf, size_t len)
{
	const struct session_metric *sm = session_metric_get(s, m);
	if (len)
		*buf = 0;
	if (!sm)
		return uc_err("no metric %d in this session", m);
	const struct uc_metric *mt = &session_owner(s)->metrics[sm->metric];
	for (int i = 0; i < mt->x.nev; i++)
		if (uncore_session_failed_box_impl(s, sm->ev[i], socket, box, buf, len) > 0)
			return 1;
	return 0;
}

/* The times of the metric's event with the smallest share running: a value is as multiplexed as its
 * least counted part. */
int uncore_session_metric_times_impl(const uncore_session_t *s, int m, int socket, int box, uint64_t *enabled,
				     uint64_t *running)
{
	const struct session_metric *sm = session_metric_get(s, m);
	int found = 0, mux = 0;
	if (!sm)
		return uc_err("no metric %d in this session", m);
	const struct uc_metric *mt = &session_owner(s)->metrics[sm->metric];
	for (int i = 0; i < mt->x.nev; i++) {
		uint64_t en, run;
		int rc = uncore_session_times_impl(s, sm->ev[i], socket, box, &en, &run);
		if (rc < 0) /* not counted there: a metric of several units has events on other boxes */
			continue;
		if (!found || (double)run * (double)*enabled < (double)*running * (double)en) {
			*enabled = en;
			*running = run;
		}
		found = 1;
		mux |= rc;
	}
	return found ? mux : uc_err("metric %s is not measured on socket %d box %d", mt->name, socket, box);
}

void session_metrics_release(uncore_session_t *s)
{
	int *n;
	struct session_metric **m = session_metrics(s, &n);
	session_metrics_free(*m, *n);
	*m = NULL;
	*n = 0;
}
