/* uncore devices: the PCI devices behind each IIO stack and root port (doc/devices.md). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

static void where(const struct uncore_device_group *g, char *buf, size_t len)
{
	if (g->stack < 0)
		snprintf(buf, len, "below no counted IIO stack");
	else if (g->port == UNCORE_PORT_UNKNOWN) /* a root port, but which counter port counts it is not known */
		snprintf(buf, len, "socket %d die %d iio %d (%s) root port %s, counter port unknown (%s)", g->socket, g->die,
			 g->stack, g->root_bus, g->root_port, g->port_why);
	else if (g->port < 0)
		snprintf(buf, len, "socket %d die %d iio %d (%s) own functions", g->socket, g->die, g->stack, g->root_bus);
	else
		snprintf(buf, len, "socket %d die %d iio %d (%s) port %d (%s)", g->socket, g->die, g->stack, g->root_bus,
			 g->port, g->root_port);
}

void cli_device_json(uncore_t *u, int group, int ndevices)
{
	for (int i = 0; i < ndevices; i++) {
		struct uncore_device d;
		uncore_device_info(u, group, i, &d);
		printf("%s{\"bdf\":\"%s\",\"vendor\":\"%04x\",\"device\":\"%04x\",\"class\":", i ? "," : "", d.bdf,
		       d.vendor, d.device);
		if (d.class_code < 0)
			fputs("null", stdout);
		else
			printf("\"%06lx\"", d.class_code);
		fputs(",\"driver\":", stdout);
		out_json_str(stdout, d.driver);
		fputs(",\"name\":", stdout);
		out_json_str(stdout, d.name);
		printf(",\"numa_node\":%d}", d.numa_node);
	}
}

int cmd_devices(int argc, char **argv)
{
	uncore_t *u;
	int json;
	if (cli_json_args("devices", argc, argv, &json))
		return 2;
	if (cli_open_topology(&u))
		return 1;
	int n = uncore_num_device_groups(u);
	cli_warnings(); /* what was left out, and why */
	if (n < 0) {
		fprintf(stderr, "uncore: %s\n", uncore_error());
		uncore_close(u);
		return 1;
	}
	for (int k = 0; k < n; k++) {
		struct uncore_device_group g;
		char w[384]; /* the where of a root port with an unknown counter port carries its whole reason */
		uncore_device_group_info(u, k, &g);
		if (json) {
			printf("{\"socket\":%d,\"die\":%d,\"stack\":%d,\"port\":%d,\"root_bus\":\"%s\",\"root_port\":\"%s\","
			       "\"source\":\"%s\",\"behind_switch\":%s,\"behind\":\"%s\",\"port_why\":", g.socket, g.die,
			       g.stack, g.port, g.root_bus, g.root_port, g.source, g.behind_switch ? "true" : "false", g.behind);
			out_json_str(stdout, g.port_why);
			fputs(",\"devices\":[", stdout);
		} else {
			where(&g, w, sizeof(w));
			printf("%s: %s%s%s%s\n", w, g.ndevices ? (g.ndevices == 1 ? "1 device" : "devices") : "empty",
			       *g.behind ? " behind " : "", g.behind, *g.behind ? ", counted as one group" : "");
		}
		if (json)
			cli_device_json(u, k, g.ndevices);
		for (int i = 0; !json && i < g.ndevices; i++) {
			struct uncore_device d;
			uncore_device_info(u, k, i, &d);
			printf("  %s %04x:%04x class %06lx driver %-10s %-10s node %d\n", d.bdf, d.vendor, d.device,
			       d.class_code < 0 ? 0 : d.class_code, d.driver[0] ? d.driver : "-", d.name[0] ? d.name : "-",
			       d.numa_node);
		}
		if (json)
			puts("]}");
	}
	uncore_close(u);
	return 0;
}
