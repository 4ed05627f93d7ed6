/* Internal state shared by the library's modules. */
#ifndef UNCORE_PRIV_H
#define UNCORE_PRIV_H

#include <pthread.h>
#include <stdio.h>
#include "uncore.h"
#include "access.h"
#include "platform.h"
#include "metric_expr.h"
#include "name_index.h"

struct uncore {
	pthread_mutex_t lock;           /* recursive: every public call that touches the handle takes it (api.c) */
	struct access *acc;
	char backend[160];
	struct host_info host;
	const struct platform_desc *plat;
	struct box *boxes;
	int nboxes;
	/* the event catalog: the platform's tables plus events loaded at run time */
	struct uc_event *events;
	int nevents, events_cap;
	struct name_index event_names;  /* events by name */
	struct platform_desc *own_plat; /* generic discovery platform built at open */
	/* derived metrics: the platform's definitions (loaded on first use) plus loaded files */
	struct uc_metric *metrics;
	int nmetrics, metrics_cap, metrics_ready;
	struct name_index metric_names; /* metrics by name */
	void *arena;                    /* strings of loaded events and generic types */
	struct claims *claims;          /* boxes in use by sessions, machine-wide (claims.c) */
	int force;                      /* take over boxes another agent counts on (UNCORE_FORCE) */
	uncore_session_t **running;     /* sessions started and not stopped: uncore_sleep_ns samples them */
	int nrunning;
	struct perf_sys *perf;          /* the perf_event backend's kernel and PMUs (perf_backend.c); NULL: registers */
	int scale;                      /* perf backend: scale multiplexed counts by enabled / running time */
	char why[512];                  /* why this backend (auto's choice) */
};


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
	char name[200];
};

/* A derived metric: its definition and, once parsed, its expression. */
struct uc_metric {
	const char *name, *expr, *unit, *group, *desc;
	double scale;     /* value = expression x scale, in unit */
	struct mx_expr x; /* parsed, metric references inlined */
	int root;
	int state;        /* 0 not parsed, 1 being parsed, 2 parsed, 3 uses core events (skipped) */
	int type_idx;     /* the one unit all its events belong to, or -1 */
};
int metrics_ensure(uncore_t *u);
void metrics_free(uncore_t *u);

/* A metric bound to a session: the session's event index of each of its events. */
struct session_metric {
	int metric;
	int *ev;
};
void session_metrics_free(struct session_metric *m, int n);
/* Session internals the metric code uses (session.c). */
/* session_window_value() returns UNCORE_BOX_FAILED when a box the event needs has failed (the reason is
 * in uncore_error()) */
int session_window_value(const uncore_session_t *s, int ev, int socket, int box, int window, uint64_t *out);
uint64_t session_window_ns(const uncore_session_t *s, int window);
uint64_t session_event_window_ns(const uncore_session_t *s, int ev, int socket, int box, int window, int *n);
int session_find_event(const uncore_session_t *s, const char *spec);
int session_truncate(uncore_session_t *s, int nevs);
struct session_metric **session_metrics(uncore_session_t *s, int **n);
const struct session_metric *session_metric_get(const uncore_session_t *s, int m);
uncore_t *session_owner(const uncore_session_t *s);
/* How long until a running session of the handle must be sampled (UINT64_MAX: none runs), and a
 * sample of those that are due. */
uint64_t session_next_sample_ns(const uncore_t *u, uint64_t now);
/* At close: clear the records of sessions that left while the claims lock was held elsewhere. */
void session_claims_settle(uncore_t *u);
void session_sample_due(uncore_t *u, uint64_t now);

/* The perf_event backend (perf_backend.c): open the kernel named by backend ("perf", "perf+sim:..."),
 * and the boxes from its PMUs; auto's choice between perf and direct. */
