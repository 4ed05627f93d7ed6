/* CPU lists (cpulist.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpulist.h"

/* A CPU number at *p, advancing it: the number, or -1 when there is none or it is too large. */
static long cpu_number(const char **p)
{
	char *end;
	if (!isdigit((unsigned char)**p))
		return -1;
	long v = strtol(*p, &end, 10);
	*p = end;
	return v >= 0 && v < UC_MAX_CPUS ? v : -1;
}

int cpulist_parse(const char *s, uint8_t *bits, char *why, size_t len)
{
	int n = 0;
	memset(bits, 0, UC_MAX_CPUS / 8);
	while (isspace((unsigned char)*s))
		s++;
	while (*s && !isspace((unsigned char)*s)) {
		const char *at = s;
		long lo = cpu_number(&s), hi = lo;
		if (lo >= 0 && *s == '-') {
			s++;
			hi = cpu_number(&s);
		}
		if (lo < 0 || hi < lo || (*s && *s != ',' && !isspace((unsigned char)*s))) {
			snprintf(why, len, "not a CPU list at '%.16s' (numbers 0..%d, ranges low-high, commas between)", at,
				 UC_MAX_CPUS - 1);
			return -1;
		}
		for (long c = lo; c <= hi; c++)
			if (!cpu_in(bits, (int)c)) {
				bits[c / 8] |= (uint8_t)(1u << (c % 8));
				n++;
			}
		if (*s == ',')
			s++;
	}
	while (isspace((unsigned char)*s))
		s++;
	if (*s) {
		snprintf(why, len, "not a CPU list: more after it ('%.16s')", s);
		return -1;
	}
	return n;
}

const char *cpulist_format(const uint8_t *bits, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = 0;
	for (int c = 0; c < UC_MAX_CPUS; c++) {
		if (!bits[c / 8]) { /* eight at once: a set of 4096 bits is read at every job scan, a job a set */
			c |= 7;
			continue;
		}
		if (!cpu_in(bits, c))
			continue;
		int e = c;
		while (cpu_in(bits, e + 1))
			e++;
		char one[32];
		int k = e > c ? snprintf(one, sizeof(one), "%s%d-%d", at ? "," : "", c, e)
			      : snprintf(one, sizeof(one), "%s%d", at ? "," : "", c);
		if (at + (size_t)k + 4 > len) { /* room for "..." and the end */
			if (len >= 4)
				snprintf(buf + (at + 3 < len ? at : len - 4), 4, "...");
			return buf;
		}
		memcpy(buf + at, one, (size_t)k + 1);
		at += (size_t)k;
		c = e;
	}
	return buf;
}
