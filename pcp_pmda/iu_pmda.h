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

/* How a metric's value is found: a series of the selection, energy, a health count, or a clock limit */
enum iu_source { IU_SERIES, IU_NODE, IU_ENERGY, IU_HEALTH, IU_UFREQ };

/* One PCP metric of the fixed table (iu_table.c); each has an instance domain of its own, numbered as it is */
struct iu_metric {
	const char *name;    /* "memory.read_bytes" under intel_uncore. */
	int cluster, item;
	enum iu_source src;
	const char *family;  /* IU_SERIES: the exporter's families (ue_family_of), "a|b"; IU_NODE: "read"/"write" */
	int per_box;         /* IU_SERIES: 1 for the channel or box series of the family, 0 for the socket's */
	int type, sem;
	pmUnits units;
	size_t off;          /* IU_UFREQ: the field of struct uncore_freq_domain */
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
	int have, failed;
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
};

#define IU_UFREQ_MAX 256

int iu_plan(struct iu_state *st, const char *backend, char *err, size_t len);
int iu_read(struct iu_state *st);
void iu_teardown(struct iu_state *st);
int iu_add_instance(struct iu_state *st, int m, const char *name);
uint64_t iu_now_ns(void);
#endif
