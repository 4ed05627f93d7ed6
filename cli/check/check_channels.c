/*
 * The channel rows of `uncore check`: under a socket's own traffic, which the memory interleaves over its
 * channels, every channel counts its share, none counts much more (a phantom channel, or a counter that went
 * backwards and was taken as a wrap), and where a channel has two schedulers (Granite Rapids, Sierra Forest,
 * Clearwater Forest: SCH0 and SCH1) each counts some of its CAS commands: the tools that read half of
 * Granite Rapids' DRAM bandwidth counted SCH0 alone.  By the node's population (issue 91, uncore_memory_channel):
 * a channel EDAC lists DIMMs on must count, one it lists none on (or a box that is no channel) must not, and the
 * empty ones are left out of the share; where the population is unknown, a channel that counts nothing is said to
 * be possibly empty (a warning), not failed.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

#define LOW_SHARE 0.1   /* a channel counting less than this of the mean does not count */
#define BALANCE 0.5     /* interleaved traffic: each channel within the mean +- half of it */
#define SCHED_SHARE 0.1 /* a scheduler serving less than this of its channel's CAS is not counted */
/* a controller's free-running reads and writes agree with its channels' CAS counts this closely, plus what
 * the counters can count apart while one session read takes them one after the other (check_counters.c's
 * READ_SKEW_S) over the generators' time */
#define FR_AGREE 0.01
#define FR_SKEW_S 2e-3

/* The unit whose boxes the memory metrics are per box of (-1: per socket only). */
static int channel_unit(struct check *c)
{
	struct uncore_metric_info mi;
	struct uncore_unit_info ui;
	int m = uncore_metric_find(c->u, "mem_read_bytes");
	if (m < 0 || uncore_metric_info(c->u, m, &mi) || mi.box_unit < 0 || uncore_unit_info(c->u, mi.box_unit, &ui))
		return -1;
	return strcmp(ui.name, "imc") ? -1 : mi.box_unit; /* Montecito: per core PMU, which sees the whole bus */
}

/* The session's events of scheduler 0 and 1 (their names end in SCH0.x / SCH1.x): how many. */
static int sched_of(const char *name)
{
	const char *p = strstr(name, "_SCH");
	return p && (p[4] == '0' || p[4] == '1') && p[5] == '.' ? p[4] - '0' : -1;
}

int check_channels_add(struct check *c, int sock)
{
	int unit = channel_unit(c), n = unit >= 0 ? uncore_unit_boxes(c->u, unit, sock) : 0;
	c->nchan[sock] = n < CHECK_MAX_CHANNELS ? n : CHECK_MAX_CHANNELS;
	for (int k = 0; k < c->nchan[sock]; k++) {
		struct uncore_channel ch;
		double rd = NAN, wr = NAN;
		c->pop[sock][k] = uncore_memory_channel(c->u, sock, uncore_box_number(c->u, unit, sock, k), &ch) ?
				  UNCORE_CHAN_UNKNOWN : ch.state;
		uncore_session_metric_value(c->s, 0, sock, k, UNCORE_LAST_INTERVAL, &rd);
		uncore_session_metric_value(c->s, 1, sock, k, UNCORE_LAST_INTERVAL, &wr);
		c->chan[sock][k] += rd + wr; /* a box without a value stays without one */
	}
	/* a controller's free-running lines, 64 bytes each, counted on the channel box that holds them (ICX: every
	 * third): channel k belongs to the last such box at or before it */
	c->nctrl[sock] = 0;
	for (int k = 0; k < c->nchan[sock]; k++) {
		int b = uncore_box_number(c->u, unit, sock, k), ctrl = -1;
		for (int i = 0; i < 2; i++) {
			uint64_t v = 0;
			if (c->fr_cas[i] < 0 || uncore_session_interval_value(c->s, c->fr_cas[i], sock, b, &v))
				continue; /* not a box with the controller's counters */
			ctrl = c->nctrl[sock];
			c->fr_ctrl[sock][ctrl] += 64.0 * (double)v;
		}
		if (ctrl >= 0)
			c->nctrl[sock]++;
		c->ctrl_of[sock][k] = ctrl >= 0 ? ctrl : k ? c->ctrl_of[sock][k - 1] : -1;
	}
	c->nsched = 0;
	for (int ev = 0; ev < uncore_session_num_events(c->s); ev++) {
		int sch = sched_of(uncore_session_event_name(c->s, ev));
		if (sch < 0)
			continue;
		c->nsched++;
		for (int k = 0; k < c->nchan[sock]; k++) {
			uint64_t v = 0;
			if (!uncore_session_interval_value(c->s, ev, sock, k, &v))
				c->sched[sock][k][sch] += (double)v;
		}
	}
	return 0;
}

