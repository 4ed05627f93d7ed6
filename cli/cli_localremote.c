/*
 * uncore stat --per-node's local versus remote (issue 67 point 4, doc/numa.md): each socket's memory reads and
 * writes as its home agents (the CHAs) see them by requester, UNC_CHA_REQUESTS.READS_LOCAL (umask 0x01: from a
 * unit on this socket) and READS_REMOTE (0x02: from a remote socket), WRITES_LOCAL (0x04) and WRITES_REMOTE
 * (0x08), 64 bytes each: the metrics mem_read_local_bytes, ... (Intel's llc_miss_local_memory_bandwidth_read
 * and its kin count the same).  Where the platform defines none, the split is refused with the reason.
 */
#include <stdio.h>
#include "cli.h"

static const char *const lr_name[2][2] = {
	{ "mem_read_local_bytes", "mem_read_remote_bytes" }, { "mem_write_local_bytes", "mem_write_remote_bytes" },
};

int pernode_lr_add(uncore_t *u, uncore_session_t *s, int lr[2][2])
{
	for (int w = 0; w < 2; w++)
		for (int r = 0; r < 2; r++) {
			int m = uncore_metric_find(u, lr_name[w][r]);
			lr[w][r] = -1;
			if (m >= 0 && uncore_metric_here(u, m) > 0 && (lr[w][r] = uncore_session_add_metric(s, lr_name[w][r])) < 0)
				return -1;
		}
	return 0;
}

/* The socket's four values: 0, or -1 with why in why. */
static int lr_values(uncore_t *u, uncore_session_t *s, const int lr[2][2], int sock, double b[2][2], char *why, size_t len)
{
	for (int w = 0; w < 2; w++)
		for (int r = 0; r < 2; r++) {
			if (lr[w][r] < 0) {
				snprintf(why, len, "%s has no local versus remote metric (mem_read_local_bytes, ...): the split is "
					 "counted by the CHAs' UNC_CHA_REQUESTS.READS_LOCAL/READS_REMOTE, Skylake-SP on (doc/numa.md)",
					 uncore_platform_name(u));
				return -1;
			}
			if (uncore_session_metric_value(s, lr[w][r], sock, -1, UNCORE_SINCE_START, &b[w][r])) {
				snprintf(why, len, "%s", uncore_error());
				return -1;
			}
		}
	return 0;
}

void pernode_lr_print(uncore_t *u, uncore_session_t *s, const int lr[2][2], int sock, double secs, int json)
{
	double b[2][2];
	char why[400];
	int rc = lr_values(u, s, lr, sock, b, why, sizeof(why));
	if (json && rc) {
		printf(", \"local_remote_refused\": ");
		out_json_str(stdout, why);
	} else if (json)
		printf(", \"read_local_bytes\": %.17g, \"read_remote_bytes\": %.17g, \"write_local_bytes\": %.17g, "
		       "\"write_remote_bytes\": %.17g", b[0][0], b[0][1], b[1][0], b[1][1]);
	else if (rc)
		printf("local/remote socket%d: refused: %s\n", sock, why);
	else
		printf("local/remote socket%-2d ddr read local %14.0f B remote %14.0f B (%.2f %%)  write local %14.0f B remote "
		       "%14.0f B (%.2f %%), %.3f s\n", sock, b[0][0], b[0][1], 100 * b[0][1] / (b[0][0] + b[0][1]), b[1][0],
		       b[1][1], 100 * b[1][1] / (b[1][0] + b[1][1]), secs);
}
