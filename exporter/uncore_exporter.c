/*
 * uncore-exporter: the uncore's metrics for Prometheus.  The main thread owns the library: it reads every
 * --interval on a fixed schedule, samples between reads where a counter could wrap twice, steps the job
 * attribution, renders a snapshot after each read and hands it to the HTTP thread.  Signals are taken
 * synchronously (sigtimedwait is the wait between reads): SIGHUP reloads the options, SIGTERM and SIGINT
 * stop with the registers restored (exit 0), any other ending signal likewise (exit 128 + signal).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include "ue.h"
#include "ue_log.h"

#define STEP_NS 100000000u /* the job attribution's step: the sampled cores move on every 100 ms */

/* The signals that end the process by default, but those of its own faults (their core dumps stay). */
static void ending_signals(sigset_t *set)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGALRM, SIGTERM, SIGUSR1, SIGUSR2, SIGPROF, SIGVTALRM,
				    SIGXCPU, SIGXFSZ, SIGIO, SIGPWR };
	sigemptyset(set);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(*sigs); i++)
		sigaddset(set, sigs[i]);
	for (int s = SIGRTMIN; s <= SIGRTMAX; s++)
		sigaddset(set, s);
}

static int check_config(const struct ue_config *c)
{
	struct ue_state st;
	char err[1024];
	if (ue_plan(c, &st, err, sizeof(err))) {
		ue_log("%s", err);
		return 1;
	}
	printf("%s on %s (%s%s): %d series in %d families, read every %g s, served at %s%s%s%s%s\n",
	       uncore_platform_desc(st.u), uncore_backend_name(st.u), uncore_backend_reason(st.u),
	       uncore_is_simulated(st.u) ? ", SIMULATED" : "", st.nseries, st.nfams, c->interval, c->listen ? "http://" : "",
	       c->listen ? c->listen : "", c->listen ? "/metrics" : "", c->listen && c->listen_unix ? " and unix:" : c->listen_unix ? "unix:" : "",
	       c->listen_unix ? c->listen_unix : "");
	if (st.notice[0])
		printf("note: %s\n", st.notice);
	ue_log_warnings(""); /* what the default set leaves out for --per-job, ... */
	for (int f = 0; f < st.nfams; f++) {
		printf("%s%s %s%s%s\n", st.fams[f].name, st.fams[f].counter ? "_total" : "", st.fams[f].counter ? "counter" : "gauge",
		       st.fams[f].unit[0] ? ", " : "", st.fams[f].unit);
		for (int i = 0; i < st.nseries; i++)
			if (st.series[i].fam == f)
				printf("  {%s}\n", st.series[i].labels);
	}
	if (c->per_job)
		printf("uncore_job_memory_read_bytes_total, uncore_job_memory_write_bytes_total counter, bytes: each job "
		       "(job_id), where the platform attributes jobs (%s)\n",
		       uncore_attrib_counts(st.u) ? uncore_attrib_counts(st.u) : "this one does not");
	if (c->per_job)
		printf("uncore_job_device_write_bytes_total, uncore_job_device_read_bytes_total counter, bytes: each job's "
		       "device groups held whole (job_id; doc/jobs.md \"Devices\")\n");
	if (c->per_job)
		printf("uncore_job_shared_cpus gauge: each job's CPUs another job holds too, whose reads are split "
		       "equally among them (job_id; doc/jobs.md \"Shared CPUs\")\n");
	ue_teardown(&st);
	return 0;
}

