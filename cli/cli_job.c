/*
 * uncore job begin|end|report ID (issue 46 point 2): a job's own uncore summary, for the prolog and the
 * epilog of a node the job holds whole sockets of.  begin starts a counting process for the job (the
 * sockets it holds whole, the memory, LLC, link, I/O and clock metrics the platform has), which reads
 * every --interval seconds (default 1) for the peaks; end stops it, and it writes the summary as JSON
 * into the spool (UNCORE_JOB_SPOOL, default /var/spool/intel-uncore/jobs): ID.json, one key a line;
 * report prints it.  While it counts, ID.pid (0600) names it by its process id and start time
 * (cli_job_pid.h): end signals that process and no other.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "cli_job.h"
#include "cli_job_log.h"
#include "cli_job_pid.h"
#include "cli_job_sacct.h"
#include "util/guarded_read.h"

#define SPOOL_DEFAULT "/var/spool/intel-uncore/jobs"

/* What a summary holds beside the bytes: each where the platform has it (metric names of every platform). */
static const char *const extras[NEXTRAS] = { "llc_miss_ratio", "upi_rx_bw", "upi_tx_bw", "qpi_rx_bw", "qpi_tx_bw",
					      "iio_bw_read", "iio_bw_write", "uncore_freq" };

/* The node's name as Slurm calls it (SLURMD_NODENAME, given to a prolog), else the short host name. */
static void node_name(char *out, size_t len)
{
	const char *n = getenv("SLURMD_NODENAME");
	if (n && *n)
		snprintf(out, len, "%s", n);
	else if (gethostname(out, len))
		snprintf(out, len, "?");
	out[len - 1] = 0;
	out[strcspn(out, ".")] = 0;
}

static const char *spool_dir(char *buf, size_t len)
{
	const char *v = secure_getenv("UNCORE_JOB_SPOOL");
	snprintf(buf, len, "%s", v && *v ? v : SPOOL_DEFAULT);
	return buf;
}

/* The spool directory, made (0755) where missing: one only root (or this user) may write. */
static int spool_ready(const char *dir)
{
	struct stat st;
	char part[1024];
	size_t n = strlen(dir);
	for (size_t i = 1; i <= n && n < sizeof(part); i++) /* each level, made where missing */
		if (dir[i] == '/' || !dir[i]) {
			snprintf(part, sizeof(part), "%.*s", (int)i, dir);
			if (mkdir(part, 0755) && errno != EEXIST) {
				job_say("cannot make the spool %s: %s", part, strerror(errno));
				return -1;
			}
		}
	if (lstat(dir, &st) || !S_ISDIR(st.st_mode) || (st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 022)) {
		job_say("the spool %s is not a directory of root (or this user) that only its owner may write: refused", dir);
		return -1;
	}
	return 0;
}

/* A spool file of the job written whole (a temporary file renamed into place: no link is followed), mode
 * 0644 (a summary, for the job's user to read) or 0600 (the pid file: nobody else opens it). */
static int spool_write(const char *dir, const char *id, const char *ext, const char *text, mode_t mode)
{
	char tmp[1100], path[1100];
	snprintf(tmp, sizeof(tmp), "%s/.%s.%s.tmp", dir, id, ext);
	snprintf(path, sizeof(path), "%s/%s.%s", dir, id, ext);
	unlink(tmp);
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
	size_t n = strlen(text);
	if (fd < 0 || write(fd, text, n) != (ssize_t)n || fsync(fd) || close(fd) || rename(tmp, path)) {
		int e = errno;
		if (fd >= 0)
			unlink(tmp);
		job_say("cannot write %s: %s", path, strerror(e));
		return -1;
	}
	return 0;
}

