/* Health on every read: each simulator fault raises its condition and nothing else, on every platform it
 * applies to, on both backends where the fault reaches the counts; a clean simulated hour raises none. */
#include <math.h>
#include <string.h>
#include "sim_helpers.h"
#include "health/clock_ranges.h"


struct run {
	int raised[UNCORE_HEALTH_KINDS]; /* conditions raised over the run, per kind */
	int cleared;
	int at_box;                      /* ... of which on the faulted box (socket 0) */
	char first[400];                 /* the first raised, for messages (struct health_run's) */
	int reads, fails;
};

/* The IIO port counters, general and free-running, of every port (NULL-terminated). */
static const char *const *port_events(void)
{
	static char names[16][64];
	static const char *list[17];
	for (int port = 0; port < 8; port++) {
		snprintf(names[2 * port], sizeof(names[0]), "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART%d", port);
		snprintf(names[2 * port + 1], sizeof(names[0]), "UNC_IIO_BANDWIDTH_IN.PART%d_FREERUN", port);
		list[2 * port] = names[2 * port], list[2 * port + 1] = names[2 * port + 1];
	}
	return list;
}

/* Events of the list evs (NULL-terminated) the catalog has and the session does not count yet; one that does
 * not fit on the box's counters beside the default set is left out (the default set's own counts it then). */
static void add_events(uncore_t *u, uncore_session_t *s, const char *const *evs)
{
	for (int i = 0; evs && evs[i]; i++) {
		int have = uncore_event_find(u, evs[i]) < 0;
		for (int e = 0; !have && e < uncore_session_num_events(s); e++)
			have = !strcmp(uncore_session_event_name(s, e), evs[i]);
		if (!have)
			uncore_session_add(s, evs[i]);
	}
}

/* What run_backend hands health_run (sim_helpers.h) */
struct backend_run {
	const char *unit;
	int box;
	const char *const *evs;
	struct run *r;
};

static int add_evs(uncore_t *u, uncore_session_t *s, void *arg)
{
	add_events(u, s, ((struct backend_run *)arg)->evs);
	return 0;
}

static void count_change(void *arg, const struct uncore_health *h)
{
	const struct backend_run *b = arg;
	if (!h->raised) {
		b->r->cleared++;
		return;
	}
	b->r->raised[h->kind]++;
	if (b->unit && h->socket == 0 && h->box == b->box && !strcmp(h->unit, b->unit))
		b->r->at_box++;
}

/* The default set (and the events evs: the IIO ports' twins, a clock, ...), read every step_ns for n reads. */
static int run_backend(const char *spec, const char *unit, int box, const char *const *evs, uint64_t step_ns, int n,
		       struct run *r)
{
	struct backend_run b = { unit, box, evs, r };
	struct health_run h = { .add = add_evs, .change = count_change };
	memset(r, 0, sizeof(*r));
	if (health_run(spec, step_ns, n, &h, &b))
		return -1;
	r->reads = h.reads, r->fails = h.fails;
	snprintf(r->first, sizeof(r->first), "%s", h.first);
	return 0;
}

/* Only kind was raised, at least once on the faulted box; named on stderr when not. */
static int only(const char *spec, const struct run *r, int kind, int on_box)
{
	int ok = r->raised[kind] > 0 && (!on_box || r->at_box > 0);
	for (int k = 0; k < UNCORE_HEALTH_KINDS; k++)
		if (k != kind && r->raised[k])
			ok = 0;
	if (!ok) {
		fprintf(stderr, "%s: expected %s%s alone; raised:", spec, uncore_health_name(kind), on_box ? " on the box" : "");
		for (int k = 0; k < UNCORE_HEALTH_KINDS; k++)
			if (r->raised[k])
				fprintf(stderr, " %s x%d", uncore_health_name(k), r->raised[k]);
		fprintf(stderr, " (%d on the box; first %s)\n", r->at_box, r->first);
	}
	return ok;
}

/* One fault on one platform: run it and expect kind alone (-1: the fault does not apply: skipped). */
static int fault_case(const char *backend, const char *p, const char *fault, const char *unit, int box, int kind,
		      const char *const *evs, const char *extra)
{
	char spec[256];
	struct run r;
	snprintf(spec, sizeof(spec), "%s:%s,clock=manual,fault=%s%s", backend, p, fault, extra ? extra : "");
	if (run_backend(spec, unit, box, evs, 1000000000ull, 40, &r))
		return 0;
	return only(spec, &r, kind, unit != NULL);
}

