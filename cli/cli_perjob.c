/*
 * uncore stat --per-job (issue 46 points 3 and 4): the memory traffic of each job on the node, socket by
 * socket, with what no job's core caused as "unattributed" (uncore_perjob_*, doc/jobs.md "Shared nodes"),
 * over --duration S or every -I MS, the sampled cores rotating every --step MS (default 100).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "cli_window.h"

struct perjob_args {
	double duration, interval_ms, step_ms;
	int json;
	char *metrics, *groups; /* -M, --metric-group: those metrics of each job in place of its row */
};

/* What a metric is by job: the memory bytes attributed to it, or its devices' DMA (doc/jobs.md) */
static const struct cli_row_metric by_job[] = {
	{ "mem_read_bytes", CLI_MEM_READ, 0 }, { "mem_write_bytes", CLI_MEM_WRITE, 0 },
	{ "mem_bw_read", CLI_MEM_READ, 1 },    { "mem_bw_write", CLI_MEM_WRITE, 1 },
	{ "mem_bw_total", CLI_MEM_TOTAL, 1 },  { "iio_write_bytes", CLI_DEV_WRITE, 0 },
	{ "iio_read_bytes", CLI_DEV_READ, 0 }, { "iio_bw_write", CLI_DEV_WRITE, 1 },
	{ "iio_bw_read", CLI_DEV_READ, 1 },
};
#define NBY (int)(sizeof(by_job) / sizeof(by_job[0]))

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
		char **list = !strcmp(o, "-M") || !strcmp(o, "--metrics") ? &a->metrics
			      : !strcmp(o, "--metric-group") ? &a->groups : NULL;
		if (list && v) {
			*list = argv[++i];
			continue;
		}
		if ((!strcmp(o, "-e") || !strcmp(o, "--event")) && v) {
			fprintf(stderr, "uncore stat --per-job: -e %s: an event counts on its boxes, which a job's share is not "
					"defined for; give -M METRIC (by job: ", v);
			for (int k = 0; k < NBY; k++)
				fprintf(stderr, "%s%s", k ? ", " : "", by_job[k].name);
			fprintf(stderr, ")\n");
			return 2;
		}
		if (to && v && (*to = strtod(v, &end)) > 0 && !*end && *to <= 1e7) {
			i++;
			continue;
		}
		fprintf(stderr, "uncore stat --per-job: %s%s%s: expected --duration SECONDS, -I MS, --step MS (a positive "
				"number each), -M METRIC[,...], --metric-group GROUP[,...] or --json\n", o, to ? " " : "", to && v ? v : "");
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

/* A job row's CPUs shared with other jobs, for the text: "" where none */
static const char *shared(const struct uncore_attrib_row *r, char *buf, size_t len)
{
	buf[0] = 0;
	if (r->shared_cpus > 0)
		snprintf(buf, len, "  shared_cpus %d (split equally with the jobs sharing them)", r->shared_cpus);
	return buf;
}

/* The metrics -M and --metric-group named (pick: indices into by_job), a line each for each row */
static void print_metrics(const struct uncore_attrib_row *r, const int *pick, int npick, int json)
{
	double s = r->seconds > 0 ? r->seconds : 1;
	struct cli_row_bytes b = { .mem_read = r->read_bytes, .mem_write = r->write_bytes, .dev_write = r->device_write_bytes,
				   .dev_read = r->device_read_bytes, .seconds = s };
	for (int k = 0; k < npick; k++) {
		const struct cli_row_metric *m = &by_job[pick[k]];
		double v = cli_row_value(m, &b);
		if (json) {
			printf("{\"socket\": %d, \"job\": %s%s%s, \"seconds\": %.9g, ", r->socket, r->job[0] ? "\"" : "",
			       r->job[0] ? r->job : "null", r->job[0] ? "\"" : "", r->seconds);
			cli_row_json(m, v);
			printf(", \"shared_cpus\": %d, \"sampled\": %.4g}\n", r->shared_cpus, r->sampled);
		} else {
			char col[64];
			cli_row_text(col, sizeof(col), m, v);
			printf("socket%-3d %-16s %s\n", r->socket, r->job[0] ? r->job : "unattributed", col);
		}
	}
}

/* A row's bytes read and written a second as a share of its socket's peak DRAM bandwidth (uncore_memory_peak,
 * doc/memory.md), for the JSON: ", \"peak_share\": x", null where the peak is not known */
static const char *peak_share(uncore_t *u, const struct uncore_attrib_row *r, double s, char *buf, size_t len)
{
	double peak;
	if (uncore_memory_peak(u, r->socket, &peak) || !(peak > 0))
		snprintf(buf, len, ", \"peak_share\": null");
	else
		snprintf(buf, len, ", \"peak_share\": %.17g", (r->read_bytes + r->write_bytes) / s / peak);
	return buf;
}

