/*
 * Energy per socket (issue 68, doc/energy.md) read from hand-made machines: MSR images and powercap trees in a
 * fake sysroot, and a kernel of the test's own for the perf power PMU.  The expected joules are computed here
 * from the raw values written and the units of the manuals and Linux (MSR_RAPL_POWER_UNIT's 1/2^ESU J, the
 * "15.3 uJ" DRAM unit of the Haswell-EP datasheet, 2^-16 J as rapl.c's quirk takes it; powercap's microjoules of
 * whole-nanojoule units, 15300 nJ for that DRAM; perf's 2^-32 J), and the MSR
 * addresses are those of tests/reference/linux_regs.txt's "rapl" rows, so a wrong address, unit or wrap fails.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "fake_tree.h"
#include "sim_helpers.h"
#include "energy/energy.h"
#include "health/health_energy.h"
#include "platform/platform.h"
#include "util/error.h"

/* ---- the MSR addresses, from Linux's msr-index.h by way of linux_regs.txt ---- */
static unsigned long reg_of(const char *key)
{
	char line[512], tag[16], unit[16], k[48];
	unsigned long v = 0;
	FILE *f = fopen(REFDIR "/linux_regs.txt", "r");
	CU_ASSERT_FATAL(f != NULL);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%15s %15s %47s %li", tag, unit, k, &v) == 4 && !strcmp(tag, "rapl") && !strcmp(k, key))
			break;
		else
			v = 0;
	fclose(f);
	if (!v)
		fprintf(stderr, "linux_regs.txt has no rapl row %s\n", key);
	CU_ASSERT_FATAL(v != 0);
	return v;
}

/* Two sockets of two CPUs, Intel family 6 model model */
static void host_tree(int model)
{
	char text[256], path[128];
	snprintf(text, sizeof(text), "vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: %d\nstepping\t: 2\n"
		 "model name\t: Xeon\n", model);
	put_str(text, "/proc/cpuinfo");
	for (int c = 0; c < 4; c++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		put_str(c < 2 ? "0\n" : "1\n", path);
	}
}

static void msr_put(int cpu, unsigned long reg, uint64_t v)
{
	char rel[64];
	snprintf(rel, sizeof(rel), "/dev/cpu/%d/msr", cpu);
	put_at64(rel, (off_t)reg, v);
}

