/*
 * A growing array's room for one more: its capacity doubled (from first) when n has reached it.  The array as
 * it is (v) where there is room, the moved one where there was not, NULL out of memory or past INT_MAX
 * elements (v untouched and still the caller's, *cap as it was; the caller says what it was listing).
 */
#ifndef UC_GROW_H
#define UC_GROW_H
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

static inline void *uc_grow(void *v, int n, int *cap, size_t size, int first)
{
	if (n < *cap)
		return v;
	if (*cap > INT_MAX / 2 || size == 0)
		return NULL;
	int nc = *cap ? 2 * *cap : first;
	if ((size_t)nc > SIZE_MAX / size)
		return NULL;
	void *nv = realloc(v, (size_t)nc * size);
	if (nv)
		*cap = nc;
	return nv;
}
#endif
