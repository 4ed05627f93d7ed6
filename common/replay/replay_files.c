/*
 * A replayed node's snapshot in memory (sim_replay.h): the archive's members as a tree of files, read straight
 * from the archive (tarball_read: nothing is unpacked anywhere) or from a directory unpacked by hand; and the
 * node's files (replay_node_files): what the snapshot keeps of the node's file system (its sys, proc, dev, etc,
 * run and var trees) and its device map's tree (devices/tree.txt), gathered once when the replay opens into the
 * one tree the replay presents (access.h ops->files), with what the snapshot does not know said
 * (memfs_put_unknown) so that a reader does not take the node to have none of it.  The archive's own members
 * (MANIFEST, snapshot.txt, the registers' mmio/ and msr/) are no file of the node; the PCI functions' files
 * (sys/bus/pci) are the registers' too (ops->pci_list, pci_read): the view's PCI tree is the device map's.
 * Both trees list a directory's names sorted (a directory unpacked by hand lists them in the file system's order).
 * Bounded as the archive is (sim_replay.c replay_limits): a directory unpacked by hand may hold anything, and
 * what is not a regular file, a directory or a symbolic link, or is larger than a kernel file may be, is named
 * and left out; a symbolic link is kept as one, never followed.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memmem */
#endif
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sim_replay.h"
#include "util/error.h"
#include "util/guarded_read.h"
#include "util/memfs_text.h"

#define MAX_FILE ((off_t)1 << 20)     /* a member (replay_limits.max_member) */
#define MAX_TOTAL ((size_t)64 << 20)  /* the whole archive (replay_limits.max_total) */
#define MAX_ENTRIES 65536             /* its members (replay_limits.max_members) */
#define MAX_DEPTH 32                  /* sysfs's deepest PCI path is some 20 directories */

/* The trees of a node's file system a snapshot keeps (snapshot/snap_files.c) */
static const char *const node_trees[] = { "sys", "proc", "dev", "etc", "run", "var" };