static int add_metrics(uncore_session_t *s, uncore_t *u, struct job_run *r)
{
	if (uncore_session_add_metric(s, "mem_read_bytes") != 0 || uncore_session_add_metric(s, "mem_write_bytes") != 1)
		return -1;
	for (size_t i = 0; i < NEXTRAS; i++)
		r->extra_m[i] = uncore_metric_find(u, extras[i]) < 0 ? -1 : uncore_session_add_metric(s, extras[i]);
	for (int g = 0; g < r->ndg; g++) { /* each group's root port: its IIO box's iio_bw_*_port<n> */
		struct uncore_device_counter c;
		int have = !uncore_device_group_counter(u, r->dg[g], &c);
		for (int w = 0; w < 2; w++) {
			char name[48];
			struct uncore_metric_info mi;
			snprintf(name, sizeof(name), "iio_bw_%s_port%d", w ? "read" : "write", have ? c.port : 0);
			int idx = have ? uncore_metric_find(u, name) : -1;
			r->dg_m[g][w] = idx < 0 || uncore_metric_info(u, idx, &mi) || !(mi.scale > 0) ? -1
													 : uncore_session_add_metric(s, name);
			r->dg_scale[g][w] = r->dg_m[g][w] >= 0 ? mi.scale : 1;
		}
	}
	return 0;
}

static double mval(uncore_session_t *s, int m, int sock, int window)
{
	double v = NAN;
	if (m >= 0 && uncore_session_metric_value(s, m, sock, -1, window, &v))
		return NAN;
	return v;
}

/* The last interval's bandwidths, for the peaks: each count over its own window, from the read of its
 * boxes before to this one (a read the machine's load delayed widens the window it counted). */
static void peaks(uncore_session_t *s, struct job_run *r)
{
	for (int k = 0; k < r->nsock; k++)
		for (int m = 0; m < 2; m++) {
			uint64_t t = uncore_session_metric_read_time_ns(s, m, r->sock[k], -1), t0 = r->read_at[m][k];
			double v = mval(s, m, r->sock[k], UNCORE_LAST_INTERVAL), *peak = m ? &r->peak_wr[k] : &r->peak_rd[k];
			r->read_at[m][k] = t;
			if (t0 && t > t0 && v / ((double)(t - t0) / 1e9) > *peak)
				*peak = v / ((double)(t - t0) / 1e9);
		}
}

/* "  key": v (null when undefined), then end, a line; nothing once the buffer is full (the caller checks). */
static void json_num(char *b, size_t len, size_t *at, const char *key, double v, const char *end)
{
	if (*at >= len)
		return;
	*at += (size_t)(isnan(v) ? snprintf(b + *at, len - *at, "  \"%s\": null%s\n", key, end)
				 : snprintf(b + *at, len - *at, "  \"%s\": %.17g%s\n", key, v, end));
}

/* Device group g of the job: its devices, socket, port, and the bytes its port counted written and read (null
 * where the platform counts not its port). */
static void device_group(char *b, size_t len, size_t *at, uncore_session_t *s, uncore_t *u, struct job_run *r, int g)
{
	struct uncore_device_group gi;
	struct uncore_device d;
	struct uncore_device_counter c;
	if (uncore_device_group_info(u, r->dg[g], &gi))
		return;
	int box = uncore_device_group_counter(u, r->dg[g], &c) ? -1 : c.box;
	*at += (size_t)snprintf(b + *at, len - *at, "  {\n  \"socket\": %d,\n  \"stack\": %d,\n  \"port\": %d,\n  \"devices\": [",
				gi.socket, gi.stack, gi.port);
	for (int i = 0; i < gi.ndevices && *at < len; i++)
		if (!uncore_device_info(u, r->dg[g], i, &d))
			*at += (size_t)snprintf(b + *at, len - *at, "%s\"%s\"", i ? ", " : "", d.bdf);
	if (*at < len)
		*at += (size_t)snprintf(b + *at, len - *at, "],\n");
	for (int w = 0; w < 2; w++) {
		double v = NAN;
		if (r->dg_m[g][w] >= 0 && box >= 0 &&
		    !uncore_session_metric_value(s, r->dg_m[g][w], gi.socket, box, UNCORE_SINCE_START_COUNT, &v))
			v /= r->dg_scale[g][w];
		json_num(b, len, at, w ? "read_bytes" : "write_bytes", v, w ? "" : ",");
	}
	if (*at < len)
		*at += (size_t)snprintf(b + *at, len - *at, "  }%s\n", g + 1 < r->ndg ? "," : "");
}

/* A socket's energy over the job (doc/jobs.md "Energy"): the socket is the job's, its package and DRAM joules
 * whole, over the energy counters' own window (energy_seconds: from their start to their last read); null where
 * they are not read. */
