/*
 * Prometheus names for the library's metrics, following Prometheus' conventions (base units, the unit as
 * the name's suffix, _total on counters, no unit in a label):
 *   a per-second metric is a counter of what its rate adds up to:  mem_bw_read (GB/s)  ->
 *                                                                   uncore_memory_read_bytes_total
 *   an integral count is the same counter:                          mem_read_bytes (B) -> the same family
 *   a per-port metric is its family with a port label:             iio_bw_read_port3  -> {port="3"}
 *   a frequency in hertz, a latency in seconds, a percentage as a ratio from 0 to 1 (gauges).
 * The rule is generic, so that Intel's metric files (memory_bandwidth_read, MB/s) land in the same families.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ue.h"

static int ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

/* Words of a metric's name as Prometheus spells them; NULL: the word is dropped (its meaning is the unit
 * suffix or the counter's _total). */
static const char *word(const char *w, int counter)
{
	static const struct { const char *from, *to; } words[] = {
		{ "mem", "memory" }, { "freq", "frequency" }, { "util", "utilization" },
		{ "bw", NULL },      { "bandwidth", NULL },   { "bytes", NULL },
		{ "ns", NULL },      { "us", NULL },          { "ms", NULL },
	};
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
		if (!strcmp(w, words[i].from))
			return words[i].to;
	if (counter && !strcmp(w, "total"))
		return NULL; /* mem_bw_total: the counter's _total says it */
	return w;
}

void ue_family_of(const struct uncore_metric_info *mi, struct ue_family *f, double *to_base, int *port)
{
	const char *unit = mi->unit;
	int bytes = ends_with(unit, "B/s") || ends_with(unit, "B");
	memset(f, 0, sizeof(*f));
	*port = -1;
	*to_base = mi->scale != 0 ? 1 / mi->scale : 1; /* "1e-9GB/s": the expression itself is in B/s */
	f->counter = ends_with(unit, "/s") || !strcmp(mi->group, "totals") || !strcmp(mi->group, "locality") || (bytes && !ends_with(unit, "/s"));
	if (f->counter)
		f->unit = bytes ? "bytes" : "";
	else if (ends_with(unit, "Hz"))
		f->unit = "hertz";
	else if (ends_with(unit, "%"))
		f->unit = "ratio"; /* value x (1/scale): "100%" is a share from 0 to 1 */
	else if (!strcmp(unit, "ns") || !strcmp(unit, "us") || !strcmp(unit, "ms") || !strcmp(unit, "s")) {
		f->unit = "seconds";
		*to_base *= unit[0] == 'n' ? 1e-9 : unit[0] == 'u' ? 1e-6 : unit[0] == 'm' ? 1e-3 : 1;
	} else {
		f->unit = "";
		*to_base = 1; /* a unit of its own: kept as the metric gives it */
	}
	/* the words, lower case, [a-z0-9] */
	char buf[128], out[160] = "";
	size_t n = 0;
	for (const char *p = mi->name; *p && n + 1 < sizeof(buf); p++) {
		char ch = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
		buf[n++] = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ? ch : ' ';
	}
	buf[n] = 0;
	for (char *save = NULL, *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!strncmp(w, "port", 4) && w[4] >= '0' && w[4] <= '9' && strspn(w + 4, "0123456789") == strlen(w + 4)) {
			*port = atoi(w + 4);
			continue;
		}
		const char *to = word(w, f->counter);
		if (to && strlen(out) + strlen(to) + 2 < sizeof(out))
			snprintf(out + strlen(out), sizeof(out) - strlen(out), "%s%s", out[0] ? "_" : "", to);
	}
	const char *suffix = f->unit[0] && !ends_with(out, f->unit) ? f->unit : "";
	snprintf(f->name, sizeof(f->name), "%s%s%s%s", strncmp(out, "uncore_", 7) ? "uncore_" : "", out,
		 suffix[0] ? "_" : "", suffix);
	const char *desc = mi->desc && mi->desc[0] ? mi->desc : "";
	if (f->counter && ends_with(unit, "/s"))
		snprintf(f->help, sizeof(f->help), "intel-uncore's %s counted since the exporter started (rate() gives it per "
			 "second): %s", mi->name, desc);
	else
		snprintf(f->help, sizeof(f->help), "intel-uncore's %s%s: %s", mi->name,
			 !strcmp(f->unit, "ratio") ? " as a share from 0 to 1" : !strcmp(f->unit, "seconds") ? " in seconds" :
			 !strcmp(f->unit, "hertz") ? " in hertz" : "", desc);
}

void ue_label_escape(char *out, size_t len, const char *in)
{
	size_t n = 0;
	for (; *in && n + 3 < len; in++) {
		if (*in == '\\' || *in == '"')
			out[n++] = '\\', out[n++] = *in;
		else if (*in == '\n')
			out[n++] = '\\', out[n++] = 'n';
		else
			out[n++] = *in;
	}
	out[n] = 0;
}
