/*
 * The devices a per-port IIO value counts, as the front ends label it (issue 66 point 1): the groups whose
 * counter is that port of that box (dev_counters.c), their devices' BDFs, names and drivers as lists for
 * labels, and a line for people.  A switch's devices are one group: listed together, never apart.
 */
#include <stdio.h>
#include <string.h>
#include "uncore.h"
#include "util/error.h"

int uncore_iio_port_of(const char *name)
{
	int port = -1, end = 0;
	char dir[8];
	if (!name)
		return -1;
	/* iio_bw_write_port3, iio_read_bytes_port3 (platforms/<p>/metrics.json); UNC_IIO_BANDWIDTH_IN.PART3_FREERUN
	 * (Intel's event files; Linux bw_in_port3) */
	if ((sscanf(name, "iio_bw_%5[a-z]_port%d%n", dir, &port, &end) == 2 ||
	     sscanf(name, "iio_%5[a-z]_bytes_port%d%n", dir, &port, &end) == 2) &&
	    (!name[end] || name[end] == ':') && (!strcmp(dir, "write") || !strcmp(dir, "read")))
		return port >= 0 ? port : -1;
	if ((sscanf(name, "UNC_IIO_BANDWIDTH_IN.PART%d_FREERUN%n", &port, &end) == 1 ||
	     sscanf(name, "UNC_IIO_BANDWIDTH_OUT.PART%d_FREERUN%n", &port, &end) == 1) &&
	    (!name[end] || name[end] == ':'))
		return port >= 0 ? port : -1;
	return -1;
}

/* s appended to buf (len) after sep when buf holds something; a list that does not fit ends in "..." */
static void add(char *buf, size_t len, const char *sep, const char *s)
{
	size_t n = strlen(buf);
	if (n >= 3 && !strcmp(buf + n - 3, "..."))
		return;
	int w = snprintf(buf + n, len - n, "%s%s", n ? sep : "", s);
	if (w < 0 || (size_t)w >= len - n) {
		if (len >= 4)
			strcpy(buf + (n + 4 <= len ? n : len - 4), "...");
	}
}

int uncore_port_devices(uncore_t *u, int socket, int box, int port, struct uncore_port_devices *out)
{
	int ng = uncore_num_device_groups(u), several = socket < 0 || box < 0;
	memset(out, 0, sizeof(*out));
	if (ng < 0)
		return -1;
	for (int k = 0; k < ng; k++) {
		struct uncore_device_counter c;
		struct uncore_device_group g;
		/* part holds the longest whole: head, "PCIe switch: ", a name (63), a BDF (15) and a driver (31), 175 */
		char head[48] = "", part[192];
		if (uncore_device_group_counter(u, k, &c) || c.port != port || (socket >= 0 && c.socket != socket) ||
		    (box >= 0 && c.box != box) || uncore_device_group_info(u, k, &g))
			continue;
		out->ngroups++;
		out->switches += g.behind_switch;
		if (several)
			snprintf(head, sizeof(head), "socket%d iio%d: ", c.socket, c.box);
		if (!g.ndevices) {
			snprintf(part, sizeof(part), "%sroot port %s, empty", head, g.root_port);
			add(out->text, sizeof(out->text), "; ", part);
			continue;
		}
		for (int i = 0; i < g.ndevices; i++) {
			struct uncore_device d;
			char id[64];
			if (uncore_device_info(u, k, i, &d))
				continue;
			if (d.name[0])
				snprintf(id, sizeof(id), "%s", d.name);
			else
				snprintf(id, sizeof(id), "%04x:%04x", d.vendor, d.device);
			out->ndevices++;
			add(out->bdf, sizeof(out->bdf), ",", d.bdf);
			add(out->name, sizeof(out->name), ",", id);
			add(out->driver, sizeof(out->driver), ",", d.driver[0] ? d.driver : "none");
			snprintf(part, sizeof(part), "%s%s%s (%s, %s)", i ? "" : head,
				 i || !g.behind_switch ? "" : "PCIe switch: ", id, d.bdf, d.driver[0] ? d.driver : "no driver");
			add(out->text, sizeof(out->text), i ? " + " : "; ", part);
		}
	}
	return out->ngroups;
}
