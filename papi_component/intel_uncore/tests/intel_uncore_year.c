/*
 * intel_uncore through a simulated year (issue 99 point 3): a PAPI program on sim:skx's manual clock
 * (UNCORE_BACKEND=sim:skx,clock=manual,prewrap=120,changes=FILE,profile=... as tests/test_papi_year.sh gives it),
 * its time passed through the simulator's changes file (argv[1], "clock +S": the component's library runs in
 * this process, on the clock that file moves).  All year one EventSet counts the iMC's reads of both sockets, a
 * CHA's clock (an MSR box read on CPU 0) and socket 1's reads named by CPU 19, read once a simulated day: the
 * 48-bit counters wrap (prewrap=120, the CHA's clock every two days).  All year a second one counts socket 0's
 * package and DRAM energy, read every minute as the component asks (within the RAPL counters' wrap time at the
 * part's full power, 80 s): the 32-bit counters wrap (the package's every 36 h at 2 W, DRAM's every two days).
 * argv[2] EventSets come and go (created, two events added, started, 0.1 s counted, stopped, cleaned up,
 * destroyed), spread over the year, each checked.  The node changes now and then (CPUs offline and back, CPU 19
 * among them, the clock limits, a memory channel emptied and filled, a device removed and added, the uncore PMU
 * driver reloaded: on direct access nothing reads its type numbers, and it is not said, but must disturb
 * nothing).  Checked here: every total equals the profile's truth over the year (CPU 19's event over the time it
 * was there), the energy's too, each EventSet's counts its 0.1 s, RSS and open files flat after the warm-up.  PAPI runs one EventSet of a component at a time in a thread: the year's and the energy's each have a
 * thread of their own, which does what this one asks and nothing else (one PAPI call at a time).  The test checks the warnings (stderr, PAPI_VERBOSE): each change said once, CPU 19's event left
 * out once, no error.  Prints each failed check, "changes: N" and "N passed, N failed" and PASSED/FAILED.
 */
#define _DEFAULT_SOURCE
#include <math.h>
#include <papi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "year_proc.h" /* (tests/: RSS and open files, as the daemons' years count them) */

#define DAYS 365
#define DAY 86400.0
#define WARM (DAYS / 20)       /* the warm-up: RSS and open files from then on */
#define LIFE_S 0.1             /* what each coming and going EventSet counts */
#define ENERGY_STEP 60.0       /* the energy's reads' interval: at most 70 s with the EventSets' 10 s at a day's start */

static int passed, failed;
static const char *changes;
static double now_s;           /* the simulated time passed (the clock lines written) */

static void ok(int c, const char *fmt, const char *what, double got, double want)
{
	if (c)
		passed++;
	else if (failed++ < 20) {
		printf("FAIL: ");
		printf(fmt, what, got, want);
		printf("\n");
	}
}

/* a line appended to the changes file, there when the component next looks (kept open: the year writes some
 * 600,000, a clock line before each of the energy's reads) */
static void line(const char *s)
{
	static FILE *f;
	if (!f)
		f = fopen(changes, "a");
	if (!f || fputs(s, f) < 0 || fflush(f)) {
		printf("FAIL: cannot append to %s\nFAILED\n", changes);
		exit(1);
	}
}

/* s seconds pass on the simulator's clock (made at the component's next check: the next PAPI call) */
static void pass(double s)
{
	char buf[64];
	snprintf(buf, sizeof(buf), "clock +%.3f\n", s);
	line(buf);
	now_s += s;
}

static void near(const char *what, double got, double want, double tol)
{
	printf("%s: %.0f, the truth %.0f (within %.0f)\n", what, got, want, tol);
	ok(fabs(got - want) <= tol, "%s: %.0f, the truth %.0f", what, got, want);
}

