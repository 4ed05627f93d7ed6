/* The uncore CLI's parts: options and opening (uncore.c), the signals that stop a command (cli_signals.c),
 * help (cli_help.c), the commands list, stat, jobs and job (cli_list.c, cli_stat.c, cli_jobs.c, cli_job.c), and their output
 * as text, CSV or JSON lines (cli_out.c). */
#ifndef UNCORE_CLI_H
#define UNCORE_CLI_H

#include <stdint.h>
#include <stdio.h>
#include "uncore.h"

/* Open the handle with the global options (--backend, --events, --metric-file, --force), showing the
 * library's warnings; -1 after printing why. */
int cli_open(uncore_t **u);
/* A command whose one option is --json (jobs, devices): 0 with *json set, or -1 after naming the argument. */
int cli_json_args(const char *cmd, int argc, char **argv, int *json);
/* Open the machine's topology alone (uncore_open_topology: sockets and CPUs, no uncore needed); -1 after
 * printing why. */
int cli_open_topology(uncore_t **u);
/* The backend cli_open takes (uncore check: each it runs on in turn). */
void cli_set_backend(const char *backend);
/* Every --backend given, in order, '\n'-joined (NULL: none); other commands take the last. */
const char *cli_backends(void);
const char *cli_backend(void); /* the last --backend (NULL: none given) */
int cli_only_backend(const char *backend); /* from now on the one backend of every command: 0, -1 */
/* item added to the sep-separated list *list (malloc'd; NULL: empty); -1 out of memory.  Repeated
 * options add up this way. */
int cli_append(char **list, char sep, const char *item);
/* The library's warnings not shown yet, one line each on stderr. */
void cli_warnings(void);
/* "# backend ..., platform ..., N sockets" and the platform's caveat. */
void cli_banner(FILE *f, uncore_t *u);

/* Note the descriptors open now, at the start: the caller's (0, or -1 out of memory). */
int cli_note_caller_fds(void);
/* The descriptors open now that the caller did not pass (malloc'd, ascending): their count, or -1 out of
 * memory.  A child closes them before it runs a command. */
int cli_foreign_fds(int **out);

/* From here on every signal that would end the process (cli_signals.c) is noted instead: the command
 * stops at its next wait, restores what it programmed and exits 128 + it. */
void cli_catch_signals(void);
/* Around the library's open (cli_open): the signals that would end the process now are held off until
 * cli_deliver_signals, which then closes u (NULL: no handle) and ends the process by the first that came. */
void cli_defer_signals(void);
void cli_deliver_signals(uncore_t *u);
/* The signal noted, or 0; cli_stop notes sig as if it had come (the first one stays). */
int cli_stopped(void);
void cli_stop(int sig);
/* uncore_sleep_ns() in slices that end at a noted signal: 0 slept all of ns, the signal, or -1 (the
 * library's error). */
int cli_sleep(uncore_t *u, uint64_t ns);

/* Usage of a command ("stat"), or of the program (NULL); -1 for a command there is not. */
int cli_help(const char *cmd, FILE *f);
void cli_version(FILE *f);

