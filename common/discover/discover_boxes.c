/*
 * The boxes a discovery finds (struct disc_ctx's list), whichever way it finds them (PCI ids, MMIO places,
 * MSR counts, the discovery tables): appended as found, then put in the order boxes are numbered in.
 */
#include <stdlib.h>
#include "discover.h"
#include "util/error.h"
#include "util/grow.h"

int box_list_add(struct disc_ctx *c, const struct box *b)
{
	struct box *nv = uc_grow(c->v, c->n, &c->cap, sizeof(*nv), 64);
	if (!nv)
		return uc_err("out of memory listing the uncore's boxes");
	c->v = nv;
	c->v[c->n++] = *b;
	return 0;
}

static int box_cmp(const void *x, const void *y)
{
	const struct box *a = x, *b = y;
	if (a->type_idx != b->type_idx)
		return a->type_idx - b->type_idx;
	if (a->socket != b->socket)
		return a->socket - b->socket;
	if (a->die != b->die)
		return a->die - b->die;
	return a->unit_id - b->unit_id;
}

void box_list_finish(struct disc_ctx *c)
{
	if (c->n > 1)
		qsort(c->v, (size_t)c->n, sizeof(*c->v), box_cmp);
	box_number_dies(c->v, c->n);
}
