/* The agent's log (pmNotifyErr's, intel_uncore.log): a message may quote what others wrote -- the library's
 * errors and warnings quoting a node's files (EDAC's mc_name, a job's record) -- so it is escaped as
 * common/util/term_text.h says, and each message stays one line that cannot move a terminal or reorder itself. */
#ifndef IU_LOG_H
#define IU_LOG_H

/* pmNotifyErr(pri, ...) with the message escaped. */
void iu_log(int pri, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* This thread's warnings from the library not said yet (uncore_warnings_drain), a LOG_WARNING each after what. */
void iu_log_warnings(const char *what);

#endif
