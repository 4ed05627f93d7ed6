/* The MSRs the library reads outside the PMON boxes -- energy's RAPL MSRs, the uncore clock limits' -- for the
 * write guard's read-only entries and so the msr-safe allowlist (doc/safety.md). */
#ifndef UNCORE_READER_MSRS_H
#define UNCORE_READER_MSRS_H

#include <stdint.h>

struct reader_msr {
	uint32_t reg;
	const char *what, *name; /* "rapl", "MSR_PKG_ENERGY_STATUS" */
};

#define READER_MSRS_MAX 8

/* Those read on a CPU of a socket's die die (0: also those read once a socket) of platform: how many, into out. */
int reader_msrs(const char *platform, int die, struct reader_msr *out, int max);

#endif
