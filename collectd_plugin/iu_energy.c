/*
 * Energy in the collectd plugin (doc/energy.md): each socket's RAPL domains as collectd's own types, the
 * mean watts of the interval as `power` and the joules since the plugin started as `energy` (a gauge that only
 * grows), type instances pkg, dram and psys: <host>.intel_uncore.socket0.power.dram, for the domains Metrics
 * (energy_pkg, power_dram...) or MetricGroups "energy" names.  Sampled with the
 * counters between dispatches, so an Interval longer than a wrap loses nothing.  A node whose energy cannot be
 * read says why once and reports the rest.
 */
#include "iu_collectd.h"

void iu_energy_setup(struct iu_state *st, unsigned domains)
{
	st->energy_domains = domains;
	if (!domains)
		return;
	if (uncore_energy_new(st->u, NULL, &st->energy)) {
		NOTICE("%s plugin: no energy values: %s", IU_NAME, uncore_error());
		st->energy = NULL;
		return;
	}
	INFO("%s plugin: energy from %s", IU_NAME, uncore_energy_source(st->energy));
}

uint64_t iu_energy_limit(const struct iu_state *st, uint64_t lim_ns)
{
	uint64_t e = st->energy ? uncore_energy_max_interval_ns(st->energy) : 0;
	return e && (!lim_ns || e < lim_ns) ? e : lim_ns;
}

int iu_energy_start(struct iu_state *st, uint64_t sample_ns)
{
	if (st->energy && uncore_energy_start(st->energy, sample_ns)) {
		ERROR("%s plugin: energy: %s; the other values go on", IU_NAME, uncore_error());
		uncore_energy_free(st->energy);
		st->energy = NULL;
	}
	return 0;
}

int iu_energy_sample(struct iu_state *st)
{
	if (st->energy && uncore_energy_sample(st->energy))
		ERROR("%s plugin: %s", IU_NAME, uncore_error());
	return 0;
}

int iu_energy_read(struct iu_state *st, cdtime_t now, uint64_t lib_now)
{
	value_t value;
	value_list_t vl = VALUE_LIST_INIT;
	int sent = 0;
	if (!st->energy)
		return 0;
	if (uncore_energy_read(st->energy))
		ERROR("%s plugin: %s", IU_NAME, uncore_error());
	vl.values = &value;
	vl.values_len = 1;
	vl.time = iu_stamp(now, lib_now, uncore_energy_read_time_ns(st->energy));
	snprintf(vl.plugin, sizeof(vl.plugin), "%s", IU_NAME);
	for (int s = 0; s < uncore_num_sockets(st->u) && s < 32; s++)
		for (int d = 0; d < UNCORE_ENERGY_DOMAINS; d++) {
			double j, w;
			if ((st->sockets && !(st->sockets & (1u << s))) || !(st->energy_domains & (1u << d)) ||
			    !uncore_energy_has(st->energy, s, d) ||
			    uncore_energy_value(st->energy, s, d, UNCORE_SINCE_START, &j) < 0)
				continue;
			snprintf(vl.plugin_instance, sizeof(vl.plugin_instance), "socket%d", s);
			snprintf(vl.type_instance, sizeof(vl.type_instance), "%s", uncore_energy_domain_name(d));
			snprintf(vl.type, sizeof(vl.type), "energy");
			value.gauge = st->energy_base[s][d] + j;
			sent += plugin_dispatch_values(&vl) == 0;
			if (uncore_energy_power(st->energy, s, d, UNCORE_LAST_INTERVAL, &w) < 0 || !isfinite(w))
				continue;
			snprintf(vl.type, sizeof(vl.type), "power");
			value.gauge = w;
			sent += plugin_dispatch_values(&vl) == 0;
		}
	return sent;
}

void iu_energy_keep(struct iu_state *st)
{
	if (!st->energy)
		return;
	if (uncore_energy_read(st->energy))
		ERROR("%s plugin: %s", IU_NAME, uncore_error());
	for (int s = 0; s < uncore_num_sockets(st->u) && s < 32; s++)
		for (int d = 0; d < UNCORE_ENERGY_DOMAINS; d++) {
			double j;
			if (uncore_energy_has(st->energy, s, d) && uncore_energy_value(st->energy, s, d, UNCORE_SINCE_START, &j) >= 0)
				st->energy_base[s][d] += j;
		}
}

void iu_energy_stop(struct iu_state *st)
{
	uncore_energy_free(st->energy);
	st->energy = NULL;
}
