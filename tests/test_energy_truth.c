/*
 * Energy per socket on the simulator (issue 68: "reads package and DRAM energy equal to the simulator's truth across
 * wraps at 1 s and 60 s intervals on sim: and perf+sim:"): every platform from SNB-EP to DMR, each source the part
 * has -- the RAPL MSRs and powercap's zones on sim:, the power PMU on perf+sim: -- read 40 times 1 s apart, through
 * a stretch of 30 GB/s, then 70 times 60 s apart, from counters started 30 s short of their wrap (prewrap=30), so
 * that each wraps; every read's joules since the start equal tests/sim_truth.h's truth_energy_j (the profile's watts
 * and the bytes the memory moved) within a count of the counter's unit per read and the kernel's rounding (its
 * powercap and TPMI units in whole nanojoules: a few parts per million).  Nehalem-EP and Montecito say plainly that
 * they cannot read energy.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "harness.h"
#include "sim_helpers.h"
#include "sim_truth.h"
#include "energy/energy.h"

#define FAST 40
#define SLOW 70

static const char *const platforms[] = { "snbep", "ivbep", "hsx", "bdx", "bdxde", "skx", "clx", "icx", "spr",
					 "emr", "gnr", "srf", "cwf", "dmr" };

/* The hardware's step of domain d, which a read may be short of the truth by, from the manuals and Linux (not the
 * library): psys counts whole joules on SPR and EMR (rapl.c RAPL_UNIT_QUIRK_INTEL_SPR); the others at most 2^-14 J
 * (MSR_RAPL_POWER_UNIT's energy status unit 14 or 16, DRAM's fixed 2^-16 J). */
static double step_j(int d) { return d == UNCORE_ENERGY_PSYS ? 1.0 : 1.0 / 16384; }

/* One platform, backend and source: how many values were checked */
static int run(const char *plat, const char *backend, const char *source)
{
	char spec[128], what[256];
	uncore_energy_t *e;
	int checked = 0, bad = 0;
	snprintf(spec, sizeof(spec), "%s:%s,clock=manual,prewrap=30", backend, plat);
	uncore_t *u = open_sim(spec);
	struct sim *sim = sim_of(u->acc);
	if (uncore_energy_new(u, source, &e)) {
		fprintf(stderr, "FAIL %s %s: %s\n", spec, source, uncore_error());
		CU_FAIL("energy cannot be read");
		uncore_close(u);
		return 0;
	}
	double t0[UC_MAX_SOCKETS][UNCORE_ENERGY_DOMAINS];
	for (int s = 0; s < uncore_num_sockets(u); s++)
		for (int d = 0; d < UNCORE_ENERGY_DOMAINS; d++)
			t0[s][d] = truth_energy_j(sim, s, d);
	CU_ASSERT_FATAL(uncore_energy_start(e, 60000000000ull) == 0);
	for (int i = 0; i < FAST + SLOW; i++) {
		if (i == FAST) /* 30 GB/s on the last socket for 20 s: its DRAM energy follows */
			CU_ASSERT(uncore_sim_workload(u, uncore_num_sockets(u) - 1, 400e9, 200e9, 20000000000ull) == 0);
		uncore_sleep_ns(u, i < FAST ? 1000000000ull : 60000000000ull);
		int rc = uncore_energy_read(e);
		if (rc)
			fprintf(stderr, "FAIL %s %s read %d: %s\n", spec, source, i, uncore_error());
		CU_ASSERT(rc == 0);
		for (int s = 0; s < uncore_num_sockets(u); s++)
			for (int d = 0; d < UNCORE_ENERGY_DOMAINS; d++) {
				double j, want = truth_energy_j(sim, s, d) - t0[s][d];
				if (!uncore_energy_has(e, s, d))
					continue;
				CU_ASSERT(uncore_energy_value(e, s, d, UNCORE_SINCE_START, &j) == 0);
				/* a step of the counter, the kernel's whole-nanojoule units (powercap; the TPMI PMU's
				 * scale 262143 for 2^18: 3.8 ppm) and energy_uj's whole microjoules */
				double tol = step_j(d) + 1e-5 * want + 1e-6 * (i + 2);
				checked++;
				if (fabs(j - want) > tol && bad++ < 3) {
					snprintf(what, sizeof(what), "%s %s socket %d %s after read %d", spec, source, s,
						 uncore_energy_domain_name(d), i);
					fprintf(stderr, "FAIL %s: %.6f J, truth %.6f J (tolerance %.6f)\n", what, j, want, tol);
				}
			}
	}
	CU_ASSERT(bad == 0);
	/* the last read's joules to the unit of its counters, as a line a reader can hold against the truth */
	double j, want = truth_energy_j(sim, 0, UNCORE_ENERGY_PKG) - t0[0][UNCORE_ENERGY_PKG];
	uncore_energy_value(e, 0, UNCORE_ENERGY_PKG, UNCORE_SINCE_START, &j);
	fprintf(stderr, "%s %s (%s): %d values; socket 0 pkg %.6f J, truth %.6f J\n", spec, source,
		uncore_energy_source(e), checked, j, want);
	uncore_energy_free(e);
	uncore_close(u);
	return checked;
}

