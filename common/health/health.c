/*
 * Health: after every read of the caller, what the counts say about the counters themselves (doc/health.md).
 * Nothing here makes traffic or touches a register: it looks at what the read brought (each box's count
 * over the interval, what its registers read), at the session's clock and memory metrics, at free-running
 * twins the session counts beside general counters, and at resctrl's count of the same memory.  Each
 * condition stands while the reads show it: raised once, cleared once, and queued for the front ends.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "open/open.h"
#include "health.h"
#include "session/session.h"
#include "metrics/metrics.h"
#include "util/error.h"
#include "clock_ranges.h"
#include "sisters.h"
#include "health_devices.h"
#include "health_ufreq.h"
#include "health_energy.h"
#include "memory/memory.h"
#include "node/node.h"

/* A box counts nothing while the unit's other boxes counted at least this much each in the interval: far
 * above what an uneven share of a hashed load leaves one box with (even 10 ms of 1 GB/s is 1.5e5 lines). */
#define HEALTH_MIN_COUNT 10000
/* A clock's range is the platform's (clock_ranges.c), widened by what measuring it over one read's
 * window may err: the reference clock's spread (down-spread spectrum clocking: 0.5 %) and, at each end of the
 * window, the time between a box's sample stamp and its register read (HEALTH_READ_SKEW_NS, generous: a read
 * takes microseconds; a short window, a stop right after a read, is judged as loosely as it deserves). */
#define HEALTH_CLOCK_SPREAD 0.005
#define HEALTH_READ_SKEW_NS 100000.0
/* A clock below its floor is judged only on a socket that moved at least this much memory in the interval:
 * a socket that sleeps (package C6) stops its uncore clocks and powers its memory controllers down ("Counting
 * will be suspended when the MC is powered down", seed 001 section 2.3.2), and moves no memory then. */
#define HEALTH_BUSY_BPS 1e9
/* No memory channel moves more a second: 8800 MT/s (JEDEC JESD79-5C DDR5 top speed bin, Xeon 6 MRDIMM) x 8
 * bytes is 70.4 GB/s (as uncore check's CHECK_CHANNEL_BPS). */
#define HEALTH_CHANNEL_BPS 72e9
/* A general counter and its free-running twin: the same traffic read a few microseconds apart, by counters
 * whose rules differ at the edges (what a free-running port counter counts of a partial write); widened by
 * the read window's skew (HEALTH_READ_SKEW_NS at each end). */
#define HEALTH_TWIN_TOL 0.10
/* Sister boxes' clocks (sisters.c): one clock read a few microseconds apart, which leaves them nothing to
 * differ by but the read window's skew; 2 % for what no hardware here has shown (a box's clock gated a while):
 * a borrowed counter shows from 20 ms of a 1 s interval on.  The channels' DCLK only on a busy socket (a
 * controller powered down stops counting it: HEALTH_BUSY_BPS). */
#define HEALTH_SISTER_TOL 0.02
/* ... and each box's window as far off at each end as half the longest read the session stamps by its middle
 * (session_priv.h SAMPLE_SLACK_NS, 1 ms: a box read alone, a PCI or MMIO channel, on a loaded machine): 2.2 %
 * in all over 1 s, 22 % over 10 ms, where a borrower has little room anyway */
#define HEALTH_SISTER_SKEW_NS 500000.0
/* The node's memory counts against resctrl's: the uncore also counts I/O and prefetches resctrl does not,
 * so only a shortfall is a condition, and only when resctrl saw real traffic. */
#define HEALTH_RESCTRL_SHORT 0.95
#define HEALTH_RESCTRL_MIN_BPS 1e8
#define HEALTH_BRIEF_NS 1000000 /* an interval shorter than this clears nothing */
#define HEALTH_QUEUE 256 /* changes kept for uncore_session_health_changes(); older ones are dropped */

static const struct {
	const char *name, *advice;
} kinds[UNCORE_HEALTH_KINDS] = {
	[UNCORE_HEALTH_ALLONES] = { "allones", "the box's device is gone or its bus failed: its counts are left out "
						"until it reads sane; check the PCI device (lspci) and the kernel log" },
	[UNCORE_HEALTH_STOPPED] = { "stopped", "the box no longer counts (a dead PMU, a stuck counter, firmware that "
						"froze it): its unit's totals are too low; run uncore check, and report it" },
	[UNCORE_HEALTH_SILENT] = { "silent", "one event of the box (a scheduler of a channel) counts nothing: totals "
					      "that add it are too low; run uncore check" },
	[UNCORE_HEALTH_CLOCK] = { "clock", "a clock outside the range this platform's uncore clocks run in: the counter "
					    "counts something else; do not trust the box's values, and run uncore check" },
	[UNCORE_HEALTH_BANDWIDTH] = { "bandwidth", "a channel moved more than a memory channel can: a phantom count; "
						   "do not trust the socket's memory values, and run uncore check" },
	[UNCORE_HEALTH_WIDTH] = { "width", "a counter wraps at another width than documented, or reads bits beyond "
					    "it: the box's counts are wrong by about 2^width; report the part and the kernel" },
	[UNCORE_HEALTH_TAKEN] = { "taken", "another agent (perf, a second tool, wrmsr) reprogrammed the box: it is "
					    "given up and left to that agent; find it (uncore check, perf, claims)" },
	[UNCORE_HEALTH_TWIN] = { "twin", "a counter and its twin (a free-running counter of the same traffic, or the "
					   "same clock on the unit's other boxes) disagree: one of them counts the wrong port "
					   "or box, or another agent reprogrammed the box for a while and put its control "
					   "words back; do not trust the box's values for the interval, and run uncore check" },
	[UNCORE_HEALTH_RESCTRL] = { "resctrl", "the node's memory counts fall short of what resctrl saw move: channels "
						"not counted (hidden devices, a missing PMU); run uncore check" },
	[UNCORE_HEALTH_FROZEN] = { "frozen", "another process's sampled counter overflowed and froze every box of the "
					     "socket's die, and it does not service the overflow: the socket counts "
					     "nothing meanwhile; resume it (kill -CONT) or end it: a sampler that ended "
					     "has its boxes restored and the die thawed at the next read" },
	[UNCORE_HEALTH_UNCOUNTED] = { "uncounted", "the devices behind an IIO port moved more bytes than the port counted: "
						    "traffic the port does not count (RDMA, a peer-to-peer path, a wrong event); "
						    "do not trust the port's I/O values, and run uncore check" },
	[UNCORE_HEALTH_DEVSTOPPED] = { "devstopped", "the byte counters of the devices behind an IIO port stood still while "
						      "the port moved bytes: a driver that no longer updates them, or traffic "
						      "they do not see; the port's values are not checked meanwhile (uncore check)" },
	[UNCORE_HEALTH_ENERGYSTUCK] = { "energystuck", "an energy counter stood still while time passed (firmware, a "
						       "counter the part no longer updates): the socket's joules are too low; "
						       "run uncore check, and report the part and the firmware" },
	[UNCORE_HEALTH_ENERGYUNIT] = { "energyunit", "a socket's energy gives a power no socket draws: the energy unit "
						      "(MSR_RAPL_POWER_UNIT, or the kernel's) is wrong, and so are its joules "
						      "by a power of two; run uncore check, and report the part and the firmware" },
	[UNCORE_HEALTH_DEVMAP] = { "devmap", "a device group's bytes are counted on another IIO port than the map puts it "
					     "on: the stack-to-bus map is wrong, and so are the device names on the ports' "
					     "values; report the platform and the kernel (uncore check, uncore devices)" },
	[UNCORE_HEALTH_UCLKPINNED] = { "uclkpinned", "the uncore clock is pinned below the platform's range (the BIOS's "
						     "uncore frequency setting, or limits written to intel_uncore_frequency): "
						     "memory runs slower than the part can; the counts are right; raise the "
						     "limits (BIOS, or max_freq_khz) and see uncore freq" },
	[UNCORE_HEALTH_UCLKLIMITS] = { "uclklimits", "an uncore clock counted outside the limits the kernel gives it (uncore "
						     "freq): the counter, or the formula that made the clock, is wrong; do "
						     "not trust the box's values, and run uncore check" },
};

