/* Per-thread error message for the user; functions return -1 after setting it. */
#ifndef UNCORE_ERROR_H
#define UNCORE_ERROR_H

int uc_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prefix the current message with more context ("socket 1: " + old). */
int uc_err_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Warnings (a box that cannot be used but does not stop the rest). */
void uc_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
const char *uc_warnings(void);
void uc_clear_warnings(void);

#endif
