/* The simulator's option string: "sim:" and the input, opened and closed. */
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *opt = fuzz_str(data, size, 2048), spec[2100];
	uncore_t *u;
	snprintf(spec, sizeof(spec), "sim:%s", opt);
	free(opt);
	if (strstr(spec, "shared=") || strstr(spec, "profile="))
		return 0; /* files of the machine: not the option parser's business */
	if (strstr(spec, "kill_at="))
		return 0; /* kills the process at a register access by design (the crash tests) */
	if (!uncore_open(spec, &u)) {
		fuzz_check(u);
		uncore_close(u);
	}
	return 0;
}
