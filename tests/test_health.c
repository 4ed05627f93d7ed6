/* Health on every read: each simulator fault raises its condition and nothing else, on every platform it
 * applies to, on both backends where the fault reaches the counts; a clean simulated hour raises none. */
#include <math.h>
#include <string.h>
#include "sim_helpers.h"

#define MAXC 512

struct run {
	int raised[UNCORE_HEALTH_KINDS]; /* conditions raised over the run, per kind */
	int cleared;
	int at_box;                      /* ... of which on the faulted box (socket 0) */
	char first[300];                 /* the first raised, for messages */
	int reads, fails;
};

static int unit_boxes(uncore_t *u, const char *unit, int socket)
{
	for (int i = 0; i < uncore_num_units(u); i++) {
		struct uncore_unit_info ui;
		if (!uncore_unit_info(u, i, &ui) && !strcmp(ui.name, unit))
			return uncore_unit_boxes(u, i, socket);
	}
	return 0;
}

/* The unit uncore_freq is counted on ("cha", "cbo"), or NULL. */
static const char *clock_unit(uncore_t *u)
{
	struct uncore_metric_info mi;
	struct uncore_unit_info ui;
	int m = uncore_metric_find(u, "uncore_freq");
	if (m < 0 || uncore_metric_info(u, m, &mi) || mi.box_unit < 0 || uncore_unit_info(u, mi.box_unit, &ui))
		return NULL;
	static char name[16];
	snprintf(name, sizeof(name), "%s", ui.name);
	return name;
}

/* The IIO port counters, general and free-running, of every port. */
static void add_ports(uncore_session_t *s)
{
	char spec[80];
	for (int port = 0; port < 8; port++) {
		snprintf(spec, sizeof(spec), "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART%d", port);
		uncore_session_add(s, spec);
		snprintf(spec, sizeof(spec), "UNC_IIO_BANDWIDTH_IN.PART%d_FREERUN", port);
		uncore_session_add(s, spec);
	}
}