static void chan_name(struct check *c, int sock, int k, char *buf, size_t len)
{
	struct uncore_unit_info ui;
	int unit = channel_unit(c);
	snprintf(buf, len, "%s %d", unit >= 0 && !uncore_unit_info(c->u, unit, &ui) ? ui.name : "channel",
		 uncore_box_number(c->u, unit, sock, k));
}

/* A channel left out of the share: EDAC lists no DIMM on it, or it is no channel. */
static int not_a_channel(int pop) { return pop == UNCORE_CHAN_EMPTY || pop == UNCORE_CHAN_NONE; }

/* The empty channels and boxes that are no channel count nothing: a row, where the population names any. */
static int empty_rows(struct check *c, int sock, double mean)
{
	char check[96], exp[96], got[96], name[48];
	int n = 0, worst = -1;
	for (int k = 0; k < c->nchan[sock]; k++)
		if (not_a_channel(c->pop[sock][k])) {
			n++;
			if (!isnan(c->chan[sock][k]) && (worst < 0 || c->chan[sock][k] > c->chan[sock][worst]))
				worst = k;
		}
	snprintf(check, sizeof(check), "socket %d: empty channels count nothing", sock);
	snprintf(exp, sizeof(exp), "each < %.0f%% of mean", 100 * LOW_SHARE);
	if (!n)
		return verdict_add(c->t, V_SKIP, check, exp, "-", "no empty channel: %s", uncore_memory_source(c->u) ?
				   uncore_memory_source(c->u) : uncore_error());
	if (worst >= 0 && c->chan[sock][worst] >= LOW_SHARE * mean) {
		chan_name(c, sock, worst, name, sizeof(name));
		snprintf(got, sizeof(got), "%s: %.1f MiB", name, c->chan[sock][worst] / 1048576);
		return verdict_add(c->t, V_FAIL, check, exp, got, "%s counted %.0f%% of the mean, yet %s: a phantom channel "
				   "(a counter counting another channel's events, or the wrong box read)", name,
				   100 * c->chan[sock][worst] / mean, c->pop[sock][worst] == UNCORE_CHAN_NONE ?
				   "it is no channel" : "EDAC lists no DIMM on it");
	}
	snprintf(got, sizeof(got), "%d empty, most %.1f MiB", n, worst >= 0 ? c->chan[sock][worst] / 1048576 : 0.0);
	return verdict_add(c->t, V_PASS, check, exp, got, "%s", "");
}

