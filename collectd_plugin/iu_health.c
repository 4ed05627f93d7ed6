/*
 * The health conditions the library raises and clears on each read (doc/health.md), as collectd sees them:
 * a notification for each change (WARNING when raised, OKAY when cleared: what threshold, notify_email and
 * exec plugins act on), and per socket reported a gauge count-health, the conditions standing on it (those
 * of the node, resctrl's, on every socket) so that a dashboard can alert on a value above 0.
 */
#include "iu_collectd.h"

#define IU_HEALTH_MAX 256

static void notify(const struct uncore_health *h)
{
	notification_t n = { .severity = h->raised ? NOTIF_WARNING : NOTIF_OKAY, .time = cdtime() };
	snprintf(n.message, sizeof(n.message), "health %s %s: %s%s%s", uncore_health_name(h->kind),
		 h->raised ? "raised" : "cleared", h->what, h->raised ? "; " : "", h->raised ? uncore_health_advice(h->kind) : "");
	snprintf(n.host, sizeof(n.host), "%s", hostname_g ? hostname_g : "");
	snprintf(n.plugin, sizeof(n.plugin), "%s", IU_NAME);
	if (h->socket >= 0)
		snprintf(n.plugin_instance, sizeof(n.plugin_instance), "socket%d", h->socket);
	snprintf(n.type, sizeof(n.type), "count");
	snprintf(n.type_instance, sizeof(n.type_instance), "health");
	plugin_dispatch_notification(&n);
}

int iu_health_read(struct iu_state *st, cdtime_t now)
{
	struct uncore_health h[IU_HEALTH_MAX];
	int n = uncore_session_health_changes(st->s, h, IU_HEALTH_MAX), sent = 0, node = 0, count[64] = { 0 };
	uint64_t reported = 0;
	for (int i = 0; i < n && i < IU_HEALTH_MAX; i++)
		notify(&h[i]);
	n = uncore_session_health(st->s, h, IU_HEALTH_MAX);
	for (int i = 0; i < n && i < IU_HEALTH_MAX; i++)
		if (h[i].socket < 0)
			node++;
		else if (h[i].socket < 64)
			count[h[i].socket]++;
	for (int i = 0; i < st->nseries; i++)
		if (st->series[i].socket >= 0 && st->series[i].socket < 64)
			reported |= 1ull << st->series[i].socket;
	value_t value;
	value_list_t vl = VALUE_LIST_INIT;
	vl.values = &value;
	vl.values_len = 1;
	vl.time = now;
	snprintf(vl.plugin, sizeof(vl.plugin), "%s", IU_NAME);
	snprintf(vl.type, sizeof(vl.type), "count");
	snprintf(vl.type_instance, sizeof(vl.type_instance), "health");
	for (int k = 0; k < 64; k++)
		if (reported >> k & 1) {
			snprintf(vl.plugin_instance, sizeof(vl.plugin_instance), "socket%d", k);
			value.gauge = count[k] + node;
			sent += plugin_dispatch_values(&vl) == 0;
		}
	return sent;
}
