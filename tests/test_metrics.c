/*
 * Derived metrics: the expression language, definition files, refusals, and
 * every metric of every platform against the simulator's truth over intervals
 * in which every counter wraps.
 */
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <string.h>
#include "sim_helpers.h"
#include "sim_truth.h"
#include <jansson.h>
#include "metrics/metric_expr.h"
#include "util/error.h"

/* ---- the expression language, with names resolved by a stub ---- */

static char last_name[256];

static int stub_resolve(void *arg, struct mx_expr *e, const char *name, int depth, char *err, size_t len)
{
	(void)arg;
	snprintf(last_name, sizeof(last_name), "%s", name);
	if (depth == MX_PROBE_EVENT) /* has_event(): events whose names do not start BAD */
		return strncmp(name, "BAD", 3) != 0;
	if (depth == MX_PROBE_CPUID) /* strcmp_cpuid_str(): the stub's CPU is "GenuineIntel-6-CF-2" */
		return !strcmp(name, "GenuineIntel-6-CF-2") || !strcmp(name, "GenuineIntel-6-CF");
	if (!strncmp(name, "BAD", 3)) {
		snprintf(err, len, "unknown event '%s'", name);
		return -1;
	}
	return mx_add_event(e, name);
}

static double stub_event(void *arg, int ev) { (void)arg; return 10.0 * (ev + 1); } /* 10, 20, ... */
static double stub_boxes(void *arg, int ev) { (void)arg; (void)ev; return 4; }

static double eval(const char *src)
{
	struct mx_expr e = { 0 };
	char err[256] = "";
	int root = mx_parse(&e, src, 0, stub_resolve, NULL, err, sizeof(err));
	if (root < 0)
		fprintf(stderr, "%s: %s\n", src, err);
	CU_ASSERT_FATAL(root >= 0);
	struct mx_env env = { stub_event, stub_boxes, 2.0, 2.6e9, NULL, 2, 4, 0, NULL };
	double v = mx_eval(&e, root, &env);
	mx_free(&e);
	return v;
}

static void refused(const char *src, const char *words)
{
	struct mx_expr e = { 0 };
	char err[256] = "";
	CU_ASSERT(mx_parse(&e, src, 0, stub_resolve, NULL, err, sizeof(err)) < 0);
	if (!strstr(err, words))
		fprintf(stderr, "'%s': message '%s' lacks '%s'\n", src, err, words);
	CU_ASSERT(strstr(err, words) != NULL);
	mx_free(&e);
}