static void energy(char *b, size_t len, size_t *at, const uncore_energy_t *en, int sk, double bytes)
{
	struct uncore_job_energy je = { NAN, NAN, NAN, NAN, NAN };
	if (en)
		uncore_job_energy(en, sk, bytes, bytes, UNCORE_SINCE_START, &je);
	json_num(b, len, at, "energy_seconds", en ? uncore_energy_seconds(en, UNCORE_SINCE_START) : NAN, ",");
	json_num(b, len, at, "energy_pkg_joules", je.socket_pkg_joules, ",");
	json_num(b, len, at, "energy_dram_joules", je.socket_dram_joules, ",");
	json_num(b, len, at, "bytes_per_dram_joule", je.bytes_per_dram_joule, ",");
	json_num(b, len, at, "dram_watts_per_gbps", je.dram_watts_per_gbps, ",");
}

/* The job's DRAM bandwidth as a share of its sockets' peak (issue 91, doc/jobs.md): the sum of the peaks of the
 * sockets it ran on (uncore_memory_peak), the mean of its bytes read and written over it; null, with
 * peak_unknown saying why, where a socket's peak is not known (or not counted: a job never counted). */
static void job_peak(char *b, size_t len, size_t *at, uncore_session_t *s, uncore_t *u, const struct job_run *r,
		     double secs)
{
	double sum = 0, bytes = 0, one;
	char why[400] = "";
	if (!s)
		snprintf(why, sizeof(why), "the job was not counted");
	for (int k = 0; k < r->nsock && !why[0]; k++) {
		int rc = uncore_memory_peak(u, r->sock[k], &one);
		if (rc || !(one > 0))
			snprintf(why, sizeof(why), "%s", rc ? uncore_error() : "no channel of its sockets holds a DIMM");
		sum += one;
		bytes += mval(s, 0, r->sock[k], UNCORE_SINCE_START) + mval(s, 1, r->sock[k], UNCORE_SINCE_START);
	}
	if (!why[0] && !r->nsock)
		snprintf(why, sizeof(why), "it ran on no socket counted");
	json_num(b, len, at, "peak_bw", why[0] ? NAN : sum, ",");
	json_num(b, len, at, "peak_share", why[0] || !(secs > 0) ? NAN : bytes / secs / sum, ",");
	if (why[0] && *at < len) {
		char esc[900];
		job_json_str(esc, sizeof(esc), why, sizeof(why));
		*at += (size_t)snprintf(b + *at, len - *at, "  \"peak_unknown\": %s,\n", esc);
	}
}