static int eventset(const char *const *names, int n)
{
	int es = PAPI_NULL, rc;
	if ((rc = PAPI_create_eventset(&es)) != PAPI_OK)
		return printf("FAIL: PAPI_create_eventset: %s\n", PAPI_strerror(rc)), PAPI_NULL;
	for (int i = 0; i < n; i++)
		if ((rc = PAPI_add_named_event(es, names[i])) != PAPI_OK)
			return printf("FAIL: adding %s: %s\n", names[i], PAPI_strerror(rc)), PAPI_NULL;
	return es;
}

/* A thread that owns an EventSet: it runs the function it is given, one at a time, while the main thread waits */
struct worker {
	pthread_t t;
	pthread_mutex_t m;
	pthread_cond_t c;
	void (*fn)(void);
	int quit;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	pthread_mutex_lock(&w->m);
	for (;;) {
		while (!w->fn && !w->quit)
			pthread_cond_wait(&w->c, &w->m);
		if (!w->fn)
			break;
		w->fn();
		w->fn = NULL;
		pthread_cond_broadcast(&w->c);
	}
	pthread_mutex_unlock(&w->m);
	return NULL;
}

static void on(struct worker *w, void (*fn)(void))
{
	pthread_mutex_lock(&w->m);
	w->fn = fn;
	pthread_cond_broadcast(&w->c);
	while (w->fn)
		pthread_cond_wait(&w->c, &w->m);
	pthread_mutex_unlock(&w->m);
}

static void worker_start(struct worker *w)
{
	pthread_mutex_init(&w->m, NULL);
	pthread_cond_init(&w->c, NULL);
	if (pthread_create(&w->t, NULL, work, w)) {
		printf("FAIL: pthread_create\nFAILED\n");
		exit(1);
	}
}

static void worker_end(struct worker *w)
{
	pthread_mutex_lock(&w->m);
	w->quit = 1;
	pthread_cond_broadcast(&w->c);
	pthread_mutex_unlock(&w->m);
	pthread_join(w->t, NULL);
}

/* The node's changes of the year: on day d (before its read) the lines; each said once but the PMUs' reload */
static const struct { int day; const char *lines; int said; } node[] = {
	{ 6, "cpu 7 offline\n", 1 },                 /* in the warm-up: what the first change builds once (the device map) */
	{ 9, "cpu 7 online\n", 1 },
	{ 30, "cpu 0 offline\n", 1 },                 /* the CHA's CPU: read on another of socket 0's */
	{ 45, "cpu 0 online\n", 1 },
	{ 60, "cpu 19 offline\n", 1 },                /* the year's fourth event goes: kept at its count */
	{ 90, "cpu 19 online\n", 1 },                 /* ... and counts again */
	{ 100, "device 0000:16:00.0 remove\n", 1 },   /* a device alone in its group (tests/year.h year_device's) */
	{ 120, "ufreq 800 1800\n", 1 },
	{ 131, "device 0000:16:00.0 add\n", 1 },
	{ 150, "dimms 011111/111111\n", 1 },          /* socket 0's first channel emptied: its reads on the others */
	{ 180, "dimms 111111/111111\n", 1 },
	{ 200, "cpu 5 offline\nufreq 1000 2000\n", 1 },
	{ 220, "cpu 5 online\n", 1 },
	{ 250, "pmu reload\n", 0 },
};
#define NCHANGES (int)(sizeof(node) / sizeof(node[0]))

static const char *const year_names[] = {
	"intel_uncore:::UNC_M_CAS_COUNT.RD:socket=0",
	"intel_uncore:::UNC_M_CAS_COUNT.RD:socket=1",
	"intel_uncore:::UNC_CHA_CLOCKTICKS:socket=0:box=0",
	"intel_uncore:::UNC_M_CAS_COUNT.RD:cpu=19",
};
static const double year_rate[] = { 1e8, 2e8, 1.6e9, 2e8 }; /* 6.4e9 and 12.8e9 B/s of reads, 1.6 GHz */
static const char *const life_names[] = { "intel_uncore:::UNC_M_CAS_COUNT.RD:socket=1", "intel_uncore:::mem_read_bytes:socket=0" };
static const double life_rate[] = { 2e8, 6.4e9 };
static const char *const energy_names[] = { "intel_uncore:::energy_pkg:socket=0", "intel_uncore:::energy_dram:socket=0" };
static const double energy_watts[] = { 2, 0.3 + 0.005 * 9.6 }; /* the profile's: DRAM's idle and 9.6 GB/s */

