/*
 * The uncore clock's limits against the counted uncore clock (health_ufreq.h).  A socket's limits are the
 * envelope of its dies' or clusters' (the lowest minimum, the highest maximum): a box's clock is not known to
 * belong to one cluster.  A domain whose socket is not known (TPMI's package_id is root's alone) bounds every
 * socket.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "health_ufreq.h"
#include "access/access.h"
#include "ufreq/ufreq.h"

struct health_ufreq {
	int off;                                /* no limits to read here: not tried again */
	double lo[UC_MAX_SOCKETS], hi[UC_MAX_SOCKETS]; /* NAN: none read */
	struct uncore_freq_domain d[UFREQ_MAX_DOMAINS];
};

void health_ufreq_read(uncore_t *u, struct health_ufreq **fp)
{
	struct health_ufreq *f = *fp;
	if (!f && !(f = *fp = calloc(1, sizeof(*f))))
		return;
	for (int k = 0; k < UC_MAX_SOCKETS; k++)
		f->lo[k] = f->hi[k] = NAN;
	if (f->off)
		return;
	int n = ufreq_read(u, f->d, UFREQ_MAX_DOMAINS, 1);
	if (n < 0) {
		f->off = 1; /* no driver, no MSR: nothing to judge by (the first read's reason is not a health matter) */
		return;
	}
	for (int i = 0; i < n && i < UFREQ_MAX_DOMAINS; i++)
		for (int k = 0; k < UC_MAX_SOCKETS; k++) {
			const struct uncore_freq_domain *d = &f->d[i];
			if ((d->socket >= 0 && d->socket != k) || isnan(d->min_hz) || isnan(d->max_hz))
				continue;
			f->lo[k] = isnan(f->lo[k]) ? d->min_hz : fmin(f->lo[k], d->min_hz);
			f->hi[k] = isnan(f->hi[k]) ? d->max_hz : fmax(f->hi[k], d->max_hz);
		}
}

void health_ufreq_free(struct health_ufreq *f) { free(f); }

int health_ufreq_judge(const struct health_ufreq *f, int k, double hz, int busy, int exact, double slack, double floor,
		       char *why, size_t len)
{
	if (!f || k < 0 || k >= UC_MAX_SOCKETS || isnan(f->lo[k]) || isnan(f->hi[k]) || !(f->hi[k] > 0))
		return HEALTH_UFREQ_OK;
	double lo = f->lo[k], hi = f->hi[k];
	if (lo == hi && hi < floor && busy && fabs(hz - hi) <= hi * slack) {
		snprintf(why, len, "pinned by its limits at %.4g GHz (minimum = maximum), below the %.4g GHz the platform's "
			 "uncore runs at least, while the socket's memory is busy", hi / 1e9, floor / 1e9);
		return HEALTH_UFREQ_PINNED;
	}
	int above = hz > hi * (1 + slack), below = exact && busy && hz < lo * (1 - slack);
	if (!above && !below)
		return HEALTH_UFREQ_OK;
	snprintf(why, len, "%s the limits the kernel gives the socket's uncore clock (%.4g-%.4g GHz)", above ? "above" : "below",
		 lo / 1e9, hi / 1e9);
	return HEALTH_UFREQ_OUTSIDE;
}