/* The summary: the job, its window, and per socket the bytes, mean and peak bandwidths, energy, and extras. */
static int summary(uncore_session_t *s, uncore_t *u, struct job_run *r, const char *dir, const uncore_energy_t *en)
{
	static char b[65536], said[4400];
	char node[128];
	size_t at = 0;
	double secs = s ? (double)uncore_session_elapsed_ns(s) / 1e9 : NAN;
	node_name(node, sizeof(node));
	for (char *c = node; *c; c++) /* a name as JSON takes it whole */
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-[]", *c))
			*c = '_';
	at += (size_t)snprintf(b, sizeof(b), "{\n  \"job\": \"%s\",\n  \"node\": \"%s\",\n  \"backend\": \"%s\",\n"
			       "  \"simulated\": %s,\n  \"waited_for_job\": %s,\n", r->id, node, uncore_backend_name(u),
			       uncore_is_simulated(u) ? "true" : "false", r->waited ? "true" : "false");
	/* the window: begin ran at begun_at; the count covers counted_from to counted_from + seconds (later than
	 * begun_at where the job's cgroup came after its prolog: Slurm's first step) */
	json_num(b, sizeof(b), &at, "begun_at", r->begun_at, ",");
	json_num(b, sizeof(b), &at, "counted_from", r->counted_from > 0 ? r->counted_from : NAN, ",");
	json_num(b, sizeof(b), &at, "seconds", secs, ",");
	job_peak(b, sizeof(b), &at, s, u, r, secs);
	if (at < sizeof(b))
		at += (size_t)snprintf(b + at, sizeof(b) - at, "  \"peaks_from\": \"the job's own reads, every %g s\",\n"
				       "  \"sockets\": [\n", r->interval);
	for (int k = 0; k < r->nsock && at < sizeof(b); k++) {
		int sk = r->sock[k];
		double rd = mval(s, 0, sk, UNCORE_SINCE_START), wr = mval(s, 1, sk, UNCORE_SINCE_START);
		at += (size_t)snprintf(b + at, sizeof(b) - at, "  {\n  \"socket\": %d,\n", sk);
		json_num(b, sizeof(b), &at, "read_bytes", rd, ",");
		json_num(b, sizeof(b), &at, "write_bytes", wr, ",");
		json_num(b, sizeof(b), &at, "mean_read_bw", secs > 0 ? rd / secs : NAN, ",");
		json_num(b, sizeof(b), &at, "mean_write_bw", secs > 0 ? wr / secs : NAN, ",");
		double peak;
		json_num(b, sizeof(b), &at, "peak_bw", uncore_memory_peak(u, sk, &peak) ? NAN : peak, ",");
		energy(b, sizeof(b), &at, en, sk, rd + wr);
		json_num(b, sizeof(b), &at, "peak_read_bw", r->peak_rd[k], ",");
		struct uncore_metric_info mi[NEXTRAS];
		int last = -1; /* the last extra written: no comma after it */
		for (size_t i = 0; i < NEXTRAS; i++)
			if (r->extra_m[i] >= 0 && !uncore_metric_info(u, uncore_metric_find(u, extras[i]), &mi[i]))
				last = (int)i;
			else
				r->extra_m[i] = -1;
		json_num(b, sizeof(b), &at, "peak_write_bw", r->peak_wr[k], last >= 0 ? "," : "");
		for (size_t i = 0; i < NEXTRAS && at < sizeof(b); i++) {
			double v = mval(s, r->extra_m[i], sk, UNCORE_SINCE_START);
			if (r->extra_m[i] < 0)
				continue;
			at += (size_t)(isnan(v) ? snprintf(b + at, sizeof(b) - at, "  \"%s\": {\"value\": null, ", extras[i])
						: snprintf(b + at, sizeof(b) - at, "  \"%s\": {\"value\": %.17g, ", extras[i], v));
			if (at < sizeof(b))
				at += (size_t)snprintf(b + at, sizeof(b) - at, "\"unit\": \"%s\"}%s\n", mi[i].unit ? mi[i].unit : "",
						       (int)i == last ? "" : ",");
		}
		if (at < sizeof(b))
			at += (size_t)snprintf(b + at, sizeof(b) - at, "  }%s\n", k + 1 < r->nsock ? "," : "");
	}
	if (at < sizeof(b))
		at += (size_t)snprintf(b + at, sizeof(b) - at, "  ],\n  \"devices\": [\n");
	for (int g = 0; g < r->ndg && at < sizeof(b); g++)
		device_group(b, sizeof(b), &at, s, u, r, g);
	job_said_json(said, sizeof(said));
	if (at < sizeof(b))
		at += (size_t)snprintf(b + at, sizeof(b) - at, "  ],\n  \"warnings\": [%s]\n}\n", said);
	if (at >= sizeof(b)) {
		job_say("its summary does not fit in %zu bytes", sizeof(b));
		return -1;
	}
	return spool_write(dir, r->id, "json", b, 0644);
}

/* The pid file of a count that runs no more removed, if path is still that file (was): under the spool's
 * lock, since a begin of the same id may be writing its own. */
static void drop_pid_file(const char *dir, const char *path, const struct stat *was)
{
	char why[1200];
	struct stat st;
	int lk = job_spool_lock(dir, why, sizeof(why));
	if (lk >= 0 && !lstat(path, &st) && st.st_dev == was->st_dev && st.st_ino == was->st_ino)
		unlink(path);
	if (lk >= 0)
		close(lk);
}

/* Whether the pid file names a counting process that runs; p filled from it. */
static int counted(const char *path, struct job_proc *p)
{
	char line[128] = "";
	struct stat st;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC); /* a FIFO there: no wait */
	ssize_t got = fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode) ? -1 : read(fd, line, sizeof(line) - 1);
	if (fd >= 0)
		close(fd);
	line[got > 0 ? got : 0] = 0;
	return !job_proc_parse(line, p) && job_proc_alive(p);
}

