/*
 * The devices behind the IIO ports against the ports' counts, window by window (health_devices.h).  The
 * devices' counters are read at the ends of a window only (sysfs reads: once in DEV_CMP_MIN_NS, not at every
 * 100 Hz read), the ports' bytes added read by read.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "health_devices.h"
#include "health.h"
#include "devices/dev_compare.h"
#include "devices/dev_bytes.h"
#include "devices/dev_map.h"
#include "devices/dev_files.h"
#include "open/open.h"
#include "session/session.h"
#include "util/error.h"

#define PORTS 8  /* an IIO box's ports: the events' PART0-7 */
#define VIEWS 64
/* A verdict stands from its second window in a row: a driver's statistics late by a second show in one
 * window, not in two (dev_compare.h) */
#define STREAK 2

/* The bytes of each port, each direction: the free-running counter (uncore_iio_freerun_bytes a count), or a
 * general one of 4 bytes a count (Intel's JSON ScaleUnit of UNC_IIO_DATA_REQ_OF_CPU).  Linux's SKX and ICX
 * free-running IIO counters count inbound bytes alone (skx_iio_freerunning: bw_in_port0-3). */
static const struct {
	const char *name[2]; /* in, out */
	double unit;         /* 0: the free-running counters' */
} port_events[] = {
	{ { "UNC_IIO_BANDWIDTH_IN.PART%d_FREERUN", "UNC_IIO_BANDWIDTH_OUT.PART%d_FREERUN" }, 0 },
	{ { "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART%d", "UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART%d" }, 4 },
};

struct cell { /* one port of one box over the window */
	int socket, stack, port, bad;
	int has[2];     /* the session counts its bytes in, out */
	double in, out;
};
struct grp { /* one device group, on its port's counters (stack: the IIO box number; -1: no port counts it) */
	int socket, stack, port, ndev;
	struct dev_bytes *at; /* each device's counters at the window's start */
	int start_ok;         /* ... all read */
	int verdict, streak, other; /* the last window's verdict and how many windows in a row it held */
};
struct health_devices {
	int planned, off;
	int ev[PORTS][2];  /* the session's events of each port's bytes in and out (-1: not counted) */
	int on[PORTS][2][16], non[PORTS][2]; /* without the bare event: the same placed on a socket and box (the
					      * default set's, a group's port on its box: uncore_session_add_device_group) */
	double unit[PORTS][2];
	struct cell *c;
	int nc;
	struct grp *g;
	int ng;
	uint64_t start;    /* the window's start (a simulator's manual clock starts at 0) */
	int begun;         /* ... taken: a window is open */
	struct dev_cmp *last; /* the last judged window */
	int nlast;
};

void health_devices_free(struct health_devices *st)
{
	if (!st)
		return;
	for (int i = 0; i < st->ng; i++)
		free(st->g[i].at);
	free(st->g);
	free(st->c);
	free(st->last);
	free(st);
}

/* The session's events that are name placed on a socket and box alone ("NAME:socket=0:box=1"), into ev (at
 * most 16): how many */
static int placed(const uncore_session_t *s, const char *name, int *ev, int *n)
{
	size_t len = strlen(name);
	*n = 0;
	for (int e = 0; e < uncore_session_num_events_impl(s) && *n < 16; e++) {
		const char *q = uncore_session_event_name_impl(s, e);
		if (strncmp(q, name, len) || q[len] != ':')
			continue;
		int only_place = 1;
		for (q += len; q && *q && only_place; q = strchr(q + 1, ':'))
			only_place = !strncmp(q, ":socket=", 8) || !strncmp(q, ":box=", 5);
		if (only_place)
			ev[(*n)++] = e;
	}
	return *n;
}

