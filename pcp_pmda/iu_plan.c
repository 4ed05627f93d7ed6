/*
 * What the agent counts: the library's default set (uncore_select, as the exporter and the collectd plugin
 * choose it) with each memory controller's channels, its NUMA nodes' bytes, RAPL energy and the health
 * conditions, each value put under its metric of the fixed table (iu_table.c) as an instance.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iu_pmda.h"
#include "iu_log.h"
#include "../exporter/ue.h" /* ue_family_of: the exporter's names of the library's metrics */

static int fail(char *err, size_t len, const char *what)
{
	snprintf(err, len, "%s: %s", what, uncore_error());
	return -1;
}

int iu_add_instance(struct iu_state *st, int m, const char *name)
{
	pmdaIndom *d = &st->indoms[m];
	pmdaInstid *n = realloc(d->it_set, (size_t)(d->it_numinst + 1) * sizeof(*n));
	if (!n)
		return -1;
	d->it_set = n;
	n[d->it_numinst].i_inst = d->it_numinst;
	if (!(n[d->it_numinst].i_name = strdup(name)))
		return -1;
	return d->it_numinst++;
}

static int add_value(struct iu_state *st, const struct iu_value *v, const char *inst)
{
	struct iu_value *nv = realloc(st->v, (size_t)(st->nv + 1) * sizeof(*nv));
	if (!nv)
		return -1;
	st->v = nv;
	nv[st->nv] = *v;
	for (int i = 0; i < st->indoms[v->m].it_numinst; i++)
		if (!strcmp(st->indoms[v->m].it_set[i].i_name, inst))
			return 0; /* one count under two of the library's names (mem_bw_read, mem_read_bytes) */
	if ((nv[st->nv].inst = iu_add_instance(st, v->m, inst)) < 0)
		return -1;
	st->nv++;
	return 0;
}

/* name is one of list's "a|b" */
static int one_of(const char *list, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = list; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == '|' || !p[n]))
			return 1;
	return 0;
}

static int table_of(enum iu_source src, const char *family, int per_box)
{
	for (int m = 0; m < iu_nmetrics; m++)
		if (iu_metrics[m].src == src && iu_metrics[m].per_box == per_box && (!family || one_of(iu_metrics[m].family, family)))
			return m;
	return -1;
}

/* "socket0", "socket0/channel3", "socket0/iio1/port0 nvme0 0000:17:00.0" (PCP: the first word is the instance's) */
static void instance_name(uncore_t *u, const struct uncore_series *c, int port, char *out, size_t len)
{
	struct uncore_unit_info ui;
	struct uncore_port_devices pd;
	int n = snprintf(out, len, "socket%d", c->socket);
	if (c->box < 0 || uncore_unit_info(u, c->unit, &ui))
		return;
	if (!strcmp(ui.name, "imc") || !strncmp(ui.name, "imc_", 4) || !strcmp(ui.name, "mc") || !strcmp(ui.name, "hbm"))
		n += snprintf(out + n, len - (size_t)n, "/channel%d", c->box);
	else
		n += snprintf(out + n, len - (size_t)n, "/%s%d", ui.name, c->box);
	if (port >= 0 && n > 0 && (size_t)n < len) {
		n += snprintf(out + n, len - (size_t)n, "/port%d", port);
		if (n > 0 && (size_t)n < len && uncore_port_devices(u, c->socket, c->box, port, &pd) > 0 && pd.ndevices)
			snprintf(out + n, len - (size_t)n, " %s %s", pd.name, pd.bdf);
	}
}

static int plan_series(struct iu_state *st, const struct uncore_series *c)
{
	struct iu_value v = { .metric = c->metric, .socket = c->socket, .box = c->box, .node = -1, .event = -1, .to_base = 1 };
	char inst[1024];
	if (c->by_node) {
		for (int k = 0; k < 3; k++)
			for (int w = 0; w < 2; w++)
				if (!strcmp(c->name, uncore_numa_bytes_metric(k, w)))
					v.m = table_of(IU_NODE, w ? "write" : "read", 0);
		v.node = c->node;
		v.window = UNCORE_SINCE_START;
		snprintf(inst, sizeof(inst), "node%d", c->node);
		return add_value(st, &v, inst);
	}
	struct uncore_metric_info mi;
	struct ue_family f;
	int port;
	if (c->metric < 0 || uncore_metric_info(st->u, c->info, &mi))
		return 0;
	ue_family_of(&mi, &f, &v.to_base, &port);
	if ((v.m = table_of(IU_SERIES, f.name, c->box >= 0)) < 0)
		return 0; /* not one of the table's: the exporter and the CLI give it */
	v.window = !f.counter ? UNCORE_LAST_INTERVAL : strstr(mi.unit, "/s") ? UNCORE_SINCE_START_COUNT : UNCORE_SINCE_START;
	instance_name(st->u, c, port, inst, sizeof(inst));
	return add_value(st, &v, inst);
}

