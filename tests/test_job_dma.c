/*
 * Issue 66 point 3: a job's devices' DMA (doc/jobs.md "Devices").  A simulated node whose jobs hold GPUs
 * (job.NAME.gpus: its spool and /proc/driver/nvidia as a node's) behind different IIO ports: each job that
 * holds every device of a group gets the group's bytes, its root port's IIO traffic as the simulator's
 * device DMA model makes it (sim_group_iio_bytes: the truth, not the library's count); a job holding one GPU of a two-GPU PCIe switch gets none of it (never split) and a
 * warning says why; what no job holds whole stays unattributed.  On sim: and perf+sim: of SPR, EMR and GNR.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sim_helpers.h"
#include "sim_truth.h"
#include "handle/handle.h"
#include "sim/sim_pcitree.h"
#include "sim/sim_devdma.h"

/* The simulator's counts are exact over a manual clock: measured within 0.01 % on every backend; 1 % is the
 * issue's bound, and a group given to the wrong job or split is 30 % off or more. */
#define TOL 0.01

static char dir[300];

/* job 1001 holds the GPU on socket 0 stack A port 0, job 1002 the GPU on socket 1 stack 2 port 3 (its CPUs on
 * socket 0: a row of its own there), job 1003 one GPU of the switch on socket 0 stack B port 1, job 1004 none
 * (no job of the node: the simulated spool shows the jobs that hold GPUs);
 * the NIC on socket 0 stack A port 2 is no job's.  A and B: two PCIe stacks of the board the machine is laid out
 * as (platforms/spr/board.c: 6 and 7; EMR's 1 and 3; platforms/gnr/board.c: 3 and 4) */
static void stacks_of(const char *spec, int *a, int *b)
{
	*a = strstr(spec, "spr") ? 6 : strstr(spec, "gnr") ? 3 : 1;
	*b = strstr(spec, "spr") ? 7 : strstr(spec, "gnr") ? 4 : 3;
}
static const char *devices_of(const char *spec)
{
	static char d[128];
	int a, b;
	stacks_of(spec, &a, &b);
	snprintf(d, sizeof(d), "gpu@0.%d.0+nic@0.%d.2+gpusw@0.%d.1+gpu@1.2.3", a, a, b);
	return d;
}
static const char profile[] = "job.1001.cpus = 0-3\njob.1001.gpus = 0\njob.1001.mem_read_bytes_per_s = 4e9\n"
			      "job.1002.cpus = 4-7\njob.1002.gpus = 3\njob.1002.mem_read_bytes_per_s = 2e9\n"
			      "job.1003.cpus = 8-9\njob.1003.gpus = 1\njob.1003.mem_read_bytes_per_s = 1e9\n"
			      "job.1004.cpus = 10\njob.1004.mem_read_bytes_per_s = 1e9\n";

/* The truth of a device group's bytes per second, written in (write) or read out: what the simulator's device
 * DMA model makes its port count (its devices' rates and overhead, sim_devdma.c) */
static double port_bps(const struct sim *sim, int s, int stack, int port, int write)
{
	return sim_group_iio_bytes(sim, s, 0, stack, port, write, 1.0);
}

struct got {
	double w, r;
	int rows;
};

/* job's device bytes on socket s over the rows of the last read ("" the unattributed row) */
static struct got dev_bytes(uncore_perjob_t *p, int n, const char *job, int s)
{
	struct got g = { 0, 0, 0 };
	for (int i = 0; i < n; i++) {
		struct uncore_attrib_row r;
		if (!uncore_perjob_row(p, i, &r) && r.socket == s && !strcmp(r.job, job)) {
			g.w += r.device_write_bytes, g.r += r.device_read_bytes;
			g.rows++;
		}
	}
	return g;
}

static int near(const char *what, double got, double want)
{
	int ok = fabs(got - want) <= TOL * fabs(want) && (want > 0 || got == 0);
	if (!ok)
		fprintf(stderr, "%s: %.9g, truth %.9g\n", what, got, want);
	return ok;
}

