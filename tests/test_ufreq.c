/*
 * The uncore clock's limits (uncore_freq_domains, issue 68): on every simulated platform and both backends the
 * library reads what the simulated kernel shows -- the per-die files up to Emerald Rapids, the TPMI form's
 * uncoreNN entries (package, domain and fabric cluster ids, the package roots left out) on Granite Rapids,
 * Sierra Forest and Clearwater Forest -- equal to the simulator's configured truth, a profile's limits and the
 * faults' too; without the driver, MSR 0x620/0x621 on the register backend, its encodings held against
 * tests/reference/linux_regs.txt (rows tagged ufreq, from Linux's uncore-frequency.c); and a part without
 * limits says so.
 */
#include <math.h>
#include <string.h>
#include "sim_helpers.h"
#include "ufreq/ufreq.h"

#define MAXD 64

struct part {
	const char *name;
	int tpmi;       /* 1: the TPMI form; 0 the per-die files; -1 none */
};
static const struct part parts[] = {
	{ "snbep", -1 }, { "ivbep", -1 }, { "hsx", -1 }, { "bdx", 0 }, { "bdxde", 0 }, { "skx", 0 }, { "clx", 0 },
	{ "icx", 0 },    { "spr", 0 },    { "emr", 0 },  { "gnr", 1 }, { "srf", 1 },   { "cwf", 1 }, { "nhm", -1 },
	{ "dmr", -1 },
};

/* Every domain of spec against the simulator's truth; how many (-1: none could be read). */
static int domains_match(const char *spec, int tpmi, int sources_msr)
{
	uncore_t *u = open_sim(spec);
	struct uncore_freq_domain d[MAXD];
	double lo, hi, cur;
	int n = u ? uncore_freq_domains(u, d, MAXD) : -1, ok = n > 0;
	if (!u)
		return -1;
	sim_ufreq_truth(sim_of(u->acc), &lo, &hi, &cur);
	const struct sim *s = sim_of(u->acc);
	CU_ASSERT(n < 0 || n == s->nsockets * s->dies);
	for (int i = 0; i < n && i < MAXD; i++) {
		int one = d[i].min_hz == lo && d[i].max_hz == hi && d[i].current_hz == cur;
		if (sources_msr)
			one &= !strcmp(d[i].source, "MSR 0x620/0x621") && isnan(d[i].initial_min_hz) && d[i].die >= 0;
		else
			one &= d[i].initial_min_hz == lo && d[i].initial_max_hz == hi;
		if (tpmi == 1) { /* uncoreNN in probe order: package by package, a domain a die */
			char name[24];
			snprintf(name, sizeof(name), "uncore%02d", i);
			one &= !strcmp(d[i].name, name) && d[i].socket == i / s->dies && d[i].domain == i % s->dies &&
			       d[i].cluster == 0 && d[i].die == -1 && !strcmp(d[i].source, "intel_uncore_frequency (TPMI)");
		} else if (!sources_msr) {
			char name[24];
			snprintf(name, sizeof(name), "package_%02d_die_%02ld", i / s->dies, sim_cpu_die_id(s, i * s->cores));
			one &= !strcmp(d[i].name, name) && d[i].socket == i / s->dies && d[i].die == i % s->dies &&
			       d[i].domain == -1 && !strcmp(d[i].source, "intel_uncore_frequency");
		}
		if (!one)
			fprintf(stderr, "%s: domain %d %s socket %d die %d domain %d cluster %d: %g-%g (initial %g-%g) current %g "
				"Hz from %s; truth %g-%g, %g\n", spec, i, d[i].name, d[i].socket, d[i].die, d[i].domain,
				d[i].cluster, d[i].min_hz, d[i].max_hz, d[i].initial_min_hz, d[i].initial_max_hz, d[i].current_hz,
				d[i].source, lo, hi, cur);
		ok &= one;
	}
	if (n < 0)
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
	uncore_close(u);
	return ok ? n : -1;
}

/* Each part's limits on both backends: the simulator's default truth (the part's floor, the counted clock as
 * the ceiling), equal to what the files say; none on a part without them, saying why. */
