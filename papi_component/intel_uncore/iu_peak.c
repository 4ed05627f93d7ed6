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

int iu_peak_plan(uncore_t *u, uncore_session_t *s, int k, int socket, const char **why)
{
	double bps;
	char spec[48];
	*why = NULL;
	/* a peak not known (socket -1: of any socket): refused, with the library's why */
	if (k < 0 || k >= NPEAKS || uncore_memory_peak(u, socket, &bps))
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
	double v;
	int rc;
	*out = 0;
	if (idx == IU_PEAK_ITSELF)
		return uncore_memory_peak(u, socket, &v) ? 0 : (*out = llround(v), 0);
	/* (the node's with socket -1: its sockets' bytes over its peak, the library's rule) */
	if ((rc = uncore_session_peak_share(s, idx, socket, UNCORE_LAST_INTERVAL, &v)))
		return rc == UNCORE_BOX_FAILED ? rc : 0;
	*out = llround(v * 1e6);
	return 0;
}
