/*
 * intel_uncore PAPI component: native event names, codes and descriptions.
 * Base events are the library's catalog plus its integral metrics (group
 * "totals", e.g. bytes read from memory); qualifiers are listed once per base
 * event as PAPI umasks and parsed strictly by the library.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "papi.h"
#include "papi_internal.h"
#include "iu.h"

static uncore_t *U;
static int nevents;
static int *metrics; /* library metric index of each integral metric */
static int nmetrics;
static int ngauges; /* the uncore clock's limits (iu_ufreq.c), after the metrics */
static int nenergy; /* energy events after the metrics (iu_energy.c) */
static int npeak;   /* the DRAM peak and its share after them (iu_peak.c) */
/* qualified names asked for, by code IU_NAMED | k: the name as given and the library spec it counts
 * (the same but for perf_event_uncore's names) */
static struct named { char *name, *spec; } *named;
static int nnamed, capnamed;

static int is_integral(uncore_t *u, int m)
{
	struct uncore_metric_info mi;
	const char *g;
	if (uncore_metric_info(u, m, &mi))
		return 0;
	/* totals, and the local/remote split of the memory bytes (locality: doc/numa.md) */
	for (int k = 0; k < 2; k++) {
		const char *name = k ? "locality" : "totals";
		size_t len = strlen(name);
		for (g = mi.group; g && (g = strstr(g, name)); g += len)
			if ((g == mi.group || g[-1] == ',') && (g[len] == 0 || g[len] == ','))
				return 1;
	}
	return 0;
}

int iu_names_init(uncore_t *u)
{
	int n = uncore_num_metrics(u);
	U = u;
	nevents = uncore_num_events(u);
	nmetrics = 0;
	metrics = calloc(n > 0 ? (size_t)n : 1, sizeof(*metrics));
	if (!metrics)
		return -1;
	for (int m = 0; m < n; m++)
		if (is_integral(u, m))
			metrics[nmetrics++] = m;
	ngauges = iu_ufreq_count(u);
	nenergy = iu_energy_init(u);
	npeak = iu_peak_count(u);
	return 0;
}

void iu_names_fini(void)
{
	for (int k = 0; k < nnamed; k++) {
		free(named[k].name);
		free(named[k].spec);
	}
	free(named);
	free(metrics);
	named = NULL;
	metrics = NULL;
	nnamed = capnamed = nmetrics = nevents = ngauges = nenergy = npeak = 0;
	U = NULL;
}

int iu_num_native(void) { return nevents + nmetrics + ngauges + nenergy + npeak; }
/* a base that is a gauge of the uncore clock's limits: its number, else -1 */
static int gauge_of(unsigned base)
{
	int g = (int)base - nevents - nmetrics;
	return g >= 0 && g < ngauges ? g : -1;
}
/* a base that is an energy event (iu_energy.c), after the gauges: its number, else -1 */
static int energy_of(unsigned base)
{
	int k = (int)base - nevents - nmetrics - ngauges;
	return k >= 0 && k < nenergy ? k : -1;
}
/* a base that is the DRAM peak or its share (iu_peak.c), after the energy events: its number, else -1 */
static int peak_of(unsigned base)
{
	int k = (int)base - nevents - nmetrics - ngauges - nenergy;
	return k >= 0 && k < npeak ? k : -1;
}

static int base_name(unsigned base, char *buf, size_t len, const char **desc, const char **unit)
{
	if ((int)base < nevents) {
		struct uncore_event_info ei;
		if (uncore_event_info(U, (int)base, &ei))
			return -1;
		snprintf(buf, len, "%s", ei.name);
		*desc = ei.desc;
		*unit = "";
		return 0;
	}
	if ((int)base < nevents + nmetrics) {
		struct uncore_metric_info mi;
		if (uncore_metric_info(U, metrics[base - (unsigned)nevents], &mi))
			return -1;
		snprintf(buf, len, "%s", mi.name);
		*desc = mi.desc;
		*unit = mi.unit;
		return 0;
	}
	if (energy_of(base) >= 0)
		return iu_energy_name(energy_of(base), buf, len, desc, unit);
	if (peak_of(base) >= 0) {
		snprintf(buf, len, "%s", iu_peak_name(peak_of(base), desc, unit));
		return 0;
	}
	const char *g = gauge_of(base) >= 0 ? iu_ufreq_name(gauge_of(base), desc) : NULL;
	if (!g)
		return -1;
	snprintf(buf, len, "%s", g);
	*unit = "Hz";
	return 0;
}