/* The pid file written: this process, unless one counts the job already (-1, said through ready). */
static int claim_job(const char *dir, const char *id, const char *path, struct stat *mine, int ready, const char *note)
{
	char why[1200], text[256];
	struct job_proc me, other;
	if (job_proc_self(&me)) {
		dprintf(ready, "cannot read its own start time (/proc/self/stat): end could not tell it from a later "
			       "process of the same id");
		return -1;
	}
	/* a file another count left (killed), of an older uncore, or that someone holds a lock on, is replaced */
	int lk = job_spool_lock(dir, why, sizeof(why)), rc = -1;
	if (lk < 0)
		dprintf(ready, "%s", why);
	else if (counted(path, &other))
		dprintf(ready, "it is being counted already (process %ld, %s)", other.pid, path);
	else {
		job_proc_format(&me, text, sizeof(text));
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "\n%s\n", note);
		if (spool_write(dir, id, "pid", text, 0600) || lstat(path, mine))
			dprintf(ready, "cannot write its process id into %s", path);
		else
			rc = 0;
	}
	if (lk >= 0)
		close(lk);
	return rc;
}

/* The pid file's second line (what the count does, since when) rewritten, mine following the new file. */
static void pid_note(const char *dir, struct job_run *r, const char *path, struct stat *mine, const char *note)
{
	char why[1200], text[256];
	struct job_proc me;
	int lk = job_spool_lock(dir, why, sizeof(why));
	if (lk >= 0 && !job_proc_self(&me)) {
		job_proc_format(&me, text, sizeof(text));
		snprintf(text + strlen(text), sizeof(text) - strlen(text), "\n%s\n", note);
		if (!spool_write(dir, r->id, "pid", text, 0600))
			lstat(path, mine);
	}
	if (lk >= 0)
		close(lk);
}

/* The counting process: tell the parent (ready) through fd, count until a signal, write the summary. */
static int count_job(uncore_t **up, struct job_run *r, const char *dir, int ready)
{
	uncore_t *u = *up;
	uncore_session_t *s = NULL;
	uncore_energy_t *en = NULL;
	int rc = 1, held = 0;
	char path[1100], sum[1100];
	struct stat mine;
	snprintf(path, sizeof(path), "%s/%s.pid", dir, r->id);
	snprintf(sum, sizeof(sum), "%s/%s.json", dir, r->id);
	char note[128];
	snprintf(note, sizeof(note), "%s since %.3f", r->waited ? "waiting for the job's cgroup" : "counting", r->begun_at);
	if (claim_job(dir, r->id, path, &mine, ready, note))
		goto out;
	held = 1;
	unlink(sum); /* a summary of an earlier count of the same id is not this one's */
	if (r->waited) { /* the prolog goes on: Slurm makes the cgroup after it */
		dprintf(ready, "waiting");
		close(ready);
		ready = -1;
		int w = job_wait(up, r);
		u = *up;
		if (w) {
			if (u)
				summary(NULL, u, r, dir, NULL); /* of a job not counted: begun_at, and why in its warnings */
			goto out;
		}
	}
	if (uncore_session_new(u, &s) || add_metrics(s, u, r) || uncore_session_start(s)) {
		if (ready >= 0)
			dprintf(ready, "%s", uncore_error());
		else
			job_say("%s: not counted", uncore_error());
		goto out;
	}
	r->counted_from = job_unix_now();
	if (ready >= 0) {
		dprintf(ready, "ok");
		close(ready);
		ready = -1;
	} else {
		snprintf(note, sizeof(note), "counting since %.3f (its cgroup appeared %.3f s after begin)", r->counted_from,
			 r->counted_from - r->begun_at);
		pid_note(dir, r, path, &mine, note);
	}
	peaks(s, r); /* the start's reads: the first window opens */
	en = job_energy_open(u, r->interval); /* read with the job's reads, within its counters' wrap time */
	while (!cli_stopped()) {
		if (cli_sleep(u, (uint64_t)(r->interval * 1e9)) < 0 || uncore_session_read(s) < 0)
			break;
		job_energy_read(en, 1);
		peaks(s, r);
	}
	job_energy_read(en, 1);
	if (uncore_session_stop(s) >= 0 && !summary(s, u, r, dir, en))
		rc = 0;
out:
	if (held) /* ours: gone with us */
		drop_pid_file(dir, path, &mine);
	if (ready >= 0)
		close(ready);
	uncore_energy_free(en);
	uncore_session_free(s);
	return rc;
}