static void print_rows(uncore_t *u, const uncore_perjob_t *pj, int n, int json, const uncore_energy_t *en, int window,
		       const int *pick, int npick)
{
	char dev[96], energy[320], sh[80], share[48];
	for (int i = 0; i < n; i++) {
		struct uncore_attrib_row r;
		if (uncore_perjob_row(pj, i, &r))
			continue;
		if (npick) {
			print_metrics(&r, pick, npick, json);
			continue;
		}
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
			       "\"device_read_bytes\": %.17g%s%s, \"shared_cpus\": %d, \"sampled\": %.4g}\n",
			       r.socket, r.job[0] ? "\"" : "", r.job[0] ? r.job : "null", r.job[0] ? "\"" : "", r.read_bytes,
			       r.write_bytes, r.socket_read_bytes, r.socket_write_bytes, r.seconds, r.read_bytes / s,
			       r.write_bytes / s, r.device_write_bytes, r.device_read_bytes, energy,
			       peak_share(u, &r, s, share, sizeof(share)), r.shared_cpus, r.sampled);
		else
			printf("socket%-3d %-16s read %10.4f GB/s  write %10.4f GB/s  %s %.0f%%%s%s%s\n", r.socket,
			       r.job[0] ? r.job : "unattributed", r.read_bytes / s / 1e9, r.write_bytes / s / 1e9,
			       r.job[0] ? "its cores sampled" : "(devices, cores of no job) of all",
			       r.job[0] ? 100 * r.sampled : r.socket_read_bytes > 0 ? 100 * r.read_bytes / r.socket_read_bytes : 0,
			       devices(&r, s, dev, sizeof(dev)), shared(&r, sh, sizeof(sh)), energy);
	}
}

/* The command's state through its window (cli_window.h) */
struct perjob {
	struct perjob_args a;
	uncore_t *u;
	uncore_perjob_t *pj;
	uncore_energy_t *en; /* the sockets' energy, sampled every step: no wrap unseen (job_energy_open) */
	int pick[NBY], npick; /* -M, --metric-group: by_job's metrics printed (0: the rows as they are) */
};

static int perjob_plan(uncore_t *u, void *arg)
{
	struct perjob *p = arg;
	p->u = u;
	if ((p->a.metrics || p->a.groups) &&
	    (p->npick = cli_row_metrics(u, "--per-job", "by job", by_job, NBY, p->a.metrics, p->a.groups, p->pick, NBY)) < 0)
		return p->npick; /* -2: said */
	if (uncore_perjob_new(u, &p->pj))
		return -1;
	int n = uncore_perjob_plan(p->pj); /* the jobs, then the attribution over them */
	cli_warnings();                    /* entries left out, CPUs the thread filter cannot name */
	if (n < 0)
		return -1;
	if (!p->a.json) {
		cli_banner(stdout, u);
		printf("# per job: %s, by thread at one box a step (every %g ms); reads x 64 B, writes in proportion\n",
		       uncore_attrib_counts(u), p->a.step_ms);
		if (!n)
			printf("# no job on this node (see uncore jobs): all of it is unattributed\n");
	}
	return 0;
}

/* the jobs of the start, whole: the rows of a -I read and of the end are theirs (no tally kept) */
static int perjob_start(void *arg)
{
	struct perjob *p = arg;
	if (uncore_perjob_start(p->pj, NULL))
		return -1;
	p->en = job_energy_open(p->u, p->a.step_ms / 1e3);
	return 0;
}

static int perjob_step(void *arg)
{
	struct perjob *p = arg;
	if (uncore_perjob_step(p->pj))
		return -1;
	job_energy_read(p->en, 0);
	return 0;
}

static int perjob_interval(void *arg, uint64_t t_ns)
{
	struct perjob *p = arg;
	int n = uncore_perjob_read(p->pj, UNCORE_LAST_INTERVAL, NULL);
	if (n < 0)
		return -1;
	job_energy_read(p->en, 1);
	if (!p->a.json)
		printf("# %.3f s\n", (double)t_ns / 1e9);
	print_rows(p->u, p->pj, n, p->a.json, p->en, UNCORE_LAST_INTERVAL, p->pick, p->npick);
	return 0;
}

static int perjob_stop(void *arg, uint64_t t_ns)
{
	struct perjob *p = arg;
	int n;
	if (uncore_perjob_stop(p->pj))
		return -1;
	if (p->a.interval_ms <= 0) {
		if ((n = uncore_perjob_read(p->pj, UNCORE_SINCE_START, NULL)) < 0)
			return -1;
		job_energy_read(p->en, 1);
		if (!p->a.json)
			printf("# %.3f s elapsed%s\n", (double)t_ns / 1e9, cli_stopped() ? " (interrupted)" : "");
		print_rows(p->u, p->pj, n, p->a.json, p->en, UNCORE_SINCE_START, p->pick, p->npick);
	}
	return 0;
}

static void perjob_release(void *arg)
{
	struct perjob *p = arg;
	uncore_energy_free(p->en);
	uncore_perjob_free(p->pj);
}

int cmd_stat_per_job(int argc, char **argv)
{
	struct perjob p = { 0 };
	int rc = parse(argc, argv, &p.a);
	if (rc)
		return rc;
	struct cli_window w = { .total_ns = p.a.duration > 0 ? (uint64_t)(p.a.duration * 1e9) : UINT64_MAX,
				.every_ns = p.a.interval_ms > 0 ? (uint64_t)(p.a.interval_ms * 1e6) : UINT64_MAX,
				.step_ns = (uint64_t)(p.a.step_ms * 1e6), .plan = perjob_plan, .start = perjob_start,
				.interval = perjob_interval, .step = perjob_step, .stop = perjob_stop, .release = perjob_release };
	return cli_window_run(&w, &p);
}