static void check(const char *spec)
{
	char full[700], what[200];
	char stk[64];
	int sa, sb;
	stacks_of(spec, &sa, &sb);
	snprintf(stk, sizeof(stk), "socket 0 IIO stack %d port 1 (behind", sb);
	snprintf(full, sizeof(full), "%s,clock=manual,profile=%s/profile,devices=%s", spec, dir, devices_of(spec));
	uncore_t *u = open_sim(full);
	const struct sim *sim = sim_of(u->acc);
	uncore_perjob_t *p = NULL;
	struct uncore_job_tally t = { 0 };
	size_t said = strlen(uncore_warnings());
	CU_ASSERT_FATAL(uncore_perjob_new(u, &p) == 0);
	CU_ASSERT_FATAL(uncore_perjob_start(p, &t) == 0);
	CU_ASSERT_EQUAL(t.n, 3); /* 1004 holds no GPU: the simulated spool shows it not, its CPUs are no job's */
	const char *w = uncore_warnings() + said;
	CU_ASSERT(strstr(w, "devices: job 1003 holds card1 (") && strstr(w, ") but not card2 (") &&
		  strstr(w, stk) && strstr(w, "of the 2 devices on ") &&
		  strstr(w, "a PCIe switch): the port's counters count them as one, so their DMA stays unattributed (a group "
			    "is never split)"));
	for (int i = 0; i < 10; i++) { /* 10 s: a read each second, as the front ends run it */
		for (int k = 0; k < 9; k++) {
			uncore_sleep_ns(u, 100000000u);
			CU_ASSERT(uncore_perjob_step(p) == 0);
		}
		uncore_sleep_ns(u, 100000000u);
		CU_ASSERT_FATAL(uncore_perjob_read(p, UNCORE_LAST_INTERVAL, &t) > 0);
	}
	CU_ASSERT(uncore_perjob_stop(p) == 0);
	int n = uncore_perjob_read(p, UNCORE_SINCE_START, NULL);
	CU_ASSERT_FATAL(n > 0);
	const struct {
		const char *job;
		int socket, stack[2], port[2];
	} want[] = { { "1001", 0, { sa, -1 }, { 0, -1 } }, { "1002", 1, { 2, -1 }, { 3, -1 } }, { "", 0, { sb, sa }, { 1, 2 } } };
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		struct got g = dev_bytes(p, n, want[k].job, want[k].socket);
		double tw = 0, tr = 0;
		for (int q = 0; q < 2 && want[k].port[q] >= 0; q++)
			tw += 10 * port_bps(sim, want[k].socket, want[k].stack[q], want[k].port[q], 1),
				tr += 10 * port_bps(sim, want[k].socket, want[k].stack[q], want[k].port[q], 0);
		snprintf(what, sizeof(what), "%s: job %s socket %d, device bytes written", spec,
			 want[k].job[0] ? want[k].job : "unattributed", want[k].socket);
		CU_ASSERT(g.rows == 1 && near(what, g.w, tw));
		snprintf(what, sizeof(what), "%s: job %s socket %d, device bytes read", spec,
			 want[k].job[0] ? want[k].job : "unattributed", want[k].socket);
		CU_ASSERT(near(what, g.r, tr));
	}
	/* the half-held switch: none of it job 1003's; no job's elsewhere; socket 1 has no unheld group */
	struct got g = dev_bytes(p, n, "1003", 0);
	CU_ASSERT(g.w == 0 && g.r == 0);
	g = dev_bytes(p, n, "1004", 0);
	CU_ASSERT(g.rows == 0);
	g = dev_bytes(p, n, "1001", 1);
	CU_ASSERT(g.rows == 0);
	g = dev_bytes(p, n, "", 1);
	CU_ASSERT(g.rows == 1 && g.w == 0 && g.r == 0);
	/* job 1002's row on socket 1, made for its GPU: no memory bytes, the socket's count beside them */
	for (int i = 0; i < n; i++) {
		struct uncore_attrib_row r;
		if (!uncore_perjob_row(p, i, &r) && r.socket == 1 && !strcmp(r.job, "1002"))
			CU_ASSERT(r.read_bytes == 0 && r.write_bytes == 0 && r.sampled == 0 && r.seconds > 9.99);
	}
	/* the tally: each read's interval added up to the whole */
	for (int i = 0; i < t.n; i++) {
		double tw = !strcmp(t.jobs[i].id, "1001") ? 10 * port_bps(sim, 0, sa, 0, 1)
			    : !strcmp(t.jobs[i].id, "1002") ? 10 * port_bps(sim, 1, 2, 3, 1) : 0;
		snprintf(what, sizeof(what), "%s: tally of job %s, device bytes written", spec, t.jobs[i].id);
		CU_ASSERT(near(what, t.jobs[i].device_write_bytes, tw));
	}
	snprintf(what, sizeof(what), "%s: tally, unattributed device bytes read", spec);
	CU_ASSERT(near(what, t.unattributed_device_read, 10 * (port_bps(sim, 0, sb, 1, 0) + port_bps(sim, 0, sa, 2, 0))));
	uncore_perjob_free(p);
	uncore_job_tally_free(&t);
	uncore_close(u);
}

