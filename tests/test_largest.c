/*
 * Issue 90 D0: every simulated platform opens, lists and counts its truth with the cores of its largest
 * shipped part, and a count register that reads all ones is taken as the bits it holds (a 28-CHA Skylake-SP's
 * CAPID6 with bits 31:28 set reads 0xffffffff; so does a 40-CHA Ice Lake-SP's), while a function that is gone
 * (its id dword reading all ones too) is still refused.
 */
#include "sim_helpers.h"
#include "sim_truth.h"
#include "discover/discover.h"

/* The largest part of each platform, its cores a die and the cache boxes a socket then has (one CBo or CHA a
 * core: the Linux drivers' counts; doc/platforms.md "Largest parts" gives each part and source), written here
 * from those sources, not from the simulator's kinds (whose max_cores must agree). */
static const struct part {
	const char *kind;
	int cores, boxes;
	const char *unit; /* the cache box unit (NULL: none) */
} parts[] = {
	{ "snbep", 8, 8, "cbo" },     /* Xeon E5-2690; seed 000: up to 8 C-boxes */
	{ "ivbep", 15, 15, "cbo" },   /* Xeon E7-8890 v2 (model 62 too); ivbep_uncore_cbox num_boxes 15 */
	{ "hsx", 18, 18, "cbo" },     /* Xeon E5-2699 v3; hswep_uncore_cbox num_boxes 18 */
	{ "bdx", 24, 24, "cbo" },     /* Xeon E7-8894 v4 (model 79 too); bdx_uncore_cbox num_boxes 24 */
	{ "bdxde", 16, 16, "cbo" },   /* Xeon D-1587 */
	{ "skx", 28, 28, "cha" },     /* Xeon Platinum 8180; skx_count_chabox GENMASK(27, 0) */
	{ "clx", 28, 28, "cha" },     /* Xeon Platinum 8280 */
	{ "icx", 40, 40, "cha" },     /* Xeon Platinum 8380; icx_cha_msr_offsets[] 40 */
	{ "spr", 60, 60, "cha" },     /* Xeon Platinum 8490H */
	{ "emr", 64, 64, "cha" },     /* Xeon Platinum 8592+; seed 001 T1-3: CHA "up to 64" */
	{ "gnr", 128, 128, "cha" },   /* Xeon 6980P */
	{ "srf", 144, 144, "cha" },   /* Xeon 6780E */
	/* Xeon 6+ 6990E+: 288 cores; one MSR space holds 144 CHAs below gnr_iio_freerunning's IOCLK 0x290E
	 * (platforms/gnr/sim.c GNR_MAX_CHA) */
	{ "cwf", 288, 144, "cha" },
	{ "dmr", 192, 192, "cbo" },   /* announced: up to 192 cores (field notes 1) */
	{ "nhm", 4, 0, NULL },        /* Xeon X5570 */
	{ "montecito", 2, 0, NULL },  /* Itanium 2 9050 */
	{ "generic", 64, 0, NULL },   /* no part: an unknown model's layout */
};

static const struct part *part_of(const char *kind)
{
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (!strcmp(parts[i].kind, kind))
			return &parts[i];
	return NULL;
}

/* Metric m (where the platform has it) over one simulated second on every socket, against the profile. */
static void count_truth(uncore_t *u, const char *spec, const char *m)
{
	struct sim *sim = sim_of(u->acc);
	uncore_session_t *s;
	char what[160];
	if (uncore_metric_find(u, m) < 0)
		return;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	int k = uncore_session_add_metric(s, m);
	if (k < 0)
		fprintf(stderr, "%s %s: %s\n", spec, m, uncore_error());
	CU_ASSERT_FATAL(k >= 0);
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
		struct truth t = truth_of(sim, m, sock);
		double v = NAN;
		if (t.split == TRUTH_NO_BOX)
			continue;
		snprintf(what, sizeof(what), "%s %s socket %d", spec, m, sock);
		CU_ASSERT(uncore_session_metric_value(s, k, sock, -1, UNCORE_SINCE_START, &v) == 0);
		check_truth(what, v, t.v);
	}
	uncore_session_free(s);
}

/* Every kind with its largest part's cores: opens, lists its events, has a cache box a core (as the part
 * has), and counts the memory traffic and LLC lookups the profile gives, socket by socket. */
