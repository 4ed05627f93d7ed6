/*
 * The files the device map reads (a kernel's sysfs): the machine's own below the sysroot, or a simulated
 * machine's, kept in memory.  One walker reads both the same way (dev_walk.c).
 */
#ifndef UNCORE_DEV_FS_H
#define UNCORE_DEV_FS_H

#include <stddef.h>
#include "util/memfs.h"

/* A tree to read: mem NULL, the machine's own files below the sysroot. */
struct dev_fs {
	const struct memfs *mem; /* memfs.h */
};
/* The first line of a regular file, without its newline: 0, or -1 (none, unreadable, not a regular file).
 * Read at the call, as the kernel makes it then: a simulated counter file (sim_devcount.c) gives its current
 * value; links among the path's directories are followed, as open() follows them. */
int dev_fs_line(const struct dev_fs *fs, const char *path, char *buf, size_t len);
/* fn(arg, name) for each entry of a directory: 0, or -1 when there is no such directory. */
int dev_fs_list(const struct dev_fs *fs, const char *dir, void (*fn)(void *arg, const char *name), void *arg);
/* Whether path is a directory itself, not a symbolic link to one (a walk never follows a link). */
int dev_fs_is_dir(const struct dev_fs *fs, const char *path);
/* The last component of a symbolic link's target ("ice" of driver -> ../../bus/pci/drivers/ice): 0, or -1. */
int dev_fs_link_name(const struct dev_fs *fs, const char *path, char *buf, size_t len);

#endif