static void test_expressions(void)
{
	CU_ASSERT_DOUBLE_EQUAL(eval("1 + 2 * 3"), 7, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(eval("(1 + 2) * 3"), 9, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(eval("8 - 2 - 1"), 5, 1e-12);     /* left associative */
	CU_ASSERT_DOUBLE_EQUAL(eval("64 / 9 / 2"), 64.0 / 18, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(eval("-3 + -(-2)"), -1, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(eval("1e9 * 0.5 + 0x40"), 5e8 + 64, 1e-3);
	CU_ASSERT_DOUBLE_EQUAL(eval("min(3, 2 * 4) + max(1, 5)"), 8, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(eval("A * 64 / duration"), 10 * 64 / 2.0, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(eval("A / B + A"), 10.0 / 20 + 10, 1e-12); /* A is one event, used twice */
	CU_ASSERT_DOUBLE_EQUAL(eval("X / boxes / duration"), 10.0 / 4 / 2, 1e-12);
	CU_ASSERT_DOUBLE_EQUAL(eval("tsc_hz * duration"), 5.2e9, 1);
	CU_ASSERT(isnan(eval("A / (B - B)")));     /* division by zero */
	CU_ASSERT(isnan(eval("max(1, A / 0)")));
	/* qualifiers and the seeds' modifier notation reach the resolver as one spec */
	eval("UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182 * 2");
	CU_ASSERT_STRING_EQUAL(last_name, "UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182");
	eval("COUNTER0_OCCUPANCY{edge_det,thresh=0x1} + 1");
	CU_ASSERT_STRING_EQUAL(last_name, "COUNTER0_OCCUPANCY:edge:thresh=0x1");
}

/* perf's metric dialect (tools/perf/util/expr.y): conditionals, comparisons, d_ratio, source_count,
 * duration_time, the '#' facts and PMU@terms@ spellings. */
static void test_perf_dialect(void)
{
	CU_ASSERT_DOUBLE_EQUAL(eval("3 if A < B else 4"), 3, 0);  /* A 10 < B 20 */
	CU_ASSERT_DOUBLE_EQUAL(eval("3 if A > B else 4"), 4, 0);
	CU_ASSERT_DOUBLE_EQUAL(eval("1 + 2 if 0 else 5 * 2"), 10, 0); /* 'if' binds loosest */
	CU_ASSERT_DOUBLE_EQUAL(eval("A >= 10 ? 7 : 8"), 7, 0);
	CU_ASSERT_DOUBLE_EQUAL(eval("A != 10 ? 7 : 8"), 8, 0);
	CU_ASSERT_DOUBLE_EQUAL(eval("0 ? 1 : 0 ? 2 : 3"), 3, 0);    /* right associative */
	CU_ASSERT_DOUBLE_EQUAL(eval("(A == 10) + (A <= 9) + (1 & 0) + (1 | 0) + (0 && 1) + (0 || 2)"), 3, 0);
	CU_ASSERT_DOUBLE_EQUAL(eval("d_ratio(A, 0) + d_ratio(B, A)"), 2, 1e-12); /* perf: 0 over 0, not NaN */
	CU_ASSERT(isnan(eval("1 if A / 0 else 2")));                 /* a missing condition has no value */
	CU_ASSERT(isnan(eval("(A / 0) < 1")));
	/* stub: 4 boxes, 2 packages; source_count is boxes per package, as perf counts an uncore PMU's instances */
	CU_ASSERT_DOUBLE_EQUAL(eval("source_count(A) * #num_packages"), 4, 0);
	CU_ASSERT_DOUBLE_EQUAL(eval("source_count(A)"), 2, 0);
	CU_ASSERT_DOUBLE_EQUAL(eval("A * duration_time + #SYSTEM_TSC_FREQ / #system_tsc_freq"), 21, 1e-12);
	eval("uncore_cha@event\\=0x35\\,umask\\=0xc817fe01@ + 1");
	CU_ASSERT_STRING_EQUAL(last_name, "uncore_cha@event=0x35,umask=0xc817fe01@");
	eval("#smt_on + 1");
	CU_ASSERT_STRING_EQUAL(last_name, "#smt_on");
	/* stub: 4 dies; '%' and '^' as perf's expr.y; has_event and strcmp_cpuid_str answered when parsed */
	CU_ASSERT_DOUBLE_EQUAL(eval("A / #num_dies"), 2.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(eval("7.9 % 3 + (A % 7) + (1 ^ 1) + (0 ^ A)"), 1 + 3 + 0 + 1, 0);
	CU_ASSERT(isnan(eval("A % 0.5")));
	CU_ASSERT_DOUBLE_EQUAL(eval("(1 | 1 ^ 1) + (1 ^ 1 & 0)"), 1 + 1, 0); /* '|' < '^' < '&' */
	CU_ASSERT_DOUBLE_EQUAL(eval("has_event(A) * 2 + has_event(BAD\\-ev)"), 2, 0);
	CU_ASSERT_STRING_EQUAL(last_name, "BAD-ev"); /* perf's escapes: '\-' is '-' */
	CU_ASSERT_DOUBLE_EQUAL(eval("strcmp_cpuid_str(GenuineIntel\\-6\\-CF) + strcmp_cpuid_str(GenuineIntel\\-6\\-8F)"), 1, 0);
	eval("cycles\\-t + tx\\-start");
	CU_ASSERT_STRING_EQUAL(last_name, "tx-start");
	refused("has_event(A + B)", "has_event() takes one event name");
	refused("strcmp_cpuid_str()", "strcmp_cpuid_str() takes one CPU id");
	refused("A if B", "expected 'else'");
	refused("A ? B", "expected ':' after '?'");
	refused("source_count(1)", "source_count() takes one event name");
	refused("source_count(A + B)", "source_count() takes one event name");
	refused("uncore_cha@event=1", "'@' without its closing '@'");
	refused("A < B < C", "unexpected '<'");
}

static void test_malformed(void)
{
	refused("A * ", "position 5: expression ends too early");
	refused("(A + 2", "position 7: expected ')'");
	refused("A $ 2", "position 3: unexpected '$'");
	refused("min(A)", "expected ','");
	refused("A + BAD_EVENT", "position 5: unknown event 'BAD_EVENT'");
	refused("X{edge_det thresh}", "expected ',' or '}'");
	refused("boxes * 2", "'boxes' needs an event");
	refused("", "expression ends too early");
	char deep[2100];
	memset(deep, '(', 2000);
	snprintf(deep + 2000, sizeof(deep) - 2000, "A");
	refused(deep, "nested more than 100 deep");
}

/* mx_parse in a thread with a 128 KiB stack, as a library caller's worker thread may have. */
struct small_stack_parse {
	const char *src;
	char err[256];
	int root;
};

static void *parse_thread(void *arg)
{
	struct small_stack_parse *sp = arg;
	struct mx_expr e = { 0 };
	sp->root = mx_parse(&e, sp->src, 0, stub_resolve, NULL, sp->err, sizeof(sp->err));
	mx_free(&e);
	return NULL;
}

static int parse_on_small_stack(struct small_stack_parse *sp)
{
	size_t stack = 128 * 1024;
	pthread_attr_t attr;
	pthread_t t;
	if (stack < (size_t)PTHREAD_STACK_MIN)
		stack = (size_t)PTHREAD_STACK_MIN;
	CU_ASSERT_FATAL(pthread_attr_init(&attr) == 0);
	CU_ASSERT_FATAL(pthread_attr_setstacksize(&attr, stack) == 0);
	CU_ASSERT_FATAL(pthread_create(&t, &attr, parse_thread, sp) == 0);
	pthread_join(t, NULL);
	pthread_attr_destroy(&attr);
	return sp->root;
}

/* A chain of n copies of unit, then tail, then n copies of close. */
static char *chain(const char *unit, const char *tail, const char *close, int n)
{
	size_t lu = strlen(unit), lc = strlen(close), len = 0;
	char *s = malloc((lu + lc) * (size_t)n + strlen(tail) + 1);
	CU_ASSERT_FATAL(s != NULL);
	for (int i = 0; i < n; i++, len += lu)
		memcpy(s + len, unit, lu);
	len += (size_t)sprintf(s + len, "%s", tail);
	for (int i = 0; i < n; i++, len += lc)
		memcpy(s + len, close, lc);
	s[len] = 0;
	return s;
}

/* Every recursive production is bounded: deep chains of each are refused, not a stack overflow, on a
 * small stack; an expression too large is refused as such, not as "out of memory". */
static void test_bounded(void)
{
	static const struct { const char *unit, *tail, *close; } forms[] = {
		{ "1 if A else ", "2", "" },           /* else-branch recursion */
		{ "A ? 1 : ", "2", "" },               /* ':'-branch recursion */
		{ "A ? ", "1", " : 2" },               /* '?'-branch recursion */
		{ "(", "A", ")" },                     /* parentheses */
		{ "-", "A", "" },                      /* unary minus */
		{ "min(1, ", "A", ")" },               /* function arguments */
		{ "1 if (", "A", ") else 2" },         /* conditions */
		{ "A | B & C < D + E * (", "A", ")" }, /* every binary operator pending */
	};
	static const int levels[] = { MX_MAX_DEPTH, 3000, 100000 };
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++)
		for (size_t l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
			char *src = chain(forms[f].unit, forms[f].tail, forms[f].close, levels[l]);
			struct small_stack_parse sp = { .src = src };
			if (parse_on_small_stack(&sp) >= 0 || !strstr(sp.err, "nested more than 100 deep"))
				fprintf(stderr, "'%s' x %d: root %d, message '%s'\n", forms[f].unit, levels[l], sp.root, sp.err);
			CU_ASSERT(sp.root < 0 && strstr(sp.err, "nested more than 100 deep") != NULL);
			free(src);
		}
	/* one level less is fine, on the small stack too */
	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++) {
		char *src = chain(forms[f].unit, forms[f].tail, forms[f].close, MX_MAX_DEPTH - 1);
		struct small_stack_parse sp = { .src = src };
		if (parse_on_small_stack(&sp) < 0)
			fprintf(stderr, "'%s' x %d: %s\n", forms[f].unit, MX_MAX_DEPTH - 1, sp.err);
		CU_ASSERT(sp.root >= 0);
		free(src);
	}
	/* flat, but more nodes than an expression may have */
	char *wide = chain("A + ", "1", "", MX_MAX_NODES);
	struct mx_expr e = { 0 };
	char err[256] = "";
	CU_ASSERT(mx_parse(&e, wide, 0, stub_resolve, NULL, err, sizeof(err)) < 0);
	if (!strstr(err, "more than 65536 nodes"))
		fprintf(stderr, "wide: message '%s'\n", err);
	CU_ASSERT(strstr(err, "more than 65536 nodes") != NULL && !strstr(err, "memory"));
	mx_free(&e);
	free(wide);
}

/* uncore_load_metrics in a thread with a 128 KiB stack: what it returned and said. */
struct small_stack_load {
	uncore_t *u;
	const char *path;
	int r;
	char err[512];
};

static void *load_thread(void *arg)
{
	struct small_stack_load *sl = arg;
	sl->r = uncore_load_metrics(sl->u, sl->path);
	snprintf(sl->err, sizeof(sl->err), "%s", uncore_error());
	return NULL;
}

static int load_on_small_stack(struct small_stack_load *sl)
{
	size_t stack = 128 * 1024 < PTHREAD_STACK_MIN ? PTHREAD_STACK_MIN : 128 * 1024;
	pthread_attr_t attr;
	pthread_t t;
	CU_ASSERT_FATAL(pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, stack) == 0);
	CU_ASSERT_FATAL(pthread_create(&t, &attr, load_thread, sl) == 0);
	pthread_join(t, NULL);
	pthread_attr_destroy(&attr);
	return sl->r;
}

static const char *write_file(const char *name, const char *text);

/* A metric named in another is parsed inside it: the nesting limit counts both, so a chain of metrics,
 * each nested nearly to the limit, cannot exhaust a small stack either. */
static void test_bounded_references(void)
{
	uncore_t *u = open_sim("sim:snbep,clock=manual");
	for (int deep = 0; deep < 2; deep++) {
		int n = deep ? 60 : 45; /* each; 45 + 45 fit the limit, 60 + 60 do not */
		char *inner = chain("(", "UNC_M_CAS_COUNT.RD", ")", n), *outer = chain("(", deep ? "nest_inner1" : "nest_inner0", ")", n);
		char *text = malloc(strlen(inner) + strlen(outer) + 200);
		CU_ASSERT_FATAL(text != NULL);
		/* the referring metric first, so that the other is parsed inside it */
		sprintf(text, "[{\"MetricName\": \"nest_outer%d\", \"MetricExpr\": \"%s\"},"
			      " {\"MetricName\": \"nest_inner%d\", \"MetricExpr\": \"%s\"}]", deep, outer, deep, inner);
		struct small_stack_load sl = { .u = u, .path = write_file("nest.json", text) };
		int r = load_on_small_stack(&sl);
		if (deep) {
			if (r >= 0 || !strstr(sl.err, "metric nest_inner1: position 40: nested more than 100 deep"))
				fprintf(stderr, "60 + 60 deep: %d, '%.200s'\n", r, sl.err);
			CU_ASSERT(r < 0 && strstr(sl.err, "metric nest_inner1: position 40: nested more than 100 deep") != NULL);
		} else {
			if (r != 2)
				fprintf(stderr, "45 + 45 deep: %d, '%.200s'\n", r, sl.err);
			CU_ASSERT_EQUAL(r, 2);
		}
		free(inner);
		free(outer);
		free(text);
	}
	uncore_close(u);
}

/* uncore_load_events in a thread with a 128 KiB stack. */
static void *load_events_thread(void *arg)
{
	struct small_stack_load *sl = arg;
	sl->r = uncore_load_events(sl->u, sl->path);
	snprintf(sl->err, sizeof(sl->err), "%s", uncore_error());
	return NULL;
}

/* JSON nested deeper than any definition file is refused before the JSON parser recurses into it (2,000
 * levels overflow a 128 KiB stack inside jansson). */
static void test_json_nesting(void)
{
	uncore_t *u = open_sim("sim:snbep,clock=manual");
	for (int n = 0; n < 2; n++) {
		int levels = n ? 100000 : 2000;
		char *text = chain("[", "1", "]", levels);
		const char *path = write_file("deep_json.json", text);
		for (int events = 0; events < 2; events++) {
			struct small_stack_load sl = { .u = u, .path = path };
			size_t stack = 128 * 1024 < PTHREAD_STACK_MIN ? PTHREAD_STACK_MIN : 128 * 1024;
			pthread_attr_t attr;
			pthread_t t;
			char want[400];
			CU_ASSERT_FATAL(pthread_attr_init(&attr) == 0 && pthread_attr_setstacksize(&attr, stack) == 0);
			CU_ASSERT_FATAL(pthread_create(&t, &attr, events ? load_events_thread : load_thread, &sl) == 0);
			pthread_join(t, NULL);
			pthread_attr_destroy(&attr);
			snprintf(want, sizeof(want), "%s:1:33: arrays and objects nested more than 32 deep", path);
			if (sl.r >= 0 || strcmp(sl.err, want))
				fprintf(stderr, "%d levels (%s): %d, '%s'\n", levels, events ? "events" : "metrics", sl.r, sl.err);
			CU_ASSERT(sl.r < 0 && !strcmp(sl.err, want));
		}
		free(text);
	}
	/* a string may hold brackets */
	CU_ASSERT_EQUAL(uncore_load_metrics(u, write_file("brackets.json", "[{\"MetricName\": \"brackets\", "
		"\"MetricExpr\": \"UNC_M_CAS_COUNT.RD\", \"BriefDescription\": \"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\\"\"}]")), 1);
	uncore_close(u);
}

/* Mangled expressions (a fixed-seed random walk of edits) never crash the parser or evaluator:
 * each either parses and evaluates, or is refused with a position. */
static void test_mangled(void)
{
	static const char *const seeds[] = { "(A + B) * 64 / duration", "min(A{edge_det,thresh=0x1}, max(B, 2)) - -C",
					     "X:opc=0x182 / boxes / (Y - Y)",
					     "A if B <= 2 | C else d_ratio(source_count(C), #num_packages) ? u@e\\=1@ : 0" };
	static const char alphabet[] = "AB()+-*/,{}=:. 0x19e_minaxdurtb?<>!|&#@\\ifelse";
	unsigned r = 12345;
	int parsed = 0, refused_n = 0;
	for (int i = 0; i < 20000; i++) {
		char buf[96];
		snprintf(buf, sizeof(buf), "%s", seeds[i % 4]);
		for (int k = 0; k < 1 + i % 4; k++) {
			r = r * 1103515245u + 12345u;
			size_t len = strlen(buf), at = (r >> 8) % (len + 1);
			char c = alphabet[(r >> 20) % (sizeof(alphabet) - 1)];
			if ((r >> 4) & 1 && len + 1 < sizeof(buf)) { /* insert */
				memmove(buf + at + 1, buf + at, len - at + 1);
				buf[at] = c;
			} else if (at < len) { /* replace or delete */
				if ((r >> 5) & 1)
					buf[at] = c;
				else
					memmove(buf + at, buf + at + 1, len - at);
			}
		}
		struct mx_expr e = { 0 };
		char err[256] = "";
		int root = mx_parse(&e, buf, 0, stub_resolve, NULL, err, sizeof(err));
		if (root >= 0) {
			struct mx_env env = { stub_event, stub_boxes, 1.0, 1.0, NULL, 1, 1, 0, NULL };
			(void)mx_eval(&e, root, &env);
			parsed++;
		} else {
			CU_ASSERT(!strncmp(err, "position ", 9));
			refused_n++;
		}
		mx_free(&e);
	}
	CU_ASSERT(parsed > 1000 && refused_n > 1000);
}

/* ---- definition files ---- */

static char tmpdir[300];

static const char *write_file(const char *name, const char *text)
{
	static char path[sizeof(tmpdir) + 64];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs(text, f);
	fclose(f);
	return path;
}

static void load_refused(uncore_t *u, const char *text, const char *words)
{
	int before = uncore_num_metrics(u);
	CU_ASSERT(uncore_load_metrics(u, write_file("bad.json", text)) < 0);
	if (!strstr(uncore_error(), words))
		fprintf(stderr, "message '%s' lacks '%s'\n", uncore_error(), words);
	CU_ASSERT(strstr(uncore_error(), words) != NULL);
	CU_ASSERT_EQUAL(uncore_num_metrics(u), before); /* nothing of a refused file stays */
}

static void test_definition_files(void)
{
	uncore_t *u = open_sim("sim:snbep,clock=manual");
	int n = uncore_num_metrics(u);
	CU_ASSERT(n >= 15);
	load_refused(u, "[{\"MetricName\": \"x\", \"MetricExpr\": \"UNC_M_CAS_COUNT.RD * \"}]",
		     "bad.json: metric x: position 22: expression ends too early");
	load_refused(u, "[{\"MetricName\": \"y\", \"MetricExpr\": \"UNC_M_NOPE / duration\"}]",
		     "metric y: position 1: unknown event 'UNC_M_NOPE'");
	load_refused(u, "[{\"MetricName\": \"z\", \"MetricExpr\": \"UNC_M_CAS_COUNT.RD:bogus=1\"}]",
		     "unknown qualifier 'bogus'");
	load_refused(u, "[{\"MetricName\": \"a\", \"MetricExpr\": \"b + 1\"}, {\"MetricName\": \"b\", \"MetricExpr\": \"a\"}]",
		     "refers to itself");
	load_refused(u, "[{\"MetricName\": \"mem_bw_read\", \"MetricExpr\": \"1\"}]", "already defined");
	char chain[2048];
	size_t len = (size_t)snprintf(chain, sizeof(chain), "[");
	for (int i = 0; i < 12; i++) /* c0 -> c1 -> ... -> c11 */
		len += (size_t)snprintf(chain + len, sizeof(chain) - len, "%s{\"MetricName\": \"c%d\", \"MetricExpr\": \"%s%d\"}",
					i ? ", " : "", i, i < 11 ? "c" : "", i < 11 ? i + 1 : 1);
	snprintf(chain + len, sizeof(chain) - len, "]");
	load_refused(u, chain, "nest more than 8 deep");
	load_refused(u, "[{\"MetricName\": \"9lives\", \"MetricExpr\": \"1\"}]", "needs MetricName");
	load_refused(u, "[{\"MetricName\": \"a-b\", \"MetricExpr\": \"1\"}]", "needs MetricName");
	/* perf matches metric names without regard to case: one file cannot hold two that differ only so */
	load_refused(u, "[{\"MetricName\": \"Dup_Name\", \"MetricExpr\": \"1\"}, {\"MetricName\": \"DUP_name\", \"MetricExpr\": \"2\"}]",
		     "metric DUP_name is already defined as Dup_Name (names match without regard to case");
	load_refused(u, "[{\"MetricName\": \"s\", \"MetricExpr\": \"UNC_M_CAS_COUNT.RD:socket=1\"}]",
		     "chosen when the metric is read");
	load_refused(u, "[{\"MetricName\": \"j\",", "bad.json:1:");
	CU_ASSERT(uncore_load_metrics(u, "/nonexistent/metrics.json") < 0);
	CU_ASSERT_STRING_EQUAL(uncore_error(), "cannot open /nonexistent/metrics.json: No such file or directory");
	load_refused(u, "[{\"MetricName\": \"w\", \"MetricExpr\": \"uncore_imc@event\\\\=0x4@{edge_det} * 2\"}]",
		     "'uncore_imc@event=0x4@:edge' is too long or malformed");
	load_refused(u, "[{\"MetricName\": \"v\", \"MetricExpr\": \"uncore_imc@event\\\\=0x4\"}]", "without its closing '@'");
	/* ScaleUnit: a string, its scale a finite decimal number */
	static const char *const bad_units[] = { "5", "null", "true", "{}", "[\"1GB\"]", "\"inf%\"", "\"nanGB\"",
						 "\"-infinityGB\"", "\"1e999GB/s\"", "\"0x10GB/s\"", "\"-0x1p3%\"", "\" 0X2ns\"" };
	for (size_t i = 0; i < sizeof(bad_units) / sizeof(bad_units[0]); i++) {
		char text[256];
		snprintf(text, sizeof(text), "[{\"MetricName\": \"scaled\", \"MetricExpr\": \"1\", \"ScaleUnit\": %s}]",
			 bad_units[i]);
		load_refused(u, text, "bad.json: metric scaled: ScaleUnit ");
	}
	/* a good file: a new metric built on a built-in one, and the TSC term */
	CU_ASSERT_EQUAL(uncore_load_metrics(u, write_file("good.json",
		"[{\"MetricName\": \"mem_bw_read_mib\", \"MetricExpr\": \"mem_bw_read / 1048576\", \"ScaleUnit\": \"MiB/s\","
		" \"MetricGroup\": \"site\", \"BriefDescription\": \"reads in MiB/s\"},"
		" {\"MetricName\": \"tsc_check\", \"MetricExpr\": \"UNC_M_CAS_COUNT.RD * 0 + tsc_hz\"},"
		" {\"MetricName\": \"nothing_to_divide\", \"MetricExpr\": \"UNC_M_CAS_COUNT.RD / (UNC_M_CAS_COUNT.WR - UNC_M_CAS_COUNT.WR)\"},"
		" {\"MetricName\": \"mixed\", \"MetricExpr\": \"UNC_M_CAS_COUNT.RD / UNC_C_CLOCKTICKS\"},"
		" {\"MetricName\": \"scaled_a\", \"MetricExpr\": \"1\", \"ScaleUnit\": \"1e-9GB/s\"},"
		" {\"MetricName\": \"scaled_b\", \"MetricExpr\": \"1\", \"ScaleUnit\": \"-.5%\"}]")), 6);
	CU_ASSERT_EQUAL(uncore_num_metrics(u), n + 6);
	/* names as written, found in any case; where two files differ only in case (Linux's UNCORE_FREQ, our
	 * uncore_freq), the exact name wins */
	CU_ASSERT_EQUAL(uncore_load_metrics(u, write_file("cased.json",
		"[{\"MetricName\": \"UNCORE_FREQ\", \"MetricExpr\": \"7\"}, {\"MetricName\": \"Mixed_Case\", \"MetricExpr\": \"8\"},"
		" {\"MetricName\": \"via_ref\", \"MetricExpr\": \"MIXED_case + 1\"}]")), 3);
	int builtin = uncore_metric_find(u, "uncore_freq"), file = uncore_metric_find(u, "UNCORE_FREQ");
	CU_ASSERT(builtin >= 0 && file >= 0 && builtin != file);
	CU_ASSERT_EQUAL(uncore_metric_find(u, "mixed_CASE"), uncore_metric_find(u, "Mixed_Case"));
	struct uncore_metric_info mi;
	CU_ASSERT(uncore_metric_info(u, uncore_metric_find(u, "MIXED_CASE"), &mi) == 0 && !strcmp(mi.name, "Mixed_Case"));
	CU_ASSERT(uncore_metric_info(u, file, &mi) == 0 && !strcmp(mi.name, "UNCORE_FREQ") && !strcmp(mi.expr, "7"));
	load_refused(u, "[{\"MetricName\": \"MEM_BW_READ\", \"MetricExpr\": \"1\"}, {\"MetricName\": \"mem_BW_read\", \"MetricExpr\": \"2\"}]",
		     "metric mem_BW_read is already defined as MEM_BW_READ"); /* in one file, though the built-in is another case */
	/* perf's facts of the machine, fixed when parsed: the simulated SNB-EP is GenuineIntel-6-2D-7 (CPUID
	 * 0x206D7), has no PMem, and counts UNC_M_CAS_COUNT.RD but no UNC_M_NOPE nor cycles-t; a metric is no event */
	CU_ASSERT_EQUAL(uncore_load_metrics(u, write_file("facts.json",
		"[{\"MetricName\": \"facts\", \"MetricExpr\": \"strcmp_cpuid_str(GenuineIntel\\\\-6\\\\-2D) + "
		"2 * strcmp_cpuid_str(GenuineIntel\\\\-6\\\\-2D\\\\-7) + 4 * strcmp_cpuid_str(GenuineIntel\\\\-6\\\\-2.) + "
		"8 * strcmp_cpuid_str(GenuineIntel\\\\-6\\\\-3E) + 16 * has_event(UNC_M_CAS_COUNT.RD) + 32 * has_event(UNC_M_NOPE) + "
		"64 * has_event(cycles\\\\-t) + 128 * #has_pmem + 256 * has_event(one_event) + 0 * UNC_M_CAS_COUNT.WR\"},"
		" {\"MetricName\": \"one_event\", \"MetricExpr\": \"UNC_M_CAS_COUNT.RD\"}]")), 2);
	uncore_session_t *fs;
	double fv = 0;
	CU_ASSERT_FATAL(uncore_session_new(u, &fs) == 0);
	int fm = uncore_session_add_metric(fs, "facts");
	CU_ASSERT_FATAL(fm >= 0 && uncore_session_start(fs) == 0);
	uncore_sleep_ns(u, 1000000);
	CU_ASSERT(uncore_session_read(fs) == 0 && uncore_session_metric_value(fs, fm, -1, -1, UNCORE_SINCE_START, &fv) == 0);
	CU_ASSERT_DOUBLE_EQUAL(fv, 1 + 2 + 4 + 16, 0);
	uncore_session_free(fs);
	CU_ASSERT_FATAL(uncore_metric_info(u, uncore_metric_find(u, "mem_bw_read_mib"), &mi) == 0);
	CU_ASSERT_STRING_EQUAL(mi.unit, "MiB/s");
	CU_ASSERT_DOUBLE_EQUAL(mi.scale, 1, 0);
	CU_ASSERT_STRING_EQUAL(mi.group, "site");
	CU_ASSERT_FATAL(uncore_metric_info(u, uncore_metric_find(u, "scaled_a"), &mi) == 0);
	CU_ASSERT(mi.scale == 1e-9 && !strcmp(mi.unit, "GB/s"));
	CU_ASSERT_FATAL(uncore_metric_info(u, uncore_metric_find(u, "scaled_b"), &mi) == 0);
	CU_ASSERT(mi.scale == -0.5 && !strcmp(mi.unit, "%"));
	CU_ASSERT(uncore_metric_find(u, "no_such_metric") < 0);
	CU_ASSERT(strstr(uncore_error(), "unknown metric 'no_such_metric'") != NULL);

	uncore_session_t *s;
	double v;
	uncore_session_new(u, &s);
	int mib = uncore_session_add_metric(s, "mem_bw_read_mib"), tsc = uncore_session_add_metric(s, "tsc_check");
	int nan = uncore_session_add_metric(s, "nothing_to_divide"), mixed = uncore_session_add_metric(s, "mixed");
	CU_ASSERT_FATAL(mib >= 0 && tsc >= 0 && nan >= 0 && mixed >= 0);
	CU_ASSERT_EQUAL(uncore_session_num_events(s), 3); /* CAS RD shared by three metrics, WR, CBo clock */
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	CU_ASSERT(uncore_session_metric_value(s, mib, 1, -1, UNCORE_SINCE_START, &v) == 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 25.6e9 / 1048576, 25.6e9 / 1048576 * 1e-6);
	CU_ASSERT(uncore_session_metric_value(s, tsc, 0, -1, UNCORE_SINCE_START, &v) == 0);
	CU_ASSERT_DOUBLE_EQUAL(v, sim_of(u->acc)->prof.tsc_hz, 1);
	CU_ASSERT(uncore_session_metric_value(s, nan, 0, -1, UNCORE_SINCE_START, &v) == 0);
	CU_ASSERT(isnan(v));
	CU_ASSERT(uncore_session_metric_value(s, mixed, 0, 1, UNCORE_SINCE_START, &v) < 0);
	CU_ASSERT(strstr(uncore_error(), "several units") != NULL);
	CU_ASSERT(uncore_session_metric_value(s, mixed, 0, -1, UNCORE_SINCE_START, &v) == 0 && v > 0);
	uncore_session_free(s);
	uncore_close(u);
}

/* ---- metrics whose events do not fit the counters at once are refused, the session unchanged ---- */

static void test_unschedulable(void)
{
	uncore_t *u = open_sim("sim:emr,clock=manual");
	uncore_session_t *s;
	double v;
	uncore_session_new(u, &s);
	int ratio = uncore_session_add_metric(s, "llc_miss_ratio");
	CU_ASSERT_FATAL(ratio >= 0);
	int nev = uncore_session_num_events(s);
	/* two LLC_LOOKUPs + TOR occupancy, inserts and clock: five events for four CHA counters */
	CU_ASSERT(uncore_session_add_metric(s, "llc_miss_latency_ns") < 0);
	CU_ASSERT(strstr(uncore_error(), "metric llc_miss_latency_ns cannot be measured together") != NULL);
	CU_ASSERT(strstr(uncore_error(), "cha") != NULL);
	CU_ASSERT(strstr(uncore_error(), "the perf backend multiplexes such sets") != NULL);
	fprintf(stderr, "refusal: %s\n", uncore_error());
	CU_ASSERT_EQUAL(uncore_session_num_events(s), nev);
	CU_ASSERT_EQUAL(uncore_session_num_metrics(s), 1);
	/* what was accepted still counts right */
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	CU_ASSERT(uncore_session_metric_value(s, ratio, 1, -1, UNCORE_SINCE_START, &v) == 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 100 * sim_of(u->acc)->prof.llc_miss_ratio[1], 0.01);
	uncore_session_free(s);

	/* both TOR occupancies want counter 0 */
	uncore_session_new(u, &s);
	CU_ASSERT(uncore_session_add_metric(s, "llc_miss_latency_ns") >= 0);
	CU_ASSERT(uncore_session_add_metric(s, "llc_hit_latency_ns") < 0);
	CU_ASSERT(strstr(uncore_error(), "counter") != NULL);
	uncore_session_free(s);
	uncore_close(u);

	/* SNB-EP: the seed's AVG_TOR_DRD_HIT_LATENCY needs two TOR occupancies on counter 0 at once */
	u = open_sim("sim:snbep,clock=manual");
	CU_ASSERT_EQUAL(uncore_load_metrics(u, write_file("hit.json",
		"[{\"MetricName\": \"avg_tor_drd_hit_latency\", \"MetricExpr\": \"(UNC_C_TOR_OCCUPANCY.OPCODE:opc=0x182 - "
		"UNC_C_TOR_OCCUPANCY.MISS_OPCODE:opc=0x182) / (UNC_C_TOR_INSERTS.OPCODE:opc=0x182 - "
		"UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182)\"}]")), 1);
	uncore_session_new(u, &s);
	CU_ASSERT(uncore_session_add_metric(s, "avg_tor_drd_hit_latency") < 0);
	CU_ASSERT(strstr(uncore_error(), "metric avg_tor_drd_hit_latency cannot be measured: ") != NULL);
	CU_ASSERT_EQUAL(uncore_session_num_events(s), 0);
	uncore_session_free(s);
	uncore_close(u);
}

static int check(const char *what, double got, double want) { return check_truth(what, got, want); }

/* One metric on a fresh simulated machine: counters (free-running ones too) wrap 0.4 s after start. */
static int truth_metric(const char *spec, const char *backend, int idx, uint64_t *wraps)
{
	uncore_t *u = open_sim(spec);
	struct sim *sim = sim_of(u->acc);
	struct uncore_metric_info mi;
	uncore_session_t *s;
	char what[160];
	int checked = 0;
	uncore_metric_info(u, idx, &mi);
	for (int sock = 0; sock < uncore_num_sockets(u); sock++)
		if (isnan(truth_of(sim, mi.name, sock).v)) {
			fprintf(stderr, "%s: metric %s has no truth test\n", backend, mi.name);
			CU_FAIL("a metric without a truth test");
		}
	uncore_session_new(u, &s);
	int m = uncore_session_add_metric(s, mi.name);
	if (m < 0)
		fprintf(stderr, "%s: %s\n", mi.name, uncore_error());
	/* Linux 6.12.0's GNR driver (kernel=6.12.0): a metric of a unit it has no PMU for, or one its generic
	 * uncore_type_12/13 PMUs would count wrong, is refused, saying so, and on CWF (the generic driver there) one
	 * of a fixed or free-running counter or of control bits the generic formats lack; every other one counts the
	 * truth */
	const char *why = uncore_error();
	if (m < 0 && strstr(backend, "kernel=6.12.0") &&
	    (strstr(why, "this kernel registers no PMU for") || strstr(why, "only counter 0 counts right") ||
	     (strstr(backend, "cwf") && (strstr(why, "has no fixed counter") || strstr(why, "has no format for") ||
					 strstr(why, "has no free-running PMU"))))) {
		uncore_session_free(s);
		uncore_close(u);
		return -1;
	}
	CU_ASSERT_FATAL(m >= 0);
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	/* an integral count (group totals) is its rate's truth times the window */
	int integral = strstr(mi.group, "totals") || strstr(mi.group, "locality"); /* (the local/remote split: bytes too) */
	double before = 0, since_start = 0;
	/* each of the three 1 s intervals: the first holds every counter's wrap */
	for (int step = 0; step < 3; step++) {
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		since_start = (double)uncore_session_elapsed_ns(s) / 1e9;
		for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
			double v;
			snprintf(what, sizeof(what), "%s %s socket %d interval %d", backend, mi.name, sock, step);
			if (truth_of(sim, mi.name, sock).split == TRUTH_NO_BOX) { /* not measured there: refused */
				CU_ASSERT(uncore_session_metric_value(s, m, sock, -1, UNCORE_LAST_INTERVAL, &v) < 0);
				continue;
			}
			CU_ASSERT(uncore_session_metric_value(s, m, sock, -1, UNCORE_LAST_INTERVAL, &v) == 0);
			check(what, v, truth_of(sim, mi.name, sock).v * (integral ? since_start - before : 1));
		}
		before = since_start;
	}
	uint64_t counting = 0; /* events that counted anything: each of their counters wrapped */
	for (int e = 0; e < uncore_session_num_events(s); e++)
		counting += val(s, e, -1) > 0;
	/* the kernel resets no counter when it schedules an event (it takes the value as its base), so through
	 * the perf backend only the counters the driver's box reset preloaded wrap; the kernel keeps 64 bits */
	int idle = 1; /* a metric whose truth is 0 on every socket (Skylake-SP's ports 1-3 on the simulator) counts none */
	for (int sock = 0; sock < uncore_num_sockets(u); sock++)
		idle &= truth_of(sim, mi.name, sock).v == 0;
	CU_ASSERT((counting > 0 || idle) && (u->perf || sim->wraps >= counting));
	*wraps += sim->wraps;
	for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
		double v;
		struct truth t = truth_of(sim, mi.name, sock);
		truth_scale(&t, integral ? since_start : 1);
		snprintf(what, sizeof(what), "%s %s socket %d over 3 s", backend, mi.name, sock);
		if (t.split == TRUTH_NO_BOX) {
			CU_ASSERT(uncore_session_metric_value(s, m, sock, -1, UNCORE_SINCE_START, &v) < 0);
			continue;
		}
		CU_ASSERT(uncore_session_metric_value(s, m, sock, -1, UNCORE_SINCE_START, &v) == 0);
		checked += check(what, v, t.v);
		/* per box (channel, link, CBo/CHA, stack) where the metric has one unit; socket-wide events
		 * (Montecito bus) are counted on box 0 alone, which then holds the whole truth */
		int nb = mi.box_unit >= 0 ? uncore_unit_boxes(u, mi.box_unit, sock) : 0;
		if (nb > 1 && uncore_session_event_boxes(s, 0, sock) == 1)
			nb = 1;
		for (int k = 0; k < nb; k++) {
			int box = uncore_box_number(u, mi.box_unit, sock, k);
			snprintf(what, sizeof(what), "%s %s socket %d box %d", backend, mi.name, sock, box);
			CU_ASSERT(uncore_session_metric_value(s, m, sock, box, UNCORE_SINCE_START, &v) == 0);
			if (isnan(truth_box(t, k, nb))) { /* an empty channel's latency: no read to time */
				CU_ASSERT(isnan(v));
				continue;
			}
			check(what, v, truth_box(t, k, nb));
		}
	}
	close_checked(u, s, sim);
	return checked;
}

static int truth_platform(const char *backend)
{
	char spec[128];
	uint64_t wraps = 0;
	int checked = 0, refused = 0;
	snprintf(spec, sizeof(spec), "%s,clock=manual,prewrap=0.4", backend);
	uncore_t *u = open_sim(spec);
	int n = uncore_num_metrics(u);
	uncore_close(u);
	CU_ASSERT(n > 0);
	for (int i = 0; i < n; i++) {
		int c = truth_metric(spec, backend, i, &wraps);
		checked += c > 0 ? c : 0;
		refused += c < 0;
	}
	fprintf(stderr, "%s: %d metrics, %d per-socket values equal the truth over intervals with %llu wraps, %d refused\n",
		backend, n, checked, (unsigned long long)wraps, refused);
	return refused;
}

/* Reading every box takes long next to the interval (each register access advances the clock 20 us):
 * rates still equal the truth, because each box keeps its own sample times. */
static void test_slow_sweep_short_interval(void)
{
	uncore_t *u = open_sim("sim:emr,clock=manual,tick=20000");
	struct sim *sim = sim_of(u->acc);
	uncore_session_t *s;
	uncore_session_new(u, &s);
	int rd = uncore_session_add_metric(s, "mem_bw_read"), bytes = uncore_session_add_metric(s, "mem_read_bytes");
	int clk = uncore_session_add_metric(s, "dram_freq"), ufreq = uncore_session_add_metric(s, "uncore_freq");
	CU_ASSERT_FATAL(rd >= 0 && bytes >= 0 && clk >= 0 && ufreq >= 0 && uncore_session_start(s) == 0);
	for (int k = 0; k < 3; k++) {
		uncore_sleep_ns(u, 5000000); /* 5 ms, against a sweep of several ms */
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		for (int sock = 0; sock < 2; sock++)
			for (int w = UNCORE_SINCE_START; w <= UNCORE_LAST_INTERVAL; w++) {
				double v, b;
				CU_ASSERT(uncore_session_metric_value(s, rd, sock, -1, w, &v) == 0);
				check("mem_bw_read, slow sweep", v, truth_of(sim, "mem_bw_read", sock).v);
				CU_ASSERT(uncore_session_metric_value(s, clk, sock, -1, w, &v) == 0);
				check("dram_freq, slow sweep", v, truth_of(sim, "dram_freq", sock).v);
				CU_ASSERT(uncore_session_metric_value(s, ufreq, sock, -1, w, &v) == 0);
				check("uncore_freq, slow sweep", v, truth_of(sim, "uncore_freq", sock).v);
				/* the count a per-second metric adds up to is the integral metric's, exactly */
				CU_ASSERT(uncore_session_metric_value(s, rd, sock, -1, UNCORE_SINCE_START_COUNT, &v) == 0);
				CU_ASSERT(uncore_session_metric_value(s, bytes, sock, -1, UNCORE_SINCE_START, &b) == 0);
				CU_ASSERT_DOUBLE_EQUAL(v, b * 1e-9, b * 1e-21);
			}
	}
	uncore_session_free(s);
	uncore_close(u);
}

/* ---- perf's own EMR metric file, as Intel ships it, next to the built-in metrics and the truth ---- */

struct perf_pair {
	const char *perf, *ours; /* perf's metric (MB/s, ns, GHz) and the built-in one (GB/s, ns, GHz) */
	double to_ours;          /* perf's value times this is ours */
	const char *truth;       /* the truth_of() metric */
};

static void perf_file_on(const char *backend)
{
	static const struct perf_pair pairs[] = {
		{ "memory_bandwidth_read", "mem_bw_read", 1e-3, "mem_bw_read" },
		{ "memory_bandwidth_write", "mem_bw_write", 1e-3, "mem_bw_write" },
		{ "memory_bandwidth_total", "mem_bw_total", 1e-3, "mem_bw_total" },
		{ "upi_data_transmit_bw", "upi_tx_bw", 1e-3, "upi_tx_bw" },
		{ "upi_data_receive_bw", "upi_rx_bw", 1e-3, "upi_rx_bw" },
		/* perf counts DATA_REQ_OF_CPU x 4 bytes, ours the free-running BANDWIDTH_IN/OUT x 32 */
		{ "iio_bandwidth_read", "iio_bw_read", 1e-3, "iio_bw_read" },
		{ "iio_bandwidth_write", "iio_bw_write", 1e-3, "iio_bw_write" },
		{ "llc_demand_data_read_miss_latency", "llc_miss_latency_ns", 1, "llc_miss_latency_ns" },
		{ "uncore_frequency", "uncore_freq", 1, "uncore_freq" },
		/* written here in perf's other spellings: a raw PMU@terms@, a named one, if/else, ?: */
		{ "raw_miss_latency", "llc_miss_latency_ns", 1, "llc_miss_latency_ns" },
		{ "named_upi_tx", "upi_tx_bw", 1e-3, "upi_tx_bw" },
		{ "read_bw_if_two", "mem_bw_read", 1e-3, "mem_bw_read" },
		{ "read_bw_or_none", "mem_bw_read", 1e-3, "mem_bw_read" },
	};
	enum { NP = sizeof(pairs) / sizeof(pairs[0]) };
	char spec[96];
	snprintf(spec, sizeof(spec), "%s,clock=manual", backend);
	uncore_t *u = open_sim(spec);
	struct sim *sim = sim_of(u->acc);
	int before = uncore_num_metrics(u);
	uc_clear_warnings();
	CU_ASSERT_EQUAL(uncore_load_metrics(u, SRCDIR "/eventtables/EMR/metrics/perf/emeraldrapids_metrics_perf.json"), 32);
	const char *w = uncore_warnings();
	if (!strstr(w, "22 of 54 metrics left out") || !strstr(w, "cpu_operating_frequency"))
		fprintf(stderr, "%s: warning '%s'\n", backend, w);
	CU_ASSERT(strstr(w, "22 of 54 metrics left out: they use core events (cpu_operating_frequency") != NULL);
	CU_ASSERT_EQUAL(uncore_num_metrics(u), before + 32);
	CU_ASSERT(uncore_metric_find(u, "cpi") < 0); /* a core metric is left out, not half loaded */
	CU_ASSERT_EQUAL(uncore_load_metrics(u, write_file("perf_spellings.json",
		"[{\"MetricName\": \"raw_miss_latency\", \"ScaleUnit\": \"1ns\", \"MetricExpr\": \"1e9 * "
		"(uncore_cha@UNC_CHA_TOR_OCCUPANCY.IA_MISS_DRD@ / uncore_cha@event\\\\=0x35\\\\,umask\\\\=0xc817fe01@) / "
		"(uncore_cha@UNC_CHA_CLOCKTICKS@ / (source_count(UNC_CHA_CLOCKTICKS) * #num_packages)) * duration_time\"},"
		" {\"MetricName\": \"named_upi_tx\", \"ScaleUnit\": \"1MB/s\", \"MetricExpr\": "
		"\"uncore_upi@UNC_UPI_TxL_FLITS.ALL_DATA@ * (64 / 9.0) / 1e6 / duration_time\"},"
		" {\"MetricName\": \"read_bw_if_two\", \"ScaleUnit\": \"1MB/s\", \"MetricExpr\": "
		"\"memory_bandwidth_read if #num_packages < 3 && UNC_M_CAS_COUNT.RD > 0 else 0\"},"
		" {\"MetricName\": \"read_bw_or_none\", \"ScaleUnit\": \"1MB/s\", \"MetricExpr\": "
		"\"UNC_M_CAS_COUNT.RD == 0 ? 0 : d_ratio(UNC_M_CAS_COUNT.RD * 64, 1e6 * duration_time)\"},"
		" {\"MetricName\": \"packages_seen\", \"MetricExpr\": \"#num_packages + 0 * UNC_M_CAS_COUNT.RD\"},"
		" {\"MetricName\": \"chas_per_package\", \"MetricExpr\": \"source_count(UNC_CHA_CLOCKTICKS)\"},"
		" {\"MetricName\": \"ipc_like\", \"MetricGroup\": \"core\", \"MetricExpr\": \"cpu_core@INST_RETIRED.ANY@ / 2\"}]")), 6);
	CU_ASSERT(strstr(uncore_warnings(), "1 of 7 metrics left out: they use core events (ipc_like; groups: core)") != NULL);

	/* #num_packages: the sockets a value covers; source_count: the boxes per package */
	uncore_session_t *s;
	double v;
	uncore_session_new(u, &s);
	int pk = uncore_session_add_metric(s, "packages_seen"), sc = uncore_session_add_metric(s, "chas_per_package");
	int pk1 = uncore_session_add_metric(s, "packages_seen:socket=1"), cha = -1;
	struct uncore_unit_info ui;
	for (int t = 0; t < uncore_num_units(u); t++)
		if (uncore_unit_info(u, t, &ui) == 0 && !strcmp(ui.name, "cha"))
			cha = t;
	CU_ASSERT_FATAL(pk >= 0 && sc >= 0 && pk1 >= 0 && cha >= 0);
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	int nsock = uncore_num_sockets(u), chas = 0;
	for (int sock = 0; sock < nsock; sock++) {
		CU_ASSERT(uncore_session_metric_value(s, pk, sock, -1, UNCORE_SINCE_START, &v) == 0 && v == 1);
		CU_ASSERT(uncore_session_metric_value(s, sc, sock, -1, UNCORE_SINCE_START, &v) == 0);
		CU_ASSERT_DOUBLE_EQUAL(v, uncore_unit_boxes(u, cha, sock), 0);
		chas += uncore_unit_boxes(u, cha, sock);
	}
	CU_ASSERT(uncore_session_metric_value(s, pk, -1, -1, UNCORE_SINCE_START, &v) == 0 && v == nsock);
	CU_ASSERT(uncore_session_metric_value(s, sc, -1, -1, UNCORE_SINCE_START, &v) == 0);
	CU_ASSERT_DOUBLE_EQUAL(v, (double)chas / nsock, 0);
	CU_ASSERT(uncore_session_metric_value(s, pk1, -1, -1, UNCORE_SINCE_START, &v) == 0 && v == 1); /* one socket */
	uncore_session_free(s);

	for (int i = 0; i < NP; i++) { /* a session each: a pair's CHA events fill the box's 4 counters */
		double all_p, all_o, truth_all = 0;
		uncore_session_new(u, &s);
		int pm = uncore_session_add_metric(s, pairs[i].perf), om = uncore_session_add_metric(s, pairs[i].ours);
		if (pm < 0 || om < 0)
			fprintf(stderr, "%s %s: %s\n", backend, pairs[i].perf, uncore_error());
		CU_ASSERT_FATAL(pm >= 0 && om >= 0);
		CU_ASSERT_FATAL(uncore_session_start(s) == 0);
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		char what[160];
		for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
			double p, o;
			CU_ASSERT(uncore_session_metric_value(s, pm, sock, -1, UNCORE_SINCE_START, &p) == 0);
			CU_ASSERT(uncore_session_metric_value(s, om, sock, -1, UNCORE_SINCE_START, &o) == 0);
			snprintf(what, sizeof(what), "%s perf %s socket %d vs truth", backend, pairs[i].perf, sock);
			check(what, p * pairs[i].to_ours, truth_of(sim, pairs[i].truth, sock).v);
			snprintf(what, sizeof(what), "%s perf %s socket %d vs %s", backend, pairs[i].perf, sock, pairs[i].ours);
			check(what, p * pairs[i].to_ours, o);
			truth_all += truth_of(sim, pairs[i].truth, sock).v;
		}
		/* the whole machine: bandwidths add up; latency and clock are both tools' mean over every box */
		CU_ASSERT(uncore_session_metric_value(s, pm, -1, -1, UNCORE_SINCE_START, &all_p) == 0);
		CU_ASSERT(uncore_session_metric_value(s, om, -1, -1, UNCORE_SINCE_START, &all_o) == 0);
		snprintf(what, sizeof(what), "%s perf %s machine vs %s", backend, pairs[i].perf, pairs[i].ours);
		check(what, all_p * pairs[i].to_ours, all_o);
		if (strstr(pairs[i].ours, "_bw_")) {
			snprintf(what, sizeof(what), "%s perf %s machine vs truth", backend, pairs[i].perf);
			check(what, all_p * pairs[i].to_ours, truth_all);
		}
		uncore_session_free(s);
	}
	uncore_close(u);
}

static void test_perf_metric_file(void)
{
	perf_file_on("sim:emr");
	perf_file_on("perf+sim:emr");
}

/* ---- perf's metric files as Linux and Intel ship them: every uncore metric against the truth ---- */

/* The perf metric names file lists (its "MetricName"s), each once; NULL when it does not parse. */
static json_t *file_metrics(const char *file)
{
	json_error_t jerr;
	json_t *root = json_load_file(file, 0, &jerr);
	if (!root)
		fprintf(stderr, "%s:%d: %s\n", file, jerr.line, jerr.text);
	return root;
}

/* Metrics whose events cannot be on one box together, so that only the perf backend, which multiplexes,
 * counts them and direct access refuses them: two TOR occupancies (counter 0 only, Linux's
 * UNCORE_EVENT_CONSTRAINT(0x36, 0x1) on SNB-EP, IVB-EP and SPR/EMR), and Intel's BDX io_bandwidth_write, which
 * adds two TOR opcode counts (ItoM 0x1c8, RFO 0x180) needing two values of the one CBo FILTER1. */
static int needs_two_occupancies(const char *backend, const char *m)
{
	return !strcmp(m, "tma_info_system_mem_parallel_reads") || (strstr(backend, "bdx") && !strcmp(m, "io_bandwidth_write"));
}

#define SK_MUX_NS 4e6 /* the simulated kernel's multiplexing interval: PERF_CPU_HRTIMER at HZ=250 */

/* How far event e's scaled count on socket sock (-1: all) may be from its rate x time enabled on perf+sim:
 * the simulator counts whole events (floor of rate x time), so each time the kernel puts the event's group
 * on a counter its count is off by less than 1; that happens at most run / mux + 1 times, the scaling
 * multiplies it by en / run, and rounding adds 0.5: en / mux + en / run + 0.5 per box. */
static double mux_bound(const uncore_session_t *s, int e, int sock)
{
	double b = 0;
	for (int k = sock < 0 ? 0 : sock; k < (sock < 0 ? UC_MAX_SOCKETS : sock + 1); k++)
		for (int box = 0; box < 256; box++) {
			uint64_t en, run;
			if (uncore_session_times(s, e, k, box, &en, &run) >= 0 && run)
				b += (double)en / SK_MUX_NS + (double)en / (double)run + 0.5;
		}
	return b;
}

/* A ratio of two multiplexed counts (session events 0 and 1) against its truth, within their bounds:
 * relative errors x and y of the parts give at most (x + y) / (1 - y). */
static void check_mux_ratio(const char *what, const uncore_session_t *s, int sock, double got, double want)
{
	uint64_t v[2];
	double rel[2];
	for (int e = 0; e < 2; e++) {
		CU_ASSERT_FATAL(uncore_session_value(s, e, sock, -1, &v[e]) == 0 && v[e] > 0);
		rel[e] = mux_bound(s, e, sock) / (double)v[e];
	}
	double tol = (rel[0] + rel[1]) / (1 - rel[1]) * fabs(want);
	fprintf(stderr, "%s (multiplexed): %.12g, truth %.12g, off %.3g, allowed %.3g\n", what, got, want, fabs(got - want),
		tol);
	CU_ASSERT(fabs(got - want) <= tol);
}

/* A multiplexed metric that adds two events' scaled counts (one may count nothing): off by at most the two
 * events' bounds over their sum. */
static void check_mux_sum(const char *what, const uncore_session_t *s, int sock, double got, double want)
{
	uint64_t v[2];
	double bound = 0;
	for (int e = 0; e < 2; e++) {
		CU_ASSERT_FATAL(uncore_session_value(s, e, sock, -1, &v[e]) == 0);
		bound += mux_bound(s, e, sock);
	}
	CU_ASSERT_FATAL(v[0] + v[1] > 0);
	double tol = bound / (double)(v[0] + v[1]) * fabs(want);
	fprintf(stderr, "%s (multiplexed): %.12g, truth %.12g, off %.3g, allowed %.3g\n", what, got, want, fabs(got - want),
		tol);
	CU_ASSERT(fabs(got - want) <= tol);
}

/* Every event of session s counted all the time (1), or (0) some less: the kernel multiplexed them. */
static int never_multiplexed(const uncore_session_t *s)
{
	for (int e = 0; e < uncore_session_num_events(s); e++) {
		uint64_t en, run;
		if (uncore_session_times(s, e, -1, -1, &en, &run) != 0 || en != run || !en)
			return 0;
	}
	return 1;
}

/* File on backend (with profile text, or none): every metric perf_truth() knows loads, every metric that
 * loads has a truth and equals it on each socket and for the machine over a 1 s window; the rest are core
 * metrics, left out with one warning. Returns the metrics checked. */
static int perf_file_truth(const char *backend, const char *file, const char *profile)
{
	char spec[512], what[256];
	snprintf(spec, sizeof(spec), "%s,clock=manual%s%s", backend, profile ? ",profile=" : "",
		 profile ? write_file("perf_profile.txt", profile) : "");
	uncore_t *u = open_sim(spec);
	struct sim *sim = sim_of(u->acc);
	json_t *defs = file_metrics(file);
	CU_ASSERT_FATAL(defs != NULL);
	int before = uncore_num_metrics(u), total = (int)json_array_size(defs), uncore_defs = 0, checked = 0, apart = 0;
	uc_clear_warnings();
	int n = uncore_load_metrics(u, file);
	if (n < 0)
		fprintf(stderr, "%s %s: %s\n", backend, file, uncore_error());
	CU_ASSERT_FATAL(n >= 0);
	for (int i = 0; i < total; i++) {
		json_t *def = json_array_get(defs, (size_t)i);
		const char *name = json_string_value(json_object_get(def, "MetricName"));
		const char *expr = json_string_value(json_object_get(def, "MetricExpr"));
		char *end;
		double constant = strtod(expr, &end); /* Linux 6.1's ivt-metrics.json has L3_Cache_Access_BW_1T "0" */
		struct perf_part pt;
		int mode, known = perf_parts(sim, name, 0, 1, &pt, &mode), m = uncore_metric_find(u, name);
		if (end == expr || *end)
			constant = NAN;
		known |= !isnan(constant);
		struct uncore_metric_info mi;
		uncore_defs += known;
		if (known != (m >= before)) /* every uncore metric loaded, nothing else */
			fprintf(stderr, "%s %s: %s %s\n", backend, file, name, known ? "did not load" : "loaded, no truth");
		CU_ASSERT(known == (m >= before));
		if (!known || m < before)
			continue;
		CU_ASSERT(uncore_metric_info(u, m, &mi) == 0 && !strcmp(mi.name, name)); /* its name as written */
		if (!isnan(constant)) { /* no events: nothing to count (a session of none does not start) */
			CU_ASSERT(u->metrics[m].x.nev == 0 && strtod(mi.expr, NULL) == constant);
			checked++;
			continue;
		}
		uncore_session_t *s;
		uncore_session_new(u, &s);
		int sm = uncore_session_add_metric(s, name);
		int perf = !strncmp(backend, "perf+", 5), mux = perf && needs_two_occupancies(backend, name);
		if (needs_two_occupancies(backend, name) && !perf) {
			CU_ASSERT(sm < 0 && strstr(uncore_error(), "cannot be measured") &&
				  strstr(uncore_error(), "the perf backend multiplexes such sets"));
			apart++;
			uncore_session_free(s);
			continue;
		}
		if (sm < 0)
			fprintf(stderr, "%s %s: %s\n", backend, name, uncore_error());
		CU_ASSERT_FATAL(sm >= 0);
		CU_ASSERT_FATAL(uncore_session_start(s) == 0);
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		if (perf) /* the two occupancies take turns on counter 0; everything else fits and counts throughout */
			CU_ASSERT(never_multiplexed(s) == !mux);
		for (int sock = -1; sock < uncore_num_sockets(u); sock++) {
			double v = NAN, t = isnan(constant) ? perf_truth(sim, name, sock, 1) : constant;
			CU_ASSERT(uncore_session_metric_value(s, sm, sock, -1, UNCORE_SINCE_START, &v) == 0);
			char where[24];
			snprintf(where, sizeof(where), sock < 0 ? "machine" : "socket %d", sock);
			snprintf(what, sizeof(what), "%s %s %s %s", backend, strrchr(file, '/') + 1, name, where);
			if (isnan(t)) { /* no requests of the kind (PMem latency without PMem): no value either */
				if (!isnan(v))
					fprintf(stderr, "%s: %.6g, truth none\n", what, v);
				CU_ASSERT(isnan(v));
			} else if (t == 0) {
				if (v != 0)
					fprintf(stderr, "%s: %.6g, truth 0\n", what, v);
				CU_ASSERT(v == 0);
			} else if (mux && strstr(name, "bandwidth")) {
				check_mux_sum(what, s, sock, v, t);
			} else if (mux) {
				check_mux_ratio(what, s, sock, v, t);
			} else {
				check(what, v, t);
			}
		}
		checked++;
		uncore_session_free(s);
	}
	CU_ASSERT_EQUAL(n, uncore_defs);
	if (n < total) { /* the core metrics: one warning, with the count */
		char counted[64];
		snprintf(counted, sizeof(counted), "%d of %d metrics left out", total - n, total);
		if (!strstr(uncore_warnings(), counted))
			fprintf(stderr, "%s %s: warning '%s' lacks '%s'\n", backend, file, uncore_warnings(), counted);
		CU_ASSERT(strstr(uncore_warnings(), counted) != NULL);
	}
	fprintf(stderr, "%s %s: %d of %d metrics load, %d equal the truth, %d refused (events that cannot share a box: not multiplexed)\n",
		backend, strrchr(file, '/') + 1, n, total, checked, apart);
	CU_ASSERT_EQUAL(checked + apart, n);
	json_decref(defs);
	uncore_close(u);
	return checked;
}

/* A machine with PMem: its metrics are 0 without it (#has_pmem) and the truth with it. */
static const char pmem_profile[] = "pmem = 1\nllc_miss_pmem_ratio = 0.25\nsocket1.llc_miss_pmem_ratio = 0.4\n"
				   "pmem_read_bytes_per_s = 2e9\nsocket1.pmem_read_bytes_per_s = 3e9\npmem_write_bytes_per_s = 1e9\n";

#define SPR_PERF_UNCORE 36 /* the uncore metrics of its 58 */
static void test_perf_files_truth(void)
{
	static const char *const emr[] = { "sim:emr", "perf+sim:emr" }, *const spr[] = { "sim:spr", "perf+sim:spr" }, *const xeon_ep[] = { "sim:snbep", "perf+sim:snbep",
		"sim:ivbep", "perf+sim:ivbep" };
	for (int b = 0; b < 2; b++) {
		CU_ASSERT(perf_file_truth(emr[b], SRCDIR "/eventtables/EMR/metrics/perf/emeraldrapids_metrics_perf.json", NULL) == 32);
		CU_ASSERT(perf_file_truth(emr[b], SRCDIR "/eventtables/EMR/metrics/perf/emeraldrapids_metrics_perf.json", pmem_profile) == 32);
		/* Intel's SPR perf file on sim:spr: every uncore metric loads and equals the truth */
		CU_ASSERT(perf_file_truth(spr[b], SRCDIR "/eventtables/SPR/metrics/perf/sapphirerapids_metrics_perf.json", NULL) == SPR_PERF_UNCORE);
		CU_ASSERT(perf_file_truth(spr[b], SRCDIR "/eventtables/SPR/metrics/perf/sapphirerapids_metrics_perf.json", pmem_profile) == SPR_PERF_UNCORE);
		/* tma_info_system_mem_parallel_reads is counted on perf+sim only: it is multiplexed */
		CU_ASSERT(perf_file_truth(emr[b], FIXTURES "perf_metrics_emr.json", NULL) == 11 + b);
		CU_ASSERT(perf_file_truth(emr[b], FIXTURES "perf_metrics_emr.json", pmem_profile) == 11 + b);
	}
	/* Intel's Granite Rapids, Sierra Forest and Clearwater Forest files: memory bandwidths add both
	 * schedulers' CASes, as the truth does */
	/* (perf+sim:cwf with 48 CHAs: four CHA events on 144 CHAs and 2 sockets take more descriptors than the
	 * test's limit of 1024 allows, as they would under perf) */
	static const char *const gnr[] = { "sim:gnr", "perf+sim:gnr" }, *const forests[] = { "sim:srf", "perf+sim:srf",
		"sim:cwf", "perf+sim:cwf,cores=48" };
	for (int b = 0; b < 2; b++)
		CU_ASSERT(perf_file_truth(gnr[b], SRCDIR "/eventtables/GNR/metrics/perf/graniterapids_metrics_perf.json", NULL) == 33);
	for (int b = 0; b < 4; b++)
		CU_ASSERT(perf_file_truth(forests[b], b < 2 ? SRCDIR "/eventtables/SRF/metrics/perf/sierraforest_metrics_perf.json" :
			SRCDIR "/eventtables/CWF/metrics/perf/clearwaterforest_metrics_perf.json", NULL) == (b < 2 ? 28 : 30));
	/* Intel's Haswell-EP file: its 8 uncore metrics and the 4 that divide CBo counts by #num_cores */
	static const char *const hsx[] = { "sim:hsx", "perf+sim:hsx" }, *const bdx[] = { "sim:bdx", "perf+sim:bdx" };
	for (int b = 0; b < 2; b++)
		CU_ASSERT(perf_file_truth(hsx[b], SRCDIR "/eventtables/HSX/metrics/perf/haswellx_metrics_perf.json", NULL) == 12);
	/* Broadwell-EP's: the same 12, but io_bandwidth_write adds two opcodes of the one CBo filter, which only the
	 * perf backend multiplexes (the registers refuse it) */
	for (int b = 0; b < 2; b++)
		CU_ASSERT(perf_file_truth(bdx[b], SRCDIR "/eventtables/BDX/metrics/perf/broadwellx_metrics_perf.json", NULL) == 11 + b);
	for (int b = 0; b < 4; b++) /* Linux's jkt and ivt files have the same uncore metrics */
		CU_ASSERT(perf_file_truth(xeon_ep[b], FIXTURES "perf_metrics_xeon_ep.json", NULL) == 7 + b % 2);
}

/* Intel's Skylake-SP and Cascade Lake perf files: their uncore metrics load (17, 4 of them with #num_cores, and 20;
 * the rest use core events)
 * and equal the truth on sim: and perf+sim:, with two Linux behaviours kept: the metrics that give config1 in
 * its low half (numa_reads_addressed_to_*: 0x40432; CLX's llc_data_read_demand_plus_prefetch_miss_latency*:
 * 0x40433) lose it, as the driver keeps only the FILTER1 fields for TOR events (skx_cha_hw_config), so their
 * TOR counts see every miss: 50 % each, and the latency of all misses; io_bandwidth_read/write add four IIO
 * events that only counters 0-1 take, which the direct backend refuses and the perf backend multiplexes. */
static void test_skx_perf_files(void)
{
	static const struct { const char *plat, *file; int n; } files[] = {
		{ "skx", SRCDIR "/eventtables/SKX/metrics/perf/skylakex_metrics_perf.json", 17 },
		{ "clx", SRCDIR "/eventtables/CLX/metrics/perf/cascadelakex_metrics_perf.json", 20 },
	};
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++)
		for (int b = 0; b < 2; b++) {
			char spec[600];
			snprintf(spec, sizeof(spec), "%s%s,clock=manual,profile=%s", b ? "perf+sim:" : "sim:", files[f].plat,
				 write_file("perf_profile.txt", pmem_profile));
			uncore_t *u = open_sim(spec);
			struct sim *sim = sim_of(u->acc);
			int before = uncore_num_metrics(u), checked = 0, apart = 0;
			uc_clear_warnings();
			CU_ASSERT_EQUAL(uncore_load_metrics(u, files[f].file), files[f].n);
			for (int m = before; m < uncore_num_metrics(u); m++) {
				struct uncore_metric_info mi;
				uncore_session_t *s;
				char what[900];
				uncore_metric_info(u, m, &mi);
				int numa = !strncmp(mi.name, "numa_reads", 10), io = !strncmp(mi.name, "io_bandwidth", 12);
				int lat = strstr(mi.name, "_miss_latency") != NULL;
				uncore_session_new(u, &s);
				int sm = uncore_session_add_metric(s, mi.name);
				if (io && !b) {
					CU_ASSERT(sm < 0 && strstr(uncore_error(), "the perf backend multiplexes such sets"));
					uncore_session_free(s);
					apart++;
					continue;
				}
				CU_ASSERT_FATAL(sm >= 0 && uncore_session_start(s) == 0);
				uncore_sleep_ns(u, 1000000000);
				CU_ASSERT_FATAL(uncore_session_read(s) == 0);
				CU_ASSERT(never_multiplexed(s) == !io);
				for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
					double v = NAN, want = numa ? 50 : lat ? sim->prof.llc_miss_lat_ns[sock] : perf_truth(sim, mi.name, sock, 1);
					/* Intel's formulas that take #num_cores for the CHA count (the uncore clock per
					 * CHA, the latency's clocks) read off by the simulated part's CHAs / cores, 20 / 18:
					 * CAPID6 enables more LLC slices than cores, as real parts do */
					if (strstr(mi.expr, "#num_cores")) {
						double chas = 0;
						for (int i = 0; i < sim->nboxes; i++)
							chas += !strcmp(sim->boxes[i].u->name, "cha") && sim->boxes[i].socket == sock;
						want *= !strcmp(mi.name, "uncore_frequency") ? chas / sim->cores : sim->cores / chas;
					}
					snprintf(what, sizeof(what), "%s %s socket %d", spec, mi.name, sock);
					CU_ASSERT(uncore_session_metric_value(s, sm, sock, -1, UNCORE_SINCE_START, &v) == 0);
					checked += check(what, v, want);
				}
				uncore_session_free(s);
			}
			CU_ASSERT_EQUAL(checked, (files[f].n - apart) * uncore_num_sockets(u));
			CU_ASSERT_EQUAL(apart, b ? 0 : 2);
			uncore_close(u);
		}
}