/* Whether metric m is a memory bytes metric (mem_, hbm_, cxl_read_bytes, ...: a value per NUMA node, issue 67). */
static int bytes_metric(int m)
{
	struct uncore_metric_info mi;
	int bytes = 0;
	for (int k = 0; k < 6 && !uncore_metric_info(U, m, &mi); k++)
		bytes |= !strcmp(mi.name, uncore_numa_bytes_metric(k / 2, k % 2));
	return bytes;
}

/* The nodes metric m has a value on, lowest and highest: 0, or -1 where it has none (no node's channels known). */
static int node_range(int m, int *lo, int *hi)
{
	struct uncore_numa_node v[64];
	int n = bytes_metric(m) ? uncore_numa_nodes(U, v, 64) : 0;
	*lo = *hi = -1;
	for (int i = 0; i < n && i < 64; i++)
		if (uncore_numa_metric_serves(U, m, v[i].node) == 1) {
			*lo = *lo < 0 ? v[i].node : *lo;
			*hi = v[i].node;
		}
	return *lo < 0 ? -1 : 0;
}

/* The qualifiers of a base event as the library lists them (a metric or gauge takes socket=N, a memory bytes metric
 * node=N instead); returns how many, at most IU_VMAX. */
static int qualifiers_of(unsigned base, struct uncore_qualifier *qs)
{
	if ((int)base >= nevents) {
		int lo, hi, nodes = (int)base < nevents + nmetrics && !node_range(metrics[base - (unsigned)nevents], &lo, &hi);
		/* (a gauge's or an energy event's base is past the metrics: socket=N alone) */
		qs[0] = (struct uncore_qualifier){ .name = "socket", .max = (unsigned long long)uncore_num_sockets(U) - 1,
						   .desc = "socket to count on; without it every socket is summed" };
		qs[1] = (struct uncore_qualifier){ .name = "node", .min = nodes ? (unsigned long long)lo : 0,
						   .max = nodes ? (unsigned long long)hi : 0,
						   .desc = "NUMA node whose memory channels to sum (doc/numa.md), instead of socket=; "
							   "refused where its channels cannot be known or are of another memory" };
		return nodes ? 2 : 1;
	}
	int n = uncore_event_qualifiers(U, (int)base, qs, IU_VMAX);
	return n < 0 ? 0 : n > IU_VMAX ? IU_VMAX : n;
}

/* A qualifier as a PAPI umask: its text ("thresh=0", "edge") and what it means. */
static void umask_text(const struct uncore_qualifier *x, char *q, size_t ql, char *d, size_t dl)
{
	if (x->flag) {
		snprintf(q, ql, "%s", x->name);
		snprintf(d, dl, "%s", x->desc);
		return;
	}
	snprintf(q, ql, "%s=%llu", x->name, x->has_default ? x->dflt : x->min);
	snprintf(d, dl, "%s [%llu-%llu]%s", x->desc, x->min, x->max,
		 x->required ? " (required)" : x->has_default ? " (has a default)" : "");
}

/* Qualifier v (1-based) of a base event: its text and meaning; 0 when there is no such one. */
static int variant(unsigned base, int v, char *q, size_t ql, char *d, size_t dl)
{
	struct uncore_qualifier qs[IU_VMAX];
	int n = qualifiers_of(base, qs);
	if (v < 1 || v > n)
		return 0;
	umask_text(&qs[v - 1], q, ql, d, dl);
	return 1;
}

