/*
 * A tree of files kept in memory (a simulated kernel's sysfs for the device map, common/devices): paths, their
 * text, and which are symbolic links.
 */
#ifndef UNCORE_MEMFS_H
#define UNCORE_MEMFS_H

/* One file: its path ("/sys/..."), its text, and whether it is a symbolic link (its text then the link's
 * target, as readlink gives it). */
struct memfs_file {
	char *path, *text;
	int link;
};
struct memfs {
	struct memfs_file *f;
	int n, cap;
};
/* Add a file (or, link 1, a symbolic link): 0, or -1 out of memory. */
int memfs_put(struct memfs *m, const char *path, const char *text, int link);
void memfs_free(struct memfs *m);
/* The file at path, or NULL. */
const struct memfs_file *memfs_find(const struct memfs *m, const char *path);

#endif
