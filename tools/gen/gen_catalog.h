/*
 * gen_catalog: an event catalog written as C (struct uc_catalog, common/platform/platform.h) by gen_events
 * and gen_perfmon alike: its rows, and its strings kept in one array (a pool) the rows hold offsets into.
 *
 * A table of rows with string pointers needs one relocation a pointer at every program start, and under
 * AddressSanitizer every string literal is a global of its own, registered and scanned at each start: the
 * event catalogs held 275,000 such relocations, half of what loading the library cost.  Offsets into one
 * array need none.  Equal strings are stored once ("cha", "", "json").
 */
#ifndef GEN_CATALOG_H
#define GEN_CATALOG_H

#include <stdint.h>
#include <stdio.h>

struct gen_pool {
	char *buf;       /* the strings, each ended by its NUL */
	size_t len, cap;
	uint32_t *slot;  /* open addressing: offset + 1 of a string, 0 empty */
	size_t nslot, used;
};

/* The offset of s in the pool, added if it is not there; exits with a message when out of memory or past
 * 4 GiB (a generator, not the library). */
uint32_t gen_pool_add(struct gen_pool *p, const char *s);
/* The pool as "static const char SYMBOL[] =" and string literals, one string a line, escaped as gen_c writes
 * them. */
void gen_pool_write(FILE *out, const char *symbol, const struct gen_pool *p);
void gen_pool_free(struct gen_pool *p);

/* A catalog being written: its pool and how many rows it has. */
struct gen_catalog {
	struct gen_pool pool;
	int rows;
};
/* "static const struct uc_event_row SYMBOL_rows[] = {" */
void gen_catalog_begin(FILE *out, const char *symbol, struct gen_catalog *c);
/* One row (flags: C text, "UC_EV_FIXED | UC_EV_SOCKET"). */
void gen_catalog_row(FILE *out, struct gen_catalog *c, const char *name, const char *unit, unsigned code, unsigned umask,
		     int ext, unsigned ctr_mask, int maxinc, const char *flags, unsigned long long umext,
		     const char *filters, const char *desc, const char *src);
/* The rows' end, the pool and "const struct uc_catalog SYMBOL"; frees the pool. */
void gen_catalog_end(FILE *out, const char *symbol, struct gen_catalog *c);

#endif
