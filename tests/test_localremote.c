/*
 * Local versus remote memory traffic (issue 67 point 4, doc/numa.md): each socket's memory reads and writes as
 * its home agents count them by requester (UNC_CHA_REQUESTS.READS_LOCAL 0x50/0x01, READS_REMOTE 0x02,
 * WRITES_LOCAL 0x04, WRITES_REMOTE 0x08: the metrics mem_read_local_bytes, ...).  On sim: and perf+sim: of
 * every platform that defines them, each equals the simulator's truth within 1 % (its profile's remote_ratio of
 * the socket's memory traffic is other sockets', 0.1 on socket 0 and 0.2 on socket 1 by default), and local
 * plus remote equals the socket's memory bytes as its channels count them (mem_read_bytes: the iMC's CAS)
 * within 1 %, the property PerfSpect's local and remote shares missed (its issue 37).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "uncore.h"
#include "handle/handle.h"
#include "sim/sim.h"

static const char *const names[] = { "mem_read_bytes", "mem_write_bytes", "mem_read_local_bytes", "mem_read_remote_bytes",
				     "mem_write_local_bytes", "mem_write_remote_bytes" };

static int near(const char *what, double got, double want)
{
	if (fabs(got - want) <= 0.01 * want)
		return 1;
	fprintf(stderr, "%s: %.0f, want %.0f\n", what, got, want);
	return 0;
}

static void split_on(const char *spec)
{
	uncore_t *u;
	uncore_session_t *s;
	int m[6];
	CU_ASSERT_FATAL(uncore_open(spec, &u) == 0 && uncore_session_new(u, &s) == 0);
	for (int i = 0; i < 6; i++)
		CU_ASSERT_FATAL((m[i] = uncore_session_add_metric(s, names[i])) >= 0);
	int rc = uncore_session_start(s);
	if (rc)
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	uncore_sleep_ns(u, 1000000000ull);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0 && uncore_session_stop(s) == 0);
	double secs = (double)uncore_session_elapsed_ns(s) / 1e9;
	const struct sim_profile *p = &sim_of(u->acc)->prof;
	for (int sock = 0; sock < uncore_num_sockets(u); sock++)
		for (int w = 0; w < 2; w++) {
			double v[3], bps = w ? p->mem_write_bps[sock] : p->mem_read_bps[sock], r = p->remote_ratio[sock];
			char what[256];
			CU_ASSERT_FATAL(r > 0 && r < 1); /* a split to tell apart */
			for (int k = 0; k < 3; k++)
				CU_ASSERT_FATAL(uncore_session_metric_value(s, m[k ? 2 + 2 * w + k - 1 : w], sock, -1, UNCORE_SINCE_START, &v[k]) == 0);
			snprintf(what, sizeof(what), "%s socket %d %s local", spec, sock, w ? "written" : "read");
			CU_ASSERT(near(what, v[1], bps * (1 - r) * secs));
			snprintf(what, sizeof(what), "%s socket %d %s remote", spec, sock, w ? "written" : "read");
			CU_ASSERT(near(what, v[2], bps * r * secs));
			snprintf(what, sizeof(what), "%s socket %d %s local + remote against the channels' count", spec, sock,
				 w ? "written" : "read");
			CU_ASSERT(near(what, v[1] + v[2], v[0]));
		}
	uncore_session_free(s);
	uncore_close(u);
}

static void test_split(void)
{
	static const char *const plat[] = { "skx", "clx", "icx", "spr", "emr", "gnr", "srf", "cwf" };
	char spec[96];
	for (size_t i = 0; i < sizeof(plat) / sizeof(*plat); i++)
		for (int perf = 0; perf < 2; perf++) {
			/* (CWF's 144 CHAs a socket take four file descriptors each through perf) */
			snprintf(spec, sizeof(spec), "%s:%s,clock=manual%s", perf ? "perf+sim" : "sim", plat[i], perf ? ",fds=4096" : "");
			split_on(spec);
		}
}

/* Where the platform defines no split (Sandy Bridge-EP's home agent has none) the metrics are not there. */
static void test_none(void)
{
	uncore_t *u;
	CU_ASSERT_FATAL(uncore_open("sim:snbep", &u) == 0);
	CU_ASSERT(uncore_metric_find(u, "mem_read_local_bytes") < 0);
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "local and remote bytes: the truth within 1 %, adding up to the channels' count", test_split },
		{ "no split where the platform has none", test_none },
		{ 0, 0 },
	};
	return run_suite("localremote", tests);
}
