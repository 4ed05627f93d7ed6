/* uncore: list, inspect and count uncore events from the command line. */
#include <errno.h>
#include <math.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "uncore.h"

static const char *backend_arg;

static void usage(FILE *f)
{
	fprintf(f,
		"usage: uncore [--backend B] info\n"
		"       uncore [--backend B] list [--metrics] [--format text|tsv]\n"
		"       uncore [--backend B] stat [-e EV[,EV...]] [-M METRIC[,...]] [--metric-group G[,...]]\n"
		"                                 [-I ms] [--per-box] (--duration s | -- cmd [args])\n"
		"       uncore [--backend B] allowlist   (msr-safe allowlist of every MSR the library uses)\n"
		"backend: auto, perf, direct, sim:<platform>[,sockets=N][,profile=FILE][,clock=manual], "
		"perf+sim:<platform>[,options] (default: $UNCORE_BACKEND, else auto: perf where the kernel's uncore PMUs "
		"may be used, else direct)\n"
		"UNCORE_SCALE=1: scale counts the kernel multiplexed by time enabled / time running, as perf stat does\n"
		"--events FILE: load an Intel perfmon uncore JSON file (also $UNCORE_EVENTS)\n"
		"--metric-file FILE: load metric definitions, perf-style JSON (also $UNCORE_METRICS)\n"
		"--force: take over boxes another agent (perf, PCM, likwid) counts on (also $UNCORE_FORCE=1)\n");
}

static const char *events_arg, *metrics_arg;
static int force_arg;
static size_t warnings_shown;

/* The library's warnings not shown yet, one line each (units left out, a refused claims file ...). */
static void show_warnings(void)
{
	const char *w = uncore_warnings();
	if (strlen(w) < warnings_shown)
		warnings_shown = 0; /* a new open started the list afresh */
	for (w += warnings_shown; *w;) {
		size_t n = strcspn(w, "\n");
		fprintf(stderr, "uncore: warning: %.*s\n", (int)n, w);
		w += n + (w[n] == '\n');
	}
	warnings_shown = strlen(uncore_warnings());
}

static int open_or_die(uncore_t **u)
{
	warnings_shown = 0;
	if (uncore_open(backend_arg, u)) {
		fprintf(stderr, "uncore: %s\n", uncore_error());
		return -1;
	}
	if (force_arg)
		uncore_set_force(*u, 1);
	show_warnings();
	if ((events_arg && uncore_load_events(*u, events_arg) < 0) ||
	    (metrics_arg && uncore_load_metrics(*u, metrics_arg) < 0)) {
		fprintf(stderr, "uncore: %s\n", uncore_error());
		uncore_close(*u);
		*u = NULL; /* the caller closes whatever it holds */
		return -1;
	}
	return 0;
}

static void banner(FILE *f, uncore_t *u)
{
	fprintf(f, "# backend %s%s, platform %s (%s), %d sockets\n", uncore_backend_name(u),
		uncore_is_simulated(u) ? " (SIMULATED: values come from the simulator's profile, not hardware)" : "",
		uncore_platform_name(u), uncore_platform_desc(u), uncore_num_sockets(u));
	if (uncore_platform_caveat(u))
		fprintf(f, "# note: %s\n", uncore_platform_caveat(u));
}

static int cmd_info(void)
{
	uncore_t *u;
	if (open_or_die(&u))
		return 1;
	banner(stdout, u);
	printf("# backend chosen: %s\n", uncore_backend_reason(u));
	printf("%-8s %-5s %4s %5s %5s  %s\n", "unit", "space", "ctrs", "width", "fixed", "boxes per socket");
	for (int i = 0; i < uncore_num_units(u); i++) {
		struct uncore_unit_info ui;
		uncore_unit_info(u, i, &ui);
		printf("%-8s %-5s %4d %5d %5s ", ui.name, ui.space, ui.counters, ui.width, ui.has_fixed ? "yes" : "no");
		for (int s = 0; s < uncore_num_sockets(u); s++)
			printf(" s%d:%d", s, uncore_unit_boxes(u, i, s));
		printf("  %s\n", ui.desc);
	}
	for (int i = 0; i < uncore_num_units(u); i++)
		for (int s = 0; s < uncore_num_sockets(u); s++)
			for (int b = 0; b < uncore_unit_boxes(u, i, s); b++) {
				struct uncore_unit_info ui;
				char loc[96];
				int num = uncore_box_number(u, i, s, b);
				uncore_unit_info(u, i, &ui);
				uncore_box_location(u, i, s, num, loc, sizeof(loc));
				printf("box %s %d socket %d: %s\n", ui.name, num, s, loc);
			}
	uncore_close(u);
	return 0;
}