static void test_sim(void)
{
	for (size_t p = 0; p < sizeof(platforms) / sizeof(platforms[0]); p++) {
		char why[160];
		const struct energy_part *part = energy_part_of(platform_by_name(platforms[p]), why, sizeof(why));
		CU_ASSERT_FATAL(part != NULL);
		CU_ASSERT(run(platforms[p], "sim", "powercap") > 0);
		if (part->msr != ENERGY_MSR_NONE)
			CU_ASSERT(run(platforms[p], "sim", "msr") > 0);
	}
}

static void test_perf_sim(void)
{
	for (size_t p = 0; p < sizeof(platforms) / sizeof(platforms[0]); p++)
		CU_ASSERT(run(platforms[p], "perf+sim", NULL) > 0); /* auto: the power PMU first */
}

/* auto on perf+sim: takes the power PMU; on sim: powercap (no kernel there) */
static void test_auto(void)
{
	uncore_energy_t *e;
	uncore_t *u = open_sim("perf+sim:skx,clock=manual");
	CU_ASSERT_FATAL(uncore_energy_new(u, NULL, &e) == 0);
	CU_ASSERT(strstr(uncore_energy_source(e), "perf power PMU") != NULL);
	CU_ASSERT(uncore_energy_max_interval_ns(e) == 0);
	uncore_energy_free(e);
	uncore_close(u);
	u = open_sim("sim:skx,clock=manual");
	CU_ASSERT_FATAL(uncore_energy_new(u, NULL, &e) == 0);
	CU_ASSERT(strstr(uncore_energy_source(e), "powercap") != NULL);
	uncore_energy_free(e);
	uncore_close(u);
}

/* psys on Granite Rapids and Sierra Forest: PCM reads MSR 0x64D there at 1 J on socket 0 (cpucounters.h
 * systemEnergyMetricAvailable, getSystemConsumedJoules; intel/pcm 0fae0de1), which the simulator counts while its
 * TPMI (powercap, the power PMU) shows no psys: the sources the front ends choose read it beside their own, and
 * it equals the platform's truth; Clearwater Forest, whose RAPL MSRs no public source reads, has none.  SPR and
 * EMR through the MSRs alone (the msr source): MSR 0x64D at 1 J there too (rapl.c intel_rapl_spr_msrs, the
 * platform domain's RAPL_UNIT_QUIRK_INTEL_SPR), so a wrong MSR number for psys is caught where the kernel's
 * sources would hide it. */
