/*
 * The <Plugin intel_uncore> block: syntax and value checks.  Names (metrics,
 * groups, events, units, sockets) are checked against the platform in iu_setup.
 * The oconfig tree is read directly: collectd's cf_util_* helpers log their own
 * messages, which would not name this plugin's option the way users need.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "iu_collectd.h"

int iu_fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

void iu_log_warnings(const char *what)
{
	for (const char *w = uncore_warnings_drain(NULL); *w;) {
		size_t n = strcspn(w, "\n");
		WARNING("%s plugin: %s%.*s", IU_NAME, what, (int)n, w);
		w += n + (w[n] == '\n');
	}
}

/* Option with one or more string values, appended to list. */
static int strings(const oconfig_item_t *o, char **list, int *n, char *err, size_t len)
{
	if (o->values_num < 1)
		return iu_fail(err, len, "%s needs at least one quoted name", o->key);
	for (int i = 0; i < o->values_num; i++) {
		const oconfig_value_t *v = &o->values[i];
		if (v->type != OCONFIG_TYPE_STRING || !v->value.string[0])
			return iu_fail(err, len, "%s: value %d is not a quoted name", o->key, i + 1);
		if (*n >= IU_MAX_LIST)
			return iu_fail(err, len, "%s: more than %d names", o->key, IU_MAX_LIST);
		if (!(list[*n] = strdup(v->value.string)))
			return iu_fail(err, len, "%s: out of memory", o->key);
		(*n)++;
	}
	return 0;
}

/* "0", "0-1", "0,2" (also several values, and bare numbers) */
static int sockets(const oconfig_item_t *o, unsigned *mask, char *err, size_t len)
{
	if (o->values_num < 1)
		return iu_fail(err, len, "Sockets needs socket numbers, e.g. Sockets \"0-1\" or Sockets 0 1");
	for (int i = 0; i < o->values_num; i++) {
		const oconfig_value_t *v = &o->values[i];
		char buf[64];
		if (v->type == OCONFIG_TYPE_NUMBER)
			snprintf(buf, sizeof(buf), "%.17g", v->value.number);
		else if (v->type == OCONFIG_TYPE_STRING)
			snprintf(buf, sizeof(buf), "%s", v->value.string);
		else
			return iu_fail(err, len, "Sockets: value %d is not a socket number", i + 1);
		for (char *p = buf; *p;) {
			char *end;
			long lo = strtol(p, &end, 10), hi = lo;
			if (end == p)
				goto bad;
			if (*end == '-') {
				p = end + 1;
				hi = strtol(p, &end, 10);
				if (end == p)
					goto bad;
			}
			if (lo < 0 || hi < lo || hi >= 32)
				return iu_fail(err, len, "Sockets: '%s' is not a socket range from 0 to 31", buf);
			for (long s = lo; s <= hi; s++)
				*mask |= 1u << s;
			if (*end && *end != ',')
				goto bad;
			p = *end ? end + 1 : end;
		}
		continue;
	bad:
		return iu_fail(err, len, "Sockets: '%s' is not a socket list (e.g. \"0\", \"0-1\" or \"0,2\")", buf);
	}
	return 0;
}

/* true / false, or unit names ("imc" "upi") */
static int per_box(const oconfig_item_t *o, struct iu_config *c, char *err, size_t len)
{
	if (o->values_num == 1 && o->values[0].type == OCONFIG_TYPE_BOOLEAN) {
		c->per_box_all = o->values[0].value.boolean != 0;
		return 0;
	}
	if (o->values_num >= 1 && o->values[0].type == OCONFIG_TYPE_STRING)
		return strings(o, c->box_units, &c->nbox_units, err, len);
	return iu_fail(err, len, "ReportPerBox takes true, false, or unit names such as \"imc\" \"upi\"");
}

static int interval(const oconfig_item_t *o, double *out, char *err, size_t len)
{
	if (o->values_num != 1 || o->values[0].type != OCONFIG_TYPE_NUMBER || !(o->values[0].value.number > 0) ||
	    o->values[0].value.number > 86400)
		return iu_fail(err, len, "Interval takes one number of seconds, more than 0 and at most 86400");
	*out = o->values[0].value.number;
	return 0;
}

int iu_config_parse(struct iu_config *c, const oconfig_item_t *ci, char *err, size_t len)
{
	for (int i = 0; i < ci->children_num; i++) {
		const oconfig_item_t *o = &ci->children[i];
		int rc;
		if (o->children_num)
			return iu_fail(err, len, "%s: no block is allowed here", o->key);
		if (!strcasecmp(o->key, "Backend")) {
			if (o->values_num != 1 || o->values[0].type != OCONFIG_TYPE_STRING || !o->values[0].value.string[0])
				return iu_fail(err, len, "Backend takes one quoted value: \"auto\", \"direct\" or \"sim:PLATFORM[,...]\"");
			free(c->backend);
			if (!(c->backend = strdup(o->values[0].value.string)))
				return iu_fail(err, len, "Backend: out of memory");
			rc = 0;
		} else if (!strcasecmp(o->key, "Metrics"))
			rc = strings(o, c->metrics, &c->nmetrics, err, len);
		else if (!strcasecmp(o->key, "MetricGroups"))
			rc = strings(o, c->groups, &c->ngroups, err, len);
		else if (!strcasecmp(o->key, "Events"))
			rc = strings(o, c->events, &c->nevents, err, len);
		else if (!strcasecmp(o->key, "Sockets"))
			rc = sockets(o, &c->sockets, err, len);
		else if (!strcasecmp(o->key, "ReportPerBox"))
			rc = per_box(o, c, err, len);
		else if (!strcasecmp(o->key, "Interval"))
			rc = interval(o, &c->interval, err, len);
		else if (!strcasecmp(o->key, "Force")) {
			if (o->values_num != 1 || o->values[0].type != OCONFIG_TYPE_BOOLEAN)
				return iu_fail(err, len, "Force takes true or false");
			c->force = o->values[0].value.boolean != 0;
			rc = 0;
		} else if (!strcasecmp(o->key, "PerJob")) {
			if (o->values_num != 1 || o->values[0].type != OCONFIG_TYPE_BOOLEAN)
				return iu_fail(err, len, "PerJob takes true or false");
			c->per_job = o->values[0].value.boolean != 0;
			rc = 0;
		} else
			return iu_fail(err, len, "unknown option '%s' (options: Backend, Metrics, MetricGroups, Sockets, "
					      "ReportPerBox, Events, Interval, Force, PerJob)", o->key);
		if (rc)
			return -1;
	}
	return 0;
}

static void free_list(char **list, int *n)
{
	for (int i = 0; i < *n; i++)
		free(list[i]);
	*n = 0;
}

void iu_config_free(struct iu_config *c)
{
	free(c->backend);
	free_list(c->metrics, &c->nmetrics);
	free_list(c->groups, &c->ngroups);
	free_list(c->events, &c->nevents);
	free_list(c->box_units, &c->nbox_units);
	memset(c, 0, sizeof(*c));
}
