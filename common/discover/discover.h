/*
 * Shared by the discovery code: the list of boxes being built, the PCI devices
 * of the machine and the PCI bus -> socket map, and the PMON discovery tables
 * (seed 001 section 1.9) as decoded from memory.
 */
#ifndef UNCORE_DISCOVER_H
#define UNCORE_DISCOVER_H

#include "handle/handle.h"
#include "regs/regs.h"

/* Boxes from the PMON discovery tables (discover_units.c). */
int boxes_from_discovery(uncore_t *u);
/* Generic platform, and the types a disc_unnamed platform does not name: box types made from the discovered
 * units (platform_generic.c); u->plat then holds them after the platform's own. */
struct disc_unit;
int platform_generic_types(uncore_t *u, const struct disc_unit *units, int n);
/* The types whose units take their access from the discovery entry (box_type.access_from_entry): where a
 * type's first unit is listed through another access than the type's layout, a copy with Linux's generic
 * layout of that access (u->plat then a copy holding it). */
int platform_entry_access(uncore_t *u, const struct disc_unit *units, int n);
/* The platform new types go to: the generic one, or a copy of the named one in the handle's arena (NULL:
 * out of memory); the caller makes it u->plat. */
struct platform_desc *platform_types_target(uncore_t *u);
/* Box types in order of their discovery type (Linux's order of the generic types). */
void platform_types_sort(const struct box_type **t, int n);
int platform_generic_open(uncore_t *u);
/* The events the generic platform offers (platform_generic.c): the mapfile's platform's for this CPU if
 * its JSON is built in, else the newest built-in discovery platform's; *ev NULL: none.  Says which in the
 * platform's caveat ('uncore info'). */
int platform_generic_nearest(uncore_t *u, const struct uc_catalog **ev);

#define BUS_OFFLINE (-2) /* a bus of a die none of whose CPUs is online (pci_map_buses) */
struct busmap {
	int socket[256]; /* per bus of segment 0; -1 = unknown, BUS_OFFLINE */
	int die[256];    /* and the die of the socket it belongs to */
};

struct disc_ctx {
	uncore_t *u;
	struct pci_devinfo *devs;
	int ndev;
	struct busmap map;
	int mapped;       /* buses mapped through the UBox registers */
	struct box *v;    /* boxes found so far */
	int n, cap;
};

/* Map each PCI bus to its socket and die through the UBox node-id registers: GIDNIDMAP's group is the
 * socket, or on parts with several dies per socket the logical die (Linux snbep_pcibus_to_physid when
 * topology_max_dies_per_package() > 1); returns buses with a UBox, or -1. */
int pci_map_buses(struct access *a, const struct platform_desc *p, const struct pci_devinfo *devs, int n,
		  const struct host_info *h, int dom, struct busmap *m);
/* A box found, appended to the context's list (discover_boxes.c): 0, or -1 out of memory. */
int box_list_add(struct disc_ctx *c, const struct box *b);
/* Sort by type, socket, die and unit id; a box's number is its unit id, plus on die d > 0 of a socket
 * d times the type's unit id span there (die 1's imc 0 is imc 12 when die 0 has imc 0..11). */
void box_list_finish(struct disc_ctx *c);
/* Controller c's base from the config registers of the device at loc (struct mmio_place). */
int mmio_place_base(struct access *a, const struct mmio_place *m, const struct pci_loc *loc, int c, uint64_t *base);
/* The boxes of MMIO type ti of each socket whose device its mmio_place names (c->map must be built). */
int mmio_place_boxes(struct access *a, const struct host_info *h, const struct platform_desc *p, struct disc_ctx *c,
		     int ti);
const struct pci_devinfo *pci_find(const struct disc_ctx *c, uint16_t device, int bus, int dev, int fn);

/* How a discovery entry's unit is reached (seed 001 Table 1-13, bits 63:62 as in Linux). */
enum disc_access { DISC_MSR = 0, DISC_MMIO = 1, DISC_PCI = 2, DISC_BAD = 3 };

/* One PMON discovery table (one per socket) and its unit entries, decoded. */
struct disc_unit {
	int table, entry;     /* table number and entry index, for messages */
	enum disc_access access; /* seed 001 Table 1-13 */
	int type, id, nctr, width, gsp;
	unsigned ctl_off, ctr_off, status_off;
	uint64_t box_ctl;     /* MSR / MMIO address; PCI: the encoded B:D:F + offset */
	struct pci_loc loc;   /* PCI: decoded location */
	uint32_t reg;         /* PCI: config offset of the unit control */
};

struct disc_table {
	struct pci_loc dev;   /* the function carrying the DVSEC */
	uint64_t bar;
	enum disc_access access;
	int max_units, stride, num_status, status_off;
	uint64_t global_ctl;
	int socket, die;
	int domain;           /* its index in the platform's domains (disc_domains_of) */
};

#define DISC_DVSEC_CAP 0x23 /* PCIe extended capability: DVSEC (seed 001 L941-1062) */

/* Find every discovery table and decode its entries; entries that fail the checks are warned about
 * by name and left out.  Returns 0 (possibly with no tables) or -1. */
int disc_read_tables(struct disc_ctx *c, struct disc_table **tables, int *ntables, struct disc_unit **units,
		     int *nunits);
const char *disc_access_name(enum disc_access access);
/* Which socket and die the table of device d serves (discover_place.c): by its NUMA node as Linux does, where
 * it has none by the UBox map, else by *nodeless, the tables found so far without a node (counted on).  0, or
 * -1 with t->die -1 (a die without an online CPU) or t->socket -1 / out of range (none of the host's); why
 * says, or is "", where the node or Linux's order and the map disagree. */
int disc_table_place(const struct disc_ctx *c, const struct pci_devinfo *d, int *nodeless, struct disc_table *t,
		     char *why, size_t len);
/* The machine's PCI functions in the order Linux finds them (pci_get_device walks the device list, bus by bus
 * as the buses were enumerated), which is the order it gives dies to tables without a node; free() it. */
const struct pci_devinfo **disc_pci_order(const struct disc_ctx *c);
/* A platform's discovery domains (its own, or the one PCI domain of SPR to CWF); *n their number
 * (discover_global.c, beside their global controls). */
const struct disc_domain *disc_domains_of(const struct platform_desc *p, int *n);
/* Whether domain dom of the platform leaves out discovery type type. */
int disc_domain_ignores(const struct platform_desc *p, int dom, int type);
/* The tables' global controls of the domains that may be frozen at power-on, kept on the handle
 * (discover_global.c); cleared where found frozen when a session starts, set again when none counts. */
int disc_globals_keep(uncore_t *u, const struct disc_table *t, int n);
int disc_globals_unfreeze(uncore_t *u);
void disc_globals_restore(uncore_t *u);
/* Index of the platform's box type with this discovery type, or -1. */
int disc_type_index(const struct platform_desc *p, int disc_type);
/* "cha unit 5" when the platform names the type, else "type 40, unit id 5". */
const char *disc_unit_label(const struct platform_desc *p, const struct disc_unit *d, char *buf, size_t len);

#endif
