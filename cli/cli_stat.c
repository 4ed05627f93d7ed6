/* uncore stat: count events and metrics for a while or while a command runs, and print them. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli.h"

#define MAX_BOXES 64 /* box numbers --per-box looks at */

static struct cli_energy energy; /* the energy metrics asked (cli_energy.c) */
static int counting; /* the session has events (not energy alone): it is started, read and stopped */
#define ELAPSED_S(s) (counting ? (double)uncore_session_elapsed_ns(s) / 1e9 : cli_energy_elapsed(&energy))

/* "imc3", or "imc15/die1" where the socket has several dies (die >= 0). */
static void box_label(char *buf, size_t len, const char *unit, int box, int die)
{
	if (die >= 0)
		snprintf(buf, len, "%s%d/die%d", unit, box, die);
	else
		snprintf(buf, len, "%s%d", unit, box);
}

/* One event count, of a socket (box -1) or a box, over the interval (-I) or the run; enabled and running
 * times where the kernel keeps them (the perf backend).  A count over a box that failed is marked, and one
 * the kernel never had on the counters (multiplexed); one not measured there is left out. */
static void put_count(const struct out *o, uncore_session_t *s, int e, int sock, int box, double t, int interval)
{
	uint64_t v = 0, en = 0, run = 0;
	char label[32], failed[64];
	int rc = interval ? uncore_session_interval_value(s, e, sock, box, &v) : uncore_session_value(s, e, sock, box, &v);
	if (rc && rc != UNCORE_BOX_FAILED && rc != UNCORE_NOT_COUNTED)
		return;
	uncore_session_failed_box(s, e, sock, box, failed, sizeof(failed));
	int die = box < 0 ? -1 : uncore_session_box_die(s, e, sock, box);
	box_label(label, sizeof(label), "box", box, die);
	struct out_rec r = { .interval = interval, .t = t, .socket = sock, .box = box, .box_label = label, .die = die,
			     .name = uncore_session_event_name(s, e), .count = v, .unit = "",
			     .failed = rc == UNCORE_BOX_FAILED ? failed : NULL, .not_counted = rc == UNCORE_NOT_COUNTED };
	double scale = uncore_session_event_scale(s, e, &r.unit); /* perf's alias: MiB for cas_count_read */
	r.scaled = scale != 1 || (r.unit && *r.unit);
	r.value = (double)r.count * scale;
	r.times = rc != UNCORE_BOX_FAILED && o->perf && uncore_session_times(s, e, sock, box, &en, &run) >= 0;
	r.enabled_ns = en;
	r.running_ns = run;
	out_record(o, &r);
}

/* The -e events (the first nev of the session; metrics' events follow them). */
static void print_values(const struct out *o, uncore_session_t *s, uncore_t *u, int nev, int per_box, double t,
			 int interval)
{
	for (int e = 0; e < nev; e++)
		for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
			if (!uncore_session_event_boxes(s, e, sock))
				continue;
			put_count(o, s, e, sock, -1, t, interval);
			for (int b = 0; per_box && b < MAX_BOXES; b++)
				put_count(o, s, e, sock, b, t, interval);
		}
}

static void put_metric(const struct out *o, uncore_session_t *s, int m, const struct uncore_metric_info *mi,
		       int sock, int box, const char *label, int die, int window, double t)
{
	double v = NAN;
	char failed[64];
	struct uncore_port_devices pd;
	int port = box >= 0 ? uncore_iio_port_of(mi->name) : -1; /* a port of one stack names its devices */
	int named = port >= 0 && uncore_port_devices(o->u, sock, box, port, &pd) > 0 && pd.ndevices;
	int rc = uncore_session_metric_value(s, m, sock, box, window, &v);
	if (rc && rc != UNCORE_BOX_FAILED && rc != UNCORE_NOT_COUNTED)
		return;
	uncore_session_metric_failed_box(s, m, sock, box, failed, sizeof(failed));
	struct uncore_channel ch;
	struct out_rec r = { .interval = window == UNCORE_LAST_INTERVAL, .t = t, .socket = sock, .box = box,
			     .box_label = label, .die = die, .name = mi->name, .metric = 1, .value = v, .unit = mi->unit,
			     .failed = rc == UNCORE_BOX_FAILED ? failed : NULL, .not_counted = rc == UNCORE_NOT_COUNTED,
			     .devices = named ? &pd : NULL };
	/* an iMC channel without a DIMM, or a box that is no channel: marked, not a silent zero */
	if (box >= 0 && !strncmp(label, "imc", 3) && !uncore_memory_channel(o->u, sock, box, &ch) &&
	    (ch.state == UNCORE_CHAN_EMPTY || ch.state == UNCORE_CHAN_NONE))
		r.channel = ch.state;
	/* perf backend: the share of the time its least counted event was on the counters */
	r.times = rc != UNCORE_BOX_FAILED && o->perf &&
		  uncore_session_metric_times(s, m, sock, box, &r.enabled_ns, &r.running_ns) >= 0;
	out_record(o, &r);
}