static void ctr_list(unsigned m, char *buf, size_t len)
{
	size_t n = 0;
	if (!m) {
		snprintf(buf, len, "fixed");
		return;
	}
	buf[0] = 0;
	for (int i = 0; i < 8; i++)
		if (m & (1u << i))
			n += (size_t)snprintf(buf + n, len - n, "%s%d", n ? "," : "", i);
}

static int list_metrics(uncore_t *u, int tsv)
{
	int n = uncore_num_metrics(u);
	if (n < 0) {
		fprintf(stderr, "uncore: %s\n", uncore_error());
		return 1;
	}
	if (tsv)
		printf("name\tunit\tgroup\tper_box\tformula\tdescription\n");
	for (int i = 0; i < n; i++) {
		struct uncore_metric_info m;
		struct uncore_unit_info ui = { .name = "-" };
		uncore_metric_info(u, i, &m);
		if (m.box_unit >= 0)
			uncore_unit_info(u, m.box_unit, &ui);
		if (tsv)
			printf("%s\t%s\t%s\t%s\t%s\t%s\n", m.name, m.unit, m.group, ui.name, m.expr, m.desc);
		else
			printf("%-22s %-8s %-13s per %-7s %s\n    %s\n", m.name, m.unit, m.group,
			       m.box_unit >= 0 ? ui.name : "socket", m.expr, m.desc);
	}
	return 0;
}

/* An event's qualifiers as the library lists them: "socket=0..1 box=0..3 edge opc=0..0x1ff(required)". */
static void qualifier_list(uncore_t *u, int ev, char *buf, size_t len)
{
	struct uncore_qualifier q[32];
	int n = uncore_event_qualifiers(u, ev, q, 32);
	size_t k = 0;
	buf[0] = 0;
	for (int i = 0; i < n && i < 32 && k < len; i++) {
		const char *sep = k ? " " : "";
		if (q[i].flag)
			k += (size_t)snprintf(buf + k, len - k, "%s%s", sep, q[i].name);
		else
			k += (size_t)snprintf(buf + k, len - k, q[i].max < 4096 ? "%s%s=%llu..%llu%s" : "%s%s=%llu..%#llx%s",
					      sep, q[i].name, q[i].min, q[i].max, q[i].required ? "(required)" : "");
	}
}

static int cmd_list(int argc, char **argv)
{
	const char *format = "text";
	int metrics = 0, rc;
	uncore_t *u;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--format") && i + 1 < argc)
			format = argv[++i];
		else if (!strcmp(argv[i], "--metrics"))
			metrics = 1;
		else {
			fprintf(stderr, "uncore list: unknown argument '%s'\n", argv[i]);
			return 2;
		}
	}
	if (strcmp(format, "text") && strcmp(format, "tsv")) {
		fprintf(stderr, "uncore list: unknown format '%s' (text or tsv)\n", format);
		return 2;
	}
	if (open_or_die(&u))
		return 1;
	if (!strcmp(format, "tsv") && uncore_is_simulated(u))
		printf("# backend %s (SIMULATED)\n", uncore_backend_name(u));
	else if (strcmp(format, "tsv"))
		banner(stdout, u);
	if (metrics) {
		rc = list_metrics(u, !strcmp(format, "tsv"));
		uncore_close(u);
		return rc;
	}
	if (!strcmp(format, "tsv")) {
		printf("unit\tname\tcode\tumask\tumask_ext\tcounters\tdescription\tqualifiers\n");
	}
	for (int i = 0; i < uncore_num_events(u); i++) {
		struct uncore_event_info e;
		char ctrs[32], quals[1024];
		uncore_event_info(u, i, &e);
		ctr_list(e.counter_mask, ctrs, sizeof(ctrs));
		if (e.freerun)
			snprintf(ctrs, sizeof(ctrs), "freerun");
		qualifier_list(u, i, quals, sizeof(quals));
		if (!strcmp(format, "tsv"))
			printf("%s\t%s\t0x%02x\t0x%02x\t0x%x\t%s\t%s\t%s\n", e.unit, e.name, e.code, e.umask, e.umask_ext, ctrs,
			       e.desc, quals);
		else
			printf("%-44s %-6s code 0x%02x umask 0x%02x ext 0x%x ctrs %s\n    %s\n    qualifiers: %s\n", e.name,
			       e.unit, e.code, e.umask, e.umask_ext, ctrs, e.desc, quals);
	}
	uncore_close(u);
	return 0;
}

