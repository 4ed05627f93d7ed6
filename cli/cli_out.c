/* uncore stat's values as perf-like text, CSV (-x SEP) or JSON lines (--json); the fields of the last
 * two are documented in doc/user-guide.md ("Output for scripts"). */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "cli.h"
#include "util/term_text.h"

size_t out_json_char(const char *s, char buf[OUT_JSON_CHAR], size_t *used)
{
	unsigned cp;
	int kind = uc_term_unsafe(s, used, &cp);
	if (*s == '"' || *s == '\\')
		return (size_t)snprintf(buf, OUT_JSON_CHAR, "\\%c", *s);
	if (kind == 1) /* C0, DEL, C1, bidi: the same text to a JSON reader, none of it raw on a terminal */
		return (size_t)snprintf(buf, OUT_JSON_CHAR, "\\u%04x", cp);
	if (kind == 2) /* a byte of no UTF-8 character: JSON has no way to say it */
		return (size_t)snprintf(buf, OUT_JSON_CHAR, "\\ufffd");
	memcpy(buf, s, *used);
	return *used;
}

void out_json_str(FILE *f, const char *s)
{
	size_t used;
	char buf[OUT_JSON_CHAR];
	fputc('"', f);
	for (; s && *s; s += used)
		fwrite(buf, 1, out_json_char(s, buf, &used), f);
	fputc('"', f);
}

void out_text(FILE *f, const char *s) { uc_term_fputs(s, f); }

void out_said(FILE *f, const char *prefix, const char *text)
{
	fputs(prefix, f);
	uc_term_fputs(text, f);
	fputc('\n', f);
}

/* A CSV field: quoted when it holds the separator, a quote or a line break. */
static void csv_field(const struct out *o, const char *s)
{
	if (!strpbrk(s, "\"\r\n") && !strstr(s, o->sep)) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static const char *const fields[] = { "time", "socket", "box", "name", "value", "unit", "backend", "simulated",
				      "enabled_ns", "running_ns", "status" };
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

void out_header(const struct out *o)
{
	if (o->fmt != OUT_CSV)
		return;
	for (size_t i = 0; i < NFIELDS; i++)
		printf("%s%s", i ? o->sep : "", fields[i]);
	putchar('\n');
}

static void text(const struct out_rec *r)
{
	if (r->interval)
		printf("%10.3f ", r->t);
	if (r->box < 0)
		printf("socket%-3d ", r->socket);
	else
		printf("  %-7s ", r->box_label);
	if (r->failed) {
		char mark[128];
		snprintf(mark, sizeof(mark), "<not counted: %s failed>", r->failed);
		printf("%-44s %20s\n", r->name, mark);
		return;
	}
	if (r->not_counted) /* as perf stat: the kernel never had it on the counters */
		printf("%-44s %20s", r->name, "<not counted>");
	else if (r->metric && !strcmp(r->unit, "B")) /* bytes are whole: no fraction of a byte to show */
		printf("%-44s %20.0f %s", r->name, r->value, r->unit);
	else if (r->metric)
		printf("%-44s %20.4f %s", r->name, r->value, r->unit);
	else if (r->scaled)
		printf("%-44s %20.2f %s", r->name, r->value, r->unit);
	else
		printf("%-44s %20" PRIu64, r->name, r->count);
	if (r->times && r->running_ns < r->enabled_ns) /* the kernel shared the counters */
		printf("  (multiplexed: counting %.1f%% of the time)",
		       r->enabled_ns ? 100.0 * (double)r->running_ns / (double)r->enabled_ns : 0.0);
	if (r->devices)
		printf("  %s", r->devices->text);
	if (r->channel) /* a zero that says why, not a silent one (issue 91) */
		printf("  (%s)", r->channel == UNCORE_CHAN_EMPTY ? "empty channel: no DIMM" : "no channel");
	putchar('\n');
}

void out_record(const struct out *o, const struct out_rec *r)
{
	char v[64], box[16] = "", en[24] = "", run[24] = "";
	/* the box is named on stderr when it fails */
	const char *status = r->failed ? "failed" : r->not_counted ? "not_counted" : r->channel == UNCORE_CHAN_EMPTY ? "empty"
			     : r->channel ? "no_channel" : "ok";
	if (o->fmt == OUT_TEXT) {
		text(r);
		return;
	}
	if (r->failed || r->not_counted) /* no number at all rather than one too small */
		v[0] = 0;
	else if (r->metric || r->scaled)
		snprintf(v, sizeof(v), isfinite(r->value) ? "%.15g" : "nan", r->value);
	else
		snprintf(v, sizeof(v), "%" PRIu64, r->count);
	if (r->box >= 0)
		snprintf(box, sizeof(box), "%d", r->box);
	if (r->times) {
		snprintf(en, sizeof(en), "%" PRIu64, r->enabled_ns);
		snprintf(run, sizeof(run), "%" PRIu64, r->running_ns);
	}
	if (o->fmt == OUT_CSV) {
		printf("%.6f%s%d%s%s%s", r->t, o->sep, r->socket, o->sep, box, o->sep);
		csv_field(o, r->name);
		printf("%s%s%s", o->sep, v, o->sep);
		csv_field(o, r->unit);
		printf("%s", o->sep);
		csv_field(o, o->backend);
		printf("%s%d%s%s%s%s%s%s\n", o->sep, o->simulated, o->sep, en, o->sep, run, o->sep, status);
		return;
	}
	printf("{\"time\": %.6f, \"socket\": %d, \"box\": %s, ", r->t, r->socket, box[0] ? box : "null");
	if (r->box >= 0 && r->die >= 0) /* only where the socket has several dies: other output stays as it was */
		printf("\"die\": %d, ", r->die);
	printf(r->metric ? "\"metric\": " : "\"event\": ");
	out_json_str(stdout, r->name);
	printf(", \"value\": %s, \"unit\": ", !v[0] || (r->metric && !isfinite(r->value)) ? "null" : v);
	out_json_str(stdout, r->unit);
	printf(", \"backend\": ");
	out_json_str(stdout, o->backend);
	printf(", \"simulated\": %s, \"enabled_ns\": %s, \"running_ns\": %s, \"status\": \"%s\"",
	       o->simulated ? "true" : "false", en[0] ? en : "null", run[0] ? run : "null", status);
	if (r->devices) { /* a port of an IIO box: its devices, as the exporter labels them (comma lists) */
		printf(", \"pci_bdf\": ");
		out_json_str(stdout, r->devices->bdf);
		printf(", \"device\": ");
		out_json_str(stdout, r->devices->name);
		printf(", \"driver\": ");
		out_json_str(stdout, r->devices->driver);
	}
	printf("}\n");
}
