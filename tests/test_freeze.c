/*
 * A sampler that never services its overflow (issue 64, point 1).  On a simulator shared through a file, a
 * session counts the memory reads of socket 0 while another process samples a counter of the same die with a
 * period it overflows within a millisecond; the overflow freezes the whole die until the sampler services it.
 * The sampler is then killed (SIGKILL: the OOM killer, a crash) or stopped (SIGSTOP): a dead one is reaped at
 * the counting session's next read and the session counts the simulator's truth again; a stopped one is named
 * by a `frozen` condition as long as it holds the freeze.  Every case on Emerald Rapids (the sampler on a CHA,
 * and on an iMC channel the session counts on too) and on Ivy Bridge-EP (a home agent).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sim_helpers.h"

static char shm_file[300], shm_claims[320];

static void fresh_file(void)
{
	snprintf(shm_file, sizeof(shm_file), "%s/uncore-test-freeze-%d", test_tmpdir(), (int)getpid());
	snprintf(shm_claims, sizeof(shm_claims), "%s%s", shm_file, claims_ext());
	unlink(shm_file);
	unlink(shm_claims);
}

/* Another process starts a session sampling ev and then waits, servicing nothing, until it is signalled: its
 * pid, once its session runs (-1 when it could not start); *held: the pipe's end it waits on, to close after. */
static pid_t start_sampler(const char *spec, const char *ev, int *held)
{
	int ready[2], hold[2];
	CU_ASSERT_FATAL(pipe(ready) == 0 && pipe(hold) == 0);
	pid_t pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		uncore_t *cu;
		uncore_session_t *cs;
		char ok = !uncore_open(spec, &cu) && !uncore_session_new(cu, &cs) && uncore_session_add(cs, ev) >= 0 &&
			  !uncore_session_start(cs);
		if (!ok)
			fprintf(stderr, "sampler %s: %s\n", ev, uncore_error());
		close(hold[1]);
		if (write(ready[1], &ok, 1) != 1)
			_exit(2);
		char c;
		while (read(hold[0], &c, 1) < 0 && errno == EINTR) /* until killed: the session is never stopped */
			;
		_exit(0);
	}
	char ok = 0;
	close(ready[1]);
	close(hold[0]);
	CU_ASSERT(read(ready[0], &ok, 1) == 1);
	close(ready[0]);
	if (!ok) {
		close(hold[1]);
		waitpid(pid, NULL, 0);
		return -1;
	}
	*held = hold[1]; /* (open in this process: the sampler waits until it is killed) */
	return pid;
}

/* Socket 0's global overflow status, read as the library reads it: any bit set (the die frozen). */
static int die_frozen(uncore_t *u)
{
	int any = 0;
	for (int k = 0; k < platform_glob_status_regs(u->plat); k++) {
		uint64_t v = 0;
		CU_ASSERT(u->acc->ops->msr_read(u->acc, host_die_cpu(&u->host, 0, 0), u->plat->glob_status + (uint32_t)k, &v) == 0);
		any |= v != 0;
	}
	return any;
}

/* A condition named "frozen" on socket 0 standing, whose message holds part. */
static int frozen_standing(uncore_session_t *s, const char *part)
{
	struct uncore_health h[32];
	int n = uncore_session_health(s, h, 32);
	for (int i = 0; i < n && i < 32; i++) {
		const char *name = uncore_health_name(h[i].kind);
		if (name && !strcmp(name, "frozen") && h[i].socket == 0 && strstr(h[i].what, part))
			return 1;
	}
	fprintf(stderr, "no frozen condition on socket 0 naming '%s' among %d standing\n", part, n);
	return 0;
}

/* The session's count of socket 0 over a window of about ms: the truth's, rate a second. */
static int counts_truth(uncore_t *u, uncore_session_t *a, double rate, int ms)
{
	uint64_t s0 = uncore_now_ns(u);
	CU_ASSERT(uncore_session_read(a) == 0);
	uint64_t s1 = uncore_now_ns(u), v0 = val(a, 0, 0);
	usleep((useconds_t)ms * 1000);
	uint64_t r0 = uncore_now_ns(u);
	CU_ASSERT(uncore_session_read(a) == 0);
	uint64_t r1 = uncore_now_ns(u);
	return within_window((double)(val(a, 0, 0) - v0), rate, s0, s1, r0, r1);
}

/* How the sampler ends: killed at once, stopped first, or killed and left unreaped by its parent (a zombie:
 * its pid stays, 1.5 s seen, but it will never service the overflow). */
