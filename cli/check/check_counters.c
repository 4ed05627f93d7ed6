/*
 * The counter rows of `uncore check`, each in a session of its own after the memory one:
 * - clocks: the uncore and DRAM clocks lie in the range the part can run at;
 * - free-running against general-purpose counters: where a platform counts the same thing both ways
 *   (the IMC's DCLK on Ice Lake-SP, Sapphire and Emerald Rapids, each IIO port's inbound bytes from
 *   Skylake-SP on) they agree within 1 % per box, or one of them is mapped or counted wrong (Ice Lake-SP's
 *   reads and writes per memory controller: check_channels.c, under the generators' traffic);
 * - width: an IMC clock counter sampled with a period (preloaded with 2^width - period, uncore.h) wraps at
 *   its documented width, so that its count over the window is the clock's; a counter narrower than
 *   documented wraps elsewhere and its count is off by about 2^width.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../cli.h"
#include "util/guarded_read.h"

#define AGREE 0.01          /* free-running and general-purpose counts agree this closely, ... */
/* ... compared as rates, each over its own box's read times, so that boxes read apart do not matter; plus
 * what the counters of one box can count apart while a read takes them one after the other: the library
 * repeats a box read that took longer than 1 ms (session_priv.h SAMPLE_SLACK_NS), 1 ms at either end */
#define READ_SKEW_S 2e-3
#define AGREE_MIN 10000.0   /* ... once each has this many counts (fewer: rounding, or no traffic to compare) */
#define AGREE_BOXES 256     /* boxes a socket compares (more are left out) */
/* No uncore clock runs faster: the library's own bound for how often it samples (session_priv.h
 * MAX_CLOCK_HZ), used where Linux's intel_uncore_frequency gives no limit of the part's own. */
#define UNCORE_HZ_MAX 5e9
/* No DRAM clock runs faster: DDR5-8800 (JEDEC JESD79-5C's top bin) has a 4.4 GHz clock. */
#define DRAM_HZ_MAX 4.4e9
#define LIMIT_SLACK 1.02    /* a clock measured over a window may read a little above its limit */

/* The first of names the platform has, or NULL. */
static const char *event_of(struct check *c, const char *const names[])
{
	for (int i = 0; names[i]; i++)
		if (uncore_event_find(c->u, names[i]) >= 0)
			return names[i];
	return NULL;
}

static const char *const imc_clock[] = { "UNC_M_CLOCKTICKS", "UNC_M_DCLOCKTICKS", NULL };

/* A session counting specs over the check's window (NULL: one could not be added, *why says which). */
static uncore_session_t *count_window(struct check *c, const char *const specs[], int n, char *why, size_t len)
{
	uncore_session_t *s = NULL;
	if (uncore_session_new(c->u, &s))
		goto fail;
	for (int i = 0; i < n; i++)
		if (uncore_session_add(s, specs[i]) != i)
			goto fail;
	if (uncore_session_start(s) || cli_sleep(c->u, (uint64_t)(c->seconds * 1e9)) || uncore_session_stop(s) < 0)
		goto fail;
	return s;
fail:
	snprintf(why, len, "%s", uncore_error());
	uncore_session_free(s);
	return NULL;
}

/* The part's highest uncore clock: Linux's intel_uncore_frequency (MSR 0x620 bits 6:0 x 100 MHz, read at
 * its start) for the socket's die 0, else UNCORE_HZ_MAX; -1 with why when the file is there but refused (a
 * FIFO or a huge file planted below UNCORE_SYSROOT: read as the library reads its files, never waited on). */
static double uncore_hz_max(int sock, const char **from, char *why, size_t len)
{
	char path[160], line[32], reason[128], *end;
	struct stat st;
	const char *root = secure_getenv("UNCORE_SYSROOT"); /* as the library: not in a privileged process */
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/intel_uncore_frequency/package_%02d_die_00/initial_max_freq_khz",
		 root && *root ? root : "", sock);
	long khz = 0;
	if (!uc_read_first_line(path, line, sizeof(line), &st)) {
		khz = strtol(line, &end, 10);
	} else if (st.st_mode && (!S_ISREG(st.st_mode) || errno == EFBIG || errno == EOVERFLOW)) {
		int e = errno;
		snprintf(why, len, "cannot read %s: %s", path, uc_guarded_why(e, &st, UC_SYSFILE_MAX, sizeof(line), reason,
										 sizeof(reason)));
		return -1;
	}
	*from = khz > 0 ? "intel_uncore_frequency's initial_max_freq_khz" : "no uncore clock is faster";
	return khz > 0 ? khz * 1e3 : UNCORE_HZ_MAX;
}

