/* Intel's perfmon files vendored in eventtables/, read by the tests themselves (jansson). */
#ifndef TEST_EVENTTABLES_H
#define TEST_EVENTTABLES_H

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
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

/* An event of Intel's files as the tests read it: its name, Unit, code, umask and umask extension (the
 * JSON's hexadecimal strings), and the object for any other field. */
struct json_event {
	const char *name, *unit;
	unsigned code, umask;
	unsigned long ext;
	json_t *ev;
};

/* Call fn for every event of the files (paths under eventtables/), in the files' order. */
static inline void each_json_event(const char *const *files, int n, void (*fn)(const struct json_event *e, void *ctx),
				   void *ctx)
{
	for (int f = 0; f < n; f++) {
		json_t *root = eventtable(files[f]), *ev;
		size_t i;
		json_array_foreach(json_object_get(root, "Events"), i, ev) {
			const char *ext = json_string_value(json_object_get(ev, "UMaskExt"));
			struct json_event e = { json_string_value(json_object_get(ev, "EventName")),
						json_string_value(json_object_get(ev, "Unit")),
						(unsigned)strtoul(json_string_value(json_object_get(ev, "EventCode")), NULL, 16),
						(unsigned)strtoul(json_string_value(json_object_get(ev, "UMask")), NULL, 16),
						ext ? strtoul(ext, NULL, 16) : 0, ev };
			fn(&e, ctx);
		}
		json_decref(root);
	}
}

#endif
