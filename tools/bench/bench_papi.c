/*
 * PAPI-side costs of the intel_uncore component (run by tools/bench/bench_papi.sh):
 * PAPI_library_init with and without the component (the difference is its
 * init time), and walking every native event and qualifier through the API
 * as papi_native_avail does.  Medians of repeated runs, in milliseconds.
 */
#define _POSIX_C_SOURCE 200809L
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RUNS 15

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double init_ms(int with_component)
{
	double t[RUNS];
	for (int i = 0; i < RUNS; i++) {
		if (!with_component)
			PAPI_disable_component_by_name("intel_uncore");
		double t0 = now_ms();
		if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT) {
			fprintf(stderr, "PAPI_library_init failed\n");
			exit(1);
		}
		t[i] = now_ms() - t0;
		PAPI_shutdown();
	}
	qsort(t, RUNS, sizeof(t[0]), cmp);
	return t[RUNS / 2];
}

int main(void)
{
	double with = init_ms(1); /* first: a component disabled by name stays disabled after PAPI_shutdown */
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT)
		return 1;
	int cidx = PAPI_get_component_index("intel_uncore");
	if (cidx < 0 || PAPI_get_component_info(cidx)->disabled) {
		fprintf(stderr, "intel_uncore is not active: %s\n",
			cidx < 0 ? "not compiled in" : PAPI_get_component_info(cidx)->disabled_reason);
		return 1;
	}
	const PAPI_component_info_t *ci = PAPI_get_component_info(cidx);
	double t0 = now_ms();
	int code = PAPI_NATIVE_MASK, names = 0;
	PAPI_event_info_t info;
	for (int r = PAPI_enum_cmp_event(&code, PAPI_ENUM_FIRST, cidx); r == PAPI_OK;
	     r = PAPI_enum_cmp_event(&code, PAPI_ENUM_EVENTS, cidx)) {
		int v = code;
		PAPI_get_event_info(code, &info);
		names++;
		for (int q = PAPI_enum_cmp_event(&v, PAPI_NTV_ENUM_UMASKS, cidx); q == PAPI_OK;
		     q = PAPI_enum_cmp_event(&v, PAPI_NTV_ENUM_UMASKS, cidx)) {
			PAPI_get_event_info(v, &info);
			names++;
		}
	}
	double walk = now_ms() - t0;
	char desc[PAPI_MAX_STR_LEN];
	snprintf(desc, sizeof(desc), "%s", ci->description);
	int nnative = ci->num_native_events;
	PAPI_shutdown();
	double without = init_ms(0);
	printf("intel_uncore (%s): PAPI_library_init %.2f ms with the component, %.2f ms without: "
	       "component init %.2f ms\n", desc, with, without, with - without);
	printf("intel_uncore: walking %d events and %d names with their info through the API: %.1f ms\n",
	       nnative, names, walk);
	return 0;
}
