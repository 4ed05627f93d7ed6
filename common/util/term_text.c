/* Text made safe for a terminal or a log (term_text.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "term_text.h"

#define SHOWN_MAX 8 /* the longest form of one character: "\u202e" or 4 bytes of UTF-8, and a NUL */

/* The code point of the well-formed UTF-8 sequence at s (RFC 3629: no overlong form, no surrogate, at most
 * U+10FFFF), its length into *len: 0 when s starts no such sequence. */
static int utf8_char(const unsigned char *s, size_t *len, unsigned *cp)
{
	unsigned c = s[0], lo = 0x80, hi = 0xbf, n;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, c &= 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, c &= 0x0f, lo = s[0] == 0xe0 ? 0xa0 : 0x80, hi = s[0] == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, c &= 0x07, lo = s[0] == 0xf0 ? 0x90 : 0x80, hi = s[0] == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	for (unsigned i = 1; i < n; i++, lo = 0x80, hi = 0xbf) {
		if (s[i] < lo || s[i] > hi) /* (the NUL at the end among them) */
			return 0;
		c = c << 6 | (s[i] & 0x3fu);
	}
	*len = n;
	*cp = c;
	return 1;
}

/* Whether code point c is one a terminal or a log must not be given raw (term_text.h's list). */
static int control(unsigned c)
{
	return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x061c || c == 0x200e || c == 0x200f ||
	       (c >= 0x2028 && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

int uc_term_unsafe(const char *s, size_t *len, unsigned *cp)
{
	const unsigned char *u = (const unsigned char *)s;
	*cp = u[0];
	*len = u[0] ? 1 : 0;
	if (!u[0])
		return 0;
	if (u[0] < 0x80)
		return control(u[0]);
	if (!utf8_char(u, len, cp)) {
		*cp = u[0];
		return 2;
	}
	return control(*cp);
}

/* The next character of s as shown, into buf: its length there; its length in s into *used (0 at the end). */
static size_t shown(const char *s, char buf[SHOWN_MAX], size_t *used)
{
	unsigned cp;
	int kind = uc_term_unsafe(s, used, &cp);
	if (!kind) {
		memcpy(buf, s, *used);
		buf[*used] = 0;
		return *used;
	}
	if (kind == 1 && (cp == '\t' || cp == '\n' || cp == '\r'))
		return (size_t)snprintf(buf, SHOWN_MAX, "\\%c", cp == '\t' ? 't' : cp == '\n' ? 'n' : 'r');
	if (kind == 2 || cp < 0x80)
		return (size_t)snprintf(buf, SHOWN_MAX, "\\x%02x", cp);
	return (size_t)snprintf(buf, SHOWN_MAX, "\\u%04x", cp);
}

size_t uc_term_escape(char *out, size_t len, const char *s)
{
	size_t at = 0, used;
	char buf[SHOWN_MAX];
	if (!len)
		return 0;
	for (; s && *s; s += used) {
		size_t n = shown(s, buf, &used);
		if (at + n >= len)
			break;
		memcpy(out + at, buf, n);
		at += n;
	}
	out[at] = 0;
	return at;
}

void uc_term_fputs(const char *s, FILE *f)
{
	size_t used;
	char buf[SHOWN_MAX];
	for (; s && *s; s += used)
		fwrite(buf, 1, shown(s, buf, &used), f);
}

size_t uc_term_vformat(char *out, size_t len, const char *fmt, va_list ap)
{
	char msg[4096];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	size_t n = strlen(msg);
	if (n && msg[n - 1] == '\n') /* (libmicrohttpd's and others' messages end with one) */
		msg[n - 1] = 0;
	return uc_term_escape(out, len, msg);
}