/* Split on commas outside raw-event slashes; out (room for max) may be NULL to count.  s is cut up
 * only when out is given. */
static int split_events(char *s, char **out, int max)
{
	int n = 0, slash = 0;
	char *start = s;
	for (char *p = s;; p++) {
		if (*p == '/')
			slash = !slash;
		if ((*p == ',' && !slash) || !*p) {
			int end = !*p;
			if (out)
				*p = 0;
			if (p > start && out && n < max)
				out[n] = start;
			n += p > start;
			if (end)
				break;
			start = p + 1;
		}
	}
	return n;
}

/* Every item of a comma list, as a malloc'd array of pointers into s (NULL when out of memory). */
static char **split_list(char *s, int *n)
{
	*n = s ? split_events(s, NULL, 0) : 0;
	char **out = calloc((size_t)*n + 1, sizeof(*out));
	if (out && s)
		split_events(s, out, *n);
	return out;
}

/* Repeated -e, -M and --metric-group add up: item is appended to the comma list *list. */
static int append_list(char **list, const char *item)
{
	size_t have = *list ? strlen(*list) : 0;
	char *n = realloc(*list, have + strlen(item) + 2);
	if (!n)
		return -1;
	snprintf(n + have, strlen(item) + 2, "%s%s", have ? "," : "", item);
	*list = n;
	return 0;
}

/* The -e events (the first nev of the session; metrics' events follow them). */
static void print_values(uncore_session_t *s, uncore_t *u, int nev, int per_box, uint64_t **prev, double t,
			 int interval)
{
	for (int e = 0; e < nev; e++) {
		for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
			int nb = uncore_session_event_boxes(s, e, sock);
			uint64_t v;
			if (!nb || uncore_session_value(s, e, sock, -1, &v))
				continue;
			if (interval)
				printf("%10.3f ", t);
			uint64_t en, run;
			char mux[64] = "";
			if (uncore_session_times(s, e, sock, -1, &en, &run) == 1) /* the kernel shared the counters */
				snprintf(mux, sizeof(mux), "  (multiplexed: counting %.1f%% of the time)",
					 en ? 100.0 * (double)run / (double)en : 0.0);
			printf("socket%-3d %-44s %20llu%s\n", sock, uncore_session_event_name(s, e),
			       (unsigned long long)(v - prev[e][sock]), mux);
			prev[e][sock] = v;
			for (int b = 0; per_box && b < 64; b++) {
				if (uncore_session_value(s, e, sock, b, &v))
					continue;
				if (interval)
					printf("%10.3f ", t);
				printf("  box%-4d %-44s %20llu\n", b, uncore_session_event_name(s, e), (unsigned long long)v);
			}
		}
	}
	fflush(stdout);
}