/* The uncore and DRAM clocks of each socket: above 0 (counting) and at most the part's highest. */
static int clock_rows(struct check *c)
{
	static const char *const names[] = { "uncore_freq", "dram_freq" };
	for (int m = 0; m < 2; m++) {
		uncore_session_t *s = NULL;
		char check[96], exp[96], got[96], why[256] = "";
		int ok = uncore_metric_find(c->u, names[m]) >= 0 && !uncore_session_new(c->u, &s) &&
			 uncore_session_add_metric(s, names[m]) == 0 && !uncore_session_start(s) &&
			 !cli_sleep(c->u, (uint64_t)(c->seconds * 1e9)) && uncore_session_stop(s) >= 0;
		if (!ok)
			snprintf(why, sizeof(why), "%s", uncore_metric_find(c->u, names[m]) < 0 ? "the platform has no such metric"
											     : uncore_error());
		for (int k = 0; k < c->nsock; k++) {
			const char *from = "no DRAM clock is faster (DDR5-8800)";
			char bad[300];
			double max = m ? DRAM_HZ_MAX : uncore_hz_max(k, &from, bad, sizeof(bad)), v = NAN;
			snprintf(check, sizeof(check), "socket %d: %s clock in range", k, m ? "DRAM" : "uncore");
			snprintf(exp, sizeof(exp), "0 .. %.2f GHz", max / 1e9);
			if (max < 0) {
				verdict_add(c->t, V_SKIP, check, "-", "-", "%s", bad);
				continue;
			}
			if (!ok) {
				verdict_add(c->t, V_SKIP, check, exp, "-", "%s", why);
				continue;
			}
			uncore_session_metric_value(s, 0, k, -1, UNCORE_SINCE_START, &v); /* in GHz */
			snprintf(got, sizeof(got), "%.3f GHz", v);
			if (isnan(v) || v <= 0)
				verdict_add(c->t, V_FAIL, check, exp, isnan(v) ? "none" : got, "the clock counter does not count");
			else if (v * 1e9 > max * LIMIT_SLACK)
				verdict_add(c->t, V_FAIL, check, exp, got, "faster than the part can run (%s): a clock counter "
					    "counting the wrong event, or the wrong boxes", from);
			else
				verdict_add(c->t, V_PASS, check, exp, got, "%s", "");
		}
		uncore_session_free(s);
	}
	return 0;
}

/* The counts of a and b on each box over one window (the second of two), each as a rate over its own
 * box's read times, per socket (malloc'd); NULL with *why when they cannot be counted. */
typedef double box_rates[AGREE_BOXES][2]; /* a socket's: [box][event] */
static box_rates *agree_window(struct check *c, const char *a, const char *b, uint64_t *win, char *why, size_t len)
{
	box_rates *rate = calloc((size_t)c->nsock, sizeof(*rate));
	uint64_t (*t1)[AGREE_BOXES][2] = calloc((size_t)c->nsock, sizeof(*t1));
	uncore_session_t *s = NULL;
	uint64_t w = (uint64_t)(c->seconds * 1e9);
	int ok = rate && t1 && !uncore_session_new(c->u, &s) && uncore_session_add(s, a) == 0 && uncore_session_add(s, b) == 1 &&
		 !uncore_session_start(s) && !cli_sleep(c->u, w) && uncore_session_read(s) >= 0;
	for (int k = 0; ok && k < c->nsock; k++)
		for (int box = 0; box < uncore_session_event_boxes(s, 0, k) && box < AGREE_BOXES; box++)
			for (int e = 0; e < 2; e++)
				t1[k][box][e] = uncore_session_read_time_ns(s, e, k, box);
	ok = ok && !cli_sleep(c->u, w) && uncore_session_read(s) >= 0;
	for (int k = 0; ok && k < c->nsock; k++)
		for (int box = 0; box < uncore_session_event_boxes(s, 0, k) && box < AGREE_BOXES; box++)
			for (int e = 0; e < 2; e++) {
				uint64_t v = 0, t2 = uncore_session_read_time_ns(s, e, k, box);
				rate[k][box][e] = !uncore_session_interval_value(s, e, k, box, &v) && t2 > t1[k][box][e]
							  ? (double)v * 1e9 / (double)(t2 - t1[k][box][e]) : NAN;
			}
	if (!ok) {
		snprintf(why, len, "%s", rate && t1 ? uncore_error() : "out of memory");
		free(rate);
		rate = NULL;
	}
	*win = w;
	free(t1);
	uncore_session_free(s);
	return rate;
}