enum end { KILLED, STOPPED, ZOMBIE };

/* One case: the session on socket 0, the sampler (ev) on platform plat, ended as end says. */
static void freeze_case(const char *plat, const char *ev, enum end end)
{
	int stop = end == STOPPED;
	char spec[360], pidstr[32];
	fresh_file();
	snprintf(spec, sizeof(spec), "sim:%s,shared=%s", plat, shm_file);
	uncore_t *u = open_sim(spec);
	const char *rd = "UNC_M_CAS_COUNT.RD:socket=0";
	uncore_session_t *a = start_session(u, &rd, 1);
	double rate = sim_of(u->acc)->prof.mem_read_bps[0] / 64; /* CAS reads of socket 0 a second */
	CU_ASSERT_FATAL(u->plat->glob_status != 0);
	int held = -1;
	pid_t pid = start_sampler(spec, ev, &held);
	CU_ASSERT_FATAL(pid > 0);
	snprintf(pidstr, sizeof(pidstr), "process %d", (int)pid);
	/* the sampled counter overflows within a millisecond and freezes the die: wait until it shows (bounded) */
	int frozen = 0;
	for (int i = 0; i < 2000 && !(frozen = die_frozen(u)); i++)
		usleep(1000);
	CU_ASSERT_FATAL(frozen);
	/* (the interval up to here counted until the freeze: a read sees a die frozen once a whole interval of it is) */
	CU_ASSERT(uncore_session_read(a) == 0);
	if (stop) {
		int st = 0;
		CU_ASSERT(kill(pid, SIGSTOP) == 0);
		CU_ASSERT(waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st));
		/* a whole interval frozen: it counts nothing (the simulator counts nothing on a frozen die), and the
		 * condition names the process that holds the freeze */
		uint64_t v0 = val(a, 0, 0);
		usleep(100000);
		CU_ASSERT(uncore_session_read(a) == 0);
		CU_ASSERT_EQUAL(val(a, 0, 0) - v0, 0);
		CU_ASSERT(frozen_standing(a, pidstr) && frozen_standing(a, "SIGSTOP"));
		usleep(100000); /* it holds as long as the process is stopped */
		CU_ASSERT(uncore_session_read(a) == 0);
		CU_ASSERT(frozen_standing(a, pidstr));
		CU_ASSERT(die_frozen(u)); /* a live holder's freeze is not lifted under it */
	}
	CU_ASSERT(kill(pid, SIGKILL) == 0);
	if (end == ZOMBIE) { /* it has died, and stays unreaped (WNOWAIT) until the end of the case */
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		CU_ASSERT_FATAL(waitid(P_PID, (id_t)pid, &si, WEXITED | WNOWAIT) == 0 && si.si_code == CLD_KILLED);
	} else
		CU_ASSERT(waitpid(pid, NULL, 0) == pid);
	/* the next read reaps the dead sampler (its boxes put back, the die thawed) and says so once ... */
	CU_ASSERT(uncore_session_read(a) == 0);
	CU_ASSERT(frozen_standing(a, stop ? pidstr : "died")); /* (a condition that stood keeps its first message) */
	CU_ASSERT(warned(pidstr));
	CU_ASSERT(!die_frozen(u));
	/* ... and from then on the session counts the simulator's truth, the condition cleared */
	CU_ASSERT(counts_truth(u, a, rate, 200));
	CU_ASSERT_EQUAL(uncore_session_health(a, NULL, 0), 0);
	uncore_session_free(a);
	uncore_close(u);
	uncore_t *check = open_sim(spec); /* every box the sampler programmed is back as found */
	assert_left_as_found(sim_of(check->acc));
	uncore_close(check);
	if (end == ZOMBIE)
		CU_ASSERT(waitpid(pid, NULL, 0) == pid);
	close(held);
	unlink(shm_file);
	unlink(shm_claims);
}

/* A standing condition named name on socket 0, box -1 (the socket's), whose message holds part. */
static int socket_cond(uncore_session_t *s, const char *name, const char *part)
{
	struct uncore_health h[32];
	int n = uncore_session_health(s, h, 32);
	for (int i = 0; i < n && i < 32; i++)
		if (!strcmp(uncore_health_name(h[i].kind), name) && h[i].socket == 0 && h[i].box == -1 && strstr(h[i].what, part))
			return 1;
	fprintf(stderr, "no %s condition on socket 0 naming '%s' among %d standing\n", name, part, n);
	return 0;
}

