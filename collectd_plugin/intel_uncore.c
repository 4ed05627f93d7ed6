/*
 * collectd read plugin intel_uncore: derived uncore metrics (memory bandwidth,
 * LLC, QPI/UPI, uncore clock, ...) from libuncore, per socket and optionally
 * per box.  Configuration: doc/collectd.md and collectd.conf.d/intel_uncore.conf.
 *
 * Lifecycle (collectd 5.12): a configuration error aborts the daemon's start,
 * so only real mistakes in the block fail there; hardware that cannot be
 * reached (permissions, no uncore) fails init with the library's reason and the
 * daemon unloads the plugin.  Shutdown also runs after a failed init.
 */
#include "iu_collectd.h"

static struct iu_config cfg;
static struct iu_state state;
static uint64_t energy_ns; /* how often the energy counters are sampled: at every read (iu_init) */

static int iu_config_cb(oconfig_item_t *ci)
{
	char err[1024];
	struct iu_state probe;
	int rc = iu_config_parse(&cfg, ci, err, sizeof(err));
	if (!rc) {
		/* names depend on the platform: check them now when the uncore can be opened, else in init */
		rc = iu_setup(&cfg, &probe, err, sizeof(err));
		if (rc == 0)
			iu_teardown(&probe);
		(void)uncore_warnings_drain(NULL); /* the probe's: the init's open says them */
		if (rc == -2)
			rc = 0;
	}
	if (rc)
		ERROR("%s plugin: %s", IU_NAME, err);
	return rc;
}

/* A call that dispatches nothing: the counters sampled (no wrap unseen) and, PerJob, the sampled cores
 * moved on to the next boxes (a dispatch moves them too). */
static int sample_only(void)
{
	if (uncore_perjob_started(state.perjob) && uncore_perjob_step(state.perjob))
		ERROR("%s plugin: PerJob: %s", IU_NAME, uncore_error());
	iu_energy_sample(&state);
	return uncore_session_num_events(state.s) && uncore_session_sample(state.s) ? -1 : 0;
}

static int read_once(void)
{
	if (state.every > 1 && ++state.calls % state.every)
		return sample_only();
	/* After a stall collectd runs the late read and the next one back to back: the second would divide its
	 * counts by a window of microseconds, and collectd's write threads may hand it on before the first,
	 * which the receiving daemon then drops as too old.  Within a twentieth of the interval of the last
	 * dispatch a read only samples; the next one dispatches over both. */
	uint64_t now = uncore_now_ns(state.u);
	if (state.last_ns && now - state.last_ns < state.period_ns / 20)
		return sample_only();
	state.last_ns = now;
	int changed = uncore_node_check(state.u);
	if (changed > 0 && iu_node_follow(&cfg, &state, changed, energy_ns))
		return -1;
	int rc = iu_read(&state) < 0 ? -1 : 0;
	char err[512];
	if (uncore_perjob_started(state.perjob) && iu_jobs_read(&state) < 0)
		rc = -1;
	else if (cfg.per_job && !uncore_perjob_started(state.perjob) && !iu_jobs_start(&state, err, sizeof(err))) /* a start that failed */
		INFO("%s plugin: PerJob: the jobs are attributed again", IU_NAME);
	return rc;
}

static int iu_read_cb(user_data_t *ud)
{
	(void)ud;
	int rc = read_once();
	iu_log_warnings(""); /* each once, however many a year brings (warnings are the read thread's) */
	return rc;
}

static int iu_init(void)
{
	char err[1024];
	if (iu_setup(&cfg, &state, err, sizeof(err)) || iu_start(&state, err, sizeof(err))) {
		ERROR("%s plugin: %s", IU_NAME, err);
		iu_teardown(&state);
		iu_log_warnings(""); /* units left out on the way, which may be why */
		return -1;
	}
	/* PerJob: the other values go on without it where the jobs cannot be attributed (said why) */
	if (cfg.per_job && iu_jobs_start(&state, err, sizeof(err)))
		ERROR("%s plugin: %s; the other values go on", IU_NAME, err);
	/* an Interval longer than the counters may go unread (uncore.h) is read in that many steps */
	cdtime_t want = cfg.interval > 0 ? DOUBLE_TO_CDTIME_T(cfg.interval) : plugin_get_interval();
	cdtime_t lim = NS_TO_CDTIME_T(iu_energy_limit(&state, uncore_session_max_read_interval_ns(state.s)));
	state.every = lim && want > lim ? (int)((want + lim - 1) / lim) : 1;
	state.period_ns = CDTIME_T_TO_NS(want);
	cdtime_t interval = state.every > 1 ? want / (cdtime_t)state.every : cfg.interval > 0 ? want : 0;
	energy_ns = CDTIME_T_TO_NS(state.every > 1 ? want / (cdtime_t)state.every : want);
	iu_energy_start(&state, energy_ns);
	if (uncore_node_check(state.u) < 0) /* what the node is now: a change from it is followed at a read */
		ERROR("%s plugin: the node's changes are not followed: %s", IU_NAME, uncore_error());
	INFO("%s plugin: %d values from %s (%s%s)", IU_NAME, state.nseries, uncore_platform_desc(state.u),
	     uncore_backend_name(state.u), uncore_is_simulated(state.u) ? ", SIMULATED" : "");
	/* registered under the init's name, so that a failed init leaves no read behind */
	return plugin_register_complex_read(NULL, IU_NAME, iu_read_cb, interval, NULL);
}

static int iu_shutdown(void)
{
	iu_teardown(&state); /* safe when init failed or never ran */
	iu_log_warnings(""); /* e.g. a record the claims file lost */
	iu_config_free(&cfg);
	return 0;
}

void module_register(void)
{
	plugin_register_complex_config(IU_NAME, iu_config_cb);
	plugin_register_init(IU_NAME, iu_init);
	plugin_register_shutdown(IU_NAME, iu_shutdown);
}