/* Intel's Ice Lake-SP perf file: its uncore metrics load and equal the truth on sim: and perf+sim: (the
 * memory, PMem, UPI, directory-update, CHA request and I/O TOR metrics; the rest use core events). */
#define ICX_PERF_UNCORE 32 /* of its 54: the rest use core events */
static void test_icx_perf_file(void)
{
	static const char *const be[] = { "sim:icx", "perf+sim:icx" };
	for (int b = 0; b < 2; b++)
		CU_ASSERT_EQUAL(perf_file_truth(be[b], SRCDIR "/eventtables/ICX/metrics/perf/icelakex_metrics_perf.json",
						pmem_profile), ICX_PERF_UNCORE);
}

/* Linux's sierraforest/srf-metrics.json (6.12 on) holds Intel's SRF uncore metrics and core metrics whose
 * names perf takes and we do not: with a '%' (tma_info_bottleneck_%_dtlb_miss_bound_cycles, ...) or a space (issue
 * 50 counted 21 and one).  Those are left out with the other core metrics, never the file: here Intel's SRF perf file with such
 * metrics added (Linux's file is GPL, not kept here; LINUX_TREE runs it) loads its 28 uncore metrics, each equal
 * to the truth, on both backends, and says how many it left out. */
static void test_perf_file_odd_names(void)
{
	static const char *const odd[][2] = {
		{ "tma_info_bottleneck_%_dtlb_miss_bound_cycles", "100 * (LD_HEAD.DTLB_MISS_AT_RET + LD_HEAD.PGWALK_AT_RET) / CPU_CLK_UNHALTED.CORE" },
		{ "tma_info_buffer_stalls_%_load_buffer_stall_cycles", "100 * MEM_SCHEDULER_BLOCK.LD_BUF / CPU_CLK_UNHALTED.CORE" },
		{ "tma_info_serialization_%_tpause_cycles", "100 * SERIALIZATION.C01_MS_SCB / (6 * CPU_CLK_UNHALTED.CORE)" },
		{ "tma_info_core_ipc per cycle", "INST_RETIRED.ANY / CPU_CLK_UNHALTED.CORE" },
		{ "tma_info_system_cpu_%_of_tsc", "tma_info_core_ipc_ref + 100 * CPU_CLK_UNHALTED.REF_TSC / TSC" },
	};
	json_t *defs = file_metrics(SRCDIR "/eventtables/SRF/metrics/perf/sierraforest_metrics_perf.json");
	CU_ASSERT_FATAL(defs != NULL);
	size_t intel = json_array_size(defs);
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		json_array_append_new(defs, json_pack("{s:s, s:s, s:s}", "MetricName", odd[i][0], "MetricExpr", odd[i][1],
						      "ScaleUnit", "100%"));
	json_array_append_new(defs, json_pack("{s:s, s:s}", "MetricName", "tma_info_core_ipc_ref", "MetricExpr",
					      "INST_RETIRED.ANY / CPU_CLK_UNHALTED.REF_TSC"));
	char *text = json_dumps(defs, JSON_INDENT(1));
	const char *file = write_file("srf-metrics.json", text);
	free(text);
	json_decref(defs);
	static const char *const be[] = { "sim:srf", "perf+sim:srf" };
	for (int b = 0; b < 2; b++) {
		CU_ASSERT_EQUAL(perf_file_truth(be[b], file, NULL), 28);
		char said[64];
		snprintf(said, sizeof(said), "%zu of %zu metrics left out", intel - 28 + 6, intel + 6);
		if (!strstr(uc_warnings(), said))
			fprintf(stderr, "%s: the warnings '%s' lack '%s'\n", be[b], uc_warnings(), said);
		CU_ASSERT(strstr(uc_warnings(), said) != NULL);
	}
	/* a name we cannot take on an uncore metric still refuses the file, naming it */
	uncore_t *u = open_sim("sim:srf");
	int before = uncore_num_metrics(u);
	CU_ASSERT(uncore_load_metrics(u, write_file("odd.json", "[{\"MetricName\": \"x_core\", \"MetricExpr\": \"INST_RETIRED.ANY\"},"
		"{\"MetricName\": \"mem_%_read\", \"MetricExpr\": \"UNC_M_CAS_COUNT_SCH0.RD\"}]")) < 0);
	CU_ASSERT(strstr(uncore_error(), "odd.json: metric 2 mem_%_read: needs MetricName (letters, digits, '_')") != NULL);
	CU_ASSERT_EQUAL(uncore_num_metrics(u), before);
	uncore_close(u);
}

