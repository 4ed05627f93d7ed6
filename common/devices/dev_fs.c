/* The files of the device map: the machine's below the sysroot, or a simulated machine's in memory. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dev_fs.h"
#include "access/access.h"
#include "util/error.h"
#include "util/guarded_read.h"

/* Where a path of the view lies on this machine: below the sysroot. */
static const char *host_path(char *p, size_t n, const char *path) { return sysroot_path(p, n, "%s", path); }

const char *dev_fs_unknown(const struct dev_fs *fs, const char *path)
{
	return fs->mem ? memfs_unknown(fs->mem, path) : NULL;
}

int dev_fs_sysroot_set(void)
{
	char r[8];
	return sysroot_path(r, sizeof(r), "%s", "")[0] != 0;
}


const struct dev_fs *dev_fs_layer(const struct dev_fs *fs, const char *path, struct dev_fs *tmp)
{
	char p[4096];
	struct stat st;
	if (!fs->mem || !fs->with_host)
		return fs;
	if (dev_fs_sysroot_set() ? lstat(sysroot_path(p, sizeof(p), "%s", path), &st) != 0
				 : memfs_find(fs->mem, path) || memfs_has_dir(fs->mem, path))
		return fs;
	*tmp = *fs;
	tmp->mem = NULL; /* the sysroot's file, or the host's where mem has none */
	return tmp;
}

/* What was read, kept in rec (once a path) */
static void keep(const struct dev_fs *fs, const char *path, const void *data, size_t len, int link, int dir)
{
	struct dev_fs *w = (struct dev_fs *)fs; /* the recorder's own state: reading does not change the tree */
	if (!fs->rec || memfs_find(fs->rec, path))
		return;
	if (memfs_put_bytes(fs->rec, path, data, len, dir))
		w->rec_failed = 1;
	else
		fs->rec->f[fs->rec->n - 1].link = link;
}

void dev_fs_keep_dir(const struct dev_fs *fs, const char *path)
{
	keep(fs, path, NULL, 0, 0, 1);
}

int dev_fs_line(const struct dev_fs *fs, const char *path, char *buf, size_t len)
{
	struct dev_fs layer;
	fs = dev_fs_layer(fs, path, &layer);
	if (fs->mem) {
		/* through the links among its directories, as open() goes (/sys/block/nvme0n1/stat) */
		const struct memfs_file *f = memfs_find_through(fs->mem, path);
		if (!f || memfs_read(f, buf, len))
			return -1;
		buf[strcspn(buf, "\n")] = 0;
	} else {
		char p[4096];
		struct stat st;
		if (uc_read_first_line(host_path(p, sizeof(p), path), buf, len, &st)) {
			int e = errno; /* a FIFO, a device, a huge file or an overlong line there: named, then absent */
			char why[128];
			if (st.st_mode && !S_ISDIR(st.st_mode) && (!S_ISREG(st.st_mode) || e == EFBIG || e == EOVERFLOW))
				uc_warn("%s: %s: taken as absent", p, uc_guarded_why(e, &st, UC_SYSFILE_MAX, len, why,
										  sizeof(why)));
			return -1;
		}
	}
	keep(fs, path, buf, strlen(buf), 0, 0);
	return 0;
}

#define DEV_CONFIG_MAX 4096

int dev_fs_bytes(const struct dev_fs *fs, const char *path, long off, void *buf, size_t len)
{
	struct dev_fs layer;
	fs = dev_fs_layer(fs, path, &layer);
	if (off < 0)
		return -1;
	if (fs->mem) {
		const struct memfs_file *f = memfs_find(fs->mem, path);
		if (!f || f->link || f->dir || (size_t)off > f->len || f->len - (size_t)off < len)
			return -1;
		memcpy(buf, f->text + off, len);
	} else {
		char p[4096];
		struct stat st;
		/* a config space holds 4096 bytes at most (PCI Express Base Specification, its extended configuration
		 * space); a FIFO or a larger file standing in for one below the sysroot is named, then absent */
		int fd = uc_open_guarded(host_path(p, sizeof(p), path), DEV_CONFIG_MAX, &st);
		if (fd < 0) {
			int e = errno;
			char why[128];
			if (st.st_mode && !S_ISDIR(st.st_mode) && (!S_ISREG(st.st_mode) || e == EFBIG))
				uc_warn("%s: %s: taken as absent", p, uc_guarded_why(e, &st, DEV_CONFIG_MAX, 0, why, sizeof(why)));
			return -1;
		}
		ssize_t n = pread(fd, buf, len, (off_t)off);
		close(fd);
		if (n != (ssize_t)len)
			return -1; /* past what a user other than root may read (64 bytes), or a short file */
	}
	if (fs->rec) { /* kept as the file's bytes up to these, zeros where nothing was read */
		const struct memfs_file *f = memfs_find(fs->rec, path);
		size_t want = (size_t)off + len, have = f ? f->len : 0;
		char *b = calloc(1, want > have ? want : have);
		if (!b) {
			((struct dev_fs *)fs)->rec_failed = 1;
			return 0;
		}
		if (f)
			memcpy(b, f->text, have);
		memcpy(b + off, buf, len);
		if (f) { /* replaced in place */
			struct memfs_file *w = (struct memfs_file *)f;
			free(w->text);
			w->text = b;
			w->len = want > have ? want : have;
			b = NULL;
		} else if (memfs_put_bytes(fs->rec, path, b, want, 0))
			((struct dev_fs *)fs)->rec_failed = 1;
		free(b);
	}
	return 0;
}

