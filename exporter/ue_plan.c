/*
 * What the exporter reports: the series uncore_select() chooses (the collectd plugin's options and default
 * set), each named as Prometheus wants (ue_names.c) with the labels socket, die, and for a box channel
 * (memory controllers) or unit and box, and port; raw events as uncore_event_total{event="..."}.  Two
 * metrics of one family and labels (mem_bw_read and mem_read_bytes count the same bytes) are one series.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ue.h"
#include "ue_log.h"

/* The family's index, added when new; a name met again with another type or unit is an error. */
static int family(struct ue_state *st, const struct ue_family *f, char *err, size_t len)
{
	for (int i = 0; i < st->nfams; i++)
		if (!strcmp(st->fams[i].name, f->name)) {
			if (st->fams[i].counter != f->counter || strcmp(st->fams[i].unit, f->unit))
				return ue_fail(err, len, "two metrics would share the Prometheus name %s as different types", f->name);
			return i;
		}
	struct ue_family *nf = realloc(st->fams, (size_t)(st->nfams + 1) * sizeof(*nf));
	if (!nf)
		return ue_fail(err, len, "out of memory");
	st->fams = nf;
	nf[st->nfams] = *f;
	return st->nfams++;
}

/* takes se's labels */
static int add(struct ue_state *st, struct ue_series *se, char *err, size_t len)
{
	for (int i = 0; i < st->nseries; i++)
		if (st->series[i].fam == se->fam && !strcmp(st->series[i].labels, se->labels)) {
			free(se->labels);
			return 0; /* the same count under another metric's name */
		}
	struct ue_series *ns = realloc(st->series, (size_t)(st->nseries + 1) * sizeof(*ns));
	if (!ns) {
		free(se->labels);
		return ue_fail(err, len, "out of memory");
	}
	st->series = ns;
	ns[st->nseries++] = *se;
	return 0;
}

/* socket="0"[,die="1"][,channel="3" | ,unit="cha",box="5"][,port="2"[,pci_bdf="...",device="...",driver="..."[,gpu="0",UUID="GPU-..."]]] */
static void labels(uncore_t *u, const struct uncore_series *c, int port, char *out, size_t len)
{
	struct uncore_unit_info ui;
	int n = snprintf(out, len, "socket=\"%d\"", c->socket);
	int die = c->box >= 0 ? uncore_box_die(u, c->unit, c->socket, c->box) : -1;
	if (die >= 0)
		n += snprintf(out + n, len - (size_t)n, ",die=\"%d\"", die);
	if (c->box >= 0 && !uncore_unit_info(u, c->unit, &ui)) {
		/* a memory controller's box is a channel (SNB-EP to SKX: one per channel; discovery parts: one
		 * per channel or sub-channel; Xeon Max's HBM channels, in their uncore_hbm_* families) */
		if (!strcmp(ui.name, "imc") || !strncmp(ui.name, "imc_", 4) || !strcmp(ui.name, "mc") || !strcmp(ui.name, "hbm"))
			n += snprintf(out + n, len - (size_t)n, ",channel=\"%d\"", c->box);
		else
			n += snprintf(out + n, len - (size_t)n, ",unit=\"%s\",box=\"%d\"", ui.name, c->box);
	}
	if (port >= 0)
		n += snprintf(out + n, len - (size_t)n, ",port=\"%d\"", port);
	/* the devices the port counts (doc/prometheus.md): a switch's, and every stack's for a socket's sum,
	 * comma lists in one order in one series, never a series each */
	struct uncore_port_devices pd;
	if (port >= 0 && n > 0 && (size_t)n < len && uncore_port_devices(u, c->socket, c->box, port, &pd) > 0 && pd.ndevices) {
		char bdf[300], dev[300], drv[300];
		ue_label_escape(bdf, sizeof(bdf), pd.bdf);
		ue_label_escape(dev, sizeof(dev), pd.name);
		ue_label_escape(drv, sizeof(drv), pd.driver);
		char gpu[1300];
		ue_gpu_labels(u, pd.bdf, pd.driver, gpu, sizeof(gpu));
		snprintf(out + n, len - (size_t)n, ",pci_bdf=\"%s\",device=\"%s\",driver=\"%s\"%s", bdf, dev, drv, gpu);
	}
}

static int plan_one(struct ue_state *st, const struct uncore_series *c, char *err, size_t len)
{
	struct ue_family f;
	struct ue_series se = { .metric = c->metric, .event = c->event, .socket = c->socket, .box = c->box, .node = -1 };
	int port = -1;
	char where[2600];
	if (c->by_node) {
		ue_node_family(st, c, &f, where, sizeof(where));
		se.node = c->node;
		se.to_base = 1; /* bytes */
		se.window = UNCORE_SINCE_START;
	} else if (c->metric >= 0) {
		struct uncore_metric_info mi;
		if (uncore_metric_info(st->u, c->info, &mi))
			return ue_fail(err, len, "metric %s: %s", c->name, uncore_error());
		ue_family_of(&mi, &f, &se.to_base, &port);
		se.window = !f.counter ? UNCORE_LAST_INTERVAL : strstr(mi.unit, "/s") ? UNCORE_SINCE_START_COUNT
										     : UNCORE_SINCE_START;
	} else {
		memset(&f, 0, sizeof(f));
		snprintf(f.name, sizeof(f.name), "uncore_event");
		f.counter = 1;
		f.unit = "";
		snprintf(f.help, sizeof(f.help), "Occurrences of a raw uncore event (the event label) since the exporter started");
		se.to_base = 1;
		se.window = UNCORE_SINCE_START;
	}
	if (!c->by_node)
		labels(st->u, c, port, where, sizeof(where));
	/* a raw event's label is its whole spec, escaped (each character at most two): two events differing
	 * anywhere are two series */
	size_t n = strlen(where) + (c->metric < 0 ? 2 * strlen(c->name) + 16 : 1);
	if (!(se.labels = malloc(n)))
		return ue_fail(err, len, "out of memory");
	snprintf(se.labels, n, "%s", where);
	if (c->metric < 0) {
		size_t at = strlen(where);
		at += (size_t)snprintf(se.labels + at, n - at, ",event=\"");
		ue_label_escape(se.labels + at, n - at, c->name);
		at += strlen(se.labels + at);
		snprintf(se.labels + at, n - at, "\"");
	}
	if ((se.fam = family(st, &f, err, len)) < 0) {
		free(se.labels);
		return -1;
	}
	return add(st, &se, err, len);
}

