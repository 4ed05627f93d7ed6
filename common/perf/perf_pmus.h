/*
 * The kernel's uncore PMUs as sysfs shows them (/sys/bus/event_source/devices/uncore*): each one's
 * dynamic type number, the CPU per socket and die that counts for it (cpumask with the CPU topology), and
 * its format files parsed; plus what the caller may do (perf_event_paranoid, capabilities).
 */
#ifndef UNCORE_PERF_PMUS_H
#define UNCORE_PERF_PMUS_H

#include "access/access.h"
#include "util/perf_format.h"
#include "platform/platform.h"

#define PP_MAX_FMT 24

struct perf_pmu {
	char name[64];
	unsigned type;
	/* its cpumask's CPUs (one per die it has a box on) of each socket, in die_id order; -1: no more */
	int cpu[UC_MAX_SOCKETS][UC_MAX_DIES];
	int nfmt;
	struct {
		char name[32];
		struct perf_format f;
	} fmt[PP_MAX_FMT];
};

struct perf_sys {
	struct perf_kernel *k;
	struct perf_pmu *pmus;
	int npmus, cap; /* (cap: room in pmus, grown by doubling: a PMU is 1.7 kB, and copying them one more at a
			 * time was most of an open of a simulated kernel under the sanitizers) */
	long paranoid;          /* /proc/sys/kernel/perf_event_paranoid; PERF_PARANOID_UNKNOWN: unreadable */
	int perfmon, sys_admin; /* capabilities of the caller */
	struct perf_alias *aliases; /* every PMU's events/ aliases, once per PMU name stem; ends with a NULL name */
	int naliases;
};
#define PERF_PARANOID_UNKNOWN (-100)

/* Read every uncore PMU the kernel registered: 0 (none is not an error), or -1 with a message. */
int perf_sys_scan(struct perf_sys *ps, struct perf_kernel *k);
void perf_sys_free(struct perf_sys *ps);
/* The kernel's event aliases (events/NAME, NAME.scale, NAME.unit) of every PMU into ps->aliases, each stem
 * ("imc" for uncore_imc_0..N) read once: 0, or -1 with a message. */
int perf_sys_aliases(struct perf_sys *ps);
/* The PMU named name, or NULL. */
const struct perf_pmu *perf_pmu_named(const struct perf_sys *ps, const char *name);
/* The PMU's format file name, or NULL. */
const struct perf_format *perf_pmu_format(const struct perf_pmu *p, const char *name);
/* May the caller count CPU-wide on these PMUs?  0, or -1 with the reason and what to change in why. */
int perf_permission(const struct perf_sys *ps, char *why, size_t len);
/* An errno from perf_event_open explained for the user, as uncore_error(); returns -1. */
int perf_errno_error(const struct perf_sys *ps, int err, const char *pmu, int cpu);

#endif