static void test_dma(void)
{
	static const char *const specs[] = { "sim:spr", "perf+sim:spr", "sim:emr", "sim:gnr", "perf+sim:gnr" };
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		check(specs[i]);
}

/* No job holds a device: every group's bytes are unattributed, and nothing is said */
static void test_no_gpus(void)
{
	char full[700];
	snprintf(full, sizeof(full), "sim:spr,clock=manual,profile=%s/profile2,devices=%s", dir, devices_of("sim:spr"));
	uncore_t *u = open_sim(full);
	uncore_perjob_t *p = NULL;
	size_t said = strlen(uncore_warnings());
	CU_ASSERT_FATAL(uncore_perjob_new(u, &p) == 0);
	CU_ASSERT_FATAL(uncore_perjob_start(p, NULL) == 0);
	CU_ASSERT(!strstr(uncore_warnings() + said, "devices:"));
	uncore_sleep_ns(u, 1000000000u);
	int n = uncore_perjob_read(p, UNCORE_SINCE_START, NULL);
	const struct sim *sim = sim_of(u->acc);
	struct got g = dev_bytes(p, n, "", 0);
	CU_ASSERT(near("no GPU held: socket 0's groups unattributed", g.w,
		       port_bps(sim, 0, 6, 0, 1) + port_bps(sim, 0, 7, 1, 1) + port_bps(sim, 0, 6, 2, 1)));
	g = dev_bytes(p, n, "", 1);
	CU_ASSERT(near("no GPU held: socket 1's group unattributed", g.w, port_bps(sim, 1, 2, 3, 1)));
	uncore_perjob_free(p);
	uncore_close(u);
}

int main(void)
{
	snprintf(dir, sizeof(dir), "%s/uncore-job-dma-%d", test_tmpdir(), (int)getpid());
	if (mkdir(dir, 0700))
		return 1;
	char path[400];
	snprintf(path, sizeof(path), "%s/profile", dir);
	FILE *f = fopen(path, "w");
	fputs(profile, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s/profile2", dir);
	f = fopen(path, "w");
	fputs("job.a.cpus = 0-3\njob.a.mem_read_bytes_per_s = 4e9\n", f);
	fclose(f);
	setenv("UNCORE_SYSROOT", dir, 1); /* no cgroup, no spool of the host: the simulated node's own */
	static const struct test_case tests[] = {
		{ "jobs get their GPUs' group bytes, a switch never split", test_dma },
		{ "no GPU held: every group unattributed, nothing said", test_no_gpus },
		{ NULL, NULL },
	};
	int rc = run_suite("job DMA", tests);
	char cmd[400];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
	return rc;
}
