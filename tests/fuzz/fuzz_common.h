/* Shared by the libFuzzer harnesses: inputs as strings or files, and invariants that abort. */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "open/uncore_priv.h"
#include "sim/sim.h"
#include "tmpdir.h"

/* The input as a NUL-terminated string (at most max bytes); free it. */
static inline char *fuzz_str(const uint8_t *data, size_t size, size_t max)
{
	size_t n = size < max ? size : max;
	char *s = malloc(n + 1);
	if (!s)
		abort();
	memcpy(s, data, n);
	s[n] = 0;
	return s;
}

/* The input written to this process's scratch file; returns its path. */
static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
	static char path[300];
	if (!path[0])
		snprintf(path, sizeof(path), "%s/uncore-fuzz-%d", test_tmpdir(), (int)getpid());
	FILE *f = fopen(path, "w");
	if (!f || fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	return path;
}

/* What must hold whatever the input: no access outside the modelled registers, no write the guard
 * refused, and (once the sessions are gone) every register as found. */
static inline void fuzz_check_running(uncore_t *u)
{
	struct uncore_stats st;
	uncore_get_stats(u, &st);
	if (st.refused_writes || (u->acc->simulated && sim_of(u->acc)->bad_accesses))
		abort();
}

static inline void fuzz_check(uncore_t *u)
{
	fuzz_check_running(u);
	if (u->acc->simulated && sim_changed_registers(sim_of(u->acc), NULL, 0))
		abort();
}

/* A simulator spec the fuzzers may open: no file of the machine (shared=, profile=: not the option
 * parser's business) and no kill_at=, which kills the process at a register access by design. */
static inline int fuzz_sim_spec_ok(const char *spec)
{
	return !strstr(spec, "shared=") && !strstr(spec, "profile=") && !strstr(spec, "kill_at=");
}

#endif