/* The ports the session counts, and the device groups of the map (none: nothing to do) */
static void plan(uncore_session_t *s, struct health_devices *st)
{
	uncore_t *u = session_owner(s);
	int any = 0;
	st->planned = 1;
	for (int p = 0; p < PORTS; p++) {
		for (int dir = 0; dir < 2; dir++) {
			st->ev[p][dir] = -1;
			for (size_t k = 0; k < sizeof(port_events) / sizeof(port_events[0]) && st->ev[p][dir] < 0; k++) {
				char name[64];
				double unit = port_events[k].unit ? port_events[k].unit : (double)uncore_iio_freerun_bytes(u);
				snprintf(name, sizeof(name), port_events[k].name[dir], p);
				if ((st->ev[p][dir] = health_event_named(s, name)) >= 0)
					st->unit[p][dir] = unit;
				else if (placed(s, name, st->on[p][dir], &st->non[p][dir]))
					st->unit[p][dir] = unit, st->ev[p][dir] = st->on[p][dir][0];
			}
		}
		for (int dir = 0; dir < 2; dir++) /* (a direction ICX's two counters of DATA_REQ_OF_CPU leave out is not judged) */
			if (st->unit[p][dir] <= 0)
				st->ev[p][dir] = -1;
		any |= st->ev[p][0] >= 0 || st->ev[p][1] >= 0;
	}
	char msg[1024];
	snprintf(msg, sizeof(msg), "%s", uncore_error());
	int n = any ? uncore_num_device_groups(u) : 0;
	if (n <= 0 || !(st->g = calloc((size_t)n, sizeof(*st->g)))) {
		uc_err("%s", msg); /* (the map's message is not the caller's) */
		st->off = 1;
		return;
	}
	for (int i = 0; i < n; i++) {
		struct uncore_device_group gi;
		struct grp *g = &st->g[st->ng++];
		struct uncore_device_counter dc;
		uncore_device_group_info(u, i, &gi);
		g->socket = gi.socket, g->stack = g->port = -1, g->ndev = gi.ndevices;
		if (!uncore_device_group_counter(u, i, &dc)) /* (else no port counter counts it: not compared) */
			g->socket = dc.socket, g->stack = dc.box, g->port = dc.port;
		g->other = -1;
		if (!(g->at = calloc((size_t)gi.ndevices + 1, sizeof(*g->at))))
			st->off = 1; /* out of memory: the devices are not judged */
	}
	uc_err("%s", msg);
}

static struct cell *cell(struct health_devices *st, int socket, int stack, int port)
{
	for (int i = 0; i < st->nc; i++)
		if (st->c[i].socket == socket && st->c[i].stack == stack && st->c[i].port == port)
			return &st->c[i];
	struct cell *c = realloc(st->c, (size_t)(st->nc + 1) * sizeof(*c));
	if (!c)
		return NULL;
	st->c = c;
	c = &st->c[st->nc++];
	*c = (struct cell){ .socket = socket, .stack = stack, .port = port };
	return c;
}

/* What the read added on each port */
static void add_ports(uncore_session_t *s, struct health_devices *st)
{
	uncore_t *u = session_owner(s);
	struct session_box_view v[VIEWS];
	for (int p = 0; p < PORTS; p++)
		for (int dir = 0; dir < 2; dir++) {
			int nev = st->non[p][dir] ? st->non[p][dir] : st->ev[p][dir] >= 0;
			for (int j = 0; j < nev; j++)
				for (int k = 0; k < u->host.nsockets; k++) {
					int ev = st->non[p][dir] ? st->on[p][dir][j] : st->ev[p][dir];
					int n = session_event_views(s, ev, k, v, VIEWS);
					for (int i = 0; i < n && i < VIEWS; i++) {
						struct cell *c = cell(st, k, v[i].box, p);
						if (!c)
							continue;
						c->has[dir] = 1;
						if (v[i].failed || v[i].flags)
							c->bad = 1; /* the port's own condition; nothing to judge the devices by */
						else
							*(dir ? &c->out : &c->in) += (double)v[i].delta * st->unit[p][dir];
					}
				}
		}
}

/* Each group's devices' counters now: into now[g][i] (kinds 0 where there are none); -1 when they cannot be read */
static int read_devices(uncore_t *u, struct health_devices *st, struct dev_bytes **now)
{
	struct dev_fs fs;
	char dir[1024], msg[1024];
	snprintf(msg, sizeof(msg), "%s", uncore_error());
	if (dev_fs_of(u, &fs)) {
		uc_err("%s", msg);
		return -1;
	}
	for (int g = 0; g < st->ng; g++)
		for (int i = 0; i < st->g[g].ndev; i++)
			if (dev_map_dir(u, g, i, dir, sizeof(dir)) || dev_bytes_read(&fs, dir, &now[g][i]))
				memset(&now[g][i], 0, sizeof(now[g][i]));
	return 0;
}

