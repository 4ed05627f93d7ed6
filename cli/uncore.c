/* uncore: list, inspect and count uncore events from the command line.  This file: the global
 * options, opening the handle, and the info and allowlist commands. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

static const char *backend_arg;
static char *backends_given; /* every --backend, '\n'-joined: uncore check runs on each */

int cli_append(char **list, char sep, const char *item)
{
	size_t have = *list ? strlen(*list) : 0;
	char *n = realloc(*list, have + strlen(item) + 2);
	if (!n)
		return -1;
	snprintf(n + have, strlen(item) + 2, "%.*s%s", have ? 1 : 0, &sep, item);
	*list = n;
	return 0;
}
static char *events_arg, *metrics_arg; /* ':'-joined: repeated options add up, like the variables */
static int force_arg;

void cli_warnings(void)
{
	for (const char *w = uncore_warnings_drain(NULL); *w;) { /* each once */
		size_t n = strcspn(w, "\n");
		char line[2048];
		snprintf(line, sizeof(line), "%.*s", (int)n, w);
		out_said(stderr, "uncore: warning: ", line); /* (it may quote a file's or a record's text) */
		w += n + (w[n] == '\n');
	}
}

void cli_set_backend(const char *backend) { backend_arg = backend; }
const char *cli_backends(void) { return backends_given; }
const char *cli_backend(void) { return backend_arg; }
int cli_only_backend(const char *backend)
{
	free(backends_given);
	backends_given = NULL;
	backend_arg = backend;
	return cli_append(&backends_given, '\n', backend);
}

int cli_json_args(const char *cmd, int argc, char **argv, int *json)
{
	*json = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			*json = 1;
			continue;
		}
		fprintf(stderr, "uncore %s: unexpected argument '%s' (see 'uncore %s --help')\n", cmd, argv[i], cmd);
		return -1;
	}
	return 0;
}

int cli_open_topology(uncore_t **u)
{
	if (!uncore_open_topology(backend_arg, u))
		return 0;
	cli_warnings();
	out_said(stderr, "uncore: ", uncore_error());
	return -1;
}

int cli_open(uncore_t **u)
{
	cli_defer_signals(); /* a signal while a replay unpacks: the handle closed, its directory removed, then it */
	int rc = uncore_open(backend_arg, u);
	cli_deliver_signals(rc ? NULL : *u);
	if (rc) {
		cli_warnings(); /* e.g. the environment ignored: it may be why */
		out_said(stderr, "uncore: ", uncore_error());
		return -1;
	}
	if (force_arg)
		uncore_set_force(*u, 1);
	if ((events_arg && uncore_load_events(*u, events_arg) < 0) ||
	    (metrics_arg && uncore_load_metrics(*u, metrics_arg) < 0)) {
		out_said(stderr, "uncore: ", uncore_error());
		cli_warnings();
		uncore_close(*u);
		*u = NULL; /* the caller closes whatever it holds */
		return -1;
	}
	cli_warnings(); /* after the files: loading them may leave units out */
	return 0;
}

void cli_banner(FILE *f, uncore_t *u)
{
	char dies[32] = "";
	if (uncore_socket_dies(u, 0) > 1) /* the sockets' boxes count on every die, summed per socket */
		snprintf(dies, sizeof(dies), " of %d dies", uncore_socket_dies(u, 0));
	fprintf(f, "# backend %s%s, platform %s (%s), %d sockets%s\n", uncore_backend_name(u),
		uncore_is_simulated(u) ? " (SIMULATED: values come from the simulator's profile, not hardware)" : "",
		uncore_platform_name(u), uncore_platform_desc(u), uncore_num_sockets(u), dies);
	if (uncore_platform_caveat(u))
		fprintf(f, "# note: %s\n", uncore_platform_caveat(u));
}

static int cmd_info(int argc, char **argv)
{
	uncore_t *u;
	/* a reader that goes away (uncore info | head) ends the output, not the process: the handle still closes,
	 * and a replay's snapshot is freed with it */
	signal(SIGPIPE, SIG_IGN);
	if (argc > 1) {
		fprintf(stderr, "uncore info: unexpected argument '%s'\n", argv[1]);
		return 2;
	}
	if (cli_open(&u))
		return 1;
	cli_banner(stdout, u);
	printf("# %s\n", uncore_cpu_match(u));
	printf("# backend chosen: %s\n", uncore_backend_reason(u));
	printf("%-8s %-5s %4s %5s %5s  %s\n", "unit", "space", "ctrs", "width", "fixed", "boxes per socket");
	for (int i = 0; i < uncore_num_units(u); i++) {
		struct uncore_unit_info ui;
		uncore_unit_info(u, i, &ui);
		char ctrs[16] = "-"; /* 0: the kernel's to place */
		if (ui.counters)
			snprintf(ctrs, sizeof(ctrs), "%d", ui.counters);
		printf("%-8s %-5s %4s %5d %5s ", ui.name, ui.space, ctrs, ui.width, ui.has_fixed ? "yes" : "no");
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
				int die = uncore_box_die(u, i, s, num);
				uncore_box_location(u, i, s, num, loc, sizeof(loc));
				if (die >= 0)
					printf("box %s %d socket %d die %d: %s\n", ui.name, num, s, die, loc);
				else
					printf("box %s %d socket %d: %s\n", ui.name, num, s, loc);
			}
	uncore_close(u);
	return 0;
}

