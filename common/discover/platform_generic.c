/*
 * A CPU with PMON discovery tables but no tables in this project: its units
 * become box types named by their discovery type ("type0", "type6", ...), as do the units of types a
 * platform with disc_unnamed does not name (GNR, SRF, CWF),
 * usable with raw event specs, with the events of the nearest platform (below) and with events loaded
 * from a perfmon JSON file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "discover.h"
#include "util/arena.h"
#include "util/error.h"

/* Raw specs on an unknown unit: the baseline control layout of seed 001 Table 1-5 plus umask_ext. */
static const struct ctl_layout lay_generic = { .name = "generic",
	.f = { [CR_EVENT] = { 0, 8 }, [CR_UMASK] = { 8, 8 }, [CR_RST] = { 17, 1 }, [CR_EDGE] = { 18, 1 },
	       [CR_INV] = { 23, 1 }, [CR_THRESH] = { 24, 8 }, [CR_UMASK_EXT] = { 32, 32 } } };

/* Where a CPU the project does not know keeps its tables: any PCI device with the DVSEC (Linux 7.0
 * generic_uncore_init domain 0, PCI_ANY_ID: 1897336728b4; 0x09A7 first where there is one, as before), and
 * the discovery MSRs read on each die: 0x201E (Linux UNCORE_DISCOVERY_MSR, generic_uncore_init domain 1) and
 * 0x710 (CBB_UNCORE_DISCOVERY_MSR, 66e2075426f3), which Linux's generic driver does not read: a part laid out
 * in domains as Diamond Rapids is counts through its tables alone.  Tables found through an MSR may have their
 * global control frozen at power-on (b575fc0e3357): a frozen one is cleared while counting. */
static const struct disc_domain generic_domains[] = {
	{ "pci", 0, DISC_ANY_DEVICE, NULL, 0 },
	{ "msr 0x201e", 1, 0x201e, NULL, 1 },
	{ "msr 0x710", 1, 0x710, NULL, 1 },
};
static const uint32_t generic_ro_msrs[] = { 0x201e, 0x710, 0 }; /* read at open, never written */

int platform_generic_open(uncore_t *u)
{
	struct platform_desc *p = calloc(1, sizeof(*p) + 2 * sizeof(int) + 64 + 96);
	char *name, *desc;
	int *models;
	if (!p)
		return uc_err("out of memory");
	models = (int *)(p + 1);
	name = (char *)(models + 2);
	desc = name + 64;
	models[0] = u->host.model;
	snprintf(name, 64, "generic");
	snprintf(desc, 96, "Intel family %d model 0x%x (discovery tables only)", u->host.family, u->host.model);
	p->name = name;
	p->desc = desc;
	p->family = u->host.family;
	p->models = models;
	p->discovery = 1;
	/* the PMON MSR range of the discovery generation (seed 001 T1-8..T1-10); an assumption elsewhere */
	p->pmon_msr_lo = 0x2000;
	p->pmon_msr_hi = 0x3fff;
	p->disc_domains = generic_domains;
	p->ndisc_domains = UC_ARRAY_LEN(generic_domains);
	p->ro_msrs = generic_ro_msrs;
	u->own_plat = p;
	u->plat = p;
	return 0;
}

/* The platform the generic types go to: the generic platform itself, or a copy of a named one that keeps
 * its own types first (their indices are its catalog's) and takes the types it does not name after them. */
struct platform_desc *platform_types_target(uncore_t *u)
{
	struct platform_desc *p = u->own_plat;
	if (p)
		return p;
	if (!(p = arena_alloc(&u->arena, sizeof(*p))))
		return NULL;
	*p = *u->plat;
	return p;
}

void platform_types_sort(const struct box_type **t, int n)
{
	for (int i = 1; i < n; i++)
		for (int k = i; k > 0 && t[k - 1]->disc_type > t[k]->disc_type; k--) {
			const struct box_type *x = t[k];
			t[k] = t[k - 1];
			t[k - 1] = x;
		}
}

/* The register steps of Linux's generic ops for a unit of this access: MSR 1; PCI 8; MMIO controls 4 apart,
 * counters 8 (uncore_discovery.c generic_uncore_{msr,pci,mmio}_ops; XD_ENTRY_ACCESS) */
static void generic_layout(struct box_type *t, enum disc_access a)
{
	t->space = a == DISC_MSR ? UC_MSR : a == DISC_MMIO ? UC_MMIO : UC_PCI;
	t->ctl_stride = t->space == UC_MSR ? 1 : t->space == UC_PCI ? 8 : 4;
	t->ctr_stride = t->space == UC_MSR ? 1 : 8;
	t->ctl_bytes = t->space == UC_PCI ? 8 : 4;
}