/* Each pair a[i], b[i] (b counting scale_b of a's units) agrees within AGREE on every box of each socket, box k
 * of b against the sum of a's boxes group k .. group k + group - 1 (group > 1: b counts for several of a's boxes,
 * ICX's free-running counters for a controller's three channels): a row per socket, over every pair, each pair
 * counted in a session of its own. */
static int agree_rows(struct check *c, const char *label, const char *const a[], const char *const b[], int npairs,
		      double scale_b, int group)
{
	char why[256] = "", check[96], exp[96], got[96];
	double worst[UC_CHECK_SOCKETS] = { 0 }, tol = AGREE;
	int compared[UC_CHECK_SOCKETS] = { 0 }, ran = 0;
	char what[UC_CHECK_SOCKETS][160];
	for (int i = 0; i < npairs; i++) {
		uint64_t win = 0;
		box_rates *rate = agree_window(c, a[i], b[i], &win, why, sizeof(why));
		if (!rate)
			continue;
		ran++;
		tol = AGREE + READ_SKEW_S * 1e9 / (double)win;
		for (int k = 0; k < c->nsock; k++)
			for (int box = 0; box < AGREE_BOXES / group; box++) {
				double x = 0, y = rate[k][box][1] * scale_b;
				for (int j = 0; j < group; j++)
					x += rate[k][box * group + j][0];
				double d = fabs(x - y) / fmax(x, y);
				if (isnan(x) || isnan(y) || (x * (double)win / 1e9 < AGREE_MIN && y * (double)win / 1e9 < AGREE_MIN))
					continue; /* no such box, or too few counts to compare to 1 % (one alone: they differ) */
				if (!compared[k]++ || d > worst[k]) {
					worst[k] = d;
					snprintf(what[k], sizeof(what[k]), "box %d: %s %.4g/s, %s %.4g/s (x %g: %.4g/s)", box, a[i],
						 x, b[i], rate[k][box][1], scale_b, y);
				}
			}
		free(rate);
	}
	for (int k = 0; k < c->nsock; k++) {
		snprintf(check, sizeof(check), "socket %d: %s", k, label);
		snprintf(exp, sizeof(exp), "within %.1f%% per box", 100 * tol);
		snprintf(got, sizeof(got), "worst %.2f%%", 100 * worst[k]);
		if (!ran)
			verdict_add(c->t, V_SKIP, check, exp, "-", "%s", why);
		else if (!compared[k])
			verdict_add(c->t, V_SKIP, check, exp, "-", "nothing counted to compare (fewer than %.0f counts a box)",
				    AGREE_MIN);
		else if (worst[k] > tol)
			verdict_add(c->t, V_FAIL, check, exp, got, "%s: a counter mapped to the wrong port or box, or counting "
				    "the wrong event", what[k]);
		else
			verdict_add(c->t, V_PASS, check, exp, got, "%s", "");
	}
	return 0;
}

/* Free-running against general-purpose counters, where the platform has both for one quantity. */
static int freerun_rows(struct check *c)
{
	/* the IMC's free-running DCLK: SPR and EMR name it UNC_M_DCLK_FREERUN, ICX UNC_M_CLOCKTICKS_FREERUN (one a
	 * controller of three channels; the channels' clocks are one clock, so box i of each compares) */
	static const char *const dclk_names[] = { "UNC_M_DCLK_FREERUN", "UNC_M_CLOCKTICKS_FREERUN", NULL };
	const char *fr_dclk[] = { event_of(c, dclk_names) }, *gp[] = { event_of(c, imc_clock) };
	if (gp[0] && fr_dclk[0])
		agree_rows(c, "IMC DCLK, free-running = general", gp, fr_dclk, 1, 1, 1);
	else
		verdict_add(c->t, V_SKIP, "IMC free-running = general counters", "within 1% per box", "-",
			    "the platform has no IMC free-running counter a general one also counts");
	double fr_bytes = uncore_iio_freerun_bytes(c->u);
	if (uncore_event_find(c->u, "UNC_IIO_BANDWIDTH_IN.PART0_FREERUN") < 0 ||
	    uncore_event_find(c->u, "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART0") < 0 || !fr_bytes)
		return verdict_add(c->t, V_SKIP, "IIO ports, free-running = general counters", "within 1% per box", "-",
				   "the platform has no IIO free-running port counters of a known unit");
	char names[2][8][64];
	const char *general[8], *freerun[8];
	for (int port = 0; port < 8; port++) {
		snprintf(names[0][port], sizeof(names[0][port]), "UNC_IIO_DATA_REQ_OF_CPU.MEM_WRITE.PART%d", port);
		snprintf(names[1][port], sizeof(names[1][port]), "UNC_IIO_BANDWIDTH_IN.PART%d_FREERUN", port);
		general[port] = names[0][port];
		freerun[port] = names[1][port];
	}
	return agree_rows(c, "IIO ports in, free-running = general", general, freerun, 8, fr_bytes / 4, 1);
}