static void test_clean_hour(void)
{
	const char *name, *desc;
	for (int i = 0; uncore_sim_platform(i, &name, &desc) == 0; i++) {
		const char *be[] = { "sim", "perf+sim" };
		for (int b = 0; b < 2; b++) {
			char spec[96];
			struct run r;
			/* every counter starts 5 s before its wrap: the wraps are exact, not a width condition */
			snprintf(spec, sizeof(spec), "%s:%s,clock=manual,prewrap=5", be[b], name);
			if ((b && !strcmp(name, "montecito")) || !strcmp(name, "generic"))
				continue; /* Itanium: no perf uncore PMUs; generic: no events of its own on the simulator */
			/* an hour in 5 s reads, then a minute at 100 Hz */
			int ok = !run_backend(spec, NULL, -1, NULL, 5000000000ull, 720, &r);
			for (int k = 0; ok && k < UNCORE_HEALTH_KINDS; k++)
				ok = !r.raised[k];
			struct run fast;
			ok = ok && !run_backend(spec, NULL, -1, NULL, 10000000ull, 6000, &fast);
			for (int k = 0; ok && k < UNCORE_HEALTH_KINDS; k++)
				ok = !fast.raised[k];
			if (!ok)
				fprintf(stderr, "%s: a clean run raised %s%s\n", spec, r.first, fast.first);
			CU_ASSERT(ok);
		}
	}
}

static void test_faults(void)
{
	const char *p, *desc;
	int cases = 0;
	for (int i = 0; uncore_sim_platform(i, &p, &desc) == 0; i++) {
		char plain[64];
		snprintf(plain, sizeof(plain), "sim:%s", p);
		uncore_t *u = open_sim(plain); /* a look at the units */
		int imc = unit_boxes(u, "imc", 0);
		const char *clk = clock_unit(u);
		char clkunit[16] = "";
		if (clk)
			snprintf(clkunit, sizeof(clkunit), "%s", clk);
		double fr = uncore_iio_freerun_bytes(u);
		int iio = unit_boxes(u, "iio", 0);
		/* no memory metric (Diamond Rapids: no public CAS encoding): the default set counts the iMC's fixed DCLK
		 * alone, so a phantom channel is a clock out of range, and no general counter is there to narrow or take */
		int mem = uncore_metric_find(u, "mem_read_bytes") >= 0;
		uncore_close(u);
		if (imc >= 2) {
			int phantom = mem ? UNCORE_HEALTH_BANDWIDTH : UNCORE_HEALTH_CLOCK;
			CU_ASSERT(fault_case("sim", p, "dead:imc:1", "imc", 1, UNCORE_HEALTH_STOPPED, NULL, NULL));
			CU_ASSERT(fault_case("sim", p, "stuck:imc:1", "imc", 1, UNCORE_HEALTH_STOPPED, NULL, NULL));
			CU_ASSERT(fault_case("sim", p, "phantom:imc:1", "imc", 1, phantom, NULL, NULL));
			CU_ASSERT(fault_case("sim", p, "allones:imc:1@5", "imc", 1, UNCORE_HEALTH_ALLONES, NULL, NULL));
			CU_ASSERT(!mem || fault_case("sim", p, "narrow:imc:1", "imc", 1, UNCORE_HEALTH_WIDTH, NULL, ",prewrap=5"));
			CU_ASSERT(!mem || fault_case("sim", p, "agent:imc:1@5", "imc", 1, UNCORE_HEALTH_TAKEN, NULL, NULL));
			CU_ASSERT(fault_case("perf+sim", p, "dead:imc:1", "imc", 1, UNCORE_HEALTH_STOPPED, NULL, NULL));
			CU_ASSERT(fault_case("perf+sim", p, "phantom:imc:1", "imc", 1, phantom, NULL, NULL));
			cases += 6 + 2 * mem;
		}
		if (!strcmp(p, "gnr") || !strcmp(p, "srf") || !strcmp(p, "cwf")) {
			CU_ASSERT(fault_case("sim", p, "onesched:imc:1", "imc", 1, UNCORE_HEALTH_SILENT, NULL, NULL));
			cases++;
		}
		if (clkunit[0] && unit_boxes(u = open_sim(plain), clkunit, 0) >= 2) {
			char f[64];
			snprintf(f, sizeof(f), "phantom:%s:1", clkunit);
			CU_ASSERT(fault_case("sim", p, f, clkunit, 1, UNCORE_HEALTH_CLOCK, NULL, NULL));
			cases++;
		}
		if (clkunit[0])
			uncore_close(u);
		if (fr && iio >= 2) {
			CU_ASSERT(fault_case("sim", p, "portmap:iio:1", "iio", 1, UNCORE_HEALTH_TWIN, port_events(), NULL));
			cases++;
		}
	}
	CU_ASSERT(cases > 100);
}

/* The uncore clock's limits (issue 68): a BIOS-pinned uncore clock (fault pinned:uclk, 500 MHz under load) raises
 * uclkpinned alone, not clock, though the clock is below the platform's range; limits below the counted clock
 * (fault overlimit:uclk: a broken counter or formula) raise uclklimits alone; on both backends, on SKX, ICX, SPR
 * and GNR (the per-die files and the TPMI form), with the uncore clock events counted beside the default set. */
