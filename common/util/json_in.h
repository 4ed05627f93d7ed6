/* The JSON files a user names (events, metrics): opened as uc_open_input does, their nesting bounded
 * before jansson, which recurses once per level, parses them. */
#ifndef UNCORE_JSON_IN_H
#define UNCORE_JSON_IN_H

#include <jansson.h>

#define UC_JSON_MAX_DEPTH 32 /* perfmon and metric files nest 3 deep */

/* The file's JSON, or NULL with "FILE:LINE:COL: why" (or "cannot open FILE: why") in uncore_error(). */
json_t *uc_json_load(const char *file);

#endif
