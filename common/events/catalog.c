/*
 * The event catalog of an open uncore: the platform's built-in tables, then any
 * Intel perfmon uncore JSON files (UNCORE_EVENTS=FILE[:FILE], or
 * uncore_load_events()), which add events or replace built-in ones of the same
 * name.  perfmon "Unit" names are mapped to the platform's box types; on a
 * generic discovery platform through the discovery type numbering of SPR/EMR.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "events.h"
#include "util/arena.h"
#include "util/env.h"
#include "util/error.h"
#include "util/json_in.h"
#include "util/safe_file.h"
#include "util/grow.h"

/* Is json_unit one of the perfmon Unit names of box type t? */
static int perfmon_named(const struct box_type *t, const char *json_unit)
{
	size_t l = strlen(json_unit);
	for (const char *p = t->perfmon; p && *p;) {
		size_t n = strcspn(p, "|");
		if (n == l && !strncasecmp(p, json_unit, l))
			return 1;
		p += n + (p[n] == '|');
	}
	return 0;
}

/* The box type a perfmon Unit name means: ours by name or perfmon name; on a generic discovery
 * platform, the unit of the discovery type a platform with tables gives that name (SPR/EMR numbering). */
static const struct box_type *unit_type(const uncore_t *u, const char *json_unit)
{
	const struct platform_desc *p = u->plat;
	for (int t = 0; t < p->ntypes; t++)
		if (!strcasecmp(p->types[t]->name, json_unit) || perfmon_named(p->types[t], json_unit))
			return p->types[t];
	for (int k = 0; u->own_plat && uc_platforms[k]; k++)
		for (int j = 0; j < uc_platforms[k]->ntypes; j++) {
			const struct box_type *known = uc_platforms[k]->types[j];
			if (known->disc_type < 0 || !perfmon_named(known, json_unit))
				continue;
			for (int t = 0; t < p->ntypes; t++)
				if (p->types[t]->disc_type == known->disc_type)
					return p->types[t];
		}
	return NULL;
}

static const char *event_name(const void *ctx, int i) { return ((const uncore_t *)ctx)->events[i].name; }

/* The platform table's rows before its deprecated aliases (UC_EV_DEPRECATED rows end it: tools/gen/gen_perfmon). */
static int live_rows(const struct platform_desc *p)
{
	int n = p->events ? p->events->n : 0;
	while (n > 0 && (p->events->rows[n - 1].flags & UC_EV_DEPRECATED))
		n--;
	return n;
}

/* The platform's deprecated alias named name (any case): its row in *out, or 0.  Only a name the catalog lacks
 * gets here, so the scan of the table's end costs nothing on the events in use. */
static int deprecated_named(const uncore_t *u, const char *name, struct uc_event *out)
{
	const struct uc_catalog *c = u->plat->events;
	for (int i = c ? c->n : 0; i-- > 0 && (c->rows[i].flags & UC_EV_DEPRECATED);)
		if (!strcasecmp(uc_catalog_name(c, i), name)) {
			uc_catalog_event(c, i, out);
			return 1;
		}
	return 0;
}

/* An event of the catalog itself, not through a deprecated name (what a loaded event replaces). */
static int catalog_find_own(const uncore_t *u, const char *name) { return name_index_find(&u->event_names, name, event_name, u); }

/* A deprecated name finds the event Intel names as its replacement (perf takes them too, and lists them only
 * with --deprecated): SKX's UNC_H_CLOCKTICKS is UNC_CHA_CLOCKTICKS. */
int catalog_find(const uncore_t *u, const char *name)
{
	int i = catalog_find_own(u, name);
	struct uc_event d;
	return i < 0 && deprecated_named(u, name, &d) ? catalog_find_own(u, d.src) : i;
}

int catalog_deprecated(const uncore_t *u, int i, struct uc_event *out)
{
	const struct platform_desc *p = u->plat;
	int first = live_rows(p), n = p->events ? p->events->n : 0;
	if (i < 0 || i >= n - first)
		return 0;
	uc_catalog_event(p->events, first + i, out);
	return 1;
}