static void raise_fd_limit(void)
{
	struct rlimit rl; /* a thousand scrapers at once need a thousand sockets */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int main(int argc, char **argv)
{
	struct ue_config cfg;
	struct ue_state st;
	char err[1024];
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			fputs(ue_usage(), stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--version")) {
			printf("uncore-exporter (intel-uncore) %s\n", uncore_version());
			return 0;
		}
	}
	if (ue_options(&cfg, argc, argv, err, sizeof(err))) {
		ue_log("%s", err);
		return 2;
	}
	struct ue_web web; /* read at start only: the server keeps its certificates and users */
	if (ue_web_load(cfg.web_config, &web, err, sizeof(err))) {
		ue_log("%s", err);
		ue_config_free(&cfg);
		return 2;
	}
	if (cfg.check_only) {
		int rc = check_config(&cfg);
		ue_web_free(&web);
		ue_config_free(&cfg);
		return rc;
	}
	sigset_t set;
	ending_signals(&set);
	pthread_sigmask(SIG_BLOCK, &set, NULL); /* before any thread starts: every thread leaves them to sigtimedwait */
	signal(SIGPIPE, SIG_IGN);               /* a scraper gone mid-response is its own business */
	raise_fd_limit();
	if (ue_begin(&cfg, &st, NULL, err, sizeof(err))) {
		ue_log("%s", err);
		ue_web_free(&web);
		ue_config_free(&cfg);
		return 1;
	}
	ue_read(&st); /* the first snapshot, before the first scrape can come */
	ue_log_warnings("");
	struct ue_http *http = ue_http_start(&cfg, &web, err, sizeof(err));
	st.auth = web.nusers > 0;
	if (!http) {
		ue_log("%s", err);
		ue_teardown(&st);
		ue_web_free(&web);
		ue_config_free(&cfg);
		return 1;
	}
	struct ue_snapshot *snap = ue_render(&st, cfg.timestamps);
	size_t resp = snap ? snap->text_len + snap->om_len : 0;
	if (snap)
		ue_http_publish(http, snap);
	/* doc/safety.md: what a crowd of clients can cost at most (the responses grow with jobs and series) */
	char tls[32] = "";
	if (web.tls)
		snprintf(tls, sizeof(tls), " + %u KiB TLS", UE_TLS_CONN_BYTES / 1024);
	fprintf(stderr, "uncore-exporter: the HTTP server's memory at most %llu kB: %u connections x (%u KiB pool + %u KiB "
		"state%s) + %u responses of %zu kB\n", (unsigned long long)(ue_http_worst(&cfg, web.tls, resp) / 1024),
		ue_http_conns(&cfg), UE_POOL_BYTES / 1024, UE_CONN_BYTES / 1024, tls, ue_http_generations(&cfg), resp / 1024);
	if (cfg.listen_unix) /* its own line: scripts read the port from the next */
		fprintf(stderr, "uncore-exporter: unix:%s: mode 0660 (the exporter's user and group may connect), %u connections "
			"(--reserved-connections), at most %u of one user\n", cfg.listen_unix, cfg.reserved, UE_UID_SHARE(cfg.reserved));
	if (web.tls || web.nusers)
		fprintf(stderr, "uncore-exporter: %s%s%s (--web.config.file %s)\n", web.tls ? "TLS" : "",
			web.tls && web.nusers ? " and " : "", web.nusers ? "basic authentication" : "", cfg.web_config);
	fprintf(stderr, "uncore-exporter: serving %d series of %s (%s%s) on %s%s, read every %g s\n", st.nseries,
		uncore_platform_desc(st.u), uncore_backend_name(st.u), uncore_is_simulated(st.u) ? ", SIMULATED" : "",
		cfg.listen ? "port " : "unix:", cfg.listen ? err : cfg.listen_unix, cfg.interval);
	uint64_t period = (uint64_t)llround(cfg.interval * 1e9), next = ue_mono_ns() + period, sampled = ue_mono_ns();
	uint64_t stepped = sampled;
	int rc = 0;
	for (;;) {
		uint64_t lim = st.s ? uncore_session_max_read_interval_ns(st.s) : 0, now = ue_mono_ns(), until = next;
		if (lim && sampled + lim / 2 < until)
			until = sampled + lim / 2;
		if (uncore_perjob_started(st.perjob) && stepped + STEP_NS < until)
			until = stepped + STEP_NS;
		uint64_t wait = until > now ? until - now : 0;
		struct timespec ts = { (time_t)(wait / 1000000000u), (long)(wait % 1000000000u) };
		int sig = sigtimedwait(&set, NULL, &ts);
		if (sig == SIGHUP) {
			if (ue_reload(argc, argv, &cfg, &st)) {
				rc = 1;
				break;
			}
			period = (uint64_t)llround(cfg.interval * 1e9);
			next = ue_mono_ns() + period;
			continue;
		}
		if (sig > 0) {
			ue_log("%s: stopping, the registers restored", strsignal(sig));
			rc = sig == SIGTERM || sig == SIGINT ? 0 : 128 + sig;
			break;
		}
		now = ue_mono_ns();
		if (now >= next) {
			if (ue_step(&cfg, &st)) {
				rc = 1;
				break;
			}
			ue_http_counts(http, &st.scrapes, &st.cut); /* (after a node's change: into the new state) */
			ue_http_auth_refusals(http, &st.refused_hashed, &st.refused_unchecked);
			if ((snap = ue_render(&st, cfg.timestamps)))
				ue_http_publish(http, snap);
			next += period;
			if (next <= now) { /* reads fell behind (a stopped process): the schedule starts again from now */
				st.missed += (now - next) / period + 1;
				next = now + period;
			}
			sampled = stepped = now;
		} else if (uncore_perjob_started(st.perjob) && now >= stepped + STEP_NS) {
			if (uncore_perjob_step(st.perjob))
				ue_log("--per-job: %s", uncore_error());
			stepped = now;
		} else if (lim && now >= sampled + lim / 2) {
			uncore_session_sample(st.s);
			sampled = now;
		}
		ue_log_warnings(""); /* each once, however many a year brings */
	}
	ue_http_stop(http); /* no scrape in flight when the state goes */
	ue_teardown(&st);   /* restores every register */
	ue_log_warnings(""); /* e.g. a record the claims file lost */
	ue_web_free(&web);
	ue_config_free(&cfg);
	return rc;
}