static void test_parts(void)
{
	const char *be[] = { "sim", "perf+sim" };
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		for (int b = 0; b < 2; b++) {
			char spec[96];
			snprintf(spec, sizeof(spec), "%s:%s,sockets=2", be[b], parts[i].name);
			if (parts[i].tpmi >= 0) {
				CU_ASSERT(domains_match(spec, parts[i].tpmi, 0) == 2);
				continue;
			}
			uncore_t *u = open_sim(spec);
			CU_ASSERT(uncore_freq_domains(u, NULL, 0) < 0 && strstr(uncore_error(), "no uncore clock limits"));
			uncore_close(u);
		}
	/* the defaults: SKX's floor from Linux's commit adding the driver (1.2 GHz), the profile's 2.7 GHz clock */
	uncore_t *u = open_sim("sim:skx");
	struct uncore_freq_domain d[MAXD];
	CU_ASSERT(uncore_freq_domains(u, d, MAXD) == 2 && d[0].min_hz == 1.2e9 && d[0].max_hz == 2.7e9 && d[0].current_hz == 2.7e9);
	uncore_close(u);
}

/* A profile's limits, several dies a package (a TPMI part of two dies has no package root; a per-die part names
 * its dies by topology_die_id), and the faults' limits, on both backends. */
static void test_profile_and_faults(void)
{
	const char *path = "test_ufreq_profile.txt";
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "uncore_min_clock_hz = 1100000000\nuncore_max_clock_hz = 2900000000\n");
	fclose(f);
	const char *be[] = { "sim", "perf+sim" };
	for (int b = 0; b < 2; b++) {
		char spec[160];
		snprintf(spec, sizeof(spec), "%s:icx,profile=%s", be[b], path);
		uncore_t *u = open_sim(spec);
		struct uncore_freq_domain d[MAXD];
		CU_ASSERT(uncore_freq_domains(u, d, MAXD) == 2 && d[1].min_hz == 1.1e9 && d[1].max_hz == 2.9e9 &&
			  d[1].current_hz == 2.7e9);
		uncore_close(u);
		static const struct { const char *fmt; int tpmi, n; } cases[] = {
			{ "%s:gnr,dies=2", 1, 4 }, { "%s:spr,dies=2", 0, 4 }, { "%s:gnr,fault=pinned:uclk=700", 1, 2 },
			{ "%s:skx,fault=pinned:uclk", 0, 2 },
		};
		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			snprintf(spec, sizeof(spec), cases[i].fmt, be[b]);
			CU_ASSERT(domains_match(spec, cases[i].tpmi, 0) == cases[i].n);
		}
		u = open_sim(spec); /* the pinned SKX's values: 500 MHz all */
		CU_ASSERT(uncore_freq_domains(u, d, MAXD) == 2 && d[0].min_hz == 500e6 && d[0].max_hz == 500e6 &&
			  d[0].initial_max_hz == 500e6 && d[0].current_hz == 500e6);
		CU_ASSERT(sim_of(u->acc)->prof.uncore_hz == 500e6); /* the counted clock stays at the floor */
		uncore_close(u);
		snprintf(spec, sizeof(spec), "%s:spr,fault=overlimit:uclk", be[b]);
		u = open_sim(spec);
		CU_ASSERT(uncore_freq_domains(u, d, MAXD) == 2 && d[0].max_hz == 2.5e9 && d[0].current_hz == 2.7e9);
		uncore_close(u);
	}
	remove(path);
	/* what the simulator refuses */
	uncore_t *u = NULL;
	CU_ASSERT(uncore_open("sim:hsx,fault=pinned:uclk", &u) && strstr(uncore_error(), "no uncore clock limits"));
	CU_ASSERT(uncore_open("sim:skx,fault=pinned:uclk=750", &u) && strstr(uncore_error(), "multiple of 100"));
	CU_ASSERT(uncore_open("sim:gnr,ufreq=msr", &u) && strstr(uncore_error(), "TPMI"));
}

