/*
 * intel_uncore PAPI component: the peak DRAM bandwidth and its share as native events (issue 98, doc/memory.md,
 * doc/papi.md), gauges as the uncore clock's limits are (iu_ufreq.c): mem_bw_peak, the populated channels x their
 * configured MT/s x 8 bytes in bytes a second, and mem_bw_peak_share, the bytes read and written a second since the
 * EventSet's last read as a share of it (uncore_session_peak_share, the rule of every front end), in millionths --
 * of the node, or (:socket=N, an attached CPU) of one socket.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "iu.h"

static const struct {
	const char *name, *desc, *unit;
} peaks[] = {
	{ "mem_bw_peak", "The peak DRAM bandwidth, in bytes a second: the populated memory channels (EDAC) x their "
	  "configured speed (SMBIOS, MT/s) x 8 bytes (doc/memory.md), the node's or one socket's", "B/s" },
	{ "mem_bw_peak_share", "DRAM bandwidth (bytes read and written a second) since the EventSet's last PAPI_read, "
	  "PAPI_reset or PAPI_start as a share of mem_bw_peak, in millionths (1000000: the peak); refused where the "
	  "peak is not known", "ppm" },
};
#define NPEAKS ((int)(sizeof(peaks) / sizeof(peaks[0])))

int iu_peak_count(uncore_t *u)
{
	return uncore_metric_find(u, "mem_bw_peak_share") >= 0 && uncore_metric_find(u, "mem_bw_total") >= 0 ? NPEAKS : 0;
}

const char *iu_peak_name(int k, const char **desc, const char **unit)
{
	if (k < 0 || k >= NPEAKS)
		return NULL;
	*desc = peaks[k].desc;
	*unit = peaks[k].unit;
	return peaks[k].name;
}

int iu_peak_find(const char *name, size_t len)
{
	for (int k = 0; k < NPEAKS; k++)
		if (strlen(peaks[k].name) == len && !strncmp(peaks[k].name, name, len))
			return k;
	return -1;
}

/* The sockets [*lo, *hi) of socket (-1: every socket, the node). */
static void span(uncore_t *u, int socket, int *lo, int *hi)
{
	*lo = socket < 0 ? 0 : socket;
	*hi = socket < 0 ? uncore_num_sockets(u) : socket + 1;
}

/* The peak of socket (-1: the node's, every socket's summed): 0, or 1/-1 with uncore_error(). */
static int peak_of(uncore_t *u, int socket, double *bps)
{
	int rc = 0, lo, hi;
	*bps = 0;
	span(u, socket, &lo, &hi);
	for (int s = lo; !rc && s < hi; s++) {
		double p;
		if (!(rc = uncore_memory_peak(u, s, &p)))
			*bps += p;
	}
	return rc;
}

int iu_peak_plan(uncore_t *u, uncore_session_t *s, int k, int socket, const char **why)
{
	double bps;
	char spec[48];
	*why = NULL;
	if (k < 0 || k >= NPEAKS || peak_of(u, socket, &bps)) /* a peak not known: refused, with the library's why */
		return *why = uncore_error(), -1;
	if (k != IU_PEAK_SHARE)
		return IU_PEAK_ITSELF;
	if (!(bps > 0))
		return *why = "no memory channel holds a DIMM there: a share of no peak", -1;
	snprintf(spec, sizeof(spec), socket < 0 ? "mem_bw_total" : "mem_bw_total:socket=%d", socket);
	int m = uncore_session_add_metric(s, spec);
	if (m < 0)
		*why = uncore_error();
	return m;
}

int iu_peak_value(uncore_t *u, uncore_session_t *s, int idx, int socket, long long *out)
{
	double bps = 0, sum = 0, share;
	int rc = 0, lo, hi;
	*out = 0;
	if (idx == IU_PEAK_ITSELF)
		return peak_of(u, socket, &bps) ? 0 : (*out = llround(bps), 0);
	/* the node's share: each socket's bytes over the node's peak, a socket of no DIMM adding none */
	span(u, socket, &lo, &hi);
	for (int k = lo; k < hi; k++) {
		double p;
		if (uncore_memory_peak(u, k, &p) || !(p > 0))
			continue;
		if ((rc = uncore_session_peak_share(s, idx, k, UNCORE_LAST_INTERVAL, &share)))
			return rc == UNCORE_BOX_FAILED ? rc : 0;
		sum += share * p;
		bps += p;
	}
	*out = bps > 0 ? llround(sum / bps * 1e6) : 0;
	return 0;
}