static void print_metrics(uncore_session_t *s, uncore_t *u, int per_box, int window, double t)
{
	for (int m = 0; m < uncore_session_num_metrics(s); m++) {
		struct uncore_metric_info mi;
		uncore_metric_info(u, uncore_metric_find(u, uncore_session_metric_name(s, m)), &mi);
		for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
			double v;
			if (uncore_session_metric_value(s, m, sock, -1, window, &v))
				continue;
			if (window == UNCORE_LAST_INTERVAL)
				printf("%10.3f ", t);
			printf("socket%-3d %-44s %20.4f %s\n", sock, mi.name, v, mi.unit);
			for (int k = 0; per_box && mi.box_unit >= 0 && k < uncore_unit_boxes(u, mi.box_unit, sock); k++) {
				struct uncore_unit_info ui;
				int box = uncore_box_number(u, mi.box_unit, sock, k);
				char label[32];
				if (uncore_session_metric_value(s, m, sock, box, window, &v))
					continue;
				uncore_unit_info(u, mi.box_unit, &ui);
				snprintf(label, sizeof(label), "%s%d", ui.name, box);
				if (window == UNCORE_LAST_INTERVAL)
					printf("%10.3f ", t);
				printf("  %-7s %-44s %20.4f %s\n", label, mi.name, v, mi.unit);
			}
		}
	}
	fflush(stdout);
}

static int groups_to_metrics(uncore_session_t *s, uncore_t *u, char **list, int n);

/* -M names and --metric-group groups into session metrics; -1 with the library's reason. */
static int add_metrics(uncore_session_t *s, uncore_t *u, char *names, char *groups)
{
	int n, rc = 0;
	char **list = split_list(names, &n);
	for (int i = 0; list && i < n && !rc; i++)
		if (uncore_session_add_metric(s, list[i]) < 0)
			rc = -1;
	free(list);
	if (rc)
		return rc;
	if (!(list = split_list(groups, &n)))
		return -1;
	rc = groups_to_metrics(s, u, list, n);
	free(list);
	return rc;
}

static int groups_to_metrics(uncore_session_t *s, uncore_t *u, char **list, int n)
{
	for (int g = 0; g < n; g++) {
		int found = 0, nm = uncore_num_metrics(u);
		for (int i = 0; i < nm; i++) {
			struct uncore_metric_info mi;
			uncore_metric_info(u, i, &mi);
			if (strcmp(mi.group, list[g]))
				continue;
			found = 1;
			if (uncore_session_add_metric(s, mi.name) < 0)
				return -1;
		}
		if (!found) {
			fprintf(stderr, "uncore: no metric group '%s' on %s (see 'uncore list --metrics')\n", list[g],
				uncore_platform_name(u));
			return -2;
		}
	}
	return 0;
}

static volatile sig_atomic_t stop_signal; /* SIGINT, SIGTERM or SIGHUP arrived: stop, restore, exit */

static void on_signal(int sig) { stop_signal = sig; }

static void catch_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: a wait returns at once */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
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
	double duration, interval_ms;
};

