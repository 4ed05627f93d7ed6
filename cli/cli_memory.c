/* uncore memory: which iMC channel box of each socket holds DIMMs, and each socket's and each NUMA node's peak
 * (uncore_memory_*). */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "util/term_text.h"

#define MAX_NODES 64

/* A peak in GB/s to the MB/s, without trailing zeros: 204.8, 127.968 (6 x 2666 MT/s x 8 B) */
static const char *gbs(double bps, char *buf, size_t len)
{
	snprintf(buf, len, "%.3f", bps / 1e9); /* (always a point: the zeros after it alone are cut) */
	char *e = buf + strlen(buf);
	while (e > buf && e[-1] == '0')
		*--e = 0;
	if (e > buf && e[-1] == '.')
		*--e = 0;
	return buf;
}

/* "prefix" why ")": a reason of the library's, which may quote EDAC's or SMBIOS's text, escaped */
static void said_unknown(const char *prefix, const char *why)
{
	fputs(prefix, stdout);
	out_text(stdout, why);
	puts(")");
}

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
	/* EDAC's strings are the driver's and the firmware's: escaped, so that none moves the terminal */
	char type[256];
	uc_term_escape(type, sizeof(type), *c->type ? c->type : "-");
	printf("%-6d %-5s %-9s %4s %5s %5d %9llu %5s %-16s ", sock, name, uncore_channel_state_name(c->state), ctrl, chan,
	       c->dimms, (unsigned long long)c->mib, mts, type);
	out_said(stdout, "", *c->labels ? c->labels : "-");
}

/* Each DDR node's peak (uncore_memory_node_peak): its SNC domain's channels, its socket's without SNC. */
static void node_peaks(uncore_t *u, int json)
{
	struct uncore_numa_node v[MAX_NODES];
	int n = uncore_numa_nodes(u, v, MAX_NODES);
	if (n < 0 && !json)
		said_unknown("# NUMA nodes: unknown (", uncore_error());
	for (int i = 0; i < n && i < MAX_NODES; i++) {
		double peak;
		char buf[32];
		if (v[i].kind != UNCORE_NODE_DRAM)
			continue; /* HBM, CXL memory: no DDR channel of theirs */
		int rc = uncore_memory_node_peak(u, v[i].node, &peak);
		if (json) {
			printf("{\"node\":%d,\"socket\":%d,\"domain\":%d,\"snc\":%d,\"peak_bytes_per_s\":", v[i].node,
			       v[i].socket, v[i].domain, v[i].snc);
			if (rc) {
				printf("null,\"peak_unknown\":");
				out_json_str(stdout, uncore_error());
			} else
				printf("%.0f", peak);
			printf("}\n");
		} else if (rc) {
			printf("# node %d (socket %d) peak: ", v[i].node, v[i].socket);
			said_unknown("unknown (", uncore_error());
		} else
			printf("# node %d (socket %d, SNC domain %d of %d) peak: %s GB/s\n", v[i].node, v[i].socket,
			       v[i].domain, v[i].snc, gbs(peak, buf, sizeof(buf)));
	}
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
		out_said(stdout, "# ", src ? src : uncore_error()); /* (it quotes EDAC's mc_name when it is not one) */
		printf("%-6s %-5s %-9s %4s %5s %5s %9s %5s %-16s %s\n", "socket", "box", "state", "ctrl", "chan", "dimms",
		       "MiB", "MT/s", "type", "labels");
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
		char buf[32];
		if (uncore_memory_peak(u, sock, &peak)) {
			printf("# socket %d peak: ", sock);
			said_unknown("unknown (", uncore_error());
		}
		else
			printf("# socket %d peak: %s GB/s (populated channels x MT/s x 8 bytes)\n", sock, gbs(peak, buf, sizeof(buf)));
	}
	node_peaks(u, json);
	uncore_close(u);
	return 0;
}
