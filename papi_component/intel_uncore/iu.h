/*
 * intel_uncore PAPI component: shared declarations.
 *
 * Event codes (always below bit 31, so PAPI never reads them as errors):
 *   base     index into the library's events, then the integral metrics
 *   variant  IU_VARIANT | v << IU_VSHIFT | base: the v-th qualifier listed for a base event
 *   named    IU_NAMED | k: any other qualified name the user asked for, kept in a table
 */
#ifndef IU_H
#define IU_H

#include <uncore.h>

#define IU_VARIANT (1u << 28)
#define IU_VSHIFT 20
#define IU_VMAX 63 /* a mask: variant numbers live in bits 20-25 */
#define IU_NAMED (1u << 29)
#define IU_BASE_MASK ((1u << IU_VSHIFT) - 1)

/* What a code counts: a library event spec, an integral metric ("name[:socket=N]"), or a gauge of the uncore
 * clock's limits (iu_ufreq.c, "UNCORE_FREQ_LIMIT_MAX[:socket=N]"). */
struct iu_target {
	int metric;      /* 0: event spec, 1: metric, IU_GAUGE: uncore clock gauge, IU_ENERGY: an energy event (domain: its RAPL domain),
			    IU_PEAK: the DRAM peak or its share */
	int domain;
	char spec[256];
	int socket;      /* a metric's socket, -1 = all */
	int node;        /* a bytes metric's NUMA node (":node=N", not in spec: doc/papi.md), -1 = none */
};

/* Event naming over an open library handle (iu_names.c). */
int iu_names_init(uncore_t *u);
void iu_names_fini(void);
int iu_num_native(void);
int iu_enum(unsigned *code, int modifier);
int iu_name_to_code(const char *name, unsigned *code);
int iu_code_to_name(unsigned code, char *buf, int len);
int iu_code_to_descr(unsigned code, char *buf, int len);
int iu_code_to_units(unsigned code, char *buf, int len);
int iu_target_of(unsigned code, struct iu_target *t);
/* A perf_event_uncore (libpfm4) name, "snbep_unc_imc0::UNC_M_CAS_COUNT:RD[:cpu=0]", as a library spec;
 * -1 when it is not one of this platform's (iu_pfm.c). */
int iu_pfm_spec(uncore_t *u, const char *name, char *spec, size_t len);
/* The platform's perf_event_uncore PMU names present here, strdup'ed into names (PAPI routes a
 * "PMU::EVENT" name only to a component listing its PMU); how many, or -1 out of memory. */
int iu_pfm_pmus(uncore_t *u, char **names, int max);

/* The uncore clock's limits (iu_ufreq.c): how many gauges (0 where no limits can be read), gauge g's name and
 * description (NULL past the last), the gauge of a name of len characters (-1: none), and its value now in Hz
 * over socket's dies or clusters (-1: every socket's): 0, or -1 (none readable: *out 0). */
int iu_ufreq_count(uncore_t *u);
const char *iu_ufreq_name(int g, const char **desc);
int iu_ufreq_find(const char *name, size_t len);
int iu_ufreq_value(uncore_t *u, int g, int socket, long long *out);
/* The DRAM peak and its share (iu_peak.c), after the energy events: how many (0 where the platform has no
 * mem_bw_peak_share), event k's name, description and unit (NULL past the last), the event of a name of len
 * characters (-1: none).  Planned on session s for socket (-1: the node): the session's metric the share reads, or
 * IU_PEAK_ITSELF for the peak; -1 with *why (the peak not known, no DIMM, no counter).  Its value now: the peak in
 * B/s, or the share since the last read in millionths (0 where there is none yet): 0, or UNCORE_BOX_FAILED. */
#define IU_PEAK_ITSELF (1 << 20)
#define IU_PEAK_SHARE 1 /* iu_peak_find's number of mem_bw_peak_share (0: mem_bw_peak) */
int iu_peak_count(uncore_t *u);
const char *iu_peak_name(int k, const char **desc, const char **unit);
int iu_peak_find(const char *name, size_t len);
int iu_peak_plan(uncore_t *u, uncore_session_t *s, int k, int socket, const char **why);
int iu_peak_value(uncore_t *u, uncore_session_t *s, int idx, int socket, long long *out);
/* Energy (iu_energy.c, doc/energy.md): the k-th energy native event after the integral metrics. */
#define IU_GAUGE 2 /* iu_target.metric of an uncore clock gauge (iu_ufreq.c) */
#define IU_ENERGY 3
#define IU_GONE 4 /* a slot whose unit went away with a change of the node: its count stays (intel_uncore.c) */
#define IU_PEAK 5 /* the DRAM peak or its share (iu_peak.c): a gauge */
int iu_energy_init(uncore_t *u); /* how many energy events the part has */
int iu_energy_name(int k, char *buf, size_t len, const char **desc, const char **unit);
int iu_energy_find(const char *name, size_t len); /* k, or -1 */
int iu_energy_domain(int k);
int iu_energy_valid(uncore_t *u, const char *name); /* the name, with at most :socket=N */
/* An energy slot's nanojoules since the start: 0, or -1 (uncore_error()). */
int iu_energy_value(const uncore_energy_t *e, int domain, int socket, long long *out);

/* The node followed (iu_node.c), under the component lock: the generation of the node's changes an EventSet was
 * planned at, and the library's check made now (a change said once), giving the generation now. */
unsigned iu_node_gen(void);
unsigned iu_node_poll(uncore_t *u);

#endif
