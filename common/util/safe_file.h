/*
 * Opening a file that root shares with other processes (the claims file, a
 * shared simulator) without letting another user steer it: no symbolic link
 * is followed, nothing is created except with O_EXCL, and a file or directory
 * another user controls is refused.  And opening the input files a user names
 * without a FIFO or a device stalling the open.
 */
#ifndef UNCORE_SAFE_FILE_H
#define UNCORE_SAFE_FILE_H

#include <stdio.h>
#include <sys/types.h>

/* Open path read-write.  With create, a missing file is made (O_EXCL, mode & ~umask); with mkdir, a
 * missing last directory is made (0755).  Refused, with the reason in uncore_error():
 *  - a path component that is a symbolic link or not a directory;
 *  - a directory owned by another user than root or the caller, or writable by every user
 *    without the sticky bit;
 *  - a file that is a link, not a regular file, has other hard links, belongs to another user
 *    than root or the caller, or that every user may open (any "other" permission bit).
 * Returns the descriptor, or -1. */
int safe_open_rw(const char *path, int create, mode_t mode, int mkdir);

/* Open a file the caller named (a profile, an events or metric file) for reading: without blocking, so
 * that a FIFO cannot hang the open, and refused unless it is a regular file.  Returns the stream, or
 * NULL with "cannot open PATH: why" in uncore_error(). */
FILE *uc_open_input(const char *path);

/* Open a kernel file (/sys, /proc), or the one standing in for it below UNCORE_SYSROOT, for reading: as
 * uc_open_input, and refused above UC_SYSFILE_MAX bytes (guarded_read.h), so that neither a FIFO nor a
 * huge file planted in a sysroot stalls the reader.  NULL with errno and "cannot open PATH: why" in
 * uncore_error(); *refused: the file is there but was refused (not merely missing or forbidden), which
 * the caller reports rather than take as "absent". */
FILE *uc_open_sysfile(const char *path, int *refused);

#endif
