/* What `uncore job begin|end` have to say where a site sees it (issue 78 point 2): stderr (slurmd's log, at
 * debug2 only), the system log (ident intel-uncore, facility daemon, the job id in each line) and the job's
 * summary ("warnings"). */
#ifndef CLI_JOB_LOG_H
#define CLI_JOB_LOG_H

/* The job the messages name. */
void job_log_job(const char *id);
/* A warning or error of the job: "uncore job: job ID: MESSAGE" on stderr, MESSAGE to the system log, and kept
 * for the summary. */
void job_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The library's warnings since the last call, each said as job_say does ("uncore: warning: ..."). */
void job_lib_warnings(void);
/* The first n bytes of s (to its end, if sooner) as a JSON string, quoted and escaped, into out: its length (cut
 * short to fit len). */
size_t job_json_str(char *out, size_t len, const char *s, size_t n);
/* The warnings kept, as the lines of a JSON array's strings (each quoted and escaped, comma-separated). */
void job_said_json(char *out, size_t len);

#endif
