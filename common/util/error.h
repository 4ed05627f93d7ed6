/* Per-thread error message for the user; functions return -1 after setting it. */
#ifndef UNCORE_ERROR_H
#define UNCORE_ERROR_H

#include <stdint.h>

/* Set the message; uc_err() returns -1.  The -1 comes from an inline function (a static analyser does not
 * follow variadic calls), so that it sees every "return uc_err(...)" fail and takes no path on past it.
 * Cold: the compiler moves every path that ends in an error out of its function's hot code, so that a read
 * at 100 Hz after a sleep fetches fewer lines of code. */
int uc_err_set(const char *fmt, ...) __attribute__((format(printf, 1, 2), cold));
/* Prefix the current message with more context ("socket 1: " + old). */
int uc_err_prefix_set(const char *fmt, ...) __attribute__((format(printf, 1, 2), cold));
static inline int uc_err_failed(int set) { (void)set; return -1; }
#define uc_err(...) uc_err_failed(uc_err_set(__VA_ARGS__))
#define uc_err_prefix(...) uc_err_failed(uc_err_prefix_set(__VA_ARGS__))
/* Warnings (a box that cannot be used but does not stop the rest), numbered per thread: common/util/warnings.c. */
void uc_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2), cold));
/* The kept warnings since the last open or clear (uncore_warnings()); clear starts that list afresh. */
const char *uc_warnings(void);
void uc_clear_warnings(void);
/* The number the next warning takes; the kept warnings from that number on; those taken back (a repeat of what
 * was said before: they read as unmade, and their numbers are given again).  Within one call of the library. */
uint64_t uc_warn_mark(void);
const char *uc_warnings_from(uint64_t mark);
void uc_warn_rewind(uint64_t mark);

#endif
