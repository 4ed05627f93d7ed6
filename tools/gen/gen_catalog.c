/* gen_catalog: an event catalog as C, its strings in one array (why: gen_catalog.h). */
#include "gen_catalog.h"

#include "gen_c.h"

#include <stdlib.h>
#include <string.h>

static void out_of_memory(void)
{
	fprintf(stderr, "gen_catalog: out of memory (or a pool past 4 GiB)\n");
	exit(1);
}

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

/* The slot of s: the one holding it, else the empty one where it goes. */
static uint32_t *find(const struct gen_pool *p, const char *s)
{
	for (size_t i = hash(s) & (p->nslot - 1);; i = (i + 1) & (p->nslot - 1))
		if (!p->slot[i] || !strcmp(p->buf + p->slot[i] - 1, s))
			return &p->slot[i];
}

static void grow_slots(struct gen_pool *p)
{
	struct gen_pool bigger = *p;
	bigger.nslot = p->nslot ? p->nslot * 2 : 1024;
	if (!(bigger.slot = calloc(bigger.nslot, sizeof(*bigger.slot))))
		out_of_memory();
	for (size_t i = 0; i < p->nslot; i++)
		if (p->slot[i])
			*find(&bigger, p->buf + p->slot[i] - 1) = p->slot[i];
	free(p->slot);
	*p = bigger;
}

uint32_t gen_pool_add(struct gen_pool *p, const char *s)
{
	size_t n = strlen(s) + 1;
	if (2 * (p->used + 1) > p->nslot)
		grow_slots(p);
	uint32_t *at = find(p, s);
	if (*at)
		return *at - 1;
	if (p->len + n >= UINT32_MAX)
		out_of_memory();
	if (p->len + n > p->cap) {
		size_t cap = p->cap ? p->cap : 1 << 16;
		while (cap < p->len + n)
			cap *= 2;
		char *b = realloc(p->buf, cap);
		if (!b)
			out_of_memory();
		p->buf = b;
		p->cap = cap;
	}
	memcpy(p->buf + p->len, s, n);
	*at = (uint32_t)p->len + 1;
	p->used++;
	p->len += n;
	return *at - 1;
}

void gen_pool_write(FILE *out, const char *symbol, const struct gen_pool *p)
{
	fprintf(out, "static const char %s[] =\n", symbol);
	if (!p->len)
		fputs("\t\"\"", out);
	/* each string with its NUL (\000: gen_c_bytes escapes it), the literal's own NUL after the last */
	for (size_t at = 0; at < p->len;) {
		size_t n = strlen(p->buf + at) + 1;
		fputs(at ? "\n\t\"" : "\t\"", out);
		gen_c_bytes(out, p->buf + at, n);
		putc('"', out);
		at += n;
	}
	fputs(";\n", out);
}

void gen_pool_free(struct gen_pool *p)
{
	free(p->buf);
	free(p->slot);
	memset(p, 0, sizeof(*p));
}

void gen_catalog_begin(FILE *out, const char *symbol, struct gen_catalog *c)
{
	memset(c, 0, sizeof(*c));
	fprintf(out, "static const struct uc_event_row %s_rows[] = {\n", symbol);
}

void gen_catalog_row(FILE *out, struct gen_catalog *c, const char *name, const char *unit, unsigned code, unsigned umask,
		     int ext, unsigned ctr_mask, int maxinc, const char *flags, unsigned long long umext,
		     const char *filters, const char *desc, const char *src)
{
	/* added one by one (an argument list's order is the compiler's), so that the pool is the same whoever builds it */
	uint32_t s[5];
	const char *v[5] = { name, unit, filters, desc, src };
	for (int i = 0; i < 5; i++)
		s[i] = gen_pool_add(&c->pool, v[i]);
	/* in struct uc_event_row's order: the strings, umext, ctr_mask, code, umask, ext, maxinc, flags */
	fprintf(out, "\t{ %u, %u, %u, %u, %u, 0x%llx, 0x%04x, 0x%02x, 0x%02x, %d, %d, %s },\n", s[0], s[1], s[2], s[3],
		s[4], umext, ctr_mask, code, umask, ext, maxinc, flags);
	c->rows++;
}

void gen_catalog_end(FILE *out, const char *symbol, struct gen_catalog *c)
{
	char pool[160];
	fputs("};\n", out);
	snprintf(pool, sizeof(pool), "%s_pool", symbol);
	gen_pool_write(out, pool, &c->pool);
	fprintf(out, "const struct uc_catalog %s = { %s_rows, %s_pool, %d };\n", symbol, symbol, symbol, c->rows);
	gen_pool_free(&c->pool);
}
