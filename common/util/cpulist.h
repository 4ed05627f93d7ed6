/* CPU lists as the kernel writes them (cpuset.cpus, the topology's cpumask lists): "0-3,8,10-11". */
#ifndef UNCORE_CPULIST_H
#define UNCORE_CPULIST_H

#include <stddef.h>
#include <stdint.h>
#include "util/uc_defs.h"

/* A CPU list ("0-3,8,10-11", blanks around it ignored) into bits (UC_MAX_CPUS of them, cleared first):
 * how many CPUs, or -1 with why (a CPU above UC_MAX_CPUS - 1, a range backwards, a stray character). */
int cpulist_parse(const char *s, uint8_t *bits, char *why, size_t len);
/* bits as a CPU list, cut with "..." when it does not fit; returns buf. */
const char *cpulist_format(const uint8_t *bits, char *buf, size_t len);

static inline int cpu_in(const uint8_t *bits, int cpu)
{
	return cpu >= 0 && cpu < UC_MAX_CPUS && (bits[cpu / 8] >> (cpu % 8) & 1);
}

#endif
