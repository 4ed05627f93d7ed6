/*
 * A stand-in for the collectd 5.12 daemon API the intel_uncore plugin calls:
 * it keeps the registered callbacks and records every dispatched value and
 * log message, so tests can drive the plugin's lifecycle and check its output.
 */
#ifndef MOCK_COLLECTD_H
#define MOCK_COLLECTD_H

#include "../collectd_plugin/iu_collectd.h"

#define MOCK_MAX_VALUES 4096
#define MOCK_MAX_LOGS 64

struct mock_value {
	value_list_t vl; /* values points at v */
	value_t v;
};

struct mock_daemon {
	int (*config)(oconfig_item_t *);
	int (*init)(void);
	int (*read)(user_data_t *);
	int (*shutdown)(void);
	char read_name[64];
	cdtime_t read_interval;
	struct mock_value values[MOCK_MAX_VALUES];
	int nvalues;
	int levels[MOCK_MAX_LOGS];
	char logs[MOCK_MAX_LOGS][1024];
	int nlogs;
	notification_t notifs[MOCK_MAX_LOGS];
	int nnotifs;
	void (*log_hook)(int level, const char *msg); /* each message, past the MOCK_MAX_LOGS kept too */
};
extern struct mock_daemon mock;

void mock_reset(void);
/* A <Plugin> block from text: one "Key value..." per line; values are "strings", true/false or numbers. */
oconfig_item_t *mock_block(const char *text);
void mock_block_free(oconfig_item_t *ci);
/* The value dispatched last under plugin_instance/type/type_instance, or NULL. */
const struct mock_value *mock_find(const char *plugin_instance, const char *type, const char *type_instance);
/* Number of log messages at a level (LOG_ERR ...) that contain text (NULL: any). */
int mock_logged(int level, const char *text);
/* Number of notifications of a severity (NOTIF_FAILURE ...) whose message contains text (NULL: any). */
int mock_notified(int severity, const char *text);
/* The DS type (DS_TYPE_GAUGE, DS_TYPE_DERIVE ...) of a type in collectd's types.db, or -1 if it has none. */
int mock_ds_type(const char *type);

#endif
