/*
 * perf on any Intel server (issue 33 point 6): a CPU with no platform of ours still counts through the
 * kernel's uncore PMUs.  Three simulated kernels of models the project has no folder for, each on a
 * simulated Granite Rapids machine reporting another CPU:
 *  - Grand Ridge (6-B6), which Linux 6.12 drives with gnr_uncore_init and Intel's mapfile gives
 *    grandridge_uncore.json: named events from that JSON;
 *  - a family 19 model 1 CPU that neither Linux 6.12 nor the mapfile knows, under a kernel that drives it
 *    as GNR (generic=0, a newer kernel): the kernel's events/ aliases and raw specs;
 *  - model 6-F0 on Linux 6.12: its generic discovery driver (uncore_type_<t>_<n>, no aliases): raw specs.
 * The truths are the simulator's profile and its own box counts, never the library's tables.
 */
#include <math.h>
#include <strings.h>
#include "sim_helpers.h"
#include "eventtables.h"
#include "fake_tree.h"
#include "perf/perf.h"


/* The simulator's boxes of a unit on a socket (its own count, not the kernel's or the library's). */
static int sim_boxes(const struct sim *sim, const char *unit, int socket)
{
	int n = 0;
	for (int i = 0; i < sim->nboxes; i++)
		n += !strcmp(sim->boxes[i].u->name, unit) && sim->boxes[i].socket == socket;
	return n;
}

/* Count specs for 2 s of the manual clock: per socket, scaled by the alias's .scale; the seconds. */
static double count(uncore_t *u, const char *const *specs, int n, double v[][UC_MAX_SOCKETS])
{
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	for (int i = 0; i < n; i++) {
		int ev = uncore_session_add(s, specs[i]);
		if (ev != i)
			fprintf(stderr, "%s: %s\n", specs[i], uncore_error());
		CU_ASSERT_FATAL(ev == i);
	}
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 2000000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	double secs = (double)uncore_session_elapsed_ns(s) / 1e9;
	for (int i = 0; i < n; i++)
		for (int sock = 0; sock < uncore_num_sockets(u); sock++)
			v[i][sock] = (double)val(s, i, sock) * uncore_session_event_scale(s, i, NULL);
	uncore_session_free(s);
	return secs;
}

static void expect_caveat(uncore_t *u, const char *has)
{
	const char *c = uncore_platform_caveat(u);
	int ok = c && strstr(c, has);
	if (!ok)
		fprintf(stderr, "caveat '%s' lacks '%s'\n", c ? c : "(none)", has);
	CU_ASSERT(ok);
	CU_ASSERT_STRING_EQUAL(uncore_platform_name(u), "generic");
}

/* Grand Ridge: the events of Intel's JSON for its mapfile row, on the PMUs Linux names as for GNR. */
static void test_json_events_of_the_mapfile_row(void)
{
	static const char *const specs[] = { "UNC_CHA_CLOCKTICKS", "UNC_M_CAS_COUNT_SCH0.RD", "UNC_M_CAS_COUNT_SCH1.RD",
					     "UNC_M_CAS_COUNT_SCH0.WR", "UNC_M_CAS_COUNT_SCH1.WR", "UNC_CHA_CLOCKTICKS:box=5" };
	double v[6][UC_MAX_SOCKETS];
	char what[160];
	uncore_t *u = open_sim("perf+sim:gnr,cpu=6-B6-0,clock=manual");
	expect_caveat(u, "grandridge_uncore.json");
	CU_ASSERT(strstr(uncore_cpu_match(u), "mapfile row GRR") != NULL);
	CU_ASSERT(uncore_event_find(u, "UNC_B2CMI_CLOCKTICKS") >= 0);
	double secs = count(u, specs, 6, v);
	const struct sim *sim = sim_of(u->acc);
	const struct sim_profile *p = &sim->prof;
	for (int s = 0; s < uncore_num_sockets(u); s++) {
		double lines = secs / 64;
		snprintf(what, sizeof(what), "GRR socket %d CHA clocks (%d CHAs)", s, sim_boxes(sim, "cha", s));
		near_truth(what, v[0][s], p->uncore_hz * secs * sim_boxes(sim, "cha", s));
		snprintf(what, sizeof(what), "GRR socket %d reads, SCH0 + SCH1", s);
		near_truth(what, v[1][s] + v[2][s], p->mem_read_bps[s] * lines);
		snprintf(what, sizeof(what), "GRR socket %d reads, SCH0", s);
		near_truth(what, v[1][s], p->mem_read_bps[s] * lines * p->mem_sch0_ratio[s]);
		snprintf(what, sizeof(what), "GRR socket %d writes", s);
		near_truth(what, v[3][s] + v[4][s], p->mem_write_bps[s] * lines);
		snprintf(what, sizeof(what), "GRR socket %d CHA 5 clocks", s);
		near_truth(what, v[5][s], p->uncore_hz * secs);
	}
	uncore_close(u);
}