/* The default set (and the IIO ports' twins when asked), read every step_ns for n reads. */
static int run_backend(const char *spec, const char *unit, int box, int ports, uint64_t step_ns, int n, struct run *r)
{
	uncore_t *u = NULL;
	uncore_session_t *s = NULL;
	struct uncore_series *series = NULL;
	struct uncore_selection sel = { 0 };
	struct uncore_health ch[MAXC];
	char notice[512];
	int ns;
	memset(r, 0, sizeof(*r));
	if (uncore_open(spec, &u)) {
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
		return -1;
	}
	if (uncore_session_new(u, &s) || uncore_select(u, s, &sel, &series, &ns, notice, sizeof(notice)) ||
	    (ports && (add_ports(s), 0)) || uncore_session_start(s)) {
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
		free(series);
		uncore_session_free(s);
		uncore_close(u);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		uncore_sleep_ns(u, step_ns);
		if (uncore_session_read(s))
			r->fails++;
		r->reads++;
		int k = uncore_session_health_changes(s, ch, MAXC);
		for (int j = 0; j < k && j < MAXC; j++) {
			if (!ch[j].raised) {
				r->cleared++;
				continue;
			}
			r->raised[ch[j].kind]++;
			if (!r->first[0])
				snprintf(r->first, sizeof(r->first), "%s: %s", uncore_health_name(ch[j].kind), ch[j].what);
			if (unit && ch[j].socket == 0 && ch[j].box == box && !strcmp(ch[j].unit, unit))
				r->at_box++;
		}
	}
	free(series);
	uncore_session_free(s);
	uncore_close(u);
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
		      int ports, const char *extra)
{
	char spec[256];
	struct run r;
	snprintf(spec, sizeof(spec), "%s:%s,clock=manual,fault=%s%s", backend, p, fault, extra ? extra : "");
	if (run_backend(spec, unit, box, ports, 1000000000ull, 40, &r))
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
			int ok = !run_backend(spec, NULL, -1, 0, 5000000000ull, 720, &r);
			for (int k = 0; ok && k < UNCORE_HEALTH_KINDS; k++)
				ok = !r.raised[k];
			struct run fast;
			ok = ok && !run_backend(spec, NULL, -1, 0, 10000000ull, 6000, &fast);
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
		uncore_close(u);
		if (imc >= 2) {
			CU_ASSERT(fault_case("sim", p, "dead:imc:1", "imc", 1, UNCORE_HEALTH_STOPPED, 0, NULL));
			CU_ASSERT(fault_case("sim", p, "stuck:imc:1", "imc", 1, UNCORE_HEALTH_STOPPED, 0, NULL));
			CU_ASSERT(fault_case("sim", p, "phantom:imc:1", "imc", 1, UNCORE_HEALTH_BANDWIDTH, 0, NULL));
			CU_ASSERT(fault_case("sim", p, "allones:imc:1@5", "imc", 1, UNCORE_HEALTH_ALLONES, 0, NULL));
			CU_ASSERT(fault_case("sim", p, "narrow:imc:1", "imc", 1, UNCORE_HEALTH_WIDTH, 0, ",prewrap=5"));
			CU_ASSERT(fault_case("sim", p, "agent:imc:1@5", "imc", 1, UNCORE_HEALTH_TAKEN, 0, NULL));
			CU_ASSERT(fault_case("perf+sim", p, "dead:imc:1", "imc", 1, UNCORE_HEALTH_STOPPED, 0, NULL));
			CU_ASSERT(fault_case("perf+sim", p, "phantom:imc:1", "imc", 1, UNCORE_HEALTH_BANDWIDTH, 0, NULL));
			cases += 8;
		}
		if (!strcmp(p, "gnr") || !strcmp(p, "srf") || !strcmp(p, "cwf")) {
			CU_ASSERT(fault_case("sim", p, "onesched:imc:1", "imc", 1, UNCORE_HEALTH_SILENT, 0, NULL));
			cases++;
		}
		if (clkunit[0] && unit_boxes(u = open_sim(plain), clkunit, 0) >= 2) {
			char f[64];
			snprintf(f, sizeof(f), "phantom:%s:1", clkunit);
			CU_ASSERT(fault_case("sim", p, f, clkunit, 1, UNCORE_HEALTH_CLOCK, 0, NULL));
			cases++;
		}
		if (clkunit[0])
			uncore_close(u);
		if (fr && iio >= 2) {
			CU_ASSERT(fault_case("sim", p, "portmap:iio:1", "iio", 1, UNCORE_HEALTH_TWIN, 1, NULL));
			cases++;
		}
	}
	CU_ASSERT(cases > 100);
}

/* A memory channel whose device is hidden: nothing of the box is there to look at, but the node's
 * counts fall short of what resctrl saw (all the traffic on socket 0, so that one channel of twelve shows). */
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
		int imc = unit_boxes(u, "imc", 0), sockets = uncore_num_sockets(u);
		uncore_close(u);
		snprintf(spec, sizeof(spec), "sim:%s,fault=missing:imc:1", p);
		if (imc < 2 || sockets < 2 || uncore_open(spec, &u))
			continue;
		int hidden = unit_boxes(u, "imc", 0) < imc;
		uncore_close(u);
		if (!hidden) /* MSR and MMIO channels: the fault hides nothing there (issue 50) */
			continue;
		snprintf(spec, sizeof(spec), "sim:%s,clock=manual,profile=%s,fault=missing:imc:1", p, path);
		CU_ASSERT(!run_backend(spec, NULL, -1, 0, 1000000000ull, 10, &r) && only(spec, &r, UNCORE_HEALTH_RESCTRL, 0));
		snprintf(spec, sizeof(spec), "sim:%s,clock=manual,profile=%s", p, path);
		CU_ASSERT(!run_backend(spec, NULL, -1, 0, 1000000000ull, 10, &r) && !r.raised[UNCORE_HEALTH_RESCTRL]);
		cases++;
	}
	CU_ASSERT(cases >= 3);
	remove(path);
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
	if (run_backend(spec, NULL, -1, 0, 1000000000ull, 20, &r))
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
		if (cha >= 2 || cbo >= 2) {
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
		{ "a clean simulated hour raises nothing", test_clean_hour },
		{ "each fault raises its condition alone", test_faults },
		{ "the faults health cannot see raise nothing", test_faults_not_health },
		{ "a hidden channel falls short of resctrl", test_resctrl },
		{ "raised once, cleared once", test_raise_clear },
		{ NULL, NULL },
	};
	return run_suite("health", tests);
}
