/* The exporter's log: a line each on stderr (the journal's), "uncore-exporter: " and the message, which may
 * quote what others wrote -- the library's errors and warnings quoting a node's files (EDAC's mc_name, a
 * job's record), libmicrohttpd's messages -- escaped as common/util/term_text.h says, so that no line moves the
 * terminal of whoever reads the log, reorders itself or forges another. */
#ifndef UE_LOG_H
#define UE_LOG_H

#include <stdarg.h>

/* The message (without a newline: one at its end is dropped) as one line of the log. */
void ue_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same, "uncore-exporter: " followed by what (a part's name: "http: ") before the message. */
void ue_vlog(const char *what, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* This thread's warnings from the library not said yet (uncore_warnings_drain), a line each, after what. */
void ue_log_warnings(const char *what);

#endif