/* What a base event needs besides its name: " Needs :opc=V." for each required qualifier. */
static void needs(unsigned base, char *buf, size_t len)
{
	struct uncore_qualifier qs[IU_VMAX];
	int n = qualifiers_of(base, qs);
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < n && k < len; i++)
		if (qs[i].required)
			k += (size_t)snprintf(buf + k, len - k, " Needs :%s=V (%s).", qs[i].name, qs[i].desc);
}

/* Tell PAPI the name of an enumerated code, so its table keeps one entry per name (else every
 * enumeration adds one, and a name looked up later gets yet another PAPI code). */
static int named_enum(unsigned code)
{
	char nm[256];
	if (iu_code_to_name(code, nm, sizeof(nm)) != PAPI_OK)
		return PAPI_ENOEVNT;
	_papi_hwi_set_papi_event_string(nm);
	return PAPI_OK;
}

int iu_enum(unsigned *code, int modifier)
{
	unsigned base = *code & IU_BASE_MASK;
	if (modifier == PAPI_ENUM_FIRST) {
		if (iu_num_native() == 0)
			return PAPI_ENOEVNT;
		*code = 0;
		return named_enum(*code);
	}
	if (modifier == PAPI_ENUM_EVENTS) {
		if (*code & (IU_VARIANT | IU_NAMED) || (int)base + 1 >= iu_num_native())
			return PAPI_ENOEVNT;
		*code = base + 1;
		return named_enum(*code);
	}
	if (modifier == PAPI_NTV_ENUM_UMASKS) {
		char q[64], d[256];
		int v = (*code & IU_VARIANT) ? (int)((*code >> IU_VSHIFT) & IU_VMAX) + 1 : 1;
		if ((*code & IU_NAMED) || v > IU_VMAX || !variant(base, v, q, sizeof(q), d, sizeof(d)))
			return PAPI_ENOEVNT;
		*code = IU_VARIANT | (unsigned)v << IU_VSHIFT | base;
		return named_enum(*code);
	}
	return PAPI_ENOIMPL;
}

static int find_base(const char *name, size_t len, unsigned *base)
{
	char buf[256];
	if (len >= sizeof(buf))
		return -1;
	memcpy(buf, name, len);
	buf[len] = 0;
	int e = uncore_event_find(U, buf);
	if (e >= 0 && e < nevents) {
		*base = (unsigned)e;
		return 0;
	}
	int m = uncore_metric_find(U, buf);
	for (int i = 0; m >= 0 && i < nmetrics; i++)
		if (metrics[i] == m) {
			*base = (unsigned)(nevents + i);
			return 0;
		}
	int g = iu_ufreq_find(buf, len);
	if (g >= 0 && g < ngauges) {
		*base = (unsigned)(nevents + nmetrics + g);
		return 0;
	}
	if ((m = iu_energy_find(buf, len)) >= 0) {
		*base = (unsigned)(nevents + nmetrics + ngauges + m);
		return 0;
	}
	if ((m = iu_peak_find(buf, len)) >= 0 && m < npeak) {
		*base = (unsigned)(nevents + nmetrics + ngauges + nenergy + m);
		return 0;
	}
	return -1;
}

/* A metric's ":node=N" taken out of spec into *node (-1 without); -1 when it is not a number, or comes with
 * another qualifier (a node is of one socket). */
static int take_node(char *spec, int *node)
{
	char *q = strstr(spec, ":node="), *end;
	*node = -1;
	if (!q)
		return 0;
	long v = strtol(q + 6, &end, 10);
	if (end == q + 6 || v < 0 || v > 4095 || strcspn(spec, ":") != (size_t)(q - spec) || *end)
		return -1;
	*node = (int)v;
	*q = 0;
	return 0;
}