static int year = PAPI_NULL, energy = PAPI_NULL, rc_year, rc_energy;
static long long v[4], e[2];

static void year_start(void)
{
	year = eventset(year_names, 4);
	rc_year = year == PAPI_NULL ? PAPI_EINVAL : PAPI_start(year);
}
static void year_read(void) { rc_year = PAPI_read(year, v); }
static void year_stop(void)
{
	rc_year = PAPI_stop(year, v);
	PAPI_cleanup_eventset(year);
	PAPI_destroy_eventset(&year);
	PAPI_unregister_thread();
}
static void energy_start(void)
{
	energy = eventset(energy_names, 2);
	rc_energy = energy == PAPI_NULL ? PAPI_EINVAL : PAPI_start(energy);
}
static void energy_read(void) { rc_energy = PAPI_read(energy, e); }
static void energy_stop(void)
{
	rc_energy = PAPI_stop(energy, e);
	PAPI_cleanup_eventset(energy);
	PAPI_destroy_eventset(&energy);
	PAPI_unregister_thread();
}

static unsigned long thread_id(void) { return (unsigned long)pthread_self(); }

int main(int argc, char **argv)
{
	long long life_sum[2] = { 0, 0 };
	struct worker wy = { 0 }, we = { 0 };
	int lives = argc == 3 ? atoi(argv[2]) : 0, lived = 0, life_bad = 0, reads = 0;
	if (argc != 3 || lives < 0) {
		fprintf(stderr, "usage: %s CHANGES_FILE LIFECYCLES\n", argv[0]);
		return 2;
	}
	changes = argv[1];
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT || PAPI_thread_init(thread_id) != PAPI_OK) {
		printf("FAIL: PAPI init\nFAILED\n");
		return 1;
	}
	worker_start(&wy);
	worker_start(&we);
	on(&wy, year_start);
	on(&we, energy_start);
	if (rc_year != PAPI_OK || rc_energy != PAPI_OK) {
		printf("FAIL: the year's EventSets: %s, %s\nFAILED\n", PAPI_strerror(rc_year), PAPI_strerror(rc_energy));
		return 1;
	}
	double gone_from = 0, gone_s = 0;
	long warm_peak = 0, lo = 0, hi = 0, end_rss = 0;
	int fds_warm = 0, c = 0;
	for (int d = 0; d < DAYS; d++) {
		double day_start = now_s;
		/* the day's EventSets coming and going */
		int today = (int)((long long)lives * (d + 1) / DAYS - (long long)lives * d / DAYS);
		for (int k = 0; k < today; k++, lived++) {
			long long lv[2];
			int es = eventset(life_names, 2), rc;
			if (es == PAPI_NULL || (rc = PAPI_start(es)) != PAPI_OK) {
				printf("FAIL: EventSet %d's start\nFAILED\n", lived);
				return 1;
			}
			pass(LIFE_S);
			if ((rc = PAPI_stop(es, lv)) != PAPI_OK || PAPI_cleanup_eventset(es) != PAPI_OK ||
			    PAPI_destroy_eventset(&es) != PAPI_OK) {
				printf("FAIL: EventSet %d's stop, cleanup or destroy: %s\nFAILED\n", lived, PAPI_strerror(rc));
				return 1;
			}
			for (int i = 0; i < 2; i++) {
				/* a count for each of the socket's 6 channels at the start and at the stop */
				double want = life_rate[i] * LIFE_S, tol = (i ? 64 : 1) * 12;
				if (fabs((double)lv[i] - want) > tol && life_bad++ < 3)
					printf("FAIL: EventSet %d (day %d): %s = %lld, the truth %.0f\n", lived, d, life_names[i], lv[i], want);
				life_sum[i] += lv[i];
			}
			if (k % 100 == 99 && (on(&we, energy_read), rc_energy) != PAPI_OK && failed++ < 20)
				printf("FAIL: energy read on day %d: %s\n", d, PAPI_strerror(rc_energy));
		}
		/* the rest of the day: the energy read every ENERGY_STEP */
		while (now_s + ENERGY_STEP < day_start + DAY) {
			pass(ENERGY_STEP);
			on(&we, energy_read);
			if (rc_energy != PAPI_OK && failed++ < 20)
				printf("FAIL: energy read on day %d: %s\n", d, PAPI_strerror(rc_energy));
		}
		double rest = day_start + DAY - now_s;
		pass(rest);
		for (; c < NCHANGES && node[c].day == d; c++)
			line(node[c].lines);
		on(&wy, year_read);
		reads++;
		if (rc_year != PAPI_OK && failed++ < 20)
			printf("FAIL: the year's read on day %d: %s\n", d, PAPI_strerror(rc_year));
		/* CPU 19's event: counted up to the read that saw it go, again from the read that saw it come */
		if (d == 60)
			gone_from = now_s;
		if (d == 90)
			gone_s = now_s - gone_from;
		long rss = year_rss_kb();
		if (d < WARM && rss > warm_peak)
			warm_peak = rss;
		if (d >= WARM / 2 && d < WARM) {
			lo = !lo || rss < lo ? rss : lo;
			hi = rss > hi ? rss : hi;
		}
		if (d == WARM)
			fds_warm = year_fds();
		end_rss = rss;
	}
	on(&wy, year_stop);
	worker_end(&wy);
	if (rc_year != PAPI_OK)
		printf("FAIL: the year's stop: %s\n", PAPI_strerror(rc_year)), failed++;
	on(&we, energy_stop); /* (started with the year, read last ENERGY_STEP or less ago) */
	worker_end(&we);
	if (rc_energy != PAPI_OK)
		printf("FAIL: energy stop: %s\n", PAPI_strerror(rc_energy)), failed++;
	for (int i = 0; i < 2; i++) /* two units of the counter (at most 2^-14 J): the wraps and the changes lose none */
		near(energy_names[i], (double)e[i], energy_watts[i] * 1e9 * now_s, 1.3e5);
	reads++;
	/* a count for each box at each read and each plan (the changes) */
	double tol = 12.0 * (reads + NCHANGES + 2);
	for (int i = 0; i < 4; i++)
		near(year_names[i], (double)v[i], year_rate[i] * (i == 3 ? now_s - gone_s : now_s), tol);
	ok(life_bad == 0, "%s: %.0f EventSets of %.0f counted other than their 0.1 s", "coming and going", life_bad, lived);
	for (int i = 0; i < 2; i++)
		near(life_names[i], (double)life_sum[i], life_rate[i] * LIFE_S * lived, (i ? 64 : 1) * 12.0 * lived);
	long noise = 2 * (hi - lo), per = (long)(4.0 * lived / 1024), room = noise > per ? noise : per;
	printf("%d EventSets came and went; %d reads over %.0f days; RSS %ld kB at most over the warm-up, %ld kB at the "
	       "end (bound %ld: the noise %ld, 4 B an EventSet %ld)\n", lived, reads, now_s / DAY, warm_peak, end_rss,
	       warm_peak + room, noise, per);
	ok(end_rss <= warm_peak + room, "%s: %.0f kB, the bound %.0f", "RSS at the end", end_rss, warm_peak + room);
	int fds = year_fds();
	printf("open files %d after the warm-up, %d at the end\n", fds_warm, fds);
	ok(fds == fds_warm, "%s: %.0f, after the warm-up %.0f", "open files at the end", fds, fds_warm);
	PAPI_shutdown();
	int said = 0;
	for (int i = 0; i < NCHANGES; i++)
		said += node[i].said;
	printf("changes: %d\n%d passed, %d failed\n%s\n", said, passed, failed, failed ? "FAILED" : "PASSED");
	return failed != 0;
}
