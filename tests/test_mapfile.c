/*
 * Detection by Intel's perfmon mapfile (issue 33 point 2).  The truth is eventtables/mapfile.csv read
 * here with POSIX regular expressions, as perf matches its first column, and platforms/perfmon_dirs.txt
 * (which perfmon directory is which of our platforms): every family-model-stepping must get the row and
 * platform they say.  Then the simulator and sysroot trees with CPUs of each kind the mapfile has
 * (stepping ranges, a platform not built in, an unknown Intel model, a non-Intel CPU), and the generic
 * platform's events named after the nearest platform, checked against Intel's JSON.
 */
#include <regex.h>
#include <string.h>
#include "fake_tree.h"
#include "sim_helpers.h"
#include "eventtables.h"
#include "access/access.h"

struct truth_row {
	regex_t re;
	char dir[32];
};
static struct truth_row truth[1024];
static int ntruth;

/* The mapfile's rows as perf reads them: the first column a regular expression over
 * "GenuineIntel-FAMILY-MODEL-STEPPING"; one without a stepping matches any stepping. */
static void load_truth(void)
{
	char line[512];
	FILE *f = fopen(SRCDIR "/eventtables/mapfile.csv", "r");
	CU_ASSERT_FATAL(f != NULL);
	ntruth = 0;
	while (fgets(line, sizeof(line), f) && ntruth < 1024) {
		char id[96], dir[32], pat[128];
		if (sscanf(line, "%95[^,],%*[^,],/%31[^/]/", id, dir) != 2 || strncmp(id, "GenuineIntel-", 13))
			continue;
		int dashes = 0;
		for (const char *c = id; *c; c++)
			dashes += *c == '-';
		snprintf(pat, sizeof(pat), "^%s%s$", id, dashes == 2 ? "-[0-9A-F]+" : "");
		CU_ASSERT_FATAL(regcomp(&truth[ntruth].re, pat, REG_EXTENDED | REG_NOSUB) == 0);
		snprintf(truth[ntruth++].dir, sizeof(truth[0].dir), "%s", dir);
	}
	fclose(f);
	CU_ASSERT(ntruth > 200);
}

static const char *truth_dir(int family, int model, int stepping)
{
	char id[64];
	snprintf(id, sizeof(id), "GenuineIntel-%d-%X-%X", family, (unsigned)model, (unsigned)stepping);
	for (int i = 0; i < ntruth; i++)
		if (!regexec(&truth[i].re, id, 0, NULL, 0))
			return truth[i].dir;
	return NULL;
}

/* Our platform for a perfmon directory, from platforms/perfmon_dirs.txt ("" none). */
static const char *dir_platform(const char *dir)
{
	static char plat[64];
	char line[256], d[64];
	FILE *f = fopen(SRCDIR "/platforms/perfmon_dirs.txt", "r");
	CU_ASSERT_FATAL(f != NULL);
	plat[0] = 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "dir %63s %63s", d, plat) == 2 && !strcmp(d, dir))
			break;
		else
			plat[0] = 0;
	fclose(f);
	return plat;
}

/* Every stepping of every model of the families the mapfile has: the row and the platform agree. */
static void test_every_cpu_id(void)
{
	static const int families[] = { 6, 18, 19 };
	int checked = 0, bad = 0, matched = 0;
	load_truth();
	for (size_t fi = 0; fi < sizeof(families) / sizeof(families[0]); fi++)
		for (int model = 0; model < 256; model++)
			for (int step = 0; step < 16; step++) {
				const char *dir = truth_dir(families[fi], model, step);
				const struct uc_mapfile_row *row = mapfile_row(families[fi], model, step);
				const struct platform_desc *p = platform_by_cpu(families[fi], model, step);
				const struct platform_desc *want = dir ? platform_by_name(dir_platform(dir)) : NULL;
				/* Diamond Rapids (19-1, any stepping): no mapfile row (Intel has no DMR directory yet), so the
				 * dmr descriptor's family and model name it */
				if (!dir && families[fi] == 19 && model == 1)
					want = platform_by_name("dmr");
				checked++;
				matched += dir != NULL;
				if ((dir == NULL) != (row == NULL) || (dir && strcmp(dir, row->dir)) || p != want) {
					fprintf(stderr, "%d-%X-%X: mapfile %s, ours %s, platform %s (want %s)\n", families[fi],
						(unsigned)model, (unsigned)step, dir ? dir : "-", row ? row->dir : "-",
						p ? p->name : "-", want ? want->name : "-");
					bad++;
				}
			}
	printf("\n%d CPU ids checked, %d in the mapfile, %d differences\n", checked, matched, bad);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(matched > 600);
	for (int i = 0; i < ntruth; i++)
		regfree(&truth[i].re);
}