/* Intel's "0,1,2,3" as a counter mask. */
static unsigned counter_mask(const char *c)
{
	unsigned m = 0;
	for (; c && *c; c++)
		if (*c >= '0' && *c <= '9')
			m |= 1u << (*c - '0');
	return m;
}

/* Grand Ridge's metrics are Intel's perf metric file for it (eventtables/GRR/metrics/perf): memory read and
 * total bandwidth over both schedulers, and the uncore clock, equal the simulator's truth. */
static void test_metrics_of_the_mapfile_row(void)
{
	static const char *const names[] = { "memory_bandwidth_read", "memory_bandwidth_total", "uncore_frequency" };
	uncore_t *u = open_sim("perf+sim:gnr,cpu=6-B6-0,clock=manual");
	uncore_session_t *s;
	int m[3];
	char what[160];
	expect_caveat(u, "metrics from Intel's perf metric file");
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	for (int i = 0; i < 3; i++) {
		m[i] = uncore_session_add_metric(s, names[i]);
		if (m[i] < 0)
			fprintf(stderr, "%s: %s\n", names[i], uncore_error());
		CU_ASSERT_FATAL(m[i] >= 0);
	}
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 2000000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	const struct sim_profile *p = &sim_of(u->acc)->prof;
	for (int sk = 0; sk < uncore_num_sockets(u); sk++) {
		double v[3];
		for (int i = 0; i < 3; i++)
			CU_ASSERT(uncore_session_metric_value(s, m[i], sk, -1, UNCORE_SINCE_START, &v[i]) == 0);
		snprintf(what, sizeof(what), "GRR socket %d memory_bandwidth_read MB/s", sk);
		near_truth(what, v[0], p->mem_read_bps[sk] / 1e6);
		snprintf(what, sizeof(what), "GRR socket %d memory_bandwidth_total MB/s", sk);
		near_truth(what, v[1], (p->mem_read_bps[sk] + p->mem_write_bps[sk]) / 1e6);
		snprintf(what, sizeof(what), "GRR socket %d uncore_frequency GHz", sk);
		near_truth(what, v[2], p->uncore_hz / 1e9);
	}
	uncore_session_free(s);
	uncore_close(u);
}

struct named { uncore_t *u; int found, bad, nopmu; };

/* One Grand Ridge event against the catalog: named on the PMU of its Unit, with its code, umask, extension
 * (PortMask and FCMask in it at bits 4 and 16, as the IIO's ch_mask and fc_mask formats take them) and
 * counters. */
static void grr_event(const struct json_event *j, void *ctx)
{
	struct named *c = ctx;
	int k = uncore_event_find(c->u, j->name);
	if (!strcmp(j->unit, "CHACMS")) { /* the CHA's mesh stop: no Linux PMU (gnr_uncores) */
		c->nopmu++;
		CU_ASSERT(k < 0);
		return;
	}
	if (k < 0) {
		fprintf(stderr, "%s (%s): not named\n", j->name, j->unit);
		c->bad++;
		return;
	}
	c->found++;
	const struct uc_event *e = &c->u->events[k];
	const char *pm = json_string_value(json_object_get(j->ev, "PortMask"));
	const char *fc = json_string_value(json_object_get(j->ev, "FCMask"));
	unsigned long ext = j->ext | (pm ? strtoul(pm, NULL, 16) << 4 : 0) | (fc ? strtoul(fc, NULL, 16) << 16 : 0);
	unsigned ctrs = counter_mask(json_string_value(json_object_get(j->ev, "Counter")));
	if (e->code != j->code || e->umask != j->umask || e->umext != ext || strcasecmp(e->unit, j->unit) ||
	    e->ctr_mask != ctrs) {
		fprintf(stderr, "%s: %s 0x%x/0x%x/0x%x ctrs 0x%x, JSON %s 0x%x/0x%x/0x%lx ctrs 0x%x\n", j->name, e->unit,
			e->code, e->umask, e->umext, e->ctr_mask, j->unit, j->code, j->umask, ext, ctrs);
		c->bad++;
	}
}

/* Every Grand Ridge event of Intel's files whose Unit has a kernel PMU (perf's rule: uncore_<unit in lower
 * case>) is named, on that PMU's unit, as Intel gives it. */
