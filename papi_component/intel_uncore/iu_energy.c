/*
 * intel_uncore PAPI component: the energy native events (doc/energy.md), energy_pkg, energy_dram and energy_psys
 * where the part has the domain, in nanojoules (as PAPI's rapl component counts), with the metrics' one
 * qualifier socket=N (without it every socket is summed).  Read through the library's energy object, which
 * takes the perf power PMU, powercap or the RAPL MSRs; PAPI_read at least every wrap time of the MSRs
 * (uncore_energy_max_interval_ns: minutes at full power) or the read fails saying so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iu.h"

static int metric_of[UNCORE_ENERGY_DOMAINS]; /* the k-th energy event's library energy metric */
static int nenergy;

int iu_energy_init(uncore_t *u)
{
	struct uncore_energy_metric em;
	nenergy = 0;
	for (int m = 0; !uncore_energy_metric(m, &em); m++)
		if (!em.power && uncore_energy_here(u, em.domain) && nenergy < UNCORE_ENERGY_DOMAINS)
			metric_of[nenergy++] = m;
	return nenergy;
}

int iu_energy_name(int k, char *buf, size_t len, const char **desc, const char **unit)
{
	static char descs[UNCORE_ENERGY_DOMAINS][160];
	struct uncore_energy_metric em;
	if (k < 0 || k >= nenergy || uncore_energy_metric(metric_of[k], &em))
		return -1;
	snprintf(buf, len, "%s", em.name);
	snprintf(descs[k], sizeof(descs[k]), "%s, in nanojoules", em.desc);
	*desc = descs[k];
	*unit = "nJ";
	return 0;
}

int iu_energy_find(const char *name, size_t len)
{
	struct uncore_energy_metric em;
	for (int k = 0; k < nenergy; k++)
		if (!uncore_energy_metric(metric_of[k], &em) && strlen(em.name) == len && !strncmp(em.name, name, len))
			return k;
	return -1;
}

int iu_energy_domain(int k)
{
	struct uncore_energy_metric em;
	return k >= 0 && k < nenergy && !uncore_energy_metric(metric_of[k], &em) ? em.domain : -1;
}

int iu_energy_valid(uncore_t *u, const char *name)
{
	const char *q = strchr(name, ':');
	char *end;
	long s;
	if (!q)
		return 1;
	if (strncmp(q, ":socket=", 8))
		return 0;
	s = strtol(q + 8, &end, 10);
	return end != q + 8 && !*end && s >= 0 && s < uncore_num_sockets(u);
}

int iu_energy_value(const uncore_energy_t *e, int domain, int socket, long long *out)
{
	double j = 0;
	int rc = uncore_energy_value(e, socket, domain, UNCORE_SINCE_START, &j);
	*out = rc < 0 || !isfinite(j) ? 0 : llround(j * 1e9);
	return rc < 0 ? -1 : 0;
}
