/*
 * What counts a device group's bytes: its stack's IIO box and the root port's free-running bandwidth
 * counters (UNC_IIO_BANDWIDTH_IN/OUT.PART<n>_FREERUN, perf's bw_in_port<n>/bw_out_port<n>), and back from
 * a box and port to the group.  The map's stack is perf's uncore_iio_<stack>, which is the box's unit id on
 * every backend (Linux names a PMU by it); the counter's port n is the group's port, the root port's place
 * on the stack's root bus (dev_map.c).
 */
#include <stdio.h>
#include <string.h>
#include "dev_map.h"
#include "handle/handle.h"
#include "open/open.h"
#include "metrics/metrics.h"
#include "util/error.h"

/* The event that counts port n's inbound bytes, and the unit it is of: its index, or -1 where the platform
 * has none (before Skylake-SP the IIO has no per-port counter; SKX has ports 0-3, ICX on 0-7). */
static int port_event(uncore_t *u, int port, int *unit)
{
	char name[64];
	struct uncore_event_info ev;
	snprintf(name, sizeof(name), "UNC_IIO_BANDWIDTH_IN.PART%d_FREERUN", port);
	int idx = uncore_event_find_impl(u, name); /* (the unlocked calls: health, under the lock, asks too) */
	if (idx < 0 || uncore_event_info_impl(u, idx, &ev))
		return -1;
	for (int t = 0; t < u->plat->ntypes; t++)
		if (!strcmp(u->plat->types[t]->name, ev.unit)) {
			*unit = t;
			return idx;
		}
	return -1;
}

/* How many ports the platform counts: the first n with no PART<n> event */
static int counted_ports(uncore_t *u)
{
	int n = 0, unit;
	while (n < 64 && port_event(u, n, &unit) >= 0)
		n++;
	return n;
}

int uncore_device_group_counter(uncore_t *u, int group, struct uncore_device_counter *out)
{
	struct uncore_device_group g;
	int unit = -1;
	if (uncore_device_group_info(u, group, &g))
		return -1;
	if (g.stack < 0)
		return uc_err("device group %d is below no counted IIO stack (on host bridges no IIO stack's bus map "
			      "names): no counter sees its bytes", group);
	if (g.port < 0 && g.port != UNCORE_PORT_UNKNOWN)
		return uc_err("device group %d is the own functions of IIO stack %d on socket %d (root bus %s), on "
			      "no root port: no port counter counts them (the stack's iio_bw_write/read do)",
			      group, g.stack, g.socket, g.root_bus);
	if (!u->nboxes)
		return uc_err("device group %d: this handle was opened for its topology alone and has no IIO box to "
			      "count it with: open it with its boxes (uncore_open)", group);
	if (port_event(u, 0, &unit) < 0)
		return uc_err("this platform's IIO (%s) has no per-port bandwidth counter (Skylake-SP and later "
			      "count per port): device group %d's bytes are in no counter of its own",
			      u->plat->name, group);
	if (g.port == UNCORE_PORT_UNKNOWN) /* a root port, but not one of the generation's counter ports */
		return uc_err("device group %d is on root port %s of IIO stack %d on socket %d, and which counter port "
			      "counts it is not known (%s): no counter of its own", group, g.root_port, g.stack, g.socket,
			      g.port_why);
	if (port_event(u, g.port, &unit) < 0)
		return uc_err("device group %d is on port %d of IIO stack %d, and this platform's IIO counts ports "
			      "0-%d only: no counter of its own", group, g.port, g.stack, counted_ports(u) - 1);
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		if (b->type_idx == unit && b->socket == g.socket && b->die == g.die && b->unit_id == g.stack) {
			*out = (struct uncore_device_counter){ .socket = g.socket, .die = g.die, .unit = unit,
							       .box = b->idx, .port = g.port };
			return 0;
		}
	}
	return uc_err("device group %d is on IIO stack %d of socket %d die %d, and this handle has no such %s box "
		      "(the stack's PMU or registers were not found): no counter of its own",
		      group, g.stack, g.socket, g.die, u->plat->types[unit]->name);
}

int uncore_device_group_at(uncore_t *u, int socket, int box, int port)
{
	int n = uncore_num_device_groups(u);
	struct uncore_device_counter c;
	for (int i = 0; i < n; i++) {
		if (uncore_device_group_counter(u, i, &c))
			continue; /* a group no port counter counts is no port's */
		if (c.socket == socket && c.box == box && c.port == port)
			return i;
	}
	if (n < 0)
		return -1;
	return uc_err("no device group on socket %d IIO box %d port %d: no root port there, or nothing the "
		      "device map found behind it", socket, box, port);
}

int uncore_session_add_device_group(uncore_t *u, uncore_session_t *s, int group, int *write_m, int *read_m)
{
	struct uncore_device_counter c;
	int *to[2] = { write_m, read_m };
	*write_m = *read_m = -1;
	if (uncore_device_group_counter(u, group, &c))
		return -1;
	for (int d = 0; d < 2; d++) {
		char name[64];
		snprintf(name, sizeof(name), "iio_%s_bytes_port%d", d ? "read" : "write", c.port);
		if (uncore_metric_find_impl(u, name) < 0) /* ICX counts its ports inbound only (Linux icx_iio_freerunning) */
			continue;
		/* its box alone: every stack's port n would cost a read each (and a perf event each) for nothing */
		if ((*to[d] = session_add_metric_on(s, name, c.socket, c.box)) < 0)
			return -1;
	}
	if (*write_m < 0 && *read_m < 0)
		return uc_err("device group %d: the platform (%s) has no metric iio_write_bytes_port%d nor "
			      "iio_read_bytes_port%d", group, u->plat->name, c.port, c.port);
	return 0;
}
