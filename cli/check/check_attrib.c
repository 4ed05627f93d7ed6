/*
 * check_attrib.c: the attribution of memory traffic to jobs proved on this node (issue 46 point 6).  Two
 * streaming-read generators at once, one reading twice what the other does, on the first two CPUs of a
 * socket (two cores as Linux numbers them),
 * each CPU a set of its own in an attribution (uncore_attrib_new_cpus, doc/jobs.md "Shared nodes"): each
 * set must be given what its generator read, less 5 % at most (sampling, the count's rounding) and more
 * by 5 % and 16 MiB at most (the program's own lines, the other set's and the node's leaking in).  On the
 * simulator the generators' bytes are the workload of their CPU sets (uncore_sim_workload_cpus).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../cli.h"

#define ATTR_REL 0.05
#define ATTR_ABS (16.0 * 1048576)

struct set_gen {
	struct gen g;
	int cpu, ok;
	size_t bytes;
	char err[256];
};

static void *run_gen(void *arg)
{
	struct set_gen *j = arg;
	if (!gen_prepare(&j->g, GEN_READ, j->cpu, j->bytes, j->err, sizeof(j->err))) {
		j->ok = 1;
		gen_go(&j->g);
	}
	return NULL;
}

/* The first two CPUs of a CPU list ("0-27,56-83": 0 and 1); -1 without two. */
static int first_two(const char *list, int cpu[2])
{
	char *end;
	cpu[0] = (int)strtol(list, &end, 10);
	if (end == list)
		return -1;
	if (*end == '-') {
		cpu[1] = cpu[0] + 1;
		return 0;
	}
	if (*end != ',')
		return -1;
	cpu[1] = (int)strtol(end + 1, &end, 10);
	return 0;
}

/* Both generators, at once where they can be pinned (each in a thread of its own), else one after the other
 * with the simulator told what each set moved. */
static int run_sets(struct check *c, struct set_gen j[2], const char *const cl[2])
{
	if (c->sim) {
		run_gen(&j[0]);
		run_gen(&j[1]);
		if (!j[0].ok || !j[1].ok)
			return 0;
		double rd[2] = { (double)j[0].g.read_bytes, (double)j[1].g.read_bytes }, wr[2] = { 0, 0 };
		return uncore_sim_workload_cpus(c->u, 2, cl, rd, wr, j[0].g.ns + j[1].g.ns);
	}
	pthread_t t[2];
	int started[2];
	for (int i = 0; i < 2; i++)
		started[i] = !pthread_create(&t[i], NULL, run_gen, &j[i]);
	for (int i = 0; i < 2; i++)
		if (started[i])
			pthread_join(t[i], NULL);
		else
			snprintf(j[i].err, sizeof(j[i].err), "cannot start a thread for it");
	return 0;
}

int check_attrib_rows(struct check *c, int socket, size_t bytes)
{
	const char *title = "attribution: two CPU sets at once";
	char list[512], cpus[2][16], check[96], exp[96], got[96], a[32], b[32];
	int sock = socket >= 0 ? socket : 0, cpu[2];
	if (!uncore_attrib_counts(c->u))
		return verdict_add(c->t, V_SKIP, title, "-", "-", "%s has no per-thread count of LLC misses",
				   uncore_platform_name(c->u));
	if (c->sim_shared)
		return verdict_add(c->t, V_SKIP, title, "-", "-", "a simulated machine shared with other processes (shared=) "
				   "counts no workload of the check's: give the check a machine of its own");
	if (sock < UC_CHECK_SOCKETS && c->hbm_only[sock])
		return verdict_add(c->t, V_SKIP, title, "-", "-", "socket %d has no DDR DIMM (HBM only): the attribution "
				   "apportions the DDR channels' bytes, and none move there", sock);
	if (uncore_socket_cpus(c->u, sock, list, sizeof(list)) < 2 || first_two(list, cpu))
		return verdict_add(c->t, V_SKIP, title, "-", "-", "socket %d has fewer than two CPUs", sock);
	/* unequal loads: counts split evenly between the sets (a thread filter ignored) cannot pass for right */
	struct set_gen j[2] = { { .cpu = c->sim ? -1 : cpu[0], .bytes = bytes },
				{ .cpu = c->sim ? -1 : cpu[1], .bytes = bytes / 2 > 64 ? bytes / 2 : bytes } };
	const char *names[2] = { cpus[0], cpus[1] }, *cl[2] = { cpus[0], cpus[1] };
	for (int i = 0; i < 2; i++)
		snprintf(cpus[i], sizeof(cpus[i]), "%d", cpu[i]);
	uncore_attrib_t *at = NULL;
	int rc = -1, n;
	if (uncore_attrib_new_cpus(c->u, 2, names, cl, &at) || uncore_attrib_start(at) || run_sets(c, j, cl) ||
	    uncore_attrib_stop(at) || (n = uncore_attrib_read(at, UNCORE_SINCE_START)) < 0)
		goto out;
	for (int i = 0; i < 2; i++) {
		snprintf(check, sizeof(check), "attribution: CPU %d's reads, CPU %d's at once", cpu[i], cpu[1 - i]);
		if (!j[i].ok) {
			rc = verdict_add(c->t, V_SKIP, check, "-", "-", "%s", j[i].err);
			continue;
		}
		double gen = (double)j[i].g.read_bytes, lo = gen * (1 - ATTR_REL), hi = gen * (1 + ATTR_REL) + ATTR_ABS, v = -1;
		for (int r = 0; r < n; r++) {
			struct uncore_attrib_row row;
			if (!uncore_attrib_row(at, r, &row) && row.socket == sock && !strcmp(row.job, cpus[i]))
				v = row.read_bytes;
		}
		check_mib(a, sizeof(a), lo);
		check_mib(b, sizeof(b), hi);
		snprintf(exp, sizeof(exp), "%s .. %s", a, b);
		check_mib(got, sizeof(got), v);
		if (v < lo || v > hi)
			rc = verdict_add(c->t, V_FAIL, check, exp, v < 0 ? "none" : got,
					 "%s: the thread filter does not separate the cores, or a core's misses do not spread "
					 "evenly over the socket's boxes", v < lo ? "less than it read" : "more than it read");
		else
			rc = verdict_add(c->t, V_PASS, check, exp, got, "%s", "");
	}
out:
	if (rc < 0) /* a step could not run: the row says why */
		rc = verdict_add(c->t, V_FAIL, title, "both sets counted", "failed", "%s", uncore_error());
	uncore_attrib_free(at);
	for (int i = 0; i < 2; i++)
		if (j[i].ok)
			gen_free(&j[i].g);
	return rc;
}