static void test_uclk(void)
{
	static const char *const evs[] = { "UNC_CHA_CLOCKTICKS", "UNC_U_CLOCKTICKS", NULL };
	static const char *const parts[] = { "skx", "icx", "spr", "gnr" };
	const char *be[] = { "sim", "perf+sim" };
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		for (int b = 0; b < 2; b++) {
			CU_ASSERT(fault_case(be[b], parts[i], "pinned:uclk", NULL, -1, UNCORE_HEALTH_UCLKPINNED, evs, NULL));
			CU_ASSERT(fault_case(be[b], parts[i], "overlimit:uclk", NULL, -1, UNCORE_HEALTH_UCLKLIMITS, evs, NULL));
		}
	/* a pin inside the platform's range is the BIOS's choice, not below the part's range: nothing */
	struct run r;
	CU_ASSERT(!run_backend("sim:icx,clock=manual,fault=pinned:uclk=1500", NULL, -1, evs, 1000000000ull, 10, &r));
	for (int k = 0; k < UNCORE_HEALTH_KINDS; k++)
		CU_ASSERT(!r.raised[k]);
}

/* What each platform's clocks may run at, as the sources give them (doc/health.md; the library's own table is
 * common/health/clock_ranges.c): DCLK is half the DDR transfer rate (seed 000 L2255), for DDR5 from a quarter
 * of DDR5-3200; a QPI/UPI link layer clocks at 1/8 of its GT/s (seed 000 L3732).  In GHz; 0: not measured on the
 * platform (no clock of the kind in its catalog). */
static const struct {
	const char *p;
	double uncore[2], dram[2], link[2], other[2];
} clock_ranges[] = {
	{ "snbep", { 0.8, 4.0 }, { 800 / 2e3, 2133 / 2e3 }, { 5.6 / 8, 9.6 / 8 }, { 0, 0 } },
	{ "ivbep", { 0.8, 4.0 }, { 800 / 2e3, 2133 / 2e3 }, { 5.6 / 8, 9.6 / 8 }, { 0, 0 } },
	{ "hsx", { 0.8, 3.5 }, { 1333 / 2e3, 2400 / 2e3 }, { 5.6 / 8, 9.6 / 8 }, { 0, 0 } },
	{ "bdx", { 0.8, 3.5 }, { 1333 / 2e3, 2400 / 2e3 }, { 5.6 / 8, 9.6 / 8 }, { 0, 0 } },
	{ "bdxde", { 0.8, 3.5 }, { 800 / 2e3, 2400 / 2e3 }, { 0, 0 }, { 0, 0 } },
	{ "skx", { 0.8, 3.0 }, { 1600 / 2e3, 2666 / 2e3 }, { 4.8 / 8, 11.2 / 8 }, { 0, 0 } },
	{ "clx", { 0.8, 3.0 }, { 1600 / 2e3, 2933 / 2e3 }, { 4.8 / 8, 11.2 / 8 }, { 0, 0 } },
	{ "icx", { 0.8, 3.0 }, { 1600 / 2e3, 3200 / 2e3 }, { 4.8 / 8, 11.2 / 8 }, { 0, 0 } },
	{ "spr", { 0.8, 3.0 }, { 3200 / 4e3, 4800 / 2e3 }, { 4.8 / 8, 16 / 8. }, { 0, 0 } },
	{ "emr", { 0.8, 3.0 }, { 3200 / 4e3, 5600 / 2e3 }, { 4.8 / 8, 20 / 8. }, { 0, 0 } },
	{ "gnr", { 0.8, 3.0 }, { 3200 / 4e3, 8800 / 2e3 }, { 4.8 / 8, 24 / 8. }, { 0, 0 } },
	{ "srf", { 0.8, 3.0 }, { 3200 / 4e3, 8800 / 2e3 }, { 4.8 / 8, 24 / 8. }, { 0, 0 } },
	{ "cwf", { 0.8, 3.0 }, { 3200 / 4e3, 8800 / 2e3 }, { 4.8 / 8, 24 / 8. }, { 0, 0 } },
	{ "nhm", { 1.0, 3.5 }, { 0, 0 }, { 0, 0 }, { 0, 0 } },
	/* no seed gives Montecito's clocks: the broad range, 100 MHz reference clock to 5 GHz */
	{ "montecito", { 0, 0 }, { 0, 0 }, { 0, 0 }, { 0.1, 5.0 } },
};

/* One clock at hz on platform p (the profile's key): expect the clock condition alone, or nothing. */
static int clock_case(const char *backend, const char *p, const char *key, double hz, const char *const *evs, int raise)
{
	char spec[256], path[64];
	struct run r;
	snprintf(path, sizeof(path), "test_health_clock_%s.txt", p);
	FILE *f = fopen(path, "w");
	if (!f)
		return 0;
	fprintf(f, "%s = %.0f\n", key, hz);
	fclose(f);
	snprintf(spec, sizeof(spec), "%s:%s,clock=manual,profile=%s", backend, p, path);
	int ok = !run_backend(spec, NULL, -1, evs, 1000000000ull, 5, &r);
	remove(path);
	if (ok && raise)
		return only(spec, &r, UNCORE_HEALTH_CLOCK, 0);
	for (int k = 0; ok && k < UNCORE_HEALTH_KINDS; k++)
		ok = !r.raised[k];
	if (!ok)
		fprintf(stderr, "%s: %s = %.4g GHz, inside the range, raised %s\n", spec, key, hz / 1e9, r.first);
	return ok;
}