/* LINUX_TREE=<a Linux source tree> (tools/checks/check_linux_metrics.sh): Linux's own jkt, ivt, emr and srf metric files,
 * which are GPL and so not kept here, on both backends; a file the tree lacks (6.1 has no EMR) is skipped.  srf's
 * core metrics named with '%' or a space are left out with the others (test_perf_file_odd_names). */
static void test_linux_tree(void)
{
	static const struct { const char *file, *platform; } files[] = {
		{ "jaketown/jkt-metrics.json", "snbep" }, { "ivytown/ivt-metrics.json", "ivbep" },
		{ "emeraldrapids/emr-metrics.json", "emr" }, { "sierraforest/srf-metrics.json", "srf" } };
	const char *tree = getenv("LINUX_TREE");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[1024], be[32];
		snprintf(path, sizeof(path), "%s/tools/perf/pmu-events/arch/x86/%s", tree, files[i].file);
		if (access(path, R_OK)) {
			fprintf(stderr, "%s: not in this tree, skipped\n", files[i].file);
			continue;
		}
		for (int b = 0; b < 2; b++) {
			snprintf(be, sizeof(be), "%s%s", b ? "perf+sim:" : "sim:", files[i].platform);
			CU_ASSERT(perf_file_truth(be, path, NULL) > 0);
			if (!strcmp(files[i].platform, "emr"))
				CU_ASSERT(perf_file_truth(be, path, pmem_profile) > 0);
		}
	}
}

