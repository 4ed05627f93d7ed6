/*
 * The two exposition formats, rendered once per read (not per scrape):
 *   Prometheus text 0.0.4: # HELP and # TYPE, a counter's family named with its _total, timestamps in ms;
 *   OpenMetrics 1.0.0:     # TYPE, # UNIT and # HELP on the family (no _total), samples with _total,
 *                          timestamps in seconds, ending in # EOF.
 * Samples carry the time their counters were read (ue_config.timestamps): doc/prometheus.md gives the
 * measurements that chose it.  The exporter's own series carry none.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ue.h"

struct buf {
	char *p;
	size_t len, cap;
	int oom;
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	for (int tries = 0; tries < 2 && !b->oom; tries++) {
		va_start(ap, fmt);
		int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->oom = 1;
			return;
		}
		if (b->p && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = (b->cap ? b->cap * 2 : 65536) + (size_t)n;
		char *p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
}

/* HELP text: backslash and newline escaped (both formats; OpenMetrics also escapes the double quote) */
static void help(struct buf *b, const char *name, const char *text, int om)
{
	put(b, "# HELP %s", name);
	put(b, " ");
	for (const char *c = text; *c; c++)
		if (*c == '\\')
			put(b, "\\\\");
		else if (*c == '\n')
			put(b, "\\n");
		else if (*c == '"' && om)
			put(b, "\\\"");
		else
			put(b, "%c", *c);
	put(b, "\n");
}

static void head(struct buf *b, const struct ue_family *f, int om)
{
	char name[sizeof(f->name) + sizeof("_total") - 1];
	snprintf(name, sizeof(name), "%s%s", f->name, f->counter && !om ? "_total" : "");
	if (om) {
		put(b, "# TYPE %s %s\n", name, f->counter ? "counter" : "gauge");
		if (f->unit[0])
			put(b, "# UNIT %s %s\n", name, f->unit);
		help(b, name, f->help, om);
	} else {
		help(b, name, f->help, om);
		put(b, "# TYPE %s %s\n", name, f->counter ? "counter" : "gauge");
	}
}

static void sample(struct buf *b, const struct ue_family *f, const char *labels, double v, uint64_t t_ns, int om)
{
	put(b, "%s%s", f->name, f->counter ? "_total" : "");
	if (labels && labels[0])
		put(b, "{%s}", labels);
	put(b, " %.17g", v);
	if (t_ns && om)
		put(b, " %llu.%03llu", (unsigned long long)(t_ns / 1000000000u), (unsigned long long)(t_ns / 1000000u % 1000u));
	else if (t_ns)
		put(b, " %llu", (unsigned long long)(t_ns / 1000000u));
	put(b, "\n");
}

/* The tally's families: each job's bytes (job_id) and the node's that are no job's, memory then devices */
static const struct {
	const char *name, *help, *un_name, *un_help;
	size_t job, un; /* offsets in struct uncore_job_bytes and struct uncore_job_tally */
} job_fams[] = {
#define JB(f) offsetof(struct uncore_job_bytes, f)
#define JT(f) offsetof(struct uncore_job_tally, f)
	{ "uncore_job_memory_read_bytes", "Memory bytes read by the job's cores since the exporter first saw the job, "
	  "over the node's sockets (the attribution of doc/jobs.md)", "uncore_unattributed_memory_read_bytes",
	  "Memory bytes read that no job's core caused (devices' DMA, cores of no job) since the exporter started",
	  JB(read_bytes), JT(unattributed_read) },
	{ "uncore_job_memory_write_bytes", "Memory bytes written by the job's cores since the exporter first saw the "
	  "job, over the node's sockets (the attribution of doc/jobs.md)", "uncore_unattributed_memory_write_bytes",
	  "Memory bytes written that no job's core caused (devices' DMA, cores of no job) since the exporter started",
	  JB(write_bytes), JT(unattributed_write) },
	{ "uncore_job_device_write_bytes", "Bytes the job's devices wrote into the node (the IIO ports of the device "
	  "groups it holds whole, doc/jobs.md \"Devices\") since the exporter first saw the job",
	  "uncore_unattributed_device_write_bytes", "Bytes written into the node by device groups no one job holds "
	  "whole since the exporter started", JB(device_write_bytes), JT(unattributed_device_write) },
	{ "uncore_job_device_read_bytes", "Bytes the job's devices read from the node (the IIO ports of the device "
	  "groups it holds whole, doc/jobs.md \"Devices\") since the exporter first saw the job",
	  "uncore_unattributed_device_read_bytes", "Bytes read from the node by device groups no one job holds whole "
	  "since the exporter started", JB(device_read_bytes), JT(unattributed_device_read) },
#undef JB
#undef JT
};

/* One sample of family f a present job, its value the double at byte offset off of its uncore_job_bytes (or, with
 * off < 0, its shared CPUs) */