/* A port's bytes in a direction over the window (NAN where the session does not count it) */
static double cell_bytes(const struct cell *c, int out) { return !c->has[out] ? NAN : out ? c->out : c->in; }

/* The window that ends now judged: each group against its port, each port the session counts in the rows */
static void judge(struct health_devices *st, struct dev_bytes **now, uint64_t ns)
{
	int n = st->nc + st->ng;
	struct dev_cmp *c = calloc((size_t)n + 1, sizeof(*c));
	if (!c)
		return;
	int k = 0;
	for (int g = 0; g < st->ng; g++) {
		struct grp *gr = &st->g[g];
		struct dev_cmp *r = &c[k++];
		r->socket = gr->socket, r->stack = gr->stack, r->port = gr->port, r->group = g, r->ns = ns, r->devices = gr->ndev;
		r->counters = gr->ndev > 0, r->usable = gr->start_ok;
		for (int i = 0; i < gr->ndev; i++) {
			struct dev_bytes d;
			if (!now[g][i].kinds)
				r->counters = 0;
			else if (dev_bytes_delta(&gr->at[i], &now[g][i], &d) || d.saturated)
				r->usable = 0;
			else
				r->dev_in += (double)d.in, r->dev_out += (double)d.out, r->pkts_in += (double)d.in_pkts,
					r->pkts_out += (double)d.out_pkts;
		}
		for (int i = 0; i < st->nc; i++)
			if (st->c[i].socket == gr->socket && st->c[i].stack == gr->stack && st->c[i].port == gr->port &&
			    gr->port >= 0 && !st->c[i].bad)
				r->has_iio = 1, r->iio_in = cell_bytes(&st->c[i], 0), r->iio_out = cell_bytes(&st->c[i], 1);
	}
	for (int i = 0; i < st->nc; i++) { /* the ports the map puts no group on */
		int mapped = 0;
		for (int g = 0; g < st->ng; g++)
			mapped |= st->g[g].socket == st->c[i].socket && st->g[g].stack == st->c[i].stack &&
				  st->g[g].port == st->c[i].port;
		if (mapped || st->c[i].bad)
			continue;
		c[k++] = (struct dev_cmp){ .socket = st->c[i].socket, .stack = st->c[i].stack, .port = st->c[i].port,
					   .group = -1, .has_iio = 1, .iio_in = cell_bytes(&st->c[i], 0),
					   .iio_out = cell_bytes(&st->c[i], 1), .ns = ns };
	}
	dev_compare(c, k);
	for (int g = 0; g < st->ng; g++) {
		struct grp *gr = &st->g[g];
		gr->streak = c[g].verdict == gr->verdict ? gr->streak + 1 : 1;
		gr->verdict = c[g].verdict, gr->other = c[g].other;
	}
	free(st->last);
	st->last = c, st->nlast = k;
}

/* The health condition of a verdict (-1: none) */
static int kind_of(int verdict)
{
	return verdict == DEV_CMP_UNCOUNTED ? UNCORE_HEALTH_UNCOUNTED :
	       verdict == DEV_CMP_STOPPED   ? UNCORE_HEALTH_DEVSTOPPED :
	       verdict == DEV_CMP_ELSEWHERE ? UNCORE_HEALTH_DEVMAP : -1;
}

static void describe(const struct health_devices *st, int g, char *buf, size_t len)
{
	const struct dev_cmp *r = &st->last[g];
	int n = snprintf(buf, len, "iio %d port %d (socket %d): its devices moved %.4g GB in, %.4g GB out over %.0f s; "
			 "the port counted %.4g GB in, %.4g GB out", r->stack, r->port, r->socket, r->dev_in / 1e9,
			 r->dev_out / 1e9, (double)r->ns / 1e9, r->iio_in / 1e9, r->iio_out / 1e9);
	if (r->other >= 0 && n > 0 && (size_t)n < len) {
		const struct dev_cmp *o = &st->last[r->other];
		snprintf(buf + n, len - (size_t)n, "; iio %d port %d counted %.4g GB in, %.4g GB out%s", o->stack, o->port,
			 o->iio_in / 1e9, o->iio_out / 1e9, o->group < 0 ? ", and the map puts no device there" : "");
	}
}

/* A window's edge at now: the devices' counters read, the window that ends judged (when one began), the next
 * one begun with the ports' bytes at 0.  Where the devices cannot be read, the window goes on. */
