/*
 * Health's watch over the energy counters (doc/health.md "Energy"): each domain's last interval as the caller's
 * energy reads closed it, judged once per interval: a counter that did not move over at least
 * HEALTH_ENERGY_MIN_NS (RAPL's counters step every millisecond or so: Intel SDM vol. 3B, RAPL interfaces) is
 * stuck, from its second such interval in a row; a socket whose package draws under 1 W or over 1000 W, or
 * whose DRAM over 1000 W, reads in a wrong unit (no server socket idles under 1 W; 500 W is the highest TDP,
 * Xeon 6 6980P, and PL2 1.2 x that).
 */
#ifndef UNCORE_HEALTH_ENERGY_H
#define UNCORE_HEALTH_ENERGY_H

#include "uncore.h"
#include "access/access.h" /* UC_MAX_SOCKETS */

#define HEALTH_ENERGY_MIN_NS 100000000ull
#define HEALTH_ENERGY_MIN_W 1.0
#define HEALTH_ENERGY_MAX_W 1000.0

struct health_energy_cond {
	int kind, socket;
	char unit[16]; /* the domain: "pkg", "dram", "psys" */
	char what[200];
};
struct health_energy {
	const uncore_energy_t *e;
	uint64_t judged;                                    /* the energy read judged last (its time) */
	int still[UC_MAX_SOCKETS][UNCORE_ENERGY_DOMAINS];   /* intervals in a row a counter stood still */
	struct health_energy_cond c[2 * UC_MAX_SOCKETS * UNCORE_ENERGY_DOMAINS];
	int n;                                              /* standing after the last judged interval */
};
/* The conditions standing: e's last interval judged where it is new, else the last judgement's. */
int health_energy_judge(struct health_energy *st, const struct health_energy_cond **out);

#endif