static int plan_energy(struct iu_state *st)
{
	int m = table_of(IU_ENERGY, NULL, 0);
	char inst[64];
	if (uncore_energy_new(st->u, NULL, &st->energy)) {
		iu_log(LOG_WARNING, "no energy metrics: %s", uncore_error());
		return 0;
	}
	for (int s = 0; s < uncore_num_sockets(st->u); s++)
		for (int d = 0; d < UNCORE_ENERGY_DOMAINS; d++) {
			struct iu_value v = { .m = m, .socket = s, .event = d, .node = -1, .box = -1, .to_base = 1 };
			if (!uncore_energy_has(st->energy, s, d))
				continue;
			snprintf(inst, sizeof(inst), "socket%d/%s", s, uncore_energy_domain_name(d));
			if (add_value(st, &v, inst))
				return -1;
		}
	return 0;
}

/* each DDR node's peak (numa.peak_bandwidth), where the node has byte series (the default set's) and its peak is
 * known: an instance nodeN as theirs */
static int plan_node_peaks(struct iu_state *st)
{
	struct uncore_numa_node nodes[64];
	int n = uncore_numa_nodes(st->u, nodes, 64), m = table_of(IU_PEAK, "node_peak", 0), nv = st->nv;
	char inst[32];
	for (int i = 0; m >= 0 && i < n && i < 64; i++) {
		double bps;
		int counted = 0;
		for (int k = 0; k < nv; k++)
			counted |= iu_metrics[st->v[k].m].src == IU_NODE && st->v[k].node == nodes[i].node;
		/* (an HBM, CXL or refused node has no DDR peak: uncore_memory_node_peak says so; a socket's unknown peak
		 * is said, a node's is so for the same reason) */
		if (!counted || uncore_memory_node_peak(st->u, nodes[i].node, &bps) || !(bps > 0))
			continue;
		struct iu_value v = { .m = m, .metric = -1, .socket = nodes[i].socket, .box = -1, .node = -1, .event = -1,
				      .to_base = 1, .value = bps, .have = 1 };
		snprintf(inst, sizeof(inst), "node%d", nodes[i].node);
		if (add_value(st, &v, inst))
			return -1;
	}
	return 0;
}

/* a socket's peak DRAM bandwidth and its share, where the selection counts DRAM bytes read and written and the
 * socket's peak is known (no instance where not: doc/memory.md) */
static int plan_peak(struct iu_state *st)
{
	int sm = uncore_session_add_peak_share(st->s, -1), said = 0; /* (the agent's selection: every socket) */
	char inst[32];
	for (int s = 0; sm >= 0 && s < uncore_num_sockets(st->u); s++) {
		double bps;
		int rc = uncore_memory_peak(st->u, s, &bps);
		if (rc || !(bps > 0)) {
			if (!said++)
				iu_log(LOG_INFO, "no peak DRAM bandwidth of socket %d: %s", s,
					    rc ? uncore_error() : "no channel holds a DIMM");
			continue;
		}
		snprintf(inst, sizeof(inst), "socket%d", s);
		for (int m = 0; m < iu_nmetrics; m++) {
			int share = iu_metrics[m].src == IU_PEAK && !strcmp(iu_metrics[m].family, "share");
			struct iu_value v = { .m = m, .metric = -1, .socket = s, .box = -1, .node = -1, .event = share ? sm : -1,
					      .to_base = 1, .value = bps, .have = !share };
			if (iu_metrics[m].src == IU_PEAK && strcmp(iu_metrics[m].family, "node_peak") && add_value(st, &v, inst))
				return -1;
		}
	}
	return plan_node_peaks(st);
}

/* "socket0/die0 package_00_die_00", "socket0/domain1/cluster0 uncore01"; the entry alone where its place is unknown */
static void ufreq_instance(const struct uncore_freq_domain *d, char *out, size_t len)
{
	if (d->socket >= 0 && d->die >= 0)
		snprintf(out, len, "socket%d/die%d %s", d->socket, d->die, d->name);
	else if (d->socket >= 0 && d->domain >= 0)
		snprintf(out, len, "socket%d/domain%d/cluster%d %s", d->socket, d->domain, d->cluster, d->name);
	else
		snprintf(out, len, "%s", d->name);
}