static int cmd_allowlist(int argc, char **argv)
{
	uncore_t *u;
	char *text;
	unsigned flags = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--sampling")) { /* the overflow bits too: the group may freeze a die */
			flags |= UNCORE_ALLOWLIST_SAMPLING;
			continue;
		}
		fprintf(stderr, "uncore allowlist: unexpected argument '%s' (see 'uncore allowlist --help')\n", argv[i]);
		return 2;
	}
	if (cli_open(&u))
		return 1;
	text = uncore_msr_allowlist_for(u, flags);
	if (!text) {
		out_said(stderr, "uncore: ", uncore_error());
		uncore_close(u);
		return 1;
	}
	fputs(text, stdout);
	free(text);
	uncore_close(u);
	return 0;
}

/* --events and --metric-file add to their list; --backend replaces.  0, or -1 out of memory. */
static int set_global(const char *opt, const char *val)
{
	if (!strcmp(opt, "--backend")) {
		backend_arg = val; /* the last one counts, for every other command */
		return cli_append(&backends_given, '\n', val);
	}
	return cli_append(!strcmp(opt, "--events") ? &events_arg : &metrics_arg, ':', val);
}

static int is_global(const char *arg)
{
	return !strcmp(arg, "--events") || !strcmp(arg, "--metric-file") || !strcmp(arg, "--backend");
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} commands[] = {
	{ "info", cmd_info }, { "list", cmd_list }, { "stat", cmd_stat }, { "allowlist", cmd_allowlist },
	{ "check", cmd_check }, { "jobs", cmd_jobs }, { "devices", cmd_devices }, { "job", cmd_job }, { "snapshot", cmd_snapshot },
	{ "freq", cmd_freq }, /* the uncore clock's limits (cli_freq.c) */
	{ "memory", cmd_memory }, /* which memory channels hold DIMMs (cli_memory.c) */
};

static int is_help(const char *a) { return !strcmp(a, "-h") || !strcmp(a, "--help"); }

static int run(int argc, char **argv, int i)
{
	if (!strcmp(argv[i], "help")) {
		if (i + 1 < argc && cli_help(argv[i + 1], stdout)) {
			fprintf(stderr, "uncore help: no command '%s'\n", argv[i + 1]);
			cli_help(NULL, stderr);
			return 2;
		}
		return i + 1 < argc ? 0 : cli_help(NULL, stdout);
	}
	if (!strcmp(argv[i], "version")) {
		cli_version(stdout);
		return 0;
	}
	for (size_t c = 0; c < sizeof(commands) / sizeof(commands[0]); c++) {
		if (strcmp(argv[i], commands[c].name))
			continue;
		for (int j = i + 1; j < argc && strcmp(argv[j], "--"); j++)
			if (is_help(argv[j])) /* uncore CMD --help */
				return cli_help(argv[i], stdout);
		return commands[c].run(argc - i, argv + i);
	}
	fprintf(stderr, "uncore: unknown command '%s'\n", argv[i]);
	cli_help(NULL, stderr);
	return 2;
}

int main(int argc, char **argv)
{
	int i = 1, rc;
	/* Set-user-ID or set-group-ID, uncore would open the files its user names and run the command of 'stat --'
	 * with another user's rights: refused before anything.  File capabilities (setcap cap_perfmon+ep,
	 * doc/backends.md) keep the user's ids and are taken: the library then opens what the user names only
	 * if the user may (util/safe_file.c). */
	if (getuid() != geteuid() || getgid() != getegid()) {
		fprintf(stderr, "uncore: refusing to run set-user-ID or set-group-ID (real uid %u gid %u, effective uid %u "
			"gid %u): it would open the files you name and run the command of 'stat --' with another user's "
			"rights; give the program file capabilities instead (setcap cap_perfmon+ep)\n", (unsigned)getuid(),
			(unsigned)getgid(), (unsigned)geteuid(), (unsigned)getegid());
		_exit(1); /* nothing of ours to flush; no exit handler (a sanitizer's) runs with the other rights */
	}
	if (cli_note_caller_fds()) /* before anything opens one of its own */
		goto oom;
	while (i < argc && argv[i][0] == '-') {
		if (is_global(argv[i]) && i + 1 < argc) {
			if (set_global(argv[i], argv[i + 1]))
				goto oom;
			i += 2;
		} else if (!strncmp(argv[i], "--backend=", 10)) {
			if (set_global("--backend", argv[i] + 10))
				goto oom;
			i++;
		} else if (!strcmp(argv[i], "--force")) {
			force_arg = 1;
			i++;
		} else if (is_help(argv[i])) {
			return cli_help(NULL, stdout);
		} else if (!strcmp(argv[i], "--version")) {
			cli_version(stdout);
			return 0;
		} else {
			fprintf(stderr, "uncore: unknown option '%s'\n", argv[i]);
			cli_help(NULL, stderr);
			return 2;
		}
	}
	if (i >= argc) {
		cli_help(NULL, stderr);
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
	for (int j = i + 1; j < argc; j++) { /* the global options after the command */
		if (!strcmp(argv[j], "--"))
			break;
		if (is_global(argv[j]) && j + 1 < argc) {
			if (set_global(argv[j], argv[j + 1]))
				goto oom;
			memmove(&argv[j], &argv[j + 2], (size_t)(argc - j - 1) * sizeof(*argv));
			argc -= 2;
			j--;
		}
	}
	rc = run(argc, argv, i);
	free(events_arg);
	free(metrics_arg);
	return rc;
oom:
	fprintf(stderr, "uncore: out of memory\n");
	return 1;
}
