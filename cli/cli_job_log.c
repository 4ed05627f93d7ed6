/*
 * The job's messages where a default Slurm installation shows them.  slurmd logs a prolog's output only at
 * SlurmdDebug=debug2, so each warning also goes to the system log as syslog(3) sends it: one datagram of
 * RFC 3164 form ("<PRI>Mmm dd hh:mm:ss intel-uncore[PID]: job ID: ..."), facility daemon, severity warning,
 * to /dev/log (journald's socket where systemd runs, rsyslog's otherwise), or to UNCORE_SYSLOG_SOCKET (a
 * test's listener).  Sent by hand rather than by syslog(3) only so that the socket can be named; a log
 * that is not there loses the line, never the job.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "uncore.h"
#include "cli.h"
#include "cli_job_log.h"
#include "util/term_text.h"

#define LOG_PRI (3 * 8 + 4) /* LOG_DAEMON | LOG_WARNING, syslog.h */

static char job[72] = "?";
static char kept[4096]; /* the warnings, one a line, for the summary */

void job_log_job(const char *id) { snprintf(job, sizeof(job), "%s", id); }

static void to_syslog(const char *msg)
{
	const char *path = secure_getenv("UNCORE_SYSLOG_SOCKET");
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	char line[1200], stamp[32];
	time_t now = time(NULL);
	struct tm tm;
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path && *path ? path : "/dev/log");
	strftime(stamp, sizeof(stamp), "%b %e %H:%M:%S", localtime_r(&now, &tm));
	int n = snprintf(line, sizeof(line), "<%d>%s intel-uncore[%ld]: job %s: %s", LOG_PRI, stamp, (long)getpid(), job, msg);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	if (n > 0)
		(void)!sendto(fd, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1, MSG_DONTWAIT,
			      (struct sockaddr *)&a, sizeof(a));
	close(fd);
}

static void say(const char *prefix, const char *msg)
{
	size_t at = strlen(kept);
	char shown[4096]; /* (a message may quote a record, a file or a cgroup's name: escaped for the log's reader) */
	uc_term_escape(shown, sizeof(shown), msg);
	fprintf(stderr, "%s%s\n", prefix, shown);
	to_syslog(shown);
	if (at + strlen(msg) + 2 < sizeof(kept))
		snprintf(kept + at, sizeof(kept) - at, "%s\n", msg);
}

void job_say(const char *fmt, ...)
{
	char msg[1024], prefix[100];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(prefix, sizeof(prefix), "uncore job: job %s: ", job);
	say(prefix, msg);
}

void job_lib_warnings(void)
{
	for (const char *w = uncore_warnings_drain(NULL); *w;) { /* each once */
		char msg[1024];
		size_t n = strcspn(w, "\n");
		snprintf(msg, sizeof(msg), "%.*s", (int)n, w);
		say("uncore: warning: ", msg);
		w += n + (w[n] == '\n');
	}
}

size_t job_json_str(char *out, size_t len, const char *s, size_t n)
{
	size_t at = 0, used;
	char buf[OUT_JSON_CHAR];
	if (len < 8) {
		if (len)
			out[0] = 0;
		return 0;
	}
	out[at++] = '"';
	for (size_t i = 0; i < n && s[i]; i += used) {
		size_t k = out_json_char(s + i, buf, &used);
		if (i + used > n || at + k + 2 >= len) /* a character cut by n, or no room: the string ends before it */
			break;
		memcpy(out + at, buf, k);
		at += k;
	}
	out[at++] = '"';
	out[at] = 0;
	return at;
}

void job_said_json(char *out, size_t len)
{
	size_t at = 0;
	if (len)
		out[0] = 0;
	for (const char *p = kept; *p && at + 8 < len;) {
		size_t n = strcspn(p, "\n");
		if (at)
			out[at++] = ',';
		at += job_json_str(out + at, len - at, p, n);
		p += n + (p[n] == '\n');
	}
}
