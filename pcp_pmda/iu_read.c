/*
 * One read of everything the agent counts: at every fetch (so that a counter's value is of the fetch's
 * moment and pmval's rates divide by the right time) and at least every second between fetches (counters
 * read well within their wrap times).  A value whose box failed stays absent for good: a count with a gap
 * would be wrong.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "iu_pmda.h"
#include "iu_log.h"

uint64_t iu_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int health_count(struct iu_state *st, int kind, int socket)
{
	struct uncore_health h[64];
	int n = uncore_session_health(st->s, h, 64), c = 0;
	for (int i = 0; i < n && i < 64; i++)
		c += h[i].kind == kind && h[i].socket == socket;
	return c;
}

int iu_read(struct iu_state *st)
{
	if (!st->u)
		return -1; /* (the node changed and the agent no longer counts: iu_node.c) */
	/* pmcd stamps a fetch when its agents have answered: the counters are read last, just before the answer,
	 * the jobs (a scan of their cgroups) and the clock limits (files) first */
	if (st->perjob)
		iu_jobs_read(st);
	if (st->ufreq) { /* the limits now (a domain gone: its values absent) */
		int n = uncore_freq_read(st->u, st->ufreq, IU_UFREQ_MAX); /* (the entries found when it planned) */
		st->nufreq = n < 0 ? 0 : n < IU_UFREQ_MAX ? n : IU_UFREQ_MAX;
	}
	if (uncore_session_num_events(st->s) && uncore_session_read(st->s))
		iu_log(LOG_WARNING, "%s", uncore_error());
	if (st->energy && uncore_energy_read(st->energy))
		iu_log(LOG_WARNING, "%s", uncore_error());
	struct uncore_health ch[64];
	int nch = uncore_session_health_changes(st->s, ch, 64);
	for (int i = 0; i < nch && i < 64; i++) /* each change a line in the agent's log */
		iu_log(ch[i].raised ? LOG_WARNING : LOG_INFO, "health %s %s: %s", uncore_health_name(ch[i].kind),
			    ch[i].raised ? "raised" : "cleared", ch[i].what);
	for (int i = 0; i < st->nv; i++) {
		struct iu_value *v = &st->v[i];
		const struct iu_metric *m = &iu_metrics[v->m];
		double x = NAN;
		int rc = 0;
		if (v->failed)
			continue;
		switch (m->src) {
		case IU_SERIES:
			rc = uncore_session_metric_value(st->s, v->metric, v->socket, v->box, v->window, &x);
			x *= v->to_base;
			break;
		case IU_NODE: /* 1: no channel of it serves the node */
			if ((rc = uncore_session_node_value(st->s, v->metric, v->node, v->window, &x)) == 1)
				rc = UNCORE_NOT_COUNTED;
			break;
		case IU_ENERGY:
			rc = uncore_energy_value(st->energy, v->socket, v->event, UNCORE_SINCE_START, &x) < 0 ? UNCORE_NOT_COUNTED : 0;
			break;
		case IU_JOB: /* not a value of st->v: iu_job_value */
			break;
		case IU_UFREQ: /* NAN: not shown here (no initial limits from the MSRs) */
			if (v->box < st->nufreq)
				x = *(const double *)(const void *)((const char *)&st->ufreq[v->box] + m->off);
			else
				v->have = 0;
			break;
		case IU_PEAK: /* the peak stays as planned; the share: 1, no value yet (no interval) */
			if (v->event >= 0 && (rc = uncore_session_peak_share(st->s, v->event, v->socket, UNCORE_LAST_INTERVAL, &x)) == 1)
				rc = UNCORE_NOT_COUNTED;
			else if (v->event < 0)
				x = v->value;
			break;
		case IU_HEALTH:
			x = health_count(st, v->event, v->socket);
			break;
		}
		if (rc && rc != UNCORE_NOT_COUNTED) {
			iu_log(LOG_WARNING, "%s: %s; no longer reported", m->name, uncore_error());
			v->failed = 1;
			v->have = 0;
			continue;
		}
		if (m->sem == PM_SEM_COUNTER)
			x += v->base; /* its count before the node changed */
		/* nothing yet (no interval, multiplexed out): the last value stays; a counter never goes back */
		if (rc || !isfinite(x) || (m->sem == PM_SEM_COUNTER && (x < 0 || (v->have && x < v->value))))
			continue;
		v->value = m->type == PM_TYPE_U64 ? floor(x + 0.5) : x; /* bytes and events are whole numbers */
		v->have = 1;
	}
	st->last_read_ns = iu_now_ns();
	return 0;
}
