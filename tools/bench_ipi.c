/*
 * uncore-bench-ipi: what this machine really takes for the three ways a read can reach another CPU, the
 * measurements behind the cost model of doc/cost.md: reading a CPU's perf event from that CPU and from
 * another (the kernel then interrupts the event's CPU: the difference is the interrupt), moving the calling
 * thread there and back (sched_setaffinity), and handing the read to a thread pinned there and waiting for
 * it.  A software event stands in for an uncore one (no hardware counters in a VM): the kernel reads an
 * active event of another CPU the same way, through smp_call_function_single.  Means over each batch.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#endif
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

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

/* ns per read(2) of fd from a thread on cpu */
static double read_from(int fd, int cpu, int n)
{
	uint64_t v;
	if (pin(cpu))
		return -1;
	double t0 = now_ns();
	for (int i = 0; i < n; i++)
		if (read(fd, &v, sizeof(v)) != sizeof(v))
			return -1;
	return (now_ns() - t0) / n;
}

/* a reader pinned on its CPU: the caller posts a request and waits for the answer */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int asked, answered, quit;

static void *reader(void *arg)
{
	pin(*(int *)arg);
	pthread_mutex_lock(&mu);
	while (!quit) {
		while (asked == answered && !quit)
			pthread_cond_wait(&cv, &mu);
		answered = asked;
		pthread_cond_broadcast(&cv);
	}
	pthread_mutex_unlock(&mu);
	return NULL;
}

int main(void)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	cpu_set_t saved;
	sched_getaffinity(0, sizeof(saved), &saved);
	printf("bench ipi: what a read from another CPU costs here (measured, %ld CPUs; means)\n", ncpu);
	if (ncpu < 2) {
		printf("  one CPU online: nothing is ever remote here\n");
		return 0;
	}
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .config = PERF_COUNT_SW_CPU_CLOCK };
	int fd = (int)syscall(SYS_perf_event_open, &a, -1, 1, -1, 0);
	if (fd < 0)
		printf("  perf event on CPU 1: %s (perf_event_paranoid above 0 without CAP_PERFMON?): no read timed\n",
		       strerror(errno));
	else {
		double local = read_from(fd, 1, 20000), remote = read_from(fd, 0, 20000);
		printf("  read(2) of CPU 1's event: from CPU 1 %.0f ns, from CPU 0 %.0f ns: the interrupt %.0f ns\n", local,
		       remote, remote - local);
		close(fd);
	}
	pin(0);
	double t0 = now_ns();
	for (int i = 0; i < 2000; i++)
		if (pin(1) || pin(0))
			break;
	printf("  the thread moved to CPU 1 and back: %.0f ns a round trip\n", (now_ns() - t0) / 2000);
	pthread_t th;
	int cpu1 = 1;
	if (pthread_create(&th, NULL, reader, &cpu1) == 0) {
		t0 = now_ns();
		for (int i = 0; i < 20000; i++) {
			pthread_mutex_lock(&mu);
			asked++;
			pthread_cond_broadcast(&cv);
			while (answered != asked)
				pthread_cond_wait(&cv, &mu);
			pthread_mutex_unlock(&mu);
		}
		printf("  a request to a reader pinned on CPU 1 and its answer: %.0f ns a round trip\n", (now_ns() - t0) / 20000);
		pthread_mutex_lock(&mu);
		quit = 1;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		pthread_join(th, NULL);
	}
	sched_setaffinity(0, sizeof(saved), &saved);
	return 0;
}