/* The simulator reporting each kind of CPU id: the platform, the line 'uncore info' prints, and for
 * the generic platform whose events it names. */
static void test_sim_cpus(void)
{
	static const struct {
		const char *spec, *platform, *match, *caveat;
	} cases[] = {
		{ "sim:emr", "emr", "cpu GenuineIntel-6-CF-2: mapfile row EMR (emeraldrapids_uncore.json V1.24): platform emr", NULL },
		{ "sim:snbep", "snbep", "cpu GenuineIntel-6-2D-7: mapfile row JKT (Jaketown_uncore.json V24): platform snbep", NULL },
		{ "sim:ivbep", "ivbep", "cpu GenuineIntel-6-3E-4: mapfile row IVT (ivytown_uncore.json V24): platform ivbep", NULL },
		{ "sim:hsx", "hsx", "cpu GenuineIntel-6-3F-2: mapfile row HSX (haswellx_uncore.json V29): platform hsx", NULL },
		{ "sim:bdx", "bdx", "cpu GenuineIntel-6-4F-1: mapfile row BDX (broadwellx_uncore.json V23): platform bdx", NULL },
		{ "sim:bdxde", "bdxde", "cpu GenuineIntel-6-56-3: mapfile row BDW-DE (broadwellde_uncore.json V12): platform bdxde", NULL },
		{ "sim:nhm", "nhm", "cpu GenuineIntel-6-1A-5: mapfile row NHM-EP (NehalemEP_core.json V4): platform nhm", NULL },
		/* 0x1F: Nehalem-EP by the mapfile, though not in the platform's own model list */
		{ "sim:nhm,cpu=6-1F-2", "nhm", "cpu GenuineIntel-6-1F-2: mapfile row NHM-EP (NehalemEP_core.json V4): platform nhm", NULL },
		/* Skylake-SP and Cascade Lake share model 0x55, told apart by stepping */
		{ "sim:skx", "skx", "cpu GenuineIntel-6-55-4: mapfile row SKX (skylakex_uncore.json V1.37): platform skx", NULL },
		{ "sim:skx,cpu=6-55-0", "skx", "cpu GenuineIntel-6-55-0: mapfile row SKX (skylakex_uncore.json V1.37): platform skx", NULL },
		{ "sim:clx", "clx", "cpu GenuineIntel-6-55-7: mapfile row CLX (cascadelakex_uncore.json V1.25): platform clx", NULL },
		{ "sim:skx,cpu=6-55-5", "clx", "cpu GenuineIntel-6-55-5: mapfile row CLX (cascadelakex_uncore.json V1.25): platform clx", NULL },
		/* Cooper Lake: the mapfile gives it the CLX files */
		{ "sim:clx,cpu=6-55-B", "clx", "cpu GenuineIntel-6-55-B: mapfile row CLX (cascadelakex_uncore.json V1.25): platform clx", NULL },
		{ "sim:icx", "icx", "cpu GenuineIntel-6-6A-6: mapfile row ICX (icelakex_uncore.json V1.30): platform icx", NULL },
		/* Ice Lake-D: the ICX files and Linux's icx_uncore_init */
		{ "sim:icx,cpu=6-6C-1", "icx", "cpu GenuineIntel-6-6C-1: mapfile row ICX (icelakex_uncore.json V1.30): platform icx", NULL },
		{ "sim:emr,cpu=6-8F-8", NULL, "cpu GenuineIntel-6-8F-8: mapfile row SPR (sapphirerapids_uncore.json V1.39): platform spr", "events of spr" },
		{ "sim:emr,cpu=6-AD-1", NULL, "cpu GenuineIntel-6-AD-1: mapfile row GNR (graniterapids_uncore.json V1.20): platform gnr", "events of gnr" },
		{ "sim:emr,cpu=6-AE-1", NULL, "cpu GenuineIntel-6-AE-1: mapfile row GNR (graniterapids_uncore.json V1.20): platform gnr", "events of gnr" },
		{ "sim:emr,cpu=6-AF-3", NULL, "cpu GenuineIntel-6-AF-3: mapfile row SRF (sierraforest_uncore.json V1.18): platform srf", "events of srf" },
		{ "sim:emr,cpu=6-DD-0", NULL, "cpu GenuineIntel-6-DD-0: mapfile row CWF (clearwaterforest_uncore.json V1.04): platform cwf", "events of cwf" },
		/* an Intel model the mapfile does not know */
		{ "sim:generic", "generic", "cpu GenuineIntel-6-EE-0: not in the perfmon mapfile: no platform of ours", "events of gnr, the newest built-in server P-core platform with discovery tables (the CPU is not in the mapfile)" },
	};
	static const char *const bad[] = { "sim:emr,cpu=6-55", "sim:emr,cpu=6-55-10", "sim:emr,cpu=6-155-1",
					   "sim:emr,cpu=0-55-1", "sim:emr,cpu=6-55-1x" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uncore_t *u;
		CU_ASSERT(uncore_open(bad[i], &u) < 0);
		CU_ASSERT(strstr(uncore_error(), "bad simulator option 'cpu=") != NULL);
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uncore_t *u = open_sim(cases[i].spec);
		const char *caveat = uncore_platform_caveat(u);
		/* a platform G or H builds later is used once it is built in; until then, generic */
		const char *want = cases[i].platform ? cases[i].platform
				   : platform_by_name(cases[i].caveat + 10) ? cases[i].caveat + 10 : "generic";
		if (strncmp(uncore_cpu_match(u), cases[i].match, strlen(cases[i].match)) ||
		    strcmp(uncore_platform_name(u), want))
			fprintf(stderr, "%s: '%s', platform %s\n", cases[i].spec, uncore_cpu_match(u), uncore_platform_name(u));
		CU_ASSERT(!strncmp(uncore_cpu_match(u), cases[i].match, strlen(cases[i].match)));
		CU_ASSERT_STRING_EQUAL(uncore_platform_name(u), want);
		if (!strcmp(want, "generic")) {
			CU_ASSERT(caveat && strstr(caveat, cases[i].caveat));
			CU_ASSERT(uncore_num_events(u) > 400); /* GNR's CHA and IMC events on sim:emr's or sim:generic's units */
		}
		uncore_close(u);
	}
}

