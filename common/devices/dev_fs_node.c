/*
 * The node's files as a whole (dev_fs.h): whole texts, an lstat and bounded listings, each from the layer that
 * holds the path -- the machine's own below the sysroot, a simulated node's in memory, or both (with_host) --
 * so that the jobs (cgroups, spool, gres.conf) and the GPUs (the NVIDIA driver's files) are read one way.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "dev_fs.h"
#include "access/access.h"
#include "util/guarded_read.h"


int dev_fs_stat(const struct dev_fs *fs, const char *path, struct stat *st)
{
	struct dev_fs layer;
	char p[4096];
	fs = dev_fs_layer(fs, path, &layer);
	memset(st, 0, sizeof(*st));
	if (!fs->mem)
		return lstat(sysroot_path(p, sizeof(p), "%s", path), st);
	const struct memfs_file *f = memfs_find(fs->mem, path);
	if (f && f->link)
		st->st_mode = S_IFLNK | 0777;
	else if (f && !f->dir) {
		st->st_mode = S_IFREG | 0644;
		st->st_size = (off_t)f->len;
	} else if (memfs_has_dir(fs->mem, path)) {
		st->st_mode = S_IFDIR | 0755;
		st->st_uid = f ? f->uid : 0; /* a directory a user made (memfs_put_owner) */
	} else {
		errno = ENOENT;
		return -1;
	}
	st->st_nlink = 1; /* root's but where said: what the simulated kernel and root's prolog make */
	return 0;
}

int dev_fs_text(const struct dev_fs *fs, const char *path, char *buf, size_t max, size_t *got, struct stat *st)
{
	struct dev_fs layer;
	char p[4096];
	fs = dev_fs_layer(fs, path, &layer);
	*got = 0;
	buf[0] = 0;
	if (fs->mem) {
		const struct memfs_file *f = memfs_find(fs->mem, path);
		if (dev_fs_stat(fs, path, st))
			return -1;
		if (!S_ISREG(st->st_mode) || !f) {
			errno = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
			return -1;
		}
		if (f->make_text ? memfs_read(f, buf, max) : f->len >= max || memfs_read(f, buf, max)) {
			errno = EFBIG;
			return -1;
		}
		*got = strlen(buf);
		return 0;
	}
	int fd = uc_open_guarded(sysroot_path(p, sizeof(p), "%s", path), (off_t)max - 1, st);
	if (fd < 0)
		return -1;
	ssize_t r = 1;
	while (*got < max - 1 && (r = read(fd, buf + *got, max - 1 - *got)) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			break;
		*got += (size_t)r;
	}
	int e = errno;
	close(fd);
	buf[*got] = 0;
	if (r < 0) {
		errno = e;
		return -1;
	}
	return 0;
}

const char *dev_fs_shown(const struct dev_fs *fs, const char *path, char *buf, size_t len)
{
	struct dev_fs layer;
	fs = dev_fs_layer(fs, path, &layer);
	if (fs->mem)
		snprintf(buf, len, "%s", path);
	else
		sysroot_path(buf, len, "%s", path);
	return buf;
}

struct upto {
	struct dev_names *l;
	int max, more;
};

static void add_upto(void *arg, const char *name)
{
	struct upto *u = arg;
	if (u->l->n >= u->max)
		u->more = 1;
	else
		dev_fs_add_name(u->l, name);
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

/* A host directory's names, readdir stopped once more than max were seen */
static int host_names(const char *dir, struct upto *u)
{
	char p[4096];
	DIR *d = opendir(sysroot_path(p, sizeof(p), "%s", dir));
	struct dirent *e;
	if (!d)
		return -1;
	while (!u->more && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			add_upto(u, e->d_name);
	closedir(d);
	return 0;
}

int dev_fs_names_upto(const struct dev_fs *fs, const char *dir, int max, struct dev_names *l, int *more)
{
	struct upto u = { .l = l, .max = max };
	int found = 0;
	memset(l, 0, sizeof(*l));
	if (!fs->mem || fs->with_host)
		found |= !host_names(dir, &u);
	if (fs->mem && !u.more)
		found |= !dev_fs_list(&(struct dev_fs){ .mem = fs->mem }, dir, add_upto, &u);
	if (l->n > 1)
		qsort(l->v, (size_t)l->n, sizeof(l->v[0]), by_name);
	int k = 0;
	for (int i = 0; i < l->n; i++)
		if (!k || strcmp(l->v[k - 1], l->v[i]))
			memmove(l->v[k++], l->v[i], sizeof(l->v[0]));
	l->n = k;
	*more = u.more;
	return found ? 0 : -1;
}
