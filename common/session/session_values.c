/* Sessions: the values, windows and boxes a session reports. */
#include <math.h>
#include <time.h>
#include "session_priv.h"

int uncore_session_num_events_impl(const uncore_session_t *s) { return s->nevs; }

const char *uncore_session_event_name_impl(const uncore_session_t *s, int ev)
{
	return ev >= 0 && ev < s->nevs ? s->evs[ev].name : NULL;
}

double uncore_session_event_scale_impl(const uncore_session_t *s, int ev, const char **unit)
{
	int ok = ev >= 0 && ev < s->nevs;
	if (unit)
		*unit = ok ? s->evs[ev].unit : "";
	return ok ? s->evs[ev].scale : 1;
}

/* Slot ev_slots[k] (of an event's socket range) when its box is box (-1: any), else NULL. */
static const struct slot *ev_slot(const uncore_session_t *s, int k, int box)
{
	const struct slot *sl = &s->slots[s->ev_slots[k]];
	return box >= 0 && box_of(s, sl->box)->idx != box ? NULL : sl;
}

/* The ev_slots range of event ev on socket and, with both socket and box >= 0, of that box alone: an event has
 * one slot a box (sess_schedule_all), in box order, so box k is looked for at the range's k-th slot first (where
 * every box counts it) and a value of one box takes no walk over its unit's other boxes. */
static void ev_box_range(const uncore_session_t *s, int ev, int socket, int box, int *lo, int *hi)
{
	ev_range(s, ev, socket, lo, hi);
	if (box < 0 || socket < 0) /* (box k of every socket: one slot a socket) */
		return;
	int k = *lo + box < *hi && ev_slot(s, *lo + box, box) ? *lo + box : *lo;
	while (k < *hi && !ev_slot(s, k, box))
		k++;
	*lo = k;
	*hi = k < *hi ? k + 1 : k;
}

/* The first of event ev's slots on socket/box (-1: any) whose box failed, or NULL. */
static const struct slot *failed_slot(const uncore_session_t *s, int ev, int socket, int box)
{
	int lo, hi;
	ev_box_range(s, ev, socket, box, &lo, &hi);
	for (int k = lo; k < hi; k++) {
		const struct slot *sl = ev_slot(s, k, box);
		if (sl && prog_of(s, sl)->failed)
			return sl;
	}
	return NULL;
}

/* perf backend: the slot's group was enabled over the window but never on the counters (perf stat's
 * "<not counted>"): it has no count, not a count of 0. */
static int not_counted(const uncore_session_t *s, const struct slot *sl, int window)
{
	if (!s->u->perf)
		return 0;
	if (window == UNCORE_LAST_INTERVAL)
		return sl->ien && !sl->irun;
	return sl->en != sl->en0 && sl->run == sl->run0;
}

/* A sum over a failed box has no value: the box's count stopped when it failed, so the sum would be
 * a count too small, not one of fewer boxes. */
int session_window_value(const uncore_session_t *s, int ev, int socket, int box, int window, uint64_t *out)
{
	uint64_t sum = 0;
	int found = 0, lo, hi;
	const struct slot *bad = NULL, *uncounted = NULL;
	if (ev < 0 || ev >= s->nevs)
		return uc_err("no event %d in this session", ev);
	ev_box_range(s, ev, socket, box, &lo, &hi);
	for (int k = lo; k < hi && !bad; k++) { /* one walk: a read sums every event of every box */
		const struct slot *sl = ev_slot(s, k, box);
		if (!sl)
			continue;
		if (prog_of(s, sl)->failed)
			bad = sl;
		else if (!uncounted && not_counted(s, sl, window))
			uncounted = sl;
		sum += window == UNCORE_LAST_INTERVAL ? sl->acc - sl->prev : sl->acc;
		found = 1;
	}
	if (bad) {
		uc_err("%s has no value since a box failed: %s", s->evs[ev].name, prog_of(s, bad)->failed);
		return UNCORE_BOX_FAILED;
	}
	if (uncounted) {
		const struct box *b = box_of(s, uncounted->box);
		uc_err("%s was not counted on %s %d (socket %d)%s: multiplexed, its group was not on the counters",
		       s->evs[ev].name, b->t->name, b->idx, b->socket,
		       window == UNCORE_LAST_INTERVAL ? " in the last interval" : "");
		return UNCORE_NOT_COUNTED;
	}
	if (!found)
		return uc_err("%s is not measured on socket %d box %d", s->evs[ev].name, socket, box);
	*out = sum;
	return 0;
}

int uncore_session_failed_box_impl(const uncore_session_t *s, int ev, int socket, int box, char *buf, size_t len)
{
	if (len)
		*buf = 0;
	if (ev < 0 || ev >= s->nevs)
		return uc_err("no event %d in this session", ev);
	const struct slot *bad = failed_slot(s, ev, socket, box);
	if (!bad)
		return 0;
	const struct box *b = box_of(s, bad->box);
	snprintf(buf, len, "%s %d (socket %d)", b->t->name, b->idx, b->socket);
	return 1;
}

