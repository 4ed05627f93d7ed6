/*
 * Finding an entry of a growing array by its name in constant time: an open-
 * addressing table of array indices, case-insensitive (event names are looked
 * up that way).  The array keeps the names; the table asks for them.
 */
#ifndef UNCORE_NAME_INDEX_H
#define UNCORE_NAME_INDEX_H

#include <stddef.h>

typedef const char *(*name_of_fn)(const void *ctx, int i);

struct name_index {
	int *slot; /* array index + 1; 0 = empty */
	size_t cap;
	int n;
};

/* The index of the entry named name, or -1. */
int name_index_find(const struct name_index *x, const char *name, name_of_fn name_of, const void *ctx);
/* Remember that entry i is named name (the array already holds it). */
int name_index_add(struct name_index *x, int i, name_of_fn name_of, const void *ctx);
void name_index_free(struct name_index *x);

#endif