static void job_samples(struct buf *b, const struct ue_state *st, const struct ue_family *f, long off, int ts, int om)
{
	head(b, f, om);
	for (int i = 0; i < st->tally.n; i++) {
		const struct uncore_job_bytes *j = &st->tally.jobs[i];
		char id[140], labels[160];
		if (!j->present)
			continue;
		ue_label_escape(id, sizeof(id), j->id);
		snprintf(labels, sizeof(labels), "job_id=\"%s\"", id);
		double v = off < 0 ? j->shared_cpus : *(const double *)((const char *)j + off);
		sample(b, f, labels, v, ts ? st->jobs_t_ns : 0, om);
	}
}

static void jobs(struct buf *b, const struct ue_state *st, int ts, int om)
{
	for (size_t k = 0; k < sizeof(job_fams) / sizeof(job_fams[0]); k++) {
		struct ue_family f = { .counter = 1, .unit = "bytes" };
		snprintf(f.name, sizeof(f.name), "%s", job_fams[k].name);
		snprintf(f.help, sizeof(f.help), "%s", job_fams[k].help);
		job_samples(b, st, &f, (long)job_fams[k].job, ts, om);
		snprintf(f.name, sizeof(f.name), "%s", job_fams[k].un_name);
		snprintf(f.help, sizeof(f.help), "%s", job_fams[k].un_help);
		head(b, &f, om);
		sample(b, &f, "", *(const double *)((const char *)&st->tally + job_fams[k].un), ts ? st->jobs_t_ns : 0, om);
	}
	struct ue_family f = { .counter = 0, .unit = "" };
	snprintf(f.name, sizeof(f.name), "uncore_job_shared_cpus");
	snprintf(f.help, sizeof(f.help), "The job's CPUs that another job holds too (OverSubscribe, --overlap) at the last "
		 "read: what each such CPU read is split equally among the jobs holding it (doc/jobs.md \"Shared CPUs\")");
	job_samples(b, st, &f, -1, ts, om);
}

/* uncore_health{condition,socket}: present at 0 so that an alert `uncore_health > 0` has its series from the
 * first scrape; resctrl's condition is the node's (no socket label). */
static void health(struct buf *b, const struct ue_state *st, int om)
{
	struct ue_family f = { .counter = 0, .unit = "" };
	uint64_t reported = 0;
	snprintf(f.name, sizeof(f.name), "uncore_health");
	snprintf(f.help, sizeof(f.help), "Health conditions of the counters standing at the last read, by condition and "
		 "socket (doc/health.md: what each means and what to do)");
	head(b, &f, om);
	for (int i = 0; i < st->nseries; i++)
		if (st->series[i].socket >= 0 && st->series[i].socket < UE_HEALTH_SOCKETS)
			reported |= 1ull << st->series[i].socket;
	for (int kind = 0; kind < UNCORE_HEALTH_KINDS; kind++) {
		char labels[96];
		for (int k = -1; k < UE_HEALTH_SOCKETS; k++) {
			if ((kind == UNCORE_HEALTH_RESCTRL) != (k < 0) || (k >= 0 && !(reported >> k & 1)))
				continue;
			snprintf(labels, sizeof(labels), "condition=\"%s\"", uncore_health_name(kind));
			if (k >= 0)
				snprintf(labels + strlen(labels), sizeof(labels) - strlen(labels), ",socket=\"%d\"", k);
			sample(b, &f, labels, st->health[kind][k + 1], 0, om);
		}
	}
}

/* The uncore clock's limits (ue_ufreq.c): a family where a domain has its value */
static void ufreq(struct buf *b, const struct ue_state *st, int om)
{
	struct ue_family f;
	for (int fam = 0; !ue_ufreq_family(fam, &f); fam++) {
		char labels[160];
		double v;
		int rc, any = 0;
		for (int i = 0; (rc = ue_ufreq_sample(st, fam, i, labels, sizeof(labels), &v)) != 1; i++)
			if (!rc) {
				if (!any++)
					head(b, &f, om);
				sample(b, &f, labels, v, 0, om);
			}
	}
}

/* uncore_numa_node_info{numa_node,socket,kind,domain,snc,refused}: each node of the default set's (value 1),
 * refused="" where its bytes are exported, else why they are not (doc/numa.md) */
static void nodes_info(struct buf *b, const struct ue_state *st, int om)
{
	struct ue_family f = { .counter = 0, .unit = "" };
	if (!st->nnodes)
		return;
	snprintf(f.name, sizeof(f.name), "uncore_numa_node_info");
	snprintf(f.help, sizeof(f.help), "Each NUMA node (value 1): its socket, kind (ddr, hbm, cxl), sub-NUMA domain and "
		 "the socket's domains; refused says why a node's bytes are not exported (doc/numa.md), empty where they are");
	head(b, &f, om);
	for (int i = 0; i < st->nnodes; i++) {
		const struct uncore_numa_node *v = &st->nodes[i];
		char why[600], labels[800];
		ue_label_escape(why, sizeof(why), v->refused ? v->refused : "");
		snprintf(labels, sizeof(labels), "numa_node=\"%d\",socket=\"%d\",kind=\"%s\",domain=\"%d\",snc=\"%d\",refused=\"%s\"",
			 v->node, v->socket, uncore_numa_kind_name(v->kind), v->domain, v->snc, why);
		sample(b, &f, labels, 1, 0, om);
	}
}

