/*
 * The energy rows of `uncore check` (issue 68 point 4): a plausibility check of the node's energy counters with
 * the check's own traffic.  On a socket (--socket, else 0), the DRAM power over an idle stretch and over a copy
 * generator's run as long: DRAM's power must rise with the bytes the generator moved, by at least 0.01 and at
 * most 2 W per GB/s (10 pJ to 2 nJ a byte: below the access energy of any DDR generation, and above DDR3's
 * ~0.6 nJ a byte with its background power; a counter that stands still, or a unit 16 x off, falls outside),
 * and the package's power over both must lie within 1..1000 W (no server socket idles below 1 W, and none
 * draws 1000 W: 500 W is the highest TDP, Xeon 6 6980P, and PL2 1.2 x that).  On the simulator the idle
 * stretch and the generator's bytes are the socket's workload (uncore_sim_workload).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "../cli.h"

#define DRAM_RISE_MIN 0.01 /* W per GB/s */
#define DRAM_RISE_MAX 2.0
#define PKG_MIN_W 1.0
#define PKG_MAX_W 1000.0

/* On the simulator a stretch is at least this long in its time, which it skips rather than waits: the host's
 * time between the two reads (the profile's traffic at the profile's power) is then a small part of it, even
 * when a loaded machine preempts the check there for tens of milliseconds. */
#define SIM_STRETCH_NS 10000000000ull

/* The socket's DRAM and package watts over a stretch: the generator g run (NULL: idle for ns).  On the
 * simulator the generator runs first, on the host's time, and its bytes then move in the simulator's over a
 * stretch as long (at least SIM_STRETCH_NS, at the generator's rate), between the two reads. */
static int stretch(struct check *c, uncore_energy_t *e, int sock, struct gen *g, uint64_t ns, double w[2])
{
	double j[2];
	if (g && c->sim)
		gen_go(g);
	if (uncore_energy_read(e) < 0)
		return -1;
	if (g && !c->sim)
		gen_go(g);
	ns = g ? g->ns : ns;
	if (c->sim) {
		uint64_t sim_ns = ns > SIM_STRETCH_NS ? ns : SIM_STRETCH_NS;
		double scale = ns ? (double)sim_ns / (double)ns : 0;
		if (uncore_sim_workload(c->u, sock, g ? (double)g->read_bytes * scale : 0, g ? (double)g->write_bytes * scale : 0,
					sim_ns))
			return -1;
	}
	if (!c->sim && !g && uncore_sleep_ns(c->u, ns))
		return -1;
	if (uncore_energy_read(e) < 0 ||
	    uncore_energy_value(e, sock, UNCORE_ENERGY_DRAM, UNCORE_LAST_INTERVAL, &j[0]) < 0 ||
	    uncore_energy_value(e, sock, UNCORE_ENERGY_PKG, UNCORE_LAST_INTERVAL, &j[1]) < 0)
		return -1;
	double secs = uncore_energy_seconds(e, UNCORE_LAST_INTERVAL);
	w[0] = secs > 0 ? j[0] / secs : NAN;
	w[1] = secs > 0 ? j[1] / secs : NAN;
	return 0;
}

int check_energy_rows(struct check *c, int socket, size_t bytes)
{
	const char *rise = "DRAM energy rises with the traffic", *pkg = "package power plausible";
	char check[96], check2[96], exp[96], got[96], err[256];
	int sock = socket < 0 ? 0 : socket;
	uncore_energy_t *e = NULL;
	struct gen g;
	double idle[2], busy[2];
	snprintf(check, sizeof(check), "socket %d: %s", sock, rise);
	snprintf(check2, sizeof(check2), "socket %d: %s", sock, pkg);
	snprintf(exp, sizeof(exp), "+%g..%g W per GB/s", DRAM_RISE_MIN, DRAM_RISE_MAX);
	if (c->sim_shared)
		return verdict_add(c->t, V_SKIP, check, exp, "-", "%s", "a machine shared with other processes: its traffic "
				   "is theirs, the check moves none of its own");
	if (uncore_energy_new(c->u, NULL, &e) || uncore_energy_start(e, 0)) {
		snprintf(err, sizeof(err), "%s", uncore_error());
		uncore_energy_free(e);
		return verdict_add(c->t, V_SKIP, check, exp, "-", "%s", err);
	}
	if (gen_prepare(&g, GEN_COPY, c->sim ? -1 : host_socket_cpu(c, sock), bytes, err, sizeof(err))) {
		uncore_energy_free(e);
		return verdict_add(c->t, V_SKIP, check, exp, "-", "%s", err);
	}
	int rc = stretch(c, e, sock, &g, 0, busy) || stretch(c, e, sock, NULL, g.ns, idle);
	double gbps = g.ns ? (double)(g.read_bytes + g.write_bytes) / ((double)g.ns / 1e9) / 1e9 : 0;
	gen_free(&g);
	if (rc) {
		snprintf(err, sizeof(err), "%s", uncore_error());
		uncore_energy_free(e);
		return verdict_add(c->t, V_FAIL, check, exp, "-", "the energy counters could not be read: %s", err);
	}
	double per = gbps > 0 ? (busy[0] - idle[0]) / gbps : NAN;
	snprintf(got, sizeof(got), "%.2f W idle, %.2f W at %.1f GB/s: %+.3f", idle[0], busy[0], gbps, per);
	if (c->hbm_only[sock]) /* the DRAM domain is the DIMMs' (Intel SDM vol. 3B 15.10.5); the bytes went to HBM */
		verdict_add(c->t, V_SKIP, check, exp, got, "socket %d has no DDR DIMM (HBM only): the DRAM domain has no "
			    "DIMM whose power the traffic raises", sock);
	else if (!(per >= DRAM_RISE_MIN && per <= DRAM_RISE_MAX))
		verdict_add(c->t, V_FAIL, check, exp, got, "DRAM's power %s with the %.1f GB/s the check moved: a counter "
			    "that stands still, a wrong energy unit, or another socket's DRAM",
			    per < DRAM_RISE_MIN ? "does not rise" : "rises too much", gbps);
	else
		verdict_add(c->t, V_PASS, check, exp, got, "%s", "");
	snprintf(exp, sizeof(exp), "%g..%g W", PKG_MIN_W, PKG_MAX_W);
	snprintf(got, sizeof(got), "%.1f W idle, %.1f W busy", idle[1], busy[1]);
	if (!(fmin(idle[1], busy[1]) >= PKG_MIN_W && fmax(idle[1], busy[1]) <= PKG_MAX_W))
		verdict_add(c->t, V_FAIL, check2, exp, got, "%s", "no server socket draws that: a counter that stands still or "
			    "a wrong energy unit");
	else
		verdict_add(c->t, V_PASS, check2, exp, got, "%s", "");
	uncore_energy_free(e);
	return 0;
}
