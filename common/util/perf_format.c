/* Parsing the kernel's perf PMU format lines and scattering values over them. */
#include <stdlib.h>
#include <string.h>
#include "perf_format.h"
#include "error.h"

static int parse_bit(const char **p, unsigned *out)
{
	char *end;
	unsigned long v;
	if (**p < '0' || **p > '9')
		return -1;
	v = strtoul(*p, &end, 10);
	if (v > 63)
		return -1;
	*out = (unsigned)v;
	*p = end;
	return 0;
}

int perf_format_parse(const char *name, const char *text, struct perf_format *f)
{
	static const char *const words[] = { "config:", "config1:", "config2:" };
	const char *p = text;
	size_t len = strlen(text);
	memset(f, 0, sizeof(*f));
	f->word = -1;
	for (int w = 0; w < 3; w++)
		if (!strncmp(p, words[w], strlen(words[w]))) {
			f->word = w;
			p += strlen(words[w]);
		}
	if (f->word < 0)
		return uc_err("perf format '%s' ('%.40s'): expected config:, config1: or config2:", name, text);
	if (len && text[len - 1] == '\n')
		len--;
	for (;;) {
		unsigned lo, hi;
		if (f->nranges == PF_MAX_RANGES || parse_bit(&p, &lo))
			return uc_err("perf format '%s' ('%.40s'): expected a bit number 0..63 or at most %d ranges", name,
				      text, PF_MAX_RANGES);
		hi = lo;
		if (*p == '-' && (p++, parse_bit(&p, &hi) || hi < lo))
			return uc_err("perf format '%s' ('%.40s'): a range must be LO-HI with LO <= HI <= 63", name, text);
		f->r[f->nranges].lo = (uint8_t)lo;
		f->r[f->nranges++].hi = (uint8_t)hi;
		if (*p != ',')
			break;
		p++;
	}
	if ((size_t)(p - text) != len)
		return uc_err("perf format '%s' ('%.40s'): unexpected '%.10s'", name, text, p);
	return 0;
}

int perf_format_width(const struct perf_format *f)
{
	int w = 0;
	for (int i = 0; i < f->nranges; i++)
		w += f->r[i].hi - f->r[i].lo + 1;
	return w > 64 ? 64 : w;
}

int perf_format_put(const char *name, const struct perf_format *f, uint64_t v, uint64_t cfg[3])
{
	uint64_t left = v;
	for (int i = 0; i < f->nranges && left; i++) {
		int n = f->r[i].hi - f->r[i].lo + 1;
		uint64_t part = left & uc_width_mask(n), mask = uc_width_mask(n) << f->r[i].lo;
		cfg[f->word] = (cfg[f->word] & ~mask) | (part << f->r[i].lo);
		left = n >= 64 ? 0 : left >> n;
	}
	if (left)
		return uc_err("value 0x%llx does not fit the kernel's '%s' field (%d bits): the kernel would drop bits "
			      "without an error", (unsigned long long)v, name, perf_format_width(f));
	return 0;
}