const char *dev_fs_bytes_why(const struct dev_fs *fs, const char *path, long off, size_t len, char *buf, size_t n)
{
	struct dev_fs layer;
	fs = dev_fs_layer(fs, path, &layer);
	long long size;
	if (fs->mem) {
		const struct memfs_file *f = memfs_find(fs->mem, path);
		if (!f || f->link || f->dir)
			return "no such file";
		size = (long long)f->len;
	} else {
		char p[4096];
		struct stat st;
		if (stat(host_path(p, sizeof(p), path), &st))
			return strerror(errno);
		size = (long long)st.st_size;
		/* sysfs gives a config file its full size (256 or 4096) and another user 0 bytes past 64 of it
		 * (drivers/pci/pci-sysfs.c pci_read_config) */
		if (size >= off + (long long)len && geteuid() && off + (long long)len > 64)
			return "only root may read past the first 64 bytes";
		if (size >= off + (long long)len)
			return "the read came back short";
	}
	snprintf(buf, n, "the file holds only %lld bytes", size);
	return buf;
}

/* memfs_list's callback of a dev_fs_list one (which lists to the end) */
struct each {
	void (*fn)(void *arg, const char *name);
	void *arg;
};
static int each_name(void *arg, const char *name)
{
	struct each *e = arg;
	e->fn(e->arg, name);
	return 0;
}

int dev_fs_list(const struct dev_fs *fs, const char *dir, void (*fn)(void *arg, const char *name), void *arg)
{
	char p[4096];
	struct each each = { fn, arg };
	if (fs->mem && fs->with_host) { /* both layers' (a name twice: both) */
		struct dev_fs host = *fs;
		host.mem = NULL;
		int a = dev_fs_list(&host, dir, fn, arg), b = memfs_list(fs->mem, dir, each_name, &each);
		return a && b ? -1 : 0;
	}
	if (fs->mem)
		return memfs_list(fs->mem, dir, each_name, &each);
	DIR *d = opendir(host_path(p, sizeof(p), dir));
	struct dirent *e;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			fn(arg, e->d_name);
	closedir(d);
	return 0;
}

void dev_fs_add_name(void *arg, const char *name)
{
	struct dev_names *l = arg;
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		char(*v)[128] = realloc(l->v, (size_t)cap * sizeof(*v));
		if (!v)
			return; /* the rest unlisted: out of memory shows in what is missing */
		l->v = v;
		l->cap = cap;
	}
	if (strlen(name) < sizeof(l->v[0]))
		strcpy(l->v[l->n++], name);
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

int dev_fs_names(const struct dev_fs *fs, const char *dir, struct dev_names *l)
{
	memset(l, 0, sizeof(*l));
	if (dev_fs_list(fs, dir, dev_fs_add_name, l))
		return -1;
	if (l->n > 1)
		qsort(l->v, (size_t)l->n, sizeof(l->v[0]), by_name);
	int k = 0; /* a name both layers give, once */
	for (int i = 0; i < l->n; i++)
		if (!k || strcmp(l->v[k - 1], l->v[i]))
			memmove(l->v[k++], l->v[i], sizeof(l->v[0]));
	l->n = k;
	return 0;
}

int dev_fs_is_dir(const struct dev_fs *fs, const char *path)
{
	struct dev_fs layer;
	fs = dev_fs_layer(fs, path, &layer);
	int dir = 0;
	if (fs->mem) {
		dir = memfs_has_dir(fs->mem, path);
	} else {
		char p[4096];
		struct stat st;
		dir = !lstat(host_path(p, sizeof(p), path), &st) && S_ISDIR(st.st_mode);
	}
	if (dir)
		dev_fs_keep_dir(fs, path);
	return dir;
}

int dev_fs_link_name(const struct dev_fs *fs, const char *path, char *buf, size_t len)
{
	struct dev_fs layer;
	fs = dev_fs_layer(fs, path, &layer);
	char t[4096];
	if (fs->mem) {
		const struct memfs_file *f = memfs_find(fs->mem, path);
		if (!f || !f->link || strlen(f->text) >= sizeof(t))
			return -1;
		strcpy(t, f->text);
	} else {
		char p[4096];
		ssize_t n = readlink(host_path(p, sizeof(p), path), t, sizeof(t) - 1);
		if (n <= 0)
			return -1;
		t[n] = 0;
	}
	keep(fs, path, t, strlen(t), 1, 0);
	const char *b = strrchr(t, '/');
	b = b ? b + 1 : t;
	if (!*b || strlen(b) >= len)
		return -1;
	strcpy(buf, b);
	return 0;
}
