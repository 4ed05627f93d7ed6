/*
 * Health's watch over the energy counters (issue 68, doc/health.md "Energy"): a session that watches an energy
 * object raises energystuck on the socket and domain of a counter that stands still (fault stuck:energy-pkg:1
 * from 100 s: raised within three reads of it, on socket 1's pkg alone) and energyunit where the unit is 16 x off
 * (badunit:rapl: every socket's package past 1000 W), and a clean simulated hour of reads a second raises
 * nothing, on sim: (powercap) and perf+sim: (the power PMU, SPR's psys read 0 on socket 1 included).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "sim_helpers.h"

struct raised {
	int n, stuck, unit, other;
	int socket[64];
	char unit_name[64][16];
	double at_s[64];
};

/* Reads a second for secs seconds of the manual clock, energy read before the session; every condition
 * raised. */
static void run(const char *spec, int secs, struct raised *r)
{
	uncore_t *u = open_sim(spec);
	uncore_session_t *s;
	uncore_energy_t *e;
	memset(r, 0, sizeof(*r));
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT_FATAL(uncore_session_add_metric(s, "mem_read_bytes") >= 0 && uncore_session_start(s) == 0);
	int rc = uncore_energy_new(u, NULL, &e) || uncore_energy_start(e, 1000000000ull) || uncore_session_watch_energy(s, e);
	if (rc)
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	for (int i = 0; i < secs; i++) {
		struct uncore_health h[16];
		uncore_sleep_ns(u, 1000000000ull);
		CU_ASSERT(uncore_energy_read(e) == 0);
		CU_ASSERT(uncore_session_read(s) == 0);
		int n = uncore_session_health_changes(s, h, 16);
		for (int k = 0; k < n && r->n < 64; k++) {
			if (!h[k].raised)
				continue;
			printf("%s at %d s: %s socket %d %s: %s\n", spec, i + 1, uncore_health_name(h[k].kind), h[k].socket, h[k].unit,
			       h[k].what);
			r->stuck += h[k].kind == UNCORE_HEALTH_ENERGYSTUCK;
			r->unit += h[k].kind == UNCORE_HEALTH_ENERGYUNIT;
			r->other += h[k].kind != UNCORE_HEALTH_ENERGYSTUCK && h[k].kind != UNCORE_HEALTH_ENERGYUNIT;
			r->socket[r->n] = h[k].socket;
			snprintf(r->unit_name[r->n], sizeof(r->unit_name[0]), "%s", h[k].unit);
			r->at_s[r->n++] = i + 1;
		}
	}
	uncore_session_free(s);
	uncore_energy_free(e);
	uncore_close(u);
}

static void test_clean_hour(void)
{
	static const char *const specs[] = { "sim:skx,clock=manual", "perf+sim:spr,clock=manual" };
	for (int i = 0; i < 2; i++) {
		struct raised r;
		run(specs[i], 3600, &r);
		printf("%s: a clean hour, %d conditions raised\n", specs[i], r.n);
		CU_ASSERT_EQUAL(r.n, 0);
	}
}

static void test_stuck(void)
{
	static const char *const specs[] = { "sim:skx,clock=manual,fault=stuck:energy-pkg:1@100",
					     "perf+sim:gnr,clock=manual,fault=stuck:energy-pkg:1@100" };
	for (int i = 0; i < 2; i++) {
		struct raised r;
		run(specs[i], 300, &r);
		CU_ASSERT(r.n == 1 && r.stuck == 1 && r.socket[0] == 1 && !strcmp(r.unit_name[0], "pkg") && r.at_s[0] > 100 &&
			  r.at_s[0] <= 103);
	}
}

static void test_badunit(void)
{
	static const char *const specs[] = { "sim:skx,clock=manual,fault=badunit:rapl", "perf+sim:spr,clock=manual,fault=badunit:rapl" };
	for (int i = 0; i < 2; i++) {
		struct raised r;
		run(specs[i], 60, &r);
		int pkg = 0;
		for (int k = 0; k < r.n; k++)
			pkg += !strcmp(r.unit_name[k], "pkg") && r.at_s[k] == 1;
		CU_ASSERT(r.unit >= 2 && pkg == 2 && r.stuck == 0 && r.other == 0); /* both sockets' packages, at once */
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "a clean simulated hour raises no condition", test_clean_hour },
		{ "a stuck energy counter raises energystuck", test_stuck },
		{ "a wrong energy unit raises energyunit", test_badunit },
		{ NULL, NULL },
	};
	return run_suite("health_energy", tests);
}