/* A general event and the free-running counter that counts the same (twins() below) */
enum { TWIN_BOX, TWIN_SUM, TWIN_EACH };
struct twin_def {
	const char *gen, *fr; /* names; %d: each port 0-7 */
	int per;              /* TWIN_BOX: the same box's; TWIN_SUM: the controller's channels' sum; TWIN_EACH: each */
	double gen_unit, fr_unit; /* what a count is, in the unit below (fr_unit 0: uncore_iio_freerun_bytes()) */
	const char *unit;     /* "GB/s" (units in bytes), "GHz" (units of 1: counts a nanosecond) */
};

struct health {
	struct uncore_health *c; /* standing */
	unsigned char *seen;     /* ... shown again by the read being judged */
	int n, cap;
	struct uncore_health q[HEALTH_QUEUE]; /* changes not yet taken */
	int nq;
	uint64_t now;
	int rdt_off;              /* resctrl could not be read: not tried again */
	uint64_t rdt_bytes, rdt_ns; /* resctrl's bytes over the node at the last read, and when (0: none yet) */
	int rdt_short;            /* reads in a row that fell short of resctrl */
	/* what the session counts that the checks use, found at its first read (plan()) */
	int planned;
	int rd, wr, mem_box;        /* metrics mem_bw_read and mem_bw_write (-1: none), per box too */
	double frd, fwr;            /* their bytes per unit */
	const char *platform;       /* the clock ranges' */
	int nclk, clk[16];          /* per-box clock metrics */
	double fclk[16];            /* their hertz per unit */
	int clk_kind[16];           /* what they clock (enum health_clock) */
	int clk_ev[16];             /* ... the event whose count per box each is, scaled by clk_x (-1: evaluated) */
	double clk_x[16];
	int ncev, cev[16], cev_kind[16]; /* clock events the session counts, and what they clock */
	int cev_exact[16];          /* ... every cycle (0: qualifiers count some: only the range's top is judged) */
	int judging;                /* the kind of clock clock_box judges */
	int judging_exact;          /* ... and whether its floor is judged too */
	const struct clock_range *range[HEALTH_CLK_KINDS]; /* the platform's range of each kind */
	int busy[UC_MAX_SOCKETS];   /* the socket moved HEALTH_BUSY_BPS of memory in the interval */
	double mem[UC_MAX_SOCKETS]; /* the socket's bytes read and written a second in the interval (NAN: none) */
	int ntw, tw[32][2];         /* general events and their free-running twins (twin_defs) */
	int nsis, sis[16], sis_kind[16]; /* clocks the unit's boxes share (sisters.c), and their kinds */
	const struct twin_def *twd[32];
	double bw[UC_MAX_SOCKETS][64]; /* each channel's read bytes a second, then its writes added */
	int bw_named;                  /* channels found above a channel's bandwidth on the socket */
	struct health_devices *dev;    /* the devices against their ports (health_devices.c) */
	struct health_ufreq *uf;       /* the uncore clock's limits (health_ufreq.c) */
	int uclk;                      /* the session counts an uncore clock: the limits are read */
	struct health_energy energy;   /* the energy counters it watches (health_energy.c) */
};

const char *uncore_health_name(int kind) { return kind >= 0 && kind < UNCORE_HEALTH_KINDS ? kinds[kind].name : NULL; }
const char *uncore_health_advice(int kind) { return kind >= 0 && kind < UNCORE_HEALTH_KINDS ? kinds[kind].advice : NULL; }

static void queue(struct health *h, const struct uncore_health *c, int raised)
{
	if (h->nq == HEALTH_QUEUE) /* nobody takes them: the oldest go */
		memmove(h->q, h->q + 1, (HEALTH_QUEUE - 1) * sizeof(h->q[0]));
	else
		h->nq++;
	h->q[h->nq - 1] = *c;
	h->q[h->nq - 1].raised = raised;
}

/* The condition (kind, socket, unit, box, event) stands: raised unless it stood already. */
__attribute__((format(printf, 7, 8))) static void raise_cond(struct health *h, int kind, int socket, const char *unit,
							       int box, int ev, const char *fmt, ...)
{
	int i;
	for (i = 0; i < h->n; i++) {
		const struct uncore_health *c = &h->c[i];
		if (c->kind == kind && c->socket == socket && c->box == box && c->event == ev && !strcmp(c->unit, unit))
			break;
	}
	if (i == h->n) {
		if (h->n == h->cap) {
			int cap = h->cap ? 2 * h->cap : 16;
			struct uncore_health *c = realloc(h->c, (size_t)cap * sizeof(*c));
			unsigned char *seen = c ? realloc(h->seen, (size_t)cap) : NULL;
			if (c)
				h->c = c;
			if (!seen)
				return; /* out of memory: the condition goes unreported, the read is not failed for it */
			h->seen = seen;
			h->cap = cap;
		}
		struct uncore_health *c = &h->c[h->n++];
		*c = (struct uncore_health){ kind, 1, socket, "", box, ev, h->now, "" };
		snprintf(c->unit, sizeof(c->unit), "%s", unit);
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(c->what, sizeof(c->what), fmt, ap);
		va_end(ap);
		queue(h, c, 1);
	}
	h->seen[i] = 1;
}

/* Units whose boxes share their socket's load evenly (addresses hashed over channels and LLC slices): one
 * that counts nothing while the others count is broken, not idle (an I/O stack or a link may just be idle). */
