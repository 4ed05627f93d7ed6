/*
 * A tree of files kept in memory (a simulated kernel's sysfs for the device map, common/devices): paths, their
 * text, and which are symbolic links.
 */
#ifndef UNCORE_MEMFS_H
#define UNCORE_MEMFS_H

#include <stddef.h>

/* One file: its path ("/sys/..."), its text, and whether it is a symbolic link (its text then the link's
 * target, as readlink gives it) or a directory (an entry with nothing below it yet: a name directory such as
 * net/ens1f0).  len: the bytes of text (a binary file, a PCI config space, holds zeros; text is terminated
 * one byte past them all the same). */
struct memfs_file {
	char *path, *text;
	size_t len;
	int link, dir;
};
struct memfs {
	struct memfs_file *f;
	int n, cap;
};
/* Add a file (or, link 1, a symbolic link): 0, or -1 out of memory. */
int memfs_put(struct memfs *m, const char *path, const char *text, int link);
/* Add a file of len bytes (binary), or a directory (data NULL, len 0, dir 1): 0, or -1 out of memory. */
int memfs_put_bytes(struct memfs *m, const char *path, const void *data, size_t len, int dir);
void memfs_free(struct memfs *m);
/* The file at path, or NULL. */
const struct memfs_file *memfs_find(const struct memfs *m, const char *path);

#endif