struct load {
	struct memfs *m;
	const char *dir; /* the unpacked archive */
	size_t total;
	int entries;
};

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* A directory's names, sorted (readdir's order is the file system's): how many, or -1 (*names NULL). */
static int names_of(const char *dir, char ***names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0, cap = 0;
	*names = NULL;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (n == cap) {
			char **v = realloc(*names, (size_t)(cap = cap ? 2 * cap : 32) * sizeof(*v));
			if (!v)
				break;
			*names = v;
		}
		if (!((*names)[n] = strdup(e->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (n > 1)
		qsort(*names, (size_t)n, sizeof(**names), by_name);
	return n;
}

/* One file of the directory into the tree: 0, or -1 with the reason (out of memory, the bounds passed). */
static int load_file(struct load *l, const char *full, const char *path, const struct stat *lst)
{
	char why[128];
	if (S_ISLNK(lst->st_mode)) {
		char t[1024];
		ssize_t n = readlink(full, t, sizeof(t) - 1);
		if (n <= 0)
			return 0; /* gone, or a target longer than any sysfs link: as absent */
		t[n] = 0;
		return memfs_put(l->m, path, t, 1) ? uc_err("out of memory") : 0;
	}
	struct stat st;
	int fd = uc_open_guarded(full, MAX_FILE, &st);
	if (fd < 0) { /* a FIFO, a device or a huge file in a directory unpacked by hand: named, then absent */
		int e = errno;
		if (st.st_mode && !S_ISDIR(st.st_mode))
			uc_warn("%s: %s: taken as absent", full, uc_guarded_why(e, &st, MAX_FILE, 0, why, sizeof(why)));
		return 0;
	}
	size_t len = (size_t)st.st_size;
	char *buf = malloc(len + 1);
	ssize_t got = buf ? read(fd, buf, len) : -1;
	close(fd);
	if (!buf)
		return uc_err("out of memory");
	int rc = 0;
	if (got >= 0 && (l->total += (size_t)got) > MAX_TOTAL)
		rc = uc_err("the files of %s hold more than %zu bytes: not a snapshot's", l->dir, MAX_TOTAL);
	else if (got >= 0 && memfs_put_bytes(l->m, path, buf, (size_t)got, 0))
		rc = uc_err("out of memory");
	free(buf);
	return rc;
}

/* The tree below path (full: where it is here; "" the top) into l->m: 0, or -1 with the reason. */
static int load_tree(struct load *l, char *full, size_t flen, char *path, size_t plen, int depth)
{
	char **names;
	int n = names_of(full, &names), rc = 0;
	size_t fo = strlen(full), po = strlen(path);
	if (n < 0)
		return 0; /* not a directory here: nothing of it */
	if (po && memfs_put_bytes(l->m, path, NULL, 0, 1)) /* listed even when empty, as a kernel's directory is */
		rc = uc_err("out of memory");
	for (int i = 0; i < n && !rc; i++) {
		struct stat st;
		if (snprintf(full + fo, flen - fo, "/%s", names[i]) >= (int)(flen - fo) ||
		    snprintf(path + po, plen - po, "/%s", names[i]) >= (int)(plen - po))
			continue; /* a name longer than any sysfs path: as absent */
		if (++l->entries > MAX_ENTRIES)
			rc = uc_err("the files of %s are more than %d: not a snapshot's", l->dir, MAX_ENTRIES);
		else if (lstat(full, &st))
			continue; /* gone */
		else if (S_ISDIR(st.st_mode))
			rc = depth < MAX_DEPTH ? load_tree(l, full, flen, path, plen, depth + 1) : 0;
		else
			rc = load_file(l, full, path, &st);
	}
	full[fo] = 0;
	path[po] = 0;
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

int replay_snap_dir(const char *dir, struct memfs *snap)
{
	struct load l = { .m = snap, .dir = dir };
	char full[4096], path[4096] = "";
	snprintf(full, sizeof(full), "%s", dir);
	return load_tree(&l, full, sizeof(full), path, sizeof(path), 0);
}

int replay_snap_take(void *arg, const char *name, const void *data, size_t len, int dir)
{
	const struct replay_take *t = arg;
	char path[512];
	if (snprintf(path, sizeof(path), "/%s", name) >= (int)sizeof(path))
		return uc_err("archive %s: member '%s': a name longer than 255 characters is refused", t->archive, name);
	/* its directories, made as an unpack makes them; one that is a file refuses it */
	for (char *c = path + 1; (c = strchr(c, '/')); *c++ = '/') {
		*c = 0;
		const struct memfs_file *f = memfs_find(t->snap, path);
		if (f && !f->dir) /* (named as an unpack names it: the component) */
			return uc_err("archive %s: member '%s': directory '%s': a symbolic link or not a directory (refused)",
				      t->archive, name, strrchr(path, '/') + 1);
		if (!f && memfs_put_bytes(t->snap, path, NULL, 0, 1))
			return uc_err("out of memory");
	}
	const struct memfs_file *f = memfs_find(t->snap, path);
	if (f && dir && !f->dir)
		return uc_err("archive %s: member '%s': directory '%s': a symbolic link or not a directory (refused)",
			      t->archive, name, strrchr(path, '/') + 1);
	if (f && !dir)
		return uc_err("archive %s: member '%s': cannot create it: a member of that name, or a directory of one, was "
			      "extracted already", t->archive, name);
	return !f && memfs_put_bytes(t->snap, path, data, len, dir) ? uc_err("out of memory") : 0;
}

/* Paths in the order of a walk of the tree listing each directory's names sorted: '/' before any character */
static int by_walk(const void *a, const void *b)
{
	const unsigned char *p = (const unsigned char *)(*(const struct memfs_file *const *)a)->path;
	const unsigned char *q = (const unsigned char *)(*(const struct memfs_file *const *)b)->path;
	for (; *p && *p == *q; p++, q++)
		;
	return (*p == '/' ? 1 : *p) - (*q == '/' ? 1 : *q);
}

/* Every file of from, or those below its directory top alone (but what is below skip), put into m as it is */
static int copy_files(struct memfs *m, const struct memfs *from, const struct memfs_file *const *order, const char *top,
		      const char *skip)
{
	size_t tl = top ? strlen(top) : 0, sl = skip ? strlen(skip) : 0;
	for (int i = 0; i < from->n; i++) {
		const struct memfs_file *f = order ? order[i] : &from->f[i];
		if ((top && (strncmp(f->path, top, tl) || (f->path[tl] && f->path[tl] != '/'))) ||
		    (skip && !strncmp(f->path, skip, sl) && (!f->path[sl] || f->path[sl] == '/')))
			continue;
		if (f->link ? memfs_put(m, f->path, f->text, 1) : memfs_put_bytes(m, f->path, f->text, f->len, f->dir))
			return uc_err("out of memory");
	}
	return 0;
}

int replay_snap_sort(struct memfs *snap)
{
	struct memfs sorted = { 0 };
	const struct memfs_file **order = malloc(((size_t)snap->n + 1) * sizeof(*order));
	if (!order)
		return uc_err("out of memory");
	for (int i = 0; i < snap->n; i++)
		order[i] = &snap->f[i];
	qsort(order, (size_t)snap->n, sizeof(*order), by_walk);
	int rc = copy_files(&sorted, snap, order, NULL, NULL);
	free(order);
	memfs_free(snap);
	*snap = sorted;
	return rc;
}

/* The device map's tree, where the snapshot keeps one (a text it cannot read fails the map alone) */
static int load_devices(struct memfs *m, const struct memfs *snap)
{
	struct memfs tree = { 0 };
	char why[1400];
	const struct memfs_file *f = memfs_find(snap, "/" SNAP_DEVICE_TREE);
	int r = f && !f->dir && !f->link ? memfs_text_parse(SNAP_DEVICE_TREE, f->text, f->len, &tree) : -2, rc = 0;
	if (!r)
		rc = memfs_put_all(m, &tree);
	else {
		if (r == -2)
			snprintf(why, sizeof(why), "this snapshot keeps no PCI device tree (%s: taken by a version before snapshots "
				 "kept it): take a new snapshot of the node, or map the node itself", SNAP_DEVICE_TREE);
		else
			snprintf(why, sizeof(why), "this snapshot's PCI device tree cannot be read: %s", uncore_error());
		rc = memfs_put_unknown(m, "/sys/bus/pci", why);
	}
	memfs_free(&tree);
	return rc ? uc_err("out of memory") : 0;
}

int replay_node_files(const struct memfs *snap, struct memfs *m)
{
	char top[16];
	for (size_t i = 0; i < sizeof(node_trees) / sizeof(node_trees[0]); i++) {
		snprintf(top, sizeof(top), "/%s", node_trees[i]);
		if (copy_files(m, snap, NULL, top, "/sys/bus/pci")) /* (the registers' files: ops->pci_list, pci_read) */
			return -1;
	}
	if (load_devices(m, snap))
		return -1;
	/* what a snapshot may not keep: the node's memory (numa_capture.c; an older snapshot has none), its uncore
	 * clock limits (not taken) */
	if (!memfs_find(m, "/sys/devices/system/memory/block_size_bytes") &&
	    memfs_put_unknown(m, "/sys/devices/system/memory", "this snapshot keeps no NUMA memory topology (nodes' memory "
			      "blocks, the L3's CPUs: taken by a version before snapshots kept them): take a new snapshot of the "
			      "node, or map the node itself"))
		return uc_err("out of memory");
	/* the memory population (snap_memory.c): a snapshot made from an lspci listing, or by a version before
	 * snapshots kept them, holds neither the EDAC tree nor the SMBIOS table; said, so that the library calls the
	 * population unknown rather than take the node to have no EDAC driver */
	const struct memfs_file *txt = memfs_find(snap, "/snapshot.txt");
	const char *why = txt && !txt->dir && memmem(txt->text, txt->len, "made from an lspci listing", 26) ?
			  "the snapshot holds no EDAC/SMBIOS: it was made from an lspci listing, which shows neither" :
			  "the snapshot holds no EDAC/SMBIOS: none on the node (no EDAC driver loaded, SMBIOS root's alone), or "
			  "taken by a version before snapshots kept them";
	if (!memfs_has_dir(m, "/sys/devices/system/edac/mc") && memfs_put_unknown(m, "/sys/devices/system/edac", why))
		return uc_err("out of memory");
	if (!memfs_find(m, "/sys/firmware/dmi/tables/DMI") && memfs_put_unknown(m, "/sys/firmware/dmi/tables/DMI", why))
		return uc_err("out of memory");
	if (!memfs_find(m, "/sys/devices/system/cpu/intel_uncore_frequency") &&
	    memfs_put_unknown(m, "/sys/devices/system/cpu/intel_uncore_frequency", "a replayed snapshot keeps no uncore "
			      "frequency files: read the limits on the node itself"))
		return uc_err("out of memory");
	return 0;
}