/* A row of linux_regs.txt tagged ufreq: its value (-1: none) */
static long row(const char *key)
{
	char line[512], tag[16], unit[16], k[48], v[64];
	long val = -1;
	FILE *f = fopen(REFDIR "/linux_regs.txt", "r");
	CU_ASSERT_FATAL(f != NULL);
	while (val < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%15s %15s %47s %63s", tag, unit, k, v) == 4 && !strcmp(tag, "ufreq") && !strcmp(k, key))
			val = strtol(v, NULL, 0);
	fclose(f);
	if (val < 0)
		fprintf(stderr, "linux_regs.txt: no ufreq row %s\n", key);
	return val;
}

/* Without the driver (ufreq=msr) the register backend reads MSR 0x620/0x621 as Linux's uncore-frequency.c
 * does; the library's constants are Linux's, and the raw registers decode to the simulator's truth.  The perf
 * backend reads no MSR: it says so. */
static void test_msr(void)
{
	CU_ASSERT(row("ratio_limit_msr") == UFREQ_MSR_LIMIT);
	CU_ASSERT(row("perf_status_msr") == UFREQ_MSR_STATUS);
	CU_ASSERT(row("max_ratio_mask") == (long)UFREQ_RATIO_MASK << UFREQ_MAX_SHIFT);
	CU_ASSERT(row("min_ratio_mask") == (long)UFREQ_RATIO_MASK << UFREQ_MIN_SHIFT);
	CU_ASSERT(row("current_ratio_mask") == (long)UFREQ_RATIO_MASK << UFREQ_CUR_SHIFT);
	CU_ASSERT(row("khz_multiplier") * 1e3 == UFREQ_RATIO_HZ);
	const char *msr_parts[] = { "bdx", "bdxde", "skx", "clx", "icx", "spr", "emr" };
	for (size_t i = 0; i < sizeof(msr_parts) / sizeof(msr_parts[0]); i++) {
		char spec[96];
		snprintf(spec, sizeof(spec), "sim:%s,ufreq=msr,fault=overlimit:uclk", msr_parts[i]);
		CU_ASSERT(domains_match(spec, 0, 1) >= 1);
		uncore_t *u = open_sim(spec);
		struct access *a = u->acc;
		uint64_t lim = 0, cur = 0;
		double lo, hi, now;
		sim_ufreq_truth(sim_of(a), &lo, &hi, &now);
		CU_ASSERT(!a->ops->msr_read(a, 0, (uint32_t)row("ratio_limit_msr"), &lim) &&
			  !a->ops->msr_read(a, 0, (uint32_t)row("perf_status_msr"), &cur));
		/* the fields as Linux takes them: FIELD_GET(mask) x UNCORE_FREQ_KHZ_MULTIPLIER kHz */
		long kmul = row("khz_multiplier"), mx = row("max_ratio_mask"), mn = row("min_ratio_mask"), cm = row("current_ratio_mask");
		CU_ASSERT((double)((lim & (uint64_t)mx) >> __builtin_ctzl((unsigned long)mx)) * (double)kmul * 1e3 == hi);
		CU_ASSERT((double)((lim & (uint64_t)mn) >> __builtin_ctzl((unsigned long)mn)) * (double)kmul * 1e3 == lo);
		CU_ASSERT((double)((cur & (uint64_t)cm) >> __builtin_ctzl((unsigned long)cm)) * (double)kmul * 1e3 == now);
		uncore_close(u);
		snprintf(spec, sizeof(spec), "perf+sim:%s,ufreq=msr", msr_parts[i]);
		u = open_sim(spec);
		CU_ASSERT(uncore_freq_domains(u, NULL, 0) < 0 && strstr(uncore_error(), "perf backend reads no MSR"));
		uncore_close(u);
	}
	uncore_t *u = open_sim("sim:skx,ufreq=off");
	CU_ASSERT(uncore_freq_domains(u, NULL, 0) < 0 && strstr(uncore_error(), "MSR 0x620 cannot be read"));
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "each part's limits equal the simulator's, per die or TPMI cluster, on both backends", test_parts },
		{ "a profile's limits, two dies a package, and the faults' limits", test_profile_and_faults },
		{ "MSR 0x620/0x621 read as Linux's uncore-frequency.c reads them", test_msr },
		{ NULL, NULL },
	};
	return run_suite("ufreq", tests);
}
