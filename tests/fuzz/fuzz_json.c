/* Intel perfmon JSON files through the importer, on SNB-EP (first byte even) or EMR; an event that
 * loads is counted once. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uncore_t *u;
	if (size < 1)
		return 0;
	if (uncore_open(data[0] & 1 ? "sim:emr,clock=manual" : "sim:snbep,clock=manual", &u))
		abort();
	int before = uncore_num_events(u);
	int n = uncore_load_events(u, fuzz_file(data + 1, size - 1));
	for (int i = n > 0 ? before : uncore_num_events(u); i < uncore_num_events(u) && i < before + 8; i++) {
		struct uncore_event_info e;
		uncore_session_t *s;
		uncore_event_info(u, i, &e);
		if (uncore_session_new(u, &s))
			abort();
		if (uncore_session_add(s, e.name) >= 0 && !uncore_session_start(s))
			uncore_session_read(s);
		uncore_session_free(s);
	}
	fuzz_check(u);
	uncore_close(u);
	return 0;
}
