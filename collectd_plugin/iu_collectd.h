/*
 * The collectd plugin intel_uncore: shared declarations.
 *
 * Built against Debian's collectd-dev (5.12): its headers need -DHAVE_CONFIG_H
 * and -I/usr/include/collectd, and the plugin may only call what the daemon
 * exports (plugin_*, cdtime); everything else comes from libuncore and libc.
 */
#ifndef IU_COLLECTD_H
#define IU_COLLECTD_H

/* The project's build defines its own PACKAGE_* macros; collectd's config.h defines collectd's. */
#undef PACKAGE
#undef PACKAGE_BUGREPORT
#undef PACKAGE_NAME
#undef PACKAGE_STRING
#undef PACKAGE_TARNAME
#undef PACKAGE_URL
#undef PACKAGE_VERSION
#undef VERSION

#include "collectd/core/daemon/collectd.h"
#include "collectd/core/daemon/plugin.h"
#include "collectd/core/daemon/utils_time.h"
#include "uncore.h"

#define IU_NAME "intel_uncore"
#define IU_MAX_LIST 64

/* The <Plugin intel_uncore> block, parsed and checked for syntax (iu_config.c). */
struct iu_config {
	char *backend; /* NULL: UNCORE_BACKEND, else auto */
	char *metrics[IU_MAX_LIST], *groups[IU_MAX_LIST], *events[IU_MAX_LIST], *box_units[IU_MAX_LIST];
	int nmetrics, ngroups, nevents, nbox_units;
	unsigned sockets; /* bit s = report socket s; 0 = every socket */
	int per_box_all;  /* ReportPerBox true */
	double interval;  /* seconds; 0 = collectd's interval */
	int force;        /* Force true: take over boxes another agent counts on */
	int per_job;      /* PerJob true: each job's memory traffic (iu_jobs.c) */
};

/* Parse one <Plugin intel_uncore> block into c (blocks add up).  On a bad option
 * returns -1 with a message naming it in err. */
int iu_config_parse(struct iu_config *c, const oconfig_item_t *ci, char *err, size_t len);
void iu_config_free(struct iu_config *c);

/* One value dispatched on every read. */
struct iu_series {
	int metric;        /* index of the metric in the session, or -1 for a raw event */
	int event;         /* index of the raw event in the session */
	int socket, box;   /* box -1: the whole socket */
	int node;          /* >= 0: NUMA node node's channels summed (plugin instance nodeN: doc/collectd.md) */
	int derive;        /* cumulative count (DERIVE) rather than a GAUGE */
	int rate;          /* the metric is per second: dispatched as the count its rate adds up to */
	double to_base;    /* multiplies the metric's value into the dispatched unit */
	const char *type;  /* collectd type from types.db */
	char plugin_instance[32];
	char type_instance[DATA_MAX_NAME_LEN];
	int failed;        /* its value failed (a box dropped): skipped from then on */
	int peak;          /* IU_PEAK: the socket's peak DRAM bandwidth (to_base holds it, B/s); IU_PEAK_SHARE: its
			    * bandwidth's share of it, %; 0 neither (metric and event -1 where one of these) */
	int peak_metric;   /* the session's mem_bw_total (uncore_session_add_peak_share): the share's, its stamp's */
	derive_t base;     /* a count's total before the node last changed (iu_node.c): the count goes on from it */
	derive_t last;     /* the last count dispatched */
};
enum { IU_PEAK = 1, IU_PEAK_SHARE };

/* The plugin's running state (iu_series.c). */
struct iu_state {
	uncore_t *u;
	uncore_session_t *s;
	struct iu_series *series;
	int nseries;
	int started;
	int every, calls; /* dispatch on every every-th read; the reads between only sample (no lost wraps) */
	uint64_t period_ns, last_ns; /* the dispatch interval; the library's clock at the last dispatch */
	char notice[512]; /* default groups left out (iu_setup), logged when counting starts */
	char peak_notice[400]; /* why a socket has no mem_bw_peak (iu_setup), logged when counting starts */
	int default_set;  /* nothing named: the default set, with its NUMA node series (a refused node logged) */
	/* PerJob (iu_jobs.c): the jobs' accounting, and each job's bytes */
	uncore_perjob_t *perjob;
	struct uncore_job_tally tally; /* each job's bytes, and the unattributed, since the start */
	struct uncore_wall wall;       /* the stamps' offset from the library's clock (iu_clock_pair) */
	int ufreq; /* the uncore clock's limits are sent (uncore_freq_selected, iu_ufreq.c) */
	/* energy per socket (iu_energy.c): NULL where it cannot be read; the sockets reported (0: every one) */
	uncore_energy_t *energy;
	unsigned sockets, energy_domains; /* bit d: a domain named (uncore_energy_selected) */
	/* each socket's (as sockets' bits) joules before the node last changed (iu_node.c): its energy goes on from them */
	double energy_base[32][UNCORE_ENERGY_DOMAINS];
};