static void test_json_events_equal_intels(void)
{
	static const char *const files[] = { "GRR/events/grandridge_uncore.json",
					     "GRR/events/grandridge_uncore_experimental.json" };
	uncore_t *u = open_sim("perf+sim:gnr,cpu=6-B6-0");
	struct named c = { u, 0, 0, 0 };
	each_json_event(files, 2, grr_event, &c);
	int found = c.found, bad = c.bad, nopmu = c.nopmu;
	printf("\nGrand Ridge on perf: %d of Intel's events named, %d without a kernel PMU, %d differences\n", found,
	       nopmu, bad);
	CU_ASSERT(found > 400);
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(uncore_num_events(u), found);
	uncore_close(u);
}

/* A model neither Linux 6.12 nor the mapfile knows (family 0x1f: no part has it; 19-1 is Diamond Rapids,
 * dmr), under a newer kernel that names its PMUs: the kernel's aliases (with their .scale) and raw specs count; a JSON name is refused, saying what to use. */
static void test_kernel_aliases_and_raw_specs(void)
{
	static const char *const specs[] = { "uncore_imc/cas_count_read_sch0/", "uncore_imc/cas_count_read_sch1/",
					     "uncore_imc_0/clockticks/", "uncore_cha_3/event=0x1/",
					     "uncore_imc/event=0x05,umask=0xcf/", "uncore_iio_free_running/ioclk/" };
	double v[6][UC_MAX_SOCKETS];
	char what[160];
	uncore_t *u = open_sim("perf+sim:gnr,cpu=31-1-0,generic=0,clock=manual");
	expect_caveat(u, "no event tables for this CPU (not in Intel's mapfile)");
	CU_ASSERT_EQUAL(uncore_num_events(u), 0);
	struct uncore_alias_info a;
	int n = 0, clk = 0;
	while (!uncore_alias_info(u, n, &a))
		clk += !strcmp(a.spec, "uncore_imc/clockticks/") && !strcmp(a.terms, "event=0x01,umask=0x00") && a.scale == 1,
		n++;
	CU_ASSERT_EQUAL(n, 14); /* gnr_uncore_imc_events (5) and gnr_iio_freerunning (9) in Linux 6.12 */
	CU_ASSERT_EQUAL(clk, 1);
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT(uncore_session_add(s, "UNC_CHA_CLOCKTICKS") < 0);
	CU_ASSERT(strstr(uncore_error(), "event aliases") != NULL);
	uncore_session_free(s);
	double secs = count(u, specs, 6, v);
	const struct sim *sim = sim_of(u->acc);
	const struct sim_profile *p = &sim->prof;
	for (int sk = 0; sk < uncore_num_sockets(u); sk++) {
		snprintf(what, sizeof(what), "socket %d read MiB, both schedulers", sk);
		near_truth(what, v[0][sk] + v[1][sk], p->mem_read_bps[sk] * secs / (1 << 20));
		snprintf(what, sizeof(what), "socket %d channel 0 DRAM clocks", sk);
		near_truth(what, v[2][sk], p->dram_hz * secs);
		snprintf(what, sizeof(what), "socket %d CHA 3 clocks", sk);
		near_truth(what, v[3][sk], p->uncore_hz * secs);
		snprintf(what, sizeof(what), "socket %d raw SCH0 reads", sk);
		near_truth(what, v[4][sk] * 64, p->mem_read_bps[sk] * secs * p->mem_sch0_ratio[sk]);
		snprintf(what, sizeof(what), "socket %d IIO clocks (%d stacks)", sk, sim_boxes(sim, "iio", sk));
		near_truth(what, v[5][sk], p->iio_hz * secs * sim_boxes(sim, "iio", sk));
	}
	uncore_close(u);
}

/* The library does not know such a unit's counters, so each event is a perf group of its own: six on one
 * box with four counters are rotated by the kernel, and each scaled count is the truth. */
static void test_the_kernel_places_the_events(void)
{
	const char *specs[6];
	double v[6][UC_MAX_SOCKETS];
	char what[160];
	for (int i = 0; i < 6; i++)
		specs[i] = "uncore_cha_3/event=0x1/";
	uncore_t *u = open_sim("perf+sim:gnr,cpu=31-1-0,generic=0,clock=manual");
	double secs = count(u, specs, 6, v);
	for (int i = 0; i < 6; i++)
		for (int sk = 0; sk < uncore_num_sockets(u); sk++) {
			snprintf(what, sizeof(what), "event %d socket %d CHA 3 clocks, multiplexed", i, sk);
			near_truth(what, v[i][sk], sim_of(u->acc)->prof.uncore_hz * secs);
		}
	uncore_close(u);
}

