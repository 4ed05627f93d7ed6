/*
 * perf's event names counted (issue 32 point 5): uncore_imc/cas_count_read/ and its kin count the
 * simulator's truth on sim:<p> and perf+sim:<p>, with the alias's .scale and .unit (from the kernel's
 * events/ files on the perf backend, from the platform's table elsewhere); a numbered PMU counts its box
 * only, in an event list and in a metric formula.
 */
#include <math.h>
#include "sim_helpers.h"
#include "events/perf_spell.h"


/* Count the specs over 2 s of the simulator's manual clock; values per socket in v[spec][socket]. */
static uncore_t *count(const char *backend, const char *const *specs, int n, double v[][UC_MAX_SOCKETS],
		       double *secs)
{
	uncore_t *u = open_sim(backend);
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	for (int i = 0; i < n; i++) {
		int ev = uncore_session_add(s, specs[i]);
		if (ev < 0)
			fprintf(stderr, "%s %s: %s\n", backend, specs[i], uncore_error());
		CU_ASSERT_FATAL(ev == i);
	}
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 2000000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	*secs = (double)uncore_session_elapsed_ns(s) / 1e9;
	for (int i = 0; i < n; i++)
		for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
			const char *unit;
			double scale = uncore_session_event_scale(s, i, &unit);
			v[i][sock] = (double)val(s, i, sock) * scale;
		}
	uncore_session_free(s);
	return u;
}

/* cas_count_read and _write in MiB are the profile's bytes / 64 x 64 / 2^20; uncore_imc_0 is channel 0's
 * share (the simulator spreads traffic evenly over the channels); the fixed clockticks and a raw CBo
 * clock on one box are the DRAM and uncore clocks. */
static void test_imc_aliases_count_truth(void)
{
	static const char *const backends[] = { "sim:snbep,clock=manual", "perf+sim:snbep,clock=manual",
						"sim:ivbep,clock=manual", "perf+sim:ivbep,clock=manual" };
	static const char *const specs[] = { "uncore_imc/cas_count_read/", "imc/cas_count_write/",
					     "uncore_imc_0/cas_count_read/", "uncore_imc_1/clockticks/",
					     "uncore_cbox_0/event=0x0/" };
	for (size_t b = 0; b < sizeof(backends) / sizeof(backends[0]); b++) {
		double v[5][UC_MAX_SOCKETS], secs;
		char what[160];
		uncore_t *u = count(backends[b], specs, 5, v, &secs);
		const struct sim *sim = sim_of(u->acc);
		const struct sim_profile *p = &sim->prof;
		for (int s = 0; s < uncore_num_sockets(u); s++) {
			double mib = secs / (1 << 20);
			snprintf(what, sizeof(what), "%s socket %d read MiB", backends[b], s);
			near_truth(what, v[0][s], p->mem_read_bps[s] * mib);
			snprintf(what, sizeof(what), "%s socket %d write MiB", backends[b], s);
			near_truth(what, v[1][s], p->mem_write_bps[s] * mib);
			snprintf(what, sizeof(what), "%s socket %d channel 0 read MiB", backends[b], s);
			near_truth(what, v[2][s], p->mem_read_bps[s] * mib / sim->mem_channels[s]);
			snprintf(what, sizeof(what), "%s socket %d channel 1 DRAM clocks", backends[b], s);
			near_truth(what, v[3][s], p->dram_hz * secs);
			snprintf(what, sizeof(what), "%s socket %d CBo 0 uncore clocks", backends[b], s);
			near_truth(what, v[4][s], p->uncore_hz * secs);
		}
		uncore_close(u);
	}
}

/* EMR: the IMC aliases (spr_uncore_imc_events) and the IIO's free-running bandwidth (32-byte counts,
 * .scale 3.0517578125e-5 MiB), a CHA's clock by its PMU name and by uncore_type_0_<id>. */
