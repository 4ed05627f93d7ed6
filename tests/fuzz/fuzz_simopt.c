/* The simulator's option string: "sim:" and the input, opened and closed. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *opt = fuzz_str(data, size, 2048), spec[2100];
	uncore_t *u;
	snprintf(spec, sizeof(spec), "sim:%s", opt);
	free(opt);
	if (!fuzz_sim_spec_ok(spec))
		return 0;
	if (!uncore_open(spec, &u)) {
		fuzz_check(u);
		uncore_close(u);
	}
	return 0;
}
