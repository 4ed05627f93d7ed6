/* The fewest register accesses that read every counter of a session once, from the public description of its
 * events' units (make bench and tests/test_readback.c measure a read against it, doc/cost.md): an MSR or an
 * MMIO counter is one access (rdmsr, one 64-bit load); a PCI counter wider than 32 bits is two configuration
 * dwords, whoever reads it (a configuration request carries at most one dword: PCIe Base Specification,
 * "Configuration Request" Length = 1 DW). */
#ifndef TOOLS_ACCESS_FLOOR_H
#define TOOLS_ACCESS_FLOOR_H

#include <string.h>
#include "uncore.h"

/* The accesses of event ev's counters on every socket, and how many counters (*counters); -1 when its unit is
 * not known. */
static inline int event_floor(const uncore_t *u, const uncore_session_t *s, int ev, int *counters)
{
	char name[128];
	struct uncore_event_info ei;
	struct uncore_unit_info ui;
	snprintf(name, sizeof(name), "%s", uncore_session_event_name(s, ev));
	name[strcspn(name, ":")] = 0; /* (its qualifiers: socket=, box=, filters) */
	int e = uncore_event_find(u, name), unit = -1;
	if (e < 0 || uncore_event_info(u, e, &ei))
		return -1;
	for (int k = 0; k < uncore_num_units(u) && unit < 0; k++)
		if (!uncore_unit_info(u, k, &ui) && !strcmp(ui.name, ei.unit))
			unit = k;
	if (unit < 0)
		return -1;
	*counters = 0;
	for (int sock = 0; sock < uncore_num_sockets(u); sock++)
		*counters += uncore_session_event_boxes(s, ev, sock);
	return *counters * (!strcmp(ui.space, "pci") && ui.width > 32 ? 2 : 1);
}

/* ... of every event: the accesses, and the counters in *counters; -1 when a unit is not known */
static inline int session_floor(const uncore_t *u, const uncore_session_t *s, int *counters)
{
	int all = 0;
	*counters = 0;
	for (int ev = 0; ev < uncore_session_num_events(s); ev++) {
		int n, f = event_floor(u, s, ev, &n);
		if (f < 0)
			return -1;
		all += f;
		*counters += n;
	}
	return all;
}

#endif