static void own(struct buf *b, const struct ue_state *st, int om)
{
	struct ue_family f = { .counter = 1, .unit = "seconds" };
	snprintf(f.name, sizeof(f.name), "uncore_exporter_read_seconds");
	snprintf(f.help, sizeof(f.help), "Time the exporter spent reading the counters and evaluating the metrics");
	head(b, &f, om);
	sample(b, &f, "", st->read_seconds, 0, om);
	f.unit = "";
	snprintf(f.name, sizeof(f.name), "uncore_exporter_reads");
	snprintf(f.help, sizeof(f.help), "Reads of the counters");
	head(b, &f, om);
	sample(b, &f, "", (double)st->reads, 0, om);
	snprintf(f.name, sizeof(f.name), "uncore_exporter_missed_reads");
	snprintf(f.help, sizeof(f.help), "Reads of the --interval schedule skipped because a read ran late (a stopped or "
		 "starved process): none while the exporter keeps up");
	head(b, &f, om);
	sample(b, &f, "", (double)st->missed, 0, om);
	snprintf(f.name, sizeof(f.name), "uncore_exporter_read_failures");
	snprintf(f.help, sizeof(f.help), "Reads in which a box failed or was taken over (its series are no longer exported)");
	head(b, &f, om);
	sample(b, &f, "", (double)st->failures, 0, om);
	snprintf(f.name, sizeof(f.name), "uncore_exporter_scrapes");
	snprintf(f.help, sizeof(f.help), "Scrapes served, as of the last read");
	head(b, &f, om);
	sample(b, &f, "", (double)st->scrapes, 0, om);
	snprintf(f.name, sizeof(f.name), "uncore_exporter_late_connections");
	snprintf(f.help, sizeof(f.help), "HTTP connections closed because a request outlasted --request-timeout (a slow or "
		 "trickling client), as of the last read");
	head(b, &f, om);
	sample(b, &f, "", (double)st->cut, 0, om);
	if (st->auth) {
		snprintf(f.name, sizeof(f.name), "uncore_exporter_auth_refusals");
		snprintf(f.help, sizeof(f.help), "Requests refused for their user and password: checked with a bcrypt, or "
			 "unchecked because clients outside --allow had spent their bcrypts of the second (doc/prometheus.md)");
		head(b, &f, om);
		sample(b, &f, "checked=\"true\"", (double)st->refused_hashed, 0, om);
		sample(b, &f, "checked=\"false\"", (double)st->refused_unchecked, 0, om);
	}
	f.counter = 0;
	snprintf(f.name, sizeof(f.name), "uncore_exporter_info");
	snprintf(f.help, sizeof(f.help), "The exporter's version, platform and backend (value 1)");
	head(b, &f, om);
	char labels[256], plat[64], back[96];
	ue_label_escape(plat, sizeof(plat), uncore_platform_name(st->u));
	ue_label_escape(back, sizeof(back), uncore_backend_name(st->u));
	snprintf(labels, sizeof(labels), "version=\"%s\",platform=\"%s\",backend=\"%s\",simulated=\"%s\"", uncore_version(),
		 plat, back, uncore_is_simulated(st->u) ? "true" : "false");
	sample(b, &f, labels, 1, 0, om);
}

static int render(struct buf *b, const struct ue_state *st, int ts, int om)
{
	for (int fam = 0; fam < st->nfams; fam++) {
		int any = 0;
		for (int i = 0; i < st->nseries && !any; i++)
			any = st->series[i].fam == fam && st->series[i].have;
		if (!any)
			continue; /* nothing yet (a gauge before its second read), or every box of it failed */
		head(b, &st->fams[fam], om);
		for (int i = 0; i < st->nseries; i++) {
			const struct ue_series *se = &st->series[i];
			if (se->fam == fam && se->have)
				sample(b, &st->fams[fam], se->labels, se->base + se->value, ts ? se->t_ns : 0, om);
		}
	}
	if (uncore_perjob_started(st->perjob) || st->tally.n)
		jobs(b, st, ts, om);
	health(b, st, om);
	ufreq(b, st, om);
	nodes_info(b, st, om);
	own(b, st, om);
	if (om)
		put(b, "# EOF\n");
	return b->oom ? -1 : 0;
}

struct ue_snapshot *ue_render(const struct ue_state *st, int timestamps)
{
	struct buf text = { 0 }, om = { 0 };
	struct ue_snapshot *snap = calloc(1, sizeof(*snap));
	if (!snap || render(&text, st, timestamps, 0) || render(&om, st, timestamps, 1)) {
		free(text.p);
		free(om.p);
		free(snap);
		return NULL;
	}
	snap->text = text.p;
	snap->text_len = text.len;
	snap->om = om.p;
	snap->om_len = om.len;
	return snap;
}
