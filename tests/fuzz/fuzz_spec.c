/* Event specs through the public API on every simulated platform: the first byte picks the platform,
 * the rest is the spec; a spec that is accepted is counted and the session freed. */
#include "fuzz_common.h"

static const char *const plats[] = { "sim:snbep,clock=manual", "sim:ivbep,clock=manual", "sim:emr,clock=manual",
				     "sim:nhm,clock=manual", "sim:montecito,clock=manual", "sim:generic,clock=manual" };
static uncore_t *handles[6];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int p = data[0] % 6;
	if (!handles[p] && uncore_open(plats[p], &handles[p]))
		abort();
	uncore_t *u = handles[p];
	char *spec = fuzz_str(data + 1, size - 1, 4096);
	uncore_session_t *s;
	if (uncore_session_new(u, &s))
		abort();
	if (uncore_session_add(s, spec) >= 0 && !uncore_session_start(s)) {
		uncore_overflow_t ov[4];
		uncore_sleep_ns(u, 1000000);
		uncore_session_read(s);
		uncore_session_overflows(s, ov, 4);
	}
	uncore_session_free(s);
	fuzz_check(u);
	free(spec);
	return 0;
}