/* Parse the options: 0, or the exit status of a refusal (1 out of memory, 2 usage). */
static int stat_parse(int argc, char **argv, struct stat_args *a)
{
	static const struct option opts[] = {
		{ "events", required_argument, 0, 'e' },  { "interval", required_argument, 0, 'I' },
		{ "per-box", no_argument, 0, 'b' },       { "duration", required_argument, 0, 'd' },
		{ "metrics", required_argument, 0, 'M' }, { "metric-group", required_argument, 0, 'G' },
		{ 0, 0, 0, 0 },
	};
	int c;
	a->duration = -1;
	optind = 1;
	while ((c = getopt_long(argc, argv, "+e:I:M:", opts, NULL)) != -1) {
		switch (c) {
		case 'e':
		case 'M':
		case 'G':
			if (append_list(c == 'e' ? &a->evbuf : c == 'M' ? &a->metrics : &a->groups, optarg)) {
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
		case 'd':
			if (parse_span(optarg, 1e-6, MAX_SPAN_S, &a->duration)) {
				fprintf(stderr, "uncore stat: --duration '%s': need a positive number of seconds, at most %.0e\n",
					optarg, MAX_SPAN_S);
				return 2;
			}
			break;
		default: usage(stderr); return 2;
		}
	}
	if ((a->duration < 0) == (optind >= argc)) {
		fprintf(stderr, "uncore stat: give either --duration SECONDS or -- COMMAND\n");
		return 2;
	}
	a->cmd = optind < argc ? optind : 0;
	return 0;
}

/* Count until the duration ends, the command exits or a signal comes, reading (and with -I printing)
 * every interval; waits in slices of at most 50 ms so that a signal or the command's end is seen soon.
 * Returns 0, or -1 when a read failed. */
static int stat_loop(uncore_t *u, uncore_session_t *s, const struct stat_args *a, int nev, uint64_t **prev,
		     pid_t *child, int *status)
{
	const uint64_t slice = 50000000;
	uint64_t step = (uint64_t)((a->interval_ms > 0 ? a->interval_ms / 1000 : a->duration > 0 ? a->duration : 0.1) * 1e9);
	uint64_t total = a->duration > 0 ? (uint64_t)(a->duration * 1e9) : UINT64_MAX, t = 0;
	for (int done = 0; !done;) {
		for (uint64_t waited = 0; waited < step && t < total && !done && !stop_signal;) {
			uint64_t dt = step - waited < slice ? step - waited : slice;
			if (dt > total - t)
				dt = total - t;
			uncore_sleep_ns(u, dt);
			waited += dt;
			t += dt;
			if (*child > 0 && waitpid(*child, status, WNOHANG) == *child) {
				*child = -1;
				done = 1;
			}
		}
		if (t >= total)
			done = 1;
		if (stop_signal) {
			if (*child > 0) { /* the command gets the signal too, and is waited for */
				kill(*child, stop_signal);
				waitpid(*child, status, 0);
				*child = -1;
			}
			done = 1;
		}
		if (uncore_session_read(s))
			return -1;
		if (a->interval_ms > 0) {
			print_values(s, u, nev, a->per_box, prev, (double)uncore_session_elapsed_ns(s) / 1e9, 1);
			print_metrics(s, u, a->per_box, UNCORE_LAST_INTERVAL, (double)uncore_session_elapsed_ns(s) / 1e9);
		}
	}
	return 0;
}

static int cmd_stat(int argc, char **argv)
{
	struct stat_args a = { 0 };
	char **events = NULL;
	int nev = 0, c, rc, status = 0;
	uncore_t *u = NULL;
	uncore_session_t *s = NULL;
	uint64_t **prev = NULL;
	pid_t child = -1;
	if ((rc = stat_parse(argc, argv, &a)))
		goto out;
	rc = 1;
	if (!(events = split_list(a.evbuf, &nev))) {
		fprintf(stderr, "uncore stat: out of memory\n");
		goto out;
	}
	if (!nev && !a.metrics && !a.groups) {
		fprintf(stderr, "uncore stat: nothing to count: give -e EV[,EV...], -M METRIC[,...] or --metric-group G; "
				"see 'uncore list' and 'uncore list --metrics'\n");
		rc = 2;
		goto out;
	}
	if (open_or_die(&u))
		goto out;
	if (uncore_session_new(u, &s))
		goto err;
	for (int i = 0; i < nev; i++)
		if (uncore_session_add(s, events[i]) < 0)
			goto err;
	if ((c = add_metrics(s, u, a.metrics, a.groups)) == -1)
		goto err;
	else if (c < 0)
		goto out;
	prev = calloc((size_t)nev + 1, sizeof(*prev));
	for (int i = 0; prev && i < nev; i++)
		if (!(prev[i] = calloc((size_t)uncore_num_sockets(u), sizeof(**prev))))
			break;
	if (!prev || (nev && !prev[nev - 1])) {
		fprintf(stderr, "uncore stat: out of memory\n");
		goto out;
	}
	banner(stdout, u);
	catch_signals(); /* from here on an interrupt stops counting and restores the registers */
	c = uncore_session_start(s);
	show_warnings();
	if (c)
		goto err;
	if (a.cmd) {
		fflush(stdout);
		child = fork();
		if (child == 0) {
			execvp(argv[a.cmd], argv + a.cmd);
			fprintf(stderr, "uncore stat: cannot run '%s': %s\n", argv[a.cmd], strerror(errno));
			_exit(127);
		}
	}
	if (stat_loop(u, s, &a, nev, prev, &child, &status))
		goto err;
	c = uncore_session_stop(s);
	show_warnings(); /* e.g. a record the claims file lost */
	if (c)
		goto err;
	if (a.interval_ms <= 0) {
		printf("# %.3f s elapsed%s\n", (double)uncore_session_elapsed_ns(s) / 1e9,
		       stop_signal ? " (interrupted)" : "");
		print_values(s, u, nev, a.per_box, prev, 0, 0);
		print_metrics(s, u, a.per_box, UNCORE_SINCE_START, 0);
	}
	/* like a shell: the signal that stopped us, else the command's own status */
	rc = stop_signal ? 128 + stop_signal : a.cmd ? status_of(status) : 0;
	goto out;
err:
	fprintf(stderr, "uncore: %s\n", uncore_error());
	if (child > 0) {
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
	}
out:
	uncore_session_free(s); /* stops and restores whatever still runs */
	for (int i = 0; prev && i < nev; i++)
		free(prev[i]);
	free(prev);
	uncore_close(u);
	free(events);
	free(a.evbuf);
	free(a.metrics);
	free(a.groups);
	return rc;
}

static int cmd_allowlist(int argc, char **argv)
{
	uncore_t *u;
	char *text;
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "uncore allowlist: unexpected argument '%s'\n", argv[1]);
		return 2;
	}
	if (open_or_die(&u))
		return 1;
	text = uncore_msr_allowlist(u);
	if (!text) {
		fprintf(stderr, "uncore: %s\n", uncore_error());
		uncore_close(u);
		return 1;
	}
	fputs(text, stdout);
	free(text);
	uncore_close(u);
	return 0;
}