/* Whether the population says iMC box box of socket sock holds no DIMM, or is no channel (memory/). */
static int empty_channel(uncore_t *u, int sock, int box)
{
	int st = mem_pop_state(node_fact(u, NODE_MEMORY), sock, box); /* (built when the session started) */
	return st == UNCORE_CHAN_EMPTY || st == UNCORE_CHAN_NONE;
}

static int even_unit(const char *unit)
{
	static const char *const even[] = { "imc", "cha", "cbo", "ha", "m2m", NULL };
	for (int i = 0; even[i]; i++)
		if (!strcmp(unit, even[i]))
			return 1;
	return 0;
}

#define VIEWS 256
/* Per event and socket: what each box's registers read, and a box or an event of a box that stopped
 * counting while the unit's other boxes counted. */
static void boxes(uncore_session_t *s, struct health *h)
{
	uncore_t *u = session_owner(s);
	struct session_box_view v[VIEWS];
	if (session_read_quiet(s)) /* nothing below can raise anything */
		return;
	for (int ev = 0; ev < uncore_session_num_events_impl(s); ev++)
		for (int k = 0; k < u->host.nsockets; k++) {
			int n = session_event_views(s, ev, k, v, VIEWS), ok = 0;
			double sum = 0;
			for (int i = 0; i < n; i++) {
				const struct session_box_view *b = &v[i];
				if (b->flags & SESS_BOX_ALLONES)
					raise_cond(h, UNCORE_HEALTH_ALLONES, k, b->unit, b->box, -1,
						   "%s %d (socket %d): a counter read all ones", b->unit,
						   b->box, k);
				if (b->flags & SESS_BOX_BEYOND)
					raise_cond(h, UNCORE_HEALTH_WIDTH, k, b->unit, b->box, -1,
						   "%s %d (socket %d): a count beyond the counter's width, or a step no event "
						   "makes in the time (a wrap at a narrower width)", b->unit,
						   b->box, k);
				if (b->taken)
					raise_cond(h, UNCORE_HEALTH_TAKEN, k, b->unit, b->box, -1,
						   "%s %d (socket %d): another agent changed its control registers; the box is "
						   "given up and left to it", b->unit, b->box, k);
				if (!b->failed && !b->flags && b->ns) {
					sum += (double)b->delta;
					ok++;
				}
			}
			for (int i = 0; i < n && ok > 1; i++) {
				const struct session_box_view *b = &v[i];
				double others = sum / (ok - 1); /* the other boxes' mean (this one counted 0) */
				if (b->failed || b->flags || !b->ns || b->delta || !even_unit(b->unit) || others < HEALTH_MIN_COUNT)
					continue;
				if (!strcmp(b->unit, "imc") && empty_channel(u, k, b->box))
					continue; /* no DIMM on it: it moves nothing (issue 91) */
				const char *name = uncore_session_event_name_impl(s, ev);
				/* a box another agent reprogrammed counts its event, not ours: one the control words' rotation has
				 * not reached yet is read back now, and is taken, not stopped or silent */
				if (session_event_box_taken(s, ev, k, i) == 1) {
					raise_cond(h, UNCORE_HEALTH_TAKEN, k, b->unit, b->box, -1,
						   "%s %d (socket %d): another agent changed its control registers; the box is "
						   "given up and left to it", b->unit, b->box, k);
					continue;
				}
				if (!b->moved)
					raise_cond(h, UNCORE_HEALTH_STOPPED, k, b->unit, b->box, -1,
						   "%s %d (socket %d): no counter moved while the other %d %s boxes counted %s "
						   "%.3g times each", b->unit, b->box, k, ok - 1, b->unit, name, others);
				else
					raise_cond(h, UNCORE_HEALTH_SILENT, k, b->unit, b->box, ev,
						   "%s %d (socket %d): %s counted nothing while the box's other events and the "
						   "other %d boxes' %s (%.3g each) counted", b->unit, b->box, k, name, ok - 1,
						   name, others);
			}
		}
}

/* Dies the read found frozen by an overflow no session of this handle services (session_freeze.c): the
 * sampler holding the freeze named (frozen), or, where no claim explains it, the whole socket stopped. */
static void frozen_dies(uncore_session_t *s, struct health *h)
{
	struct session_frozen f;
	for (int i = 0; !session_frozen(s, i, &f); i++) {
		if (!f.pid)
			raise_cond(h, UNCORE_HEALTH_STOPPED, f.socket, "", -1, -1,
				   "socket %d: no counter of the socket moved: its die is frozen by an overflow (global status "
				   "0x%llx) that no session's claim explains (another tool's sampling)", f.socket,
				   (unsigned long long)f.status);
		else if (!f.state)
			raise_cond(h, UNCORE_HEALTH_FROZEN, f.socket, "", -1, -1,
				   "socket %d: frozen by an overflow of process %d, which died without servicing it: its "
				   "boxes are restored and the die counts again; the socket's counts of this interval are short",
				   f.socket, f.pid);
		else
			raise_cond(h, UNCORE_HEALTH_FROZEN, f.socket, "", -1, -1,
				   "socket %d: frozen by an overflow of process %d (%s), which does not service it: the socket "
				   "counts nothing until it does or ends", f.socket, f.pid,
				   f.state == 'T' ? "stopped: SIGSTOP" : f.state == 't' ? "stopped by a debugger"
				   : "running, but not reading its session");
	}
}

/* Bytes or hertz per unit of a metric: "GB/s" 1e9, "MHz" 1e6, "Hz" 1; 0: not a rate of that kind. */
static double per(const char *unit, const char *base)
{
	double f = 1;
	size_t n = strlen(unit), b = strlen(base);
	if (n < b || strcmp(unit + n - b, base))
		return 0;
	if (n == b + 1)
		switch (unit[0]) {
		case 'G': f = 1e9; break;
		case 'M': f = 1e6; break;
		case 'k': f = 1e3; break;
		default: return 0;
		}
	else if (n != b)
		return 0;
	return f;
}

/* A condition of kind stands on a box of socket k (raised by this read). */
static int on_socket(const struct health *h, int kind, int k)
{
	for (int i = 0; i < h->n; i++)
		if (h->seen[i] && h->c[i].kind == kind && h->c[i].socket == k)
			return 1;
	return 0;
}

/* The session's metric m on socket/box over the last interval, in base units (NAN: none). */
static double metric_base(const uncore_session_t *s, int m, int socket, int box, double f)
{
	double v;
	return uncore_session_metric_value_impl(s, m, socket, box, UNCORE_LAST_INTERVAL, &v) || isnan(v) ? NAN : v * f;
}

/* A condition of kind stands on the box (raised by this read). */
static int stands(const struct health *h, int kind, int socket, const char *unit, int box)
{
	for (int i = 0; i < h->n; i++)
		if (h->seen[i] && h->c[i].kind == kind && h->c[i].socket == socket && h->c[i].box == box &&
		    !strcmp(h->c[i].unit, unit))
			return 1;
	return 0;
}

