/*
 * uncore-bench-ipi: the real measurement behind the simulator's cost model for issue 48.  A read of
 * another CPU's MSR or active perf event is an inter-processor interrupt (smp_call_function_single); a
 * group (batch) read is one call, so one interrupt; the alternatives are moving the calling thread to the
 * event's CPU and back, or handing the read to a reader thread pinned there.  This times all of them on
 * this machine.  A perf software event (cpu-clock) stands in for an uncore one: VMs have no hardware
 * counters, and the kernel reads any active event of another CPU through the same interrupt.
 * Each figure is the median of the means of up to 20 batches (robust on a loaded, shared machine).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET, pthread_attr_setaffinity_np (configure may define it) */
#endif
#include <errno.h>
#include <linux/futex.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define BATCHES 20
#define BUDGET_NS 3e8 /* per figure, so the whole run stays under ~3 s even when every step is slow */
#define GROUP 8

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* ns per op(): median of batch means, stopping early past BUDGET_NS (*done: ops timed); -1 if op failed */
static double measure(int (*op)(void *), void *ctx, int iters, int *done)
{
	double mean[BATCHES], start;
	int per = iters / BATCHES, nb = 0;
	for (int i = 0; i < per / 10 + 1; i++) /* warm caches and wake the other CPU */
		if (op(ctx))
			return -1;
	for (start = now_ns(); nb < BATCHES && (nb == 0 || now_ns() - start < BUDGET_NS); nb++) {
		double t0 = now_ns();
		for (int i = 0; i < per; i++)
			if (op(ctx))
				return -1;
		mean[nb] = (now_ns() - t0) / per;
	}
	for (int i = 1; i < nb; i++) /* insertion sort: at most 20 */
		for (int j = i; j > 0 && mean[j - 1] > mean[j]; j--) {
			double t = mean[j];
			mean[j] = mean[j - 1], mean[j - 1] = t;
		}
	*done = nb * per;
	return nb % 2 ? mean[nb / 2] : (mean[nb / 2 - 1] + mean[nb / 2]) / 2;
}

/* prints "  <what>: <ns> ns (<*n>)<tail>" or why it failed; returns ns (-1: failed).  n is read
 * here, after the call's arguments (which may be what sets it) */
__attribute__((format(printf, 4, 5))) static double show(double ns, const int *n, const char *tail, const char *what, ...)
{
	int e = errno;
	va_list ap;
	va_start(ap, what);
	printf("  ");
	vprintf(what, ap);
	va_end(ap);
	if (ns < 0)
		printf(": failed: %s\n", strerror(e));
	else
		printf(": %.0f ns (%d)%s\n", ns, *n, tail);
	return ns;
}

struct rd { int fd; size_t len; uint64_t buf[GROUP + 1]; }; /* buf: a group read's nr + values */

static int read_op(void *p)
{
	struct rd *r = p;
	return read(r->fd, r->buf, r->len) != (ssize_t)r->len;
}

/* ns per read(2) of r's event(s) from a thread pinned on cpu */
static double read_on(struct rd *r, int cpu, int *done)
{
	return pin(cpu) ? -1 : measure(read_op, r, 20000, done);
}

static int perf_open(int cpu, int group_fd, uint64_t fmt)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_CPU_CLOCK, .read_format = fmt };
	return (int)syscall(SYS_perf_event_open, &a, -1, cpu, group_fd, 0);
}

static const char *hint(int e)
{
	switch (e) {
	case EACCES: case EPERM: return "a per-CPU event needs root or CAP_PERFMON, or sysctl kernel.perf_event_paranoid=0 (or a seccomp filter denies it)";
	case ENOENT: case ENODEV: case EOPNOTSUPP: return "this kernel has no cpu-clock software event";
	case ENOSYS: return "kernel built without CONFIG_PERF_EVENTS";
	case EMFILE: return "raise the open-file limit (ulimit -n)";
	default: return "see perf_event_open(2)";
	}
}

static int mig_op(void *cpus) /* {there, back} */
{
	return pin(((int *)cpus)[0]) || pin(((int *)cpus)[1]);
}

/* pinned reader, condvar flavour: the caller bumps c_req, the reader copies it to c_ans; a non-NULL
 * argument to cv_op asks the reader to quit instead */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c_rq = PTHREAD_COND_INITIALIZER, c_an = PTHREAD_COND_INITIALIZER;
static int c_req, c_ans, c_quit;

static void *cv_reader(void *unused)
{
	pthread_mutex_lock(&mu);
	for (; !c_quit; c_ans = c_req, pthread_cond_signal(&c_an))
		while (c_req == c_ans && !c_quit)
			pthread_cond_wait(&c_rq, &mu);
	pthread_mutex_unlock(&mu);
	return unused;
}

static int cv_op(void *quit)
{
	pthread_mutex_lock(&mu);
	c_quit = quit != NULL;
	c_req++;
	pthread_cond_signal(&c_rq);
	while (c_ans != c_req && !c_quit)
		pthread_cond_wait(&c_an, &mu);
	pthread_mutex_unlock(&mu);
	return 0;
}

