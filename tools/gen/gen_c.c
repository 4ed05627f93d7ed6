/* gen_c: data into generated C, escaped (why: gen_c.h). */
#include "gen_c.h"

#include <string.h>

/* ASCII ranges, not isalnum(): the set must not depend on a locale */
static int alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* No '?' (trigraphs), '\' (escapes, line splices), '"' and '\'' (ends of literals), '*' (ends of
 * comments), '$', '@' and '`' (outside C's basic character set), control or non-ASCII bytes. */
static int safe(unsigned char c)
{
	return alnum(c) || (c && strchr(" !#%&()+,-./:;<=>[]^_{|}~", c));
}

void gen_c_bytes(FILE *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (safe(c))
			putc(c, out);
		else /* always 3 digits, so that a digit after it is not taken into the escape */
			fprintf(out, "\\%03o", c);
	}
}

void gen_c_string(FILE *out, const char *s)
{
	putc('"', out);
	gen_c_bytes(out, s, strlen(s));
	putc('"', out);
}

int gen_c_embed(FILE *out, FILE *in)
{
	int c, open = 0, any = 0;
	while ((c = getc(in)) != EOF) {
		char b = (char)c;
		if (!open)
			fputs("\t\"", out);
		gen_c_bytes(out, &b, 1);
		open = c != '\n';
		if (!open)
			fputs("\"\n", out);
		any = 1;
	}
	if (open || !any)
		fputs(any ? "\"\n" : "\t\"\"\n", out);
	return ferror(in) ? -1 : 0;
}

int gen_c_plain(const char *s, const char *extra)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!alnum((unsigned char)*s) && !strchr("._/-", *s) && !(extra && strchr(extra, *s)))
			return 0;
	return 1;
}

int gen_c_identifier(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return 0;
	for (; *s; s++)
		if (!alnum((unsigned char)*s) && *s != '_')
			return 0;
	return 1;
}