static void window_edge(uncore_t *u, struct health_devices *st, uint64_t now)
{
	struct dev_bytes **cur = calloc((size_t)st->ng, sizeof(*cur));
	int ok = cur != NULL;
	for (int g = 0; ok && g < st->ng; g++)
		ok = (cur[g] = calloc((size_t)st->g[g].ndev + 1, sizeof(**cur))) != NULL;
	if (ok && !read_devices(u, st, cur)) {
		if (st->begun)
			judge(st, cur, now - st->start);
		for (int g = 0; g < st->ng; g++) { /* the next window starts now */
			memcpy(st->g[g].at, cur[g], (size_t)st->g[g].ndev * sizeof(**cur));
			st->g[g].start_ok = 1;
		}
		for (int i = 0; i < st->nc; i++)
			st->c[i].in = st->c[i].out = 0, st->c[i].bad = 0;
		st->start = now, st->begun = 1;
	}
	for (int g = 0; cur && g < st->ng; g++)
		free(cur[g]);
	free(cur);
}

static struct health_devices *planned(uncore_session_t *s, struct health_devices **stp)
{
	if (!*stp && !(*stp = calloc(1, sizeof(**stp))))
		return NULL;
	if (!(*stp)->planned)
		plan(s, *stp);
	return *stp;
}

void health_devices_start(uncore_session_t *s, struct health_devices **stp, uint64_t now)
{
	struct health_devices *st = planned(s, stp);
	if (!st || st->off)
		return;
	/* the first window from the session's baselines: its first read's bytes, counted since then, are the
	 * window's (a restart's window begins again: the ports counted nothing while it was stopped) */
	st->begun = 0;
	window_edge(session_owner(s), st, now);
}

int health_devices_read(uncore_session_t *s, struct health_devices **stp, uint64_t now, struct health_device_cond *out,
			int max)
{
	struct health_devices *st = planned(s, stp); /* (planned when the session started, as a rule) */
	if (!st || st->off)
		return 0;
	if (st->begun)
		add_ports(s, st);
	if (!st->begun || now - st->start >= DEV_CMP_MIN_NS)
		window_edge(session_owner(s), st, now);
	int n = 0;
	for (int g = 0; g < st->ng && st->last; g++) {
		int kind = kind_of(st->g[g].verdict);
		if (kind < 0 || st->g[g].streak < STREAK)
			continue;
		if (n < max) {
			struct health_device_cond *c = &out[n];
			c->kind = kind, c->socket = st->g[g].socket, c->stack = st->g[g].stack, c->port = st->g[g].port;
			c->ev = c->port >= 0 && c->port < PORTS ? st->ev[c->port][0] : -1;
			describe(st, g, c->what, sizeof(c->what));
		}
		n++;
	}
	return n < max ? n : max;
}

int health_devices_rows(const struct health_devices *st, struct uncore_device_check *out, int max)
{
	int n = st ? st->nlast : 0;
	for (int i = 0; i < n && i < max; i++) {
		const struct dev_cmp *r = &st->last[i];
		out[i] = (struct uncore_device_check){
			.group = r->group, .socket = r->socket, .stack = r->stack, .port = r->port,
			.seconds = (double)r->ns / 1e9,
			.iio_in = r->has_iio ? r->iio_in : NAN, .iio_out = r->has_iio ? r->iio_out : NAN,
			.dev_in = r->group >= 0 && r->counters ? r->dev_in : NAN,
			.dev_out = r->group >= 0 && r->counters ? r->dev_out : NAN,
			.verdict = dev_verdict_names[r->verdict], .other = r->other,
		};
	}
	return n;
}

int uncore_session_add_device_ports_impl(uncore_session_t *s)
{
	uncore_t *u = session_owner(s);
	int ports = 0;
	for (int p = 0; p < PORTS; p++) {
		int either = 0;
		for (int dir = 0; dir < 2; dir++) {
			int added = 0;
			for (size_t k = 0; k < sizeof(port_events) / sizeof(port_events[0]) && !added; k++) {
				char name[64];
				snprintf(name, sizeof(name), port_events[k].name[dir], p);
				added = health_event_named(s, name) >= 0 ||
					(uncore_event_find_impl(u, name) >= 0 && uncore_session_add_impl(s, name) >= 0);
			}
			either |= added;
		}
		ports += either;
	}
	return ports;
}
