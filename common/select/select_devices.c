/*
 * The default set's device series (issue 66 point 1): each device group a port counter counts, its bytes in
 * and out (uncore_session_add_device_group: iio_write_bytes_port<n>, iio_read_bytes_port<n> where the platform
 * counts that way) on the group's IIO box, one series each.  Free-running counters: they take no counter from the other metrics, but each
 * read reads them, so they are counted and priced like a default group and left out, named, when over the
 * default set's counter limit (a file descriptor each through perf) or the budget.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "uncore.h"
#include "select.h"
#include "util/error.h"

/* Each counted group with devices into s (series too when se is given): how many series, -1 */
static int add_all(uncore_t *u, uncore_session_t *s, unsigned sockets, struct uncore_series **se, int *n)
{
	int ng = uncore_num_device_groups(u), added = 0;
	for (int k = 0; k < ng; k++) {
		struct uncore_device_counter c;
		struct uncore_device_group g;
		int m[2];
		char w[64], r[64];
		if (uncore_device_group_info(u, k, &g) || !g.ndevices || uncore_device_group_counter(u, k, &c) ||
		    (sockets && !(sockets & (1u << c.socket))))
			continue;
		snprintf(w, sizeof(w), "iio_write_bytes_port%d", c.port);
		snprintf(r, sizeof(r), "iio_read_bytes_port%d", c.port);
		if (uncore_metric_find(u, w) < 0 && uncore_metric_find(u, r) < 0)
			continue; /* counted by port, but no byte count of it defined (Diamond Rapids' metrics) */
		if (uncore_session_add_device_group(u, s, k, &m[0], &m[1]))
			return -1;
		for (int d = 0; d < 2; d++) {
			struct uncore_metric_info mi;
			int info = m[d] < 0 ? -1 : uncore_metric_find(u, uncore_session_metric_name(s, m[d]));
			if (info < 0 || uncore_metric_info(u, info, &mi))
				continue;
			added++;
			if (!se)
				continue;
			struct uncore_series *ns = realloc(*se, (size_t)(*n + 1) * sizeof(*ns));
			if (!ns)
				return uc_err("out of memory");
			*se = ns;
			ns[(*n)++] = (struct uncore_series){ .metric = m[d], .info = info, .event = -1, .socket = c.socket,
							     .unit = c.unit, .box = c.box, .name = mi.name };
		}
	}
	return added;
}

int select_device_series(uncore_t *u, uncore_session_t *s, unsigned sockets, double budget_ns, double sums_ns,
			 double interval_s, struct uncore_series **series, int *n, char *notice, size_t len)
{
	if (uncore_num_device_groups(u) <= 0) /* no map here (a replayed snapshot): nothing to add */
		return 0;
	/* counted and priced with the session's metrics, on a session never started */
	uncore_session_t *probe = NULL;
	int rc = uncore_session_new(u, &probe), more = 0;
	for (int m = 0; !rc && m < uncore_session_num_metrics(s); m++)
		rc = uncore_session_add_metric(probe, uncore_session_metric_name(s, m)) < 0;
	if (!rc)
		more = add_all(u, probe, sockets, NULL, NULL);
	int counters = !rc && more > 0 ? select_counters(probe, uncore_num_sockets(u)) : 0;
	double ns = !rc && more > 0 && budget_ns > 0 ? uncore_session_estimate_read_ns(probe, interval_s) + sums_ns : 0;
	uncore_session_free(probe);
	if (rc || more < 0)
		return -1;
	size_t k = len ? strlen(notice) : 0;
	if (counters > UNCORE_DEFAULT_COUNTERS) { /* as the default groups: perf takes a file descriptor a counter */
		if (k < len)
			snprintf(notice + k, len - k, "%sthe default set leaves out the device series on %s: with them it "
				 "would read %d counters an interval, over its limit of %d; name the iio_*_bytes_port<n> "
				 "metrics wanted to read them", k ? "; " : "", uncore_platform_name(u), counters,
				 UNCORE_DEFAULT_COUNTERS);
		return 0;
	}
	if (budget_ns > 0 && ns >= budget_ns) {
		if (k < len)
			snprintf(notice + k, len - k, "%sthe default set leaves out the device series on %s: with "
				 "them a read would cost %.0f us%s, over the budget (%.0f us; doc/cost.md)",
				 k ? "; " : "", uncore_platform_name(u), ns / 1e3, sums_ns > 0 ? " with the NUMA node series' sums" : "",
				 budget_ns / 1e3);
		return 0;
	}
	return add_all(u, s, sockets, series, n) < 0 ? -1 : 0;
}