/* Every channel counts, and none more than its share: two rows, and the empty channels' (empty_rows). */
static int socket_rows(struct check *c, int sock)
{
	char check[96], exp[96], got[96], name[48];
	int n = c->nchan[sock], low = -1, dark = -1, ndark = 0, off = -1, nan_at = -1, compared = 0;
	int maybe[CHECK_MAX_CHANNELS] = { 0 }; /* of unknown population and counting nothing: possibly empty */
	double sum = 0, lo = INFINITY, hi = 0, ceiling = CHECK_CHANNEL_BPS * c->gen_s[sock];
	for (int k = 0; k < n; k++) {
		double v = c->chan[sock][k];
		if (not_a_channel(c->pop[sock][k]))
			continue;
		if (isnan(v)) {
			nan_at = nan_at < 0 ? k : nan_at;
			continue;
		}
		sum += v;
		compared++;
	}
	/* a channel of unknown population far below the mean may hold no DIMM: the mean is the others' */
	for (int k = 0; k < n && compared; k++)
		if (c->pop[sock][k] == UNCORE_CHAN_UNKNOWN && c->chan[sock][k] < LOW_SHARE * sum / compared) {
			maybe[k] = 1;
			ndark++;
			dark = dark < 0 ? k : dark;
		}
	double rest = 0;
	for (int k = 0; k < n; k++)
		if (!not_a_channel(c->pop[sock][k]) && !maybe[k] && !isnan(c->chan[sock][k]))
			rest += c->chan[sock][k];
	int nrest = compared - ndark;
	double mean = nrest > 0 ? rest / nrest : 0;
	for (int k = 0; k < n; k++) {
		double v = c->chan[sock][k], r = v / mean;
		if (isnan(v) || not_a_channel(c->pop[sock][k]) || maybe[k])
			continue;
		lo = r < lo ? r : lo;
		hi = r > hi ? r : hi;
		if (r < LOW_SHARE && low < 0)
			low = k;
		if ((r < 1 - BALANCE || r > 1 + BALANCE || v > ceiling) && (off < 0 || fabs(r - 1) > fabs(c->chan[sock][off] / mean - 1)))
			off = k;
	}
	snprintf(check, sizeof(check), "socket %d: every channel counts", sock);
	snprintf(exp, sizeof(exp), "%d, each >= %.0f%% of mean", nrest + ndark + (nan_at >= 0), 100 * LOW_SHARE);
	if (!compared && nan_at < 0) { /* the population names no channel with DIMMs: none to compare */
		verdict_add(c->t, V_SKIP, check, "-", "-", "EDAC lists no DDR DIMM on socket %d%s", sock, c->hbm_only[sock] ?
			    " (HBM only: the bytes rows count its HBM)" : "");
		/* a phantom is then a box counting a tenth of what an even share of the bytes moved would be */
		if (empty_rows(c, sock, n > 0 ? c->gen_b[sock] / n : 0))
			return -1;
		snprintf(check, sizeof(check), "socket %d: channels balanced", sock);
		return verdict_add(c->t, V_SKIP, check, "-", "-", "no channel with DIMMs (above)");
	}
	if (nan_at < 0 && !(mean > 0)) { /* no share to compare with */
		verdict_add(c->t, V_FAIL, check, exp, "none counted", "no channel counted the socket's traffic: the "
			    "channels are another socket's, or none is counted");
		snprintf(check, sizeof(check), "socket %d: channels balanced", sock);
		return verdict_add(c->t, V_SKIP, check, "-", "-", "no channel counted (above)");
	}
	if (nan_at >= 0) {
		chan_name(c, sock, nan_at, name, sizeof(name));
		verdict_add(c->t, V_FAIL, check, exp, "none", "%s has no count: it could not be read", name);
	} else if (low >= 0) {
		chan_name(c, sock, low, name, sizeof(name));
		snprintf(got, sizeof(got), "%s: %.1f MiB", name, c->chan[sock][low] / 1048576);
		verdict_add(c->t, V_FAIL, check, exp, got, "%s counted %.0f%% of the mean of %.1f MiB%s: a dead or stuck "
			    "counter, or a channel not programmed", name, 100 * c->chan[sock][low] / mean, mean / 1048576,
			    c->pop[sock][low] == UNCORE_CHAN_POPULATED ? ", yet EDAC lists DIMMs on it" : "");
	} else if (dark >= 0) {
		chan_name(c, sock, dark, name, sizeof(name));
		snprintf(got, sizeof(got), "%d; %d counted nothing", nrest, ndark);
		const char *src = uncore_memory_source(c->u) ? uncore_memory_source(c->u) : "-";
		verdict_add(c->t, V_WARN, check, exp, got, "%s%s counted %.0f%% of the mean: possibly empty (which channels "
			    "hold DIMMs is unknown here: %.*s)", name, ndark > 1 ? " and others" : "",
			    100 * c->chan[sock][dark] / mean, (int)(strcspn(src, ";") < 90 ? strcspn(src, ";") : 90), src);
	} else {
		snprintf(got, sizeof(got), "%d, least %.0f%% of mean", nrest, 100 * lo);
		verdict_add(c->t, V_PASS, check, exp, got, "%s", "");
	}
	if (empty_rows(c, sock, mean))
		return -1;
	snprintf(check, sizeof(check), "socket %d: channels balanced", sock);
	snprintf(exp, sizeof(exp), "%.0f%% .. %.0f%% of mean", 100 * (1 - BALANCE), 100 * (1 + BALANCE));
	if (nan_at >= 0 || off < 0) {
		snprintf(got, sizeof(got), nan_at >= 0 ? "-" : "%.0f%% .. %.0f%%", 100 * lo, 100 * hi);
		return verdict_add(c->t, nan_at >= 0 ? V_SKIP : V_PASS, check, exp, got, "%s",
				   nan_at >= 0 ? "a channel has no count (above)" : "");
	}
	chan_name(c, sock, off, name, sizeof(name));
	snprintf(got, sizeof(got), "%s: %.0f%%", name, 100 * c->chan[sock][off] / mean);
	if (c->chan[sock][off] > ceiling)
		return verdict_add(c->t, V_FAIL, check, exp, got, "%s counted %.3g bytes in %.3f s, more than a channel can move: "
				   "a counter that went backwards or wrapped before its documented width, or a phantom channel",
				   name, c->chan[sock][off], c->gen_s[sock]);
	return verdict_add(c->t, V_FAIL, check, exp, got, "%s", c->chan[sock][off] > mean ?
			   "counts more than its share: a phantom channel or a counter gone wrong" :
			   "counts less than its share: a counter that misses events, or uneven DIMMs");
}