/* A model Linux 6.12 does not know: its generic discovery driver's uncore_type_<t>[_<n>] PMUs, raw
 * specs only; the generic type has no fixed counter (config 0xff is EINVAL there). */
static void test_generic_driver_raw_specs(void)
{
	/* GNR's discovery types: 0 CHA, 6 IMC (Linux 6.12 uncore_snbep.c gnr_uncores[]) */
	static const char *const specs[] = { "uncore_type_0/event=0x1/", "uncore_type_0_7/event=0x1/",
					     "uncore_type_6/event=0x05,umask=0xcf/", "uncore_type_6/event=0x06,umask=0xcf/" };
	double v[4][UC_MAX_SOCKETS];
	char what[160];
	uncore_t *u = open_sim("perf+sim:gnr,cpu=6-F0-0,clock=manual");
	expect_caveat(u, "the kernel's 0 event aliases");
	struct uncore_alias_info a;
	CU_ASSERT(uncore_alias_info(u, 0, &a) < 0);
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT(uncore_session_add(s, "uncore_type_6/event=0xff/") >= 0);
	CU_ASSERT(uncore_session_start(s) < 0); /* the kernel refuses it: no fixed counter on a generic type */
	uncore_session_free(s);
	double secs = count(u, specs, 4, v);
	const struct sim *sim = sim_of(u->acc);
	const struct sim_profile *p = &sim->prof;
	for (int sk = 0; sk < uncore_num_sockets(u); sk++) {
		snprintf(what, sizeof(what), "socket %d uncore_type_0 clocks", sk);
		near_truth(what, v[0][sk], p->uncore_hz * secs * sim_boxes(sim, "cha", sk));
		snprintf(what, sizeof(what), "socket %d uncore_type_0_7 clocks", sk);
		near_truth(what, v[1][sk], p->uncore_hz * secs);
		snprintf(what, sizeof(what), "socket %d reads by raw spec", sk);
		near_truth(what, (v[2][sk] + v[3][sk]) * 64, p->mem_read_bps[sk] * secs);
	}
	uncore_close(u);
}

/* One PMU of a fake kernel tree: its type, cpumask and format files ("name=config:0-7" each). */
static void fake_pmu(const char *pmu, int type, const char *const *formats)
{
	char path[200], text[64];
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	snprintf(text, sizeof(text), "%d\n", type);
	put_str(text, path);
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/cpumask", pmu);
	put_str("0,1\n", path);
	for (int i = 0; formats[i]; i++) {
		const char *eq = strchr(formats[i], '=');
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/format/%.*s", pmu, (int)(eq - formats[i]),
			 formats[i]);
		snprintf(text, sizeof(text), "%s\n", eq + 1);
		put_str(text, path);
	}
}

