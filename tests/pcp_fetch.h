/* What pmcd would fetch from the PCP agent's state after its read (pcp_pmda/pmda_intel_uncore.c fetch_value): a
 * metric by name, an instance by name in its domain (the jobs' metrics share the first one's), and the value of
 * the two (NAN: none). */
#ifndef TEST_PCP_FETCH_H
#define TEST_PCP_FETCH_H

#include <math.h>
#include <string.h>
#include "harness.h"
#include "iu_pmda.h"

static inline int pcp_metric(const char *name)
{
	for (int m = 0; m < iu_nmetrics; m++)
		if (!strcmp(iu_metrics[m].name, name))
			return m;
	CU_FAIL("no such metric");
	return 0;
}

/* The number of the instance named name in d, or -1 */
static inline int pcp_inst(const pmdaIndom *d, const char *name)
{
	for (int i = 0; i < d->it_numinst; i++)
		if (!strcmp(d->it_set[i].i_name, name))
			return d->it_set[i].i_inst;
	return -1;
}

static inline double pcp_fetched(const struct iu_state *st, const char *name, const char *inst)
{
	int m = pcp_metric(name), i = pcp_inst(&st->indoms[iu_metrics[m].src == IU_JOB ? iu_jobs_indom() : m], inst);
	double x;
	if (iu_metrics[m].src == IU_JOB)
		return i >= 0 && !iu_job_value(st, m, i, &x) ? x : NAN;
	for (int k = 0; i >= 0 && k < st->nv; k++)
		if (st->v[k].m == m && st->v[k].inst == i && st->v[k].have)
			return st->v[k].value;
	return NAN;
}

#endif