static uncore_t *topology(void)
{
	uncore_t *u = NULL;
	int rc = uncore_open_topology("direct", &u);
	if (rc)
		fprintf(stderr, "open: %s\n", uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	CU_ASSERT_FATAL(uncore_num_sockets(u) == 2);
	return u;
}

static void near(const char *what, double got, double want)
{
	int ok = fabs(got - want) <= 1e-9 * fabs(want) + 1e-12;
	if (!ok)
		fprintf(stderr, "FAIL %s: %.9f J, not %.9f J\n", what, got, want);
	CU_ASSERT(ok);
}

/* Haswell-EP: package in 1/2^14 J (ESU 14 in MSR_RAPL_POWER_UNIT bits 12:8), DRAM in the fixed 2^-16 J */
#define DRAM_UNIT (1.0 / 65536)
static void test_msr_hsx(void)
{
	const unsigned long unit = reg_of("msr.power_unit"), pkg = reg_of("msr.pkg_energy"),
			    dram = reg_of("msr.dram_energy");
	/* socket 0 just below the wrap, socket 1 mid-range */
	const uint64_t pkg0[2] = { 0xfffff000, 0x00000100 }, pkg1[2] = { 0x12345678, 0x12355678 };
	const uint64_t dram0[2] = { 0x00001000, 0x00021000 }, dram1[2] = { 0xffffff00, 0x000000ff };
	uncore_energy_t *e;
	double j;
	host_tree(63);
	for (int c = 0; c < 4; c++) {
		char rel[32];
		snprintf(rel, sizeof(rel), "/dev/cpu/%d/msr", c);
		sparse(rel, 0x1000);
	}
	for (int c = 0; c < 4; c += 2) {
		msr_put(c, unit, 0x000a0e03); /* ESU 0x0e, power unit 3, time unit 0xa (a typical value) */
		msr_put(c, pkg, 0xabcd000000000000ull | (c ? pkg1[0] : pkg0[0])); /* bits 63:32 reserved */
		msr_put(c, dram, c ? dram1[0] : dram0[0]);
	}
	uncore_t *u = topology();
	int rc = uncore_energy_new(u, "msr", &e);
	if (rc)
		fprintf(stderr, "msr: %s\n", uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	CU_ASSERT(strstr(uncore_energy_source(e), "RAPL MSRs") != NULL);
	CU_ASSERT(uncore_energy_has(e, 0, UNCORE_ENERGY_PKG) && uncore_energy_has(e, 1, UNCORE_ENERGY_DRAM));
	CU_ASSERT(!uncore_energy_has(e, 0, UNCORE_ENERGY_PSYS));
	/* the DRAM counter wraps first: 2^32 x 2^-16 J at 330 W (twice Haswell-EP's 165 W) */
	double wrap = 65536.0 / 330;
	ASSERT_NEAR((double)uncore_energy_max_interval_ns(e) / 1e9, wrap, 1e-6);
	CU_ASSERT(uncore_energy_start(e, (uint64_t)(wrap * 1e9) + 1000000000ull) == -1);
	fprintf(stderr, "refused: %s\n", uncore_error());
	CU_ASSERT(strstr(uncore_error(), "wrap") && strstr(uncore_error(), "dram"));
	CU_ASSERT_FATAL(uncore_energy_start(e, 1000000000ull) == 0);
	for (int c = 0; c < 4; c += 2) {
		msr_put(c, pkg, c ? pkg1[1] : pkg0[1]);
		msr_put(c, dram, c ? dram1[1] : dram0[1]);
	}
	CU_ASSERT_FATAL(uncore_energy_read(e) == 0);
	const double esu = 1.0 / 16384;
	CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_PKG, UNCORE_SINCE_START, &j) == 0);
	near("socket 0 package across a wrap", j, (double)(0x100000000ull - pkg0[0] + pkg0[1]) * esu);
	CU_ASSERT(uncore_energy_value(e, 1, UNCORE_ENERGY_PKG, UNCORE_LAST_INTERVAL, &j) == 0);
	near("socket 1 package", j, (double)(pkg1[1] - pkg1[0]) * esu);
	CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_DRAM, UNCORE_SINCE_START, &j) == 0);
	near("socket 0 DRAM", j, (double)(dram0[1] - dram0[0]) * DRAM_UNIT);
	CU_ASSERT(uncore_energy_value(e, 1, UNCORE_ENERGY_DRAM, UNCORE_SINCE_START, &j) == 0);
	near("socket 1 DRAM across a wrap", j, (double)(0x100000000ull - dram1[0] + dram1[1]) * DRAM_UNIT);
	CU_ASSERT(uncore_energy_value(e, -1, UNCORE_ENERGY_DRAM, UNCORE_SINCE_START, &j) == 0);
	near("both sockets' DRAM", j, (double)(dram0[1] - dram0[0] + 0x100000000ull - dram1[0] + dram1[1]) * DRAM_UNIT);
	/* a second interval adds to the first */
	msr_put(0, pkg, pkg0[1] + 0x4000);
	CU_ASSERT_FATAL(uncore_energy_read(e) == 0);
	CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_PKG, UNCORE_LAST_INTERVAL, &j) == 0);
	near("socket 0 package, second interval", j, 1.0);
	CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_PKG, UNCORE_SINCE_START, &j) == 0);
	near("socket 0 package since the start", j, (double)(0x100000000ull - pkg0[0] + pkg0[1]) * esu + 1.0);
	uncore_energy_free(e);
	uncore_close(u);
}

/* Sandy Bridge-EP: DRAM in MSR_RAPL_POWER_UNIT's unit (no fixed unit: rapl.c model_snbep) */
static void test_msr_snbep(void)
{
	const unsigned long unit = reg_of("msr.power_unit"), dram = reg_of("msr.dram_energy"),
			    pkg = reg_of("msr.pkg_energy");
	uncore_energy_t *e;
	double j;
	host_tree(45);
	for (int c = 0; c < 4; c += 2) {
		msr_put(c, unit, 0x000a1003); /* ESU 0x10: 1/65536 J */
		msr_put(c, pkg, 5);
		msr_put(c, dram, 100);
	}
	uncore_t *u = topology();
	CU_ASSERT_FATAL(uncore_energy_new(u, "msr", &e) == 0);
	CU_ASSERT_FATAL(uncore_energy_start(e, 0) == 0);
	msr_put(2, dram, 100 + 65536 * 3);
	CU_ASSERT_FATAL(uncore_energy_read(e) == 0);
	CU_ASSERT(uncore_energy_value(e, 1, UNCORE_ENERGY_DRAM, UNCORE_SINCE_START, &j) == 0);
	near("SNB-EP socket 1 DRAM", j, 3.0);
	/* 2^32 / 2^16 J at 300 W (twice the E5-2687W's 150 W) */
	ASSERT_NEAR((double)uncore_energy_max_interval_ns(e) / 1e9, 65536.0 / 300, 1e-6);
	uncore_energy_free(e);
	uncore_close(u);
}

