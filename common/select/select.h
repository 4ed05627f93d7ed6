/* The parts of uncore_select (select.c) in files of their own. */
#ifndef UNCORE_SELECT_H
#define UNCORE_SELECT_H

#include <stddef.h>
#include "uncore.h"

/* The counters a session reads each read: every event's boxes on every socket (perf: a file descriptor each). */
int select_counters(uncore_session_t *s, int nsock);

/* The default set's device series (select_devices.c): each counted device group's bytes in and out on its IIO
 * box, on the sockets of the mask (0: all), added to s and to *series (*n of them), unless with the session's
 * metrics they would read more than UNCORE_DEFAULT_COUNTERS counters, or a read would cost budget_ns or more by
 * the cost model at interval_s with sums_ns (the node series' sums) beside it (budget_ns 0: no budget): then notice
 * (len) says so.  0, or -1 with the error. */
int select_device_series(uncore_t *u, uncore_session_t *s, unsigned sockets, double budget_ns, double sums_ns,
			 double interval_s, struct uncore_series **series, int *n, char *notice, size_t len);

/* The default set's NUMA node series (select_nodes.c): each node's memory bytes read and written, its bytes
 * metrics added to s where not there yet (no counter more: the memory group counts their events), none with
 * sockets selected or for a refused node.  0, or -1 with the error. */
int select_node_series(uncore_t *u, uncore_session_t *s, unsigned sockets, struct uncore_series **series, int *n);
/* What their sums would add to a read, ns (uncore_estimate_node_sums_ns); -1 with the error. */
double select_node_sums_ns(uncore_t *u, unsigned sockets);

#endif
