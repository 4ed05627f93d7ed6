/*
 * What a perfmon event's Filter means for our boxes: a platform's unit map (platforms/<p>/perfmon_units.txt,
 * "filter OURS JSON_FILTER" and "fold FIELD SHIFT" lines) as rows, shared by tools/gen/gen_perfmon, which
 * builds the catalogs with them, and the library, which applies the same rows to Intel JSON a user loads
 * (events/catalog.c), so that an event loaded from a file programs the filter registers as the built-in
 * one does.  Nothing here depends on the rest of the library: gen_perfmon builds it in.
 */
#ifndef UNCORE_PERFMON_FILTER_H
#define UNCORE_PERFMON_FILTER_H

#include <stddef.h>

struct uc_perfmon_filter {
	const char *json; /* the Filter as Intel's JSON gives it ("CBoFilter0[23:17]"); NULL ends a table */
	const char *ours; /* our filter spec ("state:0x7f", "" none), or "split(name@lo[.width],...)": the event's
			   * FILTER_VALUE cut into those fields as their defaults */
};

/* A fold row of the unit map ("fold FIELD SHIFT"): a JSON field given apart from UMaskExt (the IIO's PortMask
 * and FCMask, which carry what its Filter "fc, chnl" selects) goes into the umask extension at shift, when
 * UMaskExt is 0. */
struct uc_perfmon_fold {
	const char *field; /* NULL ends a table */
	int shift;
};

/* The filter spec (struct uc_event.filters) of a perfmon event whose Filter is filter ("", "na" or "null":
 * none) and whose FILTER_VALUE is value (hexadecimal as Intel writes it; NULL or "": 0), by the rows of
 * rows (NULL: none): 0 with the spec in out; 1 when no row names the Filter; -1 with why when the value is
 * not a hexadecimal number, the row's split is malformed, the value sets a bit no split field covers, or
 * out is too small. */
int uc_perfmon_filter_spec(const struct uc_perfmon_filter *rows, const char *filter, const char *value, char *out,
			   size_t len, char *why, size_t wlen);

#endif