/* powercap: package zones, their DRAM sub-zones (a core sub-zone left out), microjoules wrapping at the range */
static void test_powercap(void)
{
	/* ranges as the kernel makes them: (2^32 - 1) x its unit in whole nJ (61035 for 2^-14 J; DRAM 15300) / 1000 */
	const char *range = "262143328850\n";
	const double pkg_fix = 61035.15625 / 61035, dram_fix = 1e9 / 65536 / 15300;
	uncore_energy_t *e;
	double j;
	host_tree(106); /* Ice Lake-SP */
	put_str("package-0\n", "/sys/class/powercap/intel-rapl:0/name");
	put_str(range, "/sys/class/powercap/intel-rapl:0/max_energy_range_uj");
	put_str("262143000000\n", "/sys/class/powercap/intel-rapl:0/energy_uj");
	put_str("dram\n", "/sys/class/powercap/intel-rapl:0/intel-rapl:0:0/name");
	put_str("dram\n", "/sys/class/powercap/intel-rapl:0:0/name");
	put_str("65712999613\n", "/sys/class/powercap/intel-rapl:0:0/max_energy_range_uj");
	put_str("1000\n", "/sys/class/powercap/intel-rapl:0:0/energy_uj");
	put_str("core\n", "/sys/class/powercap/intel-rapl:0:1/name");
	put_str("100\n", "/sys/class/powercap/intel-rapl:0:1/max_energy_range_uj");
	put_str("7\n", "/sys/class/powercap/intel-rapl:0:1/energy_uj");
	put_str("package-1\n", "/sys/class/powercap/intel-rapl:1/name");
	put_str(range, "/sys/class/powercap/intel-rapl:1/max_energy_range_uj");
	put_str("5000000\n", "/sys/class/powercap/intel-rapl:1/energy_uj");
	uncore_t *u = topology();
	int rc = uncore_energy_new(u, NULL, &e); /* auto: no power PMU in the tree, so powercap */
	if (rc)
		fprintf(stderr, "auto: %s\n", uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	CU_ASSERT(strstr(uncore_energy_source(e), "powercap") != NULL);
	CU_ASSERT(uncore_energy_has(e, 0, UNCORE_ENERGY_DRAM) && !uncore_energy_has(e, 1, UNCORE_ENERGY_DRAM));
	CU_ASSERT_FATAL(uncore_energy_start(e, 1000000000ull) == 0);
	put_str("500000\n", "/sys/class/powercap/intel-rapl:0/energy_uj"); /* wrapped */
	put_str("2001000\n", "/sys/class/powercap/intel-rapl:0:0/energy_uj");
	put_str("9\n", "/sys/class/powercap/intel-rapl:0:1/energy_uj");
	put_str("15000000\n", "/sys/class/powercap/intel-rapl:1/energy_uj");
	CU_ASSERT_FATAL(uncore_energy_read(e) == 0);
	CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_PKG, UNCORE_SINCE_START, &j) == 0);
	/* the wrap: 2^32 counts of 61035 nJ, 262143328911.36 uJ (the range is 2^32 - 1 of them, floored) */
	near("powercap socket 0 package across a wrap", j, (262143328911.0 - 262143000000.0 + 500000) * 1e-6 * pkg_fix);
	CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_DRAM, UNCORE_SINCE_START, &j) == 0);
	near("powercap socket 0 DRAM (15300 nJ taken back to 2^-16 J)", j, 2.0 * dram_fix);
	CU_ASSERT(uncore_energy_value(e, 1, UNCORE_ENERGY_PKG, UNCORE_SINCE_START, &j) == 0);
	near("powercap socket 1 package", j, 10.0 * pkg_fix);
	uncore_energy_free(e);
	uncore_close(u);
}

/* powercap values no counter shows (issue 79): energy_uj 1000000 -> 1e18 (above max_energy_range_uj) -> 5
 * added 1.84e13 J for good, and "-1" read as 2^64 - 1.  Each such read is refused, the step back to 5 (a
 * "wrap" of 2.6e5 J within microseconds, far more than Ice Lake-SP's 540 W draw) dropped, and the counter's
 * health says so (energystuck, naming the value). */
