/*
 * pmdaintel_uncore: the Performance Co-Pilot agent (doc/pcp.md).  A daemon PMDA that pmcd starts (Install):
 *   pmdaintel_uncore [-b BACKEND] [-j] [-d DOMAIN] [-h HELPFILE] [-l LOGFILE] [-U USER]
 * BACKEND as the other front ends take it (auto, perf, direct, sim:skx...; default UNCORE_BACKEND, else auto);
 * -j: the jobs' bytes too (intel_uncore.jobs.*, as the exporter's --per-job).
 * It reads the uncore at every fetch and at least once a second between them (with -j it rotates the jobs'
 * sampled cores every 100 ms).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include "iu_pmda.h"
#include "iu_log.h"

static struct iu_state st;

static int fetch_value(pmdaMetric *mdesc, unsigned int inst, pmAtomValue *atom)
{
	int m = (int)(intptr_t)mdesc->m_user;
	if (iu_metrics[m].src == IU_JOB) {
		double x;
		int rc = iu_job_value(&st, m, (int)inst, &x);
		if (!rc)
			atom->ull = x > 0 ? (uint64_t)(x + 0.5) : 0; /* bytes are whole numbers */
		return rc ? rc : PMDA_FETCH_STATIC;
	}
	for (int i = 0; i < st.nv; i++) {
		const struct iu_value *v = &st.v[i];
		if (v->m != m || v->inst != (int)inst)
			continue;
		if (!v->have)
			return PMDA_FETCH_NOVALUES;
		if (iu_metrics[m].type == PM_TYPE_U64)
			atom->ull = (uint64_t)v->value;
		else if (iu_metrics[m].type == PM_TYPE_U32)
			atom->ul = (uint32_t)v->value;
		else
			atom->d = v->value;
		return PMDA_FETCH_STATIC;
	}
	return PM_ERR_INST;
}

static int fetch(int n, pmID *ids, pmResult **resp, pmdaExt *ext)
{
	iu_node_follow(&st); /* the node as it is now (a change: planned again, said in the log; a failure: no value,
			      * the agent ends at its loop's next turn) */
	iu_read(&st); /* the values of this moment */
	return pmdaFetch(n, ids, resp, ext);
}

static pmdaOptions opts = {
	.short_options = "b:jD:d:h:l:U:?",
	.long_options = (pmLongOptions[]){
		PMDA_OPTIONS_HEADER("Options"),
		{ "backend", 1, 'b', "BACKEND", "the uncore's backend: auto, perf, direct, sim:skx... (default $UNCORE_BACKEND, else auto)" },
		{ "per-job", 0, 'j', NULL, "each job's memory and device bytes too (intel_uncore.jobs.*)" },
		PMOPT_DEBUG, PMDAOPT_DOMAIN, PMDAOPT_HELPTEXT, PMDAOPT_LOGFILE, PMDAOPT_USERNAME, PMOPT_HELP, PMDA_OPTIONS_END },
};

int main(int argc, char **argv)
{
	static pmdaInterface dispatch;
	char helppath[MAXPATHLEN], err[1024];
	const char *backend = NULL;
	int c, sep = pmPathSeparator();
	pmSetProgname(argv[0]);
	pmsprintf(helppath, sizeof(helppath), "%s%c" "intel_uncore" "%c" "help", pmGetConfig("PCP_PMDAS_DIR"), sep, sep);
	pmdaDaemon(&dispatch, PMDA_INTERFACE_7, pmGetProgname(), IU_DOMAIN, "intel_uncore.log", helppath);
	while ((c = pmdaGetOptions(argc, argv, &opts, &dispatch)) != EOF)
		if (c == 'b')
			backend = opts.optarg;
		else if (c == 'j')
			st.per_job = 1;
		else
			opts.errors++;
	if (opts.errors) {
		pmdaUsageMessage(&opts);
		return 1;
	}
	pmdaOpenLog(&dispatch);
	st.backend = backend;
	if (iu_plan(&st, backend, err, sizeof(err))) {
		iu_log(LOG_ERR, "%s", err);
		iu_log_warnings(""); /* units left out on the way, which may be why */
		return 1;
	}
	iu_log_warnings(""); /* units left out, a refused claims file, a forced box */
	if (!(st.pmetrics = calloc((size_t)iu_nmetrics, sizeof(*st.pmetrics))))
		return 1;
	for (int m = 0; m < iu_nmetrics; m++) {
		const struct iu_metric *im = &iu_metrics[m];
		pmInDom indom = (pmInDom)(im->src == IU_JOB ? iu_jobs_indom() : m); /* the jobs' metrics share one */
		st.indoms[m].it_indom = (pmInDom)m; /* pmdaInit adds the domain */
		st.pmetrics[m].m_user = (void *)(intptr_t)m;
		st.pmetrics[m].m_desc = (pmDesc){ PMDA_PMID(im->cluster, im->item), im->type, indom, im->sem, im->units };
	}
	dispatch.version.seven.fetch = fetch;
	pmdaSetFetchCallBack(&dispatch, fetch_value);
	pmdaInit(&dispatch, st.indoms, iu_nmetrics, st.pmetrics, iu_nmetrics);
	pmdaConnect(&dispatch);
	iu_read(&st);
	/* pmdaMain's loop, with a read whenever a second passes without a fetch */
	int fd = __pmdaInFd(&dispatch);
	for (;;) {
		fd_set r;
		struct timeval tv = { 0, st.perjob ? 100000 : 999999 };
		FD_ZERO(&r);
		FD_SET(fd, &r);
		int n = select(fd + 1, &r, NULL, NULL, &tv);
		if (n > 0 && __pmdaMainPDU(&dispatch) < 0)
			break; /* pmcd closed the channel */
		uint64_t now = iu_now_ns();
		if (now - st.last_read_ns >= 1000000000u) {
			if (iu_node_follow(&st))
				break; /* it said why */
			iu_read(&st);
		}
		else if (uncore_perjob_started(st.perjob) && now - st.stepped_ns >= 100000000u) {
			if (uncore_perjob_step(st.perjob))
				iu_log(LOG_WARNING, "per-job: %s", uncore_error());
			st.stepped_ns = now;
		}
		iu_log_warnings(""); /* each once, however many a year brings */
	}
	iu_teardown(&st); /* restores what the session programmed */
	iu_log_warnings(""); /* e.g. a record the claims file lost */
	return 0;
}
