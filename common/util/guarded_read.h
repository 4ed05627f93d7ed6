/*
 * Reading a file without letting what it is stall or flood the reader: a FIFO, a device or a huge file
 * planted where a kernel file (/sys, /proc) or an input file is expected.  Nothing here depends on the
 * rest of the library, so that the CLI builds it in too (`uncore check` reads below UNCORE_SYSROOT).
 */
#ifndef UNCORE_GUARDED_READ_H
#define UNCORE_GUARDED_READ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* The most a kernel file of /sys or /proc, or one standing in for it below UNCORE_SYSROOT, may hold: a
 * sysfs attribute says 4096 bytes and a procfs file 0; /proc/cpuinfo of 4096 CPUs is a few MiB. */
#define UC_SYSFILE_MAX ((off_t)16 << 20)

/* path opened read-only and close-on-exec, with O_NONBLOCK so that a FIFO cannot stall the open (cleared
 * once the file is known to be regular), and refused unless it is a regular file of at most max bytes (0:
 * any size).  The descriptor, or -1 with errno and st: st->st_mode 0 when the open itself failed, the
 * file's kind otherwise (errno EFBIG when it is too large). */
int uc_open_guarded(const char *path, off_t max, struct stat *st);

/* "a FIFO", "a directory" ... for a file that is not a regular one. */
const char *uc_file_kind(mode_t m);

/* Why uc_open_guarded (or uc_read_first_line) failed, in words for a message: "it is a FIFO, not a regular
 * file", "it is 1099511627776 bytes, more than 16777216", "its first line is longer than 63 characters", or
 * strerror(err).  Returns buf. */
const char *uc_guarded_why(int err, const struct stat *st, off_t max, size_t len, char *buf, size_t buflen);

/* The first line of the file at path (uc_open_guarded, max UC_SYSFILE_MAX), without its newline, into buf:
 * 0, or -1 with errno and st as uc_open_guarded gives them, errno EOVERFLOW when the line does not fit
 * in len - 1 characters (a line cut would read as another value). */
int uc_read_first_line(const char *path, char *buf, size_t len, struct stat *st);

/* A kernel file's unsigned decimal number (energy_uj, min_freq_khz): digits only -- no sign, blank, base
 * prefix or trailing text, which strtoul and %llu would take ("-1" as 2^64 - 1) -- and at most max.  0, or -1
 * (errno EINVAL, or ERANGE above max). */
int uc_parse_u64(const char *s, uint64_t max, uint64_t *v);

#endif