/* A sampled IMC clock counter on each box: its count over the window is at least the period (it wrapped)
 * and at most the clock's count then, not about 2^width more. */
static int width_rows(struct check *c)
{
	const char *clk = event_of(c, imc_clock);
	char spec[96], why[256] = "", check[96], exp[96], got[96];
	const char *plain[] = { clk };
	uncore_session_t *s = clk ? count_window(c, plain, 1, why, sizeof(why)) : NULL, *w = NULL;
	double rate = 0, win = s ? (double)uncore_session_elapsed_ns(s) / 1e9 : 0; /* the fastest box's clock, a second */
	for (int k = 0; s && win > 0 && k < c->nsock; k++)
		for (int box = 0; box < uncore_session_event_boxes(s, 0, k); box++) {
			uint64_t v = 0;
			if (!uncore_session_value(s, 0, k, box, &v) && v / win > rate)
				rate = (double)v / win;
		}
	uncore_session_free(s);
	if (!clk)
		snprintf(why, sizeof(why), "the platform has no IMC clock event on a general counter");
	else if (rate > 0) { /* the period: half the window's clocks, so that each counter wraps mid-window */
		snprintf(spec, sizeof(spec), "%s:sample=%.0f", clk, rate * c->seconds / 2);
		const char *sampled[] = { spec };
		w = count_window(c, sampled, 1, why, sizeof(why));
	} else if (!*why)
		snprintf(why, sizeof(why), "the IMC clock did not count");
	/* at least half the period (the first overflow freezes every box of the die where the platform freezes
	 * globally, so a box programmed a little later stops a little short of its own); at most the clock's
	 * count over the sampled session's own window, 10 % over; the wrong width is off by about 2^32 */
	double period = rate * c->seconds / 2, lo = period / 2, hi = rate * (w ? (double)uncore_session_elapsed_ns(w) / 1e9 : 0) * 1.1;
	for (int k = 0; k < c->nsock; k++) {
		uint64_t v = 0;
		snprintf(check, sizeof(check), "socket %d: IMC counters wrap at their width", k);
		snprintf(exp, sizeof(exp), "%.3g .. %.3g counts", lo, hi);
		if (!w) {
			verdict_add(c->t, V_SKIP, check, exp, "-", "%s", why);
			continue;
		}
		int bad = -1;
		unsigned width = 0; /* the library's health saw a wrap where the documented width has none */
		for (int box = 0; bad < 0 && box < uncore_session_event_boxes(w, 0, k); box++)
			if ((width = uncore_session_event_health(w, 0, k, box) & 1u << UNCORE_HEALTH_WIDTH) ||
			    (!uncore_session_value(w, 0, k, box, &v) && ((double)v < lo || (double)v > hi)))
				bad = box;
		snprintf(got, sizeof(got), width ? "a wrap" : "%.3g counts", (double)v);
		if (bad >= 0 && width)
			verdict_add(c->t, V_FAIL, check, exp, got, "box %d, preloaded 2^width - %.0f: it wrapped in %.2f s where "
				    "the documented width cannot (health: width): it wraps at another width than documented",
				    bad, period, (double)uncore_session_elapsed_ns(w) / 1e9);
		else if (bad >= 0)
			verdict_add(c->t, V_FAIL, check, exp, got, "box %d, preloaded 2^width - %.0f, counted %.3g in %.2f s: it "
				    "wraps at another width than documented (about 2^%.0f off)", bad, period, (double)v,
				    (double)uncore_session_elapsed_ns(w) / 1e9,
				    v > 0 ? log2((double)v) : 0);
		else
			verdict_add(c->t, V_PASS, check, exp, got, "%s", "");
	}
	uncore_session_free(w);
	return 0;
}

int check_counters_rows(struct check *c)
{
	return clock_rows(c) || cli_stopped() || freerun_rows(c) || cli_stopped() || width_rows(c);
}
