/*
 * The devices a job holds, as the per-job object's second source (perjob.c; issue 66 point 3, doc/jobs.md
 * "Devices"): a device group's bytes -- its root port's IIO free-running counters, iio_bw_write_port<n> (what
 * the devices write into the socket) and iio_bw_read_port<n> (what they read), on the group's stack
 * (uncore_device_group_counter) -- are its job's when the job holds every device of the group, and stay
 * unattributed otherwise.  A group is never split: a port's counters count its devices together (a PCIe
 * switch's GPUs are one count), and no share of it is any one device's.
 *
 * These are I/O bytes at the IIO, not memory bytes: the memory rows (attrib.c) are not changed, since DMA may
 * land in the LLC (DDIO) or go peer to peer below a switch and never reach the memory controllers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "uncore.h"
#include "jobs.h"
#include "handle/handle.h"
#include "util/error.h"

#define NPORTS 16 /* the counter ports a platform may have (ICX on: 0-7) */

struct dgroup {
	int socket, box, port;
	int job;            /* the job that holds every device of it, -1: none (unattributed) */
	double bytes[2];    /* write, read: since start, at the last read */
};

struct attrib_dev {
	uncore_t *u;
	struct dgroup *g;
	int ng;
	char (*job)[UC_JOB_ID_MAX + 1];
	int njobs;
	uncore_session_t *s;
	int want[NPORTS];  /* a group is on port n */
	int m[NPORTS][2];  /* the session's metric of port n, write and read */
	double per_byte[NPORTS][2]; /* the metric's count since start of one byte (its scale: 1e-9 for GB/s) */
	uint64_t read_ns;  /* the session's elapsed time at the last read */
	int running;
};

/* The jobs of the handle's last scan that hold the device at bdf: how many, the first in *first */
static int holders(const struct uc_jobs *js, const char *bdf, int *first)
{
	int n = 0;
	for (int j = 0; js && j < js->n; j++)
		for (int d = 0; d < js->v[j].ndev; d++)
			if (!strcmp(js->v[j].dev[d], bdf)) {
				if (!n++)
					*first = j;
				break;
			}
	return n;
}

/* A device as a person knows it: "card1 (0000:2d:00.0)" */
static const char *label_of(const struct uncore_device *d, char *buf, size_t len)
{
	if (d->name[0])
		snprintf(buf, len, "%s (%s)", d->name, d->bdf);
	else
		snprintf(buf, len, "%s", d->bdf);
	return buf;
}

/* Whose group k is: the job's index, or -1, said in a warning when a job holds some of it but it is no one
 * job's; 0 devices held: -1 quietly. */
static int owner(uncore_t *u, const struct uc_jobs *js, int k, const struct uncore_device_group *g)
{
	int job = -1, held = 0, mixed = 0;
	char a[96], b[96], where[96];
	struct uncore_device d, other;
	snprintf(where, sizeof(where), "socket %d IIO stack %d port %d", g->socket, g->stack, g->port);
	for (int i = 0; i < g->ndevices; i++) {
		int first = -1, n;
		if (uncore_device_info(u, k, i, &d))
			return -1;
		n = holders(js, d.bdf, &first);
		if (n > 1) {
			uc_warn("devices: %s is held by %d jobs (job %s and others): the DMA of the group on %s stays "
				"unattributed (no share of a group is any one job's)", label_of(&d, a, sizeof(a)), n,
				js->v[first].id, where);
			return -1;
		}
		if (n == 1) {
			held++;
			if (job >= 0 && job != first)
				mixed = 1;
			job = job < 0 ? first : job;
		}
	}
	if (!held)
		return -1;
	if (mixed || held < g->ndevices) {
		/* name a device of the job and one it does not hold */
		int first = -1, mine = -1, not = -1;
		for (int i = 0; i < g->ndevices && !uncore_device_info(u, k, i, &d); i++) {
			int n = holders(js, d.bdf, &first);
			if (n == 1 && first == job && mine < 0)
				mine = i;
			else if ((n == 0 || first != job) && not < 0)
				not = i;
		}
		if (mine >= 0 && not >= 0 && !uncore_device_info(u, k, mine, &d) && !uncore_device_info(u, k, not, &other))
			uc_warn("devices: job %s holds %s but not %s of the %d devices on %s%s: the port's counters count "
				"them as one, so their DMA stays unattributed (a group is never split)", js->v[job].id,
				label_of(&d, a, sizeof(a)), label_of(&other, b, sizeof(b)), g->ndevices, where,
				g->behind_switch ? " (behind a PCIe switch)" : "");
		return -1;
	}
	return job;
}

/* The metrics of port n's bytes, written and read, wanted and their scales known: 0, or -1 with why (a platform
 * whose metrics do not count the port). */