/* Each platform's clocks just outside its range raise clock (above, and below while the socket moves memory),
 * at its edges nothing; on the simulated kernel too, above the range, where the default set measures it.  The clocks: the default set's uncore_freq and
 * dram_freq and the catalog's clock events of each kind. */
static void test_clock_ranges(void)
{
	static const char *const uncore_evs[] = { "UNC_CHA_CLOCKTICKS", "UNC_C_CLOCKTICKS", "UNC_U_CLOCKTICKS", "UNC_CLK_UNHALTED", NULL };
	static const char *const dram_evs[] = { "UNC_M_CLOCKTICKS", "UNC_M_FIXED_DCLK", "UNC_M_DCLOCKTICKS", NULL };
	static const char *const link_evs[] = { "UNC_Q_CLOCKTICKS", "UNC_UPI_CLOCKTICKS", NULL };
	int cases = 0;
	for (size_t i = 0; i < sizeof(clock_ranges) / sizeof(clock_ranges[0]); i++) {
		const char *p = clock_ranges[i].p;
		const struct {
			const char *key;
			const double *r;
			const char *const *evs;
		} kinds[] = { { "uncore_clock_hz", clock_ranges[i].uncore, uncore_evs },
			      { "dram_clock_hz", clock_ranges[i].dram, dram_evs },
			      { "qpi_clock_hz", clock_ranges[i].link, link_evs },
			      { "tsc_hz", clock_ranges[i].other, NULL } };
		for (int k = 0; k < 4; k++) {
			double lo = kinds[k].r[0] * 1e9, hi = kinds[k].r[1] * 1e9;
			if (!hi)
				continue;
			CU_ASSERT(clock_case("sim", p, kinds[k].key, hi * 1.02, kinds[k].evs, 1));
			CU_ASSERT(clock_case("sim", p, kinds[k].key, hi, kinds[k].evs, 0));
			CU_ASSERT(clock_case("sim", p, kinds[k].key, lo * 0.98, kinds[k].evs, 1));
			CU_ASSERT(clock_case("sim", p, kinds[k].key, lo, kinds[k].evs, 0));
			if (strcmp(p, "montecito") && k < 2) /* the default set's uncore_freq and dram_freq */
				CU_ASSERT(clock_case("perf+sim", p, kinds[k].key, hi * 1.02, NULL, 1));
			cases++;
		}
	}
	printf("clock ranges: %d clocks\n", cases);
	CU_ASSERT(cases >= 35);
	/* a platform the table does not list (Diamond Rapids until it has its row) gets the broad range */
	const struct clock_range *r = health_clock_range(platform_by_name("dmr"), HEALTH_CLK_DRAM);
	CU_ASSERT(r->lo == 0.1e9 && r->hi == 5e9);
}

/* A clock below its range is said to be below it: neither its message nor the condition's advice says
 * "faster" (issue 64: the advice read "a clock faster than any uncore runs" for a clock under the floor). */
static void test_clock_below_words(void)
{
	static const char *const evs[] = { "UNC_CHA_CLOCKTICKS", NULL };
	const char *path = "test_health_clock_low.txt";
	struct run r;
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "uncore_clock_hz = %.0f\n", 0.8e9 * 0.98); /* EMR's floor, 0.8 GHz, less 2 % */
	fclose(f);
	int ok = !run_backend("sim:emr,clock=manual,profile=test_health_clock_low.txt", NULL, -1, evs, 1000000000ull, 3, &r);
	remove(path);
	CU_ASSERT(ok && r.raised[UNCORE_HEALTH_CLOCK] && strstr(r.first, "below the uncore clock's range"));
	if (!ok || strstr(r.first, "faster") || strstr(uncore_health_advice(UNCORE_HEALTH_CLOCK), "faster"))
		fprintf(stderr, "a clock below the range: %s: %s\n", r.first, uncore_health_advice(UNCORE_HEALTH_CLOCK));
	CU_ASSERT(!strstr(r.first, "faster") && !strstr(uncore_health_advice(UNCORE_HEALTH_CLOCK), "faster"));
}

/* The iMC's free-running counters and the general counters of the same traffic or clock: ICX's DDR reads and
 * writes against its channels' CAS counts, ICX's and SPR/EMR's DCLK against the channels' (Linux
 * icx_imc_freerunning, spr_imc_freerunning; their events: Intel's JSON). */
static const char *const imc_twins[] = { "UNC_M_CAS_COUNT.RD", "UNC_M_CAS_COUNT_FREERUN.RD", "UNC_M_CAS_COUNT.WR",
					 "UNC_M_CAS_COUNT_FREERUN.WR", "UNC_M_CLOCKTICKS", "UNC_M_CLOCKTICKS_FREERUN",
					 "UNC_M_DCLK_FREERUN", NULL };

