/*
 * Every box goes back as found, whatever goes wrong around it: the claims
 * reach the file before the first register write (a full file system
 * refuses the start with nothing written), a stop restores even when another
 * process keeps the claims lock (and says which), and a box that cannot be
 * restored keeps its record until a later session can.  The crash test
 * (test_crash.c) kills a session at every register access.
 */
#include <errno.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include "sim_helpers.h"
#include "session/claims.h"
#include "util/error.h"

static char shm[300], claims_path[320];

static void fresh(void)
{
	snprintf(shm, sizeof(shm), "%s/uncore-restore-%d", test_tmpdir(), (int)getpid());
	snprintf(claims_path, sizeof(claims_path), "%s%s", shm, claims_ext());
	unlink(shm);
	unlink(claims_path);
}

static uncore_t *open_shared(const char *extra)
{
	char spec[400];
	snprintf(spec, sizeof(spec), "sim:snbep,shared=%s%s", shm, extra);
	return open_sim(spec);
}


static const char *const specs[] = { "UNC_M_CAS_COUNT.RD:socket=0:box=1", "UNC_C_CLOCKTICKS:socket=0:box=2" };

/* Limit the size of files this process writes to n bytes (0: back to what it was). */
static void fsize_limit(rlim_t n)
{
	static struct rlimit old;
	struct rlimit lim;
	if (n) {
		CU_ASSERT_FATAL(getrlimit(RLIMIT_FSIZE, &old) == 0);
		lim = old;
		lim.rlim_cur = n;
		signal(SIGXFSZ, SIG_IGN);
		CU_ASSERT_FATAL(setrlimit(RLIMIT_FSIZE, &lim) == 0);
	} else {
		CU_ASSERT(setrlimit(RLIMIT_FSIZE, &old) == 0);
		signal(SIGXFSZ, SIG_DFL);
	}
}

/* The claims cannot be written (a file size limit here, ENOSPC in a full /run alike) when the file is made:
 * the start is refused before a register is written.  Once made, the file has its whole size allocated, so
 * a file system filled afterwards (a member of the group filling claims.group beside root's claims) does
 * not refuse a later start (issue 45 point 4). */
static void test_no_space(void)
{
	fresh();
	uncore_t *u = open_shared("");
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT(uncore_session_add(s, specs[0]) == 0 && uncore_session_add(s, specs[1]) == 1);
	uint64_t w = sim_shared_writes(sim_of(u->acc));
	fsize_limit(4096); /* the claims file is made now: no room for its records */
	CU_ASSERT_EQUAL(uncore_session_start(s), -1);
	fsize_limit(0);
	CU_ASSERT(strstr(uncore_error(), claims_path) != NULL);
	CU_ASSERT(strstr(uncore_error(), strerror(EFBIG)) != NULL);
	CU_ASSERT(strstr(uncore_error(), "nothing was programmed") != NULL);
	fprintf(stderr, "  refused: %s\n", uncore_error());
	CU_ASSERT_EQUAL(sim_shared_writes(sim_of(u->acc)), w); /* not one register written */
	assert_left_as_found(sim_of(u->acc));
	CU_ASSERT(claims_records(claims_path) <= 0); /* no record (no header either: the file stayed empty) */
	uncore_session_free(s);
	uncore_close(u);
	unlink(claims_path);

	/* made with room: every later write lands in blocks it already has */
	u = open_shared("");
	CU_ASSERT_EQUAL(count_once(u, specs[0]), 0);
	struct stat st;
	CU_ASSERT_FATAL(stat(claims_path, &st) == 0);
	CU_ASSERT(st.st_size == claims_copy_offset(u, 2) && (off_t)st.st_blocks * 512 >= st.st_size);
	fsize_limit((rlim_t)st.st_size); /* nothing may grow: the file system is full */
	uncore_session_t *t = start_session(u, specs, 2);
	CU_ASSERT_EQUAL(claims_records(claims_path), 2);
	CU_ASSERT_EQUAL(uncore_session_stop(t), 0);
	fsize_limit(0);
	uncore_session_free(t);
	assert_left_as_found(sim_of(u->acc));
	CU_ASSERT_EQUAL(claims_records(claims_path), 0);
	uncore_close(u);
	fresh();
}

/* Another process keeps the claims lock while a session stops: the session restores its boxes from its
 * own copy, keeps its counts, names the holder, and its records go at the next lock (here at close). */