static void test_largest_parts(void)
{
	for (int i = 0; sim_kinds[i]; i++) {
		const struct sim_kind *k = sim_kinds[i];
		const struct part *p = part_of(k->name);
		char spec[96];
		if (!p)
			fprintf(stderr, "sim:%s: no largest part in this test\n", k->name);
		CU_ASSERT_FATAL(p != NULL);
		CU_ASSERT_EQUAL(k->max_cores, p->cores);
		snprintf(spec, sizeof(spec), "sim:%s,cores=%d,clock=manual", k->name, p->cores);
		uncore_t *u = open_sim(spec);
		CU_ASSERT(uncore_num_events(u) > 0);
		CU_ASSERT(uncore_num_units(u) > 0);
		for (int sock = 0; p->unit && sock < uncore_num_sockets(u); sock++) {
			int n = unit_boxes(u, p->unit, sock);
			if (n != p->boxes)
				fprintf(stderr, "%s: socket %d has %d %s boxes, the part %d\n", spec, sock, n, p->unit, p->boxes);
			CU_ASSERT_EQUAL(n, p->boxes);
		}
		count_truth(u, spec, "mem_bw_read");
		count_truth(u, spec, "llc_lookups");
		uncore_close(u);
	}
}

/* The simulated full dies' count registers read as those parts' do: Skylake-SP's CAPID6 all ones (slices 27:0
 * and the bits 31:28 the machine sets above them), Ice Lake-SP's CAPID6 all ones and CAPID7 0xff (slices 39:0). */
static void test_full_die_capids(void)
{
	static const struct { const char *spec; uint16_t did; uint32_t lo, hi; } dies[] = {
		{ "sim:skx,cores=28", 0x2083, 0xffffffffu, 0 },
		{ "sim:clx,cores=28", 0x2083, 0xffffffffu, 0 },
		{ "sim:icx,cores=40", 0x345b, 0xffffffffu, 0xffu },
	};
	for (size_t i = 0; i < sizeof(dies) / sizeof(dies[0]); i++) {
		uncore_t *u = open_sim(dies[i].spec);
		struct sim *sim = sim_of(u->acc);
		int seen = 0;
		for (int d = 0; d < sim->ndevs; d++) {
			uint32_t lo, hi;
			if (sim->devs[d].info.device != dies[i].did)
				continue;
			memcpy(&lo, sim->devs[d].cfg + 0x9c, 4);
			memcpy(&hi, sim->devs[d].cfg + 0xa0, 4);
			CU_ASSERT_EQUAL(lo, dies[i].lo);
			if (dies[i].did == 0x345b)
				CU_ASSERT_EQUAL(hi, dies[i].hi);
			seen++;
		}
		CU_ASSERT_EQUAL(seen, 2);
		uncore_close(u);
	}
}

/* A count function that is gone reads all ones everywhere, its id dword too: refused, naming it, where a full
 * die's all-ones CAPID6 counts (Skylake-SP and Ice Lake-SP, one socket's function hidden after the machine was
 * built, discovery run again over it). */
static void test_hidden_count_device(void)
{
	static const struct { const char *spec; uint16_t did; } specs[] = { { "sim:skx,cores=28", 0x2083 }, { "sim:icx,cores=40", 0x345b } };
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		uncore_t *u = open_sim(specs[i].spec);
		struct sim *sim = sim_of(u->acc);
		struct box *boxes = NULL;
		int n = 0;
		CU_ASSERT_FATAL(boxes_discover(u->acc, &u->host, u->plat, &boxes, &n) == 0);
		free(boxes);
		boxes = NULL;
		for (int d = 0; d < sim->ndevs; d++)
			if (sim->devs[d].info.device == specs[i].did) {
				memset(sim->devs[d].cfg, 0xff, sizeof(sim->devs[d].cfg));
				break;
			}
		CU_ASSERT(boxes_discover(u->acc, &u->host, u->plat, &boxes, &n) < 0);
		CU_ASSERT(strstr(uncore_error(), "reads all-ones, its id dword 0xffffffff: the device is hidden or broken") != NULL);
		free(boxes);
		uncore_close(u);
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "every platform opens, lists and counts its truth at its largest part's cores", test_largest_parts },
		{ "full dies' CAPID6/7 read all ones as the parts' do", test_full_die_capids },
		{ "a hidden count function (its id all ones too) is still refused", test_hidden_count_device },
		{ NULL, NULL },
	};
	return run_suite("largest", tests);
}