/* futex flavour: the same protocol on two words; both sides sleep in the kernel (spinning on a loaded
 * 2-CPU VM would steal the CPU the other side needs) */
static atomic_int f_req, f_ans;

static void fwait(atomic_int *w, int v) { syscall(SYS_futex, (void *)w, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0); }
static void fwake(atomic_int *w) { syscall(SYS_futex, (void *)w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0); }

static void *fx_reader(void *unused)
{
	int seen = 0, r;
	for (;;) {
		while ((r = atomic_load(&f_req)) == seen)
			fwait(&f_req, seen);
		if (r < 0) /* quit */
			return unused;
		atomic_store(&f_ans, seen = r);
		fwake(&f_ans);
	}
}

static int fx_op(void *quit)
{
	int r = quit ? -1 : atomic_load(&f_req) + 1, a; /* only the caller writes f_req */
	atomic_store(&f_req, r);
	fwake(&f_req);
	while (!quit && (a = atomic_load(&f_ans)) != r)
		fwait(&f_ans, a);
	return 0;
}

/* start a reader pinned on cpu from birth, time round trips from the caller's CPU, stop it */
static void handoff(const char *what, void *(*reader)(void *), int (*op)(void *), int cpu)
{
	pthread_attr_t at;
	pthread_t th;
	cpu_set_t set;
	int n = 0, err;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&at);
	pthread_attr_setaffinity_np(&at, sizeof(set), &set);
	err = pthread_create(&th, &at, reader, NULL);
	pthread_attr_destroy(&at);
	if (err) {
		printf("  reader thread (%s) on CPU %d: not started: %s\n", what, cpu, strerror(err));
		return;
	}
	double ns = measure(op, NULL, 20000, &n);
	op(&th);
	pthread_join(th, NULL);
	show(ns, &n, "", "a request to a reader pinned on CPU %d and its answer (%s), a round trip", cpu, what);
}

int main(void)
{
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t saved;
	int here = -1, there = -1, n = 0, k = 0, fds[GROUP];
	struct rd one = { .len = sizeof(uint64_t) }, grp = { .len = sizeof(uint64_t) * (GROUP + 1) };
	char tail[128] = "";

	printf("bench ipi: what a read from another CPU costs here (measured, %ld CPUs)\n", online);
	if (sched_getaffinity(0, sizeof(saved), &saved)) {
		printf("  sched_getaffinity: %s: nothing measured\n", strerror(errno));
		return 0;
	}
	for (int c = 0; c < CPU_SETSIZE; c++) /* events on the last CPU we may use; the caller on the first */
		if (CPU_ISSET(c, &saved)) {
			here = here < 0 ? c : here;
			there = c;
		}
	printf("  medians of up to %d batch means, operations timed in parentheses; events on CPU %d\n", BATCHES, there);
	if (here == there)
		printf("  only CPU %d usable (%ld online): remote read, move and pinned reader not measured\n", there, online);

	if ((one.fd = perf_open(there, -1, 0)) < 0) {
		printf("  perf reads (single and group): no cpu-clock event on CPU %d: %s: %s\n", there, strerror(errno),
		       hint(errno));
	} else {
		double l = show(read_on(&one, there, &n), &n, "", "read(2) of one event from its own CPU %d", there), r = -1;
		if (here != there) {
			snprintf(tail, sizeof(tail), ": the interrupt costs %.0f ns", (r = read_on(&one, here, &n)) - l);
			show(r, &n, l >= 0 ? tail : "", "read(2) of it from CPU %d", here);
		}
		/* a leader that reads the whole group in one go, then its siblings */
		while (k < GROUP && (fds[k] = perf_open(there, k ? fds[0] : -1, k ? 0 : PERF_FORMAT_GROUP)) >= 0)
			k++;
		grp.fd = fds[0];
		if (k < GROUP) {
			printf("  group of %d events on CPU %d: event %d not opened: %s: %s\n", GROUP, there, k,
			       strerror(errno), hint(errno));
		} else {
			show(read_on(&grp, there, &n), &n, "", "read(2) of a group of %d (PERF_FORMAT_GROUP) from CPU %d", GROUP,
			     there);
			snprintf(tail, sizeof(tail), ": one interrupt for %d events (%d single reads: %.0f ns)", GROUP, GROUP,
				 GROUP * r);
			if (here != there)
				show(read_on(&grp, here, &n), &n, r >= 0 ? tail : "", "read(2) of the group from CPU %d", here);
		}
		while (k-- > 0)
			close(fds[k]);
		close(one.fd);
	}

	if (here != there) {
		int mig[2] = { there, here };
		show(pin(here) ? -1 : measure(mig_op, mig, 2000, &n), &n, "",
		     "the calling thread moved to CPU %d and back (sched_setaffinity), a round trip", there);
		handoff("futex", fx_reader, fx_op, there);
		handoff("mutex+condvar", cv_reader, cv_op, there);
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	return 0;
}