static void test_emr_names_count_truth(void)
{
	static const char *const backends[] = { "sim:emr,clock=manual", "perf+sim:emr,clock=manual" };
	static const char *const specs[] = { "uncore_imc/cas_count_read/", "uncore_cha_2/event=0x1/",
					     "uncore_type_0_3/event=0x1/", "uncore_iio_free_running/bw_in_port0/" };
	for (size_t b = 0; b < sizeof(backends) / sizeof(backends[0]); b++) {
		double v[4][UC_MAX_SOCKETS], secs;
		char what[160];
		uncore_t *u = count(backends[b], specs, 4, v, &secs);
		const struct sim_profile *p = &sim_of(u->acc)->prof;
		for (int s = 0; s < uncore_num_sockets(u); s++) {
			snprintf(what, sizeof(what), "%s socket %d read MiB", backends[b], s);
			near_truth(what, v[0][s], p->mem_read_bps[s] * secs / (1 << 20));
			snprintf(what, sizeof(what), "%s socket %d CHA 2 clocks", backends[b], s);
			near_truth(what, v[1][s], p->uncore_hz * secs);
			snprintf(what, sizeof(what), "%s socket %d CHA 3 clocks as uncore_type_0_3", backends[b], s);
			near_truth(what, v[2][s], p->uncore_hz * secs);
			CU_ASSERT(v[3][s] > 0); /* port 0's share of the inbound traffic: the profile spreads it */
		}
		uncore_close(u);
	}
}

/* GNR, SRF and CWF: the discovery types Linux 6.12's gnr_uncores[] names none for (3, 7, 9-11, 14, 19) are
 * the generic types type<N>, the kernel's uncore_type_<N>[_<box>]: a raw clock on every box of a type, on one
 * box by its PMU name, on MSR and MMIO units, counts the uncore clock (the simulator's truth) on both backends. */
static void test_unnamed_types_count_truth(void)
{
	static const char *const plats[] = { "gnr", "srf", "cwf" };
	/* per socket: two type3 (MSR) and type7 (MMIO) units, one each of 19, 14 (MMIO) and 9 */
	static const char *const specs[] = { "type3/event=0x1/", "type7/event=0x1/", "uncore_type_19/event=0x1/",
					     "uncore_type_7_1/event=0x1/", "uncore_type_14/event=0x1,umask=0x0/" };
	static const double boxes[] = { 2, 2, 1, 1, 1 };
	for (size_t p = 0; p < 2 * sizeof(plats) / sizeof(plats[0]); p++) {
		double v[5][UC_MAX_SOCKETS], secs;
		char be[64], what[160];
		snprintf(be, sizeof(be), "%ssim:%s,clock=manual", p % 2 ? "perf+" : "", plats[p / 2]);
		uncore_t *u = count(be, specs, 5, v, &secs);
		const struct sim_profile *pr = &sim_of(u->acc)->prof;
		for (int s = 0; s < uncore_num_sockets(u); s++)
			for (int i = 0; i < 5; i++) {
				snprintf(what, sizeof(what), "%s socket %d %s", be, s, specs[i]);
				near_truth(what, v[i][s], boxes[i] * pr->uncore_hz * secs);
			}
		uncore_close(u);
	}
}

/* A metric formula in perf's spelling: uncore_cha_0@event\=0x1@ is one CHA's clockticks (the uncore clock
 * x seconds, 2.7 GHz as a rate), not the sum over every CHA of the socket. */
static void test_numbered_pmu_in_a_metric(void)
{
	static const char *const backends[] = { "sim:emr,clock=manual", "perf+sim:emr,clock=manual",
						"sim:snbep,clock=manual" };
	static const char *const exprs[] = { "uncore_cha_0@event\\\\=0x1@", "uncore_cha_0@event\\\\=0x1@",
					     "uncore_cbox_0@event\\\\=0x0@" };
	for (size_t b = 0; b < sizeof(backends) / sizeof(backends[0]); b++) {
		char path[256], text[300], what[160];
		uncore_t *u = open_sim(backends[b]);
		uncore_session_t *s;
		snprintf(path, sizeof(path), "%s/uncore-perf-names-%d.json", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
			 (int)getpid());
		snprintf(text, sizeof(text), "[{\"MetricName\": \"box0_clock\", \"ScaleUnit\": \"1e-9GHz\", "
			 "\"MetricExpr\": \"%s / duration_time\"}]", exprs[b]);
		FILE *f = fopen(path, "w");
		CU_ASSERT_FATAL(f != NULL);
		fputs(text, f);
		fclose(f);
		int loaded = uncore_load_metrics(u, path);
		unlink(path);
		if (loaded != 1)
			fprintf(stderr, "%s: %s\n", backends[b], uncore_error());
		CU_ASSERT_FATAL(loaded == 1);
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		int m = uncore_session_add_metric(s, "box0_clock");
		CU_ASSERT_FATAL(m >= 0);
		CU_ASSERT_FATAL(uncore_session_start(s) == 0);
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
			double ghz;
			CU_ASSERT(uncore_session_metric_value(s, m, sock, -1, UNCORE_SINCE_START, &ghz) == 0);
			snprintf(what, sizeof(what), "%s socket %d %s GHz", backends[b], sock, exprs[b]);
			near_truth(what, ghz, sim_of(u->acc)->prof.uncore_hz * 1e-9);
			CU_ASSERT_EQUAL(uncore_session_event_boxes(s, 0, sock), 1);
		}
		uncore_session_free(s);
		uncore_close(u);
	}
}

