/* Helpers shared by the tests that run sessions on the simulator. */
#ifndef TEST_SIM_HELPERS_H
#define TEST_SIM_HELPERS_H

#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>
#include "harness.h"
#include "uncore.h"
#include "open/uncore_priv.h"
#include "sim_kernel/sim_kernel.h"
#include "sim/sim.h"
#include "perf/perf_pmus.h"

static inline uncore_t *open_sim(const char *spec)
{
	uncore_t *u = NULL;
	int rc = uncore_open(spec, &u);
	if (rc)
		fprintf(stderr, "open %s: %s\n", spec, uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	return u;
}

/* Accumulated value of an event on a socket (-1: all). */
/* How many boxes of the unit named unit socket has (0: no such unit). */
static inline int unit_boxes(uncore_t *u, const char *unit, int socket)
{
	for (int i = 0; i < uncore_num_units(u); i++) {
		struct uncore_unit_info ui;
		if (!uncore_unit_info(u, i, &ui) && !strcmp(ui.name, unit))
			return uncore_unit_boxes(u, i, socket);
	}
	return 0;
}

/* The unit uncore_freq is counted on ("cha", "cbo"), or NULL. */
static inline const char *clock_unit(uncore_t *u)
{
	struct uncore_metric_info mi;
	struct uncore_unit_info ui;
	static char name[16];
	int m = uncore_metric_find(u, "uncore_freq");
	if (m < 0 || uncore_metric_info(u, m, &mi) || mi.box_unit < 0 || uncore_unit_info(u, mi.box_unit, &ui))
		return NULL;
	snprintf(name, sizeof(name), "%s", ui.name);
	return name;
}

static inline uint64_t val(uncore_session_t *s, int ev, int socket)
{
	uint64_t v = ~0ull;
	CU_ASSERT(uncore_session_value(s, ev, socket, -1, &v) == 0);
	return v;
}

/* The box of a unit type by socket and unit id, or NULL. */
static inline const struct box *box_named(const uncore_t *u, const char *type, int socket, int id)
{
	for (int i = 0; i < u->nboxes; i++)
		if (!strcmp(u->boxes[i].t->name, type) && u->boxes[i].socket == socket && u->boxes[i].unit_id == id)
			return &u->boxes[i];
	return NULL;
}

/* Another agent (a perf user, a second tool) reprograms every box of unit on socket at the simulator's instant at
 * (the fault agent: its event, 0x3f, put on each counter at the box's first access from then): how many boxes. */
static inline int sim_take_boxes(struct sim *sim, const char *unit, int socket, uint64_t at)
{
	int n = 0;
	for (int i = 0; i < sim->nboxes; i++) {
		struct sim_box *b = &sim->boxes[i];
		if (!strcmp(b->u->name, unit) && b->socket == socket) {
			b->fault_from_ns = at;
			b->agent = 1;
			n++;
		}
	}
	sim_rate_changed(sim);
	return n;
}

/* A value against the simulator's truth: within 0.5 %, named on stderr when not. */
static inline int check_truth(const char *what, double got, double want)
{
	int ok = fabs(got - want) <= 0.005 * fabs(want) && !isnan(got);
	if (!ok)
		fprintf(stderr, "%s: %.6g, truth %.6g\n", what, got, want);
	CU_ASSERT(ok);
	return ok;
}

/* A started session counting specs[0..n-1], which must all be accepted, as events 0..n-1. */
static inline uncore_session_t *start_session(uncore_t *u, const char *const *specs, int n)
{
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	for (int i = 0; i < n; i++) {
		int rc = uncore_session_add(s, specs[i]);
		if (rc < 0)
			fprintf(stderr, "%s: %s\n", specs[i], uncore_error());
		CU_ASSERT_FATAL(rc == i);
	}
	int rc = uncore_session_start(s);
	if (rc)
		fprintf(stderr, "starting the session: %s\n", uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	return s;
}

static inline int warned(const char *what)
{
	int ok = strstr(uncore_warnings(), what) != NULL;
	if (!ok)
		fprintf(stderr, "no warning '%s' in: %s\n", what, uncore_warnings());
	return ok;
}

/* A count between two reads: its window began between the first read call's ends and closed between the
 * second's (s0, s1, r0, r1: the library's clock around each), so it is within rate times the shortest and the
 * longest such window, 0.5 % of slack besides (a loaded machine stretches the calls, not the count: no tolerance
 * taken from wall-clock luck). */
static inline int within_window(double count, double rate, uint64_t s0, uint64_t s1, uint64_t r0, uint64_t r1)
{
	double lo = rate * (double)(r0 - s1) / 1e9 * 0.995, hi = rate * (double)(r1 - s0) / 1e9 * 1.005;
	if (count >= lo && count <= hi)
		return 1;
	fprintf(stderr, "count %.6g outside %.6g .. %.6g (rate %.6g over %.3f .. %.3f ms)\n", count, lo, hi, rate,
		(double)(r0 - s1) / 1e6, (double)(r1 - s0) / 1e6);
	return 0;
}

/* One session counting spec for a moment; returns what start returned. */
static inline int count_once(uncore_t *u, const char *spec)
{
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT_FATAL(uncore_session_add(s, spec) >= 0);
	int rc = uncore_session_start(s);
	if (!rc) {
		uncore_sleep_ns(u, 20000000);
		CU_ASSERT(uncore_session_stop(s) == 0);
	}
	uncore_session_free(s);
	return rc;
}

/* Files (their buffers, filled later) removed when the test program exits, whatever ended it: a fatal
 * assertion leaves a test before its own cleanup.  A forked child leaves by _exit, untouched. */
#define EXIT_FILES 4
static inline const char **exit_files(void)
{
	static const char *files[EXIT_FILES];
	return files;
}

static inline void unlink_exit_files(void)
{
	for (int i = 0; i < EXIT_FILES; i++)
		if (exit_files()[i] && exit_files()[i][0])
			unlink(exit_files()[i]);
}

/* The process that set them: a forked child killed by a test leaves them alone. */
static inline pid_t *exit_files_owner(void)
{
	static pid_t owner;
	return &owner;
}

/* A child the owner runs now (0: none): on a signal it is killed first, as it would write the files anew. */
static inline volatile pid_t *exit_files_child(void)
{
	static volatile pid_t child;
	return &child;
}

/* SIGTERM, SIGINT or SIGHUP (a time limit's kill, ^C) removes them too, then ends by that signal:
 * kill, waitpid, unlink, getpid, signal and raise are async-signal-safe. */
static inline void unlink_exit_files_on_signal(int sig)
{
	if (getpid() == *exit_files_owner()) {
		pid_t child = *exit_files_child();
		if (child > 0 && !kill(child, SIGKILL))
			waitpid(child, NULL, 0);
		unlink_exit_files();
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static inline void remove_at_exit(const char *a, const char *b)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	exit_files()[0] = a;
	exit_files()[1] = b;
	*exit_files_owner() = getpid();
	atexit(unlink_exit_files);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], unlink_exit_files_on_signal);
}

/* Two more for remove_at_exit to remove. */
static inline void remove_also_at_exit(const char *c, const char *d)
{
	exit_files()[2] = c;
	exit_files()[3] = d;
}

/* The records in a claims file, as its header counts them (-1: no file or no header). */
static inline int claims_records(const char *path)
{
	struct {
		char magic[8];
		uint32_t n, rec_size;
	} h;
	FILE *f = fopen(path, "rb");
	int n = f && fread(&h, sizeof(h), 1, f) == 1 ? (int)h.n : -1;
	if (f)
		fclose(f);
	return n;
}

/* Another process that takes the lock of a claims file and keeps it until lock_release(); its pid. */
static inline pid_t lock_hold(const char *path)
{
	int pipefd[2];
	char ok = 0;
	CU_ASSERT_FATAL(pipe(pipefd) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open(path, O_RDONLY);
		ok = fd >= 0 && !flock(fd, LOCK_EX);
		if (write(pipefd[1], &ok, 1) != 1)
			_exit(1);
		sleep(60);
		_exit(0);
	}
	CU_ASSERT(read(pipefd[0], &ok, 1) == 1 && ok);
	close(pipefd[0]);
	close(pipefd[1]);
	return pid;
}

static inline void lock_release(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* After a session is freed: every register as found, nothing outside PMON, no write while counting. */
#define assert_left_as_found(sim) assert_left_as_found_at(sim, __LINE__)
static inline void assert_left_as_found_at(struct sim *sim, int line)
{
	if (!sim)
		return;
	char why[128];
	CU_ASSERT_EQUAL(sim_changed_registers(sim, why, sizeof(why)), 0);
	if (why[0])
		fprintf(stderr, "not restored (line %d): %s\n", line, why);
	CU_ASSERT_EQUAL(sim->bad_accesses, 0);
	CU_ASSERT_EQUAL(sim->unfrozen_ctl_writes, 0);
}

/* End a session and the uncore, checking the simulated registers were left as found. */
static inline void finish(uncore_t *u, uncore_session_t *s)
{
	struct sim *sim = sim_of(u->acc);
	uncore_session_free(s);
	assert_left_as_found(sim);
	uncore_close(u);
}

/* After a session on the perf backend is freed: the simulated kernel has no event of it open (the kernel
 * owns the registers: it is the one to keep or reset them). */
static inline void assert_perf_closed(const uncore_t *u)
{
	int n = sim_kernel_open_events(u->perf->k);
	if (n)
		fprintf(stderr, "%d perf events left open\n", n);
	CU_ASSERT_EQUAL(n, 0);
}

/* End a session and the uncore on either backend: the register backends leave every register as found,
 * the perf backend leaves no event open. */
static inline void close_checked(uncore_t *u, uncore_session_t *s, struct sim *sim)
{
	uncore_session_free(s);
	if (u->perf)
		assert_perf_closed(u);
	else
		assert_left_as_found(sim);
	uncore_close(u);
}

/* The index of the unit named name (a fatal failure when there is none). */
static inline int unit_named(const uncore_t *u, const char *name)
{
	struct uncore_unit_info ui;
	for (int i = 0; i < uncore_num_units(u); i++)
		if (uncore_unit_info(u, i, &ui) == 0 && !strcmp(ui.name, name))
			return i;
	CU_FAIL_FATAL("no such unit");
	return -1;
}

/* A count or metric against the simulator's truth, within 0.5 % (a zero truth never passes: it would
 * hide an event that counts nothing); a failure prints its own line. */
static inline int near_truth(const char *what, double got, double want)
{
	int ok = fabs(got - want) <= 0.005 * fabs(want) && want != 0;
	if (!ok)
		fprintf(stderr, "%s: %.6g, truth %.6g\n", what, got, want);
	CU_ASSERT(ok);
	return ok;
}

/* A run of the default set (uncore_select) on a simulated machine, each change of its health handed over:
 * what test_health, test_health_unseen and test_health_devices watch. */
struct health_run {
	int (*add)(uncore_t *u, uncore_session_t *s, void *arg); /* beside the default set (NULL: nothing): 0, or -1 */
	void (*change)(void *arg, const struct uncore_health *h); /* each change a read reports, in order */
	void (*end)(uncore_t *u, uncore_session_t *s, void *arg); /* the session at the end (NULL: nothing) */
	int assert_reads; /* each read asserted to succeed (else only counted) */
	int reads, fails; /* the reads made, and those that failed */
	char first[400];  /* the first condition raised, "name: what", for messages */
};

/* h's run on spec, read every step_ns for n reads (arg given to its calls): 0, or -1 with the reason on stderr
 * when it does not start. */
static inline int health_run(const char *spec, uint64_t step_ns, int n, struct health_run *h, void *arg)
{
	enum { MAX_CHANGES = 512 };
	uncore_t *u = NULL;
	uncore_session_t *s = NULL;
	struct uncore_series *series = NULL;
	struct uncore_selection sel = { 0 };
	struct uncore_health *ch = calloc(MAX_CHANGES, sizeof(*ch));
	char notice[512];
	int ns, rc = 0;
	h->reads = h->fails = 0;
	h->first[0] = 0;
	if (!ch || uncore_open(spec, &u) || uncore_session_new(u, &s) ||
	    uncore_select(u, s, &sel, &series, &ns, notice, sizeof(notice)) || (h->add && h->add(u, s, arg)) ||
	    uncore_session_start(s)) {
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
		rc = -1;
	}
	for (int i = 0; i < n && !rc; i++) {
		uncore_sleep_ns(u, step_ns);
		int failed = uncore_session_read(s) != 0;
		if (h->assert_reads)
			CU_ASSERT(!failed);
		h->fails += failed;
		h->reads++;
		int k = uncore_session_health_changes(s, ch, MAX_CHANGES);
		for (int j = 0; j < k && j < MAX_CHANGES; j++) {
			if (ch[j].raised && !h->first[0])
				snprintf(h->first, sizeof(h->first), "%s: %s", uncore_health_name(ch[j].kind), ch[j].what);
			h->change(arg, &ch[j]);
		}
	}
	if (!rc && h->end)
		h->end(u, s, arg);
	free(ch);
	free(series);
	uncore_session_free(s);
	uncore_close(u);
	return rc;
}

#endif