static void test_powercap_hostile(void)
{
	const char *file = "/sys/class/powercap/intel-rapl:0/energy_uj";
	static const char *const bad[] = { "1000000000000000000\n", "-1\n", " 1000001\n", "+1000001\n", "1000001x\n" };
	uncore_energy_t *e;
	double j;
	host_tree(106); /* Ice Lake-SP */
	put_str("package-0\n", "/sys/class/powercap/intel-rapl:0/name");
	put_str("262143328850\n", "/sys/class/powercap/intel-rapl:0/max_energy_range_uj");
	put_str("1000000\n", file);
	put_str("package-1\n", "/sys/class/powercap/intel-rapl:1/name");
	put_str("262143328850\n", "/sys/class/powercap/intel-rapl:1/max_energy_range_uj");
	put_str("1000000\n", "/sys/class/powercap/intel-rapl:1/energy_uj");
	uncore_t *u = topology();
	CU_ASSERT_FATAL(uncore_energy_new(u, "powercap", &e) == 0);
	CU_ASSERT_FATAL(uncore_energy_start(e, 1000000000ull) == 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put_str(bad[i], file);
		CU_ASSERT(uncore_energy_read(e) == 0);
		CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_PKG, UNCORE_SINCE_START, &j) == 0);
		if (j != 0)
			fprintf(stderr, "FAIL energy_uj %.*s added %g J\n", (int)strcspn(bad[i], "\n"), bad[i], j);
		CU_ASSERT(j == 0);
		struct health_energy st = { .e = e };
		const struct health_energy_cond *c;
		int n = health_energy_judge(&st, &c);
		CU_ASSERT(n >= 1 && c[0].kind == UNCORE_HEALTH_ENERGYSTUCK && c[0].socket == 0 &&
			  strstr(c[0].what, "refused") != NULL);
		if (n >= 1)
			fprintf(stderr, "energy_uj %.*s: %s\n", (int)strcspn(bad[i], "\n"), bad[i], c[0].what);
	}
	put_str("5\n", file); /* from 1000000: a wrap of 2.6e5 J in microseconds */
	CU_ASSERT(uncore_energy_read(e) == 0);
	CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_PKG, UNCORE_SINCE_START, &j) == 0);
	if (j != 0)
		fprintf(stderr, "FAIL 1000000 -> 5 added %g J\n", j);
	CU_ASSERT(j == 0);
	struct health_energy st = { .e = e };
	const struct health_energy_cond *c;
	CU_ASSERT(health_energy_judge(&st, &c) >= 1 && c[0].kind == UNCORE_HEALTH_ENERGYSTUCK &&
		  strstr(c[0].what, "dropped") != NULL);
	put_str("2000005\n", file); /* counted on from 5: 2 J (x the unit's 61035.15625 / 61035 nJ) */
	CU_ASSERT(uncore_energy_read(e) == 0);
	CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_PKG, UNCORE_SINCE_START, &j) == 0);
	near("powercap socket 0 package after the refused values", j, 2.0 * 61035.15625 / 61035);
	CU_ASSERT(uncore_energy_value(e, 1, UNCORE_ENERGY_PKG, UNCORE_SINCE_START, &j) == 0 && j == 0);
	uncore_energy_free(e);
	uncore_close(u);
}

/* ---- a kernel of the test's own: the power PMU's files and counts as Linux's rapl.c gives them ---- */
static uint64_t counts[4][3]; /* by CPU and event config - 2 */
static int k_open(struct perf_kernel *k, struct perf_event_attr *a, pid_t pid, int cpu, int g, unsigned long fl)
{
	(void)k, (void)g, (void)fl;
	if (a->type != 23 || pid != -1 || cpu < 0 || cpu > 3 || a->config < 2 || a->config > 4)
		return -EINVAL;
	return 100 + cpu * 8 + (int)a->config; /* the fd says which */
}
static ssize_t k_read(struct perf_kernel *k, int fd, void *buf, size_t len)
{
	(void)k;
	if (len < 8)
		return -EINVAL;
	memcpy(buf, &counts[(fd - 100) / 8][(fd - 100) % 8 - 2], 8);
	return 8;
}
static int k_close(struct perf_kernel *k, int fd) { (void)k, (void)fd; return 0; }
static int k_read_line(struct perf_kernel *k, const char *path, char *buf, size_t len)
{
	static const char *const files[][2] = {
		{ "/sys/bus/event_source/devices/power/type", "23" },
		{ "/sys/bus/event_source/devices/power/cpumask", "0,2" },
		{ "/sys/bus/event_source/devices/power/format/event", "config:0-7" },
		{ "/sys/bus/event_source/devices/power/events/energy-pkg", "event=0x02" },
		{ "/sys/bus/event_source/devices/power/events/energy-pkg.scale", "2.3283064365386962890625e-10" },
		{ "/sys/bus/event_source/devices/power/events/energy-ram", "event=0x03" },
		{ "/sys/bus/event_source/devices/power/events/energy-ram.scale", "2.3283064365386962890625e-10" },
	};
	(void)k;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (!strcmp(path, files[i][0]))
			return snprintf(buf, len, "%s", files[i][1]) >= (int)len ? -2 : 0;
	return -1;
}
static const struct perf_kernel_ops fake_ops = { .open = k_open, .read = k_read, .close = k_close,
						 .read_line = k_read_line };