static int job_begin(struct job_run *r, const char *dir)
{
	uncore_t *u = NULL;
	int p[2];
	r->begun_at = job_unix_now();
	if (spool_ready(dir))
		return 1;
	if (cli_open(&u)) {
		job_say("%s: not counted", uncore_error());
		return 1;
	}
	int f = job_find(u, r, r->wait > 0);
	r->waited = f == -2;
	if ((f && !r->waited) || pipe(p)) {
		uncore_close(u);
		return 1;
	}
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) { /* its own session: the prolog's end does not end it */
		close(p[0]);
		setsid();
		int null = open("/dev/null", O_RDWR);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
			if (null > 2)
				close(null);
		}
		cli_catch_signals();
		int rc = count_job(&u, r, dir, p[1]);
		uncore_close(u);
		_exit(rc);
	}
	close(p[1]);
	char msg[600] = "";
	ssize_t n = child < 0 ? -1 : read(p[0], msg, sizeof(msg) - 1);
	close(p[0]);
	uncore_close(u);
	if (n > 0)
		msg[n] = 0;
	if (n == 2 && !strcmp(msg, "ok")) {
		printf("uncore job: job %s: counting %d socket%s, process %ld\n", r->id, r->nsock, r->nsock == 1 ? "" : "s",
		       (long)child);
		return 0;
	}
	if (n == 7 && !strcmp(msg, "waiting")) {
		printf("uncore job: job %s: not on this node yet (Slurm makes its cgroup at its first step, after the "
		       "prolog): process %ld counts it once it appears, waiting at most %g s\n", r->id, (long)child, r->wait);
		return 0;
	}
	if (child > 0)
		waitpid(child, NULL, 0);
	job_say("%s", n > 0 ? msg : "its counting process did not start");
	return 1;
}

/* Whether the summary at path is of a job begin waited for in vain ("counted_from": null). */
static int never_counted(const char *path)
{
	static char text[65536];
	struct stat st;
	int fd = uc_open_guarded(path, (off_t)1 << 20, &st);
	ssize_t n = fd < 0 ? 0 : read(fd, text, sizeof(text) - 1);
	if (fd >= 0)
		close(fd);
	text[n > 0 ? n : 0] = 0;
	return strstr(text, "\n  \"counted_from\": null,\n") != NULL;
}

static int job_end(struct job_run *r, const char *dir)
{
	char path[1100], line[128] = "", sum[1100];
	struct stat st;
	struct job_proc p;
	snprintf(path, sizeof(path), "%s/%s.pid", dir, r->id);
	snprintf(sum, sizeof(sum), "%s/%s.json", dir, r->id);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC); /* a FIFO: refused below, not waited on */
	if (fd < 0 && errno == ENOENT && never_counted(sum)) { /* its wait ran out before the job ended */
		job_say("was never counted: its cgroup did not appear while begin waited (summary %s)", sum);
		return 1;
	}
	if (fd < 0 && errno == ENOENT) {
		job_say("is not being counted (no %s)", path);
		return 1;
	}
	if (fd < 0) { /* another user's spool (the file is its owner's alone), a link */
		job_say("cannot open %s: %s", path, strerror(errno));
		return 1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (st.st_uid != 0 && st.st_uid != geteuid()) || (st.st_mode & 022)) {
		close(fd);
		job_say("%s is not a file of root's (or this user's) that only its owner may "
				"write (%s): refused", path, S_ISREG(st.st_mode) ? "a regular file" : uc_file_kind(st.st_mode));
		return 1;
	}
	ssize_t got = read(fd, line, sizeof(line) - 1); /* from the file we checked, not its path */
	close(fd);
	line[got > 0 ? got : 0] = 0;
	line[strcspn(line, "\n")] = 0;
	if (job_proc_parse(line, &p)) {
		job_say("%s does not name a process with its start time ('%.40s'; an older "
				"uncore's?): nothing signalled; stop its counting process by hand, then remove the file",
			path, line);
		return 1;
	}
	/* the process the file names, by its start time: not whatever process has its pid now, and not
	 * whoever holds a lock on the file; at most 60 s for the summary */
	int stopped = job_proc_stop(&p, 60000);
	if (stopped == 1) {
		drop_pid_file(dir, path, &st);
		job_say("its counting process ended before the job (killed?): no summary; "
				"its boxes are restored by the next session");
		return 1;
	}
	if (stopped == -1) {
		job_say("cannot stop its counting process %ld: %s", p.pid, strerror(errno));
		return 1;
	}
	if (stopped) {
		job_say("its counting process %ld still runs 60 s after SIGTERM: no summary",
			p.pid);
		return 1;
	}
	if (access(sum, F_OK)) {
		job_say("no summary was written (%s)", sum);
		return 1;
	}
	if (never_counted(sum)) { /* ended while begin's process still waited for it */
		job_say("was never counted: it ended before its cgroup appeared (summary %s)", sum);
		return 1;
	}
	printf("uncore job: job %s: summary in %s\n", r->id, sum);
	return 0;
}