int health_event_named(const uncore_session_t *s, const char *name)
{
	for (int ev = 0; ev < uncore_session_num_events_impl(s); ev++)
		if (!strcmp(uncore_session_event_name_impl(s, ev), name))
			return ev;
	return -1;
}

/* The twins health compares where the session counts both:
 * - an IIO port's bytes: general counters count 4 bytes (Intel's JSON ScaleUnit of UNC_IIO_DATA_REQ_OF_CPU),
 *   free-running ones uncore_iio_freerun_bytes(); the same box;
 * - ICX's memory controller's free-running DDR reads and writes (MMIO 0x2290/0x2298, Linux icx_imc_freerunning;
 *   64 bytes a count, icx_uncore_imc_freerunning_events' scale 6.103515625e-5 MiB, as a CAS: snr_uncore_imc_events)
 *   against its channels' CAS counts summed;
 * - a controller's free-running DCLK (ICX's and SPR/EMR's 0x22B0: icx_imc_freerunning, spr_imc_freerunning)
 *   against each of its channels' DCLK (seed 001 T2-131: "one register per stack to track the number of DDR
 *   cycles"; the channels' DCLK "never changes frequency", seed 000 L2256).
 * A controller's free-running counters go with its channel 0 (platform.h struct mmio_place): its channels are
 * the boxes from that one up to the next controller's. */
static const struct twin_def twin_defs[] = {
	{ "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART%d", "UNC_IIO_BANDWIDTH_IN.PART%d_FREERUN", TWIN_BOX, 4, 0, "GB/s" },
	{ "UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART%d", "UNC_IIO_BANDWIDTH_OUT.PART%d_FREERUN", TWIN_BOX, 4, 0, "GB/s" },
	{ "UNC_M_CAS_COUNT.RD", "UNC_M_CAS_COUNT_FREERUN.RD", TWIN_SUM, 64, 64, "GB/s" },
	{ "UNC_M_CAS_COUNT.WR", "UNC_M_CAS_COUNT_FREERUN.WR", TWIN_SUM, 64, 64, "GB/s" },
	{ "UNC_M_CLOCKTICKS", "UNC_M_CLOCKTICKS_FREERUN", TWIN_EACH, 1, 1, "GHz" },
	{ "UNC_M_CLOCKTICKS", "UNC_M_DCLK_FREERUN", TWIN_EACH, 1, 1, "GHz" },
	{ "UNC_M_FIXED_DCLK", "UNC_M_DCLK_FREERUN", TWIN_EACH, 1, 1, "GHz" },
};

/* The event whose count over its boxes and the duration metric m is (UNC_CHA_CLOCKTICKS / boxes / duration),
 * or -1: its value on a box is that box's count over its window. */
static int one_event(const uncore_session_t *s, int m)
{
	const struct session_metric *sm = session_metric_get(s, m);
	const struct uc_metric *mt = &session_owner(s)->metrics[sm->metric];
	return mt->x.nev == 1 && strstr(mt->expr, "/ boxes / duration") && !strchr(mt->expr, '(') ? sm->ev[0] : -1;
}

/* What the checks look at, found once: the memory metrics, the per-box clocks and clock events, the twins. */
static void plan(uncore_session_t *s, struct health *h)
{
	uncore_t *u = session_owner(s);
	h->planned = 1;
	h->platform = u->plat ? u->plat->name : NULL;
	for (int k = 0; k < HEALTH_CLK_KINDS; k++) /* (looked up once: clock_box runs on every box of every read) */
		h->range[k] = health_clock_range(u->plat, k);
	h->rd = h->wr = -1;
	for (int m = 0; m < uncore_session_num_metrics_impl(s); m++) {
		struct uncore_metric_info mi;
		const struct session_metric *sm = session_metric_get(s, m);
		double f;
		if (!sm || uncore_metric_info_impl(u, sm->metric, &mi))
			continue;
		if (!strcmp(mi.name, "mem_bw_read") && (f = per(mi.unit, "B/s")))
			h->rd = m, h->frd = f, h->mem_box = mi.box_unit >= 0;
		else if (!strcmp(mi.name, "mem_bw_write") && (f = per(mi.unit, "B/s")))
			h->wr = m, h->fwr = f;
		else if (mi.box_unit >= 0 && (f = per(mi.unit, "Hz")) && h->nclk < 16) {
			h->clk_kind[h->nclk] = health_clock_metric(mi.name);
			h->clk_ev[h->nclk] = one_event(s, m);
			h->clk_x[h->nclk] = u->metrics[sm->metric].scale * f;
			h->clk[h->nclk] = m, h->fclk[h->nclk++] = f;
		}
	}
	if (h->rd < 0 || h->wr < 0)
		h->rd = h->wr = -1;
	for (int ev = 0; ev < uncore_session_num_events_impl(s) && h->ncev < 16; ev++) {
		int exact, k = health_clock_event(uncore_session_event_name_impl(s, ev), &exact), judged = 0;
		for (int i = 0; i < h->nclk; i++) /* a clock metric that is this event per box judges it already */
			judged |= h->clk_kind[i] == k && one_event(s, h->clk[i]) == ev;
		if (k >= 0 && !judged)
			h->cev_kind[h->ncev] = k, h->cev_exact[h->ncev] = exact, h->cev[h->ncev++] = ev;
	}
	for (int i = 0; i < h->nclk; i++)
		h->uclk |= h->clk_kind[i] == HEALTH_CLK_UNCORE;
	for (int i = 0; i < h->ncev; i++)
		h->uclk |= h->cev_kind[i] == HEALTH_CLK_UNCORE;
	h->nsis = sisters_plan(s, h->sis, h->sis_kind, 16);
	for (size_t d = 0; d < sizeof(twin_defs) / sizeof(twin_defs[0]); d++) {
		const struct twin_def *t = &twin_defs[d];
		int ports = strstr(t->gen, "%d") ? 8 : 1;
		if (!t->fr_unit && !uncore_iio_freerun_bytes(u))
			continue;
		for (int port = 0; port < ports && h->ntw < 32; port++) {
			char g[64], f[64];
			snprintf(g, sizeof(g), t->gen, port);
			snprintf(f, sizeof(f), t->fr, port);
			h->twd[h->ntw] = t;
			if ((h->tw[h->ntw][0] = health_event_named(s, g)) >= 0 && (h->tw[h->ntw][1] = health_event_named(s, f)) >= 0)
				h->ntw++;
		}
	}
}

/* A per-box metric's value on each box of socket k its first event counts on, in base units (f per unit):
 * where the metric is one event over its boxes and the duration (the clocks: UNC_CHA_CLOCKTICKS / boxes /
 * duration), straight from the box's count, else evaluated on the box.  Calls fn for each. */
