/*
 * PerJob true: each job's memory traffic (uncore_perjob_*, doc/jobs.md "Shared nodes") as series of its own
 * beside the sockets': plugin instance job_<id> (the id in [a-z0-9_]), type memory_bandwidth, type instances
 * read and write, the bytes since the plugin first saw the job (DERIVE) over the node's sockets, so that a
 * job's traffic across its nodes is one sumSeries in Graphite; its devices' DMA (the device groups it holds
 * whole, doc/jobs.md "Devices") as type total_bytes, type instances device_write and device_read; and the
 * node's bytes no job caused under plugin instance unattributed; type count, type instance shared_cpus: the job's
 * CPUs another job holds too (their reads split equally among those jobs, doc/jobs.md "Shared CPUs").  The jobs are read again at every dispatch: when they change, the
 * attribution starts over on the new set (a job that stays keeps its count, a job that left is forgotten).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "iu_collectd.h"

int iu_jobs_start(struct iu_state *st, char *err, size_t len)
{
	if ((!st->perjob && uncore_perjob_new(st->u, &st->perjob)) || uncore_perjob_start(st->perjob, &st->tally))
		return iu_fail(err, len, "PerJob: %s", uncore_error());
	iu_log_warnings("PerJob: "); /* a start's entries left out, CPUs the filter cannot name */
	return 0;
}

static int send_value(const char *instance, const char *type, const char *ti, value_t v, cdtime_t now)
{
	value_list_t vl = VALUE_LIST_INIT;
	vl.values = &v;
	vl.values_len = 1;
	vl.time = now;
	snprintf(vl.plugin, sizeof(vl.plugin), "%s", IU_NAME);
	snprintf(vl.plugin_instance, sizeof(vl.plugin_instance), "%s", instance);
	snprintf(vl.type, sizeof(vl.type), "%s", type);
	snprintf(vl.type_instance, sizeof(vl.type_instance), "%s", ti);
	return plugin_dispatch_values(&vl) == 0;
}

static int send_bytes(const char *instance, const char *type, const char *ti, double bytes, cdtime_t now)
{
	return send_value(instance, type, ti, (value_t){ .derive = (derive_t)(bytes + 0.5) }, now);
}

/* the types: a job's memory bytes as the sockets' memory series, its devices' as the sockets' other bytes */
#define MEM "memory_bandwidth"
#define DEV "total_bytes"

int iu_jobs_read(struct iu_state *st)
{
	int n = uncore_perjob_read(st->perjob, UNCORE_LAST_INTERVAL, &st->tally), sent = 0;
	uint64_t lib_now;
	/* stamped with when the memory counts were read: rates divide by their own window, however late the
	 * dispatch (as the sockets' values are) */
	cdtime_t now = iu_clock_pair(st, &lib_now);
	if (n < 0) {
		ERROR("%s plugin: PerJob: %s", IU_NAME, uncore_error());
		return -1;
	}
	now = iu_stamp(now, lib_now, uncore_perjob_read_time_ns(st->perjob));
	for (int i = 0; i < st->tally.n; i++) {
		const struct uncore_job_bytes *j = &st->tally.jobs[i];
		char clean[DATA_MAX_NAME_LEN - 4], instance[DATA_MAX_NAME_LEN];
		if (!j->present)
			continue;
		iu_clean_name(clean, sizeof(clean), j->id);
		snprintf(instance, sizeof(instance), "job_%s", clean);
		sent += send_bytes(instance, MEM, "read", j->read_bytes, now) + send_bytes(instance, MEM, "write", j->write_bytes, now) +
			send_bytes(instance, DEV, "device_write", j->device_write_bytes, now) +
			send_bytes(instance, DEV, "device_read", j->device_read_bytes, now) +
			/* its CPUs another job holds too: their reads split equally (doc/jobs.md "Shared CPUs") */
			send_value(instance, "count", "shared_cpus", (value_t){ .gauge = j->shared_cpus }, now);
	}
	sent += send_bytes("unattributed", MEM, "read", st->tally.unattributed_read, now) +
		send_bytes("unattributed", MEM, "write", st->tally.unattributed_write, now) +
		send_bytes("unattributed", DEV, "device_write", st->tally.unattributed_device_write, now) +
		send_bytes("unattributed", DEV, "device_read", st->tally.unattributed_device_read, now);
	/* jobs that came or went: the attribution starts over on the new set (after this dispatch, which sends a
	 * job that left its last bytes) */
	if (uncore_perjob_follow(st->perjob, &st->tally) < 0)
		ERROR("%s plugin: PerJob: %s", IU_NAME, uncore_error());
	iu_log_warnings("PerJob: "); /* what the scan left out, said once while it stays (a new entry too, the set unchanged) */
	return sent;
}

void iu_jobs_stop(struct iu_state *st)
{
	uncore_perjob_free(st->perjob); /* restores what its sessions programmed */
	st->perjob = NULL;
	/* (the tally stays: a restart carries it, iu_teardown frees it) */
}
