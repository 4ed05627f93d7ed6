#ifndef UNCORE_ARENA_H
#define UNCORE_ARENA_H
#include <stddef.h>
void *arena_alloc(void **arena, size_t size); /* zeroed; NULL when out of memory */
char *arena_strdup(void **arena, const char *s);
void arena_free(void *arena);
#endif