static void per_box(uncore_session_t *s, int m, int k, double f,
		    void (*fn)(struct health *h, int k, const struct session_box_view *b, double v, const char *name),
		    struct health *h)
{
	const struct session_metric *sm = session_metric_get(s, m);
	const struct uc_metric *mt = &session_owner(s)->metrics[sm->metric];
	struct session_box_view v[VIEWS];
	int one = one_event(s, m) >= 0;
	int n = mt->x.nev > 0 ? session_event_views(s, sm->ev[0], k, v, VIEWS) : 0;
	for (int i = 0; i < n; i++) {
		const struct session_box_view *b = &v[i];
		if (b->failed || b->flags || !b->ns)
			continue;
		double x = one ? (double)b->delta * 1e9 / (double)b->ns * mt->scale * f : metric_base(s, m, k, b->box, f);
		fn(h, k, b, x, mt->name);
	}
}


static void bw_read(struct health *h, int k, const struct session_box_view *b, double v, const char *name)
{
	(void)name;
	if (b->box >= 0 && b->box < 64)
		h->bw[k][b->box] = v;
}

static void bw_write(struct health *h, int k, const struct session_box_view *b, double v, const char *name)
{
	(void)name;
	if (b->box < 0 || b->box >= 64 || isnan(v += h->bw[k][b->box]) || v <= HEALTH_CHANNEL_BPS)
		return;
	h->bw_named++;
	raise_cond(h, UNCORE_HEALTH_BANDWIDTH, k, b->unit, b->box, -1,
		   "%s %d (socket %d): %.4g GB/s read and written, more than a memory channel moves (%.0f GB/s)", b->unit,
		   b->box, k, v / 1e9, HEALTH_CHANNEL_BPS / 1e9);
}

/* How far two measures over windows of a and b ns may differ for the skew of the reads that end them. */
static double skew_share(uint64_t a, uint64_t b)
{
	uint64_t ns = a < b ? a : b;
	return ns ? 2 * HEALTH_READ_SKEW_NS / (double)ns : INFINITY;
}

/* A clock of the kind h->judging, v hertz on the box, outside the platform's range for that kind: above it, or
 * below it on a socket that moved memory (a clock that counted nothing is its box's stopped condition, one
 * that disagrees with its free-running twin the twin condition). */
static void clock_box(struct health *h, int k, const struct session_box_view *b, double v, const char *name)
{
	const struct clock_range *r = h->range[h->judging];
	double slack = HEALTH_CLOCK_SPREAD + skew_share(b->ns, b->ns);
	int high = v > r->hi * (1 + slack);
	int low = h->judging_exact && v < r->lo * (1 - slack) && b->delta && k < UC_MAX_SOCKETS && h->busy[k] &&
		  !stands(h, UNCORE_HEALTH_STOPPED, k, b->unit, b->box);
	char why[256];
	if (low && h->judging == HEALTH_CLK_UNCORE && /* a clock its limits pin there is uclkpinned (ufreq_box) */
	    health_ufreq_judge(h->uf, k, v, 1, 1, slack, r->lo, why, sizeof(why)) == HEALTH_UFREQ_PINNED)
		low = 0;
	if ((high || low) && !stands(h, UNCORE_HEALTH_BANDWIDTH, k, b->unit, b->box) &&
	    !stands(h, UNCORE_HEALTH_TWIN, k, b->unit, b->box))
		raise_cond(h, UNCORE_HEALTH_CLOCK, k, b->unit, b->box, -1,
			   "%s %d (socket %d): %s %.4g GHz, %s the %s clock's range (%.4g-%.4g GHz: %s)", b->unit, b->box, k,
			   name, v / 1e9, high ? "above" : "below", health_clock_kind_names[h->judging], r->lo / 1e9,
			   r->hi / 1e9, r->source);
}

/* Every box of event ev on socket k within the range of the kind h->judging, its rate (counts a second) times
 * x: not one to judge box by box.  Bounds of the boxes' rates (session_event_rate_span) are judged with the
 * least slack any box has (its longest window's), so a socket this passes has no box clock_box would raise. */
static int clocks_within(uncore_session_t *s, struct health *h, int ev, int k, double x)
{
	const struct clock_range *r = h->range[h->judging];
	double lo, hi;
	uint64_t ns;
	if (!session_event_rate_span(s, ev, k, &lo, &hi, &ns))
		return 1;
	double slack = HEALTH_CLOCK_SPREAD + skew_share(ns, ns);
	return hi * x <= r->hi * (1 + slack) &&
	       (k >= UC_MAX_SOCKETS || !h->busy[k] || !h->judging_exact || lo * x >= r->lo * (1 - slack));
}

/* A clock event's rate on each box of socket k, to fn (clock_box, ufreq_box). */
static void clock_event(uncore_session_t *s, struct health *h, int ev, int k,
			void (*fn)(struct health *h, int k, const struct session_box_view *b, double v, const char *name))
{
	struct session_box_view v[VIEWS];
	int n = session_event_views(s, ev, k, v, VIEWS);
	const char *name = uncore_session_event_name_impl(s, ev);
	for (int i = 0; i < n; i++)
		if (!v[i].failed && !v[i].flags && v[i].ns)
			fn(h, k, &v[i], (double)v[i].delta * 1e9 / (double)v[i].ns, name);
}

/* An uncore clock, v hertz on the box, against the limits the kernel gives its socket (health_ufreq.c): pinned
 * below the platform's range while memory is busy (uclkpinned, the socket's), or outside them (uclklimits, the
 * box's) where no condition of the box's already says its clock is wrong. */
static void ufreq_box(struct health *h, int k, const struct session_box_view *b, double v, const char *name)
{
	char why[256];
	double slack = HEALTH_CLOCK_SPREAD + skew_share(b->ns, b->ns);
	int busy = k < UC_MAX_SOCKETS && h->busy[k];
	if (!b->delta || stands(h, UNCORE_HEALTH_CLOCK, k, b->unit, b->box) || stands(h, UNCORE_HEALTH_TWIN, k, b->unit, b->box) ||
	    stands(h, UNCORE_HEALTH_BANDWIDTH, k, b->unit, b->box) || stands(h, UNCORE_HEALTH_STOPPED, k, b->unit, b->box))
		return;
	switch (health_ufreq_judge(h->uf, k, v, busy, h->judging_exact, slack, h->range[HEALTH_CLK_UNCORE]->lo, why, sizeof(why))) {
	case HEALTH_UFREQ_PINNED:
		raise_cond(h, UNCORE_HEALTH_UCLKPINNED, k, "", -1, -1, "socket %d: %s %.4g GHz on %s %d, %s", k, name, v / 1e9,
			   b->unit, b->box, why);
		break;
	case HEALTH_UFREQ_OUTSIDE:
		raise_cond(h, UNCORE_HEALTH_UCLKLIMITS, k, b->unit, b->box, -1, "%s %d (socket %d): %s %.4g GHz, %s", b->unit,
			   b->box, k, name, v / 1e9, why);
		break;
	}
}

