/* Slurm's hostlists: counted, matched and expanded (hostlist.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hostlist.h"

#define DIGITS_MAX 19 /* the most digits of a number taken: below ULONG_MAX, so no overflow */

/* The ranges of a bracket "[a-b,c]" at s (after '['): next number range; 1 while there is one. */
struct range {
	unsigned long lo, hi;
	int width; /* digits of lo when it is zero-padded ("01"), else 0 */
};
static int next_range(const char **s, struct range *r)
{
	const char *p = *s, *q;
	if (!isdigit((unsigned char)*p))
		return 0;
	r->lo = strtoul(p, (char **)&q, 10);
	r->width = p[0] == '0' && q - p > 1 ? (int)(q - p) : 0;
	r->hi = r->lo;
	if (*q == '-') {
		p = q + 1;
		if (!isdigit((unsigned char)*p))
			return 0;
		r->hi = strtoul(p, (char **)&q, 10);
	}
	if (r->hi < r->lo || r->hi - r->lo > 1u << 20 || (*q != ',' && *q != ']'))
		return 0;
	*s = *q == ',' ? q + 1 : q;
	return 1;
}

/* The end of the hostlist element starting at s (a ',' outside brackets, or the end). */
static const char *element_end(const char *s)
{
	int depth = 0;
	for (; *s && (depth || *s != ','); s++)
		depth += *s == '[' ? 1 : *s == ']' ? -1 : 0;
	return s;
}

/* The names one bracket [open, close) stands for: its ranges' sizes summed, at most max + 1. */
static unsigned long bracket_size(const char *open, const char *close, unsigned long max)
{
	unsigned long n = 0;
	struct range r;
	for (const char *s = open + 1; s < close && n <= max && next_range(&s, &r);) {
		n += r.hi - r.lo + 1; /* (each range at most 2^20 + 1) */
		if (*s == ']')
			break;
	}
	return n > max ? max + 1 : n;
}

unsigned long hostlist_size(const char *list, unsigned long max)
{
	unsigned long total = 0;
	for (const char *s = list; *s;) {
		const char *e = element_end(s), *open, *close;
		unsigned long prod = 1;
		for (const char *p = s; prod && (open = memchr(p, '[', (size_t)(e - p))); p = close + 1) {
			if (!(close = memchr(open, ']', (size_t)(e - open))))
				break;
			unsigned long n = bracket_size(open, close, max);
			prod = n && prod > max / n ? max + 1 : prod * n;
		}
		if ((total += prod) > max)
			return max + 1;
		s = *e ? e + 1 : e;
	}
	return total;
}

/* The characters v takes as a range of width writes it ("%0*lu"). */
static size_t shown_len(unsigned long v, int width)
{
	size_t n = 1;
	while (v >= 10)
		v /= 10, n++;
	return n > (size_t)width ? n : (size_t)width;
}

struct hostlist_count {
	unsigned long steps, max;
};

/* Whether bracket [open, close) holds v written in k digits: 1, 0, or -1 past the steps.  Written as the range
 * would write it: "07" only by a range of width 2, "7" only by one without. */
static int bracket_has(const char *open, const char *close, unsigned long v, size_t k, struct hostlist_count *c)
{
	struct range r;
	for (const char *s = open + 1; s < close && next_range(&s, &r);) {
		if (++c->steps > c->max)
			return -1;
		if (v >= r.lo && v <= r.hi && shown_len(v, r.width) == k)
			return 1;
		if (*s == ']')
			break;
	}
	return 0;
}

/* Whether name (len characters) matches the element pat[0..n).  The places of name where the text after each
 * bracket may end are carried from one bracket to the next (at most len + 1 of them), so that the work is the
 * brackets' ranges times those places, however many names the element stands for. */
static int elem_match(const char *pat, size_t n, const char *name, size_t len, struct hostlist_count *c)
{
	unsigned char at[HOSTLIST_NAME_MAX + 1], next[HOSTLIST_NAME_MAX + 1];
	const char *end = pat + n, *open = memchr(pat, '[', n);
	size_t lit = open ? (size_t)(open - pat) : n;
	if (lit > len || memcmp(pat, name, lit))
		return 0;
	if (!open)
		return lit == len;
	memset(at, 0, len + 1);
	at[lit] = 1;
	while (open) {
		const char *close = memchr(open, ']', (size_t)(end - open));
		if (!close)
			return 0;
		const char *text = close + 1, *after = memchr(text, '[', (size_t)(end - text));
		size_t tn = (size_t)((after ? after : end) - text);
		int any = 0;
		memset(next, 0, len + 1);
		for (size_t p = 0; p < len; p++) {
			unsigned long v = 0;
			for (size_t k = 1; at[p] && k <= DIGITS_MAX && p + k <= len && isdigit((unsigned char)name[p + k - 1]); k++) {
				v = v * 10 + (unsigned long)(name[p + k - 1] - '0');
				int has = bracket_has(open, close, v, k, c);
				if (has < 0)
					return -1;
				if (has && p + k + tn <= len && !memcmp(name + p + k, text, tn))
					next[p + k + tn] = 1, any = 1;
			}
		}
		if (!any)
			return 0;
		memcpy(at, next, len + 1);
		open = after;
	}
	return at[len];
}

int hostlist_match(const char *list, const char *name, unsigned long max_steps, unsigned long *steps)
{
	struct hostlist_count c = { 0, max_steps };
	size_t len = strlen(name);
	int rc = 0;
	for (const char *s = list; *s && !rc && len <= HOSTLIST_NAME_MAX;) {
		const char *e = element_end(s);
		rc = elem_match(s, (size_t)(e - s), name, len, &c);
		s = *e ? e + 1 : e;
	}
	if (steps)
		*steps = c.steps;
	return rc;
}

int hostlist_has(const char *list, const char *name)
{
	return hostlist_match(list, name, HOSTLIST_MAX_STEPS, NULL) > 0;
}

/* The names of the element pat[0..n) after prefix, appended to out: -1 when malformed or past max. */
static int elem_expand(const char *prefix, const char *pat, size_t n, char (*out)[64], int *cnt, int max)
{
	const char *open = memchr(pat, '[', n);
	char head[64];
	size_t pre = open ? (size_t)(open - pat) : n;
	if (snprintf(head, sizeof(head), "%s%.*s", prefix, (int)pre, pat) >= (int)sizeof(head))
		return -1;
	if (!open) {
		if (*cnt >= max || memchr(pat, ']', n))
			return -1;
		snprintf(out[(*cnt)++], 64, "%s", head);
		return 0;
	}
	const char *close = memchr(open, ']', n - pre), *s = open + 1;
	struct range r;
	if (!close || close == s)
		return -1;
	while (s < close) {
		if (!next_range(&s, &r))
			return -1;
		for (unsigned long v = r.lo; v <= r.hi; v++) {
			char name[64];
			if (snprintf(name, sizeof(name), "%s%0*lu", head, r.width, v) >= (int)sizeof(name) ||
			    elem_expand(name, close + 1, n - (size_t)(close + 1 - pat), out, cnt, max))
				return -1;
		}
		if (*s == ']')
			break;
	}
	return 0;
}

int hostlist_expand(const char *list, char (*out)[64], int max)
{
	int cnt = 0;
	for (const char *s = list; *s;) {
		const char *e = element_end(s);
		if (e == s || elem_expand("", s, (size_t)(e - s), out, &cnt, max))
			return -1;
		s = *e ? e + 1 : e;
	}
	return cnt;
}
