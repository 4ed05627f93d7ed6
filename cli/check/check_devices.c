/*
 * The device rows of `uncore check` (issue 66 point 2): the devices behind each IIO port (the map) and, over
 * one window of the library's device check (DEV_CMP_MIN_NS, 10 s: doc/health.md "Devices against their
 * ports"), each group's own byte counters against its port's count.  The devices' traffic is theirs, not the
 * check's: an idle node's groups are too idle to judge and say so.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"
#include "../cli.h"

#define DEVICE_WINDOW_NS 10000000000ull /* the library judges no shorter window (dev_compare.h DEV_CMP_MIN_NS) */

/* A group's devices' names ("ens1f0, nvme0"), or their BDFs where they have none */
static void names(uncore_t *u, int g, int n, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < n && k < len; i++) {
		struct uncore_device d;
		if (uncore_device_info(u, g, i, &d))
			continue;
		k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? ", " : "", d.name[0] ? d.name : d.bdf);
	}
	if (!n)
		snprintf(buf, len, "no device");
}


static void group_row(struct check *c, const struct uncore_device_check *r, const struct uncore_device_check *all, int n)
{
	struct uncore_device_group g;
	char check[96], list[96], got[96];
	if (uncore_device_group_info(c->u, r->group, &g))
		return;
	names(c->u, r->group, g.ndevices, list, sizeof(list));
	if (r->port >= 0)
		snprintf(check, sizeof(check), "iio %d port %d (socket %d): %.50s", r->stack, r->port, r->socket, list);
	else if (g.stack >= 0)
		snprintf(check, sizeof(check), "iio stack %d's own (socket %d): %.50s", g.stack, g.socket, list);
	else
		snprintf(check, sizeof(check), "below no IIO stack: %.50s", list);
	char a[4][16];
	const double v[4] = { r->dev_in, r->iio_in, r->dev_out, r->iio_out };
	for (int i = 0; i < 4; i++) /* (a direction the port's counters leave out: "-") */
		snprintf(a[i], sizeof(a[i]), isnan(v[i]) ? "-" : "%.3g", v[i] / 1e9);
	snprintf(got, sizeof(got), "in %s/%s out %s/%s GB", a[0], a[1], a[2], a[3]);
	const char *exp = "devices <= 2 x port";
	if (!strncmp(r->verdict, "ok", 2))
		verdict_add(c->t, V_PASS, check, exp, got, "devices' bytes / port's over %.0f s", r->seconds);
	else if (!strncmp(r->verdict, "uncounted", 9) || !strncmp(r->verdict, "stopped", 7))
		verdict_add(c->t, V_FAIL, check, exp, got, "%s", r->verdict);
	else if (!strncmp(r->verdict, "elsewhere", 9) && r->other >= 0 && r->other < n)
		verdict_add(c->t, V_FAIL, check, exp, got, "%s: iio %d port %d counted in %.3g GB", r->verdict,
			    all[r->other].stack, all[r->other].port, all[r->other].iio_in / 1e9);
	else
		verdict_add(c->t, V_SKIP, check, exp, isnan(r->dev_in) ? "-" : got, "%s",
			    g.ndevices ? r->verdict : "not compared: an empty port");
}

int check_devices_rows(struct check *c)
{
	struct uncore_device_check rows[128];
	char why[512];
	int ng = uncore_num_device_groups(c->u);
	if (ng <= 0) {
		snprintf(why, sizeof(why), "%s", ng < 0 ? uncore_error() : "no PCI device behind any counted IIO stack");
		return verdict_add(c->t, V_SKIP, "devices against their IIO ports", "-", "-", "%s", why) < 0 ? -1 : 0;
	}
	uncore_session_t *s = NULL;
	int n = -1, ports = 0;
	if (!uncore_session_new(c->u, &s) && (ports = uncore_session_add_device_ports(s)) > 0 && !uncore_session_start(s) &&
	    uncore_session_read(s) >= 0 && !cli_sleep(c->u, DEVICE_WINDOW_NS) && uncore_session_read(s) >= 0)
		n = uncore_session_device_check(s, rows, 128);
	else if (s && !ports)
		snprintf(why, sizeof(why), "this platform's IIO counts no port's bytes (Skylake-SP and later do)");
	else
		snprintf(why, sizeof(why), "%s", uncore_error());
	uncore_session_free(s);
	if (n < 0)
		return cli_stopped() ? -1 : verdict_add(c->t, V_SKIP, "devices against their IIO ports", "-", "-", "%s", why) < 0 ? -1 : 0;
	int shown = 0;
	for (int i = 0; i < n && i < 128; i++)
		if (rows[i].group >= 0) {
			group_row(c, &rows[i], rows, n);
			shown++;
		}
	for (int g = 0; g < ng && !shown; g++) { /* no window judged: the map alone */
		struct uncore_device_group gi;
		char list[96], check[96];
		if (uncore_device_group_info(c->u, g, &gi))
			continue;
		names(c->u, g, gi.ndevices, list, sizeof(list));
		snprintf(check, sizeof(check), "iio stack %d port %d (socket %d): %.50s", gi.stack, gi.port, gi.socket, list);
		verdict_add(c->t, V_SKIP, check, "devices <= 2 x port", "-", "%s", "no window of the IIO ports judged");
	}
	return 0;
}