int cmd_list(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_jobs(int argc, char **argv);
int cmd_devices(int argc, char **argv);
int cmd_freq(int argc, char **argv); /* cli_freq.c: the uncore clock's limits */
int cmd_memory(int argc, char **argv); /* cli_memory.c: which memory channels hold DIMMs, the peak */
int cmd_job(int argc, char **argv);
int cmd_stat_per_job(int argc, char **argv); /* uncore stat --per-job (cli_perjob.c) */
int cmd_stat_per_node(int argc, char **argv); /* uncore stat --per-node (cli_pernode.c) */
/* --per-node's local versus remote memory traffic of each socket (cli_localremote.c): the metrics into lr (-1:
 * none here), and the socket's values (json: as fields of its row) or why they are refused. */
int pernode_lr_add(uncore_t *u, uncore_session_t *s, int lr[2][2]);
void pernode_lr_print(uncore_t *u, uncore_session_t *s, const int lr[2][2], int sock, double secs, int json);
int cmd_stat_per_device(int argc, char **argv); /* uncore stat --per-device (cli_perdev.c) */
/* A device group's devices as JSON objects, comma-separated, each as uncore devices --json gives them
 * (cli_devices.c) */
void cli_device_json(uncore_t *u, int group, int ndevices);

/* How values are written: perf-like text columns, CSV with a separator (-x), or a JSON object a line. */
enum out_fmt { OUT_TEXT, OUT_CSV, OUT_JSON };
struct out {
	enum out_fmt fmt;
	const char *sep;      /* OUT_CSV */
	const char *backend;  /* uncore_backend_name() */
	int simulated;
	int perf;             /* the perf backend: enabled/running times are the kernel's */
	uncore_t *u;          /* the handle (the devices behind a port); NULL: none asked */
};
/* One value: an event's count or a metric's value, of a socket or one box of it. */
struct out_rec {
	int interval;        /* printed with -I: t is the interval's end */
	double t;            /* seconds since counting started */
	int socket, box;     /* box -1: the socket's total */
	const char *box_label; /* text output's per-box label ("box3", "imc3", "imc15/die1") */
	int die;             /* the box's die where its socket has several (JSON "die"), else -1 */
	const char *name;
	int metric;          /* 0: count, 1: metric value */
	int scaled;          /* a count given as value in unit: perf's alias .scale and .unit */
	uint64_t count;
	double value;
	const char *unit;
	int times;           /* enabled/running known (the perf backend) */
	uint64_t enabled_ns, running_ns;
	const char *failed;  /* the box whose failure leaves it without a value ("imc 0 (socket 0)"), or NULL */
	int not_counted;     /* multiplexed, and not yet on the counters over the window: no value */
	const struct uncore_port_devices *devices; /* a port of an IIO box: the devices it counts (NULL: none) */
	int channel;         /* an iMC box's population where it holds no DIMM: UNCORE_CHAN_EMPTY or _NONE; else 0 */
};
void out_header(const struct out *o);
void out_record(const struct out *o, const struct out_rec *r);
/* The health conditions raised and cleared at the session's last read (cli_health.c). */
void out_health(const struct out *o, uncore_session_t *s, double t);
/* s as a JSON string, quoted and escaped: '"', '\\' and the characters common/util/term_text.h escapes as \uHHHH
 * (a byte of no UTF-8 character as \ufffd), so that the line read raw on a terminal cannot move it. */
void out_json_str(FILE *f, const char *s);
/* The next character of s (not at its end) as out_json_str writes it, into buf: its length there (not
 * NUL-terminated); its length in s into *used. */
#define OUT_JSON_CHAR 8
size_t out_json_char(const char *s, char buf[OUT_JSON_CHAR], size_t *used);
/* s as text that cannot move the terminal, reorder a line or forge one (common/util/term_text.h): its control
 * characters (C0, DEL, C1), the bidirectional controls and bytes of no UTF-8 character escaped; a backslash
 * stays as it is (perf's metric formulas spell terms "event\=0x35"). */
void out_text(FILE *f, const char *s);
/* prefix, then text (a message of the library's, which may quote a file's or a record's text) as out_text
 * writes it, then a newline. */
void out_said(FILE *f, const char *prefix, const char *text);

/* -M's and --metric-group's lists (cli_metrics.c).  cli_split_list: every item of a comma list (commas inside
 * a raw event's slashes kept), a malloc'd array of pointers into s, NULL when out of memory.  cli_add_metrics:
 * the names and every metric of the groups this machine has into s: 0; -1 with the library's reason; -2
 * already said (no such group). */
char **cli_split_list(char *s, int *n);
int cli_add_metrics(uncore_session_t *s, uncore_t *u, char *names, char *groups);
/* What a metric means in the rows of a mode that owns bytes, as perf's --per-* modes give each of their rows
 * the metrics named: --per-device's rows are device groups (their IIO bytes), --per-job's jobs (the bytes
 * attributed to them and their devices' DMA).  A metric is one of the row's byte counts (or their sum), as
 * bytes or as bytes a second over the row's window. */
enum cli_bytes { CLI_MEM_READ, CLI_MEM_WRITE, CLI_MEM_TOTAL, CLI_DEV_WRITE, CLI_DEV_READ };
struct cli_row_metric {
	const char *name; /* the platform's metric it stands for (iio_write_bytes, mem_bw_read) */
	enum cli_bytes of;
	int rate;         /* 1: bytes a second (GB/s in text), 0: bytes */
};
struct cli_row_bytes {
	double mem_read, mem_write, dev_write, dev_read; /* NaN: not counted */
	double seconds;
};
/* The entries of table that -M's names and --metric-group's groups ask for, in order, each once, into out (at most
 * max): how many; -2 said on stderr: a metric named that the machine lacks or that has no row's meaning here, or a
 * group none of whose metrics has one (the mode, "--per-device", and per, "by device", name it there, with
 * what the table gives); -1 out of memory.  A group's metrics without a meaning here are left out. */
int cli_row_metrics(uncore_t *u, const char *mode, const char *per, const struct cli_row_metric *table, int ntable,
		    char *names, char *groups, int *out, int max);
/* The metric's value in a row (NaN: not counted); its text column, "iio_bw_write  8.0800 GB/s", and its JSON
 * members ("metric", "unit": "B" or "B/s", "value") on stdout. */
double cli_row_value(const struct cli_row_metric *m, const struct cli_row_bytes *b);
void cli_row_text(char *buf, size_t len, const struct cli_row_metric *m, double v);
void cli_row_json(const struct cli_row_metric *m, double v);

/* Energy metrics in 'uncore stat' (cli_energy.c, doc/energy.md). */
struct cli_energy {
	uncore_energy_t *e;
	unsigned want; /* bit m: energy metric m (uncore_energy_metric) */
};
/* Take the energy metrics out of -M's comma list and the group "energy" out of --metric-group's (either may be
 * NULL; the lists are rewritten in place): how many were taken. */
int cli_energy_take(char *metrics, char *groups, struct cli_energy *ce);
/* Open and start the energy counters when some are wanted, sampled every sample_s at least: 0; -1 (uncore_error());
 * -2 when a metric named is of a domain no socket has, said on stderr. */
int cli_energy_start(uncore_t *u, struct cli_energy *ce, double sample_s);
int cli_energy_sample(struct cli_energy *ce);
int cli_energy_read(struct cli_energy *ce);
void cli_energy_print(const struct out *o, const struct cli_energy *ce, uncore_t *u, int window, double t);
/* Seconds since the start (to the last read or sample): a run's time where only energy is counted. */
double cli_energy_elapsed(const struct cli_energy *ce);
void cli_energy_free(struct cli_energy *ce);
/* Energy beside a job's count (cli_job_energy.c, doc/jobs.md "Energy"): opened and started to be read at least
 * every every_s (NULL, said on stderr, where it cannot be); read (closing an interval) or sampled between; a
 * job's share of a socket's energy as JSON fields (", \"dram_joules\": ...") or words for its row ("" without). */
uncore_energy_t *job_energy_open(uncore_t *u, double every_s);
void job_energy_read(uncore_energy_t *e, int close_interval);
void job_energy_json(const uncore_energy_t *e, int socket, double job_bytes, double socket_bytes, int window,
		     char *buf, size_t len);
void job_energy_text(const uncore_energy_t *e, int socket, double job_bytes, double socket_bytes, int window,
		     char *buf, size_t len);

#endif
