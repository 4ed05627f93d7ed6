/*
 * The uncore clock's limits as a real node's kernel shows them (UNCORE_SYSROOT, a fake tree): Linux 6.12's
 * per-die files with the die ids of 6.12's topology (package_01_die_01 is socket 1's die 0), the TPMI form's
 * uncoreNN entries beside their package roots (left out, though their envelope differs), and the files only
 * root reads missing for another user (current_freq_khz, package_id, domain_id, fabric_cluster_id: NaN and -1).
 */
#include <math.h>
#include <sys/stat.h>
#include "fake_tree.h"
#include "uncore.h"
#include "util/error.h"

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

/* Values and names no driver gives (issue 79): a sign, a blank, a value above the 7-bit ratio's 12.7 GHz, min
 * above max, a malformed name, a FIFO in place of a file: each refused with a warning naming it, never read as
 * 18446744073709552 MHz or socket ?, and the FIFO never waited on. */
static void test_hostile(void)
{
	uncore_t *u;
	struct uncore_freq_domain d[8];
	char fifo[400];
	node();
	entry("package_00_die_00", 800000, 2200000, 800000, 2500000, -1);
	put_str("-1\n", UF "package_00_die_00/min_freq_khz");
	put_str(" 2200000\n", UF "package_00_die_00/max_freq_khz");
	snprintf(fifo, sizeof(fifo), "%s" UF "package_00_die_00/current_freq_khz", root);
	CU_ASSERT_FATAL(mkfifo(fifo, 0600) == 0);
	entry("package_01_die_01", 2000000, 1200000, 800000, 12800000, 1900000); /* min > max; 12.8 GHz */
	entry("package_-1_die_00", 800000, 2200000, 800000, 2500000, 1900000);
	entry("package_01_die_+1", 800000, 2200000, 800000, 2500000, 1900000);
	uc_clear_warnings();
	CU_ASSERT_FATAL(uncore_open_topology("direct", &u) == 0);
	int n = uncore_freq_domains(u, d, 8);
	const char *w = uc_warnings();
	fprintf(stderr, "%d domains; warnings:\n%s\n", n, w);
	CU_ASSERT_FATAL(n == 2);
	CU_ASSERT(!strcmp(d[0].name, "package_00_die_00") && d[0].socket == 0 && isnan(d[0].min_hz) && isnan(d[0].max_hz) &&
		  d[0].initial_min_hz == 0.8e9 && d[0].initial_max_hz == 2.5e9 && isnan(d[0].current_hz));
	CU_ASSERT(!strcmp(d[1].name, "package_01_die_01") && d[1].socket == 1 && isnan(d[1].min_hz) && isnan(d[1].max_hz) &&
		  isnan(d[1].initial_max_hz) && d[1].current_hz == 1.9e9);
	CU_ASSERT(strstr(w, "package_00_die_00/min_freq_khz: '-1' is not a number") != NULL);
	CU_ASSERT(strstr(w, "package_00_die_00/max_freq_khz: ' 2200000' is not a number") != NULL);
	CU_ASSERT(strstr(w, "package_00_die_00/current_freq_khz: it is a FIFO") != NULL);
	CU_ASSERT(strstr(w, "package_01_die_01/initial_max_freq_khz: '12800000' is not a number from 0 to 12700000") != NULL);
	CU_ASSERT(strstr(w, "package_01_die_01: min_freq_khz 2000000 is above max_freq_khz 1200000") != NULL);
	CU_ASSERT(strstr(w, "package_-1_die_00: not an entry name") != NULL);
	CU_ASSERT(strstr(w, "package_01_die_+1: not an entry name") != NULL);
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "per-die files: a die each, 6.12's die ids, current root's alone", test_per_die },
		{ "TPMI: uncoreNN with their ids, the package roots left out", test_tpmi },
		{ "no driver: said", test_none },
		{ "signs, blanks, out-of-range values, min > max, bad names and a FIFO refused, named", test_hostile },
		{ NULL, NULL },
	};
	return run_in_fake_tree("ufreq files", tests);
}