/* The set the direct backend refuses (five CHA events for four counters, two of them TOR occupancies for
 * counter 0) counts on the perf backend: split into groups the simulated kernel rotates, each count scaled
 * to the truth, running < enabled; a value whose group has not been on the counters yet has none. */
static void test_perf_multiplexes(void)
{
	uncore_t *u = open_sim("perf+sim:emr,clock=manual");
	struct sim *sim = sim_of(u->acc);
	uncore_session_t *s;
	double v;
	uint64_t n, en, run;
	uncore_session_new(u, &s);
	int ratio = uncore_session_add_metric(s, "llc_miss_ratio"), lat = uncore_session_add_metric(s, "llc_miss_latency_ns");
	if (lat < 0)
		fprintf(stderr, "perf+sim:emr: %s\n", uncore_error());
	CU_ASSERT_FATAL(ratio >= 0 && lat >= 0);
	int nev = uncore_session_num_events(s), late = -1;
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 1000000); /* within the first 4 ms interval: only the first group has counted */
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	for (int e = 0; e < nev; e++)
		if (uncore_session_value(s, e, 0, -1, &n) == UNCORE_NOT_COUNTED && late < 0)
			late = e;
	CU_ASSERT_FATAL(late >= 0);
	CU_ASSERT(strstr(uncore_error(), "was not counted") != NULL);
	CU_ASSERT(uncore_session_times(s, late, 0, -1, &en, &run) == 1 && run == 0 && en > 0);
	CU_ASSERT(uncore_session_metric_value(s, ratio, 0, -1, UNCORE_SINCE_START, &v) == UNCORE_NOT_COUNTED ||
		  uncore_session_metric_value(s, lat, 0, -1, UNCORE_SINCE_START, &v) == UNCORE_NOT_COUNTED);
	CU_ASSERT(isnan(v));
	uncore_sleep_ns(u, 999000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	uncore_sleep_ns(u, 500000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	for (int e = 0; e < nev; e++) { /* every event took turns */
		CU_ASSERT(uncore_session_times(s, e, -1, -1, &en, &run) == 1 && run > 0 && run < en);
		CU_ASSERT(uncore_session_value(s, e, -1, -1, &n) == 0 && n > 0);
	}
	const char *names[] = { "llc_miss_ratio", "llc_miss_latency_ns" };
	int ms[] = { ratio, lat };
	for (int m = 0; m < 2; m++)
		for (int sock = 0; sock < uncore_num_sockets(u); sock++)
			for (int w = 0; w < 2; w++) { /* since start, and the last 0.5 s scaled by its own times */
				char what[128];
				snprintf(what, sizeof(what), "perf+sim:emr multiplexed %s socket %d %s", names[m], sock,
					 w ? "last interval" : "since start");
				CU_ASSERT(uncore_session_metric_value(s, ms[m], sock, -1, w ? UNCORE_LAST_INTERVAL : UNCORE_SINCE_START,
								      &v) == 0);
				check(what, v, truth_of(sim, names[m], sock).v);
			}
	uncore_session_free(s);
	uncore_close(u);
}

static void test_truth_snbep(void) { truth_platform("sim:snbep"); }
static void test_truth_emr(void) { truth_platform("sim:emr"); }
/* a Xeon Max in flat mode: every SPR metric, and HBM's beside DDR's (the HBM channels' truth its own) */
static void test_truth_spr(void) { truth_platform("sim:spr,hbm=1"); }
static void test_truth_ivbep(void) { truth_platform("sim:ivbep"); }
static void test_truth_nhm(void) { truth_platform("sim:nhm"); }
static void test_truth_montecito(void) { truth_platform("sim:montecito"); }
static void test_truth_gnr(void) { truth_platform("sim:gnr,cxl=1"); } /* with CXL memory: its metrics count */
/* Diamond Rapids: its one metric, dram_freq from the iMC's fixed counter (no memory metric: no public CAS
 * encoding), on one hub a socket and on two (imh=2: IMH2's channels, ids from 0x8000, count too) */
static void test_truth_dmr(void)
{
	truth_platform("sim:dmr");
	truth_platform("sim:dmr,imh=2");
	truth_platform("perf+sim:dmr");
}

/* A workload placed in a socket's CXL memory (uncore_sim_workload_on "cxl", as uncore check's generators on
 * sim:gnr,cxl=1): the CXL metrics count its bytes on that socket, split over its ports, and DDR's none; a
 * machine without CXL memory refuses it, saying so. */
static void test_cxl_workload(void)
{
	static const char *const be[] = { "sim:gnr,cxl=1,clock=manual", "perf+sim:srf,cxl=1,clock=manual" };
	for (size_t b = 0; b < sizeof(be) / sizeof(be[0]); b++) {
		uncore_t *u = open_sim(be[b]);
		uncore_session_t *s;
		int m[3];
		double v[3];
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		m[0] = uncore_session_add_metric(s, "cxl_read_bytes");
		m[1] = uncore_session_add_metric(s, "cxl_write_bytes");
		m[2] = uncore_session_add_metric(s, "mem_read_bytes");
		CU_ASSERT_FATAL(m[0] >= 0 && m[1] >= 0 && m[2] >= 0 && uncore_session_start(s) == 0);
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		CU_ASSERT_FATAL(uncore_sim_workload_on(u, 1, "cxl", 3e9, 1e9, 1000000000) == 0);
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		for (int i = 0; i < 3; i++)
			CU_ASSERT(uncore_session_metric_value(s, m[i], 1, -1, UNCORE_LAST_INTERVAL, &v[i]) == 0);
		check("CXL workload: socket 1 CXL reads", v[0], 3e9);
		check("CXL workload: socket 1 CXL writes", v[1], 1e9);
		CU_ASSERT(v[2] == 0);
		CU_ASSERT(uncore_session_metric_value(s, m[0], 1, 1, UNCORE_LAST_INTERVAL, &v[0]) == 0);
		check("CXL workload: socket 1 port 1 reads (2/3)", v[0], 2e9);
		uncore_session_free(s);
		uncore_close(u);
	}
	uncore_t *u = open_sim("sim:gnr,clock=manual");
	CU_ASSERT(uncore_sim_workload_on(u, 0, "cxl", 1e9, 0, 1000000000) < 0);
	CU_ASSERT(strstr(uncore_error(), "CXL memory: the machine has none (sim:gnr,cxl=1 has)") != NULL);
	uncore_close(u);
}

/* Does the metric definitions text (a JSON array) define name? */
static int defines(const char *text, const char *name)
{
	json_error_t jerr;
	json_t *root = text ? json_loads(text, 0, &jerr) : NULL, *m, *n;
	size_t i;
	int found = 0;
	json_array_foreach(root, i, m)
		found |= (n = json_object_get(m, "MetricName")) && json_is_string(n) && !strcmp(json_string_value(n), name);
	json_decref(root);
	return found;
}

/* Every built-in platform whose perf metric file from Intel (eventtables/<DIR>/metrics/perf, the directory
 * platforms/perfmon_dirs.txt names) has an LLC miss latency has one built in, llc_miss_latency_ns, and it equals
 * the simulator's configured latency on both backends (GNR, SRF and CWF had none: issue 50). */
static void test_llc_miss_latency_everywhere(void)
{
	char line[256], dir[64], plat[64];
	int checked = 0;
	FILE *dirs = fopen(SRCDIR "/platforms/perfmon_dirs.txt", "r");
	CU_ASSERT_FATAL(dirs != NULL);
	while (fgets(line, sizeof(line), dirs)) {
		char path[512];
		if (sscanf(line, "dir %63s %63s", dir, plat) != 2 || !platform_by_name(plat))
			continue;
		snprintf(path, sizeof(path), SRCDIR "/eventtables/%s/metrics/perf", dir);
		DIR *d = opendir(path);
		int perf_has = 0;
		for (struct dirent *e; d && (e = readdir(d));) {
			char file[1024];
			if (!strstr(e->d_name, ".json"))
				continue;
			snprintf(file, sizeof(file), "%s/%s", path, e->d_name);
			json_t *defs = file_metrics(file), *m;
			size_t i;
			json_array_foreach(defs, i, m) {
				json_t *n = json_object_get(m, "MetricName");
				perf_has |= json_is_string(n) && (!strcmp(json_string_value(n), "llc_demand_data_read_miss_latency") ||
								  /* HSX and BDX */
								  !strcmp(json_string_value(n), "llc_data_read_demand_plus_prefetch_miss_latency"));
			}
			json_decref(defs);
		}
		if (d)
			closedir(d);
		if (!perf_has)
			continue;
		int ours = defines(platform_by_name(plat)->metrics_json, "llc_miss_latency_ns");
		if (!ours)
			fprintf(stderr, "%s: perf's %s file has an LLC miss latency, the built-in metrics none\n", plat, dir);
		CU_ASSERT(ours);
		for (int b = 0; b < 2 && ours; b++) {
			char spec[128], what[192];
			snprintf(spec, sizeof(spec), "%s%s,clock=manual", b ? "perf+sim:" : "sim:", plat);
			uncore_t *u = open_sim(spec);
			struct sim *sim = sim_of(u->acc);
			uncore_session_t *s;
			CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
			int m = uncore_session_add_metric(s, "llc_miss_latency_ns");
			CU_ASSERT_FATAL(m >= 0 && uncore_session_start(s) == 0);
			uncore_sleep_ns(u, 1000000000);
			CU_ASSERT_FATAL(uncore_session_read(s) == 0);
			for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
				double v = NAN;
				snprintf(what, sizeof(what), "%s llc_miss_latency_ns socket %d", spec, sock);
				CU_ASSERT(uncore_session_metric_value(s, m, sock, -1, UNCORE_SINCE_START, &v) == 0);
				check(what, v, sim->prof.llc_miss_lat_ns[sock]);
			}
			uncore_session_free(s);
			uncore_close(u);
		}
		checked += ours;
	}
	fclose(dirs);
	fprintf(stderr, "%d platforms with perf's LLC miss latency have their own, equal to the truth\n", checked);
	CU_ASSERT(checked >= 10); /* EMR, SPR, GNR, SRF, CWF, HSX, BDX, SKX, CLX, ICX */
}
/* Skylake-SP, both backends (CHAs counted from CAPID6, IIO free-running counters, UPI and M2M 64-bit controls) */
static void test_truth_skx(void)
{
	truth_platform("sim:skx");
	truth_platform("perf+sim:skx");
	truth_platform("sim:clx"); /* Cascade Lake: Skylake-SP's machine and metrics over the CLX catalog */
	truth_platform("perf+sim:clx");
}
/* Ice Lake-SP, both backends (CHAs from CAPID6+CAPID7 at the driver's offsets, iMC channels in MMIO windows,
 * IIO and iMC free-running counters, UPI and M2M 64-bit controls) */
