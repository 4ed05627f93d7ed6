/*
 * The uncore clock's limits (uncore_freq_domains, doc/collectd.md): at every dispatching read, type frequency
 * (Hz, as the cpufreq and turbostat plugins report) with type instances uncore_min, uncore_max, uncore_initial_min,
 * uncore_initial_max and uncore_current, plugin instance per die (socket0_die0) or per TPMI power domain and
 * fabric cluster (socket0_domain1_cluster0; the kernel's entry, uncore03, where its ids are root's alone), of the
 * sockets the configuration reports, with the default set or MetricGroups clock (uncore_freq_selected).
 */
#include <math.h>
#include <stddef.h>
#include "iu_collectd.h"

#define IU_UFREQ_MAX 256

static const struct {
	const char *type_instance;
	size_t off;
} values[] = {
	{ "uncore_min", offsetof(struct uncore_freq_domain, min_hz) },
	{ "uncore_max", offsetof(struct uncore_freq_domain, max_hz) },
	{ "uncore_initial_min", offsetof(struct uncore_freq_domain, initial_min_hz) },
	{ "uncore_initial_max", offsetof(struct uncore_freq_domain, initial_max_hz) },
	{ "uncore_current", offsetof(struct uncore_freq_domain, current_hz) },
};

static void instance(const struct uncore_freq_domain *d, char *buf, size_t len)
{
	if (d->socket >= 0 && d->die >= 0)
		snprintf(buf, len, "socket%d_die%d", d->socket, d->die);
	else if (d->socket >= 0 && d->domain >= 0)
		snprintf(buf, len, "socket%d_domain%d_cluster%d", d->socket, d->domain, d->cluster);
	else
		iu_clean_name(buf, len, d->name);
}

int iu_ufreq_read(struct iu_state *st, cdtime_t now)
{
	static struct uncore_freq_domain d[IU_UFREQ_MAX];
	static int said;
	value_t value;
	value_list_t vl = VALUE_LIST_INIT;
	if (!st->ufreq)
		return 0; /* not asked for: the configuration names neither the default set nor the group clock */
	int sent = 0, n = uncore_freq_read(st->u, d, IU_UFREQ_MAX); /* (the entries found when it planned) */
	if (n < 0) {
		if (!said++) /* once: a node without the driver stays without it */
			INFO("%s plugin: the uncore clock's limits are not reported: %s", IU_NAME, uncore_error());
		return 0;
	}
	uint64_t reported = 0; /* the sockets the configuration reports (Sockets), as count-health's */
	for (int i = 0; i < st->nseries; i++)
		if (st->series[i].socket >= 0 && st->series[i].socket < 64)
			reported |= 1ull << st->series[i].socket;
	vl.values = &value;
	vl.values_len = 1;
	vl.time = now;
	snprintf(vl.plugin, sizeof(vl.plugin), "%s", IU_NAME);
	snprintf(vl.type, sizeof(vl.type), "frequency");
	for (int i = 0; i < n && i < IU_UFREQ_MAX; i++) {
		if (d[i].socket >= 0 && (d[i].socket >= 64 || !(reported >> d[i].socket & 1)))
			continue;
		instance(&d[i], vl.plugin_instance, sizeof(vl.plugin_instance));
		for (size_t k = 0; k < sizeof(values) / sizeof(values[0]); k++) {
			double v = *(const double *)(const void *)((const char *)&d[i] + values[k].off);
			if (isnan(v))
				continue;
			value.gauge = v;
			snprintf(vl.type_instance, sizeof(vl.type_instance), "%s", values[k].type_instance);
			sent += plugin_dispatch_values(&vl) == 0;
		}
	}
	return sent;
}
