/*
 * perf's spellings of uncore events, translated into our event specs: PMU/terms/ as perf stat -e takes
 * it, PMU@terms@ and EVENT@terms@ as perf's metric files write it ('\' escapes dropped).  The PMU is
 * named as perf matches it: uncore_imc (every box: perf merges uncore_imc_N), uncore_imc_2 (that box),
 * either without "uncore_", uncore (Nehalem), uncore_type_<t>[_<n>], uncore_<x>_free_running[_<n>], or
 * our unit name.  Terms are the driver's format names, its event aliases (with their .scale and .unit),
 * or a catalog event name.
 */
#ifndef UNCORE_PERF_SPELL_H
#define UNCORE_PERF_SPELL_H

#include "handle/handle.h"

struct perf_spelled {
	char spec[512];   /* our spec: "imc/event=0x4,umask=0x3/:box=2", "UNC_C_TOR_OCCUPANCY.MISS_OPCODE:opc=0x182" */
	int box;          /* the box a numbered PMU names (-1: every box) */
	double scale;     /* the alias's .scale (1: none) */
	const char *unit; /* its .unit ("": none) */
};

/* in translated into out->spec: 0.  1 (with a message) when in is not perf's spelling of one of this
 * platform's uncore PMUs (no '/' or '@' in it: out->spec is in; or another PMU's: cpu/.../, cpu@..@);
 * -1 with a message naming what is wrong (unknown box, alias or term). */
int perf_spell(const uncore_t *u, const char *in, struct perf_spelled *out);

#endif