static int job_report(struct job_run *r, const char *dir)
{
	char path[1100], buf[4096];
	snprintf(path, sizeof(path), "%s/%s.json", dir, r->id);
	struct stat st;
	int fd = uc_open_guarded(path, (off_t)1 << 20, &st);
	if (fd < 0) {
		fprintf(stderr, "uncore job: no summary of job %s (%s: %s)\n", r->id, path,
			uc_guarded_why(errno, &st, (off_t)1 << 20, 0, buf, sizeof(buf)));
		return 1;
	}
	ssize_t n;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, stdout);
	close(fd);
	return 0;
}

/* A job id as the library takes it (jobs.h): A-Z a-z 0-9 . _ - [ ], not first '.' or '-'. */
static int id_ok(const char *id)
{
	size_t n = strlen(id);
	if (!n || n > 64 || id[0] == '.' || id[0] == '-')
		return 0;
	return strspn(id, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-[]") == n;
}

int cmd_job(int argc, char **argv)
{
	struct job_run r = { .interval = 1 };
	char dir[1024];
	const char *verb = argc > 1 ? argv[1] : "";
	int record = 0;
	if (!strcmp(verb, "report") && argc == 4 && !strcmp(argv[2], "--sacct")) { /* Slurm's job record, any node */
		if (!id_ok(argv[3])) {
			fprintf(stderr, "uncore job: not a job id (1..64 of A-Z a-z 0-9 . _ - [ ], not first . or -)\n");
			return 2;
		}
		return job_sacct_report(argv[3]);
	}
	for (int i = 3; i < argc; i++) {
		char *end;
		if (!strcmp(argv[i], "--interval") && i + 1 < argc && (r.interval = strtod(argv[i + 1], &end)) >= 0.01 &&
		    r.interval <= 3600 && !*end) {
			i++;
			continue;
		}
		if (!strcmp(argv[i], "--whole-node") && !strcmp(verb, "begin")) {
			r.whole_node = 1;
			continue;
		}
		if (!strcmp(argv[i], "--admin-comment") && !strcmp(verb, "report")) {
			record = 1;
			continue;
		}
		if (!strcmp(argv[i], "--wait") && !strcmp(verb, "begin") && i + 1 < argc &&
		    (r.wait = strtod(argv[i + 1], &end)) >= 0 && r.wait <= 30 * 86400 && !*end) {
			i++;
			continue;
		}
		fprintf(stderr, "uncore job: unexpected argument '%s' (see 'uncore job --help')\n", argv[i]);
		return 2;
	}
	if (argc < 3 || (strcmp(verb, "begin") && strcmp(verb, "end") && strcmp(verb, "report"))) {
		fprintf(stderr, "uncore job: give begin, end or report and a job id (see 'uncore job --help')\n");
		return 2;
	}
	r.id = argv[2];
	if (!id_ok(r.id)) {
		fprintf(stderr, "uncore job: not a job id (1..64 of A-Z a-z 0-9 . _ - [ ], not first . or -)\n");
		return 2;
	}
	spool_dir(dir, sizeof(dir));
	job_log_job(r.id);
	if (record) {
		char sum[1100];
		snprintf(sum, sizeof(sum), "%s/%s.json", dir, r.id);
		return job_sacct_record(sum, r.id);
	}
	return !strcmp(verb, "begin") ? job_begin(&r, dir) : !strcmp(verb, "end") ? job_end(&r, dir) : job_report(&r, dir);
}