/* Options taking a file or backend, accepted before or after the subcommand. */
static const char **global_opt(const char *arg)
{
	if (!strcmp(arg, "--events"))
		return &events_arg;
	if (!strcmp(arg, "--metric-file"))
		return &metrics_arg;
	if (!strcmp(arg, "--backend"))
		return &backend_arg;
	return NULL;
}

int main(int argc, char **argv)
{
	int i = 1;
	const char **opt;
	while (i < argc && argv[i][0] == '-') {
		if ((opt = global_opt(argv[i])) && i + 1 < argc) {
			*opt = argv[i + 1];
			i += 2;
		} else if (!strncmp(argv[i], "--backend=", 10)) {
			backend_arg = argv[i] + 10;
			i++;
		} else if (!strcmp(argv[i], "--force")) {
			force_arg = 1;
			i++;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			break;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return 2;
	}
	for (int j = i; j < argc; j++) { /* --force anywhere before "--" */
		if (!strcmp(argv[j], "--"))
			break;
		if (!strcmp(argv[j], "--force")) {
			force_arg = 1;
			memmove(&argv[j], &argv[j + 1], (size_t)(argc - j) * sizeof(*argv));
			argc--;
			j--;
		}
	}
	for (int j = i + 1; j < argc; j++) {
		if (!strcmp(argv[j], "--"))
			break;
		if ((opt = global_opt(argv[j])) && j + 1 < argc) {
			*opt = argv[j + 1];
			memmove(&argv[j], &argv[j + 2], (size_t)(argc - j - 1) * sizeof(*argv));
			argc -= 2;
			j--;
		}
	}
	if (!strcmp(argv[i], "info"))
		return cmd_info();
	if (!strcmp(argv[i], "list"))
		return cmd_list(argc - i, argv + i);
	if (!strcmp(argv[i], "stat"))
		return cmd_stat(argc - i, argv + i);
	if (!strcmp(argv[i], "allowlist"))
		return cmd_allowlist(argc - i, argv + i);
	fprintf(stderr, "uncore: unknown command '%s'\n", argv[i]);
	usage(stderr);
	return 2;
}
