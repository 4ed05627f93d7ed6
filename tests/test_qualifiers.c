/*
 * The qualifiers the library lists for an event: their ranges match the manuals' control-register
 * tables, every one listed is accepted by the spec parser (with the value it is listed with, and at
 * the top of its range), what an event needs is refused by name when missing, and no qualifier may
 * be given twice.
 */
#include <string.h>
#include "harness.h"
#include "open/uncore_priv.h"


/* The simulator of a platform, by name. */
static uncore_t *open_sim(const char *plat)
{
	uncore_t *u = NULL;
	char backend[32];
	/* a Sapphire Rapids with HBM (Xeon Max), so that its HBM channels' events have boxes, as test_papi does */
	snprintf(backend, sizeof(backend), "sim:%s%s", plat, strcmp(plat, "spr") ? "" : ",hbm=1");
	if (uncore_open(backend, &u))
		fprintf(stderr, "FAIL %s: %s\n", backend, uncore_error());
	return u;
}

static int find_qual(uncore_t *u, const char *event, const char *name, struct uncore_qualifier *out)
{
	struct uncore_qualifier q[32];
	int ev = uncore_event_find(u, event), n;
	CU_ASSERT_FATAL(ev >= 0);
	n = uncore_event_qualifiers(u, ev, q, 32);
	for (int i = 0; i < n && i < 32; i++)
		if (!strcmp(q[i].name, name)) {
			*out = q[i];
			return 1;
		}
	return 0;
}

static void expect_range(const char *plat, const char *event, const char *name, unsigned long long max)
{
	uncore_t *u = open_sim(plat);
	struct uncore_qualifier q;
	CU_ASSERT_FATAL(u != NULL);
	int found = find_qual(u, event, name, &q);
	int ok = max == 0 ? !found : found && q.max == max && q.min == !strcmp(name, "sample");
	if (!ok)
		fprintf(stderr, "FAIL %s %s: %s %s (max %#llx, want %s %#llx)\n", plat, event, name,
			found ? "listed" : "not listed", found ? q.max : 0, max ? "listed with" : "not listed", max);
	CU_ASSERT(ok);
	uncore_close(u);
}

/* Ranges and presence from the manuals' tables, not from the library's layouts: 0 = must not be offered. */
static void test_ranges_from_the_manuals(void)
{
	expect_range("snbep", "UNC_U_LOCK_CYCLES", "thresh", 31);      /* 327043 Table 2-2: thresh 28:24 */
	expect_range("snbep", "UNC_P_CLOCKTICKS", "thresh", 31);       /* Table 2-75: thresh 28:24 */
	expect_range("snbep", "UNC_P_CLOCKTICKS", "occ_inv", 1);       /* Table 2-75: occ_invert 30 */
	expect_range("snbep", "UNC_C_CLOCKTICKS", "thresh", 255);      /* Table 2-10: thresh 31:24 */
	expect_range("snbep", "UNC_C_CLOCKTICKS", "tid", 31);          /* Table 2-12: tid 4:0 */
	expect_range("snbep", "UNC_M_CAS_COUNT.RD", "inv", 1);         /* Table 2-61: invert 23 */
	expect_range("snbep", "UNC_M_CAS_COUNT.RD", "sample", 0);      /* no status register documented */
	expect_range("ivbep", "UNC_M_CAS_COUNT.RD", "inv", 0);         /* no invert bit (Linux IVBEP raw masks) */
	expect_range("ivbep", "UNC_C_CLOCKTICKS", "inv", 0);
	expect_range("ivbep", "UNC_M_CAS_COUNT.RD", "sample", (1ull << 48) - 1); /* 48-bit counter, status 0xF8 */
	expect_range("emr", "UNC_IIO_CLOCKTICKS", "thresh", 4095);     /* 817509 Table 2-184: thresh 35:24 */
	expect_range("emr", "UNC_P_CLOCKTICKS", "occ_inv", 0);         /* Table 1-5 has no occupancy bits */
	expect_range("emr", "UNC_P_CLOCKTICKS", "thresh", 255);
	expect_range("emr", "UNC_CHA_CLOCKTICKS", "tid", 1023);        /* Table 2-75: tid 9:0 */
	expect_range("emr", "UNC_CXLCM_CLOCKTICKS", "sample", 0);      /* CXL CM sends no overflow (L14329) */
	expect_range("emr", "UNC_M_FIXED_DCLK", "thresh", 0);           /* a fixed counter has no control fields */
	expect_range("emr", "UNC_U_UCLK", "edge", 0);
	expect_range("nhm", "UNC_QMC_NORMAL_READS.ANY", "thresh", 255); /* cmask 31:24 */
	expect_range("montecito", "CPU_OP_CYCLES", "thresh", 7);       /* 308065 Table 3-6: threshold 22:20 */
	expect_range("montecito", "CPU_OP_CYCLES", "edge", 0);         /* PMC has no edge or invert bit */
	expect_range("montecito", "CPU_OP_CYCLES", "inv", 0);
}

