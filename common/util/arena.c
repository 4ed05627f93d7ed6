/* A chain of allocations freed together: strings of loaded events, generic box types. */
#include <stdlib.h>
#include <string.h>
#include "arena.h"

struct blk {
	struct blk *next;
	max_align_t data[];
};

void *arena_alloc(void **arena, size_t size)
{
	struct blk *b = calloc(1, sizeof(*b) + size);
	if (!b)
		return NULL;
	b->next = *arena;
	*arena = b;
	return b->data;
}

char *arena_strdup(void **arena, const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = arena_alloc(arena, n);
	if (d)
		memcpy(d, s, n);
	return d;
}

void arena_free(void *arena)
{
	struct blk *b = arena;
	while (b) {
		struct blk *n = b->next;
		free(b);
		b = n;
	}
}
