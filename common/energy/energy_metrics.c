/* The energy metrics every front end shows (uncore stat -M, PAPI, collectd, the exporter): one name each, its
 * domain, joules or watts, and the words that describe it. */
#include <string.h>
#include "energy.h"

static const struct uncore_energy_metric metrics[] = {
	{ "energy_pkg", UNCORE_ENERGY_PKG, 0, "J", "energy of the socket's package (cores, uncore, I/O), RAPL" },
	{ "energy_dram", UNCORE_ENERGY_DRAM, 0, "J", "energy of the socket's DRAM (its memory channels' DIMMs), RAPL" },
	{ "energy_psys", UNCORE_ENERGY_PSYS, 0, "J", "energy of the platform (psys: the whole board as the part sees it), RAPL" },
	{ "power_pkg", UNCORE_ENERGY_PKG, 1, "W", "mean power of the socket's package over the interval, RAPL" },
	{ "power_dram", UNCORE_ENERGY_DRAM, 1, "W", "mean power of the socket's DRAM over the interval, RAPL" },
	{ "power_psys", UNCORE_ENERGY_PSYS, 1, "W", "mean power of the platform (psys) over the interval, RAPL" },
};
#define NMETRICS (int)(sizeof(metrics) / sizeof(metrics[0]))

int uncore_energy_metric(int i, struct uncore_energy_metric *out)
{
	if (i < 0 || i >= NMETRICS)
		return -1;
	*out = metrics[i];
	return 0;
}

int uncore_energy_metric_find(const char *name)
{
	for (int i = 0; i < NMETRICS; i++)
		if (!strcmp(metrics[i].name, name))
			return i;
	return -1;
}

unsigned uncore_energy_named(const char *name, int group)
{
	unsigned bits = 0;
	int m;
	if (!group)
		return (m = uncore_energy_metric_find(name)) >= 0 ? 1u << m : 0;
	for (m = 0; !strcmp(name, UNCORE_ENERGY_GROUP) && m < NMETRICS; m++)
		if (metrics[m].domain != UNCORE_ENERGY_PSYS) /* the group: package and DRAM; psys by name */
			bits |= 1u << m;
	return bits;
}

unsigned uncore_energy_selected(const struct uncore_selection *sel)
{
	unsigned bits = 0;
	for (int i = 0; i < sel->nmetrics; i++)
		bits |= uncore_energy_named(sel->metrics[i], 0);
	for (int i = 0; i < sel->ngroups; i++)
		bits |= uncore_energy_named(sel->groups[i], 1);
	return bits;
}

unsigned uncore_energy_domains(unsigned metrics_bits)
{
	unsigned d = 0;
	for (int m = 0; m < NMETRICS; m++)
		if (metrics_bits & (1u << m))
			d |= 1u << metrics[m].domain;
	return d;
}

int uncore_energy_metric_value(const uncore_energy_t *e, int m, int socket, int window, double *out)
{
	if (m < 0 || m >= NMETRICS)
		return -1;
	return metrics[m].power ? uncore_energy_power(e, socket, metrics[m].domain, window, out)
				: uncore_energy_value(e, socket, metrics[m].domain, window, out);
}