/* Time the event's boxes on a socket/box counted over a window, summed (ns) with their number in *n. */
uint64_t session_event_window_ns(const uncore_session_t *s, int ev, int socket, int box, int window, int *n)
{
	uint64_t sum = 0;
	int lo, hi;
	if (ev < 0 || ev >= s->nevs)
		return 0;
	ev_box_range(s, ev, socket, box, &lo, &hi);
	for (int k = lo; k < hi; k++) {
		const struct slot *sl = ev_slot(s, k, box);
		if (!sl)
			continue;
		const struct prog *p = prog_of(s, sl);
		sum += window == UNCORE_LAST_INTERVAL ? p->t_last - p->t_prev : p->t_last - p->t_start;
		(*n)++;
	}
	return sum;
}

uint64_t uncore_session_read_time_ns_impl(const uncore_session_t *s, int ev, int socket, int box)
{
	uint64_t base = 0;
	int64_t off = 0;
	int n = 0;
	int lo, hi;
	if (ev < 0 || ev >= s->nevs)
		return 0;
	ev_box_range(s, ev, socket, box, &lo, &hi);
	for (int k = lo; k < hi; k++) {
		const struct slot *sl = ev_slot(s, k, box);
		if (!sl)
			continue;
		if (!n++)
			base = prog_of(s, sl)->t_last;
		off += (int64_t)(prog_of(s, sl)->t_last - base); /* boxes are read close together */
	}
	return n ? base + (uint64_t)(off / n) : 0;
}

uint64_t uncore_now_ns(const uncore_t *u) { return u->acc->ops->now_ns(u->acc); }

/* A preemption between the two clocks' readings would move every stamp made from the pair: it is taken
 * between two readings of the library's clock, up to REALTIME_TRIES times, keeping the narrowest (20 us is
 * narrow enough: a stamp's error over a 1 s interval then stays under 0.002 %). */
#define REALTIME_SLACK_NS 20000
#define REALTIME_TRIES 4
void uncore_clock_pair(const uncore_t *u, uint64_t *lib_ns, uint64_t *real_ns)
{
	uint64_t best = UINT64_MAX;
	*lib_ns = *real_ns = 0;
	for (int tries = 0; tries < REALTIME_TRIES && best > REALTIME_SLACK_NS; tries++) {
		uint64_t t0 = uncore_now_ns(u);
		uint64_t real = access_real_ns(u->acc);
		uint64_t t1 = uncore_now_ns(u);
		if (t1 - t0 < best) {
			best = t1 - t0;
			*real_ns = real;
			*lib_ns = t0 + (t1 - t0) / 2;
		}
	}
}

uint64_t uncore_wall_stamp(struct uncore_wall *w, uint64_t lib_ns, uint64_t real_ns)
{
	int64_t off = (int64_t)(real_ns - lib_ns);
	/* (a library's clock that went back is another machine's: a simulator's opened again; nothing slews) */
	uint64_t passed = w->set && lib_ns > w->lib ? lib_ns - w->lib : 0;
	if (!w->set || off >= w->off)
		w->off = off;
	else if (w->off - off > (int64_t)(passed * UNCORE_WALL_SLEW))
		w->off -= (int64_t)(passed * UNCORE_WALL_SLEW);
	else
		w->off = off;
	w->lib = lib_ns;
	w->set = 1;
	return lib_ns + (uint64_t)w->off;
}

int uncore_session_value_impl(const uncore_session_t *s, int ev, int socket, int box, uint64_t *out)
{
	return session_window_value(s, ev, socket, box, UNCORE_SINCE_START, out);
}

int uncore_session_interval_value_impl(const uncore_session_t *s, int ev, int socket, int box, uint64_t *out)
{
	return session_window_value(s, ev, socket, box, UNCORE_LAST_INTERVAL, out);
}

uint64_t session_window_ns(const uncore_session_t *s, int window)
{
	return window == UNCORE_LAST_INTERVAL ? s->t1 - s->tprev : s->t1 - s->t0;
}

int session_find_event(const uncore_session_t *s, const char *spec)
{
	for (int i = 0; i < s->nevs; i++)
		if (!strcmp(s->evs[i].name, spec))
			return i;
	return -1;
}

int session_truncate(uncore_session_t *s, int nevs)
{
	if (nevs >= s->nevs)
		return 0;
	if (sess_schedule_all(s, s->evs, nevs))
		return -1;
	s->nevs = nevs;
	return 0;
}

struct session_metric **session_metrics(uncore_session_t *s, int **n)
{
	*n = &s->nmetrics;
	return &s->metrics;
}

const struct session_metric *session_metric_get(const uncore_session_t *s, int m)
{
	return m >= 0 && m < s->nmetrics ? &s->metrics[m] : NULL;
}

uncore_t *session_owner(const uncore_session_t *s) { return s->u; }

struct health **session_health(uncore_session_t *s) { return &s->health; }