/* A controller whose free-running counters count half (fault frhalf) raises twin on the box that holds them,
 * alone, on both backends; with the twins counted, a clean run (a minute at 1 s reads, then at 100 Hz) raises
 * nothing. */
static void test_imc_twins(void)
{
	const char *p, *desc;
	char names[256] = "";
	for (int i = 0; uncore_sim_platform(i, &p, &desc) == 0; i++) {
		char plain[64], f[64];
		snprintf(plain, sizeof(plain), "sim:%s,clock=manual", p);
		uncore_t *u = open_sim(plain);
		int fr = uncore_event_find(u, "UNC_M_CAS_COUNT_FREERUN.RD") >= 0 || uncore_event_find(u, "UNC_M_DCLK_FREERUN") >= 0;
		const struct sim *sim = sim_of(u->acc);
		int box = -1;
		for (int b = 0; b < sim->nboxes; b++) /* the second controller's, where there are two */
			if (!strcmp(sim->boxes[b].u->name, "imc") && sim->boxes[b].nfr && !sim->boxes[b].socket &&
			    sim->boxes[b].idx > 0 && (box < 0 || sim->boxes[b].idx < box))
				box = sim->boxes[b].idx;
		uncore_close(u);
		if (!fr || box < 0)
			continue;
		snprintf(f, sizeof(f), "frhalf:imc:%d", box);
		for (int be = 0; be < 2; be++) {
			const char *backend = be ? "perf+sim" : "sim";
			char spec[128];
			struct run r;
			CU_ASSERT(fault_case(backend, p, f, "imc", box, UNCORE_HEALTH_TWIN, imc_twins, NULL));
			snprintf(spec, sizeof(spec), "%s:%s,clock=manual", backend, p);
			int ok = !run_backend(spec, NULL, -1, imc_twins, 1000000000ull, 60, &r);
			for (int k = 0; ok && k < UNCORE_HEALTH_KINDS; k++)
				ok = !r.raised[k];
			struct run fast;
			ok = ok && !run_backend(spec, NULL, -1, imc_twins, 10000000ull, 1000, &fast);
			for (int k = 0; ok && k < UNCORE_HEALTH_KINDS; k++)
				ok = !fast.raised[k];
			if (!ok)
				fprintf(stderr, "%s with the iMC twins: a clean run raised %s%s\n", spec, r.first, fast.first);
			CU_ASSERT(ok);
		}
		snprintf(names + strlen(names), sizeof(names) - strlen(names), " %s", p);
	}
	printf("iMC twins:%s\n", names);
	CU_ASSERT(strstr(names, " icx") && strstr(names, " spr") && strstr(names, " emr"));
}

/* A memory channel firmware hid (its PCI function gone, its discovery entry empty): nothing of the box is
 * there to look at, but the node's counts fall short of what resctrl saw (all the traffic on socket 0, so
 * that one channel of twelve shows). */
static void test_resctrl(void)
{
	const char *path = "test_health_profile.txt";
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "socket1.mem_read_bytes_per_s = 0\nsocket1.mem_write_bytes_per_s = 0\n");
	fclose(f);
	const char *p, *desc;
	int cases = 0;
	for (int i = 0; uncore_sim_platform(i, &p, &desc) == 0; i++) {
		char plain[64], spec[256];
		struct run r;
		snprintf(plain, sizeof(plain), "sim:%s", p);
		uncore_t *u = open_sim(plain);
		int imc = unit_boxes(u, "imc", 0), sockets = uncore_num_sockets(u), mem = uncore_metric_find(u, "mem_read_bytes") >= 0;
		uncore_close(u);
		snprintf(spec, sizeof(spec), "sim:%s,fault=missing:imc:1", p);
		if (imc < 2 || sockets < 2 || !mem || uncore_open(spec, &u)) /* dmr: no memory metric to hold against resctrl */
			continue;
		int hidden = unit_boxes(u, "imc", 0) < imc;
		uncore_close(u);
		if (!hidden) { /* PCI, MSR and MMIO channels alike (issue 50) */
			fprintf(stderr, "%s: no channel hidden\n", spec);
			CU_FAIL("missing:imc:1 accepted, nothing hidden");
			continue;
		}
		snprintf(spec, sizeof(spec), "sim:%s,clock=manual,profile=%s,fault=missing:imc:1", p, path);
		CU_ASSERT(!run_backend(spec, NULL, -1, NULL, 1000000000ull, 10, &r) && only(spec, &r, UNCORE_HEALTH_RESCTRL, 0));
		snprintf(spec, sizeof(spec), "sim:%s,clock=manual,profile=%s", p, path);
		CU_ASSERT(!run_backend(spec, NULL, -1, NULL, 1000000000ull, 10, &r) && !r.raised[UNCORE_HEALTH_RESCTRL]);
		cases++;
	}
	printf("resctrl: %d platforms\n", cases);
	CU_ASSERT(cases >= 10);
	remove(path);
}