/* rapl.c counts raw << (32 - hw_unit) in 2^-32 J: package hw_unit 14; DRAM 16 (RAPL_UNIT_QUIRK_INTEL_HSW) */
static void test_perf_pmu(void)
{
	struct perf_kernel k = { .ops = &fake_ops, .name = "the test's kernel" };
	uncore_energy_t *e = calloc(1, sizeof(*e));
	char why[128];
	double j;
	host_tree(85); /* Skylake-SP */
	e->u = topology();
	e->part = energy_part_of(platform_by_cpu(6, 85, 2), why, sizeof(why));
	CU_ASSERT_FATAL(e->part != NULL);
	e->k = &k;
	counts[0][0] = 1000ull << 18, counts[2][0] = 5ull << 18, counts[0][1] = 7ull << 16, counts[2][1] = 0;
	int rc = energy_open_source(e, "perf");
	if (rc)
		fprintf(stderr, "perf: %s\n", uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	CU_ASSERT(strstr(uncore_energy_source(e), "type 23") != NULL);
	CU_ASSERT(uncore_energy_max_interval_ns(e) == 0); /* the kernel's 64-bit counts do not wrap */
	CU_ASSERT_FATAL(uncore_energy_start(e, 3600000000000ull) == 0);
	counts[0][0] += (16384ull * 50) << 18;   /* 50 J */
	counts[2][1] += (65536ull * 10) << 16;   /* 10 J */
	CU_ASSERT_FATAL(uncore_energy_read(e) == 0);
	CU_ASSERT(uncore_energy_value(e, 0, UNCORE_ENERGY_PKG, UNCORE_SINCE_START, &j) == 0);
	near("perf socket 0 package", j, 50.0);
	CU_ASSERT(uncore_energy_value(e, 1, UNCORE_ENERGY_DRAM, UNCORE_SINCE_START, &j) == 0);
	near("perf socket 1 DRAM", j, 10.0);
	uncore_t *u = e->u;
	uncore_energy_free(e);
	uncore_close(u);
}

/* ---- parts without RAPL say so ---- */
static void test_no_rapl(void)
{
	static const char *const plain[][2] = { { "sim:nhm", "Nehalem-EP has no RAPL" },
						{ "sim:montecito", "Montecito (Itanium 2) has no RAPL" } };
	for (int i = 0; i < 2; i++) {
		uncore_t *u = open_sim(plain[i][0]);
		uncore_energy_t *e = NULL;
		CU_ASSERT(uncore_energy_new(u, NULL, &e) == -1 && e == NULL);
		fprintf(stderr, "%s: %s\n", plain[i][0], uncore_error());
		CU_ASSERT(strstr(uncore_error(), plain[i][1]) != NULL);
		uncore_close(u);
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "Haswell-EP's RAPL MSRs: package and fixed-unit DRAM across wraps, a too long interval refused",
		  test_msr_hsx },
		{ "Sandy Bridge-EP's DRAM in MSR_RAPL_POWER_UNIT's unit", test_msr_snbep },
		{ "powercap zones across a wrap, chosen by auto without a power PMU", test_powercap },
		{ "powercap values above the range, signed or blank, and an impossible step refused", test_powercap_hostile },
		{ "the perf power PMU's counts in 2^-32 J", test_perf_pmu },
		{ "Nehalem-EP and Montecito say they cannot read energy", test_no_rapl },
		{ NULL, NULL },
	};
	return run_in_fake_tree("energy", tests);
}
