/*
 * One read: every series' value and the time its counters were read.  A series whose box failed (taken over
 * by another agent, a device gone) is dropped for good: a count with a gap in it would be wrong, and a
 * counter that disappears is what Prometheus handles (its rate ends), where one that stalls would lie.
 */
#include <math.h>
#include <stdio.h>
#include <time.h>
#include "ue.h"
#include "ue_log.h"

uint64_t ue_mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int ue_read(struct ue_state *st)
{
	uint64_t t0 = ue_mono_ns(), lib, real;
	int alive = 0, rc = uncore_session_num_events(st->s) ? uncore_session_read(st->s) : 0;
	char why[512] = "";
	if (rc)
		snprintf(why, sizeof(why), "%s", uncore_error());
	uncore_clock_pair(st->u, &lib, &real);
	real = uncore_wall_stamp(&st->wall, lib, real); /* the stamps never back: Prometheus refuses one older */
	for (int i = 0; i < st->nseries; i++) {
		struct ue_series *se = &st->series[i];
		double v = NAN;
		uint64_t n, t;
		if (se->failed || se->metric == UE_ENERGY_SERIES || se->metric == UE_PEAK_SERIES) /* ue_energy_read's, ue_peak_read's */
			continue;
		if (se->metric < 0) {
			rc = uncore_session_value(st->s, se->event, se->socket, -1, &n);
			v = (double)n;
			t = uncore_session_read_time_ns(st->s, se->event, se->socket, -1);
		} else if (se->node >= 0) { /* 1: no channel of it serves the node (not so when planned) */
			if ((rc = uncore_session_node_value(st->s, se->metric, se->node, se->window, &v)) == 1)
				rc = UNCORE_NOT_COUNTED;
			t = uncore_session_metric_read_time_ns(st->s, se->metric, se->socket, -1);
		} else {
			rc = uncore_session_metric_value(st->s, se->metric, se->socket, se->box, se->window, &v);
			v *= se->to_base;
			t = uncore_session_metric_read_time_ns(st->s, se->metric, se->socket, se->box);
		}
		if (rc && rc != UNCORE_NOT_COUNTED) {
			if (!why[0])
				snprintf(why, sizeof(why), "%s", uncore_error());
			se->failed = 1;
			se->have = 0;
			continue;
		}
		alive++;
		/* nothing to report yet (no interval, nothing to divide by, multiplexed out): the last value stays */
		if (rc || !isfinite(v) || (st->fams[se->fam].counter && (v < 0 || (se->have && v < se->value))))
			continue;
		/* bytes and events are whole numbers: a rate times its window is one up to the float's rounding */
		se->value = st->fams[se->fam].counter && v < 9e15 ? floor(v + 0.5) : v;
		se->t_ns = ue_stamp(lib, real, t);
		se->have = 1;
	}
	ue_energy_read(st, lib, real);
	ue_peak_read(st, lib, real);
	if (uncore_perjob_started(st->perjob))
		ue_jobs_read(st, lib, real);
	ue_health_read(st);
	ue_ufreq_read(st);
	st->reads++;
	st->read_seconds += (double)(ue_mono_ns() - t0) / 1e9;
	if (why[0]) {
		st->failures++;
		ue_log("%s; the series it feeds are no longer exported, the others go on", why);
	}
	return alive || !st->nseries ? 0 : -1;
}