/* Each clock the unit's boxes share, box by box against their die's, and two counters of a clock on one box
 * against each other (sisters.c): twin on a box that strays. */
static void sisters(uncore_session_t *s, struct health *h)
{
	uncore_t *u = session_owner(s);
	struct sister_odd o[16];
	for (int i = 0; i < h->nsis; i++)
		for (int k = 0; k < u->host.nsockets; k++) {
			if (h->sis_kind[i] == HEALTH_CLK_DRAM && (k >= UC_MAX_SOCKETS || !h->busy[k]))
				continue;
			int n = sisters_odd(s, h->sis[i], k, HEALTH_SISTER_TOL, HEALTH_SISTER_SKEW_NS, o, 16);
			for (int j = 0; j < n && j < 16; j++) {
				/* a phantom count (a box impossible for its bandwidth, a clock above any) is those conditions' */
				if (stands(h, UNCORE_HEALTH_BANDWIDTH, k, o[j].unit, o[j].box) ||
				    o[j].hz > h->range[h->sis_kind[i]]->hi * (1 + HEALTH_CLOCK_SPREAD))
					continue;
				raise_cond(h, UNCORE_HEALTH_TWIN, k, o[j].unit, o[j].box, -1,
					   "%s %d (socket %d): %s %.4g GHz, %.0f%% off the same %s clock on its die's %d boxes "
					   "(%.4g GHz, their median): for part of the interval it counted something else",
					   o[j].unit, o[j].box, k, uncore_session_event_name_impl(s, h->sis[i]), o[j].hz / 1e9,
					   100 * fabs(o[j].ref - o[j].hz) / o[j].ref, health_clock_kind_names[h->sis_kind[i]],
					   o[j].sisters, o[j].ref / 1e9);
			}
		}
	for (int i = 0; i < h->nsis; i++) /* two counters of one clock on a box */
		for (int t = i + 1; t < h->nsis; t++)
			for (int k = 0; h->sis_kind[t] == h->sis_kind[i] && k < u->host.nsockets; k++) {
				int n = sisters_pair_odd(s, h->sis[i], h->sis[t], k, HEALTH_SISTER_TOL, HEALTH_SISTER_SKEW_NS, o, 16);
				for (int j = 0; j < n && j < 16; j++) {
					double top = h->range[h->sis_kind[i]]->hi * (1 + HEALTH_CLOCK_SPREAD);
					if (stands(h, UNCORE_HEALTH_BANDWIDTH, k, o[j].unit, o[j].box) || o[j].hz > top || o[j].ref > top)
						continue;
					raise_cond(h, UNCORE_HEALTH_TWIN, k, o[j].unit, o[j].box, -1,
						   "%s %d (socket %d): %s %.4g GHz, %s on the same box %.4g GHz (the same %s clock): "
						   "for part of the interval one of them counted something else", o[j].unit, o[j].box,
						   k, uncore_session_event_name_impl(s, h->sis[i]), o[j].hz / 1e9,
						   uncore_session_event_name_impl(s, h->sis[t]), o[j].ref / 1e9,
						   health_clock_kind_names[h->sis_kind[i]]);
				}
			}
}

/* Memory channels that moved more than a channel can; then clocks outside the platform's range, on boxes
 * not already impossible for their bandwidth (a phantom count makes both). */
static void metrics(uncore_session_t *s, struct health *h)
{
	uncore_t *u = session_owner(s);
	int rd = h->mem_box ? h->rd : -1, wr = h->wr;
	double frd = h->frd, fwr = h->fwr;
	for (int k = 0; k < u->host.nsockets && k < UC_MAX_SOCKETS; k++) /* (each metric evaluated once a read) */
		h->mem[k] = h->rd >= 0 ? metric_base(s, h->rd, k, -1, frd) + metric_base(s, wr, k, -1, fwr) : NAN;
	for (int k = 0; rd >= 0 && k < u->host.nsockets && k < UC_MAX_SOCKETS; k++) {
		/* the socket first (two evaluations): only a socket that moved more than its channels can carry
		 * is looked at channel by channel, to name the channel */
		const struct session_metric *sm = session_metric_get(s, rd);
		struct session_box_view b = { .unit = "" };
		int channels = uncore_session_event_boxes_impl(s, sm->ev[0], k);
		if (channels)
			session_event_box(s, sm->ev[0], k, 0, &b);
		double v = h->mem[k];
		if (!(v > channels * HEALTH_CHANNEL_BPS) || on_socket(h, UNCORE_HEALTH_WIDTH, k) ||
		    on_socket(h, UNCORE_HEALTH_ALLONES, k))
			continue; /* (a count a wrong width made is that box's condition, not the socket's bandwidth) */
		memset(h->bw[k], 0, sizeof(h->bw[k]));
		h->bw_named = 0;
		per_box(s, rd, k, frd, bw_read, h);
		per_box(s, wr, k, fwr, bw_write, h);
		if (!h->bw_named) /* no one channel above a channel's: the socket's */
			raise_cond(h, UNCORE_HEALTH_BANDWIDTH, k, b.unit, -1, -1,
				   "socket %d: %.4g GB/s read and written, more than its %d channels move (%.0f GB/s each)", k,
				   v / 1e9, channels, HEALTH_CHANNEL_BPS / 1e9);
	}
	for (int k = 0; k < u->host.nsockets && k < UC_MAX_SOCKETS; k++)
		h->busy[k] = h->wr >= 0 && h->mem[k] >= HEALTH_BUSY_BPS;
	sisters(s, h); /* (before the clocks: a box off its sisters' clock is twin, not clock) */
	for (int i = 0; i < h->nclk; i++)
		for (int k = 0; k < u->host.nsockets; k++) {
			h->judging = h->clk_kind[i], h->judging_exact = 1;
			if (h->clk_ev[i] < 0 || !clocks_within(s, h, h->clk_ev[i], k, h->clk_x[i]))
				per_box(s, h->clk[i], k, h->fclk[i], clock_box, h);
		}
	for (int i = 0; i < h->ncev; i++)
		for (int k = 0; k < u->host.nsockets; k++) {
			h->judging = h->cev_kind[i], h->judging_exact = h->cev_exact[i];
			if (!clocks_within(s, h, h->cev[i], k, 1))
				clock_event(s, h, h->cev[i], k, clock_box);
		}
	for (int i = 0; h->uf && i < h->nclk; i++) /* the uncore clocks against their limits */
		for (int k = 0; h->clk_kind[i] == HEALTH_CLK_UNCORE && k < u->host.nsockets; k++) {
			h->judging = HEALTH_CLK_UNCORE, h->judging_exact = 1;
			per_box(s, h->clk[i], k, h->fclk[i], ufreq_box, h);
		}
	for (int i = 0; h->uf && i < h->ncev; i++)
		for (int k = 0; h->cev_kind[i] == HEALTH_CLK_UNCORE && k < u->host.nsockets; k++) {
			h->judging = HEALTH_CLK_UNCORE, h->judging_exact = h->cev_exact[i];
			clock_event(s, h, h->cev[i], k, ufreq_box);
		}
}