static int catalog_add(uncore_t *u, const struct uc_event *e)
{
	int i = catalog_find_own(u, e->name);
	if (i >= 0) {
		u->events[i] = *e; /* a loaded event replaces the built-in one (same name: the index holds) */
		return 1;
	}
	struct uc_event *nv = uc_grow(u->events, u->nevents, &u->events_cap, sizeof(*nv), 256);
	if (!nv)
		return uc_err("out of memory listing the events");
	u->events = nv;
	u->events[u->nevents++] = *e;
	return name_index_add(&u->event_names, u->nevents - 1, event_name, u);
}

/* Another platform's events (unit: a box type or perfmon Unit name), each on this platform's type of that
 * name or discovery type; the others (a unit or counter this CPU lacks) left out. */
static int catalog_add_mapped(uncore_t *u, const struct uc_catalog *c)
{
	int added = 0;
	for (int i = 0; i < c->n; i++) {
		struct uc_event e;
		uc_catalog_event(c, i, &e);
		const struct box_type *t = unit_type(u, e.unit);
		/* a unit this CPU lacks, or a counter its type does not have; another platform's deprecated names */
		if (!t || (e.flags & UC_EV_DEPRECATED) || ((e.flags & UC_EV_FIXED) && !t->has_fixed) || ((e.flags & UC_EV_FREERUN) && !t->nfr))
			continue;
		e.unit = t->name;
		if (catalog_add(u, &e) < 0)
			return -1;
		added++;
	}
	return added;
}

/* Line of the event in the file, for messages: where its EventName first appears (0: not found).  One
 * pass over the file, in blocks, carrying the name's length over block edges; overlong names are not
 * looked for. */
static int line_of(const char *file, const char *name)
{
	size_t nl = name ? strlen(name) : 0, have = 0;
	if (!nl || nl > 256)
		return 0;
	FILE *f = uc_open_input(file); /* its message, if any, gives way to the caller's */
	char buf[65536 + 256];
	int line = 1;
	if (!f)
		return 0;
	for (;;) {
		size_t got = fread(buf + have, 1, sizeof(buf) - have, f), len = have + got;
		char *hit = memmem(buf, len, name, nl);
		for (char *p = buf; p < (hit ? hit : buf + (len >= nl ? len - nl + 1 : 0)); p++)
			line += *p == '\n';
		if (hit || !got) {
			fclose(f);
			return hit ? line : 0;
		}
		have = len >= nl ? nl - 1 : len; /* a name may straddle the edge: keep its possible start */
		memmove(buf, buf + len - have, have);
	}
}

static int field_num(json_t *ev, const char *key, unsigned long max, unsigned long *out, int required)
{
	json_t *v = json_object_get(ev, key);
	const char *s;
	char *end;
	*out = 0;
	if (!v)
		return required ? -1 : 0;
	if (json_is_integer(v)) {
		if (json_integer_value(v) < 0 || (unsigned long)json_integer_value(v) > max)
			return -1;
		*out = (unsigned long)json_integer_value(v);
		return 0;
	}
	if (!json_is_string(v))
		return -1;
	s = json_string_value(v);
	*out = strtoul(s, &end, 0);
	return (*end || end == s || *out > max) ? -1 : 0;
}

/* perfmon's Counter: "FIXED", or the general counters the event may use ("0,1,2,3"), each below nctr.
 * Absent: any counter. -1 when it is anything else. */
static int counter_mask(json_t *v, int nctr, unsigned *mask, int *fixed)
{
	const char *s = json_string_value(v);
	*mask = 0;
	*fixed = 0;
	if (!v) {
		*mask = (1u << nctr) - 1;
		return 0;
	}
	if (!s)
		return -1;
	if (!strcasecmp(s, "FIXED")) {
		*fixed = 1;
		return 0;
	}
	for (;;) {
		int c = 0, digits = 0;
		for (; *s >= '0' && *s <= '9' && digits < 3; s++, digits++)
			c = c * 10 + (*s - '0');
		if (!digits || c >= nctr)
			return -1;
		*mask |= 1u << c;
		if (!*s)
			return 0;
		if (*s++ != ',')
			return -1;
	}
}

static int bad(const char *file, const char *name, const char *field, const char *what)
{
	return uc_err("%s:%d: event %s: field \"%s\" %s", file, line_of(file, name), name ? name : "(unnamed)",
		      field, what);
}

/* Note a perfmon Unit this platform lacks, once, in the list of units skipped. */
static void note_skipped(char *list, size_t len, const char *unit)
{
	size_t n = strlen(list);
	if (!strstr(list, unit) && n + strlen(unit) + 3 < len)
		snprintf(list + n, len - n, "%s%s", n ? ", " : "", unit);
}

