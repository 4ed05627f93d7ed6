/* uc_perfmon_filter_spec (perfmon_filter.h): a row's spec, or its split of FILTER_VALUE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfmon_filter.h"

/* FILTER_VALUE v cut by "name@lo[.width],...)" (width 1 when not given): "name:0xV" for every field, 0
 * included, so that the event programs exactly the register value Intel gives and the user may still
 * override each field. */
static int split_value(const char *spec, unsigned long long v, char *out, size_t len, char *why, size_t wlen)
{
	unsigned long long covered = 0;
	size_t n = 0;
	out[0] = 0;
	for (const char *p = spec; *p && *p != ')';) {
		char field[64];
		int lo, width = 1, used = 0;
		if (sscanf(p, "%63[^@]@%d%n", field, &lo, &used) != 2) {
			snprintf(why, wlen, "bad split filter: %s", spec);
			return -1;
		}
		p += used;
		if (*p == '.') {
			char *end;
			width = (int)strtol(p + 1, &end, 10);
			p = end;
		}
		if (lo < 0 || width < 1 || lo + width > 64) {
			snprintf(why, wlen, "split field out of range: %s", field);
			return -1;
		}
		unsigned long long m = (width == 64 ? ~0ULL : (1ULL << width) - 1) << lo;
		covered |= m;
		n += (size_t)snprintf(out + n, n < len ? len - n : 0, "%s%s:0x%llx", n ? "," : "", field, (v & m) >> lo);
		p += *p == ',';
	}
	if (v & ~covered) {
		snprintf(why, wlen, "FILTER_VALUE 0x%llx sets bits no field of split(%s covers", v, spec);
		return -1;
	}
	if (n >= len) {
		snprintf(why, wlen, "split filter too long: %s", spec);
		return -1;
	}
	return 0;
}

int uc_perfmon_filter_spec(const struct uc_perfmon_filter *rows, const char *filter, const char *value, char *out,
			   size_t len, char *why, size_t wlen)
{
	const char *ours = NULL;
	if (!len) {
		snprintf(why, wlen, "no room for a filter spec");
		return -1;
	}
	out[0] = 0;
	if (!filter || !*filter || !strcmp(filter, "na") || !strcmp(filter, "null")) /* JKT and IVT write "null" */
		return 0;
	for (int i = 0; rows && rows[i].json && !ours; i++)
		if (!strcmp(rows[i].json, filter))
			ours = rows[i].ours;
	if (!ours)
		return 1;
	if (strncmp(ours, "split(", 6)) {
		if (strlen(ours) >= len) {
			snprintf(why, wlen, "filter spec too long: %s", ours);
			return -1;
		}
		snprintf(out, len, "%s", ours);
		return 0;
	}
	char *end;
	unsigned long long v = value ? strtoull(value, &end, 16) : 0;
	if (value && *value && *end) {
		snprintf(why, wlen, "FILTER_VALUE \"%.40s\" is not a hexadecimal number", value);
		return -1;
	}
	return split_value(ours + 6, v, out, len, why, wlen);
}
