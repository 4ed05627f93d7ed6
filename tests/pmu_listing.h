/* The Linux driver's sysfs listings platforms/<p>/linux_pmus*.txt (tools/vectors/linux_pmus.py), read into
 * sorted lines "<pmu>/<file> <text>", for the tests that hold the simulated kernel (test_kernel_tree) and the
 * platforms' alias tables (test_alias_tables) against them. */
#ifndef TEST_PMU_LISTING_H
#define TEST_PMU_LISTING_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "harness.h"

struct lines {
	char **v;
	int n, cap;
};

static inline void add_line(struct lines *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		l->v = realloc(l->v, (size_t)l->cap * sizeof(*l->v));
		CU_ASSERT_FATAL(l->v != NULL);
	}
	l->v[l->n] = strdup(s);
	CU_ASSERT_FATAL(l->v[l->n] != NULL);
	l->n++;
}

static inline void free_lines(struct lines *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (struct lines){ 0 };
}

static inline int by_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The source tree: SRCDIR where the test is built with it, else $top_srcdir or the build directory's parent. */
static inline const char *listing_top(void)
{
#ifdef SRCDIR
	return SRCDIR;
#else
	const char *top = getenv("top_srcdir");
	return top ? top : "..";
#endif
}

/* The listing platforms/<name>'s data lines, sorted; -1 (and a line saying so) when it cannot be opened. */
static inline int read_listing(const char *name, struct lines *l)
{
	char path[1024], line[512];
	snprintf(path, sizeof(path), "%s/platforms/%s", listing_top(), name);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (line[0] && line[0] != '#')
			add_line(l, line);
	}
	fclose(f);
	qsort(l->v, (size_t)l->n, sizeof(*l->v), by_str);
	return 0;
}

/* The path part of a line (up to the space). */
static inline size_t path_len(const char *l) { return strcspn(l, " "); }

static inline int cmp_path(const char *a, const char *b)
{
	size_t la = path_len(a), lb = path_len(b);
	int c = strncmp(a, b, la < lb ? la : lb);
	return c ? c : (la > lb) - (la < lb);
}

/* The text of the file at path in a sorted listing, or NULL when the listing has no such file. */
static inline const char *listing_text(const struct lines *l, const char *path)
{
	int lo = 0, hi = l->n - 1;
	while (lo <= hi) {
		int mid = lo + (hi - lo) / 2, c = cmp_path(l->v[mid], path);
		if (!c)
			return l->v[mid] + path_len(l->v[mid]) + !!l->v[mid][path_len(l->v[mid])];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

#endif
