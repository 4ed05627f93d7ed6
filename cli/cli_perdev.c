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
#include "cli_window.h"

struct perdev_args {
	double duration, interval_ms;
	int json;
	char *metrics, *groups; /* -M, --metric-group: those metrics of each group in place of its bytes */
};

/* What a metric is by device group: its IIO port's bytes of one direction (write: into the socket) */
static const struct cli_row_metric by_device[] = {
	{ "iio_write_bytes", CLI_DEV_WRITE, 0 }, { "iio_read_bytes", CLI_DEV_READ, 0 },
	{ "iio_bw_write", CLI_DEV_WRITE, 1 },    { "iio_bw_read", CLI_DEV_READ, 1 },
};
#define NBY (int)(sizeof(by_device) / sizeof(by_device[0]))

static int parse(int argc, char **argv, struct perdev_args *a)
{
	static const struct option opts[] = {
		{ "per-device", no_argument, 0, 'p' }, { "json", no_argument, 0, 'j' },
		{ "duration", required_argument, 0, 'd' }, { "metrics", required_argument, 0, 'M' },
		{ "metric-group", required_argument, 0, 'g' }, { "event", required_argument, 0, 'e' }, { 0, 0, 0, 0 },
	};
	int c;
	*a = (struct perdev_args){ .duration = -1, .interval_ms = -1 };
	optind = 1;
	while ((c = getopt_long(argc, argv, "I:M:e:", opts, NULL)) != -1) {
		char *end = NULL;
		double *to = c == 'd' ? &a->duration : c == 'I' ? &a->interval_ms : NULL;
		if (c == 'j')
			a->json = 1;
		else if (c == 'p')
			continue;
		else if (c == 'M' || c == 'g')
			*(c == 'M' ? &a->metrics : &a->groups) = optarg;
		else if (c == 'e') {
			fprintf(stderr, "uncore stat --per-device: -e %s: an event counts on its boxes, which a device group's "
					"share is not defined for; give -M METRIC (by device: iio_write_bytes, iio_read_bytes, "
					"iio_bw_write, iio_bw_read)\n", optarg);
			return 2;
		} else if (!to || (*to = strtod(optarg, &end)) <= 0 || *end || *to > 1e7) {
			if (to)
				fprintf(stderr, "uncore stat --per-device: '%s': a positive number, at most 1e7\n", optarg);
			fprintf(stderr, "usage: uncore stat --per-device (--duration SECONDS | -I MS) [-M METRIC[,...]] "
					"[--metric-group GROUP[,...]] [--json]\n");
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

/* A row's JSON up to its values: the group, its devices, the window */
static void json_head(uncore_t *u, const struct row *r, double t, double secs)
{
	printf("{\"time\": %.6f, \"socket\": %d, \"die\": %d, \"box\": %d, \"stack\": %d, \"port\": %d, "
	       "\"root_port\": \"%s\", \"behind_switch\": %s, \"devices\": [", t, r->c.socket, r->c.die, r->c.box,
	       r->g.stack, r->c.port, r->g.root_port, r->g.behind_switch ? "true" : "false");
	cli_device_json(u, r->group, r->g.ndevices);
	printf("], \"seconds\": %.9g, ", secs);
}

static void json_tail(const struct out *o)
{
	printf(", \"backend\": ");
	out_json_str(stdout, o->backend);
	printf(", \"simulated\": %s}\n", o->simulated ? "true" : "false");
}

/* A row's text after its columns: its devices, their node */
static void text_line(uncore_t *u, const struct row *r, const char *cols)
{
	struct uncore_port_devices pd;
	char where[48];
	uncore_port_devices(u, r->c.socket, r->c.box, r->c.port, &pd);
	snprintf(where, sizeof(where), "socket%d iio%d port%d", r->c.socket, r->c.box, r->c.port);
	struct uncore_device d; /* the node the kernel gives its devices (their stack's: one for the group) */
	char node[24] = "";
	if (r->g.ndevices && !uncore_device_info(u, r->group, 0, &d) && d.numa_node >= 0)
		snprintf(node, sizeof(node), "  node %d", d.numa_node);
	printf("%-22s %s  %s%s\n", where, cols, r->g.ndevices ? pd.text : "empty", node);
}

/* The metrics -M and --metric-group named (pick: indices into by_device), a line each for each group */
static void print_metrics(uncore_t *u, uncore_session_t *s, const struct row *r, const int *pick, int npick,
			  int window, double t, double secs, const struct out *o)
{
	struct cli_row_bytes b = { .mem_read = NAN, .mem_write = NAN, .seconds = secs };
	bytes_of(s, r, r->wm, window, &b.dev_write);
	bytes_of(s, r, r->rm, window, &b.dev_read);
	for (int k = 0; k < npick; k++) {
		const struct cli_row_metric *m = &by_device[pick[k]];
		double v = cli_row_value(m, &b);
		if (o->fmt == OUT_JSON) {
			json_head(u, r, t, secs);
			cli_row_json(m, v);
			json_tail(o);
		} else {
			char col[64];
			cli_row_text(col, sizeof(col), m, v);
			text_line(u, r, col);
		}
	}
}

static void print_rows(uncore_t *u, uncore_session_t *s, const struct row *rows, int n, const int *pick, int npick,
		       int window, double t, double secs, const struct out *o)
{
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		if (npick) {
			print_metrics(u, s, r, pick, npick, window, t, secs, o);
			continue;
		}
		double w, rd;
		int hw = !bytes_of(s, r, r->wm, window, &w), hr = !bytes_of(s, r, r->rm, window, &rd);
		if (o->fmt == OUT_JSON) {
			json_head(u, r, t, secs);
			printf("\"write_bytes\": ");
			printf(hw ? "%.17g" : "null", w);
			printf(", \"read_bytes\": ");
			printf(hr ? "%.17g" : "null", rd);
			printf(", \"write_bw\": ");
			printf(hw ? "%.17g" : "null", secs > 0 ? w / secs : 0);
			printf(", \"read_bw\": ");
			printf(hr ? "%.17g" : "null", secs > 0 ? rd / secs : 0);
			json_tail(o);
			continue;
		}
		char cols[100], wcol[48] = "write          -", rcol[48] = "read          -";
		if (hw)
			snprintf(wcol, sizeof(wcol), "write %14.0f B %9.4f GB/s", w, secs > 0 ? w / secs / 1e9 : 0);
		if (hr)
			snprintf(rcol, sizeof(rcol), "read %14.0f B %9.4f GB/s", rd, secs > 0 ? rd / secs / 1e9 : 0);
		snprintf(cols, sizeof(cols), "%s  %s", wcol, rcol);
		text_line(u, r, cols);
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

/* The command's state through its window (cli_window.h) */
struct perdev {
	struct perdev_args a;
	struct out o;
	uncore_t *u;
	uncore_session_t *s;
	struct row *rows;
	int n;
	int pick[NBY], npick; /* -M, --metric-group: by_device's metrics printed (0: the bytes and bandwidths) */
	double last; /* the end of the last -I interval, s */
};

static int perdev_plan(uncore_t *u, void *arg)
{
	struct perdev *p = arg;
	p->u = u;
	p->o = (struct out){ .fmt = p->a.json ? OUT_JSON : OUT_TEXT, .backend = uncore_backend_name(u),
			     .simulated = uncore_is_simulated(u) };
	if ((p->a.metrics || p->a.groups) &&
	    (p->npick = cli_row_metrics(u, "--per-device", "by device", by_device, NBY, p->a.metrics, p->a.groups,
					 p->pick, NBY)) < 0)
		return p->npick; /* -2: said */
	if (!p->a.json)
		cli_banner(stdout, u);
	if (uncore_session_new(u, &p->s) || plan(u, p->s, &p->rows, &p->n, p->a.json))
		return -1;
	cli_warnings();
	if (!p->n && !p->a.json)
		printf("# no device group with a counter of its own on this machine (see uncore devices)\n");
	return !p->n;
}

static int perdev_start(void *arg) { return uncore_session_start(((struct perdev *)arg)->s); }

/* The rows of the window that ends now, under "# S s<what>" in text */
static void print_window(struct perdev *p, int window, const char *what)
{
	double now = (double)uncore_session_elapsed_ns(p->s) / 1e9;
	if (!p->a.json)
		printf("# %.3f s%s\n", now, what);
	print_rows(p->u, p->s, p->rows, p->n, p->pick, p->npick, window, now, window == UNCORE_LAST_INTERVAL ? now - p->last : now, &p->o);
	p->last = now;
}

/* A read or stop's result: a box that failed is in its rows (said there), anything else ends the command */
static int failed(int rc) { return rc && rc != UNCORE_BOX_FAILED; }

static int perdev_interval(void *arg, uint64_t t_ns)
{
	struct perdev *p = arg;
	(void)t_ns;
	if (failed(uncore_session_read(p->s)))
		return -1;
	print_window(p, UNCORE_LAST_INTERVAL, "");
	return 0;
}

static int perdev_stop(void *arg, uint64_t t_ns)
{
	struct perdev *p = arg;
	(void)t_ns;
	if (failed(uncore_session_stop(p->s)))
		return -1;
	if (p->a.interval_ms <= 0)
		print_window(p, UNCORE_SINCE_START, cli_stopped() ? " elapsed (interrupted)" : " elapsed");
	return 0;
}

static void perdev_release(void *arg)
{
	struct perdev *p = arg;
	uncore_session_free(p->s);
	free(p->rows);
}

int cmd_stat_per_device(int argc, char **argv)
{
	struct perdev p = { 0 };
	int rc = parse(argc, argv, &p.a);
	if (rc)
		return rc;
	uint64_t total = p.a.duration > 0 ? (uint64_t)(p.a.duration * 1e9) : UINT64_MAX;
	struct cli_window w = { .total_ns = total, .every_ns = p.a.interval_ms > 0 ? (uint64_t)(p.a.interval_ms * 1e6) : UINT64_MAX,
				.step_ns = UINT64_MAX, .last_partial = 1, .plan = perdev_plan, .start = perdev_start,
				.interval = perdev_interval, .stop = perdev_stop, .release = perdev_release };
	return cli_window_run(&w, &p);
}