/* The spec that gives qualifier k its listed value (and every required one its lowest). */
static void spec_with(const char *event, const struct uncore_qualifier *q, int n, int k, int at_max, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "%s", event);
	for (int i = 0; i < n && o < len; i++) {
		if (i != k && !q[i].required)
			continue;
		unsigned long long v = i == k && at_max ? q[i].max : q[i].has_default ? q[i].dflt : q[i].min;
		if (q[i].flag)
			o += (size_t)snprintf(buf + o, len - o, ":%s", q[i].name);
		else
			o += (size_t)snprintf(buf + o, len - o, ":%s=%llu", q[i].name, v);
	}
}

/* What PAPI's all_native_events does, for every event on every platform, in the library: each listed
 * qualifier is accepted; value qualifiers also at the top of their range and refused one above it. */
static void test_every_listed_qualifier_is_accepted(void)
{
	for (int p = 0; uc_platforms[p]; p++) {
		uncore_t *u = open_sim(uc_platforms[p]->name);
		char spec[512];
		int tried = 0, bad = 0;
		CU_ASSERT_FATAL(u != NULL);
		for (int ev = 0; ev < uncore_num_events(u); ev++) {
			struct uncore_event_info ei;
			struct uncore_qualifier q[32];
			struct encoded e;
			int n = uncore_event_qualifiers(u, ev, q, 32);
			CU_ASSERT_FATAL(n >= 2 && n <= 32 && uncore_event_info(u, ev, &ei) == 0);
			for (int k = 0; k < n; k++)
				for (int at_max = 0; at_max < 2; at_max++) {
					if (at_max && q[k].flag)
						continue; 
					spec_with(ei.name, q, n, k, at_max, spec, sizeof(spec));
					tried++;
					if (spec_parse(u, spec, &e)) {
						if (bad++ < 5)
							fprintf(stderr, "FAIL %s: '%s' refused: %s\n", uc_platforms[p]->name, spec, uncore_error());
						continue;
					}
					if (!at_max || q[k].max == ~0ull || !strcmp(q[k].name, "box") || !strcmp(q[k].name, "socket") ||
					    !strcmp(q[k].name, "cpu"))
						continue; /* one more box, socket or CPU is refused as absent, not out of range */
					char over[600];
					snprintf(over, sizeof(over), "%s:%s=%llu", ei.name, q[k].name, q[k].max + 1);
					if (!spec_parse(u, over, &e) || !strstr(uncore_error(), "out of range")) {
						if (bad++ < 5)
							fprintf(stderr, "FAIL %s: '%s' not refused as out of range\n", uc_platforms[p]->name, over);
					}
				}
		}
		printf("%s: %d qualified specs tried, %d wrong\n", uc_platforms[p]->name, tried, bad);
		CU_ASSERT(tried > uncore_num_events(u) * 2);
		CU_ASSERT_EQUAL(bad, 0);
		uncore_close(u);
	}
}

