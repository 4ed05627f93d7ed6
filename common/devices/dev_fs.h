/*
 * The files the device map reads (a kernel's sysfs): the machine's own below the sysroot, or a simulated
 * machine's, kept in memory.  One walker reads both the same way (dev_walk.c).
 */
#ifndef UNCORE_DEV_FS_H
#define UNCORE_DEV_FS_H

#include <stddef.h>
#include <sys/stat.h>
#include "util/memfs.h"

/* A tree to read: mem NULL, the machine's own files below the sysroot; else the backend's one tree (access_files:
 * a simulated machine's, a replayed node's).  rec: where every answer read is also kept (a snapshot's capture:
 * util/memfs_text.c), so that the same reads of rec give the same answers. */
struct dev_fs {
	const struct memfs *mem; /* memfs.h */
	struct memfs *rec;
	int rec_failed;          /* out of memory while keeping */
	int with_host;        /* mem: the host's files too, a path from the first layer that has it -- UNCORE_SYSROOT's
				  * where it is set (what a site or a test puts there stands in for the simulator's),
				  * then mem's, then / where it is not (the batch system's jobs of the host the
				  * simulator runs on); a directory's names from both (dev_fs_node.c) */
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
/* A directory's entries, sorted by name (readdir's order is the filesystem's), names of 128 bytes or more left
 * out (a job's directory, job_ and an id of 64, fits): 0 (free(l->v)), or -1 when there is no such directory (l
 * empty). */
struct dev_names {
	char (*v)[128];
	int n, cap;
};
int dev_fs_names(const struct dev_fs *fs, const char *dir, struct dev_names *l);
/* A dev_fs_list callback: name appended to the struct dev_names arg (left out when out of memory or too long). */
void dev_fs_add_name(void *arg, const char *name);
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

/* The node's files as a whole (dev_fs_node.c): what the jobs and the GPUs' labels read, one way for the machine's
 * own, a sysroot's and a simulated node's.  Each path is taken from the first layer that has it (with_host:
 * the sysroot's, then mem's; without a sysroot mem's, then /'s), a directory's names from every layer.
 *
 * Its lstat: 0, or -1 with errno (a file of mem is root's, mode 0644, a directory 0755, a link 0777). */
int dev_fs_stat(const struct dev_fs *fs, const char *path, struct stat *st);
/* The whole text of a regular file, at most max - 1 bytes and NUL-terminated, into buf (its length *got): opened
 * without blocking (uc_open_guarded).  0, or -1 with errno and st for uc_guarded_why (EFBIG: larger). */
int dev_fs_text(const struct dev_fs *fs, const char *path, char *buf, size_t max, size_t *got, struct stat *st);
/* The path as a message names it: the file on this machine (below the sysroot) where a file there is taken,
 * else the view's own path.  Returns buf. */
const char *dev_fs_shown(const struct dev_fs *fs, const char *path, char *buf, size_t len);
/* A directory's names from every layer, sorted, each once, at most max of them (*more set when there are more:
 * the rest are not read): 0, or -1 when no layer has the directory (free(l->v) either way). */
/* The layer path is taken from: fs, or tmp made fs's host layer where the sysroot has path (with_host). */
const struct dev_fs *dev_fs_layer(const struct dev_fs *fs, const char *path, struct dev_fs *tmp);
/* Whether UNCORE_SYSROOT (or a replay's root) names a tree other than / */
int dev_fs_sysroot_set(void);
int dev_fs_names_upto(const struct dev_fs *fs, const char *dir, int max, struct dev_names *l, int *more);

#endif
