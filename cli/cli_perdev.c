/*
 * uncore stat --per-device (issue 66 point 1): each device group's bytes into the socket (write: the devices'
 * DMA writes) and out of it (read), and their bandwidth, from its root port's IIO counters
 * (uncore_session_add_device_group), labelled with its devices (a PCIe switch's as one group), over
 * --duration S or every -I MS.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

struct perdev_args {
	double duration, interval_ms;
	int json;
};

static int parse(int argc, char **argv, struct perdev_args *a)
{
	static const struct option opts[] = {
		{ "per-device", no_argument, 0, 'p' }, { "json", no_argument, 0, 'j' },
		{ "duration", required_argument, 0, 'd' }, { 0, 0, 0, 0 },
	};
	int c;
	*a = (struct perdev_args){ .duration = -1, .interval_ms = -1 };
	optind = 1;
	while ((c = getopt_long(argc, argv, "I:", opts, NULL)) != -1) {
		char *end = NULL;
		double *to = c == 'd' ? &a->duration : c == 'I' ? &a->interval_ms : NULL;
		if (c == 'j')
			a->json = 1;
		else if (c == 'p')
			continue;
		else if (!to || (*to = strtod(optarg, &end)) <= 0 || *end || *to > 1e7) {
			if (to)
				fprintf(stderr, "uncore stat --per-device: '%s': a positive number, at most 1e7\n", optarg);
			fprintf(stderr, "usage: uncore stat --per-device (--duration SECONDS | -I MS) [--json]\n");
			return 2;
		}
	}
	if (optind < argc || (a->duration <= 0 && a->interval_ms <= 0)) {
		fprintf(stderr, "uncore stat --per-device: give --duration SECONDS or -I MS%s%s\n",
			optind < argc ? ", not " : "", optind < argc ? argv[optind] : "");
		return 2;
	}
	return 0;
}

/* A counted group: where its bytes are, in the session */
struct row {
	int group, wm, rm; /* session metrics of its bytes in and out (-1: not counted by port here) */
	struct uncore_device_counter c;
	struct uncore_device_group g;
};

/* The group's bytes of one direction over the window: 0, or -1 (no value: not counted, a box failed) */
static int bytes_of(uncore_session_t *s, const struct row *r, int m, int window, double *out)
{
	*out = NAN;
	if (m < 0)
		return -1;
	int rc = uncore_session_metric_value(s, m, r->c.socket, r->c.box, window, out);
	return rc || !isfinite(*out) ? -1 : 0;
}

static void print_rows(uncore_t *u, uncore_session_t *s, const struct row *rows, int n, int window, double t,
		       double secs, const struct out *o)
{
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		double w, rd;
		int hw = !bytes_of(s, r, r->wm, window, &w), hr = !bytes_of(s, r, r->rm, window, &rd);
		if (o->fmt == OUT_JSON) {
			printf("{\"time\": %.6f, \"socket\": %d, \"die\": %d, \"box\": %d, \"stack\": %d, \"port\": %d, "
			       "\"root_port\": \"%s\", \"behind_switch\": %s, \"devices\": [", t, r->c.socket, r->c.die, r->c.box,
			       r->g.stack, r->c.port, r->g.root_port, r->g.behind_switch ? "true" : "false");
			cli_device_json(u, r->group, r->g.ndevices);
			printf("], \"seconds\": %.9g, \"write_bytes\": ", secs);
			printf(hw ? "%.17g" : "null", w);
			printf(", \"read_bytes\": ");
			printf(hr ? "%.17g" : "null", rd);
			printf(", \"write_bw\": ");
			printf(hw ? "%.17g" : "null", secs > 0 ? w / secs : 0);
			printf(", \"read_bw\": ");
			printf(hr ? "%.17g" : "null", secs > 0 ? rd / secs : 0);
			printf(", \"backend\": ");
			out_json_str(stdout, o->backend);
			printf(", \"simulated\": %s}\n", o->simulated ? "true" : "false");
			continue;
		}
		struct uncore_port_devices pd;
		char where[48], wcol[48] = "write          -", rcol[48] = "read          -";
		uncore_port_devices(u, r->c.socket, r->c.box, r->c.port, &pd);
		snprintf(where, sizeof(where), "socket%d iio%d port%d", r->c.socket, r->c.box, r->c.port);
		if (hw)
			snprintf(wcol, sizeof(wcol), "write %14.0f B %9.4f GB/s", w, secs > 0 ? w / secs / 1e9 : 0);
		if (hr)
			snprintf(rcol, sizeof(rcol), "read %14.0f B %9.4f GB/s", rd, secs > 0 ? rd / secs / 1e9 : 0);
		struct uncore_device d; /* the node the kernel gives its devices (their stack's: one for the group) */
		char node[24] = "";
		if (r->g.ndevices && !uncore_device_info(u, r->group, 0, &d) && d.numa_node >= 0)
			snprintf(node, sizeof(node), "  node %d", d.numa_node);
		printf("%-22s %s  %s  %s%s\n", where, wcol, rcol, r->g.ndevices ? pd.text : "empty", node);
	}
}

