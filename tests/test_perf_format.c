/*
 * The kernel's perf PMU format lines, parsed and scattered.  Expected words are worked by hand from
 * the format strings of the Linux uncore driver (uncore_snbep.c DEFINE_UNCORE_FORMAT_ATTR, as listed in
 * the project's notes) and the sysfs ABI's lowest-bit-first rule, e.g. event=0x102 on "config:0-7,21"
 * is config 0x200002.
 */
#include <string.h>
#include "harness.h"
#include "util/perf_format.h"
#include "uncore.h"

struct put_case {
	const char *name, *format;
	uint64_t value;
	int word;
	uint64_t want; /* the attr word after scattering value into 0 */
};

static const struct put_case puts_ok[] = {
	{ "event", "config:0-7\n", 0x04, 0, 0x04 },
	{ "event", "config:0-7,21", 0x102, 0, 0x200002 },           /* SNB-EP QPI ev_sel_ext */
	{ "umask", "config:8-15,32-55", 0x1234, 0, 0x1200003400ull }, /* SPR/EMR CHA umask_ext */
	{ "umask", "config:8-15,32-55", 0xc817fe01ull, 0, 0xc817fe00000100ull },
	{ "thresh", "config:24-28", 31, 0, 0x1f000000 },            /* SNB-EP UBox/PCU */
	{ "thresh", "config:24-35", 0xfff, 0, 0xfff000000ull },      /* EMR IIO */
	{ "ch_mask", "config:36-47", 0x1, 0, 1ull << 36 },
	{ "tid_en", "config:19", 1, 0, 1u << 19 },
	{ "filter_opc", "config1:23-31", 0x182, 1, 0x182ull << 23 },  /* SNB-EP CBo filter */
	{ "filter_nid", "config1:32-47", 0xffff, 1, 0xffffull << 32 }, /* IVB-EP */
	{ "mask0", "config2:0-31", 0xffffffffu, 2, 0xffffffffull },
	{ "occ_edge", "config:14-51", 1, 0, 1ull << 14 },            /* the kernel's own (odd) string, still parsed */
	{ "all", "config:0-63", ~0ull, 0, ~0ull },
};

static void test_scatter(void)
{
	for (size_t i = 0; i < sizeof(puts_ok) / sizeof(puts_ok[0]); i++) {
		const struct put_case *c = &puts_ok[i];
		struct perf_format f;
		uint64_t cfg[3] = { 0, 0, 0 };
		int rc = perf_format_parse(c->name, c->format, &f);
		if (!rc)
			rc = perf_format_put(c->name, &f, c->value, cfg);
		if (rc || f.word != c->word || cfg[c->word] != c->want)
			fprintf(stderr, "FAIL %s '%s' = 0x%llx: rc %d word %d got 0x%llx want 0x%llx (%s)\n", c->name, c->format,
				(unsigned long long)c->value, rc, f.word, (unsigned long long)cfg[c->word],
				(unsigned long long)c->want, rc ? uncore_error() : "");
		CU_ASSERT(rc == 0 && f.word == c->word && cfg[c->word] == c->want);
		for (int w = 0; w < 3; w++) /* nothing spills into another word */
			CU_ASSERT(w == c->word || cfg[w] == 0);
	}
}

static void test_widths_and_overflow(void)
{
	struct perf_format f;
	uint64_t cfg[3] = { 0, 0, 0 };
	CU_ASSERT_FATAL(perf_format_parse("umask", "config:8-15,32-55", &f) == 0);
	CU_ASSERT_EQUAL(perf_format_width(&f), 32);
	CU_ASSERT_EQUAL(perf_format_put("umask", &f, 1ull << 32, cfg), -1); /* bit 32 of the value has no home */
	CU_ASSERT(strstr(uncore_error(), "does not fit the kernel's 'umask' field (32 bits)") != NULL);
	CU_ASSERT_FATAL(perf_format_parse("thresh", "config:24-28", &f) == 0);
	CU_ASSERT_EQUAL(perf_format_put("thresh", &f, 32, cfg), -1);
	/* other bits of the word are kept: fields are scattered into one config one after another */
	cfg[0] = 0xff;
	CU_ASSERT_FATAL(perf_format_parse("edge", "config:18", &f) == 0);
	CU_ASSERT(perf_format_put("edge", &f, 1, cfg) == 0 && cfg[0] == (0xffull | 1u << 18));
}

static void test_malformed(void)
{
	static const char *const bad[] = { "", "config", "config:", "confi:0-7", "config3:0-7", "config:7-0",
					   "config:0-64", "config:64", "config:0-7,", "config:0-7 junk", "config:a-b",
					   "config:0-7,,8", "config:-1", "config1:0-1,2,3,4,5,6,7,8,9" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct perf_format f;
		int rc = perf_format_parse("x", bad[i], &f);
		if (rc == 0)
			fprintf(stderr, "FAIL '%s' accepted\n", bad[i]);
		CU_ASSERT(rc == -1 && strstr(uncore_error(), "perf format 'x'") != NULL);
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "values scatter over the kernel's format bits", test_scatter },
		{ "a value wider than its field is refused", test_widths_and_overflow },
		{ "malformed format lines are refused by name", test_malformed },
		{ NULL, NULL },
	};
	return run_suite("perf_format", tests);
}
