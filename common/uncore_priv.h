/* Internal state shared by the library's modules. */
#ifndef UNCORE_PRIV_H
#define UNCORE_PRIV_H

#include "uncore.h"
#include "access.h"
#include "platform.h"

struct uncore {
	struct access *acc;
	char backend[160];
	struct host_info host;
	const struct platform_desc *plat;
	struct box *boxes;
	int nboxes;
	/* the event catalog: the platform's tables plus events loaded at run time */
	struct uc_event *events;
	int nevents;
	struct platform_desc *own_plat; /* generic discovery platform built at open */
	void *arena;                    /* strings of loaded events and generic types */
};


/* An event spec resolved against the platform: what to write where. */
struct encoded {
	const struct box_type *bt;
	int type_idx;
	const struct uc_event *ev; /* NULL for a raw event */
	uint64_t ctl;              /* control word, enable bit included */
	unsigned ctr_mask;         /* allowed counters; unused when fixed */
	int fixed;
	int fr;                    /* free-running counter index, -1 = none */
	uint64_t fval[UC_MAX_FILT], fmask[UC_MAX_FILT];
	int socket, box;           /* -1 = all */
	char name[200];
};

/* Boxes from the PMON discovery tables (discover_units.c). */
int boxes_from_discovery(uncore_t *u);
/* Generic platform: box types made from the discovered units (platform_generic.c). */
struct disc_unit;
int platform_generic_types(uncore_t *u, const struct disc_unit *units, int n);
int platform_generic_open(uncore_t *u);
/* The event catalog: built-in tables plus UNCORE_EVENTS / uncore_load_events() files (catalog.c). */
int catalog_init(uncore_t *u);
void arena_free(void *arena);

int spec_parse(const uncore_t *u, const char *spec, struct encoded *out);

/* Counter assignment inside one box. */
struct sched_req {
	const struct encoded *enc;
	int ctr; /* result: counter index, -1 = fixed, -2 = free-running */
};
#define UC_MAX_SLOTS 32 /* events one box can carry (free-running counters included) */
/* Assign counters and merge filters; returns 0 or -1 with a message naming the conflict. */
int sched_box(const struct box *b, struct sched_req *reqs, int n, uint64_t *fval, uint64_t *fmask);

/* Register helpers used by sessions (register widths and PCI dword pairs handled here). */
int reg_ctl_bytes(const struct box_type *t);     /* a counter control register */
int reg_box_ctl_bytes(const struct box_type *t); /* the box control register */
int reg_read(uncore_t *u, const struct box *b, uint64_t addr, int companion, int bytes, uint64_t *v);
int reg_write(uncore_t *u, const struct box *b, uint64_t addr, int companion, int bytes, uint64_t v);
int reg_read_counter(uncore_t *u, const struct box *b, uint64_t addr, uint64_t *v);
int reg_write_counter(uncore_t *u, const struct box *b, uint64_t addr, uint64_t v);
/* Read several counters of one box consistently (PCI: 2x32-bit halves). */
int reg_read_counters(uncore_t *u, const struct box *b, const uint64_t *addr, int n, uint64_t *v);

#endif