/* An overflow no claim explains (another tool's sampling, frozen here by hand): the whole socket counts
 * nothing, which raises stopped on the socket and flags its values; the freeze is left as it is found. */
static void test_unexplained_freeze(void)
{
	uncore_t *u = open_sim("sim:emr,clock=manual");
	struct sim *sim = sim_of(u->acc);
	const char *rd = "UNC_M_CAS_COUNT.RD:socket=0";
	uncore_session_t *a = start_session(u, &rd, 1);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT(uncore_session_read(a) == 0);
	check_truth("CAS reads of socket 0 before the freeze", (double)val(a, 0, 0), sim->prof.mem_read_bps[0] / 64);
	/* another tool's overflow: the die's status bit, and frz_all written as the UBox does on one */
	CU_ASSERT(u->acc->ops->msr_write(u->acc, host_die_cpu(&u->host, 0, 0), u->plat->glob_ctl, u->plat->glob_frz_all) == 0);
	sim->gstatus[0][1] |= 1;
	uint64_t v0 = val(a, 0, 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT(uncore_session_read(a) == 0);
	CU_ASSERT_EQUAL(val(a, 0, 0) - v0, 0);
	CU_ASSERT(socket_cond(a, "stopped", "no session's claim explains"));
	CU_ASSERT(uncore_session_event_health(a, 0, 0, -1) & (1u << UNCORE_HEALTH_STOPPED));
	CU_ASSERT(sim->gfrz[0] == 1 && sim->gstatus[0][1] == 1); /* not ours to lift */
	/* the tool services it: counting again, the condition cleared */
	CU_ASSERT(u->acc->ops->msr_write(u->acc, host_die_cpu(&u->host, 0, 0), u->plat->glob_status + 1, 1) == 0);
	CU_ASSERT(u->acc->ops->msr_write(u->acc, host_die_cpu(&u->host, 0, 0), u->plat->glob_ctl, 0) == 0);
	CU_ASSERT(uncore_session_read(a) == 0);
	v0 = val(a, 0, 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT(uncore_session_read(a) == 0);
	check_truth("CAS reads of socket 0 after it", (double)(val(a, 0, 0) - v0), sim->prof.mem_read_bps[0] / 64);
	CU_ASSERT_EQUAL(uncore_session_health(a, NULL, 0), 0);
	uncore_session_free(a);
	assert_left_as_found(sim);
	uncore_close(u);
}

static const char *const emr_cha = "UNC_CHA_CLOCKTICKS:socket=0:box=0:sample=1000000";
static const char *const emr_imc = "UNC_M_CAS_COUNT.WR:socket=0:box=0:sample=1000"; /* a box the session counts on */
static const char *const ivbep_ha = "UNC_H_CLOCKTICKS:socket=0:box=0:sample=1000000";

static void test_emr_killed(void) { freeze_case("emr", emr_cha, KILLED); }
static void test_emr_stopped(void) { freeze_case("emr", emr_cha, STOPPED); }
static void test_emr_zombie(void) { freeze_case("emr", emr_cha, ZOMBIE); }
static void test_emr_shared_box_killed(void) { freeze_case("emr", emr_imc, KILLED); }
static void test_ivbep_killed(void) { freeze_case("ivbep", ivbep_ha, KILLED); }
static void test_ivbep_stopped(void) { freeze_case("ivbep", ivbep_ha, STOPPED); }

int main(void)
{
	remove_at_exit(shm_file, shm_claims);
	static const struct test_case tests[] = {
		{ "EMR: a sampler killed while its die is frozen is reaped at the next read", test_emr_killed },
		{ "EMR: a stopped sampler is named by frozen, then reaped when killed", test_emr_stopped },
		{ "EMR: a killed sampler its parent has not reaped yet (a zombie) is reaped at the next read", test_emr_zombie },
		{ "EMR: a killed sampler's counter in a box the session shares is put back", test_emr_shared_box_killed },
		{ "IVB-EP: a sampler killed while its socket is frozen is reaped at the next read", test_ivbep_killed },
		{ "IVB-EP: a stopped sampler is named by frozen, then reaped when killed", test_ivbep_stopped },
		{ "EMR: a freeze no claim explains stops the socket, and is left to its tool", test_unexplained_freeze },
		{ NULL, NULL },
	};
	return run_suite("freeze", tests);
}