/* The counted groups, their metrics added to s; the others said on stderr (text) with why */
static int plan(uncore_t *u, uncore_session_t *s, struct row **rows, int *n, int json)
{
	int ng = uncore_num_device_groups(u);
	if (ng < 0)
		return -1;
	if (!(*rows = calloc((size_t)ng + 1, sizeof(**rows))))
		return -1;
	for (int k = 0; k < ng; k++) {
		struct row *r = &(*rows)[*n];
		r->group = k;
		if (uncore_device_group_info(u, k, &r->g))
			return -1;
		if (uncore_device_group_counter(u, k, &r->c) || uncore_session_add_device_group(u, s, k, &r->wm, &r->rm)) {
			if (!json && r->g.ndevices) /* its devices' bytes are in no row: said, not dropped */
				printf("# not by device: %s\n", uncore_error());
			continue;
		}
		(*n)++;
	}
	return 0;
}

int cmd_stat_per_device(int argc, char **argv)
{
	struct perdev_args a;
	uncore_t *u = NULL;
	uncore_session_t *s = NULL;
	struct row *rows = NULL;
	int rc = parse(argc, argv, &a), n = 0;
	if (rc)
		return rc;
	rc = 1;
	if (cli_open(&u))
		return 1;
	struct out o = { .fmt = a.json ? OUT_JSON : OUT_TEXT, .backend = uncore_backend_name(u),
			 .simulated = uncore_is_simulated(u) };
	if (!a.json)
		cli_banner(stdout, u);
	if (uncore_session_new(u, &s) || plan(u, s, &rows, &n, a.json))
		goto err;
	cli_warnings();
	if (!n) {
		if (!a.json)
			printf("# no device group with a counter of its own on this machine (see uncore devices)\n");
		rc = 0;
		goto out;
	}
	cli_catch_signals();
	if (uncore_session_start(s))
		goto err;
	uint64_t total = a.duration > 0 ? (uint64_t)(a.duration * 1e9) : UINT64_MAX;
	uint64_t every = a.interval_ms > 0 ? (uint64_t)(a.interval_ms * 1e6) : total, t = 0;
	double last = 0;
	while (t < total && !cli_stopped()) {
		uint64_t d = every < total - t ? every : total - t;
		if (cli_sleep(u, d) < 0)
			goto err;
		t += d;
		if (a.interval_ms > 0) {
			int r = uncore_session_read(s);
			if (r && r != UNCORE_BOX_FAILED)
				goto err;
			double now = (double)uncore_session_elapsed_ns(s) / 1e9;
			if (!a.json)
				printf("# %.3f s\n", now);
			print_rows(u, s, rows, n, UNCORE_LAST_INTERVAL, now, now - last, &o);
			fflush(stdout);
			last = now;
		}
	}
	int stopped = uncore_session_stop(s);
	if (stopped && stopped != UNCORE_BOX_FAILED)
		goto err;
	if (a.interval_ms <= 0) {
		double now = (double)uncore_session_elapsed_ns(s) / 1e9;
		if (!a.json)
			printf("# %.3f s elapsed%s\n", now, cli_stopped() ? " (interrupted)" : "");
		print_rows(u, s, rows, n, UNCORE_SINCE_START, now, now, &o);
	}
	rc = cli_stopped() ? 128 + cli_stopped() : 0;
	goto out;
err:
	fprintf(stderr, "uncore: %s\n", uncore_error());
out:
	uncore_session_free(s);
	uncore_close(u);
	free(rows);
	return rc;
}