static void test_stop_without_lock(void)
{
	fresh();
	uncore_t *u = open_shared("");
	uncore_session_t *s = start_session(u, specs, 2);
	uncore_sleep_ns(u, 30000000);
	CU_ASSERT(sim_changed_registers(sim_of(u->acc), NULL, 0) > 0);
	CU_ASSERT_EQUAL(claims_records(claims_path), 2);
	pid_t pid = lock_hold(claims_path);
	char who[64];
	uc_clear_warnings();
	CU_ASSERT_EQUAL(uncore_session_stop(s), 0);
	snprintf(who, sizeof(who), "locked by process %d (", (int)pid);
	CU_ASSERT(warned(who));
	CU_ASSERT(warned("restored from its own copy"));
	assert_left_as_found(sim_of(u->acc)); /* restored although the lock was not had */
	/* the counts read at the stop are kept: 30 ms of the uncore clock is far above zero */
	uint64_t ticks = 0;
	CU_ASSERT(uncore_session_value(s, 1, 0, -1, &ticks) == 0);
	CU_ASSERT(ticks > 1000000);
	CU_ASSERT_EQUAL(claims_records(claims_path), 2); /* left for the next lock */
	lock_release(pid);
	uncore_session_free(s);
	/* the same process counts other events on those boxes: its own left records do not stand in the way */
	CU_ASSERT_EQUAL(count_once(u, "UNC_C_TxR_INSERTS.AD_CACHE:socket=0:box=2"), 0);
	CU_ASSERT_EQUAL(claims_records(claims_path), 0);
	assert_left_as_found(sim_of(u->acc));
	uncore_close(u);

	/* and when the process only closes, the close clears them */
	u = open_shared("");
	s = start_session(u, specs, 2);
	pid = lock_hold(claims_path);
	CU_ASSERT_EQUAL(uncore_session_stop(s), 0);
	lock_release(pid);
	uncore_session_free(s);
	CU_ASSERT_EQUAL(claims_records(claims_path), 2);
	uncore_close(u);
	CU_ASSERT_EQUAL(claims_records(claims_path), 0);
	fresh();
}

/* CAS reads of imc 1 over 20 ms of session s (read before and after): above 0, below what a reset or
 * rewritten counter gives (2^44 and the like): the profile's 12.8 GB/s is 50e6 a second per channel. */
static int counts_true(uncore_t *u, uncore_session_t *s, int ev)
{
	uint64_t v0 = 0, v1 = 0;
	if (uncore_session_read(s) || uncore_session_value(s, ev, 0, -1, &v0))
		return 0;
	uncore_sleep_ns(u, 20000000);
	if (uncore_session_read(s) || uncore_session_value(s, ev, 0, -1, &v1))
		return 0;
	if (!(v1 > v0 && v1 - v0 < 1000000000ull))
		fprintf(stderr, "  counted %llu in 20 ms\n", (unsigned long long)(v1 - v0));
	return v1 > v0 && v1 - v0 < 1000000000ull;
}

/* A stop without the lock puts back only what its session alone programmed: a counter another session
 * attached to, and the box it shares, stay as they count; and a later session attaches only to a counter
 * whose register holds what the record says (the stopped session's records stay while its process
 * lives).  Here three handles of one process stand for three processes (issue 45 point 5). */
static void test_stop_without_lock_shared(void)
{
	fresh();
	static const char *const rd[] = { "UNC_M_CAS_COUNT.RD:socket=0:box=1" };
	static const char *const rdwr[] = { "UNC_M_CAS_COUNT.RD:socket=0:box=1", "UNC_M_CAS_COUNT.WR:socket=0:box=1" };
	uncore_t *ua = open_shared(""), *ub = open_shared(""), *uc = open_shared("");
	uncore_session_t *a = start_session(ua, rd, 1), *b = start_session(ub, rdwr, 2);
	pid_t pid = lock_hold(claims_path);
	uc_clear_warnings();
	CU_ASSERT_EQUAL(uncore_session_stop(a), 0);
	CU_ASSERT(warned("what this session alone programmed is restored"));
	lock_release(pid);
	CU_ASSERT(counts_true(ub, b, 0)); /* the counter it attached to was not put back under it */
	uncore_session_free(b);
	uncore_session_free(a); /* its records go; b's went at its stop: the box is back as found */
	uncore_close(ub);
	uncore_close(ua);
	assert_left_as_found(sim_of(uc->acc));

	/* alone on the box, a stops without the lock: all put back, its records stay while it lives */
	ua = open_shared("");
	a = start_session(ua, rd, 1);
	pid = lock_hold(claims_path);
	CU_ASSERT_EQUAL(uncore_session_stop(a), 0);
	lock_release(pid);
	CU_ASSERT_EQUAL(claims_records(claims_path), 1);
	uncore_session_t *c = start_session(uc, rd, 1); /* the record says counter 0 counts reads: it does not */
	CU_ASSERT(counts_true(uc, c, 0));
	uncore_session_free(c);
	uncore_session_free(a);
	uncore_close(ua);
	uncore_close(uc);
	fresh();
}

