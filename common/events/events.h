/*
 * Events: the catalog (built-in tables and loaded perfmon files), event specs encoded against the
 * platform, and the placing of a box's events on its counters.
 */
#ifndef UNCORE_EVENTS_H
#define UNCORE_EVENTS_H

#include "handle/handle.h"
#include "qualifiers.h"

/* An event spec resolved against the platform: what to write where. */
struct encoded {
	const struct box_type *bt;
	int type_idx;
	const struct uc_event *ev; /* NULL for a raw event; only while encoding: loading events moves the catalog */
	uint8_t ev_flags;          /* the event's UC_EV_* flags, kept */
	uint64_t ctl;              /* control word, enable bit included */
	unsigned ctr_mask;         /* allowed counters; unused when fixed */
	int fixed;
	int fr;                    /* free-running counter index, -1 = none */
	uint64_t fval[UC_MAX_FILT], fmask[UC_MAX_FILT];
	int socket, box;           /* -1 = all */
	uint64_t period;           /* sample=N: overflow after N events (0: counting only) */
	double scale;              /* perf's alias .scale: value x scale is in unit (1: none) */
	const char *unit;          /* its .unit ("": none); the platform's or the kernel's string */
	char name[512];            /* the spec as written, whole (a longer one is refused): it tells events apart */
};

/* The event catalog: built-in tables plus UNCORE_EVENTS / uncore_load_events() files (catalog.c). */
/* The platform's events, then more (another platform's, for the generic one: on the types of the same
 * name or discovery type, those of units this CPU lacks left out), then UNCORE_EVENTS' files. */
int catalog_init(uncore_t *u, const struct uc_catalog *more);
/* The catalog's event named name (any case), or -1; a deprecated name of Intel's finds its replacement. */
int catalog_find(const uncore_t *u, const char *name);
/* The platform's deprecated alias i from 0 in *out (name, description, src: the replacement's name): 1, or 0 past
 * the last. */
int catalog_deprecated(const uncore_t *u, int i, struct uc_event *out);
/* An event spec, encoded; spec_parse also requires a box of its unit on this machine.  spec_parse_on
 * counts one that names no socket on socket (-1: every socket). */
int spec_encode(const uncore_t *u, const char *spec, struct encoded *out);
int spec_parse(const uncore_t *u, const char *spec, struct encoded *out);
int spec_parse_on(const uncore_t *u, const char *spec, int socket, struct encoded *out);

/* Where an event counts: a general counter (0..), the box's fixed counter or a free-running one. */
enum { UC_CTR_FIXED = -1, UC_CTR_FREERUN = -2 };

/* Counter assignment inside one box. */
struct sched_req {
	struct encoded *enc; /* sched_box may move a band event to a free band */
	int ctr; /* result: counter index, UC_CTR_FIXED or UC_CTR_FREERUN */
};
#define UC_MAX_SLOTS 32 /* events one box can carry (free-running counters included) */
/* Assign counters and merge filters; returns 0 or -1 with a message naming the conflict.  A band event
 * whose band is held with another value is moved to a free one (box_type band_ev). */
int sched_box(const struct box *b, struct sched_req *reqs, int n, uint64_t *fval, uint64_t *fmask);
/* Assign counters among those in avail (a mask) only: the free ones of a box other sessions share. */
int sched_place(const struct box *b, struct sched_req *reqs, int n, unsigned avail);

int uncore_load_events_impl(uncore_t *u, const char *file);

#endif