/* Rates x and y of twins (from counts cx and cy over windows xns and yns) disagree beyond the tolerance. */
static int disagree(double x, double y, double cx, double cy, uint64_t xns, uint64_t yns)
{
	return fmax(cx, cy) >= HEALTH_MIN_COUNT && fabs(x - y) > (HEALTH_TWIN_TOL + skew_share(xns, yns)) * fmax(x, y);
}

/* The general counts of twin t that go with free-running box view fv[j]: its own box's (TWIN_BOX), or its
 * controller's channels' (the boxes from its box up to the next free-running one's), as rates in the twin's
 * unit, summed (TWIN_SUM) or each against it (TWIN_EACH).  Raises twin on the free-running counter's box. */
static void twin_judge(uncore_session_t *s, struct health *h, int t, int k, const struct session_box_view *fv, int nf, int j,
		       const struct session_box_view *gv, int ng, double fr_unit)
{
	const struct twin_def *d = h->twd[t];
	const struct session_box_view *f = &fv[j];
	int hi = INT_MAX, n = 0, bad = 0;
	double x = 0, y = (double)f->delta * fr_unit / (double)f->ns, count = 0;
	uint64_t ns = UINT64_MAX;
	for (int i = 0; i < nf; i++) /* the next controller's */
		if (fv[i].box > f->box && fv[i].box < hi)
			hi = fv[i].box;
	for (int i = 0; i < ng && !bad; i++) {
		const struct session_box_view *g = &gv[i];
		if (g->box < f->box || g->box >= hi || (d->per == TWIN_BOX && g->box != f->box))
			continue;
		if (g->failed || g->flags || !g->ns)
			return; /* a channel not counted: its own condition, or nothing to judge by */
		double r = (double)g->delta * d->gen_unit / (double)g->ns;
		n++;
		if (d->per == TWIN_SUM) {
			x += r, count += (double)g->delta;
			ns = g->ns < ns ? g->ns : ns;
		} else if (disagree(r, y, (double)g->delta, (double)f->delta, g->ns, f->ns))
			x = r, bad = 1;
	}
	if (d->per == TWIN_SUM)
		bad = n && disagree(x, y, count, (double)f->delta, ns, f->ns);
	if (bad)
		raise_cond(h, UNCORE_HEALTH_TWIN, k, f->unit, f->box, -1,
			   "%s %d (socket %d): %s %.4g %s%s, its free-running twin %s %.4g %s", f->unit, f->box, k,
			   uncore_session_event_name_impl(s, h->tw[t][0]), x, d->unit,
			   d->per == TWIN_SUM ? " over the controller's channels" : "",
			   uncore_session_event_name_impl(s, h->tw[t][1]), y, d->unit);
}

/* Each general counter and its free-running twin, where the session counts both (twin_defs): the same traffic
 * or clock, within what the read window's skew allows. */
static void twins(uncore_session_t *s, struct health *h)
{
	uncore_t *u = session_owner(s);
	for (int t = 0; t < h->ntw; t++)
		for (int k = 0; k < u->host.nsockets; k++) {
			struct session_box_view gv[VIEWS], fv[VIEWS];
			int ng = session_event_views(s, h->tw[t][0], k, gv, VIEWS), nf = session_event_views(s, h->tw[t][1], k, fv, VIEWS);
			double fr_unit = h->twd[t]->fr_unit ? h->twd[t]->fr_unit : uncore_iio_freerun_bytes(u);
			for (int j = 0; j < nf; j++)
				if (!fv[j].failed && !fv[j].flags && fv[j].ns)
					twin_judge(s, h, t, k, fv, nf, j, gv, ng, fr_unit);
		}
}

/* A condition of a box of a memory unit, or of a whole socket, already explains a shortfall against resctrl. */
static int memory_cond(const struct health *h)
{
	for (int i = 0; i < h->n; i++)
		if (h->seen[i] && ((h->c[i].box >= 0 && h->c[i].kind != UNCORE_HEALTH_TWIN && h->c[i].kind != UNCORE_HEALTH_CLOCK) ||
				   (h->c[i].box < 0 && h->c[i].socket >= 0 &&
				    (h->c[i].kind == UNCORE_HEALTH_FROZEN || h->c[i].kind == UNCORE_HEALTH_STOPPED))))
			return 1;
	return 0;
}

/* The node's memory traffic as the session's per-socket read and write bandwidth counts it, against
 * resctrl's monitoring of the same memory (mbm_total_bytes of every L3 domain). */
static void resctrl(uncore_session_t *s, struct health *h)
{
	uncore_t *u = session_owner(s);
	int rd = h->rd, wr = h->wr;
	double frd = h->frd, fwr = h->fwr, unc = 0;
	uint64_t bytes = 0;
	if (h->rdt_off || rd < 0)
		return;
	for (int k = 0; k < u->host.nsockets; k++) {
		uint64_t b;
		if (uncore_resctrl_bytes_impl(u, k, &b)) {
			h->rdt_off = 1; /* no resctrl here (not mounted, no MBM): nothing to compare */
			return;
		}
		bytes += b;
		unc += k < UC_MAX_SOCKETS ? h->mem[k] : metric_base(s, rd, k, -1, frd) + metric_base(s, wr, k, -1, fwr);
	}
	uint64_t last = h->rdt_bytes, then = h->rdt_ns;
	h->rdt_bytes = bytes;
	h->rdt_ns = h->now;
	if (!then || h->now <= then || bytes < last || isnan(unc))
		return;
	double rdt = (double)(bytes - last) * 1e9 / (double)(h->now - then);
	/* two reads in a row: a box that fails within an interval makes one short read before its own condition */
	h->rdt_short = rdt >= HEALTH_RESCTRL_MIN_BPS && unc < HEALTH_RESCTRL_SHORT * rdt && !memory_cond(h) ? h->rdt_short + 1 : 0;
	if (h->rdt_short >= 2)
		raise_cond(h, UNCORE_HEALTH_RESCTRL, -1, "", -1, -1,
			   "the node's memory counted %.4g GB/s, resctrl saw %.4g GB/s move (%.0f%%)", unc / 1e9, rdt / 1e9,
			   100 * unc / rdt);
}