int platform_entry_access(uncore_t *u, const struct disc_unit *units, int n)
{
	static const enum disc_access of_space[] = { [UC_MSR] = DISC_MSR, [UC_MMIO] = DISC_MMIO, [UC_PCI] = DISC_PCI };
	struct platform_desc *p = NULL;
	const struct box_type **types = NULL;
	for (int t = 0; t < u->plat->ntypes; t++) {
		const struct box_type *bt = u->plat->types[t];
		int i = 0;
		if (!bt->access_from_entry)
			continue;
		while (i < n && units[i].type != bt->disc_type) /* Linux: the type takes its first unit's access */
			i++;                                       /* (uncore_discovery.c add_uncore_discovery_type) */
		if (i == n || units[i].access == of_space[bt->space] || units[i].access == DISC_BAD)
			continue;
		if (!types) {
			if (!(p = platform_types_target(u)) ||
			    !(types = arena_alloc(&u->arena, (size_t)p->ntypes * sizeof(*types))))
				return uc_err("out of memory");
			for (int k = 0; k < p->ntypes; k++)
				types[k] = p->types[k];
		}
		struct box_type *v = arena_alloc(&u->arena, sizeof(*v));
		if (!v)
			return uc_err("out of memory");
		*v = *bt;
		generic_layout(v, units[i].access);
		types[t] = v;
	}
	if (types) {
		p->types = types;
		u->plat = p;
	}
	return 0;
}

int platform_generic_types(uncore_t *u, const struct disc_unit *units, int n)
{
	struct platform_desc *p = platform_types_target(u);
	const struct box_type **types;
	int ntypes;
	if (!p)
		return uc_err("out of memory");
	ntypes = p->ntypes;
	types = arena_alloc(&u->arena, (size_t)(n + ntypes ? n + ntypes : 1) * sizeof(*types));
	if (!types)
		return uc_err("out of memory");
	for (int k = 0; k < ntypes; k++)
		types[k] = p->types[k];
	for (int i = 0; i < n; i++) {
		const struct disc_unit *d = &units[i];
		struct box_type *t = NULL;
		char buf[96];
		int named = 0;
		for (int k = 0; k < ntypes; k++)
			if (types[k]->disc_type == d->type) {
				t = (struct box_type *)types[k];
				named = k < p->ntypes;
			}
		if (named)
			continue; /* the platform's own type */
		if (!t) {
			t = arena_alloc(&u->arena, sizeof(*t));
			if (!t)
				return uc_err("out of memory");
			snprintf(buf, sizeof(buf), "type%d", d->type);
			t->name = arena_strdup(&u->arena, buf);
			snprintf(buf, sizeof(buf), "discovery unit type %d (%s)", d->type, disc_access_name(d->access));
			t->desc = arena_strdup(&u->arena, buf);
			if (!t->name || !t->desc)
				return uc_err("out of memory");
			t->prefix = "";
			generic_layout(t, d->access);
			t->disc_type = d->type;
			t->bc = &box_ctl_discovery;
			t->has_box_ctl = t->box_ctl_resets = 1;
			t->lay = &lay_generic;
			types[ntypes++] = t;
		}
		if (d->nctr > t->nctr)
			t->nctr = d->nctr;
		if (d->width > t->width)
			t->width = d->width;
		if (d->id + 1 > t->max_boxes)
			t->max_boxes = d->id + 1;
	}
	/* by type as Linux lists them (a named platform's after its own): the same units in whatever order the
	 * tables were found (a replay's and the machine's) are the same types */
	platform_types_sort(types + p->ntypes, ntypes - p->ntypes);
	p->types = types;
	p->ntypes = ntypes;
	u->plat = p;
	return 0;
}

/* The newest built-in server P-core platform with discovery tables: the last such the registry lists
 * (oldest first).  An unknown discovery CPU is far more likely a newer P-core Xeon than an E-core one,
 * whose catalogs (SRF, CWF) lack units the P-core parts have. */
static const struct platform_desc *newest_discovery(void)
{
	const struct platform_desc *best = NULL;
	for (int i = 0; uc_platforms[i]; i++)
		if (uc_platforms[i]->discovery && uc_platforms[i]->events && !uc_platforms[i]->sim_only &&
		    !uc_platforms[i]->ecore_only && !uc_platforms[i]->provisional)
			best = uc_platforms[i];
	return best;
}

int platform_generic_nearest(uncore_t *u, const struct uc_catalog **ev)
{
	const struct uc_mapfile_row *row = mapfile_row(u->host.family, u->host.model, u->host.stepping);
	const struct platform_desc *newest = newest_discovery();
	char buf[512];
	*ev = NULL;
	/* the mapfile's platform for this CPU when its JSON is built in (a platform not built in yet) and
	 * its CPUs publish discovery tables */
	const struct uc_generic_catalog *c = row ? generic_catalog(row->dir) : NULL;
	if (c && c->discovery) {
		*ev = c->events;
		snprintf(buf, sizeof(buf), "events of %s, the mapfile's platform for this CPU (not built in): Intel's %s "
			 "%s, on the units of the discovery types SPR/EMR give their names", row->platform, c->file, c->version);
	}
	if (!*ev && newest) {
		*ev = newest->events;
		snprintf(buf, sizeof(buf), "events of %s, the newest built-in server P-core platform with discovery tables (%s), "
			 "on the units of the same discovery types", newest->name,
			 row ? "the mapfile's platform for this CPU has no discovery events built in" : "the CPU is not in the mapfile");
	}
	if (*ev && !(u->own_plat->caveat = arena_strdup(&u->arena, buf)))
		return uc_err("out of memory");
	return 0;
}
