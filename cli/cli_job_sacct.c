/*
 * A job's summary in Slurm's own job record (issue 78 point 5), the way sites keep per-job efficiency there
 * (Princeton's jobstats writes "JS1:" and a compressed summary into AdminComment after the job): the
 * epilog runs `sacctmgr -i modify job where jobid=ID set AdminComment=RECORD` (sacctmgr(1): AdminComment is
 * one of the fields of a job's record in the database that can be modified after its completion; scontrol
 * update refuses a job slurmctld has finished, as it has when slurmd's epilog runs: "Job has already
 * finished"), and `sacct -j ID -o AdminComment` reads it back.  RECORD is "uncore1:" and the base32 (RFC
 * 4648's alphabet in lower case) of the gzip of compact JSON: the version in the prefix (a
 * later layout is uncore2:), and only characters that sacctmgr, sacct -P's '|' and a shell pass unchanged
 * (sacctmgr lowercases the value: base64 did not survive Slurm 22.05's, nor would JSON's quotes);
 * `tr a-z A-Z | base32 -d | gunzip` reads it without this program.  At most RECORD_MAX bytes:
 * the column is a TEXT of slurmdbd's job table (64 KiB), but the record rides on every sacct line, and a
 * site's own AdminComment tools keep theirs to a few hundred bytes; 4 KiB holds the summary of 8 sockets and
 * 16 device groups, and a record past it drops the devices' BDFs, then is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <jansson.h>
#include <zlib.h>
#include "cli.h"
#include "cli_job_sacct.h"

#define RECORD_MAX 4096
#define PREFIX "uncore1:"

/* o's number key: an integer (digits -1), else rounded to digits decimals; null where it is not a number. */
static json_t *num(json_t *o, const char *key, int digits)
{
	json_t *v = json_object_get(o, key);
	if (!json_is_number(v))
		return json_null();
	double d = json_number_value(v), f = pow(10, digits);
	return digits < 0 ? json_integer((json_int_t)llround(d)) : json_real(round(d * f) / f);
}

/* The record of the summary sum (the spool's ID.json): its node and window, per socket the bytes, peaks and
 * joules, per device group its bytes (and BDFs, if keep_bdfs). */
static json_t *record_of(json_t *sum, int keep_bdfs)
{
	json_t *r = json_object(), *socks = json_array(), *devs = json_array(), *v;
	size_t i;
	json_object_set(r, "job", json_object_get(sum, "job"));
	json_object_set(r, "node", json_object_get(sum, "node"));
	json_object_set_new(r, "counted_from", num(sum, "counted_from", 3));
	json_object_set_new(r, "seconds", num(sum, "seconds", 6));
	if (json_object_get(sum, "peak_share")) { /* the job's share of its sockets' peak (summaries since issue 91) */
		json_object_set_new(r, "peak_bw", num(sum, "peak_bw", -1));
		json_object_set_new(r, "peak_share", num(sum, "peak_share", 4));
	}
	json_array_foreach(json_object_get(sum, "sockets"), i, v) {
		json_t *s = json_object();
		json_object_set_new(s, "socket", num(v, "socket", -1));
		json_object_set_new(s, "read_bytes", num(v, "read_bytes", -1));
		json_object_set_new(s, "write_bytes", num(v, "write_bytes", -1));
		json_object_set_new(s, "peak_read_bw", num(v, "peak_read_bw", -1));
		json_object_set_new(s, "peak_write_bw", num(v, "peak_write_bw", -1));
		json_object_set_new(s, "energy_dram_joules", num(v, "energy_dram_joules", 3));
		json_object_set_new(s, "energy_pkg_joules", num(v, "energy_pkg_joules", 3));
		json_array_append_new(socks, s);
	}
	json_array_foreach(json_object_get(sum, "devices"), i, v) {
		json_t *d = json_object();
		json_object_set_new(d, "socket", num(v, "socket", -1));
		if (keep_bdfs)
			json_object_set(d, "devices", json_object_get(v, "devices"));
		json_object_set_new(d, "read_bytes", num(v, "read_bytes", -1));
		json_object_set_new(d, "write_bytes", num(v, "write_bytes", -1));
		json_array_append_new(devs, d);
	}
	json_object_set_new(r, "sockets", socks);
	json_object_set_new(r, "devices", devs);
	json_object_set_new(r, "warnings", json_integer((json_int_t)json_array_size(json_object_get(sum, "warnings"))));
	return r;
}