static void test_truth_icx(void)
{
	truth_platform("sim:icx");
	truth_platform("perf+sim:icx");
}
/* Haswell-EP on the registers and through its driver (perf+sim:hsx, whose PCU band and CBo rules are Linux's) */
static void test_truth_hsx(void)
{
	truth_platform("sim:hsx");
	truth_platform("perf+sim:hsx");
}
/* Broadwell-EP: HSX's metrics over BDX's catalog (its fixed UCLK and DCLK counters), 22 of 24 CBos */
static void test_truth_bdx(void)
{
	truth_platform("sim:bdx");
	truth_platform("perf+sim:bdx");
	truth_platform("sim:bdxde"); /* Broadwell-DE: one socket, one HA, two channels, its own catalog */
	truth_platform("perf+sim:bdxde");
}
/* Sierra Forest and Clearwater Forest: GNR's uncore and metrics over their own catalogs (with CXL memory, which
 * the CXL metrics count) */
static void test_truth_srf_cwf(void)
{
	truth_platform("sim:srf,cxl=1");
	truth_platform("sim:cwf,cxl=1");
	truth_platform("perf+sim:srf,cxl=1");
	truth_platform("perf+sim:cwf,cxl=1");
}
/* the same through the perf backend: the simulated kernel programs the simulator's registers */
static void test_truth_perf(void)
{
	static const char *const p[] = { "perf+sim:snbep", "perf+sim:ivbep", "perf+sim:nhm", "perf+sim:emr", "perf+sim:spr,hbm=1",
					 "perf+sim:gnr,cxl=1" };
	for (size_t i = 0; i < sizeof(p) / sizeof(p[0]); i++)
		truth_platform(p[i]);
}