/* Does u have a box of type t, socket and number idx? */
static int has_box(const uncore_t *u, const char *t, int socket, int idx)
{
	for (int i = 0; i < u->nboxes; i++)
		if (!strcmp(u->boxes[i].t->name, t) && u->boxes[i].socket == socket && u->boxes[i].idx == idx)
			return 1;
	return 0;
}

/* An event of unit t to count on each of its boxes: its clock where it has one, else its first general event
 * that needs no filter value; NULL when it has neither. */
static const char *unit_event(uncore_t *u, const char *t)
{
	const char *first = NULL;
	for (int i = 0; i < uncore_num_events(u); i++) {
		struct uncore_event_info e;
		if (uncore_event_info(u, i, &e) || strcmp(e.unit, t) || e.freerun || !e.counter_mask || e.filters[0])
			continue;
		if (strstr(e.name, "CLOCKTICKS"))
			return e.name;
		first = first ? first : e.name;
	}
	return first;
}

/* The boxes of unit t on the socket that carry memory traffic: every box but the iMC channels the board's
 * population leaves empty or that are no channel (sim_dimms.c: the simulator moves nothing there). */
static int carrying(uncore_t *u, const char *t, int sock)
{
	int unit = uncore_unit_find(u, t), n = 0;
	for (int k = 0; unit >= 0 && k < uncore_unit_boxes(u, unit, sock); k++) {
		struct uncore_channel ch;
		n += strcmp(t, "imc") || uncore_memory_channel(u, sock, uncore_box_number(u, unit, sock, k), &ch) ||
		     (ch.state != UNCORE_CHAN_EMPTY && ch.state != UNCORE_CHAN_NONE);
	}
	return n;
}

/* Unit t's event ev on each of its boxes in f, counted for a simulated second on the clean machine
 * (backend:p) and on f's (spec): each box counts what it counts on the clean machine, the hidden one's share
 * of the memory traffic (of the populated channels') is missing from mem_read_bytes, not spread over the others. */
static void missing_counts(const char *backend, const char *p, const char *spec, uncore_t *f, const char *t)
{
	char clean[64], e[400];
	const char *ev = unit_event(f, t);
	uncore_session_t *ss[2] = { NULL, NULL };
	uncore_t *us[2] = { NULL, f };
	int n = 0, box[UC_MAX_SOCKETS * 64][2], m[2];
	snprintf(clean, sizeof(clean), "%s:%s,clock=manual", backend, p);
	us[0] = open_sim(clean);
	for (int k = 0; k < 2; k++) {
		CU_ASSERT_FATAL(uncore_session_new(us[k], &ss[k]) == 0);
		m[k] = uncore_session_add_metric(ss[k], "mem_read_bytes");
	}
	for (int i = 0; ev && i < f->nboxes && n < UC_MAX_SOCKETS * 64; i++) {
		const struct box *b = &f->boxes[i];
		if (strcmp(b->t->name, t))
			continue;
		snprintf(e, sizeof(e), "%s:socket=%d:box=%d", ev, b->socket, b->idx);
		box[n][0] = uncore_session_add(ss[0], e);
		box[n][1] = uncore_session_add(ss[1], e);
		CU_ASSERT(box[n][0] >= 0 && box[n][1] >= 0);
		n++;
	}
	for (int k = 0; k < 2 && (n || m[0] >= 0); k++) {
		int rc = uncore_session_start(ss[k]);
		if (rc)
			fprintf(stderr, "%s: %s\n", k ? spec : clean, uncore_error());
		CU_ASSERT_FATAL(rc == 0);
		uncore_sleep_ns(us[k], 1000000000ull);
		CU_ASSERT(uncore_session_read(ss[k]) == 0);
	}
	for (int j = 0; j < n; j++) {
		uint64_t v[2] = { 0, 0 };
		CU_ASSERT(box[j][0] < 0 || uncore_session_value(ss[0], box[j][0], -1, -1, &v[0]) == 0);
		CU_ASSERT(box[j][1] < 0 || uncore_session_value(ss[1], box[j][1], -1, -1, &v[1]) == 0);
		snprintf(e, sizeof(e), "%s: %s", spec, uncore_session_event_name(ss[1], box[j][1]));
		check_truth(e, (double)v[1], (double)v[0]);
	}
	for (int sock = 0; m[0] >= 0 && m[1] >= 0 && sock < uncore_num_sockets(f); sock++) {
		struct uncore_metric_info mi;
		struct uncore_unit_info ui;
		double v[2];
		if (uncore_metric_info(f, uncore_metric_find(f, "mem_read_bytes"), &mi) || uncore_unit_info(f, mi.box_unit, &ui) ||
		    strcmp(ui.name, t) || uncore_session_metric_value(ss[0], m[0], sock, -1, UNCORE_SINCE_START, &v[0]) ||
		    uncore_session_metric_value(ss[1], m[1], sock, -1, UNCORE_SINCE_START, &v[1]))
			continue;
		snprintf(e, sizeof(e), "%s: mem_read_bytes of socket %d, %d of %d channels", spec, sock,
			 carrying(f, t, sock), carrying(us[0], t, sock));
		check_truth(e, v[1], v[0] * carrying(f, t, sock) / carrying(us[0], t, sock));
	}
	for (int k = 0; k < 2; k++)
		uncore_session_free(ss[k]);
	uncore_close(us[0]);
}

