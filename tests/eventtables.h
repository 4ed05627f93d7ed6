/* Intel's perfmon files vendored in eventtables/, read by the tests themselves (jansson). */
#ifndef TEST_EVENTTABLES_H
#define TEST_EVENTTABLES_H

#include <jansson.h>
#include <stdio.h>
#include "harness.h"

/* eventtables/<rel> parsed, or a fatal assertion naming the file. */
static inline json_t *eventtable(const char *rel)
{
	char path[512];
	json_error_t err;
	snprintf(path, sizeof(path), SRCDIR "/eventtables/%s", rel);
	json_t *root = json_load_file(path, 0, &err);
	if (!root)
		fprintf(stderr, "%s: %s\n", path, err.text);
	CU_ASSERT_FATAL(root != NULL);
	return root;
}

#endif