/* What a load left out, for its warnings: units this platform lacks, Filters its unit map does not name. */
struct left_out {
	char units[256], filters[256];
	int nfilters;
};

/* The event's Filter (and FILTER_VALUE) as our filter spec, by the platform's unit map rows, as the built-in
 * events got theirs (tools/gen/gen_perfmon): 0, 1 when the map does not name the Filter (the event would
 * count without the filter Intel gives it: left out), -1 with a message. */
static int json_filter(uncore_t *u, const char *file, const char *name, json_t *ev, struct uc_event *e,
		       struct left_out *lo)
{
	json_t *f = json_object_get(ev, "Filter"), *fv = json_object_get(ev, "FILTER_VALUE");
	const char *value = json_is_string(fv) ? json_string_value(fv) : "";
	char num[32], spec[256], why[200];
	if (f && !json_is_string(f))
		return bad(file, name, "Filter", "is not a string");
	if (json_is_integer(fv) && json_integer_value(fv) >= 0) { /* Intel writes a string, "0x40433" */
		snprintf(num, sizeof(num), "%llx", (unsigned long long)json_integer_value(fv));
		value = num;
	} else if (fv && !json_is_string(fv)) {
		return bad(file, name, "FILTER_VALUE", "is not a hexadecimal number");
	}
	int r = uc_perfmon_filter_spec(u->plat->perfmon_filters, json_string_value(f), value, spec, sizeof(spec), why,
				       sizeof(why));
	if (r < 0)
		return bad(file, name, "Filter", why);
	if (r > 0) { /* its rows hold commas ("CBoFilter1[28:20], CBoFilter1[15:0]"): quoted in the list */
		snprintf(why, sizeof(why), "\"%.100s\"", json_string_value(f));
		lo->nfilters++;
		note_skipped(lo->filters, sizeof(lo->filters), why);
		return 1;
	}
	e->filters = *spec ? arena_strdup(&u->arena, spec) : "";
	return e->filters ? 0 : uc_err("out of memory");
}

/* Entry i of a perfmon event list as a catalog event: 0, 1 when it is to be skipped (a unit this
 * platform lacks, a Filter its unit map does not name, or a free-running counter, built in where it
 * exists), -1 with a message naming the file, event and field. */