int perf_backend_open(uncore_t *u, const char *backend);
int perf_boxes(uncore_t *u);
void perf_backend_close(uncore_t *u);
/* auto: 1 when the kernel's PMUs for this platform may be used (why says so), 0 with why saying why not. */
int perf_backend_usable(uncore_t *u);
/* The perf attr words (config, config1, config2) of an event on box b, counted by counter ctr (a general
 * one, UC_CTR_FIXED, or UC_CTR_FREERUN with free-running counter fr), through the PMU's format files. */
int perf_encode(const uncore_t *u, const struct box *b, const struct encoded *e, int ctr, int fr, uint64_t cfg[3]);
/* Boxes from the PMON discovery tables (discover_units.c). */
int boxes_from_discovery(uncore_t *u);
/* Generic platform: box types made from the discovered units (platform_generic.c). */
struct disc_unit;
int platform_generic_types(uncore_t *u, const struct disc_unit *units, int n);
int platform_generic_open(uncore_t *u);
/* The event catalog: built-in tables plus UNCORE_EVENTS / uncore_load_events() files (catalog.c). */
int catalog_init(uncore_t *u);
/* The catalog's event named name (any case), or -1. */
int catalog_find(const uncore_t *u, const char *name);
void arena_free(void *arena);

/* An event spec, encoded; spec_parse also requires a box of its unit on this machine.  spec_parse_on
 * counts one that names no socket on socket (-1: every socket). */
int spec_encode(const uncore_t *u, const char *spec, struct encoded *out);
int spec_parse(const uncore_t *u, const char *spec, struct encoded *out);
/* Each file of a ':' list ("a.json:b.json", as the UNCORE_EVENTS and UNCORE_METRICS variables), given to
 * load; empty names are skipped.  The sum of what load returned, or -1 at the first failure. */
int uc_load_list(uncore_t *u, const char *list, int (*load)(uncore_t *u, const char *file));
int spec_parse_on(const uncore_t *u, const char *spec, int socket, struct encoded *out);

/* Where an event counts: a general counter (0..), the box's fixed counter or a free-running one. */
enum { UC_CTR_FIXED = -1, UC_CTR_FREERUN = -2 };

/* Counter assignment inside one box. */
struct sched_req {
	const struct encoded *enc;
	int ctr; /* result: counter index, UC_CTR_FIXED or UC_CTR_FREERUN */
};
#define UC_MAX_SLOTS 32 /* events one box can carry (free-running counters included) */
/* Assign counters and merge filters; returns 0 or -1 with a message naming the conflict. */
int sched_box(const struct box *b, struct sched_req *reqs, int n, uint64_t *fval, uint64_t *fmask);
/* Assign counters among those in avail (a mask) only: the free ones of a box other sessions share. */
int sched_place(const struct box *b, struct sched_req *reqs, int n, unsigned avail);

/* Register helpers used by sessions (register widths and PCI dword pairs handled here). */
int reg_ctl_bytes(const struct box_type *t);     /* a counter control register */
int reg_box_ctl_bytes(const struct box_type *t); /* the box control register */
int reg_read(uncore_t *u, const struct box *b, uint64_t addr, int companion, int bytes, uint64_t *v);
int reg_write(uncore_t *u, const struct box *b, uint64_t addr, int companion, int bytes, uint64_t v);
int reg_read_counter(uncore_t *u, const struct box *b, uint64_t addr, uint64_t *v);
int reg_write_counter(uncore_t *u, const struct box *b, uint64_t addr, uint64_t v);
/* A register named by pmon_reg(), whatever its space and width. */
struct pmon_reg;
int pmon_read(uncore_t *u, const struct box *b, const struct pmon_reg *r, uint64_t *v);
int pmon_write(uncore_t *u, const struct box *b, const struct pmon_reg *r, uint64_t v);
/* Read several counters of one box consistently (PCI: 2x32-bit halves). */
int reg_read_counters(uncore_t *u, const struct box *b, const uint64_t *addr, int n, uint64_t *v);

#endif