/* the uncore clock's limits, an instance per die or TPMI cluster (as the exporter's, with the default set) */
static int plan_ufreq(struct iu_state *st, const struct uncore_selection *sel)
{
	char inst[96];
	if (!uncore_freq_selected(sel))
		return 0;
	if (!(st->ufreq = calloc(IU_UFREQ_MAX, sizeof(*st->ufreq))))
		return -1;
	int n = uncore_freq_domains(st->u, st->ufreq, IU_UFREQ_MAX);
	if (n < 0) {
		iu_log(LOG_INFO, "no uncore clock limits: %s", uncore_error());
		return 0;
	}
	st->nufreq = n < IU_UFREQ_MAX ? n : IU_UFREQ_MAX;
	for (int m = 0; m < iu_nmetrics; m++)
		for (int i = 0; iu_metrics[m].src == IU_UFREQ && i < st->nufreq; i++) {
			struct iu_value v = { .m = m, .box = i, .socket = st->ufreq[i].socket, .node = -1, .event = -1, .to_base = 1 };
			ufreq_instance(&st->ufreq[i], inst, sizeof(inst));
			if (add_value(st, &v, inst))
				return -1;
		}
	return 0;
}

/* a count per condition and socket (and the node's): "allones/socket0", "resctrl/node" */
static int plan_health(struct iu_state *st)
{
	int m = table_of(IU_HEALTH, NULL, 0);
	char inst[64];
	for (int k = 0; uncore_health_name(k); k++)
		for (int s = -1; s < uncore_num_sockets(st->u); s++) {
			struct iu_value v = { .m = m, .socket = s, .event = k, .node = -1, .box = -1, .to_base = 1, .have = 1 };
			if (s < 0)
				snprintf(inst, sizeof(inst), "%s/node", uncore_health_name(k));
			else
				snprintf(inst, sizeof(inst), "%s/socket%d", uncore_health_name(k), s);
			if (add_value(st, &v, inst))
				return -1;
		}
	return 0;
}

/* st->per_job: the jobs too (-j), and the default set leaves the attribution's counters free */
int iu_plan(struct iu_state *st, const char *backend, char *err, size_t len)
{
	static const char *const imc[] = { "imc" };
	struct uncore_selection sel = { .box_units = imc, .nbox_units = 1, .opt_metrics = "metrics", .opt_groups = "groups",
					.opt_events = "events", .opt_sockets = "sockets", .opt_per_box = "per-box",
					.interval_s = 1, .per_job = st->per_job };
	struct uncore_series *chosen = NULL;
	char notice[512] = "";
	int n = 0;
	if (!(st->indoms = calloc((size_t)iu_nmetrics, sizeof(*st->indoms))))
		return snprintf(err, len, "out of memory"), -1;
	if (uncore_open(backend, &st->u))
		return fail(err, len, "cannot open the uncore");
	uncore_node_build(st->u); /* the node's facts now: a read only indexes them (a failed one says why at its use) */
	if (uncore_session_new(st->u, &st->s))
		return fail(err, len, "session");
	/* the channels of a memory controller named imc; a part whose controller is named otherwise: the sockets' */
	if (uncore_select(st->u, st->s, &sel, &chosen, &n, notice, sizeof(notice))) {
		free(chosen);
		chosen = NULL;
		uncore_session_free(st->s);
		sel.box_units = NULL, sel.nbox_units = 0;
		if (uncore_session_new(st->u, &st->s) || uncore_select(st->u, st->s, &sel, &chosen, &n, notice, sizeof(notice)))
			return fail(err, len, "selecting the metrics");
	}
	if (notice[0])
		iu_log(LOG_INFO, "%s", notice);
	for (int i = 0; i < n; i++)
		if (plan_series(st, &chosen[i])) {
			free(chosen);
			return snprintf(err, len, "out of memory"), -1;
		}
	free(chosen);
	if (plan_peak(st) || plan_energy(st) || plan_health(st) || plan_ufreq(st, &sel))
		return snprintf(err, len, "out of memory"), -1;
	if (uncore_session_num_events(st->s) && (uncore_session_allow_refused(st->s, 1) || uncore_session_start(st->s)))
		return fail(err, len, "cannot start counting");
	if (st->energy && uncore_energy_start(st->energy, 1000000000u))
		return fail(err, len, "energy");
	if (st->per_job && iu_jobs_start(st))
		return fail(err, len, "per-job");
	if (uncore_node_check(st->u) < 0) /* what the node is now: a change from it is followed before a read */
		iu_log(LOG_WARNING, "the node's changes are not followed: %s", uncore_error());
	return 0;
}

void iu_let_go(struct iu_state *st)
{
	iu_jobs_free(st);
	uncore_energy_free(st->energy);
	uncore_session_free(st->s); /* restores every register the session programmed */
	uncore_close(st->u);
	st->energy = NULL;
	st->s = NULL;
	st->u = NULL;
}

void iu_teardown(struct iu_state *st)
{
	iu_let_go(st);
	for (int m = 0; st->indoms && m < iu_nmetrics; m++) {
		for (int i = 0; iu_metrics[m].src != IU_JOB && i < st->indoms[m].it_numinst; i++) /* the jobs': jobname's */
			free(st->indoms[m].it_set[i].i_name);
		free(st->indoms[m].it_set);
	}
	free(st->indoms);
	free(st->v);
	free(st->ufreq);
	free(st->pmetrics);
	memset(st, 0, sizeof(*st));
}