static int port_metrics(struct attrib_dev *a, int port)
{
	if (port < 0 || port >= NPORTS)
		return uc_err("no metric counts port %d", port);
	for (int w = 0; w < 2 && !a->want[port]; w++) {
		char name[48];
		struct uncore_metric_info mi;
		int idx;
		snprintf(name, sizeof(name), "iio_bw_%s_port%d", w ? "read" : "write", port);
		if ((idx = uncore_metric_find(a->u, name)) < 0 || uncore_metric_info(a->u, idx, &mi) || !mi.unit ||
		    !strstr(mi.unit, "B/s") || !(mi.scale > 0))
			return uc_err("%s has no metric %s in bytes a second to count it with", uncore_platform_name(a->u), name);
		a->per_byte[port][w] = mi.scale;
	}
	a->want[port] = 1;
	return 0;
}

/* Every counted device group, whose it is, and the port metrics to count them */
static int plan_groups(struct attrib_dev *a)
{
	uncore_t *u = a->u;
	const struct uc_jobs *js = u->jobs;
	int n = uncore_num_device_groups(u);
	if (n < 0) { /* no map (a replayed snapshot): no device's bytes, said where a job holds some */
		for (int j = 0; js && j < js->n; j++)
			if (js->v[j].ndev) {
				uc_warn("devices: job %s holds %d device(s) and the device map is not known (%s): their DMA "
					"is not counted", js->v[j].id, js->v[j].ndev, uncore_error());
				break;
			}
		return 0;
	}
	if (!(a->g = calloc((size_t)n + 1, sizeof(*a->g))))
		return uc_err("out of memory");
	for (int k = 0; k < n; k++) {
		struct uncore_device_group g;
		struct uncore_device_counter c;
		if (uncore_device_group_info(u, k, &g) || !g.ndevices)
			continue;
		int job = owner(u, js, k, &g);
		int counted = !uncore_device_group_counter(u, k, &c);
		if (counted && port_metrics(a, c.port)) /* the map names the port, the platform has no bytes of it */
			counted = 0;
		if (!counted) {
			if (job >= 0)
				uc_warn("devices: job %s holds the devices on socket %d IIO stack %d port %d, and %s: their DMA "
					"is not counted", js->v[job].id, g.socket, g.stack, g.port, uncore_error());
			continue;
		}
		a->g[a->ng++] = (struct dgroup){ .socket = c.socket, .box = c.box, .port = c.port, .job = job };
	}
	/* a device a job holds that no group of the map has (a GPU the map did not find) */
	for (int j = 0; js && j < js->n; j++)
		for (int d = 0; d < js->v[j].ndev; d++) {
			int found = 0;
			for (int k = 0; k < n && !found; k++) {
				struct uncore_device_group g;
				struct uncore_device dv;
				for (int i = 0; !uncore_device_group_info(u, k, &g) && i < g.ndevices && !found; i++)
					found = !uncore_device_info(u, k, i, &dv) && !strcmp(dv.bdf, js->v[j].dev[d]);
			}
			if (!found)
				uc_warn("devices: job %s holds %s, which the device map has below no IIO stack: its DMA is not "
					"counted", js->v[j].id, js->v[j].dev[d]);
		}
	return 0;
}

static int dev_plan(uncore_t *u, void **ctx)
{
	struct attrib_dev *a = calloc(1, sizeof(*a));
	const struct uc_jobs *js = u->jobs;
	*ctx = a;
	if (!a)
		return uc_err("out of memory");
	a->u = u;
	a->njobs = js ? js->n : 0;
	if (!(a->job = calloc((size_t)a->njobs + 1, sizeof(*a->job))))
		return uc_err("out of memory");
	for (int j = 0; j < a->njobs; j++)
		snprintf(a->job[j], sizeof(a->job[j]), "%s", js->v[j].id);
	return plan_groups(a);
}

static int dev_start(void *ctx)
{
	struct attrib_dev *a = ctx;
	if (!a->ng)
		return 0;
	uncore_session_free(a->s); /* an earlier run's */
	if (uncore_session_new(a->u, &a->s))
		return -1;
	for (int p = 0; p < NPORTS; p++)
		for (int w = 0; a->want[p] && w < 2; w++) {
			char name[48];
			snprintf(name, sizeof(name), "iio_bw_%s_port%d", w ? "read" : "write", p);
			if ((a->m[p][w] = uncore_session_add_metric(a->s, name)) < 0)
				return uc_err_prefix("per-job attribution, the device groups' count: ");
		}
	if (uncore_session_start(a->s)) {
		uncore_session_free(a->s);
		a->s = NULL;
		return uc_err_prefix("per-job attribution, the device groups' count: ");
	}
	for (int k = 0; k < a->ng; k++)
		memset(a->g[k].bytes, 0, sizeof(a->g[k].bytes));
	a->read_ns = 0;
	a->running = 1;
	return 0;
}