static void test_psys_msr(void)
{
	static const struct { const char *spec, *source; int psys; } cases[] = {
		{ "sim:gnr,clock=manual", NULL, 1 }, { "perf+sim:gnr,clock=manual", NULL, 1 },
		{ "sim:srf,clock=manual", NULL, 1 }, { "perf+sim:srf,clock=manual", NULL, 1 },
		{ "sim:cwf,clock=manual", NULL, 0 }, { "sim:spr,clock=manual", "msr", 1 },
		{ "sim:emr,clock=manual", "msr", 1 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uncore_energy_t *e;
		double j;
		uncore_t *u = open_sim(cases[i].spec);
		struct sim *sim = sim_of(u->acc);
		CU_ASSERT_FATAL(uncore_energy_new(u, cases[i].source, &e) == 0);
		double t0 = truth_energy_j(sim, 0, UNCORE_ENERGY_PSYS);
		CU_ASSERT_FATAL(uncore_energy_start(e, 0) == 0);
		uncore_sleep_ns(u, 10000000000ull);
		CU_ASSERT(uncore_energy_read(e) == 0);
		int has = uncore_energy_has(e, 0, UNCORE_ENERGY_PSYS);
		double want = truth_energy_j(sim, 0, UNCORE_ENERGY_PSYS) - t0;
		int ok = has == cases[i].psys && !uncore_energy_has(e, 1, UNCORE_ENERGY_PSYS) &&
			 (!has || (uncore_energy_value(e, 0, UNCORE_ENERGY_PSYS, UNCORE_SINCE_START, &j) == 0 &&
				   fabs(j - want) <= 1.0 + 1e-6 * want));
		fprintf(stderr, "%s (%s): psys %s%s\n", cases[i].spec, uncore_energy_source(e),
			has ? "read" : "not read", ok ? "" : " (wrong)");
		if (has)
			fprintf(stderr, "  socket 0 psys %.1f J over 10 s, truth %.1f J\n", j, want);
		CU_ASSERT(ok);
		uncore_energy_free(e);
		uncore_close(u);
	}
}

/* a read later than the wrap time is said, and its values marked a lower bound */
static void test_late(void)
{
	uncore_energy_t *e;
	double j;
	uncore_t *u = open_sim("sim:hsx,clock=manual,prewrap=30");
	CU_ASSERT_FATAL(uncore_energy_new(u, "msr", &e) == 0);
	uint64_t max = uncore_energy_max_interval_ns(e);
	CU_ASSERT(max > 60000000000ull && max < 3600000000000ull);
	CU_ASSERT(uncore_energy_start(e, max + 1000000000ull) == -1);
	CU_ASSERT_FATAL(uncore_energy_start(e, 0) == 0);
	uncore_sleep_ns(u, max + 1000000000ull);
	CU_ASSERT(uncore_energy_read(e) == -1);
	fprintf(stderr, "late read: %s\n", uncore_error());
	CU_ASSERT(strstr(uncore_error(), "lower bound") != NULL);
	CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_PKG, UNCORE_LAST_INTERVAL, &j) == 1);
	uncore_sleep_ns(u, 1000000000ull);
	CU_ASSERT(uncore_energy_read(e) == 0);
	CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_PKG, UNCORE_LAST_INTERVAL, &j) == 0);
	CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_PKG, UNCORE_SINCE_START, &j) == 1);
	uncore_energy_free(e);
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "sim: every platform's MSRs and powercap zones equal the truth across wraps at 1 s and 60 s", test_sim },
		{ "perf+sim: every platform's power PMU equals the truth at 1 s and 60 s", test_perf_sim },
		{ "auto takes the power PMU on perf+sim:, powercap on sim:", test_auto },
		{ "psys from MSR 0x64D: GNR and SRF beside the kernel's sources, SPR and EMR alone", test_psys_msr },
		{ "a read later than the wrap time is said and its joules marked a lower bound", test_late },
		{ NULL, NULL },
	};
	return run_suite("energy_truth", tests);
}