/* A socket's DRAM bandwidth as a share of its peak (the library's uncore_session_peak_share, the one rule every
 * front end takes), after its mem_bw_total: a row where the peak is known, none where it is not (doc/memory.md). */
static void put_peak_share(const struct out *o, uncore_session_t *s, int m, int sock, int window, double t)
{
	double share;
	if (uncore_session_peak_share(s, m, sock, window, &share) || !isfinite(share))
		return;
	struct out_rec r = { .interval = window == UNCORE_LAST_INTERVAL, .t = t, .socket = sock, .box = -1, .box_label = "",
			     .die = -1, .name = "mem_bw_peak_share", .metric = 1, .value = 100 * share, .unit = "%" };
	out_record(o, &r);
}

/* Whether the session counts the metric named name. */
static int session_counts(uncore_session_t *s, const char *name)
{
	for (int m = 0; m < uncore_session_num_metrics(s); m++)
		if (!strcmp(uncore_session_metric_name(s, m), name))
			return 1;
	return 0;
}

static void print_metrics(const struct out *o, uncore_session_t *s, uncore_t *u, int per_box, int window, double t)
{
	for (int m = 0; m < uncore_session_num_metrics(s); m++) {
		struct uncore_metric_info mi;
		struct uncore_unit_info ui = { .name = "" };
		uncore_metric_info(u, uncore_metric_find(u, uncore_session_metric_name(s, m)), &mi);
		if (mi.box_unit >= 0)
			uncore_unit_info(u, mi.box_unit, &ui);
		for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
			put_metric(o, s, m, &mi, sock, -1, "", -1, window, t);
			if (!strcmp(mi.name, "mem_bw_total") && !session_counts(s, "mem_bw_peak_share")) /* (its own row) */
				put_peak_share(o, s, m, sock, window, t);
			for (int k = 0; per_box && mi.box_unit >= 0 && k < uncore_unit_boxes(u, mi.box_unit, sock); k++) {
				char label[48];
				int box = uncore_box_number(u, mi.box_unit, sock, k), die = uncore_box_die(u, mi.box_unit, sock, box);
				box_label(label, sizeof(label), ui.name, box, die);
				put_metric(o, s, m, &mi, sock, box, label, die, window, t);
			}
		}
	}
}


/* Flush what was printed.  Output nobody reads any more (EPIPE, SIGPIPE ignored) stops the run as
 * SIGPIPE would; returns 0, or why else it cannot be written (a full disk; EIO when a write inside
 * printf failed and its reason is lost) unless a signal already stopped the run. */
static int flush_output(void)
{
	int e;
	errno = 0;
	if ((!fflush(stdout) && !ferror(stdout)) || cli_stopped())
		return 0;
	if ((e = errno ? errno : EIO) != EPIPE)
		return e;
	cli_stop(SIGPIPE);
	return 0;
}