/* Does the library accept this qualified event (or metric, which takes socket=N or node=N)? */
static int valid(unsigned base, const char *name)
{
	uncore_session_t *s;
	const char *q = strchr(name, ':');
	char *end, spec[256];
	int node, ok = 0;
	if (energy_of(base) >= 0)
		return iu_energy_valid(U, name);
	if (gauge_of(base) >= 0 || peak_of(base) >= 0) /* only :socket=N, a socket there is */
		return !q || (!strncmp(q, ":socket=", 8) && strtol(q + 8, &end, 10) < uncore_num_sockets(U) && end > q + 8 &&
			      !*end && q[8] != '-');
	snprintf(spec, sizeof(spec), "%s", name);
	/* node=N of a memory bytes metric: a node without a value of it is refused when added, saying why */
	if ((int)base >= nevents && (take_node(spec, &node) || (node >= 0 && !bytes_metric(metrics[base - (unsigned)nevents]))))
		return 0;
	if (uncore_session_new(U, &s))
		return 0;
	ok = ((int)base >= nevents ? uncore_session_add_metric(s, spec) : uncore_session_add(s, spec)) >= 0;
	uncore_session_free(s);
	return ok;
}

/* A name not listed: the library checks it, and it gets a code of its own. */
static int add_named(const char *name, const char *spec, unsigned *code)
{
	unsigned base;
	for (int k = 0; k < nnamed; k++)
		if (!strcmp(named[k].name, name)) {
			*code = IU_NAMED | (unsigned)k;
			return PAPI_OK;
		}
	if (strlen(spec) >= sizeof(((struct iu_target *)0)->spec) || find_base(spec, strcspn(spec, ":"), &base) ||
	    !valid(base, spec))
		return PAPI_ENOEVNT;
	if (nnamed == capnamed) {
		int nc = capnamed ? capnamed * 2 : 16;
		struct named *nn = realloc(named, (size_t)nc * sizeof(*nn));
		if (!nn)
			return PAPI_ENOMEM;
		named = nn;
		capnamed = nc;
	}
	named[nnamed].name = strdup(name);
	named[nnamed].spec = strdup(spec);
	if (!named[nnamed].name || !named[nnamed].spec) {
		free(named[nnamed].name);
		free(named[nnamed].spec);
		return PAPI_ENOMEM;
	}
	*code = IU_NAMED | (unsigned)nnamed++;
	return PAPI_OK;
}

int iu_name_to_code(const char *name, unsigned *code)
{
	size_t blen = strcspn(name, ":");
	unsigned base;
	char q[64], d[256], spec[256];
	if (strstr(name, "::")) /* perf_event_uncore's PMU::EVENT */
		return iu_pfm_spec(U, name, spec, sizeof(spec)) ? PAPI_ENOEVNT : add_named(name, spec, code);
	if (find_base(name, blen, &base))
		return PAPI_ENOEVNT;
	if (!name[blen]) {
		*code = base;
		return PAPI_OK;
	}
	const char *quals = name + blen + 1;
	struct uncore_qualifier qs[IU_VMAX];
	int nq = qualifiers_of(base, qs);
	for (int v = 1; v <= nq; v++) {
		umask_text(&qs[v - 1], q, sizeof(q), d, sizeof(d));
		if (!strcmp(q, quals)) {
			*code = IU_VARIANT | (unsigned)v << IU_VSHIFT | base;
			return PAPI_OK;
		}
	}
	return add_named(name, name, code);
}

/* The full name of a code, its base's description and unit, and the qualifier's meaning. */
static int describe(unsigned code, char *nm, size_t nl, const char **desc, const char **unit, char *qd, size_t ql)
{
	unsigned base;
	qd[0] = 0;
	if (code & IU_NAMED) {
		unsigned k = code & ~IU_NAMED;
		if (k >= (unsigned)nnamed)
			return -1;
		snprintf(nm, nl, "%s", named[k].name);
		char b[256];
		const char *sp = named[k].spec;
		return find_base(sp, strcspn(sp, ":"), &base) ? -1 : base_name(base, b, sizeof(b), desc, unit);
	}
	base = code & IU_BASE_MASK;
	if (base_name(base, nm, nl, desc, unit))
		return -1;
	if (code & IU_VARIANT) {
		char q[64];
		if (!variant(base, (int)((code >> IU_VSHIFT) & IU_VMAX), q, sizeof(q), qd, ql))
			return -1;
		size_t n = strlen(nm);
		snprintf(nm + n, nl - n, ":%s", q);
	}
	return 0;
}

