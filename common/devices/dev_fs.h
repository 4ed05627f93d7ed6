/*
 * The files the device map reads (a kernel's sysfs): the machine's own below the sysroot, or a simulated
 * machine's, kept in memory.  One walker reads both the same way (dev_walk.c).
 */
#ifndef UNCORE_DEV_FS_H
#define UNCORE_DEV_FS_H

#include <stddef.h>
#include "util/memfs.h"

/* A tree to read: mem NULL, the machine's own files below the sysroot; else the backend's one tree (access_files:
 * a simulated machine's, a replayed node's).  rec: where every answer read is also kept (a snapshot's capture:
 * util/memfs_text.c), so that the same reads of rec give the same answers. */
struct dev_fs {
	const struct memfs *mem; /* memfs.h */
	struct memfs *rec;
	int rec_failed;          /* out of memory while keeping */
};
/* Why the tree at path is not known to the view (a replayed snapshot taken before snapshots kept it: the
 * reader says so rather than take the node to have none), NULL where it is. */
const char *dev_fs_unknown(const struct dev_fs *fs, const char *path);
/* The first line of a regular file, without its newline: 0, or -1 (none, unreadable, not a regular file).
 * Read at the call, as the kernel makes it then: a simulated counter file (sim_devcount.c) gives its current
 * value; links among the path's directories are followed, as open() follows them. */
int dev_fs_line(const struct dev_fs *fs, const char *path, char *buf, size_t len);
/* fn(arg, name) for each entry of a directory: 0, or -1 when there is no such directory. */
int dev_fs_list(const struct dev_fs *fs, const char *dir, void (*fn)(void *arg, const char *name), void *arg);
/* A directory's entries, sorted by name (readdir's order is the filesystem's), names of 64 bytes or more left
 * out: 0 (free(l->v)), or -1 when there is no such directory (l empty). */
struct dev_names {
	char (*v)[64];
	int n, cap;
};
int dev_fs_names(const struct dev_fs *fs, const char *dir, struct dev_names *l);
/* Whether path is a directory itself, not a symbolic link to one (a walk never follows a link). */
int dev_fs_is_dir(const struct dev_fs *fs, const char *path);
/* The last component of a symbolic link's target ("ice" of driver -> ../../bus/pci/drivers/ice): 0, or -1. */
int dev_fs_link_name(const struct dev_fs *fs, const char *path, char *buf, size_t len);

/* len bytes at off of a binary file (a PCI config space: /sys/bus/pci/devices/<bdf>/config, whole only to
 * root): 0, or -1 (none, or shorter). */
int dev_fs_bytes(const struct dev_fs *fs, const char *path, long off, void *buf, size_t len);
/* Why len bytes at off of that file could not be read, for a message: "no such file", "the file holds only
 * N bytes" (a snapshot's or a sysroot's file, a file cut short: whoever reads it), "only root may read past
 * the first 64 bytes" (sysfs gives another user a config space's header alone), or the error. */
const char *dev_fs_bytes_why(const struct dev_fs *fs, const char *path, long off, size_t len, char *buf, size_t n);
/* A directory whose name the map takes (a root bus, net/<name>): kept in rec, when recording. */
void dev_fs_keep_dir(const struct dev_fs *fs, const char *path);

#endif
