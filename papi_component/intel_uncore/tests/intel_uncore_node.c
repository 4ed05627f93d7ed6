/*
 * intel_uncore follows the node (issue 99 point 2): a running EventSet on the simulator's manual clock
 * (UNCORE_BACKEND=sim:skx,clock=manual,changes=FILE,profile=... as tests/test_papi_node.sh gives it), the node
 * changed under it through the changes file (argv[1]), which also passes the simulated time ("clock +S": the
 * component's library runs in this process, its clock is the changes file's).  CPU 0, on which socket 0's
 * CHAs are read, and CPU 1, which one event names, go offline mid-run and come back: every count equals the
 * profile's truth over the whole run, carried across each change (nothing counted twice, nothing lost), and
 * the event of CPU 1 keeps its last count while its CPU is away, then counts on.
 * Prints each failed check and ends with "N passed, N failed" and PASSED/FAILED.
 */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>

static int passed, failed;
static const char *changes;

static void change(const char *lines)
{
	FILE *f = fopen(changes, "a");
	if (!f || fputs(lines, f) < 0 || fclose(f)) {
		printf("FAIL: cannot append to %s\n", changes);
		exit(1);
	}
}

#define NEV 4
static const char *const names[NEV] = {
	"intel_uncore:::UNC_M_CAS_COUNT.RD:socket=0",      /* iMC channels, PCI boxes: 1e8 a second */
	"intel_uncore:::UNC_CHA_CLOCKTICKS:socket=0:box=0", /* an MSR box read on CPU 0: 1.6e9 a second */
	"intel_uncore:::mem_read_bytes:socket=1",           /* 12.8e9 bytes a second */
	"intel_uncore:::UNC_M_CAS_COUNT.RD:cpu=1",          /* socket 0's, named by CPU 1: 1e8 a second */
};
static const double rate[NEV] = { 1e8, 1.6e9, 12.8e9, 1e8 };

/* Each value against its rate over secs[i] seconds counted: within a count of each of the reads' boxes (the
 * simulator counts whole events at each read). */
static void expect(const char *when, const long long *v, const double *secs)
{
	for (int i = 0; i < NEV; i++) {
		double want = rate[i] * secs[i], d = (double)v[i] - want, tol = i == 2 ? 64 * 64 : 64;
		if (d < 0)
			d = -d;
		if (d <= tol)
			passed++;
		else {
			failed++;
			printf("FAIL %s: %s = %lld, the truth over %.0f s %.0f\n", when, names[i], v[i], secs[i], want);
		}
	}
}

static void ok(int c, const char *what)
{
	if (c)
		passed++;
	else {
		failed++;
		printf("FAIL: %s\n", what);
	}
}

int main(int argc, char **argv)
{
	int es = PAPI_NULL, rc;
	long long v[NEV];
	if (argc != 2) {
		fprintf(stderr, "usage: %s CHANGES_FILE\n", argv[0]);
		return 2;
	}
	changes = argv[1];
	if (PAPI_library_init(PAPI_VER_CURRENT) != PAPI_VER_CURRENT || PAPI_create_eventset(&es) != PAPI_OK) {
		printf("FAIL: PAPI init\n");
		return 1;
	}
	for (int i = 0; i < NEV; i++)
		if ((rc = PAPI_add_named_event(es, names[i])) != PAPI_OK) {
			printf("FAIL: adding %s: %s\n", names[i], PAPI_strerror(rc));
			return 1;
		}
	ok(PAPI_start(es) == PAPI_OK, "PAPI_start");
	change("clock +10\n");
	ok((rc = PAPI_read(es, v)) == PAPI_OK, "PAPI_read before the change");
	expect("10 s, before the change", v, (double[]){ 10, 10, 10, 10 });
	/* CPU 0 (socket 0's CHAs are read on it) and CPU 1 go offline; 10 s pass (made at the read's check) */
	change("cpu 0 offline\ncpu 1 offline\nclock +10\n");
	rc = PAPI_read(es, v);
	ok(rc == PAPI_OK, "PAPI_read across CPUs going offline");
	if (rc != PAPI_OK)
		printf("  PAPI_read: %s\n", PAPI_strerror(rc));
	expect("20 s, CPUs 0 and 1 gone offline", v, (double[]){ 20, 20, 20, 20 });
	change("clock +10\n");
	ok(PAPI_read(es, v) == PAPI_OK, "PAPI_read with CPUs 0 and 1 offline");
	expect("30 s, CPU 1's event kept at its last count", v, (double[]){ 30, 30, 30, 20 });
	change("cpu 0 online\ncpu 1 online\n");
	ok(PAPI_read(es, v) == PAPI_OK, "PAPI_read across CPUs coming back");
	change("clock +10\n");
	ok(PAPI_stop(es, v) == PAPI_OK, "PAPI_stop");
	expect("40 s at the stop, CPU 1's event counting again", v, (double[]){ 40, 40, 40, 30 });
	/* a start after a change made while stopped counts the node as it is then, from zero */
	change("cpu 1 offline\n");
	ok(PAPI_start(es) == PAPI_OK, "PAPI_start after a change while stopped");
	change("clock +5\n");
	ok(PAPI_stop(es, v) == PAPI_OK, "PAPI_stop");
	expect("5 s after a start with CPU 1 offline", v, (double[]){ 5, 5, 5, 0 });
	change("cpu 1 online\n");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	PAPI_shutdown();
	printf("%d passed, %d failed\n%s\n", passed, failed, failed ? "FAILED" : "PASSED");
	return failed != 0;
}