/* A number of seconds for --duration or milliseconds for -I: finite, in [lo, hi]. */
static int parse_span(const char *arg, double lo, double hi, double *out)
{
	char *end;
	double v = strtod(arg, &end);
	if (end == arg || *end || !isfinite(v) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* Exit status as a shell gives it: the command's own, or 128 + the signal that ended it. */
static int status_of(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

#define MAX_SPAN_S 1e8 /* about three years: longer spans would overflow the nanosecond clock */

/* What 'uncore stat' was asked: its options, and where the command to run starts (0: none). */
struct stat_args {
	char *evbuf, *metrics, *groups; /* comma lists; -e, -M and --metric-group add up */
	int per_box, cmd;
	enum out_fmt fmt;
	const char *sep;
	double duration, interval_ms;
};

/* Parse the options: 0, or the exit status of a refusal (1 out of memory, 2 usage). */
static int stat_parse(int argc, char **argv, struct stat_args *a)
{
	static const struct option opts[] = {
		{ "events", required_argument, 0, 'e' },  { "interval", required_argument, 0, 'I' },
		{ "per-box", no_argument, 0, 'b' },       { "duration", required_argument, 0, 'd' },
		{ "metrics", required_argument, 0, 'M' }, { "metric-group", required_argument, 0, 'G' },
		{ "json", no_argument, 0, 'j' },          { "field-separator", required_argument, 0, 'x' },
		{ 0, 0, 0, 0 },
	};
	int c;
	a->duration = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+e:I:M:x:", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
		case 'M':
		case 'G':
			if (cli_append(c == 'e' ? &a->evbuf : c == 'M' ? &a->metrics : &a->groups, ',', optarg)) {
				fprintf(stderr, "uncore stat: out of memory\n");
				return 1;
			}
			break;
		case 'I':
			if (parse_span(optarg, 1, MAX_SPAN_S * 1000, &a->interval_ms)) {
				fprintf(stderr, "uncore stat: -I '%s': need an interval of at least 1 ms (a number)\n", optarg);
				return 2;
			}
			break;
		case 'b': a->per_box = 1; break;
		case 'j':
		case 'x':
			if (a->fmt != OUT_TEXT) {
				fprintf(stderr, "uncore stat: give one of -x SEP and --json\n");
				return 2;
			}
			if (c == 'x' && (!*optarg || strpbrk(optarg, "\"\r\n") || strlen(optarg) > 4)) {
				fprintf(stderr, "uncore stat: -x '%s': the separator is 1 to 4 characters, no quote or line "
						"break\n", optarg);
				return 2;
			}
			a->fmt = c == 'x' ? OUT_CSV : OUT_JSON;
			a->sep = c == 'x' ? optarg : ",";
			break;
		case 'd':
			if (parse_span(optarg, 1e-6, MAX_SPAN_S, &a->duration)) {
				fprintf(stderr, "uncore stat: --duration '%s': need a positive number of seconds, at most %.0e\n",
					optarg, MAX_SPAN_S);
				return 2;
			}
			break;
		default:
			cli_help("stat", stderr);
			return 2;
		}
	}
	if ((a->duration < 0) == (optind >= argc)) {
		fprintf(stderr, "uncore stat: give either --duration SECONDS or -- COMMAND\n");
		return 2;
	}
	a->cmd = optind < argc ? optind : 0;
	return 0;
}

/* An error the run goes on after (a box failed at a read; at the stop, registers not put back): said
 * once, here; the values not involving the box are still printed, and the run exits 1 at its end. */
static void say_and_go_on(int *lost)
{
	fprintf(stderr, "uncore: %s\n", uncore_error());
	*lost = 1;
}

/* Count until the duration ends, the command exits or a signal comes, reading (and with -I printing)
 * every interval; waits in slices of at most 50 ms so that a signal, the command's end or an overflow
 * of a sampled counter is seen soon.
 * Returns 0, -1 when a read failed, or the errno of output that cannot be written; *lost is set when
 * a box failed (the values that do not involve it go on). */
static int stat_loop(const struct out *o, uncore_t *u, uncore_session_t *s, const struct stat_args *a, int nev,
		     pid_t *child, int *status, int *lost)
{
	const uint64_t slice = 50000000;
	uint64_t step = (uint64_t)((a->interval_ms > 0 ? a->interval_ms / 1000 : a->duration > 0 ? a->duration : 0.1) * 1e9);
	uint64_t total = a->duration > 0 ? (uint64_t)(a->duration * 1e9) : UINT64_MAX, t = 0;
	for (int done = 0; !done;) {
		for (uint64_t waited = 0; waited < step && t < total && !done && !cli_stopped();) {
			uint64_t dt = step - waited < slice ? step - waited : slice;
			if (dt > total - t)
				dt = total - t;
			uncore_sleep_ns(u, dt);
			if (cli_energy_sample(&energy)) /* energy counters sampled within their wrap time */
				say_and_go_on(lost);
			/* a sampled counter's overflow froze its die: let it count again now, not at the next read */
			if (counting && uncore_session_overflows(s, NULL, 0) < 0)
				return -1;
			waited += dt;
			t += dt;
			if (*child > 0 && waitpid(*child, status, WNOHANG) == *child) {
				*child = -1;
				done = 1;
			}
		}
		if (t >= total)
			done = 1;
		if (cli_stopped()) {
			if (*child > 0) { /* the command gets the signal too, and is waited for */
				kill(*child, cli_stopped());
				waitpid(*child, status, 0);
				*child = -1;
			}
			done = 1;
		}
		int rc = counting ? uncore_session_read(s) : 0;
		if (rc == UNCORE_BOX_FAILED)
			say_and_go_on(lost);
		else if (rc)
			return -1;
		if (cli_energy_read(&energy))
			say_and_go_on(lost);
		if (a->interval_ms > 0) {
			double t = ELAPSED_S(s);
			print_values(o, s, u, nev, a->per_box, t, 1);
			print_metrics(o, s, u, a->per_box, UNCORE_LAST_INTERVAL, t);
			cli_energy_print(o, &energy, u, UNCORE_LAST_INTERVAL, t);
			if (counting)
				out_health(o, s, t);
			int e = flush_output();
			if (e)
				return e;
		}
	}
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	struct stat_args a = { 0 };
	char **events = NULL;
	int nev = 0, c, rc, status = 0, lost = 0;
	uncore_t *u = NULL;
	uncore_session_t *s = NULL;
	struct out o;
	pid_t child = -1;
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "--per-job"))
			return cmd_stat_per_job(argc, argv);
		else if (!strcmp(argv[i], "--per-node"))
			return cmd_stat_per_node(argc, argv);
		else if (!strcmp(argv[i], "--per-device"))
			return cmd_stat_per_device(argc, argv);
	if ((rc = stat_parse(argc, argv, &a)))
		goto out;
	cli_energy_take(a.metrics, a.groups, &energy);
	rc = 1;
	if (!(events = cli_split_list(a.evbuf, &nev))) {
		fprintf(stderr, "uncore stat: out of memory\n");
		goto out;
	}
	if (!nev && (!a.metrics || !*a.metrics) && (!a.groups || !*a.groups) && !energy.want) {
		fprintf(stderr, "uncore stat: nothing to count: give -e EV[,EV...], -M METRIC[,...] or --metric-group G; "
				"see 'uncore list' and 'uncore list --metrics'\n");
		rc = 2;
		goto out;
	}
	if (cli_open(&u))
		goto out;
	if (uncore_session_new(u, &s))
		goto err;
	for (int i = 0; i < nev; i++)
		if (uncore_session_add(s, events[i]) < 0)
			goto err;
	if ((c = cli_add_metrics(s, u, a.metrics, a.groups)) == -1)
		goto err;
	else if (c < 0)
		goto out;
	o = (struct out){ .fmt = a.fmt, .sep = a.sep, .backend = uncore_backend_name(u), .simulated = uncore_is_simulated(u),
			  .perf = !strncmp(uncore_backend_name(u), "perf", 4), .u = u };
	if (o.fmt == OUT_TEXT)
		cli_banner(stdout, u);
	else
		out_header(&o);
	cli_catch_signals(); /* from here on an interrupt stops counting and restores the registers */
	counting = uncore_session_num_events(s) > 0;
	c = counting ? uncore_session_start(s) : 0;
	cli_warnings();
	if (c || (c = cli_energy_start(u, &energy, 0.05)) == -1) /* sampled every 50 ms at least: the loop's slices */
		goto err;
	if (c == -2) /* a metric of a domain the node lacks: said why */
		goto end_child;
	if (counting && energy.e && uncore_session_watch_energy(s, energy.e)) /* health judges them (energystuck, energyunit) */
		goto err;
	if (a.cmd) {
		int *foreign, nforeign = cli_foreign_fds(&foreign);
		if (nforeign < 0) {
			fprintf(stderr, "uncore stat: out of memory\n");
			goto out;
		}
		fflush(stdout);
		child = fork();
		if (child == 0) {
			for (int i = 0; i < nforeign; i++) /* the command gets only what our caller passed */
				close(foreign[i]);
			execvp(argv[a.cmd], argv + a.cmd);
			fprintf(stderr, "uncore stat: cannot run '%s': %s\n", argv[a.cmd], strerror(errno));
			_exit(127);
		}
		free(foreign);
	}
	if ((c = stat_loop(&o, u, s, &a, nev, &child, &status, &lost)) > 0) {
		fprintf(stderr, "uncore stat: cannot write the output: %s\n", strerror(c));
		goto end_child;
	}
	if (c)
		goto err;
	c = counting ? uncore_session_stop(s) : 0;
	cli_warnings(); /* e.g. a record the claims file lost */
	if (c) /* the final read's values stand (uncore.h): those not involving a failed box are printed */
		say_and_go_on(&lost);
	if (a.interval_ms <= 0) {
		double t = ELAPSED_S(s);
		if (o.fmt == OUT_TEXT)
			printf("# %.3f s elapsed%s\n", t, cli_stopped() ? " (interrupted)" : "");
		print_values(&o, s, u, nev, a.per_box, t, 0);
		print_metrics(&o, s, u, a.per_box, UNCORE_SINCE_START, t);
		cli_energy_print(&o, &energy, u, UNCORE_SINCE_START, t);
	}
	if (counting)
		out_health(&o, s, ELAPSED_S(s)); /* the rest: all of a run without -I */
	if ((c = flush_output()))
		fprintf(stderr, "uncore stat: cannot write the output: %s\n", strerror(c));
	/* like a shell: the signal that stopped us, else the command's own status; else 1 when a box failed */
	rc = cli_stopped() ? 128 + cli_stopped() : c ? 1 : a.cmd && status_of(status) ? status_of(status) : lost;
	goto out;
err:
	fprintf(stderr, "uncore: %s\n", uncore_error());
end_child:
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
	}
out:
	uncore_session_free(s); /* stops and restores whatever still runs */
	cli_energy_free(&energy);
	uncore_close(u);
	free(events);
	free(a.evbuf);
	free(a.metrics);
	free(a.groups);
	return rc;
}

