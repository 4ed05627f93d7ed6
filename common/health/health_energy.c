/* Health's watch over the energy counters (health_energy.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "health_energy.h"
#include "energy/energy.h" /* the counters' refused reads */

__attribute__((format(printf, 5, 0))) static void cond(struct health_energy *st, int kind, int socket, int d,
							const char *fmt, double a, double b)
{
	struct health_energy_cond *c = &st->c[st->n++];
	c->kind = kind;
	c->socket = socket;
	snprintf(c->unit, sizeof(c->unit), "%s", uncore_energy_domain_name(d));
	int n = snprintf(c->what, sizeof(c->what), "socket %d %s energy: ", socket, uncore_energy_domain_name(d));
	snprintf(c->what + n, sizeof(c->what) - (size_t)n, fmt, a, b);
}

int health_energy_judge(struct health_energy *st, const struct health_energy_cond **out)
{
	const uncore_energy_t *e = st->e;
	uint64_t at = e ? uncore_energy_read_time_ns(e) : 0;
	double secs = e ? uncore_energy_seconds(e, UNCORE_LAST_INTERVAL) : 0;
	int bad = 0;
	*out = st->c;
	for (int i = 0; e && i < e->n; i++)
		bad |= e->c[i].bad_last;
	if (!e || at == st->judged || (!bad && secs * 1e9 < (double)HEALTH_ENERGY_MIN_NS))
		return e ? st->n : 0; /* nothing new, or too short a window to say: the last judgement stands */
	st->judged = at;
	st->n = 0;
	for (int i = 0; i < e->n && st->n < UC_MAX_SOCKETS * UNCORE_ENERGY_DOMAINS; i++) /* (half of st->c) */
		if (e->c[i].bad_last) { /* a value refused or a step dropped in the interval: its joules are short */
			struct health_energy_cond *c = &st->c[st->n++];
			c->kind = UNCORE_HEALTH_ENERGYSTUCK;
			c->socket = e->c[i].socket;
			snprintf(c->unit, sizeof(c->unit), "%s", uncore_energy_domain_name(e->c[i].domain));
			snprintf(c->what, sizeof(c->what), "%s", e->c[i].bad_why);
		}
	if (secs * 1e9 < (double)HEALTH_ENERGY_MIN_NS)
		return st->n;
	for (int k = 0; k < UC_MAX_SOCKETS; k++)
		for (int d = 0; d < UNCORE_ENERGY_DOMAINS; d++) {
			double j;
			if (uncore_energy_value(e, k, d, UNCORE_LAST_INTERVAL, &j) < 0)
				continue; /* (not read on this socket: nothing to judge) */
			double w = j / secs, all = 0;
			if (d == UNCORE_ENERGY_PSYS && !uncore_energy_value(e, k, d, UNCORE_SINCE_START, &all) && all == 0)
				continue; /* a platform counter another socket counts (SPR's psys reads 0 but on socket 0) */
			st->still[k][d] = j == 0 ? st->still[k][d] + 1 : 0;
			if (st->still[k][d] >= 2)
				cond(st, UNCORE_HEALTH_ENERGYSTUCK, k, d, "the counter stood still over %.3g s (%.0f intervals in a row)",
				     secs, st->still[k][d]);
			else if (j != 0 && (w > HEALTH_ENERGY_MAX_W || (d == UNCORE_ENERGY_PKG && w < HEALTH_ENERGY_MIN_W)))
				cond(st, UNCORE_HEALTH_ENERGYUNIT, k, d, "%.4g W over %.3g s: no server socket draws that", w, secs);
		}
	return st->n;
}