/* Open the uncore, add the configured metrics and events to a session and plan
 * the series; every problem is reported in err naming the option at fault.
 * Returns -1 for a configuration error, -2 when the uncore cannot be opened. */
int iu_setup(const struct iu_config *c, struct iu_state *st, char *err, size_t len);
/* Start counting. */
int iu_start(struct iu_state *st, char *err, size_t len);
/* Read the counters and dispatch every series.  Returns the number of values
 * dispatched, or -1 when nothing could be read. */
int iu_read(struct iu_state *st); /* the daemon stamps the read's interval */
/* PerJob: start attributing the node's jobs (iu_jobs_start: -1 with err), dispatch their series and follow the
 * jobs that come and go (iu_jobs_read: the values sent), let go (iu_jobs_stop: the tally kept, for a restart to
 * carry the jobs' bytes and what was said of them; iu_teardown frees it). */
int iu_jobs_start(struct iu_state *st, char *err, size_t len);
int iu_jobs_read(struct iu_state *st);
void iu_jobs_stop(struct iu_state *st);
/* The read's health changes as notifications and each reported socket's count-health gauge (iu_health.c):
 * the values sent. */
int iu_health_read(struct iu_state *st, cdtime_t now);
/* The uncore clock's limits per die or cluster as frequency values (iu_ufreq.c): the values sent. */
int iu_ufreq_read(struct iu_state *st, cdtime_t now);
/* Energy (iu_energy.c, doc/energy.md): opened at setup for the domains named (none, with a notice, where it cannot
 * be read); the
 * shorter of lim_ns and its counters' wrap time; started sampled every sample_ns; sampled between dispatches;
 * read with power and energy dispatched (the values sent); let go. */
void iu_energy_setup(struct iu_state *st, unsigned domains);
uint64_t iu_energy_limit(const struct iu_state *st, uint64_t lim_ns);
int iu_energy_start(struct iu_state *st, uint64_t sample_ns);
int iu_energy_sample(struct iu_state *st);
int iu_energy_read(struct iu_state *st, cdtime_t now, uint64_t lib_now);
/* The joules up to now added to energy_base, for a node's change to carry (iu_node.c). */
void iu_energy_keep(struct iu_state *st);
void iu_energy_stop(struct iu_state *st);
/* Stop counting (the library restores the registers) and free everything. */
void iu_teardown(struct iu_state *st);
/* Jobs, energy, session and handle let go, the series and the jobs' tally kept (a restart's carry): iu_teardown's
 * first part. */
void iu_let_go(struct iu_state *st);
/* The node changed (uncore_node_check's mask): the values planned again with c, counts carried over, one line
 * said (iu_node.c); energy_sample_ns as iu_energy_start's.  0, or -1 when it no longer starts (st empty). */
int iu_node_follow(const struct iu_config *c, struct iu_state *st, int changed, uint64_t energy_sample_ns);

/* The daemon's clock at the library's clock reading *lib_now (taken together, iu_series.c), and a value's
 * stamp: when its counters were read (the library's clock t; 0: now). */
cdtime_t iu_clock_pair(struct iu_state *st, uint64_t *lib_now);
cdtime_t iu_stamp(cdtime_t now, uint64_t lib_now, uint64_t t);
/* Write a message into err; returns -1. */
int iu_fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* This thread's warnings from the library not said yet (uncore_warnings_drain), a WARNING each after what. */
void iu_log_warnings(const char *what);

/* Type instance from any name: lower case, [a-z0-9_] only. */
void iu_clean_name(char *out, size_t len, const char *in);

#endif