/* missing:UNIT:IDX on box idx of sim unit su: the library no longer finds that box (on every socket), finds
 * every other, and they count as on the clean machine; refused, naming the fault and platform, where no
 * PCI function or discovery entry lists the box.  1 when hidden, 0 when refused. */
static int missing_case(const char *backend, const char *p, const char *su, int idx)
{
	char clean[64], spec[160];
	uncore_t *u, *f = NULL;
	snprintf(clean, sizeof(clean), "%s:%s,clock=manual", backend, p);
	u = open_sim(clean);
	const struct sim *sim = sim_of(u->acc);
	int listed = 0;
	for (int i = 0; i < sim->nboxes; i++) {
		const struct sim_box *b = &sim->boxes[i];
		if (strcmp(b->u->name, su) || b->idx != idx)
			continue;
		listed |= b->disc_entry >= 0;
		for (int d = 0; d < sim->ndevs; d++)
			listed |= sim->devs[d].box == b;
	}
	snprintf(spec, sizeof(spec), "%s:%s,clock=manual,fault=missing:%s:%d", backend, p, su, idx);
	if (uncore_open(spec, &f)) {
		char want[64];
		snprintf(want, sizeof(want), "missing:%s:%d on sim:%s", su, idx, p);
		if (listed || !strstr(uncore_error(), want))
			fprintf(stderr, "%s: refused (%s)\n", spec, uncore_error());
		CU_ASSERT(!listed && strstr(uncore_error(), want) != NULL);
		uncore_close(u);
		return 0;
	}
	CU_ASSERT(listed);
	int gone = 0, bad = 0;
	const char *t = NULL;
	for (int i = 0; i < u->nboxes; i++) {
		const struct box *b = &u->boxes[i];
		if (has_box(f, b->t->name, b->socket, b->idx))
			continue;
		bad |= b->idx != idx || (t && strcmp(t, b->t->name));
		t = b->t->name;
		gone++;
	}
	if (!gone || bad || f->nboxes != u->nboxes - gone)
		fprintf(stderr, "%s: %d boxes of %d left out (%s)\n", spec, gone, u->nboxes, bad ? "others too" : "");
	CU_ASSERT(gone > 0 && !bad && f->nboxes == u->nboxes - gone);
	char unit[64]; /* (the name is u's, which closes here: generic's unit names live in its arena) */
	snprintf(unit, sizeof(unit), "%s", t ? t : "");
	uncore_close(u);
	if (t && !bad)
		missing_counts(backend, p, spec, f, unit);
	uncore_close(f);
	return 1;
}

/* missing on one box of every unit of every platform, both backends: hidden where firmware could hide it,
 * refused by name where not, nothing else changed. */
static void test_missing(void)
{
	const char *p, *desc;
	int hidden = 0, refused = 0;
	for (int i = 0; uncore_sim_platform(i, &p, &desc) == 0; i++)
		for (int be = 0; be < 2; be++) {
			const char *backend = be ? "perf+sim" : "sim";
			char clean[64];
			uncore_t *u;
			snprintf(clean, sizeof(clean), "%s:%s", backend, p);
			if (uncore_open(clean, &u))
				continue; /* no simulated kernel of p */
			const struct sim *sim = sim_of(u->acc);
			char done[64][16];
			int nd = 0;
			for (int b = 0; b < sim->nboxes && nd < 64; b++) { /* each unit: its second box, or its only one */
				const struct sim_box *x = &sim->boxes[b];
				int k = 0, second = -1;
				while (k < nd && strcmp(done[k], x->u->name))
					k++;
				if (k < nd || x->socket)
					continue;
				for (int c = b + 1; c < sim->nboxes && second < 0; c++)
					if (sim->boxes[c].u == x->u && !sim->boxes[c].socket)
						second = sim->boxes[c].idx;
				snprintf(done[nd++], sizeof(done[0]), "%s", x->u->name);
				*(missing_case(backend, p, x->u->name, second >= 0 ? second : x->idx) ? &hidden : &refused) += 1;
			}
			uncore_close(u);
		}
	printf("missing: %d units hidden, %d refused\n", hidden, refused);
	CU_ASSERT(hidden >= 100 && refused >= 20);
}

/* Raised once and cleared once: a box that reads all ones for a while and then recovers; the values it
 * makes wrong are named while it stands, and no others. */
