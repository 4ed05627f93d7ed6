/*
 * A tree of files kept in memory (a simulated kernel's sysfs for the device map, common/devices): paths, their
 * text, and which are symbolic links.  A file may be made at read time (memfs_put_gen), as a kernel makes a
 * counter's sysfs file when it is read.
 */
#ifndef UNCORE_MEMFS_H
#define UNCORE_MEMFS_H

#include <stddef.h>

/* Writes a file's current text into buf (len bytes with its NUL): 0, or -1 (then the file reads as absent). */
typedef int (*memfs_gen_fn)(const void *ctx, int arg, char *buf, size_t len);

/* One file: its path ("/sys/..."), its text, and whether it is a symbolic link (its text then the link's
 * target, as readlink gives it) or a directory (an entry with nothing below it yet: a name directory such as
 * net/ens1f0).  len: the bytes of text (a binary file, a PCI config space, holds zeros; text is terminated
 * one byte past them all the same).  make_text: made at read time by make_text(ctx, arg, ...) instead of text. */
struct memfs_file {
	char *path, *text;
	size_t len;
	int link, dir;
	unsigned uid; /* its owner: 0, root's, as the simulated kernel makes them (memfs_put_owner) */
	memfs_gen_fn make_text;
	const void *ctx;
	int arg;
};
/* A tree the presenter does not know (a snapshot taken before snapshots kept it): a reader that finds nothing
 * there says why, rather than taking the machine to have none of it. */
struct memfs_unknown {
	char *path, *why;
};
/* A directory or a name in one: the prefix path[0..len) of a file's path (and its hash), its first and last name
 * below it and the next name of its own directory (indexes into the nodes, -1: none). */
struct memfs_node {
	const char *path;
	size_t len, hash;
	int first, last, next;
};
struct memfs {
	struct memfs_file *f;
	int n, cap;
	struct memfs_unknown *unknown;
	int nunknown;
	/* f by path (memfs.c): a hash table of indexes into f, -1 where empty, kept at most half full, so that
	 * memfs_find takes one probe or a few however many files the tree holds (a simulated machine's: 10^4) */
	int *idx;
	int idx_cap;
	/* the directories (memfs.c): each prefix of a path that ends before a '/', and each name below one, with
	 * its names in the order the files first name them, so that memfs_list reads a directory's names, not
	 * every path of the tree (the health checks list the devices' directories at every read) */
	struct memfs_node *nodes;
	int nnodes, nodes_cap;
	int *nidx;
	int nidx_cap;
};
/* Add a file (or, link 1, a symbolic link): 0, or -1 out of memory. */
int memfs_put(struct memfs *m, const char *path, const char *text, int link);
/* Add a file of len bytes (binary), or a directory (data NULL, len 0, dir 1): 0, or -1 out of memory. */
int memfs_put_bytes(struct memfs *m, const char *path, const void *data, size_t len, int dir);
/* The directory at path made uid's (a cgroup a user made, whose jobs the library leaves out): 0, or -1 out of
 * memory.  What is below it may be put before or after. */
int memfs_put_owner(struct memfs *m, const char *path, unsigned uid);
/* Add a file whose text make_text(ctx, arg, ...) makes at each read: 0, or -1 out of memory. */
int memfs_put_gen(struct memfs *m, const char *path, memfs_gen_fn make_text, const void *ctx, int arg);
/* Say that the tree at path is not known, and why: 0, or -1 out of memory. */
int memfs_put_unknown(struct memfs *m, const char *path, const char *why);
/* Why path (or a directory above it) is not known, NULL where it is. */
const char *memfs_unknown(const struct memfs *m, const char *path);
/* Every file of from, and what it does not know, added to m (a file made at read time stays so, its maker's
 * context shared): 0, or -1 out of memory. */
int memfs_put_all(struct memfs *m, const struct memfs *from);
void memfs_free(struct memfs *m);
/* The file at path (the first put there), or NULL. */
const struct memfs_file *memfs_find(const struct memfs *m, const char *path);
/* Whether m has a directory at path (one kept as such, or the prefix of a file's path) */
int memfs_has_dir(const struct memfs *m, const char *path);
/* The file at path with the symbolic links among its directories followed, as open() follows them
 * (/sys/block/nvme0n1/stat through the link /sys/block/nvme0n1), at most 8 links; the last component
 * itself is not followed.  NULL when there is none. */
const struct memfs_file *memfs_find_through(const struct memfs *m, const char *path);
/* fn(arg, name) for each name directly below dir (a directory is the common prefix of its files), each once,
 * in the order of the files that first name it, until fn returns nonzero: 0, or -1 when nothing is below dir. */
int memfs_list(const struct memfs *m, const char *dir, int (*fn)(void *arg, const char *name), void *arg);
/* A regular file's current text into buf: 0, or -1 (a link, a directory, no room, or its maker failed). */
int memfs_read(const struct memfs_file *f, char *buf, size_t len);

#endif