static int dev_step(void *ctx)
{
	(void)ctx; /* free-running counters: nothing rotates */
	return 0;
}

/* The row of job (or "" unattributed) on socket k, made where the cores' source made none (a job whose GPU is
 * on a socket it holds no CPU of): NULL out of memory. */
static struct uncore_attrib_row *row_of(struct perjob_rows *rows, int k, const char *job, double secs)
{
	const struct uncore_attrib_row *un = NULL;
	for (int i = 0; i < rows->n; i++) {
		if (rows->v[i].socket == k && !strcmp(rows->v[i].job, job))
			return &rows->v[i];
		if (rows->v[i].socket == k && !rows->v[i].job[0])
			un = &rows->v[i];
	}
	struct uncore_attrib_row r = { .socket = k, .seconds = secs, .sampled = job[0] ? 0 : 1 };
	if (un)
		r.socket_read_bytes = un->socket_read_bytes, r.socket_write_bytes = un->socket_write_bytes;
	snprintf(r.job, sizeof(r.job), "%s", job);
	return perjob_rows_add(rows, &r, 1) ? NULL : &rows->v[rows->n - 1];
}

static int dev_read(void *ctx, int window, struct perjob_rows *rows)
{
	struct attrib_dev *a = ctx;
	if (!a->ng)
		return 0;
	if (!a->s)
		return uc_err("per-job attribution, the device groups' count: not started");
	if (a->running && uncore_session_read(a->s) < 0)
		return uc_err_prefix("per-job attribution, the device groups' count: ");
	uint64_t now = uncore_session_elapsed_ns(a->s);
	double secs = (double)(window == UNCORE_SINCE_START ? now : now - a->read_ns) / 1e9;
	for (int k = 0; k < a->ng; k++) {
		struct dgroup *g = &a->g[k];
		struct uncore_attrib_row *r;
		double v[2];
		for (int w = 0; w < 2; w++) {
			double since = 0;
			/* a byte-rate metric's count since start is in its scale (GB for GB/s) */
			if (uncore_session_metric_value(a->s, a->m[g->port][w], g->socket, g->box, UNCORE_SINCE_START_COUNT,
							&since) || since != since)
				return uc_err("per-job attribution: the device group on socket %d IIO box %d port %d was not "
					      "counted over the window", g->socket, g->box, g->port);
			since /= a->per_byte[g->port][w];
			v[w] = window == UNCORE_SINCE_START ? since : since - g->bytes[w];
			g->bytes[w] = since;
		}
		if (!(r = row_of(rows, g->socket, g->job >= 0 ? a->job[g->job] : "", secs)))
			return -1;
		r->device_write_bytes += v[0];
		r->device_read_bytes += v[1];
	}
	a->read_ns = now;
	return 0;
}

static int dev_stop(void *ctx)
{
	struct attrib_dev *a = ctx;
	if (!a->running)
		return 0;
	a->running = 0;
	return uncore_session_stop(a->s) < 0 ? -1 : 0;
}

static void dev_free(void *ctx)
{
	struct attrib_dev *a = ctx;
	if (!a)
		return;
	dev_stop(a);
	uncore_session_free(a->s);
	free(a->g);
	free(a->job);
	free(a);
}

const struct perjob_source devices_source = { "devices", dev_plan, dev_start, dev_step, dev_read, dev_stop, dev_free };

int uncore_job_device_groups(uncore_t *u, int job, int *out, int max)
{
	const struct uc_jobs *js = u->jobs;
	if (!js || job < 0 || job >= js->n)
		return uc_err("no job %d (uncore_jobs_scan found %d)", job, js ? js->n : 0);
	int n = uncore_num_device_groups(u), got = 0;
	if (n < 0)
		return js->v[job].ndev ? -1 : 0; /* no map: an error only where the job holds a device */
	for (int k = 0; k < n; k++) {
		struct uncore_device_group g;
		struct uncore_device d;
		int mine = 0; /* the job holds a device of it: only then is the group looked at (and a half said) */
		for (int i = 0; !uncore_device_group_info(u, k, &g) && i < g.ndevices && !mine; i++)
			for (int x = 0; !uncore_device_info(u, k, i, &d) && x < js->v[job].ndev && !mine; x++)
				mine = !strcmp(js->v[job].dev[x], d.bdf);
		if (mine && owner(u, js, k, &g) == job && got < max)
			out[got++] = k;
	}
	return got;
}