/* The view of ev_slots[i]. */
static inline void view_at(const uncore_session_t *s, int i, struct session_box_view *out)
{
	const struct slot *sl = &s->slots[s->ev_slots[i]];
	const struct prog *p = prog_of(s, sl);
	const struct box *b = box_of(s, sl->box);
	*out = (struct session_box_view){ b->t->name, b->idx, sl->acc - sl->prev, p->t_last - p->t_prev,
					  p->hflags, p->taken, p->failed != NULL, sl->ctr == UC_CTR_FREERUN, p->moved, b->die };
}

int session_event_box(const uncore_session_t *s, int ev, int socket, int k, struct session_box_view *out)
{
	int lo, hi;
	if (ev < 0 || ev >= s->nevs)
		return -1;
	ev_range(s, ev, socket, &lo, &hi);
	if (k < 0 || lo + k >= hi)
		return -1;
	view_at(s, lo + k, out);
	return 0;
}

int session_event_views(const uncore_session_t *s, int ev, int socket, struct session_box_view *out, int max)
{
	int lo, hi, n = 0;
	if (ev < 0 || ev >= s->nevs)
		return 0;
	ev_range(s, ev, socket, &lo, &hi);
	for (int i = lo; i < hi && n < max; i++)
		view_at(s, i, &out[n++]);
	return n;
}

int session_event_rate_span(const uncore_session_t *s, int ev, int socket, double *lo, double *hi, uint64_t *max_ns)
{
	int a, b, n = 0;
	uint64_t dmin = UINT64_MAX, dmax = 0, nmin = UINT64_MAX, nmax = 0;
	if (ev < 0 || ev >= s->nevs)
		a = b = 0;
	else
		ev_range(s, ev, socket, &a, &b);
	/* the slots, not their views, and in integers (health asks it of every clock at every read): the
	 * extreme counts over the extreme windows bound every box's rate, and a read's boxes share their
	 * window to within microseconds */
	for (int i = a; i < b; i++) {
		const struct slot *sl = &s->slots[s->ev_slots[i]];
		const struct prog *p = prog_of(s, sl);
		uint64_t ns = p->t_last - p->t_prev, delta = sl->acc - sl->prev;
		if (p->failed || p->hflags || !ns)
			continue;
		dmax = delta > dmax ? delta : dmax;
		dmin = delta && delta < dmin ? delta : dmin;
		nmax = ns > nmax ? ns : nmax;
		nmin = ns < nmin ? ns : nmin;
		n++;
	}
	*hi = n ? (double)dmax * 1e9 / (double)nmin : 0;
	*lo = dmin < UINT64_MAX ? (double)dmin * 1e9 / (double)nmax : INFINITY;
	*max_ns = nmax;
	return n;
}

int session_read_quiet(const uncore_session_t *s) { return s->read_quiet; }

int uncore_session_event_sockets_impl(const uncore_session_t *s, int ev, int *sockets, int max)
{
	int n = 0, lo, hi;
	if (ev < 0 || ev >= s->nevs)
		return 0;
	for (int sock = 0; sock < s->u->host.nsockets; sock++) {
		ev_range(s, ev, sock, &lo, &hi);
		if (lo < hi) {
			if (n < max)
				sockets[n] = sock;
			n++;
		}
	}
	return n;
}

int uncore_session_event_boxes_impl(const uncore_session_t *s, int ev, int socket)
{
	int lo, hi;
	if (ev < 0 || ev >= s->nevs || socket < 0)
		return 0;
	ev_range(s, ev, socket, &lo, &hi);
	return hi - lo;
}

int uncore_session_box_die_impl(const uncore_session_t *s, int ev, int socket, int box)
{
	int lo, hi;
	if (ev < 0 || ev >= s->nevs || socket < 0)
		return -1;
	ev_box_range(s, ev, socket, box, &lo, &hi);
	for (int k = lo; k < hi; k++) {
		const struct slot *sl = ev_slot(s, k, box);
		if (sl && box >= 0) /* as uncore_box_die */
			return s->u->host.socket_dies[socket] > 1 ? box_of(s, sl->box)->die : -1;
	}
	return -1;
}

uint64_t uncore_session_elapsed_ns_impl(const uncore_session_t *s) { return s->t1 - s->t0; }

int uncore_session_times_impl(const uncore_session_t *s, int ev, int socket, int box, uint64_t *enabled,
			      uint64_t *running)
{
	uint64_t en = 0, run = 0;
	int found = 0, lo, hi;
	if (ev < 0 || ev >= s->nevs)
		return uc_err("no event %d in this session", ev);
	ev_box_range(s, ev, socket, box, &lo, &hi);
	for (int k = lo; k < hi; k++) {
		const struct slot *sl = ev_slot(s, k, box);
		if (!sl)
			continue;
		found = 1;
		if (s->u->perf) {
			en += sl->en - sl->en0;
			run += sl->run - sl->run0;
		} else {
			en += prog_of(s, sl)->t_last - prog_of(s, sl)->t_start;
		}
	}
	if (!found)
		return uc_err("%s is not measured on socket %d box %d", s->evs[ev].name, socket, box);
	if (!s->u->perf) /* the registers count all the time they are programmed */
		run = en;
	*enabled = en;
	*running = run;
	return run < en;
}

void uncore_set_scaling_impl(uncore_t *u, int on) { u->scale = on != 0; }
