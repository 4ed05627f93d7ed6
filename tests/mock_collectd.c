/* The daemon side of the plugin tests: see mock_collectd.h. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mock_collectd.h"

struct mock_daemon mock;
static cdtime_t mock_now = TIME_T_TO_CDTIME_T_STATIC(1700000000);

void mock_reset(void)
{
	memset(&mock, 0, sizeof(mock));
}

int plugin_register_complex_config(const char *type, int (*callback)(oconfig_item_t *))
{
	(void)type;
	mock.config = callback;
	return 0;
}

int plugin_register_init(const char *name, plugin_init_cb callback)
{
	(void)name;
	mock.init = callback;
	return 0;
}

int plugin_register_shutdown(const char *name, plugin_shutdown_cb callback)
{
	(void)name;
	mock.shutdown = callback;
	return 0;
}

int plugin_register_complex_read(const char *group, const char *name, plugin_read_cb callback, cdtime_t interval,
				 user_data_t const *user_data)
{
	(void)group;
	(void)user_data;
	snprintf(mock.read_name, sizeof(mock.read_name), "%s", name);
	mock.read = callback;
	mock.read_interval = interval;
	return 0;
}

int plugin_dispatch_values(value_list_t const *vl)
{
	if (mock.nvalues == MOCK_MAX_VALUES || vl->values_len != 1)
		return -1;
	struct mock_value *m = &mock.values[mock.nvalues++];
	m->vl = *vl;
	m->v = vl->values[0];
	m->vl.values = &m->v;
	return 0;
}

void plugin_log(int level, const char *format, ...)
{
	va_list ap;
	char msg[sizeof(mock.logs[0])];
	va_start(ap, format);
	vsnprintf(msg, sizeof(msg), format, ap);
	va_end(ap);
	if (mock.log_hook)
		mock.log_hook(level, msg);
	if (mock.nlogs == MOCK_MAX_LOGS)
		return;
	memcpy(mock.logs[mock.nlogs], msg, sizeof(msg));
	mock.levels[mock.nlogs++] = level;
}

char *hostname_g = "mocknode";

int plugin_dispatch_notification(const notification_t *n)
{
	if (mock.nnotifs == MOCK_MAX_LOGS)
		return -1;
	mock.notifs[mock.nnotifs++] = *n;
	return 0;
}

int mock_notified(int severity, const char *text)
{
	int n = 0;
	for (int i = 0; i < mock.nnotifs; i++)
		n += mock.notifs[i].severity == severity && (!text || strstr(mock.notifs[i].message, text)) &&
		     !strcmp(mock.notifs[i].plugin, "intel_uncore") && !strcmp(mock.notifs[i].host, hostname_g);
	return n;
}

cdtime_t cdtime(void)
{
	return mock_now += TIME_T_TO_CDTIME_T_STATIC(1);
}

cdtime_t plugin_get_interval(void)
{
	return TIME_T_TO_CDTIME_T_STATIC(10);
}

static oconfig_value_t value_of(const char *tok, size_t n)
{
	oconfig_value_t v = { 0 };
	if (tok[0] == '"') {
		v.type = OCONFIG_TYPE_STRING;
		v.value.string = strndup(tok + 1, n - 2);
	} else if (!strncmp(tok, "true", n) || !strncmp(tok, "false", n)) {
		v.type = OCONFIG_TYPE_BOOLEAN;
		v.value.boolean = tok[0] == 't';
	} else {
		v.type = OCONFIG_TYPE_NUMBER;
		v.value.number = strtod(tok, NULL);
	}
	return v;
}

oconfig_item_t *mock_block(const char *text)
{
	oconfig_item_t *ci = calloc(1, sizeof(*ci));
	ci->key = strdup("Plugin");
	ci->children = calloc(64, sizeof(*ci->children));
	for (const char *line = text; *line; line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0)) {
		const char *p = line, *end = line + strcspn(line, "\n");
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p == end || ci->children_num == 64)
			continue;
		oconfig_item_t *o = &ci->children[ci->children_num++];
		o->parent = ci;
		o->key = strndup(p, strcspn(p, " \t\n"));
		p += strlen(o->key);
		o->values = calloc(32, sizeof(*o->values));
		for (;;) {
			while (p < end && isspace((unsigned char)*p))
				p++;
			if (p >= end)
				break;
			const char *q = *p == '"' ? memchr(p + 1, '"', (size_t)(end - p - 1)) : NULL;
			if (*p == '"' && !q)
				break; /* an unterminated string: the rest of the line is not a value */
			size_t n = q ? (size_t)(q - p) + 1 : strcspn(p, " \t\n");
			if (o->values_num == 32)
				break;
			o->values[o->values_num++] = value_of(p, n);
			p += n;
		}
	}
	return ci;
}

void mock_block_free(oconfig_item_t *ci)
{
	for (int i = 0; i < ci->children_num; i++) {
		oconfig_item_t *o = &ci->children[i];
		for (int k = 0; k < o->values_num; k++)
			if (o->values[k].type == OCONFIG_TYPE_STRING)
				free(o->values[k].value.string);
		free(o->values);
		free(o->key);
	}
	free(ci->children);
	free(ci->key);
	free(ci);
}

const struct mock_value *mock_find(const char *plugin_instance, const char *type, const char *type_instance)
{
	for (int i = mock.nvalues - 1; i >= 0; i--) {
		const value_list_t *vl = &mock.values[i].vl;
		if (!strcmp(vl->plugin_instance, plugin_instance) && !strcmp(vl->type, type) &&
		    !strcmp(vl->type_instance, type_instance))
			return &mock.values[i];
	}
	return NULL;
}

int mock_logged(int level, const char *text)
{
	int n = 0;
	for (int i = 0; i < mock.nlogs; i++)
		n += mock.levels[i] == level && (!text || strstr(mock.logs[i], text));
	return n;
}

int mock_ds_type(const char *type)
{
	FILE *f = fopen("/usr/share/collectd/types.db", "r");
	char line[512], name[128], ds[128];
	int t = -1;
	while (f && t < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%127s %127s", name, ds) == 2 && !strcmp(name, type) && !strchr(line, ',')) {
			t = strstr(ds, ":GAUGE:") ? DS_TYPE_GAUGE : strstr(ds, ":DERIVE:") ? DS_TYPE_DERIVE
			  : strstr(ds, ":COUNTER:") ? DS_TYPE_COUNTER : DS_TYPE_ABSOLUTE;
		}
	if (f)
		fclose(f);
	return t;
}