struct named { uncore_t *u; int found, bad; };

/* One GNR event against the generic platform's: the same code, umask and extension, on the type SPR/EMR
 * number that unit with (CHA is discovery type 0, IMC 6, UPI 8 on SPR, EMR and GNR: uncore_snbep.c
 * gnr_uncores). */
static void gnr_event(const struct json_event *j, void *ctx)
{
	struct named *c = ctx;
	int k = uncore_event_find(c->u, j->name);
	if (k < 0)
		return;
	c->found++;
	const struct uc_event *e = &c->u->events[k];
	const char *type = !strcmp(j->unit, "CHA") ? "type0" : !strcmp(j->unit, "IMC") ? "type6"
			   : !strcmp(j->unit, "UPI LL") ? "type8" : NULL;
	if (e->code != j->code || e->umask != j->umask || e->umext != j->ext || (type && strcmp(e->unit, type))) {
		fprintf(stderr, "%s: %s 0x%x/0x%x/0x%x, JSON %s 0x%x/0x%x/0x%lx\n", j->name, e->unit, e->code, e->umask,
			e->umext, j->unit, j->code, j->umask, j->ext);
		c->bad++;
	}
}

/* The generic platform on a discovery CPU the mapfile does not list names the newest server P-core
 * platform's events, Granite Rapids': each is Intel's event of that name (code, umask, umask extension), on
 * the type SPR/EMR number that unit with. */
static void test_generic_events_are_intels(void)
{
	static const char *const files[] = { "GNR/events/graniterapids_uncore.json",
					     "GNR/events/graniterapids_uncore_experimental.json" };
	uncore_t *u = open_sim("sim:emr,cpu=6-EE-0");
	CU_ASSERT_STRING_EQUAL_FATAL(uncore_platform_name(u), "generic");
	struct named c = { u, 0, 0 };
	each_json_event(files, 2, gnr_event, &c);
	int found = c.found, bad = c.bad;
	printf("\ngeneric on GNR: %d of Intel's events named, %d differences\n", found, bad);
	CU_ASSERT(found > 500);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT(uncore_event_find(u, "UNC_M_CAS_COUNT_SCH0.RD") >= 0); /* GNR's, not EMR's */
	CU_ASSERT(uncore_event_find(u, "UNC_M_CAS_COUNT.RD") < 0);
	uncore_close(u);
}