/* Linux 6.12.0's GNR driver (kernel=6.12.0): every metric it can count equals the truth (49 of 56, SRF's too); the
 * ones it cannot are refused by name (truth_metric): the 5 UPI metrics (type 8 in its gnr_uncore_units_ignore) and
 * the 2 CXL read metrics (UNC_CXLCM_RxC_PACK_BUF_INSERTS.MEM_DATA counts on counters 4-7, which its generic
 * uncore_type_12 PMU does not program right) */
static void test_truth_perf_6120(void)
{
	CU_ASSERT_EQUAL(truth_platform("perf+sim:gnr,cxl=1,kernel=6.12.0"), 7);
	CU_ASSERT_EQUAL(truth_platform("perf+sim:srf,cxl=1,kernel=6.12.0"), 7);
	/* CWF has no entry in 6.12.0 (b6ccddd6fe1f came with 6.12.8): on the generic driver 13 metrics count, 43 are
	 * refused: 32 of the IIO free-running counters, 8 of umask extensions, the DCLK fixed counter, the 2 CXL reads */
	CU_ASSERT_EQUAL(truth_platform("perf+sim:cwf,cxl=1,kernel=6.12.0,cores=48"), 43);
}

/* Granite Rapids: each channel has two schedulers and reads are split unevenly between them (9:1 on socket 0,
 * 15:85 on socket 1), so the memory metrics equal the truth only when they count both; the schedulers' own
 * counts show the split is really there. */
static void test_gnr_schedulers(void)
{
	char spec[600];
	const char *prof = write_file("sch.prof", "mem_sch0_ratio = 0.9\nsocket1.mem_sch0_ratio = 0.15\n");
	/* Linux 6.12.0's driver too: its cas_count_read alias counts scheduler 0 alone, the library's events both */
	static const char *const backends[] = { "sim:gnr", "perf+sim:gnr", "perf+sim:gnr,kernel=6.12.0" };
	static const char *const names[] = { "mem_bw_read", "mem_bw_write", "mem_bw_total", "mem_read_bytes", "mem_write_bytes" };
	for (int b = 0; b < 3; b++) {
		snprintf(spec, sizeof(spec), "%s,clock=manual,profile=%s", backends[b], prof);
		uncore_t *u = open_sim(spec);
		struct sim *sim = sim_of(u->acc);
		uncore_session_t *s;
		int m[5], sch[2];
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		for (int i = 0; i < 5; i++)
			CU_ASSERT_FATAL((m[i] = uncore_session_add_metric(s, names[i])) >= 0);
		CU_ASSERT_FATAL(uncore_session_start(s) == 0);
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		double secs = (double)uncore_session_elapsed_ns(s) / 1e9;
		for (int sock = 0; sock < 2; sock++) {
			int unit = unit_named(u, "imc"), nb = uncore_unit_boxes(u, unit, sock);
			CU_ASSERT(nb == 12);
			for (int i = 0; i < 5; i++) {
				char what[160];
				double v, t = truth_of(sim, names[i], sock).v * (i >= 3 ? secs : 1);
				snprintf(what, sizeof(what), "%s %s socket %d", backends[b], names[i], sock);
				CU_ASSERT(uncore_session_metric_value(s, m[i], sock, -1, UNCORE_SINCE_START, &v) == 0);
				check(what, v, t);
				for (int k = 0; k < nb; k++) { /* --per-box: each channel its share */
					snprintf(what, sizeof(what), "%s %s socket %d channel %d", backends[b], names[i], sock, k);
					CU_ASSERT(uncore_session_metric_value(s, m[i], sock, uncore_box_number(u, unit, sock, k),
									      UNCORE_SINCE_START, &v) == 0);
					check(what, v, t / nb);
				}
			}
		}
		uncore_session_free(s);
		/* each scheduler alone counts its share of the reads: 0.9 and 0.1 of socket 0's, 0.15 and 0.85 of socket 1's */
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		CU_ASSERT_FATAL((sch[0] = uncore_session_add(s, "UNC_M_CAS_COUNT_SCH0.RD")) >= 0);
		CU_ASSERT_FATAL((sch[1] = uncore_session_add(s, "UNC_M_CAS_COUNT_SCH1.RD")) >= 0);
		CU_ASSERT_FATAL(uncore_session_start(s) == 0);
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		secs = (double)uncore_session_elapsed_ns(s) / 1e9;
		for (int sock = 0; sock < 2; sock++)
			for (int k = 0; k < 2; k++) {
				char what[160];
				uint64_t n = 0;
				double share = sock ? (k ? 0.85 : 0.15) : (k ? 0.1 : 0.9);
				snprintf(what, sizeof(what), "%s SCH%d reads socket %d", backends[b], k, sock);
				CU_ASSERT(uncore_session_value(s, sch[k], sock, -1, &n) == 0);
				check(what, (double)n, sim->prof.mem_read_bps[sock] / 64 * share * secs);
			}
		close_checked(u, s, sim);
		if (b < 2)
			continue;
		/* Linux 6.12.0's own alias (spr_uncore_imc_events' cas_count_read, event 0x05: before 6a8a48644c4b) counts
		 * scheduler 0's share alone, which is why the metrics do not use it */
		u = open_sim(spec);
		sim = sim_of(u->acc);
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		CU_ASSERT_FATAL((sch[0] = uncore_session_add(s, "imc/cas_count_read/")) >= 0);
		CU_ASSERT_FATAL(uncore_session_start(s) == 0);
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		secs = (double)uncore_session_elapsed_ns(s) / 1e9;
		for (int sock = 0; sock < 2; sock++) {
			uint64_t n = 0;
			CU_ASSERT(uncore_session_value(s, sch[0], sock, -1, &n) == 0);
			check("Linux 6.12.0's cas_count_read alias", (double)n,
			      sim->prof.mem_read_bps[sock] / 64 * (sock ? 0.15 : 0.9) * secs);
		}
		close_checked(u, s, sim);
	}
	remove(prof);
}

/* Each of event/metric ev's values on both sockets, and on each IIO stack with --per-box, against the
 * bytes per second (ports of mask) it must show: counts x unit bytes over secs, or a GB/s metric's value. */
