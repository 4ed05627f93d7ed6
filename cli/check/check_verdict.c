/* The verdict of `uncore check`: a row per check, as a text table or JSON lines for automation. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../cli.h"

static const char *const names[] = { "PASS", "FAIL", "SKIP", "WARN" };

int verdict_add(struct verdicts *t, enum verdict v, const char *check, const char *expected, const char *measured,
		const char *why_fmt, ...)
{
	if (t->n == t->cap) {
		int cap = t->cap ? 2 * t->cap : 32;
		struct verdict_row *r = realloc(t->rows, (size_t)cap * sizeof(*r));
		if (!r)
			return -1;
		t->rows = r;
		t->cap = cap;
	}
	struct verdict_row *r = &t->rows[t->n++];
	va_list ap;
	r->v = v;
	snprintf(r->check, sizeof(r->check), "%s", check);
	snprintf(r->expected, sizeof(r->expected), "%s", expected);
	snprintf(r->measured, sizeof(r->measured), "%s", measured);
	va_start(ap, why_fmt);
	vsnprintf(r->why, sizeof(r->why), why_fmt, ap);
	va_end(ap);
	return 0;
}

int verdict_print(const struct verdicts *t, int json, const char *backend, int *warned)
{
	int failed = 0, warn = 0;
	if (!json)
		printf("%-50s %-30s %-26s %s\n", "check", "expected", "measured", "verdict");
	for (int i = 0; i < t->n; i++) {
		const struct verdict_row *r = &t->rows[i];
		failed += r->v == V_FAIL;
		warn += r->v == V_WARN;
		if (json) {
			printf("{\"backend\": ");
			out_json_str(stdout, backend);
			printf(", \"check\": ");
			out_json_str(stdout, r->check);
			printf(", \"expected\": ");
			out_json_str(stdout, r->expected);
			printf(", \"measured\": ");
			out_json_str(stdout, r->measured);
			printf(", \"verdict\": \"%s\", \"why\": ", names[r->v]);
			out_json_str(stdout, r->why);
			printf("}\n");
		} else {
			printf("%-50s %-30s %-26s %s%s%s\n", r->check, r->expected, r->measured, names[r->v],
			       *r->why ? ": " : "", r->why);
		}
	}
	if (json) { /* the backend's summary as a row of its own: the text's closing line */
		char why[96];
		verdict_summary(why, sizeof(why), failed, warn);
		printf("{\"backend\": ");
		out_json_str(stdout, backend);
		printf(", \"check\": \"summary\", \"expected\": \"no FAIL\", \"measured\": \"%d FAIL, %d WARN of %d rows\", "
		       "\"verdict\": \"%s\", \"why\": \"%s\"}\n", failed, warn, t->n, failed ? "FAIL" : "PASS", why);
	}
	*warned += warn;
	return failed;
}

void verdict_summary(char *buf, size_t len, int failed, int warned)
{
	/* a warning (a channel possibly empty) is no failure: the exit status stays 0, the line says how many */
	if (failed)
		snprintf(buf, len, "FAIL: a count on this node is wrong (the rows above say which)");
	else if (warned)
		snprintf(buf, len, "PASS with %d warning%s: no check failed; the WARN rows say what could not be judged",
			 warned, warned == 1 ? "" : "s");
	else
		snprintf(buf, len, "PASS: every check passed");
}

void verdict_free(struct verdicts *t)
{
	free(t->rows);
	t->rows = NULL;
	t->n = t->cap = 0;
}

void check_mib(char *buf, size_t len, double bytes) { snprintf(buf, len, "%.1f MiB", bytes / 1048576); }
