/*
 * PerJob true: each job's memory traffic (uncore_attrib_*, doc/jobs.md "Shared nodes") as series of its own
 * beside the sockets': plugin instance job_<id> (the id in [a-z0-9_]), type memory_bandwidth, type instances
 * read and write, the bytes since the plugin first saw the job (DERIVE) over the node's sockets, so that a
 * job's traffic across its nodes is one sumSeries in Graphite; and the node's bytes no job's core caused
 * under plugin instance unattributed.  The jobs are read again at every dispatch: when they change, the
 * attribution starts over on the new set (a job that stays keeps its count, a job that left is forgotten).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iu_collectd.h"

int iu_jobs_start(struct iu_state *st, char *err, size_t len)
{
	size_t said = strlen(uncore_warnings()); /* (iu_start logged those: the default set's, the claims') */
	if (uncore_jobs_signature(st->u, st->jobset, sizeof(st->jobset)) < 0 || uncore_attrib_new(st->u, &st->attrib) ||
	    uncore_attrib_start(st->attrib)) {
		iu_fail(err, len, "PerJob: %s", uncore_error());
		uncore_attrib_free(st->attrib);
		st->attrib = NULL;
		return -1;
	}
	for (const char *w = uncore_warnings() + said; *w;) { /* entries left out, CPUs the filter cannot name */
		size_t n = strcspn(w, "\n");
		WARNING("%s plugin: PerJob: %.*s", IU_NAME, (int)n, w);
		w += n + (w[n] == '\n');
	}
	if (uncore_job_tally_jobs(&st->tally, st->u)) /* the jobs there now, each with its series */
		return iu_fail(err, len, "PerJob: %s", uncore_error());
	uncore_job_tally_prune(&st->tally); /* a job that left is sent no more: its entry goes (the exporter's way) */
	return 0;
}

static int send_bytes(const char *instance, const char *ti, double bytes, cdtime_t now)
{
	value_t v = { .derive = (derive_t)(bytes + 0.5) };
	value_list_t vl = VALUE_LIST_INIT;
	vl.values = &v;
	vl.values_len = 1;
	vl.time = now;
	snprintf(vl.plugin, sizeof(vl.plugin), "%s", IU_NAME);
	snprintf(vl.plugin_instance, sizeof(vl.plugin_instance), "%s", instance);
	snprintf(vl.type, sizeof(vl.type), "memory_bandwidth");
	snprintf(vl.type_instance, sizeof(vl.type_instance), "%s", ti);
	return plugin_dispatch_values(&vl) == 0;
}

int iu_jobs_read(struct iu_state *st)
{
	char set[sizeof(st->jobset)], err[512];
	int n = st->attrib ? uncore_attrib_read(st->attrib, UNCORE_LAST_INTERVAL) : -1, sent = 0;
	uint64_t lib_now;
	/* stamped with when the memory counts were read: rates divide by their own window, however late the
	 * dispatch (as the sockets' values are) */
	cdtime_t now = iu_clock_pair(st->u, &lib_now);
	if (n >= 0)
		now = iu_stamp(now, lib_now, uncore_attrib_read_time_ns(st->attrib));
	if (n < 0) {
		ERROR("%s plugin: PerJob: %s", IU_NAME, st->attrib ? uncore_error() : "not counting");
		return -1;
	}
	if (uncore_job_tally_add(&st->tally, st->attrib, n))
		ERROR("%s plugin: PerJob: %s", IU_NAME, uncore_error());
	for (int i = 0; i < st->tally.n; i++) {
		const struct uncore_job_bytes *j = &st->tally.jobs[i];
		char clean[DATA_MAX_NAME_LEN - 4], instance[DATA_MAX_NAME_LEN];
		if (!j->present)
			continue;
		iu_clean_name(clean, sizeof(clean), j->id);
		snprintf(instance, sizeof(instance), "job_%s", clean);
		sent += send_bytes(instance, "read", j->read_bytes, now) + send_bytes(instance, "write", j->write_bytes, now);
	}
	sent += send_bytes("unattributed", "read", st->tally.unattributed_read, now) +
		send_bytes("unattributed", "write", st->tally.unattributed_write, now);
	/* jobs that came or went: the attribution starts over on the new set */
	if (uncore_jobs_signature(st->u, set, sizeof(set)) >= 0 && strcmp(set, st->jobset)) {
		uncore_attrib_free(st->attrib);
		st->attrib = NULL;
		for (int i = 0; i < st->tally.n; i++)
			st->tally.jobs[i].present = 0;
		if (iu_jobs_start(st, err, sizeof(err)))
			ERROR("%s plugin: %s", IU_NAME, err);
	}
	return sent;
}

void iu_jobs_stop(struct iu_state *st)
{
	uncore_attrib_free(st->attrib); /* restores what its sessions programmed */
	st->attrib = NULL;
	uncore_job_tally_free(&st->tally);
}
