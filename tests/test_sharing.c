/*
 * Sessions sharing boxes: within one handle, and across processes on a
 * simulator shared through a file (sim:<p>,shared=FILE) -- a box is
 * programmed once, later sessions attach without writing or take free
 * counters, nobody resets another's counts, a true clash is refused, and the
 * last session to leave restores the registers (also after a holder died).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sim_helpers.h"

/* Truth of UNC_M_CAS_COUNT.RD on socket 0 of the default profile, per second. */
static double rd_per_s(uncore_t *u) { return sim_of(u->acc)->prof.mem_read_bps[0] / 64; }
/* ... and of UNC_M_CAS_COUNT.WR. */
static double wr_per_s(uncore_t *u) { return sim_of(u->acc)->prof.mem_write_bps[0] / 64; }

static int near(double got, double want, double tol)
{
	int ok = got >= want * (1 - tol) && got <= want * (1 + tol);
	if (!ok)
		fprintf(stderr, "got %.6g, want %.6g\n", got, want);
	return ok;
}

static uncore_session_t *session(uncore_t *u, const char *spec)
{
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT_FATAL(uncore_session_add(s, spec) >= 0);
	return s;
}

static uint64_t writes(uncore_t *u)
{
	struct uncore_stats st;
	uncore_get_stats(u, &st);
	return st.writes;
}

/* Sessions share boxes by counter, as the kernel does: the same programming is attached to, other
 * events take the free counters, and only a true clash (no counter left) is refused. */
