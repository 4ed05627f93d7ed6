/* Device groups' own byte counts against their IIO ports' (dev_compare.h; the bound: doc/health.md). */
#include <math.h>
#include "dev_compare.h"

const char *const dev_verdict_names[DEV_CMP_VERDICTS] = {
	[DEV_CMP_OK] = "ok",
	[DEV_CMP_IDLE] = "too little to judge",
	[DEV_CMP_NO_COUNTERS] = "not compared: a device keeps no byte counters",
	[DEV_CMP_NO_PORT] = "not compared: the port is not counted",
	[DEV_CMP_UNUSABLE] = "not judged: a device counter went backward or saturated",
	[DEV_CMP_UNCOUNTED] = "uncounted: the devices moved more than the port counted",
	[DEV_CMP_STOPPED] = "stopped: the devices' counters did not move while the port did",
	[DEV_CMP_ELSEWHERE] = "elsewhere: the devices' bytes are on another port (the stack map)",
};

/* A port of the same number as the group's is taken over another whose share is this much nearer (log: 5 %) */
#define SAME_PORT 0.05

/* A direction's bytes where counted (NAN: not counted, nothing) */
static double counted(double iio) { return isnan(iio) ? 0 : iio; }

/* The devices moved more in a direction than the port can have missed nothing of */
static int above(double pay, double iio) { return pay >= DEV_CMP_MIN_BYTES && pay > DEV_CMP_FACTOR * iio; /* (NAN: no) */ }

/* What port q counted that its own devices do not explain: all of it where the map puts no device there, the
 * excess over its devices' payload where they keep counters, nothing where one keeps none (a GPU may move
 * anything) */
static double unexplained(const struct dev_cmp *q, int out)
{
	double iio = out ? q->iio_out : q->iio_in;
	if (q->group < 0 || !q->devices)
		return iio;
	if (!q->counters || !q->usable)
		return 0;
	return iio - (out ? q->pay_out : q->pay_in);
}

/* A port of g's socket whose unexplained bytes hold g's payload in each direction it missed: the best, or -1 */
static int elsewhere(const struct dev_cmp *c, int n, int g)
{
	int best = -1;
	double best_dist = INFINITY; /* how far the share is from all of g's bytes (log: a half as far as a double) */
	for (int q = 0; q < n; q++) {
		if (q == g || !c[q].has_iio || c[q].socket != c[g].socket)
			continue;
		double share = INFINITY;
		for (int out = 0; out < 2; out++) {
			double pay = out ? c[g].pay_out : c[g].pay_in, iio = out ? c[g].iio_out : c[g].iio_in;
			if (above(pay, iio))
				share = fmin(share, unexplained(&c[q], out) / pay);
		}
		/* the nearest share; between near ones the same port number (a stack's root bus swapped keeps it) */
		double dist = fabs(log(share)) + (c[q].port != c[g].port ? SAME_PORT : 0);
		if (share >= 1 / DEV_CMP_FACTOR && isfinite(share) && dist < best_dist)
			best = q, best_dist = dist;
	}
	return best;
}

void dev_compare(struct dev_cmp *c, int n)
{
	for (int i = 0; i < n; i++) {
		struct dev_cmp *p = &c[i];
		p->other = -1;
		p->pay_in = fmax(0, p->dev_in - p->pkts_in * DEV_CMP_WIRE_HEADER);
		p->pay_out = fmax(0, p->dev_out - p->pkts_out * DEV_CMP_WIRE_HEADER);
		if (p->group < 0)
			p->verdict = DEV_CMP_IDLE; /* no device: nothing to compare, its bytes looked at for others' */
		else if (!p->counters)
			p->verdict = DEV_CMP_NO_COUNTERS;
		else if (!p->has_iio)
			p->verdict = DEV_CMP_NO_PORT;
		else if (!p->usable)
			p->verdict = DEV_CMP_UNUSABLE;
		else if (p->ns < DEV_CMP_MIN_NS)
			p->verdict = DEV_CMP_IDLE;
		else if (above(p->pay_in, p->iio_in) || above(p->pay_out, p->iio_out))
			p->verdict = DEV_CMP_UNCOUNTED;
		else if (!p->dev_in && !p->dev_out && counted(p->iio_in) + counted(p->iio_out) >= DEV_CMP_MIN_BYTES)
			p->verdict = DEV_CMP_STOPPED;
		else if (p->pay_in < DEV_CMP_MIN_BYTES && p->pay_out < DEV_CMP_MIN_BYTES)
			p->verdict = DEV_CMP_IDLE;
		else
			p->verdict = DEV_CMP_OK;
	}
	/* a group whose port missed its bytes, and a port that holds them: the map put the group on the wrong port */
	for (int g = 0; g < n; g++) {
		if (c[g].verdict != DEV_CMP_UNCOUNTED)
			continue;
		int q = elsewhere(c, n, g);
		if (q < 0)
			continue;
		c[g].verdict = DEV_CMP_ELSEWHERE, c[g].other = q;
		if (c[q].verdict == DEV_CMP_STOPPED) /* its own devices idle, the bytes g's */
			c[q].verdict = DEV_CMP_ELSEWHERE, c[q].other = g;
	}
}