/* The perf attr config (config1 in *c1) of a catalog event on its unit's first box. */
static uint64_t perf_config1(uncore_t *u, const char *name, uint64_t *c1)
{
	struct encoded e;
	uint64_t cfg[3] = { 0, 0, 0 };
	int rc = spec_encode(u, name, &e);
	if (rc)
		fprintf(stderr, "%s: %s\n", name, uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	for (int i = 0; i < u->nboxes; i++)
		if (u->boxes[i].type_idx == e.type_idx) {
			CU_ASSERT(perf_encode(u, &u->boxes[i], &e, 0, -1, cfg) == 0);
			break;
		}
	*c1 = cfg[1];
	return cfg[0];
}

static uint64_t perf_config(uncore_t *u, const char *name)
{
	uint64_t c1;
	return perf_config1(u, name, &c1);
}

/* An Ice Lake-SP node whose kernel has uncore PMUs and no MSR device: auto takes perf with the icx platform.
 * The configs are what Linux perf's own tables for icelakex give (tools/perf/pmu-events/arch/x86/icelakex:
 * UNC_M_CAS_COUNT.RD event 0x04 umask 0xf; UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART0 event 0x83 umask 0x4 PortMask
 * 0x01 FCMask 0x07; UNC_CHA_TOR_INSERTS.IA_MISS_DRD event 0x35 umask 0xc817fe01) through the driver's formats
 * (uncore_snbep.c icx_uncore_imc: skx_uncore_formats_attr; icx_uncore_iio: snr_uncore_iio_formats_attr, ch_mask
 * config:36-47, fc_mask config:48-50; icx_uncore_chabox: snr_uncore_cha_formats_attr, umask
 * config:8-15,32-57): a second source for the icx platform's encodings.  Only the PMUs the fake kernel has
 * count; the other types are left out with a warning. */
static void test_icelake_node_takes_perf(void)
{
	static const char *const imc[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
					   "thresh=config:24-31", NULL };
	static const char *const cha[] = { "event=config:0-7", "umask=config:8-15,32-57", "edge=config:18",
					   "tid_en=config:19", "inv=config:23", "thresh=config:24-31",
					   "filter_tid=config1:0-9", NULL };
	static const char *const iio[] = { "event=config:0-7", "umask=config:8-15", "edge=config:18", "inv=config:23",
					   "thresh=config:24-35", "ch_mask=config:36-47", "fc_mask=config:48-50", NULL };
	snprintf(root, sizeof(root), "%s/test_perf_any_icx.%d", test_tmpdir(), (int)getpid());
	put_str("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 106\nstepping\t: 6\n\n"
		"processor\t: 1\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 106\nstepping\t: 6\n\n",
		"/proc/cpuinfo");
	put_str("0\n", "/sys/devices/system/cpu/cpu0/topology/physical_package_id");
	put_str("1\n", "/sys/devices/system/cpu/cpu1/topology/physical_package_id");
	put_str("0\n", "/proc/sys/kernel/perf_event_paranoid");
	fake_pmu("uncore_imc_0", 31, imc);
	fake_pmu("uncore_imc_1", 32, imc);
	fake_pmu("uncore_iio_0", 33, iio);
	fake_pmu("uncore_cha_0", 34, cha);
	setenv("UNCORE_SYSROOT", root, 1);
	uncore_t *u = NULL;
	int rc = uncore_open("auto", &u);
	if (rc)
		fprintf(stderr, "auto on an Ice Lake-SP: %s\n", uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	CU_ASSERT_STRING_EQUAL(uncore_backend_name(u), "perf");
	CU_ASSERT_STRING_EQUAL(uncore_platform_name(u), "icx");
	int imc_unit = -1;
	for (int k = 0; k < uncore_num_units(u); k++) {
		struct uncore_unit_info ui;
		if (!uncore_unit_info(u, k, &ui) && !strcmp(ui.name, "imc"))
			imc_unit = k;
	}
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, imc_unit, 1), 2); /* uncore_imc_0 and _1, each on both sockets */
	CU_ASSERT_EQUAL(perf_config(u, "UNC_M_CAS_COUNT.RD"), 0x0f04);
	CU_ASSERT_EQUAL(perf_config(u, "UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART0"),
			0x83 | 0x04 << 8 | 0x01ull << 36 | 0x07ull << 48);
	/* the umask extension at config 57:32: no config1 */
	uint64_t c1 = 1;
	CU_ASSERT_EQUAL(perf_config1(u, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD", &c1), 0x0135 | 0xc817feull << 32);
	CU_ASSERT_EQUAL(c1, 0);
	uncore_close(u);
	fake_tree_remove();
}

/* What cannot count says why: a kernel that registers no uncore PMU (a model Linux 6.12 lacks, on a
 * machine without discovery tables), and a model Linux drives with a driver the simulation lacks.
 * Never the old "needs a platform with tables". */
static void test_refusals_name_the_reason(void)
{
	static const struct {
		const char *backend, *says;
	} cases[] = {
		{ "perf+sim:snbep,cpu=6-F0-0", "shows no uncore PMUs" },
		{ "perf+sim:gnr,cpu=6-86-7", "snr_uncore_init" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uncore_t *u = NULL;
		CU_ASSERT(uncore_open(cases[i].backend, &u) < 0);
		int ok = strstr(uncore_error(), cases[i].says) && !strstr(uncore_error(), "platform with tables");
		if (!ok)
			fprintf(stderr, "%s: %s\n", cases[i].backend, uncore_error());
		CU_ASSERT(ok);
		uncore_close(u);
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "a CPU without a platform counts the events of its mapfile row's JSON", test_json_events_of_the_mapfile_row },
		{ "its events are Intel's JSON event for event", test_json_events_equal_intels },
		{ "its metrics are Intel's perf metric file's, equal to the truth", test_metrics_of_the_mapfile_row },
		{ "a CPU without tables counts the kernel's aliases and raw specs", test_kernel_aliases_and_raw_specs },
		{ "the kernel places and rotates the events of a unit it alone knows", test_the_kernel_places_the_events },
		{ "Linux's generic discovery driver: raw specs on uncore_type_<t>", test_generic_driver_raw_specs },
		{ "an Ice Lake-SP node's kernel PMUs: auto takes perf, configs as Linux perf's icelakex", test_icelake_node_takes_perf },
		{ "what cannot count says why", test_refusals_name_the_reason },
		{ NULL, NULL },
	};
	return run_suite("perf_any", tests);
}
