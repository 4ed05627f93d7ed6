/*
 * The attribution's rows (each platform's descriptor, platforms/<p>/platform.c .attrib), held against their sources instead of only being read:
 * each row's event is an event of the platform's catalog (Intel's JSON in eventtables/, through the generated
 * tables), on the unit whose filter has the tid field, and the row's tid width is that field's width, which
 * tests/test_linux_regs holds against Linux's *_FILTER_TID (field.tid rows); a core id needs every bit of it,
 * so a spec naming the widest tid counts.  Every platform with such a tid field and a TOR event has its row.
 */
#include "sim_helpers.h"
#include "jobs/jobs.h"

/* The width of the filter field tid of the unit named unit, 0 where it has none. */
static int tid_width(const struct platform_desc *p, const char *unit)
{
	const struct box_type *t = platform_type_named(p, unit);
	for (int i = 0; t && i < t->nfields; i++)
		if (!strcmp(t->fields[i].name, "tid"))
			return t->fields[i].width;
	return 0;
}

static void test_rows(void)
{
	int rows = 0;
	for (int k = 0; uc_platforms[k]; k++) {
		const struct platform_desc *pd = uc_platforms[k];
		const struct attrib_plat *a = attrib_plat_of(pd);
		char be[64], name[128], spec[192];
		int cbo = tid_width(pd, "cbo"), cha = tid_width(pd, "cha");
		if (!a) {
			/* no row: then no CBo/CHA tid filter to tell cores apart by (Nehalem, Montecito, DMR's named units) */
			if (cbo || cha)
				fprintf(stderr, "%s: a CBo/CHA tid filter (%d bits) but no attribution row\n", pd->name, cbo + cha);
			CU_ASSERT_EQUAL(cbo + cha, 0);
			continue;
		}
		rows++;
		snprintf(be, sizeof(be), "sim:%s", pd->name);
		uncore_t *u = open_sim(be);
		struct uncore_event_info ei;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(a->event, ":"), a->event);
		int ev = uncore_event_find(u, name);
		if (ev < 0 || uncore_event_info(u, ev, &ei)) {
			fprintf(stderr, "%s: the attribution's event %s is not in the catalog\n", pd->name, name);
			CU_FAIL("attribution event not in the catalog");
			uncore_close(u);
			continue;
		}
		int w = tid_width(pd, ei.unit);
		if (w != a->tid_bits || a->tid_core_lo >= a->tid_bits)
			fprintf(stderr, "%s: the attribution's tid is %d bits (core from bit %d), the %s filter's tid field %d\n",
				pd->name, a->tid_bits, a->tid_core_lo, ei.unit, w);
		CU_ASSERT_EQUAL(w, a->tid_bits);
		CU_ASSERT(a->tid_core_lo < a->tid_bits);
		/* the widest tid the row names cores by goes into a spec of its event */
		uncore_session_t *s;
		snprintf(spec, sizeof(spec), "%s:tid=0x%x", a->event, (1u << a->tid_bits) - 1);
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		int added = uncore_session_add(s, spec);
		if (added < 0)
			fprintf(stderr, "%s: %s: %s\n", pd->name, spec, uncore_error());
		CU_ASSERT(added == 0);
		uncore_session_free(s);
		uncore_close(u);
	}
	CU_ASSERT(rows >= 11);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "each attribution row's event and tid width are the platform's", test_rows },
		{ NULL, NULL },
	};
	return run_suite("attrib_rows", tests);
}