/* Both schedulers of every channel count, where a channel has two. */
static int sched_row(struct check *c, int sock)
{
	char check[96], exp[96], got[96], name[48];
	snprintf(check, sizeof(check), "socket %d: both schedulers of every channel count", sock);
	snprintf(exp, sizeof(exp), "each >= %.0f%% of its channel", 100 * SCHED_SHARE);
	if (c->nsched < 2)
		return verdict_add(c->t, V_SKIP, check, exp, "-", "one scheduler a channel on this platform");
	double least = 1;
	int compared = 0;
	for (int k = 0; k < c->nchan[sock]; k++)
		for (int h = 0; h < 2; h++) {
			double all = c->sched[sock][k][0] + c->sched[sock][k][1], r = all > 0 ? c->sched[sock][k][h] / all : 0;
			if (!(all > 0))
				continue; /* a channel that counted nothing: the channel rows say so */
			compared++;
			if (r >= SCHED_SHARE) {
				least = r < least ? r : least;
				continue;
			}
			chan_name(c, sock, k, name, sizeof(name));
			snprintf(got, sizeof(got), "%s SCH%d: %.0f%%", name, h, 100 * r);
			return verdict_add(c->t, V_FAIL, check, exp, got, "scheduler %d of %s served %.0f%% of its CAS commands: "
					   "one scheduler is not counted", h, name, 100 * r);
		}
	if (!compared)
		return verdict_add(c->t, V_SKIP, check, exp, "-", "no channel counted (above)");
	snprintf(got, sizeof(got), "least %.0f%%", 100 * least);
	return verdict_add(c->t, V_PASS, check, exp, got, "%s", "");
}

/* Each memory controller's free-running reads and writes against the CAS counts of its channels, where it has
 * them. */
static int freerun_row(struct check *c, int sock)
{
	char check[96], exp[96], got[96], what[160] = "";
	int n = c->nctrl[sock];
	/* the simulator counts a workload while its clock stands still: no traffic falls between two box reads */
	double tol = FR_AGREE + (c->sim ? 0 : FR_SKEW_S / c->gen_s[sock]), worst = -1, gp[CHECK_MAX_CHANNELS] = { 0 };
	int per[CHECK_MAX_CHANNELS] = { 0 };
	if (c->fr_cas[0] < 0 && c->fr_cas[1] < 0)
		return 0; /* no such counters: no row */
	snprintf(check, sizeof(check), "socket %d: IMC CAS, free-running = general", sock);
	snprintf(exp, sizeof(exp), "within %.1f%% per controller", 100 * tol);
	if (n < 1)
		return verdict_add(c->t, V_SKIP, check, exp, "-", "no channel box holds its controller's free-running counters");
	for (int k = 0; k < c->nchan[sock]; k++)
		if (c->ctrl_of[sock][k] >= 0) {
			gp[c->ctrl_of[sock][k]] += c->chan[sock][k];
			per[c->ctrl_of[sock][k]]++;
		}
	for (int k = 0; k < n; k++) {
		double fr = c->fr_ctrl[sock][k], d = fabs(gp[k] - fr) / fmax(fmax(gp[k], fr), 1);
		if (isnan(d) || d > worst) {
			worst = isnan(d) ? INFINITY : d;
			snprintf(what, sizeof(what), "controller %d: its %d channels %.4g bytes, its free-running counters %.4g",
				 k, per[k], gp[k], fr);
		}
	}
	snprintf(got, sizeof(got), "worst %.2f%%", 100 * worst);
	if (worst > tol)
		return verdict_add(c->t, V_FAIL, check, exp, got, "%s: a channel or a free-running counter not counted, "
				   "or counted on the wrong controller", what);
	return verdict_add(c->t, V_PASS, check, exp, got, "%s", "");
}

int check_channels_rows(struct check *c)
{
	for (int k = 0; k < c->nsock; k++) {
		if (c->gen_s[k] <= 0)
			continue; /* no generator ran there */
		if (c->nchan[k] < 1) {
			char check[96];
			snprintf(check, sizeof(check), "socket %d: every channel counts", k);
			if (verdict_add(c->t, V_SKIP, check, "-", "-", "the memory metrics have no value per memory channel here"))
				return -1;
			continue;
		}
		if (socket_rows(c, k) || sched_row(c, k) || freerun_row(c, k))
			return -1;
	}
	return 0;
}