static int backend_is_config(const char *b) { return b && strcmp(b, "auto") && strcmp(b, "direct"); }

int ue_plan(const struct ue_config *c, struct ue_state *st, char *err, size_t len)
{
	struct uncore_selection sel = {
		.metrics = (const char *const *)c->metrics, .nmetrics = c->nmetrics,
		.groups = (const char *const *)c->groups, .ngroups = c->ngroups,
		.events = (const char *const *)c->events, .nevents = c->nevents,
		.box_units = (const char *const *)c->box_units, .nbox_units = c->nbox_units,
		.sockets = c->sockets, .per_box_all = c->per_box_all, .opt_metrics = "--metrics",
		.opt_groups = "--groups", .opt_events = "--events", .opt_sockets = "--sockets", .opt_per_box = "--per-box",
		.interval_s = c->interval, /* the default set fits a share of a core at it (uncore.h) */
		.per_job = c->per_job,     /* ... and leaves the attribution's counters free */
	};
	struct uncore_series *chosen = NULL;
	int n = 0;
	memset(st, 0, sizeof(*st));
	if (uncore_open(c->backend, &st->u))
		return ue_fail(err, len, "%s%s", backend_is_config(c->backend) ? "--backend: " : "", uncore_error());
	if (c->force)
		uncore_set_force(st->u, 1);
	uncore_node_build(st->u); /* the node's facts now: a read only indexes them (a failed one says why at its use) */
	if (uncore_session_new(st->u, &st->s) ||
	    uncore_select(st->u, st->s, &sel, &chosen, &n, st->notice, sizeof(st->notice))) {
		ue_fail(err, len, "%s", uncore_error());
		goto bad;
	}
	ue_nodes_load(c, st);
	for (int i = 0; i < n; i++)
		if (plan_one(st, &chosen[i], err, len))
			goto bad;
	if (ue_peak_plan(c, st, err, len))
		goto bad;
	if (ue_ufreq_plan(st, &sel)) {
		ue_fail(err, len, "out of memory");
		goto bad;
	}
	unsigned energy = uncore_energy_selected(&sel);
	/* the default set counts energy too (package and DRAM, the energy group), as node_exporter's rapl collector
	 * is on by default; its cost at 100 Hz is in doc/cost.md */
	if (!c->nmetrics && !c->ngroups && !c->nevents)
		energy = uncore_energy_named(UNCORE_ENERGY_GROUP, 1);
	if (ue_energy_plan(st, uncore_energy_domains(energy), c->interval, err, len))
		goto bad;
	free(chosen);
	return 0;
bad:
	free(chosen);
	ue_teardown(st);
	return -1;
}

int ue_start(struct ue_state *st, char *err, size_t len)
{
	/* a box another agent counts on costs its own series, not the exporter (the first read says which) */
	if (uncore_session_num_events(st->s) && /* none: energy alone */
	    (uncore_session_allow_refused(st->s, 1) || uncore_session_start(st->s)))
		return ue_fail(err, len, "cannot start counting: %s", uncore_error());
	return ue_energy_start(st, err, len);
}

void ue_carry(struct ue_state *st, struct ue_state *old)
{
	for (int i = 0; i < st->nseries; i++) {
		struct ue_series *se = &st->series[i];
		if (!st->fams[se->fam].counter)
			continue;
		for (int j = 0; j < old->nseries; j++) {
			const struct ue_series *o = &old->series[j];
			if ((o->have || o->failed) && !strcmp(old->fams[o->fam].name, st->fams[se->fam].name) && !strcmp(o->labels, se->labels)) {
				se->base = o->base + o->value;
				break;
			}
		}
	}
	/* (the jobs' bytes went on at the start: ue_begin moved the old tally over before the jobs' scan) */
	st->wall = old->wall;
	st->read_seconds = old->read_seconds;
	st->reads = old->reads;
	st->failures = old->failures;
	st->missed = old->missed;
}

void ue_teardown(struct ue_state *st)
{
	ue_jobs_stop(st);
	ue_energy_stop(st);
	uncore_session_free(st->s); /* restores every register the session programmed */
	uncore_close(st->u);
	for (int i = 0; i < st->nseries; i++)
		free(st->series[i].labels);
	free(st->series);
	free(st->fams);
	uncore_job_tally_free(&st->tally);
	ue_ufreq_free(st);
	memset(st, 0, sizeof(*st));
}

int ue_plan_family(struct ue_state *st, const struct ue_family *f, char *err, size_t len) { return family(st, f, err, len); }
int ue_plan_series(struct ue_state *st, struct ue_series *se, char *err, size_t len) { return add(st, se, err, len); }