static void test_same_handle(void)
{
	uncore_t *u = open_sim("sim:snbep,clock=manual");
	struct sim *sim = sim_of(u->acc);
	uncore_session_t *a = session(u, "UNC_M_CAS_COUNT.RD:socket=0"), *b = session(u, "UNC_M_CAS_COUNT.RD:socket=0");
	uncore_session_t *c = session(u, "UNC_M_CAS_COUNT.WR:socket=0");
	CU_ASSERT_FATAL(uncore_session_start(a) == 0);
	uncore_sleep_ns(u, 1000000000);
	uint64_t w = writes(u);
	CU_ASSERT_FATAL(uncore_session_start(b) == 0);
	CU_ASSERT_EQUAL(writes(u), w); /* attached: not one register written */
	/* other events on the same boxes take their free counters; a keeps counting */
	CU_ASSERT_FATAL(uncore_session_start(c) == 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT(uncore_session_read(a) == 0 && uncore_session_read(b) == 0 && uncore_session_read(c) == 0);
	CU_ASSERT(near((double)val(a, 0, 0), 2 * rd_per_s(u), 0.005));
	CU_ASSERT(near((double)val(b, 0, 0), rd_per_s(u), 0.005));
	CU_ASSERT(near((double)val(c, 0, 0), wr_per_s(u), 0.005));
	/* a box with every counter taken: a fifth event is a true clash, refused by name */
	uncore_session_t *d = session(u, "UNC_M_ACT_COUNT:socket=0:box=0");
	CU_ASSERT(uncore_session_add(d, "UNC_M_PRE_COUNT.PAGE_MISS:socket=0:box=0") == 1);
	CU_ASSERT_FATAL(uncore_session_start(d) == 0); /* counters 2 and 3 of imc 0 */
	uncore_session_t *e = session(u, "UNC_M_CAS_COUNT.ALL:socket=0:box=0");
	CU_ASSERT(uncore_session_start(e) == -1);
	/* the counters the event may use, each with the event another session of this process holds it for */
	CU_ASSERT(strstr(uncore_error(), "imc 0 (socket 0): UNC_M_CAS_COUNT.ALL:socket=0:box=0 may count on counters 0-3 "
					 "only, and another session holds each (counter 0: UNC_M_CAS_COUNT.RD:socket=0, "
					 "counter 1: UNC_M_CAS_COUNT.WR:socket=0, counter 2: UNC_M_ACT_COUNT:socket=0:box=0, "
					 "counter 3: UNC_M_PRE_COUNT.PAGE_MISS:socket=0:box=0)") != NULL);
	uncore_session_free(e);
	uncore_session_free(d); /* gives back its two counters only */
	CU_ASSERT(sim_changed_registers(sim, NULL, 0) > 0);
	/* a leaves first: b and c still count, nothing restored under them */
	CU_ASSERT(uncore_session_stop(a) == 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT(uncore_session_read(b) == 0 && uncore_session_read(c) == 0);
	CU_ASSERT(near((double)val(b, 0, 0), 2 * rd_per_s(u), 0.005));
	CU_ASSERT(near((double)val(c, 0, 0), 2 * wr_per_s(u), 0.005));
	uncore_session_free(b);
	CU_ASSERT(sim_changed_registers(sim, NULL, 0) > 0); /* c still counts */
	uncore_session_free(c); /* the last one restores */
	assert_left_as_found(sim);
	uncore_session_free(a);
	uncore_close(u);
}

/* A session that starts on many boxes, one of them shared with a counting session, freezes the shared box
 * only for its own writes to it: every register access advances the clock (tick=1000 ns), so a box frozen
 * for the whole programming would lose the counts of every access made to the other boxes meanwhile. */
static void test_shared_box_frozen_briefly(void)
{
	uncore_t *u = open_sim("sim:snbep,clock=manual,tick=1000");
	struct sim *sim = sim_of(u->acc);
	uncore_session_t *a = session(u, "UNC_M_CAS_COUNT.RD:socket=0:box=0");
	uncore_session_t *b = session(u, "UNC_M_CAS_COUNT.WR"); /* every iMC of both sockets: imc 0 shared */
	CU_ASSERT_FATAL(uncore_session_add(b, "UNC_C_CLOCKTICKS") >= 0); /* and every CBo */
	CU_ASSERT_FATAL(uncore_session_add(b, "UNC_Q_CLOCKTICKS") >= 0);
	CU_ASSERT_FATAL(uncore_session_start(a) == 0);
	uncore_sleep_ns(u, 100000000);
	CU_ASSERT_FATAL(uncore_session_read(a) == 0);
	uint64_t a0 = val(a, 0, 0), t0 = sim_now(sim);
	struct uncore_stats st0, st1;
	uncore_get_stats(u, &st0);
	CU_ASSERT_FATAL(uncore_session_start(b) == 0);
	uncore_get_stats(u, &st1);
	uncore_sleep_ns(u, 100000000);
	CU_ASSERT_FATAL(uncore_session_read(a) == 0);
	uint64_t a1 = val(a, 0, 0), t1 = sim_now(sim);
	double per_box = rd_per_s(u) / 4, truth = per_box * (double)(t1 - t0) / 1e9;
	double accesses = (double)(st1.reads + st1.writes - st0.reads - st0.writes);
	double lost_ticks = (truth - (double)(a1 - a0)) / (per_box * 1e-6); /* how many 1 us accesses went uncounted */
	fprintf(stderr, "b's start: %.0f register accesses; a lost the counts of %.1f of them\n", accesses, lost_ticks);
	CU_ASSERT(accesses > 100); /* the whole programming would cost a hundred and more */
	/* imc 0's own writes and baseline: its freeze, a filter-less control word, the counter's two dwords read,
	 * the other counters read back, the unfreeze */
	CU_ASSERT(lost_ticks >= 0 && lost_ticks <= 16);
	uncore_session_free(b);
	uncore_session_free(a);
	assert_left_as_found(sim);
	uncore_close(u);
}

static char shm_file[300];

static uncore_t *open_shared(const char *extra)
{
	char spec[360];
	snprintf(spec, sizeof(spec), "sim:snbep,shared=%s%s", shm_file, extra);
	return open_sim(spec);
}

static void fresh_file(void)
{
	char claims[320];
	snprintf(shm_file, sizeof(shm_file), "%s/uncore-test-shm-%d", test_tmpdir(), (int)getpid());
	snprintf(claims, sizeof(claims), "%s%s", shm_file, claims_ext());
	unlink(shm_file);
	unlink(claims);
}

static void remove_file(void)
{
	char claims[320];
	snprintf(claims, sizeof(claims), "%s%s", shm_file, claims_ext());
	unlink(shm_file);
	unlink(claims);
}

/* A child process attaches to the parent's programming, counts, and dies without releasing. */
/* Another process counts ev on socket 0 for 200 ms and ends without cleaning up, like a crashed rank: its
 * rate per second; -1 when it could not count, -2 when it had to attach but wrote a register. */
/* A child process counts ev for 200 ms between two reads and says the count and its window (within_window's
 * four instants), or count -2 when attach and it wrote a register, -1 when it could not count. */
struct child_count {
	double count;
	uint64_t s0, s1, r0, r1;
};

static struct child_count child_count(const char *ev, int attach)
{
	int pipefd[2];
	CU_ASSERT_FATAL(pipe(pipefd) == 0);
	pid_t pid = fork();
	if (pid == 0) {
		uncore_t *cu;
		uncore_session_t *cs;
		char spec[360];
		snprintf(spec, sizeof(spec), "sim:snbep,shared=%s", shm_file);
		uint64_t w = 0, v0 = 0, v = 0;
		struct child_count c = { .count = -1 };
		if (!uncore_open(spec, &cu) && !uncore_session_new(cu, &cs) && uncore_session_add(cs, ev) >= 0 &&
		    (w = writes(cu), 1) && !uncore_session_start(cs)) {
			c.s0 = uncore_now_ns(cu);
			uncore_session_read(cs);
			c.s1 = uncore_now_ns(cu);
			uncore_session_value(cs, 0, 0, -1, &v0);
			usleep(200000);
			c.r0 = uncore_now_ns(cu);
			uncore_session_read(cs);
			c.r1 = uncore_now_ns(cu);
			uncore_session_value(cs, 0, 0, -1, &v);
			c.count = attach && writes(cu) != w ? -2 : (double)(v - v0);
		} else
			fprintf(stderr, "child: %s\n", uncore_error());
		if (write(pipefd[1], &c, sizeof(c)) != sizeof(c))
			_exit(2);
		_exit(0); /* its claim is left behind */
	}
	struct child_count c = { .count = -1 };
	CU_ASSERT(read(pipefd[0], &c, sizeof(c)) == sizeof(c));
	waitpid(pid, NULL, 0);
	close(pipefd[0]);
	close(pipefd[1]);
	return c;
}

/* child_count's count is the rate's over its window */
static int child_counts(const char *ev, int attach, double rate)
{
	struct child_count c = child_count(ev, attach);
	return c.count >= 0 && within_window(c.count, rate, c.s0, c.s1, c.r0, c.r1);
}

static void test_across_processes(void)
{
	fresh_file();
	uncore_t *u = open_shared("");
	uncore_session_t *a = session(u, "UNC_M_CAS_COUNT.RD:socket=0");
	CU_ASSERT_FATAL(uncore_session_start(a) == 0);
	usleep(200000); /* counts before the children start: a reset by one would lose them */
	/* the same events: attached, not one register written */
	CU_ASSERT(child_counts("UNC_M_CAS_COUNT.RD:socket=0", 1, rd_per_s(u)));
	/* other events on the same boxes: the free counters */
	CU_ASSERT(child_counts("UNC_M_CAS_COUNT.WR:socket=0", 0, wr_per_s(u)));
	/* the parent's counts went on through the children's starts: nobody reset them */
	CU_ASSERT(uncore_session_read(a) == 0);
	CU_ASSERT(near((double)val(a, 0, 0) / ((double)uncore_session_elapsed_ns(a) / 1e9), rd_per_s(u), 0.02));
	uncore_session_free(a); /* the dead children no longer hold the boxes: this restores theirs too */
	uncore_close(u);
	uncore_t *check = open_shared("");
	assert_left_as_found(sim_of(check->acc));
	uncore_close(check);
	remove_file();
}

/* After an owner died with its boxes programmed (seen on open): a new session counts the reads at the
 * simulator's rate, and when it, the last live one, is freed, every register is as found, the dead
 * owner's restored with its own. */
static void count_after_dead_owner(void)
{
	uncore_t *u = open_shared("");
	CU_ASSERT(sim_changed_registers(sim_of(u->acc), NULL, 0) > 0); /* the dead owner's programming */
	uncore_session_t *a = session(u, "UNC_M_CAS_COUNT.RD");
	CU_ASSERT_FATAL(uncore_session_start(a) == 0); /* other events, but nobody alive holds the boxes */
	uint64_t s0 = uncore_now_ns(u);
	CU_ASSERT(uncore_session_read(a) == 0);
	uint64_t s1 = uncore_now_ns(u), a0 = val(a, 0, 0);
	usleep(100000);
	uint64_t r0 = uncore_now_ns(u);
	CU_ASSERT(uncore_session_read(a) == 0);
	uint64_t r1 = uncore_now_ns(u);
	CU_ASSERT(within_window((double)(val(a, 0, 0) - a0), rd_per_s(u), s0, s1, r0, r1));
	uncore_session_free(a);
	assert_left_as_found(sim_of(u->acc));
	uncore_close(u);
}

/* The owner dies: the next session takes the box over and still restores what the owner found. */
static void test_dead_owner(void)
{
	fresh_file();
	pid_t pid = fork();
	if (pid == 0) {
		uncore_t *cu;
		uncore_session_t *cs;
		char spec[360];
		snprintf(spec, sizeof(spec), "sim:snbep,shared=%s", shm_file);
		int ok = !uncore_open(spec, &cu) && !uncore_session_new(cu, &cs) &&
			 uncore_session_add(cs, "UNC_M_CAS_COUNT.WR") >= 0 && !uncore_session_start(cs);
		_exit(ok ? 0 : 1);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	CU_ASSERT_FATAL(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	count_after_dead_owner();
	remove_file();
}

/* The owner is killed (SIGKILL) and not yet reaped by its parent: a zombie keeps its pid (1.5 s seen) but
 * never restores its boxes, so it is dead to the next session as a reaped one is. */
static void test_zombie_owner(void)
{
	fresh_file();
	int ready[2], hold[2];
	CU_ASSERT_FATAL(pipe(ready) == 0 && pipe(hold) == 0);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		uncore_t *cu;
		uncore_session_t *cs;
		char spec[360];
		snprintf(spec, sizeof(spec), "sim:snbep,shared=%s", shm_file);
		char ok = !uncore_open(spec, &cu) && !uncore_session_new(cu, &cs) &&
			  uncore_session_add(cs, "UNC_M_CAS_COUNT.WR") >= 0 && !uncore_session_start(cs);
		close(hold[1]);
		if (write(ready[1], &ok, 1) != 1)
			_exit(2);
		char c;
		while (read(hold[0], &c, 1) < 0) /* until killed */
			;
		_exit(0);
	}
	close(ready[1]);
	close(hold[0]);
	char ok = 0;
	CU_ASSERT(read(ready[0], &ok, 1) == 1 && ok);
	close(ready[0]);
	CU_ASSERT(kill(pid, SIGKILL) == 0);
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	/* it has died, and is left unreaped (WNOWAIT): a zombie */
	CU_ASSERT_FATAL(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) == 0 && si.si_code == CLD_KILLED);
	count_after_dead_owner(); /* a zombie is dead to it */
	CU_ASSERT(waitpid(pid, NULL, 0) == pid);
	close(hold[1]);
	remove_file();
}

static void test_shared_refusals(void)
{
	uncore_t *u = NULL;
	fresh_file();
	char spec[360];
	snprintf(spec, sizeof(spec), "sim:snbep,clock=manual,shared=%s", shm_file);
	CU_ASSERT(uncore_open(spec, &u) == -1);
	CU_ASSERT(strstr(uncore_error(), "needs the real clock") != NULL);
	uncore_t *a = open_shared("");
	snprintf(spec, sizeof(spec), "sim:snbep,sockets=1,shared=%s", shm_file);
	CU_ASSERT(uncore_open(spec, &u) == -1);
	CU_ASSERT(strstr(uncore_error(), "another simulated machine") != NULL ||
		  strstr(uncore_error(), "other sim: options") != NULL);
	snprintf(spec, sizeof(spec), "sim:snbep,prewrap=1,shared=%s", shm_file);
	CU_ASSERT(uncore_open(spec, &u) == -1);
	CU_ASSERT(strstr(uncore_error(), "other sim: options") != NULL);
	CU_ASSERT(uncore_open("sim:snbep,shared=/nonexistent-dir/x", &u) == -1);
	CU_ASSERT(strstr(uncore_error(), "/nonexistent-dir/x") != NULL);
	uncore_close(a);
	remove_file();
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "sessions of one handle share a box by counter, a true clash is refused", test_same_handle },
		{ "a shared box is frozen only for the new session's own writes to it", test_shared_box_frozen_briefly },
		{ "processes attach to another's programming, or take free counters", test_across_processes },
		{ "a dead owner's box is taken over and restored", test_dead_owner },
		{ "a killed owner not yet reaped (a zombie) is dead to the next session", test_zombie_owner },
		{ "shared simulator refusals", test_shared_refusals },
		{ NULL, NULL },
	};
	return run_suite("sharing", tests);
}