static int json_event(uncore_t *u, const char *file, size_t i, json_t *ev, struct uc_event *e, struct left_out *lo)
{
	const char *name = json_string_value(json_object_get(ev, "EventName"));
	const char *unit = json_string_value(json_object_get(ev, "Unit"));
	const char *ctype = json_string_value(json_object_get(ev, "CounterType"));
	const char *desc = json_string_value(json_object_get(ev, "BriefDescription"));
	unsigned long code, umask, ext, port, fc;
	const struct box_type *t;
	unsigned mask;
	int fixed;
	if (!json_is_object(ev))
		return uc_err("%s: entry %zu of the event list is not an object", file, i);
	if (!name || !*name)
		return uc_err("%s: entry %zu of the event list: field \"EventName\" is missing or not a string", file, i);
	if (uc_ctl_char(name)) /* named by entry: the name itself would carry the character into the message */
		return uc_err("%s: entry %zu of the event list: field \"EventName\" holds control character 0x%02x",
			      file, i, uc_ctl_char(name));
	if (!unit)
		return bad(file, name, "Unit", "is missing or not a string");
	if (field_num(ev, "EventCode", 0xff, &code, 1))
		return bad(file, name, "EventCode", "is missing or not a number 0..0xff");
	if (field_num(ev, "UMask", 0xff, &umask, 0))
		return bad(file, name, "UMask", "is not a number 0..0xff");
	if (field_num(ev, "UMaskExt", 0xffffffffu, &ext, 0) || field_num(ev, "PortMask", 0xfff, &port, 0) ||
	    field_num(ev, "FCMask", 7, &fc, 0))
		return bad(file, name, "UMaskExt/PortMask/FCMask", "is not a number in range");
	t = unit_type(u, unit);
	if (!t || (ctype && !strcasecmp(ctype, "FREERUN"))) {
		if (!t)
			note_skipped(lo->units, sizeof(lo->units), unit);
		return 1;
	}
	*e = (struct uc_event){ .name = arena_strdup(&u->arena, name), .unit = t->name, .src = "json", .filters = "",
				.desc = arena_strdup(&u->arena, desc ? desc : ""), .code = (uint8_t)code,
				.umask = (uint8_t)umask };
	/* IIO: the port and flow-class masks given apart go into umask_ext where the platform's unit map puts them,
	 * as they went into its built-in events (Skylake-SP's FCMask at bit 12); without a map, where the
	 * discovery generation has them, bits 15:4 and 18:16 (T2-184) */
	static const struct uc_perfmon_fold t2_184[] = { { "PortMask", 4 }, { "FCMask", 16 }, { NULL, 0 } };
	const struct uc_perfmon_fold *f = u->plat->perfmon_folds ? u->plat->perfmon_folds : t2_184;
	e->umext = (uint32_t)ext;
	for (; !ext && f->field; f++) {
		unsigned long v;
		if (field_num(ev, f->field, 0xffffffffu >> f->shift, &v, 0))
			return bad(file, name, f->field, "is not a number in range");
		e->umext |= (uint32_t)(v << f->shift);
	}
	if (counter_mask(json_object_get(ev, "Counter"), t->nctr, &mask, &fixed)) {
		char what[160];
		json_t *v = json_object_get(ev, "Counter");
		if (json_is_string(v))
			snprintf(what, sizeof(what), "is \"%.40s\", not FIXED or a list of %s counters 0..%d (\"0,1\")",
				 json_string_value(v), t->name, t->nctr - 1);
		else
			snprintf(what, sizeof(what), "is not a string: FIXED or a list of %s counters 0..%d (\"0,1\")",
				 t->name, t->nctr - 1);
		return bad(file, name, "Counter", what);
	}
	e->ctr_mask = (uint16_t)mask;
	if (fixed)
		e->flags = UC_EV_FIXED;
	if (!e->name || !e->desc)
		return uc_err("out of memory");
	return json_filter(u, file, name, ev, e, lo);
}

static int load_json(uncore_t *u, const char *file)
{
	json_t *root = uc_json_load(file), *arr;
	int added = 0, rc = -1;
	struct left_out lo = { "", "", 0 };
	if (!root)
		return -1;
	arr = json_is_array(root) ? root : json_object_get(root, "Events");
	if (!json_is_array(arr)) {
		uc_err("%s: expected a perfmon event list (an array, or an object with an \"Events\" array)", file);
		goto out;
	}
	for (size_t i = 0; i < json_array_size(arr); i++) {
		struct uc_event e;
		int r = json_event(u, file, i, json_array_get(arr, i), &e, &lo);
		if (r < 0 || (!r && catalog_add(u, &e) < 0))
			goto out;
		added += !r;
	}
	if (lo.units[0])
		uc_warn("%s: units %s are not on this %s machine; their events were skipped", file, lo.units, u->plat->name);
	if (lo.nfilters)
		uc_warn("%s: %d events were skipped: what their Filter %s means on %s is not known (no unit map of this "
			"platform names it), and without it they would count something else", file, lo.nfilters, lo.filters,
			u->plat->name);
	rc = added;
out:
	json_decref(root);
	return rc;
}

int catalog_init(uncore_t *u, const struct uc_catalog *more)
{
	const char *env = uc_env("UNCORE_EVENTS");
	int n = live_rows(u->plat); /* the deprecated aliases after them stay in the table (catalog_find) */
	u->events = n ? malloc((size_t)n * sizeof(*u->events)) : NULL;
	if (n && !u->events)
		return uc_err("out of memory");
	for (int i = 0; i < n; i++)
		uc_catalog_event(u->plat->events, i, &u->events[i]);
	u->nevents = u->events_cap = n;
	for (int i = 0; i < n; i++)
		if (name_index_add(&u->event_names, i, event_name, u))
			return -1;
	if (more && catalog_add_mapped(u, more) < 0)
		return -1;
	if (uc_load_list(u, env, load_json) < 0)
		return uc_err_prefix("UNCORE_EVENTS: ");
	return 0;
}

int uncore_load_events_impl(uncore_t *u, const char *file)
{
	if (!file || !*file)
		return uc_err("no events file given");
	return uc_load_list(u, file, load_json);
}
