/*
 * uncore stat --per-job (issue 46 points 3 and 4): the memory traffic of each job on the node, socket by
 * socket, with what no job's core caused as "unattributed" (uncore_perjob_*, doc/jobs.md "Shared nodes"),
 * over --duration S or every -I MS, the sampled cores rotating every --step MS (default 100).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

struct perjob_args {
	double duration, interval_ms, step_ms;
	int json;
};

static int parse(int argc, char **argv, struct perjob_args *a)
{
	*a = (struct perjob_args){ .duration = -1, .interval_ms = -1, .step_ms = 100 };
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		char *end = NULL;
		double *to = !strcmp(o, "--duration") ? &a->duration : !strcmp(o, "-I") ? &a->interval_ms
			   : !strcmp(o, "--step") ? &a->step_ms : NULL;
		if (!strcmp(o, "--per-job"))
			continue;
		if (!strcmp(o, "--json")) {
			a->json = 1;
			continue;
		}
		if (to && v && (*to = strtod(v, &end)) > 0 && !*end && *to <= 1e7) {
			i++;
			continue;
		}
		fprintf(stderr, "uncore stat --per-job: %s%s%s: expected --duration SECONDS, -I MS, --step MS or --json "
				"(a positive number each)\n", o, to ? " " : "", to && v ? v : "");
		return 2;
	}
	if ((a->duration > 0) == (a->interval_ms > 0) && a->duration <= 0) {
		fprintf(stderr, "uncore stat --per-job: give --duration SECONDS or -I MS\n");
		return 2;
	}
	return 0;
}

/* A row's device DMA for the text: "" where its devices moved nothing */
static const char *devices(const struct uncore_attrib_row *r, double s, char *buf, size_t len)
{
	buf[0] = 0;
	if (r->device_write_bytes > 0 || r->device_read_bytes > 0)
		snprintf(buf, len, "  devices write %.4f GB/s read %.4f GB/s", r->device_write_bytes / s / 1e9,
			 r->device_read_bytes / s / 1e9);
	return buf;
}

static void print_rows(const uncore_perjob_t *pj, int n, int json, const uncore_energy_t *en, int window)
{
	char dev[96], energy[320];
	for (int i = 0; i < n; i++) {
		struct uncore_attrib_row r;
		if (uncore_perjob_row(pj, i, &r))
			continue;
		double s = r.seconds > 0 ? r.seconds : 1;
		if (json) /* (a job's energy: its share of its socket's DRAM by bytes, the package the socket's) */
			job_energy_json(en, r.socket, r.read_bytes + r.write_bytes, r.socket_read_bytes + r.socket_write_bytes,
					window, energy, sizeof(energy));
		else
			job_energy_text(en, r.socket, r.read_bytes + r.write_bytes, r.socket_read_bytes + r.socket_write_bytes,
					window, energy, sizeof(energy));
		if (json)
			printf("{\"socket\": %d, \"job\": %s%s%s, \"read_bytes\": %.17g, \"write_bytes\": %.17g, "
			       "\"socket_read_bytes\": %.17g, \"socket_write_bytes\": %.17g, \"seconds\": %.9g, "
			       "\"read_bw\": %.17g, \"write_bw\": %.17g, \"device_write_bytes\": %.17g, "
			       "\"device_read_bytes\": %.17g%s, \"sampled\": %.4g}\n",
			       r.socket, r.job[0] ? "\"" : "", r.job[0] ? r.job : "null", r.job[0] ? "\"" : "", r.read_bytes,
			       r.write_bytes, r.socket_read_bytes, r.socket_write_bytes, r.seconds, r.read_bytes / s,
			       r.write_bytes / s, r.device_write_bytes, r.device_read_bytes, energy, r.sampled);
		else
			printf("socket%-3d %-16s read %10.4f GB/s  write %10.4f GB/s  %s %.0f%%%s%s\n", r.socket,
			       r.job[0] ? r.job : "unattributed", r.read_bytes / s / 1e9, r.write_bytes / s / 1e9,
			       r.job[0] ? "its cores sampled" : "(devices, cores of no job) of all",
			       r.job[0] ? 100 * r.sampled : r.socket_read_bytes > 0 ? 100 * r.read_bytes / r.socket_read_bytes : 0,
			       devices(&r, s, dev, sizeof(dev)), energy);
	}
}

int cmd_stat_per_job(int argc, char **argv)
{
	struct perjob_args a;
	uncore_t *u = NULL;
	uncore_perjob_t *pj = NULL;
	uncore_energy_t *en = NULL;
	int rc = parse(argc, argv, &a), n;
	if (rc)
		return rc;
	rc = 1;
	if (cli_open(&u))
		return 1;
	if (uncore_perjob_new(u, &pj))
		goto err;
	n = uncore_perjob_plan(pj); /* the jobs, then the attribution over them */
	cli_warnings();             /* entries left out, CPUs the thread filter cannot name */
	if (n < 0)
		goto err;
	if (!a.json) {
		cli_banner(stdout, u);
		printf("# per job: %s, by thread at one box a step (every %g ms); reads x 64 B, writes in proportion\n",
		       uncore_attrib_counts(u), a.step_ms);
		if (!n)
			printf("# no job on this node (see uncore jobs): all of it is unattributed\n");
	}
	cli_catch_signals();
	/* the jobs of the start, whole: the rows of a -I read and of the end are theirs (no tally kept) */
	if (uncore_perjob_start(pj, NULL))
		goto err;
	en = job_energy_open(u, a.step_ms / 1e3); /* sampled every step: no wrap unseen */
	uint64_t step = (uint64_t)(a.step_ms * 1e6), total = a.duration > 0 ? (uint64_t)(a.duration * 1e9) : UINT64_MAX;
	uint64_t every = a.interval_ms > 0 ? (uint64_t)(a.interval_ms * 1e6) : UINT64_MAX, t = 0, since = 0;
	while (t < total && !cli_stopped()) {
		uint64_t d = step;
		if (d > total - t)
			d = total - t;
		if (d > every - since)
			d = every - since;
		if (cli_sleep(u, d) < 0)
			goto err;
		t += d;
		since += d;
		if (since >= every) {
			if ((n = uncore_perjob_read(pj, UNCORE_LAST_INTERVAL, NULL)) < 0)
				goto err;
			job_energy_read(en, 1);
			if (!a.json)
				printf("# %.3f s\n", (double)t / 1e9);
			print_rows(pj, n, a.json, en, UNCORE_LAST_INTERVAL);
			fflush(stdout);
			since = 0;
		} else if (t < total && uncore_perjob_step(pj))
			goto err;
		else
			job_energy_read(en, 0);
	}
	if (uncore_perjob_stop(pj))
		goto err;
	if (a.interval_ms <= 0) {
		if ((n = uncore_perjob_read(pj, UNCORE_SINCE_START, NULL)) < 0)
			goto err;
		job_energy_read(en, 1);
		if (!a.json)
			printf("# %.3f s elapsed%s\n", (double)t / 1e9, cli_stopped() ? " (interrupted)" : "");
		print_rows(pj, n, a.json, en, UNCORE_SINCE_START);
	}
	rc = cli_stopped() ? 128 + cli_stopped() : 0;
	goto out;
err:
	fprintf(stderr, "uncore: %s\n", uncore_error());
out:
	uncore_energy_free(en);
	uncore_perjob_free(pj);
	uncore_close(u);
	return rc;
}