/* /proc/cpuinfo of a sysroot: the CPU id read from it (stepping included) and its match. */
static void test_sysroot_cpuinfo(void)
{
	static const struct {
		const char *vendor;
		int family, model, stepping;
		const char *match;
	} cases[] = {
		{ "GenuineIntel", 6, 0x55, 4, "cpu GenuineIntel-6-55-4: mapfile row SKX (skylakex_uncore.json V1.37): platform skx" },
		{ "GenuineIntel", 6, 0x55, 7, "cpu GenuineIntel-6-55-7: mapfile row CLX (cascadelakex_uncore.json V1.25): platform clx" },
		{ "GenuineIntel", 6, 0xcf, 2, "cpu GenuineIntel-6-CF-2: mapfile row EMR (emeraldrapids_uncore.json V1.24): platform emr" },
		{ "GenuineIntel", 6, 0x2d, 6, "cpu GenuineIntel-6-2D-6: mapfile row JKT (Jaketown_uncore.json V24): platform snbep" },
		{ "GenuineIntel", 6, 0x3f, 4, "cpu GenuineIntel-6-3F-4: mapfile row HSX (haswellx_uncore.json V29): platform hsx" },
		{ "GenuineIntel", 6, 0x4f, 1, "cpu GenuineIntel-6-4F-1: mapfile row BDX (broadwellx_uncore.json V23): platform bdx" },
		{ "GenuineIntel", 6, 0x1e, 5, "cpu GenuineIntel-6-1E-5: mapfile row NHM-EP (NehalemEP_core.json V4): platform nhm" },
		{ "GenuineIntel", 6, 0xee, 0, "cpu GenuineIntel-6-EE-0: not in the perfmon mapfile: no platform of ours" },
		{ "GenuineIntel", 32, 0, 0, "cpu GenuineIntel-32-0-0: not in the perfmon mapfile: platform montecito" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char info[512], match[256];
		struct host_info h;
		snprintf(info, sizeof(info), "processor\t: 0\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\n"
			 "stepping\t: %d\nflags\t\t: fpu msr\n\n", cases[i].vendor, cases[i].family, cases[i].model,
			 cases[i].stepping);
		put_str(info, "/proc/cpuinfo");
		put_str("0\n", "/sys/devices/system/cpu/cpu0/topology/physical_package_id");
		CU_ASSERT_FATAL(host_from_sysfs(&h) == 0);
		platform_cpu_match(h.vendor, h.family, h.model, h.stepping, match, sizeof(match));
		if (strcmp(match, cases[i].match))
			fprintf(stderr, "'%s', want '%s'\n", match, cases[i].match);
		CU_ASSERT_STRING_EQUAL(match, cases[i].match);
	}
	/* a Snow Ridge (no platform of ours, no discovery tables): refused, the message giving the match */
	uncore_t *u;
	put_str("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 134\nstepping\t: 7\n\n",
		"/proc/cpuinfo");
	sparse("/dev/cpu/0/msr", 0x4000);
	CU_ASSERT(uncore_open("direct", &u) < 0);
	if (!strstr(uncore_error(), "cpu GenuineIntel-6-86-7: mapfile row SNR"))
		fprintf(stderr, "%s\n", uncore_error());
	CU_ASSERT(strstr(uncore_error(), "cpu GenuineIntel-6-86-7: mapfile row SNR") != NULL);
	/* not Intel: refused at open, whatever the mapfile holds */
	put_str("processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nstepping\t: 1\n\n",
		"/proc/cpuinfo");
	CU_ASSERT(uncore_open("direct", &u) < 0);
	CU_ASSERT(strstr(uncore_error(), "AuthenticAMD family 25 model 1") != NULL);
}

/* The numbers of /proc/cpuinfo (a snapshot's is anyone's): each within what CPUID leaf 1 can give (Intel SDM
 * vol. 2A: family at most 0xf + 0xff = 270, model 0xff, stepping 0xf), else refused naming the line; never
 * wrapped (atoi read 99999999999999999999 as -1). */
static void test_cpuinfo_numbers(void)
{
	static const struct {
		const char *family, *model, *stepping, *brand;
		const char *error;         /* NULL: read */
		int f, m, st;
		double hz;
	} cases[] = {
		{ "99999999999999999999", "45", "7", "@ 2.70GHz", "'cpu family' is '99999999999999999999': not a number from 0 to 270", 0, 0, 0, 0 },
		{ "6", "99999999999999999999", "7", "@ 2.70GHz", "'model' is '99999999999999999999': not a number from 0 to 255", 0, 0, 0, 0 },
		{ "6", "45", "4294967303", "@ 2.70GHz", "'stepping' is '4294967303': not a number from 0 to 15", 0, 0, 0, 0 },
		{ "271", "45", "7", "@ 2.70GHz", "'cpu family' is '271': not a number from 0 to 270", 0, 0, 0, 0 },
		{ "6", "256", "7", "@ 2.70GHz", "'model' is '256': not a number from 0 to 255", 0, 0, 0, 0 },
		{ "6", "-1", "7", "@ 2.70GHz", "'model' is '-1': not a number", 0, 0, 0, 0 },
		{ "6", "45", "16", "@ 2.70GHz", "'stepping' is '16': not a number from 0 to 15", 0, 0, 0, 0 },
		{ "6x", "45", "7", "@ 2.70GHz", "'cpu family' is '6x': not a number", 0, 0, 0, 0 },
		{ "", "45", "7", "@ 2.70GHz", "'cpu family' is '': not a number", 0, 0, 0, 0 },
		{ "270", "255", "15", "@ 2.70GHz", NULL, 270, 255, 15, 2.7e9 },
		{ "6", "45", "unknown", "@ 1e999GHz", NULL, 6, 45, 0, 0 }, /* Linux's stepping where CPUID gave none */
		{ "6", "45", "7", "@ -2.0GHz", NULL, 6, 45, 7, 0 },
		{ "6", "45", "7", "@ nanGHz", NULL, 6, 45, 7, 0 },
	};
	put_str("0\n", "/sys/devices/system/cpu/cpu0/topology/physical_package_id");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char info[512];
		struct host_info h;
		snprintf(info, sizeof(info), "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: %s\nmodel\t\t: %s\n"
			 "model name\t: Intel(R) Xeon(R) CPU %s\nstepping\t: %s\nflags\t\t: fpu msr\n\n", cases[i].family,
			 cases[i].model, cases[i].brand, cases[i].stepping);
		put_str(info, "/proc/cpuinfo");
		int rc = host_from_sysfs(&h);
		if (cases[i].error) {
			if (rc == 0 || !strstr(uncore_error(), cases[i].error))
				fprintf(stderr, "case %zu: rc %d, family %d model %d stepping %d: '%s', want '%s'\n", i, rc, h.family,
					h.model, h.stepping, rc ? uncore_error() : "", cases[i].error);
			CU_ASSERT(rc < 0 && strstr(uncore_error(), cases[i].error) != NULL);
			CU_ASSERT(strstr(uncore_error(), "/proc/cpuinfo") != NULL);
			continue;
		}
		CU_ASSERT_FATAL(rc == 0);
		CU_ASSERT_EQUAL(h.family, cases[i].f);
		CU_ASSERT_EQUAL(h.model, cases[i].m);
		CU_ASSERT_EQUAL(h.stepping, cases[i].st);
		CU_ASSERT_DOUBLE_EQUAL(h.tsc_hz, cases[i].hz, 1);
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "every CPU id gets the mapfile's row and platform", test_every_cpu_id },
		{ "simulated CPUs: platform, 'uncore info' match, generic's events", test_sim_cpus },
		{ "generic on a Granite Rapids id names Intel's Granite Rapids events", test_generic_events_are_intels },
		{ "sysroot /proc/cpuinfo: the CPU id and its match", test_sysroot_cpuinfo },
		{ "sysroot /proc/cpuinfo: a number out of CPUID's range refused, never wrapped", test_cpuinfo_numbers },
		{ NULL, NULL },
	};
	return run_in_fake_tree("mapfile", tests);
}