enum { T_NAME, T_DESCR, T_UNITS };

/* A per-port IIO event's devices (issue 66 point 1): " Port N counts: ..." (after a period desc lacks) for the
 * socket and box its name qualifies (every socket's and stack's without), from the library's device map; ""
 * for any other event. */
static void port_devices(const char *nm, const char *desc, char *out, size_t len)
{
	struct uncore_port_devices pd;
	const char *q;
	int port = uncore_iio_port_of(nm), socket = -1, box = -1;
	out[0] = 0;
	if (port < 0)
		return;
	if ((q = strstr(nm, ":socket=")))
		socket = atoi(q + 8);
	if ((q = strstr(nm, ":box=")))
		box = atoi(q + 5);
	if (uncore_port_devices(U, socket, box, port, &pd) > 0 && pd.ndevices)
		snprintf(out, len, "%s Port %d counts: %s.", desc[0] && desc[strlen(desc) - 1] != '.' ? "." : "", port,
			 pd.text);
}

/* One text of a code: its full name, its description, or its unit. */
static int text_of(unsigned code, int what, char *buf, int len)
{
	const char *desc, *unit;
	char nm[256], qd[256], need[512] = "", devs[600] = "";
	if (describe(code, nm, sizeof(nm), &desc, &unit, qd, sizeof(qd)))
		return PAPI_ENOEVNT;
	if (what == T_DESCR && !(code & (IU_NAMED | IU_VARIANT)))
		needs(code & IU_BASE_MASK, need, sizeof(need));
	if (what == T_DESCR)
		port_devices(nm, desc, devs, sizeof(devs));
	if (what == T_NAME)
		snprintf(buf, (size_t)len, "%s", nm);
	else if (what == T_UNITS)
		snprintf(buf, (size_t)len, "%s", unit);
	else if (qd[0]) /* papi_native_avail shows the part after masks: */
		snprintf(buf, (size_t)len, "%s%s, masks:%s", desc, devs, qd);
	else
		snprintf(buf, (size_t)len, "%s%s%s", desc, devs, need);
	return PAPI_OK;
}

int iu_code_to_name(unsigned code, char *buf, int len) { return text_of(code, T_NAME, buf, len); }
int iu_code_to_descr(unsigned code, char *buf, int len) { return text_of(code, T_DESCR, buf, len); }
int iu_code_to_units(unsigned code, char *buf, int len) { return text_of(code, T_UNITS, buf, len); }

int iu_target_of(unsigned code, struct iu_target *t)
{
	const char *desc, *unit;
	char qd[256];
	if (describe(code, t->spec, sizeof(t->spec), &desc, &unit, qd, sizeof(qd)))
		return PAPI_ENOEVNT;
	unsigned base = (code & IU_NAMED) ? 0 : code & IU_BASE_MASK;
	if (code & IU_NAMED) {
		snprintf(t->spec, sizeof(t->spec), "%s", named[code & ~IU_NAMED].spec); /* describe checked k */
		find_base(t->spec, strcspn(t->spec, ":"), &base);
	}
	t->metric = gauge_of(base) >= 0 ? IU_GAUGE : energy_of(base) >= 0 ? IU_ENERGY : peak_of(base) >= 0 ? IU_PEAK
												       : (int)base >= nevents;
	t->domain = t->metric == IU_ENERGY ? iu_energy_domain(energy_of(base)) : -1;
	t->socket = t->node = -1;
	if (t->metric) {
		const char *q = strstr(t->spec, ":socket="); /* validated: the only qualifier of a metric but node */
		if (q)
			t->socket = atoi(q + 8);
		if (take_node(t->spec, &t->node))
			return PAPI_ENOEVNT;
	}
	return PAPI_OK;
}
