/*
 * intel_uncore PAPI component: the uncore clock's limits as native events (issue 68; uncore_freq_domains,
 * doc/papi.md): gauges in Hz, read when PAPI reads, of the node or (:socket=N) of one socket -- the lowest
 * minimum and the highest maximum of its dies or TPMI clusters, and the fastest current clock.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "iu.h"

#define IU_UFREQ_DOMAINS 256

static const struct {
	const char *name, *desc;
	size_t off;
	int lowest; /* the lowest of the domains' (a minimum), else the highest */
} gauges[] = {
	{ "UNCORE_FREQ_LIMIT_MIN", "The uncore clock's lower limit now, in Hz (intel_uncore_frequency min_freq_khz, else "
	  "MSR 0x620): the lowest of the dies' or clusters'", offsetof(struct uncore_freq_domain, min_hz), 1 },
	{ "UNCORE_FREQ_LIMIT_MAX", "The uncore clock's upper limit now, in Hz (intel_uncore_frequency max_freq_khz, else "
	  "MSR 0x620): the highest of the dies' or clusters'", offsetof(struct uncore_freq_domain, max_hz), 0 },
	{ "UNCORE_FREQ_INITIAL_LIMIT_MIN", "The uncore clock's lower limit the kernel found at boot (the BIOS's), in Hz",
	  offsetof(struct uncore_freq_domain, initial_min_hz), 1 },
	{ "UNCORE_FREQ_INITIAL_LIMIT_MAX", "The uncore clock's upper limit the kernel found at boot (the BIOS's), in Hz",
	  offsetof(struct uncore_freq_domain, initial_max_hz), 0 },
	{ "UNCORE_FREQ_CURRENT", "The uncore clock now, in Hz (current_freq_khz: root's alone to read; else MSR 0x621): "
	  "the fastest of the dies' or clusters'", offsetof(struct uncore_freq_domain, current_hz), 0 },
};
#define NGAUGES ((int)(sizeof(gauges) / sizeof(gauges[0])))

int iu_ufreq_count(uncore_t *u) { return uncore_freq_domains(u, NULL, 0) > 0 ? NGAUGES : 0; }

const char *iu_ufreq_name(int g, const char **desc)
{
	if (g < 0 || g >= NGAUGES)
		return NULL;
	*desc = gauges[g].desc;
	return gauges[g].name;
}

int iu_ufreq_find(const char *name, size_t len)
{
	for (int g = 0; g < NGAUGES; g++)
		if (strlen(gauges[g].name) == len && !strncmp(gauges[g].name, name, len))
			return g;
	return -1;
}

int iu_ufreq_value(uncore_t *u, int g, int socket, long long *out)
{
	static struct uncore_freq_domain d[IU_UFREQ_DOMAINS];
	int n = uncore_freq_domains(u, d, IU_UFREQ_DOMAINS);
	double v = NAN;
	for (int i = 0; g >= 0 && g < NGAUGES && i < n && i < IU_UFREQ_DOMAINS; i++) {
		double x = *(const double *)(const void *)((const char *)&d[i] + gauges[g].off);
		if ((socket >= 0 && d[i].socket != socket) || isnan(x))
			continue;
		v = isnan(v) ? x : gauges[g].lowest ? fmin(v, x) : fmax(v, x);
	}
	*out = isnan(v) ? 0 : llround(v);
	return isnan(v) ? -1 : 0;
}
