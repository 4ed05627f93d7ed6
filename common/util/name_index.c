/* name_index.h: FNV-1a over the lower-cased name, linear probing, grown at half full. */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <strings.h>
#include "name_index.h"
#include "error.h"

static size_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (uint64_t)tolower((unsigned char)*s)) * 1099511628211ull;
	return (size_t)h;
}

int name_index_find(const struct name_index *x, const char *name, name_of_fn name_of, const void *ctx)
{
	if (!x->cap || !name)
		return -1;
	for (size_t k = hash(name) & (x->cap - 1);; k = (k + 1) & (x->cap - 1)) {
		int i = x->slot[k] - 1;
		if (i < 0)
			return -1;
		if (!strcasecmp(name_of(ctx, i), name))
			return i;
	}
}

static void put(int *slot, size_t cap, size_t h, int i)
{
	size_t k = h & (cap - 1);
	while (slot[k])
		k = (k + 1) & (cap - 1);
	slot[k] = i + 1;
}

int name_index_add(struct name_index *x, int i, name_of_fn name_of, const void *ctx)
{
	if ((size_t)(x->n + 1) * 2 > x->cap) {
		size_t cap = x->cap ? 2 * x->cap : 1024;
		int *slot = calloc(cap, sizeof(*slot));
		if (!slot)
			return uc_err("out of memory");
		for (size_t k = 0; k < x->cap; k++)
			if (x->slot[k])
				put(slot, cap, hash(name_of(ctx, x->slot[k] - 1)), x->slot[k] - 1);
		free(x->slot);
		x->slot = slot;
		x->cap = cap;
	}
	put(x->slot, x->cap, hash(name_of(ctx, i)), i);
	x->n++;
	return 0;
}

void name_index_free(struct name_index *x)
{
	free(x->slot);
	*x = (struct name_index){ 0 };
}