/* The perf backend takes the aliases from the kernel's events/ files: a kernel without a .scale file
 * gives an unscaled count, and one whose alias the platform table lacks still counts. */
static void test_kernel_aliases(void)
{
	uncore_t *u = open_sim("perf+sim:snbep,clock=manual");
	const struct perf_alias *a = u->kernel_aliases;
	int found = 0;
	CU_ASSERT_FATAL(a != NULL);
	for (; a->name; a++)
		if (!strcmp(a->pmu, "imc") && !strcmp(a->name, "cas_count_read")) {
			found = 1;
			CU_ASSERT_EQUAL(a->scale, 6.103515625e-5); /* the simulated kernel's cas_count_read.scale */
			CU_ASSERT_STRING_EQUAL(a->unit, "MiB");
			CU_ASSERT_STRING_EQUAL(a->terms, "event=0x04,umask=0x03");
		}
	CU_ASSERT(found);
	uncore_session_t *s;
	const char *unit = NULL;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT_FATAL(uncore_session_add(s, "uncore_imc_0/cas_count_read/") == 0);
	CU_ASSERT_FATAL(uncore_session_add(s, "UNC_M_CAS_COUNT.RD") == 1);
	CU_ASSERT_EQUAL(uncore_session_event_scale(s, 0, &unit), 6.103515625e-5);
	CU_ASSERT_STRING_EQUAL(unit, "MiB");
	CU_ASSERT_EQUAL(uncore_session_event_scale(s, 1, &unit), 1);
	CU_ASSERT_STRING_EQUAL(unit, "");
	uncore_session_free(s);
	uncore_close(u);
}

/* The platforms' alias tables (the library's, for sim: and direct) and the simulated kernels' events/
 * files (perf+sim:, written apart from the driver's lists) say the same: every alias of either spells the
 * same spec with the same scale and unit through both. */
static void test_alias_tables_match_the_kernels(void)
{
	static const char *const plats[] = { "snbep", "ivbep", "emr", "nhm", "skx", "clx", "icx" };
	for (size_t p = 0; p < sizeof(plats) / sizeof(plats[0]); p++) {
		char be[64];
		snprintf(be, sizeof(be), "sim:%s", plats[p]);
		uncore_t *table = open_sim(be);
		snprintf(be, sizeof(be), "perf+sim:%s", plats[p]);
		uncore_t *kernel = open_sim(be);
		const struct perf_alias *lists[2] = { table->plat->perf_aliases, kernel->kernel_aliases };
		int n[2] = { 0, 0 };
		for (int l = 0; l < 2; l++)
			for (const struct perf_alias *a = lists[l]; a && a->name; a++, n[l]++) {
				char spec[160];
				struct perf_spelled st, sk;
				snprintf(spec, sizeof(spec), "%s%s/%s/", *a->pmu ? "uncore_" : "uncore", a->pmu, a->name);
				int rt = perf_spell(table, spec, &st), rk = perf_spell(kernel, spec, &sk);
				int same = !rt && !rk && !strcmp(st.spec, sk.spec) && st.scale == sk.scale && !strcmp(st.unit, sk.unit);
				if (!same)
					fprintf(stderr, "%s %s: table %d '%s' %g '%s', kernel %d '%s' %g '%s'\n", plats[p], spec, rt,
						st.spec, st.scale, st.unit, rk, sk.spec, sk.scale, sk.unit);
				CU_ASSERT(same);
			}
		CU_ASSERT(n[0] > 0 && n[0] == n[1]);
		uncore_close(table);
		uncore_close(kernel);
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "IMC aliases count the truth in MiB on SNB-EP and IVB-EP, sim and perf+sim", test_imc_aliases_count_truth },
		{ "EMR's PMU names, aliases and free-running counters count the truth", test_emr_names_count_truth },
		{ "GNR, SRF and CWF's unnamed discovery types count the truth as type<N> and uncore_type_<N>", test_unnamed_types_count_truth },
		{ "a numbered PMU in a metric formula is that box only", test_numbered_pmu_in_a_metric },
		{ "the perf backend reads the kernel's aliases with .scale and .unit", test_kernel_aliases },
		{ "the platforms' alias tables say what the simulated kernels' events/ say", test_alias_tables_match_the_kernels },
		{ NULL, NULL },
	};
	return run_suite("perf_names", tests);
}