static void iio_port_check(const char *what, uncore_t *u, uncore_session_t *s, int ev, int metric, double unit_bytes,
			   double secs, int write, unsigned mask)
{
	int iio = unit_named(u, "iio");
	for (int sock = 0; sock < 2; sock++) {
		struct truth t = iio_truth(sim_of(u->acc), sock, write, mask, 1);
		double v = NAN;
		int nb = uncore_unit_boxes(u, iio, sock);
		for (int k = -1; k < nb; k++) { /* the socket, then each stack its share */
			int box = k < 0 ? -1 : uncore_box_number(u, iio, sock, k);
			char where[200];
			uint64_t n = 0;
			if (metric) {
				CU_ASSERT(uncore_session_metric_value(s, ev, sock, box, UNCORE_SINCE_START, &v) == 0);
			} else {
				CU_ASSERT(uncore_session_value(s, ev, sock, box, &n) == 0);
				v = (double)n * unit_bytes / secs * 1e-9;
			}
			double bps = k < 0 ? t.v : truth_box(t, k, nb);
			snprintf(where, sizeof(where), "%s socket %d box %d", what, sock, box);
			/* a port that carries nothing counts exactly 0 */
			if (bps == 0) {
				CU_ASSERT_EQUAL(v, 0);
			} else {
				check(where, v, bps * 1e-9);
			}
		}
	}
}

/* IIO bandwidth by port on every discovery platform, through the registers and the simulated kernel: each
 * stack's traffic is split over its ports by the profile (ports 1, 3 and 6 only on socket 0, unevenly; socket
 * 1 adds port 0), so the per-port metrics (free-running bw_in/out_port<N>) and the general counters'
 * DATA_REQ_OF_CPU.MEM_WRITE/MEM_READ.PART<N> (ch_mask 47:36) equal the truth only with the right port; the
 * ALL_PARTS forms (and iio_bw_read/write) add every port. */
static void test_iio_ports(void)
{
	static const char *const backends[] = { "sim:emr", "sim:spr", "sim:gnr", "sim:srf", "sim:cwf", "perf+sim:emr",
						"perf+sim:spr", "perf+sim:gnr", "perf+sim:srf", "perf+sim:cwf" };
	const char *prof = write_file("ports.prof", "iio_port0_share = 0\niio_port1_share = 5\niio_port2_share = 0\n"
						    "iio_port3_share = 2\niio_port4_share = 0\niio_port5_share = 0\n"
						    "iio_port6_share = 1\niio_port7_share = 0\nsocket1.iio_port0_share = 4\n");
	char spec[600], name[96];
	for (size_t b = 0; b < sizeof(backends) / sizeof(backends[0]); b++) {
		snprintf(spec, sizeof(spec), "%s,clock=manual,profile=%s", backends[b], prof);
		uncore_t *u = open_sim(spec);
		struct sim *sim = sim_of(u->acc);
		uncore_session_t *s;
		int m[2][SIM_IIO_PORTS];
		/* the per-port metrics, all at once: free-running counters cost no counter */
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		for (int w = 0; w < 2; w++)
			for (int k = 0; k < SIM_IIO_PORTS; k++) {
				snprintf(name, sizeof(name), "iio_bw_%s_port%d", w ? "write" : "read", k);
				CU_ASSERT_FATAL((m[w][k] = uncore_session_add_metric(s, name)) >= 0);
			}
		CU_ASSERT_FATAL(uncore_session_start(s) == 0);
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		for (int w = 0; w < 2; w++)
			for (int k = 0; k < SIM_IIO_PORTS; k++) {
				snprintf(name, sizeof(name), "%s iio_bw_%s_port%d", backends[b], w ? "write" : "read", k);
				iio_port_check(name, u, s, m[w][k], 1, 0, 0, w, 1u << k);
			}
		uncore_session_free(s);
		/* the general counters, a port at a time (DATA_REQ_OF_CPU takes counters 0-1), then all ports */
		for (int k = 0; k <= SIM_IIO_PORTS; k++) {
			int e[2];
			CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
			for (int w = 0; w < 2; w++) {
				if (k < SIM_IIO_PORTS)
					snprintf(name, sizeof(name), "UNC_IIO_DATA_REQ_OF_CPU.MEM_%s.PART%d", w ? "WRITE" : "READ", k);
				else
					snprintf(name, sizeof(name), "UNC_IIO_DATA_REQ_OF_CPU.MEM_%s.ALL_PARTS", w ? "WRITE" : "READ");
				CU_ASSERT_FATAL((e[w] = uncore_session_add(s, name)) >= 0);
			}
			CU_ASSERT_FATAL(uncore_session_start(s) == 0);
			uncore_sleep_ns(u, 1000000000);
			CU_ASSERT_FATAL(uncore_session_read(s) == 0);
			double secs = (double)uncore_session_elapsed_ns(s) / 1e9;
			for (int w = 0; w < 2; w++) {
				char what[160];
				snprintf(what, sizeof(what), "%s DATA_REQ_OF_CPU.MEM_%s port %d", backends[b], w ? "WRITE" : "READ", k);
				iio_port_check(what, u, s, e[w], 0, 4, secs, w, k < SIM_IIO_PORTS ? 1u << k : 0xff);
			}
			uncore_session_free(s);
		}
		close_checked(u, NULL, sim);
	}
	remove(prof);
}

/* Metric sets meant to run together (the default set of the collectd plugin among them) fit the counters:
 * the register backends take them, and the perf backend counts them without multiplexing. */
static void test_groups_fit(void)
{
	/* each backend and the fewest metrics its second set has (Nehalem and Montecito: no power or io group) */
	static const struct { const char *be; int min2; } backends[] = {
		{ "sim:snbep", 4 }, { "sim:emr", 4 }, { "sim:ivbep", 1 }, { "sim:nhm", 1 }, { "sim:montecito", 1 }, { "sim:gnr", 2 }, { "sim:spr", 4 },
		{ "perf+sim:snbep", 4 }, { "perf+sim:emr", 4 }, { "perf+sim:ivbep", 1 }, { "perf+sim:nhm", 1 }, { "perf+sim:gnr", 2 },
		{ "perf+sim:spr", 4 }, { "sim:skx", 2 }, { "perf+sim:skx", 2 }, { "sim:clx", 2 }, { "perf+sim:clx", 2 },
		{ "sim:icx", 4 }, { "perf+sim:icx", 4 }, { "sim:spr,hbm=1", 4 }, { "perf+sim:spr,hbm=1", 4 } };
	static const char *const sets[][4] = { { "memory", "llc", "interconnect", "clock" }, { "latency", "power", "io", NULL } };
	for (size_t b = 0; b < sizeof(backends) / sizeof(backends[0]); b++)
		for (int set = 0; set < 2; set++) {
			uncore_t *u = open_sim(backends[b].be);
			uncore_session_t *s;
			int added = 0;
			uncore_session_new(u, &s);
			for (int i = 0; i < uncore_num_metrics(u); i++) {
				struct uncore_metric_info mi;
				uncore_metric_info(u, i, &mi);
				for (int g = 0; g < 4 && sets[set][g]; g++)
					if (!strcmp(mi.group, sets[set][g]) && uncore_metric_here(u, i) > 0) {
						int rc = uncore_session_add_metric(s, mi.name);
						if (rc < 0)
							fprintf(stderr, "%s: %s\n", backends[b].be, uncore_error());
						CU_ASSERT(rc >= 0);
						added++;
					}
			}
			CU_ASSERT(added >= (set ? backends[b].min2 : 4));
			if (!strncmp(backends[b].be, "perf+", 5)) { /* perf would take any set, multiplexing: these fit, so nothing is */
				CU_ASSERT_FATAL(uncore_session_start(s) == 0);
				uncore_sleep_ns(u, 10000000);
				CU_ASSERT(uncore_session_read(s) == 0 && never_multiplexed(s));
			}
			uncore_session_free(s);
			uncore_close(u);
		}
}

/* Metrics naming metrics, ten times a level, seven levels: each is parsed once and shared, so the deepest
 * has a few dozen nodes (not 10^7) and still counts exactly 10^7 times its event. */
static void test_shared_references(void)
{
	const char *path = "test_metrics_deep.json";
	FILE *f = fopen(path, "w");
	CU_ASSERT_FATAL(f != NULL);
	fprintf(f, "[{\"MetricName\": \"deep0\", \"MetricExpr\": \"UNC_M_CAS_COUNT.RD\"}");
	for (int l = 1; l <= 7; l++) {
		fprintf(f, ",\n{\"MetricName\": \"deep%d\", \"MetricExpr\": \"", l);
		for (int k = 0; k < 10; k++)
			fprintf(f, "%sdeep%d", k ? " + " : "", l - 1);
		fprintf(f, "\"}");
	}
	fprintf(f, "]\n");
	fclose(f);
	uncore_t *u = open_sim("sim:snbep,clock=manual");
	CU_ASSERT_EQUAL_FATAL(uncore_load_metrics(u, path), 8);
	int m = uncore_metric_find(u, "deep7");
	CU_ASSERT_FATAL(m >= 0);
	CU_ASSERT(u->metrics[m].x.nn <= 8 * 10); /* each level: the one below, once, and nine additions */
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	int sm = uncore_session_add_metric(s, "deep7:socket=0");
	CU_ASSERT_FATAL(sm >= 0);
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT(uncore_session_read(s) == 0);
	double v;
	CU_ASSERT(uncore_session_metric_value(s, sm, 0, -1, UNCORE_SINCE_START, &v) == 0);
	CU_ASSERT_DOUBLE_EQUAL(v, 1e7 * sim_of(u->acc)->prof.mem_read_bps[0] / 64, 1e7 * 4);
	finish(u, s);
	remove(path);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "expressions evaluate; NaN on division by zero", test_expressions },
		{ "malformed expressions refused with their position", test_malformed },
		{ "perf's metric dialect: if/else, ?:, source_count, # facts, @ spellings", test_perf_dialect },
		{ "mangled expressions: parsed or refused, never a crash", test_mangled },
		{ "every recursive production bounded, on a 128 KiB stack; too many nodes said so", test_bounded },
		{ "nesting through metric references bounded too, on a 128 KiB stack", test_bounded_references },
		{ "JSON nesting bounded before jansson parses it, on a 128 KiB stack", test_json_nesting },
		{ "definition files: refusals and a good file", test_definition_files },
		{ "perf's EMR metric file loads; its uncore metrics equal the truth", test_perf_metric_file },
		{ "perf's metric files (Intel's EMR, GNR, SRF, CWF; Linux's spellings): every uncore metric equals the truth", test_perf_files_truth },
		{ "metrics that do not fit are refused, session unchanged", test_unschedulable },
		{ "perf backend: metrics that do not fit are multiplexed, scaled to the truth", test_perf_multiplexes },
		{ "every SNB-EP metric equals the truth across wraps", test_truth_snbep },
		{ "every EMR metric equals the truth across wraps", test_truth_emr },
		{ "every SPR metric equals the truth across wraps", test_truth_spr },
		{ "every IVB-EP metric equals the truth across wraps", test_truth_ivbep },
		{ "every HSX metric equals the truth across wraps, on the registers and through perf", test_truth_hsx },
		{ "every BDX and BDX-DE metric equals the truth across wraps, on the registers and through perf", test_truth_bdx },
		{ "every Nehalem-EP metric equals the truth across wraps", test_truth_nhm },
		{ "every Montecito metric equals the truth across wraps", test_truth_montecito },
		{ "every Granite Rapids metric equals the truth across wraps", test_truth_gnr },
		{ "every Diamond Rapids metric equals the truth (sim: and perf+sim:)", test_truth_dmr },
		{ "a workload in CXL memory counts on the CXL metrics of its socket and ports, not DDR's", test_cxl_workload },
		{ "an LLC miss latency wherever perf's metric file has one (GNR, SRF, CWF too), equal to the truth", test_llc_miss_latency_everywhere },
		{ "every Skylake-SP and Cascade Lake metric equals the truth across wraps, on sim: and perf+sim:", test_truth_skx },
		{ "Intel's Skylake-SP and Cascade Lake perf metric files: their uncore metrics load and equal the truth", test_skx_perf_files },
		{ "every Ice Lake-SP metric equals the truth across wraps, on sim: and perf+sim:", test_truth_icx },
		{ "Intel's Ice Lake-SP perf metric file: its uncore metrics load and equal the truth", test_icx_perf_file },
		{ "perf's core metrics named with '%' or a space (Linux's srf-metrics.json) left out, the file's uncore metrics kept", test_perf_file_odd_names },
		{ "Granite Rapids: memory metrics count both schedulers, reads split 9:1 and 15:85", test_gnr_schedulers },
		{ "IIO bandwidth by port (metrics, DATA_REQ_OF_CPU.PART<N>) on every discovery platform, sim: and perf+sim:", test_iio_ports },
		{ "every Sierra Forest and Clearwater Forest metric equals the truth (sim: and perf+sim:)", test_truth_srf_cwf },
		{ "every metric equals the truth through the perf backend", test_truth_perf },
		{ "every metric Linux 6.12.0's GNR driver can count equals the truth; the rest are refused", test_truth_perf_6120 },
		{ "rates exact when a sweep is long next to the interval", test_slow_sweep_short_interval },
		{ "metric groups fit the counters together", test_groups_fit },
		{ "metrics naming metrics are shared, not copied out", test_shared_references },
		{ NULL, NULL },
	};
	static const struct test_case linux_tree[] = {
		{ "Linux's metric files: every uncore metric equals the truth", test_linux_tree }, { NULL, NULL } };
	snprintf(tmpdir, sizeof(tmpdir), "%s/uncore-metrics-XXXXXX", test_tmpdir());
	if (!mkdtemp(tmpdir))
		return 2;
	int rc = run_suite("metrics", getenv("LINUX_TREE") ? linux_tree : tests);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd))
		rc = rc ? rc : 2;
	return rc;
}
