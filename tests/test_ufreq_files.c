/*
 * The uncore clock's limits as a real node's kernel shows them (UNCORE_SYSROOT, a fake tree): Linux 6.12's
 * per-die files with the die ids of 6.12's topology (package_01_die_01 is socket 1's die 0), the TPMI form's
 * uncoreNN entries beside their package roots (left out, though their envelope differs), and the files only
 * root reads missing for another user (current_freq_khz, package_id, domain_id, fabric_cluster_id: NaN and -1).
 */
#include <math.h>
#include "fake_tree.h"
#include "uncore.h"

#define UF "/sys/devices/system/cpu/intel_uncore_frequency/"

/* Two packages of two CPUs, one die each (die_id as 6.12 gives it: the package's bits included). */
static void node(void)
{
	char cmd[600], p[128], v[16];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", root, root);
	CU_ASSERT_FATAL(system(cmd) == 0);
	put_str("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n\n", "/proc/cpuinfo");
	for (int cpu = 0; cpu < 4; cpu++) {
		snprintf(v, sizeof(v), "%d\n", cpu / 2);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		put_str(v, p);
		snprintf(p, sizeof(p), "/sys/devices/system/cpu/cpu%d/topology/die_id", cpu);
		put_str(v, p);
	}
}

static void entry(const char *name, long min, long max, long imin, long imax, long cur)
{
	const char *file[] = { "min_freq_khz", "max_freq_khz", "initial_min_freq_khz", "initial_max_freq_khz", "current_freq_khz" };
	long val[] = { min, max, imin, imax, cur };
	for (int i = 0; i < 5; i++) {
		char p[160], v[24];
		if (val[i] < 0)
			continue; /* not there: root's alone, or the root entry's missing current */
		snprintf(p, sizeof(p), UF "%s/%s", name, file[i]);
		snprintf(v, sizeof(v), "%ld\n", val[i]);
		put_str(v, p);
	}
}

static void ids(const char *name, int pkg, int dom, int cl)
{
	char p[160], v[16];
	const char *file[] = { "package_id", "domain_id", "fabric_cluster_id" };
	int val[] = { pkg, dom, cl };
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), UF "%s/%s", name, file[i]);
		snprintf(v, sizeof(v), "%d\n", val[i]);
		put_str(v, p);
	}
}

static void test_per_die(void)
{
	uncore_t *u;
	struct uncore_freq_domain d[8];
	node();
	entry("package_00_die_00", 800000, 2200000, 800000, 2500000, 1900000);
	entry("package_01_die_01", 1200000, 1200000, 1200000, 1200000, -1); /* pinned; current root's alone */
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT_FATAL(uncore_freq_domains(u, d, 8) == 2);
	CU_ASSERT(!strcmp(d[0].name, "package_00_die_00") && d[0].socket == 0 && d[0].die == 0 && d[0].domain == -1);
	CU_ASSERT(d[0].min_hz == 0.8e9 && d[0].max_hz == 2.2e9 && d[0].initial_min_hz == 0.8e9 && d[0].initial_max_hz == 2.5e9 &&
		  d[0].current_hz == 1.9e9 && !strcmp(d[0].source, "intel_uncore_frequency"));
	CU_ASSERT(!strcmp(d[1].name, "package_01_die_01") && d[1].socket == 1 && d[1].die == 0);
	CU_ASSERT(d[1].min_hz == 1.2e9 && d[1].max_hz == 1.2e9 && isnan(d[1].current_hz));
	uncore_close(u);
}

static void test_tpmi(void)
{
	uncore_t *u;
	struct uncore_freq_domain d[8];
	node();
	entry("uncore00", 800000, 2500000, 800000, 2500000, 2000000);
	ids("uncore00", 0, 0, 0);
	entry("uncore01", 1000000, 2200000, 1000000, 2200000, 1800000);
	ids("uncore01", 0, 1, 0);
	entry("uncore02", 800000, 2500000, 800000, 2500000, -1); /* its ids root's alone: none */
	entry("package_00_die_00", 700000, 2600000, 700000, 2600000, -1); /* the root: another envelope, left out */
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT_FATAL(uncore_freq_domains(u, d, 8) == 3);
	CU_ASSERT(!strcmp(d[1].name, "uncore01") && d[1].socket == 0 && d[1].domain == 1 && d[1].cluster == 0 && d[1].die == -1);
	CU_ASSERT(d[1].min_hz == 1e9 && d[1].max_hz == 2.2e9 && d[1].current_hz == 1.8e9 &&
		  !strcmp(d[1].source, "intel_uncore_frequency (TPMI)"));
	CU_ASSERT(!strcmp(d[2].name, "uncore02") && d[2].socket == -1 && d[2].domain == -1 && isnan(d[2].current_hz) &&
		  d[2].max_hz == 2.5e9);
	uncore_close(u);
}

static void test_none(void)
{
	uncore_t *u;
	node();
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	CU_ASSERT(uncore_freq_domains(u, NULL, 0) < 0 && strstr(uncore_error(), "intel_uncore_frequency is missing"));
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "per-die files: a die each, 6.12's die ids, current root's alone", test_per_die },
		{ "TPMI: uncoreNN with their ids, the package roots left out", test_tpmi },
		{ "no driver: said", test_none },
		{ NULL, NULL },
	};
	return run_in_fake_tree("ufreq files", tests);
}