static const char b32[] = "abcdefghijklmnopqrstuvwxyz234567";

/* text gzipped (RFC 1952, as gzip(1) reads it) and base32'd into out; -1 where it does not fit. */
static int pack(const char *text, char *out, size_t len)
{
	unsigned char z[RECORD_MAX];
	z_stream st = { 0 };
	if (deflateInit2(&st, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	st.next_in = (unsigned char *)text;
	st.avail_in = (uInt)strlen(text);
	st.next_out = z;
	st.avail_out = sizeof(z);
	int rc = deflate(&st, Z_FINISH);
	size_t n = sizeof(z) - st.avail_out, at = 0, bits = 0;
	unsigned v = 0;
	deflateEnd(&st);
	if (rc != Z_STREAM_END || (n * 8 + 39) / 40 * 8 + 1 > len)
		return -1;
	for (size_t i = 0; i < n; i++) {
		v = v << 8 | z[i];
		for (bits += 8; bits >= 5; bits -= 5)
			out[at++] = b32[(v >> (bits - 5)) & 31];
	}
	if (bits)
		out[at++] = b32[(v << (5 - bits)) & 31];
	while (at % 8 && at + 1 < len) /* padded to 8 characters, as base32(1) wants them */
		out[at++] = '=';
	out[at] = 0;
	return 0;
}

/* The JSON text of a record's base32 of gzip (either case), into out; -1 where it is not one. */
static int unpack(const char *rec, char *out, size_t len)
{
	static unsigned char z[65536];
	size_t n = 0, bits = 0;
	unsigned v = 0;
	for (const char *p = rec; *p && *p != '='; p++) {
		char ch = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : *p;
		const char *c = strchr(b32, ch);
		if (!c || n >= sizeof(z))
			return -1;
		v = v << 5 | (unsigned)(c - b32);
		if ((bits += 5) >= 8) {
			bits -= 8;
			z[n++] = (unsigned char)(v >> bits);
		}
	}
	z_stream st = { 0 };
	if (inflateInit2(&st, 15 + 16) != Z_OK)
		return -1;
	st.next_in = z;
	st.avail_in = (uInt)n;
	st.next_out = (unsigned char *)out;
	st.avail_out = (uInt)(len - 1);
	int rc = inflate(&st, Z_FINISH);
	size_t got = len - 1 - st.avail_out;
	inflateEnd(&st);
	if (rc != Z_STREAM_END)
		return -1;
	out[got] = 0;
	return 0;
}

int job_sacct_record(const char *sum_path, const char *id)
{
	json_error_t e;
	json_t *sum = json_load_file(sum_path, 0, &e);
	if (!json_is_object(sum)) {
		fprintf(stderr, "uncore job: job %s: its summary %s cannot be read as JSON (%s, line %d)\n", id, sum_path, e.text,
			e.line);
		json_decref(sum);
		return 1;
	}
	static char packed[RECORD_MAX + 1];
	int done = 0;
	for (int keep = 1; keep >= 0 && !done; keep--) {
		json_t *r = record_of(sum, keep);
		char *text = json_dumps(r, JSON_COMPACT | JSON_REAL_PRECISION(16));
		json_decref(r);
		done = text && !pack(text, packed, sizeof(packed) - strlen(PREFIX));
		free(text);
	}
	json_decref(sum);
	if (!done) {
		fprintf(stderr, "uncore job: job %s: its record for Slurm's AdminComment exceeds %d bytes even without the "
				"devices' BDFs: not written\n", id, RECORD_MAX);
		return 1;
	}
	printf("%s%s\n", PREFIX, packed);
	return 0;
}

/* How long sacct may take (UNCORE_SACCT_TIMEOUT, seconds; default 30): a slurmdbd that accepts and never
 * answers would hold sacct, and this command, for ever.  -1 with the problem said. */
static double sacct_timeout(void)
{
	const char *v = secure_getenv("UNCORE_SACCT_TIMEOUT");
	char *end;
	double t = v ? strtod(v, &end) : 30;
	if (v && (end == v || *end || !(t >= 0.1 && t <= 3600))) {
		fprintf(stderr, "uncore job: UNCORE_SACCT_TIMEOUT='%.20s' is not a number of seconds from 0.1 to 3600\n", v);
		return -1;
	}
	return t;
}

static double mono_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* sacct's AdminComment of the job (its allocation's line), into out; -1 with the problem said.  Its output is
 * read until it ends or the timeout passes (then sacct is killed); more than fits is read and refused, so
 * that sacct never waits on a full pipe. */
static int sacct_comment(const char *id, char *out, size_t len)
{
	int p[2], st = 0;
	double limit = sacct_timeout();
	if (limit < 0)
		return -1;
	if (pipe(p)) {
		fprintf(stderr, "uncore job: cannot run sacct: %s\n", strerror(errno));
		return -1;
	}
	pid_t c = fork();
	if (c == 0) {
		/* a group of its own, so that a timeout stops what it started too (a site's wrapper script and the
		 * real sacct below it); no terminal input, which a background group may not read */
		setpgid(0, 0);
		int null = open("/dev/null", O_RDONLY);
		if (null >= 0 && null != 0) {
			dup2(null, 0);
			close(null);
		}
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		/* -P: no width cut, -X: the allocation alone (its steps have no comment), -n: no header */
		execlp("sacct", "sacct", "-n", "-P", "-X", "-j", id, "-o", "AdminComment", (char *)NULL);
		_exit(127);
	}
	if (c > 0)
		setpgid(c, c); /* (as the child does: whichever runs first) */
	close(p[1]);
	size_t at = 0, more = 0;
	double until = mono_now() + limit;
	int timed_out = 0;
	while (c > 0) {
		struct pollfd pf = { .fd = p[0], .events = POLLIN };
		double left = until - mono_now();
		if (left <= 0) {
			timed_out = 1;
			break;
		}
		int r = poll(&pf, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue; /* (the time is checked above) */
		char spill[4096];
		ssize_t n = at + 1 < len ? read(p[0], out + at, len - 1 - at) : read(p[0], spill, sizeof(spill));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (at + 1 < len)
			at += (size_t)n;
		else
			more += (size_t)n;
	}
	out[at] = 0;
	close(p[0]);
	pid_t w = 0;
	/* its output ended: its exit, within the same time (one that closed its output and went on is stopped) */
	while (c > 0 && !timed_out && (w = waitpid(c, &st, WNOHANG)) == 0) {
		if (mono_now() >= until)
			timed_out = 1;
		else
			nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
	}
	if (timed_out) {
		kill(-c, SIGKILL); /* its group: whatever it started still holding slurmdbd or the pipe */
		kill(c, SIGKILL);  /* (had it left its group) */
		waitpid(c, &st, 0);
		fprintf(stderr, "uncore job: sacct -j %s gave no answer in %g s (UNCORE_SACCT_TIMEOUT): is slurmdbd "
				"responding? sacct was stopped\n", id, limit);
		return -1;
	}
	if (c < 0 || w < 0) {
		fprintf(stderr, "uncore job: cannot run sacct: %s\n", strerror(errno));
		return -1;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127) {
		fprintf(stderr, "uncore job: sacct is not installed here (or not in PATH): Slurm's accounting cannot be read\n");
		return -1;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "uncore job: sacct -j %s failed (exit %d): is slurmdbd running, and accounting "
				"(AccountingStorageType=accounting_storage/slurmdbd) configured?\n", id,
			WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return -1;
	}
	if (more) {
		fprintf(stderr, "uncore job: sacct -j %s printed more than %zu bytes: no AdminComment of this program's\n", id,
			len - 1);
		return -1;
	}
	out[strcspn(out, "\n")] = 0;
	return 0;
}

static void show(const char *key, json_t *v, const char *unit, double scale)
{
	if (json_is_number(v) && !strcmp(unit, "B")) /* bytes whole, as counted */
		printf("  %-20s %.0f B\n", key, json_number_value(v));
	else if (json_is_number(v))
		printf("  %-20s %.6g %s\n", key, json_number_value(v) / scale, unit);
	else
		printf("  %-20s -\n", key);
}

/* A JSON value's type, as the record's reader names it. */
static const char *type_name(const json_t *v)
{
	static const char *const names[] = { "an object", "an array", "a string", "an integer", "a real number",
					     "true", "false", "null" };
	return v ? names[json_typeof(v)] : "missing";
}

/* Whether o[key] is of the kind wanted ("string", "integer", "number or null", "array", "array of strings",
 * "object"); where it is not, what it is instead, into why (where names o: "", "sockets[1]"). */
static int typed(json_t *o, const char *where, const char *key, const char *want, char *why, size_t len)
{
	json_t *v = json_object_get(o, key);
	int ok = !strcmp(want, "string") ? json_is_string(v) : !strcmp(want, "integer") ? json_is_integer(v)
	       : !strcmp(want, "number or null") ? json_is_number(v) || json_is_null(v)
	       : !strcmp(want, "object") ? json_is_object(v) : json_is_array(v);
	size_t i;
	json_t *e;
	if (ok && !strcmp(want, "array of strings"))
		json_array_foreach(v, i, e) ok = ok && json_is_string(e);
	if (!ok)
		snprintf(why, len, "%s%s\"%s\" is %s, not %s %s", where, *where ? "'s " : "", key, type_name(v),
			 strchr("aeiou", want[0]) ? "an" : "a", want);
	return ok;
}

/* The record's fields of the kinds record_of writes (a socket's and a group's bytes null where not counted);
 * 0, or -1 with the first that is not, into why. */
static int record_typed(json_t *r, char *why, size_t len)
{
	static const char *const sock_num[] = { "read_bytes", "write_bytes", "peak_read_bw", "peak_write_bw",
						"energy_dram_joules", "energy_pkg_joules" };
	char where[32];
	size_t i;
	json_t *v;
	if (!typed(r, "", "job", "string", why, len) || !typed(r, "", "node", "string", why, len) ||
	    !typed(r, "", "counted_from", "number or null", why, len) || !typed(r, "", "seconds", "number or null", why, len) ||
	    !typed(r, "", "sockets", "array", why, len) || !typed(r, "", "devices", "array", why, len) ||
	    !typed(r, "", "warnings", "integer", why, len) ||
	    (json_object_get(r, "peak_share") && (!typed(r, "", "peak_share", "number or null", why, len) ||
						  !typed(r, "", "peak_bw", "number or null", why, len))))
		return -1;
	json_array_foreach(json_object_get(r, "sockets"), i, v) {
		snprintf(where, sizeof(where), "sockets[%zu]", i);
		if (!json_is_object(v))
			return snprintf(why, len, "%s is %s, not an object", where, type_name(v)), -1;
		if (!typed(v, where, "socket", "integer", why, len))
			return -1;
		for (size_t k = 0; k < sizeof(sock_num) / sizeof(sock_num[0]); k++)
			if (!typed(v, where, sock_num[k], "number or null", why, len))
				return -1;
	}
	json_array_foreach(json_object_get(r, "devices"), i, v) {
		snprintf(where, sizeof(where), "devices[%zu]", i);
		if (!json_is_object(v))
			return snprintf(why, len, "%s is %s, not an object", where, type_name(v)), -1;
		if (!typed(v, where, "socket", "integer", why, len) || !typed(v, where, "read_bytes", "number or null", why, len) ||
		    !typed(v, where, "write_bytes", "number or null", why, len) ||
		    (json_object_get(v, "devices") && !typed(v, where, "devices", "array of strings", why, len)))
			return -1;
	}
	return 0;
}

/* A number of the record as text, "-" where it is null (not counted). */
static const char *num_text(json_t *v, const char *fmt, char *buf, size_t len)
{
	if (!json_is_number(v))
		return "-";
	snprintf(buf, len, fmt, json_number_value(v));
	return buf;
}

int job_sacct_report(const char *id)
{
	static char line[65536], text[262144];
	if (sacct_comment(id, line, sizeof(line)))
		return 1;
	if (!*line) {
		fprintf(stderr, "uncore job: job %s has no AdminComment in Slurm's accounting (sacct -j %s -o AdminComment): "
				"no such job, its epilog wrote no summary, or slurmdbd has not stored it yet\n", id, id);
		return 1;
	}
	if (strncmp(line, PREFIX, strlen(PREFIX))) { /* another tool's, or anyone's: shown escaped */
		char head[21];
		size_t k = strnlen(line, sizeof(head) - 1);
		memcpy(head, line, k);
		head[k] = 0;
		fprintf(stderr, "uncore job: job %s's AdminComment is no uncore record of this version (it begins '", id);
		out_text(stderr, head);
		fprintf(stderr, "', not '%s')\n", PREFIX);
		return 1;
	}
	if (unpack(line + strlen(PREFIX), text, sizeof(text))) {
		fprintf(stderr, "uncore job: job %s's AdminComment is a damaged uncore record (not base32 of gzip)\n", id);
		return 1;
	}
	json_error_t e;
	char why[160];
	json_t *r = json_loads(text, 0, &e);
	if (!r) {
		fprintf(stderr, "uncore job: job %s's AdminComment is a damaged uncore record (its JSON: ", id);
		out_text(stderr, e.text);
		fprintf(stderr, ", at byte %d)\n", e.position);
		return 1;
	}
	if (!json_is_object(r))
		snprintf(why, sizeof(why), "its JSON is %s, not an object", type_name(r));
	if (!json_is_object(r) || record_typed(r, why, sizeof(why))) {
		fprintf(stderr, "uncore job: job %s's AdminComment is a damaged uncore record (", id);
		out_text(stderr, why);
		fprintf(stderr, ")\n");
		json_decref(r);
		return 1;
	}
	json_t *v, *b;
	size_t i, k;
	char t1[32], t2[32];
	/* the strings as they came (anyone who can write the job's AdminComment wrote them): control characters
	 * escaped, so that none reaches the terminal */
	printf("job ");
	out_text(stdout, json_string_value(json_object_get(r, "job")));
	printf(" on ");
	out_text(stdout, json_string_value(json_object_get(r, "node")));
	printf(": counted %s s from %s (Unix time)\n", num_text(json_object_get(r, "seconds"), "%.3f", t1, sizeof(t1)),
	       num_text(json_object_get(r, "counted_from"), "%.3f", t2, sizeof(t2)));
	if (json_object_get(r, "peak_share")) { /* (none in records older than issue 91's) */
		show("peak_bw", json_object_get(r, "peak_bw"), "GB/s", 1e9);
		show("peak_share", json_object_get(r, "peak_share"), "%", 0.01);
	}
	json_array_foreach(json_object_get(r, "sockets"), i, v) {
		printf("socket %lld\n", (long long)json_integer_value(json_object_get(v, "socket")));
		show("read_bytes", json_object_get(v, "read_bytes"), "B", 1);
		show("write_bytes", json_object_get(v, "write_bytes"), "B", 1);
		show("peak_read_bw", json_object_get(v, "peak_read_bw"), "GB/s", 1e9);
		show("peak_write_bw", json_object_get(v, "peak_write_bw"), "GB/s", 1e9);
		show("energy_dram_joules", json_object_get(v, "energy_dram_joules"), "J", 1);
		show("energy_pkg_joules", json_object_get(v, "energy_pkg_joules"), "J", 1);
	}
	json_array_foreach(json_object_get(r, "devices"), i, v) {
		json_t *bdfs = json_object_get(v, "devices");
		printf("devices ");
		if (!bdfs)
			printf("-");
		else {
			printf("[");
			json_array_foreach(bdfs, k, b) {
				printf("%s\"", k ? "," : "");
				out_text(stdout, json_string_value(b));
				printf("\"");
			}
			printf("]");
		}
		printf(" (socket %lld)\n", (long long)json_integer_value(json_object_get(v, "socket")));
		show("read_bytes", json_object_get(v, "read_bytes"), "B", 1);
		show("write_bytes", json_object_get(v, "write_bytes"), "B", 1);
	}
	printf("warnings %lld (uncore job report %s on the node, or the system log)\n",
	       (long long)json_integer_value(json_object_get(r, "warnings")), id);
	json_decref(r);
	return 0;
}