/* An event that counts nothing meaningful without a filter value says so in its list, and is
 * refused without it by a message that names the qualifier. */
static void test_required_qualifiers_are_named(void)
{
	int required = 0;
	for (int p = 0; uc_platforms[p]; p++) {
		uncore_t *u = open_sim(uc_platforms[p]->name);
		char want[64];
		CU_ASSERT_FATAL(u != NULL);
		for (int ev = 0; ev < uncore_num_events(u); ev++) {
			struct uncore_event_info ei;
			struct uncore_qualifier q[32];
			struct encoded e;
			int n = uncore_event_qualifiers(u, ev, q, 32), need = -1;
			uncore_event_info(u, ev, &ei);
			for (int k = 0; k < n && need < 0; k++)
				if (q[k].required)
					need = k;
			int rc = spec_parse(u, ei.name, &e);
			if (need < 0) {
				if (rc)
					fprintf(stderr, "FAIL %s: %s refused though it lists nothing required: %s\n", uc_platforms[p]->name,
						ei.name, uncore_error());
				CU_ASSERT(rc == 0);
				continue;
			}
			required++;
			snprintf(want, sizeof(want), "needs the '%s' qualifier", q[need].name);
			CU_ASSERT(rc < 0 && strstr(uncore_error(), want) != NULL);
		}
		uncore_close(u);
	}
	printf("%d events need a filter value\n", required);
	CU_ASSERT(required > 0);
}

static void expect_refused(uncore_t *u, const char *spec, const char *words)
{
	struct encoded e;
	int rc = spec_parse(u, spec, &e);
	if (!rc || !strstr(uncore_error(), words))
		fprintf(stderr, "FAIL '%s': %s (want '%s')\n", spec, rc ? uncore_error() : "accepted", words);
	CU_ASSERT(rc < 0 && strstr(uncore_error(), words) != NULL);
}

static void test_repeated_and_foreign_qualifiers(void)
{
	uncore_t *u = open_sim("snbep");
	CU_ASSERT_FATAL(u != NULL);
	expect_refused(u, "UNC_C_LLC_LOOKUP.DATA_READ:state=0x1:state=0x2", "'state' is given twice");
	expect_refused(u, "UNC_M_CAS_COUNT.RD:socket=0:socket=1", "'socket' is given twice");
	expect_refused(u, "UNC_M_CAS_COUNT.RD:edge:edge", "'edge' is given twice");
	expect_refused(u, "UNC_P_FREQ_BAND0_CYCLES:band0=1:band=2", "'band0' is given twice");
	expect_refused(u, "imc/event=4,event=5/", "'event' is given twice");
	expect_refused(u, "cbo/event=0x34,umask=3,umask=1/", "'umask' is given twice");
	expect_refused(u, "UNC_M_CLOCKTICKS:thresh=1", "fixed counter, which takes no 'thresh'");
	uncore_close(u);
	CU_ASSERT_FATAL((u = open_sim("emr")) != NULL);
	/* bit 30 is the threshold's on EMR: occ_inv would have set threshold 0x40 */
	expect_refused(u, "UNC_P_CLOCKTICKS:occ_inv", "has no such bit");
	expect_refused(u, "UNC_IIO_CLOCKTICKS:thresh=4096", "out of range (0..4095)");
	uncore_close(u);
	CU_ASSERT_FATAL((u = open_sim("ivbep")) != NULL);
	expect_refused(u, "UNC_M_CAS_COUNT.RD:inv", "has no such bit");
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "qualifier ranges match the manuals", test_ranges_from_the_manuals },
		{ "every listed qualifier is accepted, to the top of its range", test_every_listed_qualifier_is_accepted },
		{ "required filter values are listed and named when missing", test_required_qualifiers_are_named },
		{ "repeated qualifiers and fields a box lacks are refused", test_repeated_and_foreign_qualifiers },
		{ NULL, NULL },
	};
	return run_suite("qualifiers", tests);
}