/* A box whose device stops answering cannot be restored at stop: its record stays, with no holder, and
 * the next session restores it once the device answers again. */
static void test_failed_restore_kept(void)
{
	fresh();
	uncore_t *u = open_shared(",fault=eio:imc:1@0.2");
	uncore_session_t *s = start_session(u, specs, 2);
	uncore_sleep_ns(u, 400000000); /* the fault begins after 0.2 s */
	uc_clear_warnings();
	CU_ASSERT_EQUAL(uncore_session_stop(s), -1);
	CU_ASSERT(strstr(uncore_error(), "imc 1 (socket 0) could not be restored") != NULL);
	CU_ASSERT(warned("its record is kept"));
	uncore_session_free(s);
	uncore_close(u);
	CU_ASSERT_EQUAL(claims_records(claims_path), 1); /* the imc's; the cbo was restored and released */

	u = open_shared(""); /* the device answers again */
	CU_ASSERT(sim_changed_registers(sim_of(u->acc), NULL, 0) > 0);
	uc_clear_warnings();
	CU_ASSERT_EQUAL(count_once(u, "UNC_C_CLOCKTICKS:socket=1:box=0"), 0); /* any box: the record is acted on */
	CU_ASSERT(warned("imc 1 (socket 0) could not be restored when its session ended: its registers are restored now"));
	assert_left_as_found(sim_of(u->acc));
	CU_ASSERT_EQUAL(claims_records(claims_path), 0);
	uncore_close(u);
	fresh();
}

/* The kernel stops a write between pages when the writer is killed: the claims file keeps its records in
 * two copies and switches with a header inside one page, so a copy written halfway changes nothing. */
static void test_torn_write(void)
{
	fresh();
	uncore_t *u = open_shared("");
	uncore_session_t *s = start_session(u, specs, 2); /* its claims in copy 0 */
	CU_ASSERT_EQUAL(claims_records(claims_path), 2);
	int fd = open(claims_path, O_WRONLY);
	char junk[6000];
	memset(junk, 0x41, sizeof(junk));
	CU_ASSERT(fd >= 0 && pwrite(fd, junk, sizeof(junk), claims_copy_offset(u, 1)) == (ssize_t)sizeof(junk));
	close(fd);
	uncore_t *v = open_shared(""); /* another handle reads the file */
	uc_clear_warnings();
	CU_ASSERT_EQUAL(count_once(v, "UNC_C_CLOCKTICKS:socket=1:box=0"), 0);
	CU_ASSERT(strstr(uncore_warnings(), "damaged") == NULL);
	CU_ASSERT_EQUAL(claims_records(claims_path), 2); /* s's claims, read intact */
	uncore_close(v);
	CU_ASSERT_EQUAL(uncore_session_stop(s), 0);
	uncore_session_free(s);
	assert_left_as_found(sim_of(u->acc));
	CU_ASSERT_EQUAL(claims_records(claims_path), 0);
	uncore_close(u);
	fresh();
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "claims written ahead: no room for them, nothing programmed; once made, a full disk does not refuse", test_no_space },
		{ "a stop restores without the claims lock, keeps its counts, names the holder", test_stop_without_lock },
		{ "a stop without the lock leaves what others count on; attaching checks the register",
		  test_stop_without_lock_shared },
		{ "a box not restored keeps its record for the next session", test_failed_restore_kept },
		{ "a claims write cut short leaves the claims in force", test_torn_write },
		{ NULL, NULL },
	};
	remove_at_exit(shm, claims_path); /* a fatal assertion ends a test before its own cleanup */
	return run_suite("restore", tests);
}
