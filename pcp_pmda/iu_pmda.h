/*
 * The Performance Co-Pilot agent (PMDA) intel_uncore: the library's default set (uncore_select), its NUMA
 * nodes, energy and health conditions as metrics intel_uncore.* (doc/pcp.md).  Shared between its files.
 */
#ifndef IU_PMDA_H
#define IU_PMDA_H
#include <pcp/pmapi.h>
#include <pcp/pmda.h>
#include "uncore.h"

#include "domain.h"
#define IU_DOMAIN INTEL_UNCORE

/* How a metric's value is found: a series of the selection, energy, a health count, a clock limit, a job's
 * bytes (-j: the jobs' metrics share one instance domain, rebuilt when the jobs change), or a socket's peak DRAM
 * bandwidth and its share (iu_metric.family "peak" or "share": uncore_memory_peak, uncore_session_peak_share) */
enum iu_source { IU_SERIES, IU_NODE, IU_ENERGY, IU_HEALTH, IU_UFREQ, IU_JOB, IU_PEAK };

/* One PCP metric of the fixed table (iu_table.c); each has an instance domain of its own, numbered as it is */
struct iu_metric {
	const char *name;    /* "memory.read_bytes" under intel_uncore. */
	int cluster, item;
	enum iu_source src;
	const char *family;  /* IU_SERIES: the exporter's families (ue_family_of), "a|b"; IU_NODE: "read"/"write" */
	int per_box;         /* IU_SERIES: 1 for the channel or box series of the family, 0 for the socket's */
	int type, sem;
	pmUnits units;
	size_t off;          /* IU_UFREQ: the field of struct uncore_freq_domain; IU_JOB: of struct uncore_job_bytes */
};
extern const struct iu_metric iu_metrics[];
extern const int iu_nmetrics;

/* One value the agent keeps: which metric, which instance, how it is read */
struct iu_value {
	int m;              /* index into iu_metrics */
	int inst;
	int metric, socket, box, node, window, event;
	double to_base;
	double value;
	double base;        /* a counter's count before the node last changed (iu_node.c): it goes on from it */
	int have, failed;
};

/* -j: a job present and its instance (iu_jobs.c) */
struct iu_job {
	char *id;
	int inst;  /* its number: given once, never to another job */
	int tally; /* its place in the tally at the last read */
};

struct iu_state {
	uncore_t *u;
	uncore_session_t *s;
	uncore_energy_t *energy;
	struct iu_value *v;
	int nv;
	pmdaIndom *indoms;   /* one per metric */
	pmdaMetric *pmetrics;
	uint64_t last_read_ns;
	struct uncore_freq_domain *ufreq; /* the clock limits' domains, read anew at every read (NULL: none) */
	int nufreq;
	/* -j: the jobs (uncore_perjob_*), their bytes since the agent first saw them; the jobs present with their
	 * instance numbers (iu_jobs.c: 0 "unattributed", then each job the next, never given again) */
	int per_job;
	uncore_perjob_t *perjob;
	struct uncore_job_tally tally;
	struct iu_job *jobs; /* by instance number */
	int njobs, next_inst;
	int said_clash, said_full; /* what the log said at the last read (said again only once it ended) */
	uint64_t stepped_ns;
	const char *backend; /* as the agent was given it: the node's change plans again with it (iu_node.c) */
	int said_node;       /* the node's check failed: said once */
};

#define IU_UFREQ_MAX 256

int iu_plan(struct iu_state *st, const char *backend, char *err, size_t len);
int iu_read(struct iu_state *st);
void iu_teardown(struct iu_state *st);
/* Jobs, energy, session and handle let go, the values and instance domains kept: iu_teardown's first part. */
void iu_let_go(struct iu_state *st);
/* Before a read: the node's change followed (iu_node.c): 0 (none, or followed), -1 the agent no longer counts. */
int iu_node_follow(struct iu_state *st);
int iu_add_instance(struct iu_state *st, int m, const char *name);
uint64_t iu_now_ns(void);
/* -j (iu_jobs.c) */
int iu_jobs_indom(void); /* the jobs' metrics' instance domain: the first one's index, or -1 */
int iu_job_value(const struct iu_state *st, int m, int inst, double *x); /* 0, or PM_ERR_INST */
int iu_jobs_start(struct iu_state *st); /* 0, or -1 with uncore_error() */
void iu_jobs_read(struct iu_state *st); /* the bytes since the last read, then the jobs again */
void iu_jobs_free(struct iu_state *st);
#endif
