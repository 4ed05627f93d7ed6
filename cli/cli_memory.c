/* uncore memory: which iMC channel box of each socket holds DIMMs, and each socket's peak (uncore_memory_*). */
#include <stdio.h>
#include <string.h>
#include "cli.h"

static void json_peak(uncore_t *u, int sock)
{
	double peak;
	int rc = uncore_memory_peak(u, sock, &peak);
	printf("{\"socket\":%d,\"peak_bytes_per_s\":", sock);
	if (rc)
		printf("null,\"peak_unknown\":");
	if (rc)
		out_json_str(stdout, uncore_error());
	else
		printf("%.0f", peak);
	printf("}\n");
}

/* One channel's line: text, or a JSON object (kind "ddr" or "hbm"). */
static void chan_line(int json, const char *unit, int sock, int box, const struct uncore_channel *c)
{
	if (json) {
		printf("{\"socket\":%d,\"box\":%d,\"state\":\"%s\",\"controller\":%d,\"channel\":%d,\"dimms\":%d,"
		       "\"mib\":%llu,\"mts\":%d,\"type\":", sock, box, uncore_channel_state_name(c->state), c->controller,
		       c->channel, c->dimms, (unsigned long long)c->mib, c->mts);
		out_json_str(stdout, c->type);
		printf(",\"labels\":");
		out_json_str(stdout, c->labels);
		printf(",\"kind\":\"%s\"}\n", strcmp(unit, "imc") ? "hbm" : "ddr");
		return;
	}
	char ctrl[16] = "-", chan[16] = "-", mts[16] = "-", name[16];
	if (c->controller >= 0)
		snprintf(ctrl, sizeof(ctrl), "%d", c->controller);
	if (c->channel >= 0)
		snprintf(chan, sizeof(chan), "%d", c->channel);
	if (c->mts)
		snprintf(mts, sizeof(mts), "%d", c->mts);
	snprintf(name, sizeof(name), "%s%d", unit, box);
	printf("%-6d %-5s %-9s %4s %5s %5d %9llu %5s %-16s %s\n", sock, name, uncore_channel_state_name(c->state), ctrl,
	       chan, c->dimms, (unsigned long long)c->mib, mts, *c->type ? c->type : "-", *c->labels ? c->labels : "-");
}

int cmd_memory(int argc, char **argv)
{
	uncore_t *u;
	int json, unit, hbm;
	if (cli_json_args("memory", argc, argv, &json))
		return 2;
	if (cli_open(&u))
		return 1;
	if ((unit = uncore_unit_find(u, "imc")) < 0) {
		fprintf(stderr, "uncore memory: %s has no iMC channel boxes\n", uncore_platform_name(u));
		uncore_close(u);
		return 1;
	}
	hbm = uncore_unit_find(u, "hbm");
	const char *src = uncore_memory_source(u);
	if (!json) {
		cli_banner(stdout, u);
		printf("# %s\n%-6s %-5s %-9s %4s %5s %5s %9s %5s %-16s %s\n", src ? src : uncore_error(), "socket", "box",
		       "state", "ctrl", "chan", "dimms", "MiB", "MT/s", "type", "labels");
	}
	for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
		for (int k = 0; k < uncore_unit_boxes(u, unit, sock); k++) {
			struct uncore_channel c;
			int box = uncore_box_number(u, unit, sock, k);
			if (!uncore_memory_channel(u, sock, box, &c))
				chan_line(json, "imc", sock, box, &c);
		}
		/* Xeon Max's HBM channels, apart: the DDR peak does not count them */
		for (int k = 0; hbm >= 0 && k < uncore_unit_boxes(u, hbm, sock); k++) {
			struct uncore_channel c;
			int box = uncore_box_number(u, hbm, sock, k);
			if (!uncore_memory_hbm_channel(u, sock, box, &c))
				chan_line(json, "hbm", sock, box, &c);
		}
		if (!json && uncore_memory_hbm_only(u, sock))
			printf("# socket %d: HBM only (EDAC lists no DDR DIMM): its memory traffic is its HBM's\n", sock);
		if (json) {
			json_peak(u, sock);
			continue;
		}
		double peak;
		if (uncore_memory_peak(u, sock, &peak))
			printf("# socket %d peak: unknown (%s)\n", sock, uncore_error());
		else
			printf("# socket %d peak: %.1f GB/s (populated channels x MT/s x 8 bytes)\n", sock, peak / 1e9);
	}
	uncore_close(u);
	return 0;
}
