/*
 * One handle used from several threads at once (uncore.h's contract): sessions started, read and freed
 * by four threads, and one session read by four threads, count exactly what the simulator's clock says
 * and leave every register as found.  Built twice: under ASan/UBSan with the other tests, and with the
 * library under ThreadSanitizer (test_threads_tsan), which fails on any data race.
 */
#include <pthread.h>
#include "sim_helpers.h"

#define THREADS 4
#define ROUNDS 40

static uncore_t *shared_u;

/* Counts of one box's CAS reads against rate x the box's own window: the manual clock advances 1 us per
 * register access (tick), so windows are exact whatever the interleaving. */
static int exact(const uncore_session_t *s, uint64_t v, double rate_per_s)
{
	double want = rate_per_s * (double)uncore_session_elapsed_ns(s) / 1e9;
	return (double)v <= want * 1.001 + 2 && (double)v >= want * 0.999 - 2;
}

struct job {
	int socket, box;
	int bad, runs;
};

static void *sessions(void *arg)
{
	struct job *j = arg;
	char spec[96];
	snprintf(spec, sizeof(spec), "UNC_M_CAS_COUNT.RD:socket=%d:box=%d", j->socket, j->box);
	for (int r = 0; r < ROUNDS; r++) {
		uncore_session_t *s;
		uint64_t v = 0;
		if (uncore_session_new(shared_u, &s) || uncore_session_add(s, spec) != 0 || uncore_session_start(s)) {
			j->bad++;
			uncore_session_free(s);
			continue;
		}
		for (int k = 0; k < 5; k++)
			uncore_session_read(s);
		if (uncore_session_stop(s) || uncore_session_value(s, 0, j->socket, j->box, &v) || v == 0)
			j->bad++;
		j->runs++;
		uncore_session_free(s);
	}
	return NULL;
}

/* Four threads, each with sessions of its own on its own channel. */
static void test_sessions_in_threads(void)
{
	shared_u = open_sim("sim:snbep,clock=manual,tick=1000");
	pthread_t t[THREADS];
	struct job jobs[THREADS];
	for (int i = 0; i < THREADS; i++) {
		jobs[i] = (struct job){ .socket = i % 2, .box = i / 2 };
		CU_ASSERT_FATAL(pthread_create(&t[i], NULL, sessions, &jobs[i]) == 0);
	}
	for (int i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		CU_ASSERT_EQUAL(jobs[i].bad, 0);
		CU_ASSERT_EQUAL(jobs[i].runs, ROUNDS);
	}
	assert_left_as_found(sim_of(shared_u->acc));
	uncore_close(shared_u);
}

static uncore_session_t *one;

static void *reader(void *arg)
{
	int *bad = arg;
	for (int r = 0; r < 200; r++)
		*bad += uncore_session_read(one) != 0;
	return NULL;
}

/* One session read by four threads at once: its accumulators stay exact. */
static void test_one_session_many_readers(void)
{
	shared_u = open_sim("sim:snbep,clock=manual,tick=1000");
	static const char *const specs[] = { "UNC_M_CAS_COUNT.RD:socket=0:box=0" };
	one = start_session(shared_u, specs, 1);
	pthread_t t[THREADS];
	int bad[THREADS] = { 0 };
	for (int i = 0; i < THREADS; i++)
		CU_ASSERT_FATAL(pthread_create(&t[i], NULL, reader, &bad[i]) == 0);
	for (int i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		CU_ASSERT_EQUAL(bad[i], 0);
	}
	uint64_t v = val(one, 0, 0);
	double rate = sim_of(shared_u->acc)->prof.mem_read_bps[0] / 64 / 4; /* one of four channels */
	if (!exact(one, v, rate))
		fprintf(stderr, "counted %llu over %.6f s, truth %.0f\n", (unsigned long long)v,
			(double)uncore_session_elapsed_ns(one) / 1e9, rate * (double)uncore_session_elapsed_ns(one) / 1e9);
	CU_ASSERT(exact(one, v, rate));
	finish(shared_u, one);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "sessions of one handle in four threads", test_sessions_in_threads },
		{ "one session read by four threads", test_one_session_many_readers },
		{ NULL, NULL },
	};
	return run_suite("threads", tests);
}
