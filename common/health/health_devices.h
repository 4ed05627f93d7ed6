/*
 * Health's cross-check of the devices behind the IIO ports (doc/health.md "Devices against their ports"):
 * each read adds what every IIO port the session counts moved; once a window is long enough
 * (DEV_CMP_MIN_NS) the devices' own counters are read and each group judged against its port
 * (devices/dev_compare.h).  A verdict stands as a condition from its second window in a row.
 */
#ifndef UNCORE_HEALTH_DEVICES_H
#define UNCORE_HEALTH_DEVICES_H

#include <stdint.h>
#include "open/uncore_priv.h"

struct health_devices;
/* A condition the device check holds standing: kind, where (socket, the IIO box and port; ev the session's
 * event of the port's inbound bytes) and what */
struct health_device_cond {
	int kind, socket, stack, port, ev;
	char what[256];
};
/* The session started (its baselines at now ns): the ports it counts and the device groups behind them
 * planned, and the first window begun with the devices' counters read now, so that the first read reads no
 * device file and its ports' bytes (counted since the baselines) are the window's. */
void health_devices_start(uncore_session_t *s, struct health_devices **st, uint64_t now);
/* The read that just ended (at now ns) added; a window judged when it is long enough.  The conditions standing
 * after it: how many (at most max into out). */
int health_devices_read(uncore_session_t *s, struct health_devices **st, uint64_t now, struct health_device_cond *out,
			int max);
/* The last judged window's rows (uncore_session_device_check) */
int health_devices_rows(const struct health_devices *st, struct uncore_device_check *out, int max);
void health_devices_free(struct health_devices *st);
/* uncore_session_add_device_ports: each port's bytes in and out, as the check reads them */
int uncore_session_add_device_ports_impl(uncore_session_t *s);

#endif
