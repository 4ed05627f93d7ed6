/*
 * How the exporter starts on a configuration, reloads it on SIGHUP and takes a read of its schedule (the node's
 * changes followed first): the main loop's steps (uncore_exporter.c), callable as they are by the tests that run
 * the exporter through a simulated year, so that what they prove is the exporter's own path and not a copy.
 */
#include <stdlib.h>
#include <string.h>
#include "ue.h"
#include "ue_log.h"

int ue_begin(const struct ue_config *c, struct ue_state *st, struct ue_state *old, char *err, size_t len)
{
	if (ue_plan(c, st, err, len))
		return -1;
	if (ue_start(st, err, len)) {
		ue_teardown(st);
		return -1;
	}
	if (old) { /* the jobs' bytes go on, and what was said of them: the new scan marks the tally's jobs */
		st->tally = old->tally;
		memset(&old->tally, 0, sizeof(old->tally));
	}
	if (st->notice[0])
		ue_log("%s", st->notice);
	ue_log_warnings("");
	if (c->per_job && ue_jobs_start(st, err, len))
		ue_log("%s; the other series go on", err);
	if (uncore_node_check(st->u) < 0) /* what the node is now: a change from it is followed at a read */
		ue_log("the node's changes are not followed: %s", uncore_error());
	return 0;
}

/* equal strings, or both NULL */
static int same(const char *a, const char *b) { return a && b ? !strcmp(a, b) : a == b; }

/* What a reload cannot change, said (the sockets, the server's limits and its TLS stay as started). */
static void said_unchanged(const struct ue_config *nc, const struct ue_config *cfg)
{
	if (!same(nc->listen, cfg->listen) || !same(nc->listen_unix, cfg->listen_unix))
		ue_log("reload: --listen changes only with a restart; still on %s%s%s",
			cfg->listen ? cfg->listen : "", cfg->listen && cfg->listen_unix ? " and unix:" : cfg->listen_unix ? "unix:" : "",
			cfg->listen_unix ? cfg->listen_unix : "");
	if (nc->web_config || cfg->web_config)
		ue_log("reload: --web.config.file is read only at start; its TLS and users stay");
	if (nc->max_conns != cfg->max_conns || nc->max_conns_ip != cfg->max_conns_ip || nc->request_timeout != cfg->request_timeout ||
	    nc->reserved != cfg->reserved || nc->nallow != cfg->nallow || memcmp(nc->allow, cfg->allow, sizeof(nc->allow)))
		ue_log("reload: --max-connections, --max-connections-per-ip, --request-timeout, --allow "
			"and --reserved-connections change only with a restart; still %u, %u, %g s, %d blocks and %u",
			cfg->max_conns, cfg->max_conns_ip, cfg->request_timeout, cfg->nallow, cfg->reserved);
}

int ue_reload(int argc, char **argv, struct ue_config *cfg, struct ue_state *st)
{
	struct ue_config nc;
	struct ue_state old = *st, next;
	char err[1024];
	if (ue_options(&nc, argc, argv, err, sizeof(err))) {
		ue_log("reload: %s; the running options go on", err);
		return 0;
	}
	said_unchanged(&nc, cfg);
	ue_let_go(&old);
	if (ue_begin(&nc, &next, &old, err, sizeof(err))) {
		ue_log("reload: %s; the running options go on", err);
		ue_config_free(&nc);
		if (ue_begin(cfg, &next, &old, err, sizeof(err))) {
			ue_log("reload: the running options no longer start: %s", err);
			ue_teardown(&old);
			memset(st, 0, sizeof(*st));
			return -1;
		}
	} else {
		free(nc.listen);
		free(nc.listen_unix);
		nc.listen = cfg->listen; /* the sockets stay where they are, with their limits */
		nc.listen_unix = cfg->listen_unix;
		cfg->listen = cfg->listen_unix = NULL;
		nc.max_conns = cfg->max_conns;
		nc.max_conns_ip = cfg->max_conns_ip;
		nc.request_timeout = cfg->request_timeout;
		nc.reserved = cfg->reserved;
		nc.nallow = cfg->nallow;
		memcpy(nc.allow, cfg->allow, sizeof(nc.allow));
		ue_config_free(cfg);
		*cfg = nc;
		ue_log("reloaded: %d series", next.nseries);
	}
	ue_carry(&next, &old);
	ue_teardown(&old);
	*st = next;
	return 0;
}

int ue_step(const struct ue_config *cfg, struct ue_state *st)
{
	char err[1024];
	int changed = uncore_node_check(st->u);
	if (changed > 0 && ue_node_follow(cfg, st, changed, ue_begin))
		return -1;
	if (ue_read(st))
		ue_log("nothing could be read");
	if (cfg->per_job && !uncore_perjob_started(st->perjob) && !ue_jobs_start(st, err, sizeof(err)))
		ue_log("--per-job: the jobs are attributed again");
	return 0;
}