static void test_raise_clear(void)
{
	uncore_t *u = open_sim("sim:snbep,clock=manual,fault=allones:imc:1@3");
	uncore_session_t *s;
	struct uncore_health h[8];
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	int rd = uncore_session_add(s, "UNC_M_CAS_COUNT.RD");
	int lk = uncore_session_add(s, "UNC_C_LLC_LOOKUP.DATA_READ");
	CU_ASSERT_FATAL(rd >= 0 && lk >= 0 && uncore_session_start(s) == 0);
	int raised = 0, cleared = 0, standing = 0;
	for (int i = 0; i < 10; i++) {
		uncore_sleep_ns(u, 1000000000ull);
		if (i == 6) { /* the device is back */
			struct sim *sim = sim_of(u->acc);
			for (int b = 0; b < sim->nboxes; b++)
				if (!strcmp(sim->boxes[b].u->name, "imc"))
					sim->boxes[b].allones = 0;
		}
		uncore_session_read(s);
		int n = uncore_session_health_changes(s, h, 8);
		for (int j = 0; j < n; j++)
			*(h[j].raised ? &raised : &cleared) += 1;
		if (uncore_session_health(s, h, 8) == 2) { /* imc 1 of each socket */
			standing++;
			CU_ASSERT(uncore_session_event_health(s, rd, 0, 1) == 1u << UNCORE_HEALTH_ALLONES);
			CU_ASSERT(uncore_session_event_health(s, rd, 1, -1) == 1u << UNCORE_HEALTH_ALLONES);
			CU_ASSERT(uncore_session_event_health(s, rd, -1, -1) == 1u << UNCORE_HEALTH_ALLONES);
			CU_ASSERT(uncore_session_event_health(s, rd, 0, 0) == 0);
			CU_ASSERT(uncore_session_event_health(s, lk, 0, -1) == 0);
		}
	}
	CU_ASSERT(raised == 2 && cleared == 2);
	CU_ASSERT(standing >= 3);
	uncore_session_free(s);
	uncore_close(u);
}

/* No condition at all (the faults health cannot see: doc/health.md), the read failing or not as said. */
static int silent_case(const char *spec, int fails)
{
	struct run r;
	if (run_backend(spec, NULL, -1, NULL, 1000000000ull, 20, &r))
		return 0;
	int ok = (fails ? r.fails > 0 : r.fails == 0);
	for (int k = 0; k < UNCORE_HEALTH_KINDS; k++)
		ok = ok && !r.raised[k];
	if (!ok)
		fprintf(stderr, "%s: expected no condition and %s; %d reads failed, first raised: %s\n", spec,
			fails ? "failed reads" : "every read", r.fails, r.first[0] ? r.first : "none");
	return ok;
}

/* The faults that are not health's to see raise nothing on every platform they apply to: a box failing with
 * EIO or EACCES mid-run fails the read, which names it (no condition on top); a CBo/CHA ignoring its thread
 * filter changes no socket total; swapped bus maps swap the sockets' memory, which only traffic of known
 * origin tells (uncore check). */
static void test_faults_not_health(void)
{
	const char *p, *desc;
	int cases = 0;
	for (int i = 0; uncore_sim_platform(i, &p, &desc) == 0; i++) {
		char spec[160], plain[64];
		snprintf(plain, sizeof(plain), "sim:%s", p);
		uncore_t *u = open_sim(plain);
		int imc = unit_boxes(u, "imc", 0), cha = unit_boxes(u, "cha", 0), cbo = unit_boxes(u, "cbo", 0);
		uncore_close(u);
		if (imc >= 2)
			for (int e = 0; e < 2; e++) {
				snprintf(spec, sizeof(spec), "sim:%s,clock=manual,fault=%s:imc:1@5", p, e ? "eacces" : "eio");
				CU_ASSERT(silent_case(spec, 1));
				cases++;
			}
		if (cha >= 2 || (cbo >= 2 && strcmp(p, "dmr"))) { /* DMR's CBO has no thread-id filter (66e2075426f3) */
			snprintf(spec, sizeof(spec), "sim:%s,clock=manual,fault=tidless:%s", p, cha >= 2 ? "cha" : "cbo");
			CU_ASSERT(silent_case(spec, 0));
			cases++;
		}
		if (!strcmp(p, "snbep") || !strcmp(p, "ivbep") || !strcmp(p, "hsx") || !strcmp(p, "bdx")) {
			snprintf(spec, sizeof(spec), "sim:%s,clock=manual,fault=swapped:busmap", p);
			CU_ASSERT(silent_case(spec, 0));
			cases++;
		}
	}
	CU_ASSERT(cases >= 30);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "the uncore clock pinned by the BIOS and a clock outside its limits raise uclkpinned, uclklimits", test_uclk },
		{ "a clean simulated hour raises nothing", test_clean_hour },
		{ "each fault raises its condition alone", test_faults },
		{ "the faults health cannot see raise nothing", test_faults_not_health },
		{ "a hidden channel falls short of resctrl", test_resctrl },
		{ "a clock just outside the platform's range raises clock, at its edges nothing", test_clock_ranges },
		{ "a clock below the range is said to be below it, not faster", test_clock_below_words },
		{ "an iMC's free-running counters against their general twins", test_imc_twins },
		{ "raised once, cleared once", test_raise_clear },
		{ "missing hides a unit firmware could hide, the others count as before; refused where not", test_missing },
		{ NULL, NULL },
	};
	return run_suite("health", tests);
}