/* Each device group against its IIO port (health_devices.c): its conditions, standing from their second
 * window in a row, raised on the port's box with its inbound event (one condition a port). */
static void devices(uncore_session_t *s, struct health *h)
{
	struct health_device_cond c[32];
	int n = health_devices_read(s, &h->dev, h->now, c, 32);
	for (int i = 0; i < n; i++) {
		int known = 0; /* the box's own condition (a twin off its port, a stopped box) already says its counts are wrong */
		for (int k = 0; k < h->n && !known; k++)
			known = h->seen[k] && h->c[k].socket == c[i].socket && h->c[k].box == c[i].stack &&
				!strcmp(h->c[k].unit, "iio") && h->c[k].kind != UNCORE_HEALTH_UNCOUNTED &&
				h->c[k].kind != UNCORE_HEALTH_DEVSTOPPED && h->c[k].kind != UNCORE_HEALTH_DEVMAP;
		if (!known)
			raise_cond(h, c[i].kind, c[i].socket, "iio", c[i].stack, c[i].ev, "%s", c[i].what);
	}
}

/* The energy counters the caller watches (health_energy.c): their conditions, the node's, on the domain. */
static void energy(struct health *h)
{
	const struct health_energy_cond *c;
	int n = health_energy_judge(&h->energy, &c);
	for (int i = 0; i < n; i++)
		raise_cond(h, c[i].kind, c[i].socket, c[i].unit, -1, -1, "%s", c[i].what);
}

int uncore_session_watch_energy_impl(uncore_session_t *s, const struct uncore_energy *e)
{
	struct health **hp = session_health(s);
	if (!*hp && !(*hp = calloc(1, sizeof(**hp))))
		return uc_err("out of memory");
	memset(&(*hp)->energy, 0, sizeof((*hp)->energy));
	(*hp)->energy.e = e;
	return 0;
}

/* Judge the read that just ended (rc: its result).  The read's own message, if any, is kept. */
/* The session's health, planned (what it judges, from the session's metrics and events): NULL out of memory */
static struct health *planned(uncore_session_t *s)
{
	struct health **hp = session_health(s);
	if (!*hp && !(*hp = calloc(1, sizeof(**hp))))
		return NULL;
	if (!(*hp)->planned)
		plan(s, *hp);
	return *hp;
}

void health_start(uncore_session_t *s)
{
	struct health *h = planned(s); /* (out of memory: planned at the first read, or judged never) */
	uncore_t *u = session_owner(s);
	if (h) /* (the devices' first window begins at the session's baselines, not at its first read) */
		health_devices_start(s, &h->dev, u->acc->ops->now_ns(u->acc));
}

void health_after_read(uncore_session_t *s, int rc)
{
	uncore_t *u = session_owner(s);
	char msg[1024];
	if (rc)
		snprintf(msg, sizeof(msg), "%s", uncore_error());
	struct health *h = planned(s); /* (at the start, as a rule: health_start) */
	if (!h)
		return;
	h->now = u->acc->ops->now_ns(u->acc);
	/* a read right after another (a stop after the last read) shows too little to end a condition */
	if (h->cap)
		memset(h->seen, session_window_ns(s, UNCORE_LAST_INTERVAL) < HEALTH_BRIEF_NS, (size_t)h->cap);
	frozen_dies(s, h);
	boxes(s, h);
	twins(s, h); /* first: a clock that disagrees with its twin is the twin condition (which of them is wrong?) */
	if (h->uclk) /* (before metrics: a clock its limits pin low is not the clock condition) */
		health_ufreq_read(u, &h->uf);
	metrics(s, h);
	resctrl(s, h);
	devices(s, h);
	energy(h);
	for (int i = 0; i < h->n;) /* what no longer shows is cleared */
		if (h->seen[i])
			i++;
		else {
			queue(h, &h->c[i], 0);
			h->c[i] = h->c[--h->n];
			h->seen[i] = h->seen[h->n];
		}
	if (rc)
		uc_err("%s", msg);
}

void health_free(uncore_session_t *s)
{
	struct health **hp = session_health(s);
	if (*hp) {
		free((*hp)->c);
		free((*hp)->seen);
		health_devices_free((*hp)->dev);
		health_ufreq_free((*hp)->uf);
		free(*hp);
		*hp = NULL;
	}
}

int uncore_session_health_impl(uncore_session_t *s, struct uncore_health *out, int max)
{
	struct health *h = *session_health(s);
	int n = h ? h->n : 0;
	for (int i = 0; i < n && i < max; i++)
		out[i] = h->c[i];
	return n;
}

int uncore_session_health_changes_impl(uncore_session_t *s, struct uncore_health *out, int max)
{
	struct health *h = *session_health(s);
	int n = h ? h->nq : 0;
	for (int i = 0; i < n && i < max; i++)
		out[i] = h->q[i];
	if (h)
		h->nq = 0;
	return n;
}

/* Conditions of a box make every value of it wrong; silent only its own event's.  resctrl's is the
 * node's: it does not say which value. */
unsigned uncore_session_event_health_impl(uncore_session_t *s, int ev, int socket, int box)
{
	struct health *h = *session_health(s);
	unsigned bits = 0;
	for (int i = 0; h && i < h->n; i++) {
		const struct uncore_health *c = &h->c[i];
		struct session_box_view v;
		if ((c->event >= 0 && c->event != ev) || (socket >= 0 && c->socket != socket) ||
		    c->kind == UNCORE_HEALTH_DEVSTOPPED) /* (the devices' counters stopped, not the port's) */
			continue;
		if (c->box < 0) { /* a whole socket's frozen or stopped: every value of the event there */
			if (c->socket >= 0 && (c->kind == UNCORE_HEALTH_FROZEN || c->kind == UNCORE_HEALTH_STOPPED) &&
			    !session_event_box(s, ev, c->socket, 0, &v))
				bits |= 1u << c->kind;
			continue;
		}
		for (int k = 0; !session_event_box(s, ev, c->socket, k, &v); k++)
			if (v.box == c->box && !strcmp(v.unit, c->unit) && (box < 0 || box == v.box))
				bits |= 1u << c->kind;
	}
	return bits;
}

unsigned uncore_session_metric_health_impl(uncore_session_t *s, int m, int socket, int box)
{
	const struct session_metric *sm = session_metric_get(s, m);
	unsigned bits = 0;
	if (!sm)
		return 0;
	const struct uc_metric *mt = &session_owner(s)->metrics[sm->metric];
	for (int i = 0; i < mt->x.nev; i++)
		bits |= uncore_session_event_health_impl(s, sm->ev[i], socket, box);
	return bits;
}

int uncore_session_device_check_impl(uncore_session_t *s, struct uncore_device_check *out, int max)
{
	struct health *h = *session_health(s);
	return health_devices_rows(h ? h->dev : NULL, out, max);
}
