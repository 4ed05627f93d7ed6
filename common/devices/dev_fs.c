/* The files of the device map: the machine's below the sysroot, or a simulated machine's in memory. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "dev_fs.h"
#include "access/access.h"
#include "util/guarded_read.h"

int dev_fs_line(const struct dev_fs *fs, const char *path, char *buf, size_t len)
{
	if (fs->mem) {
		/* through the links among its directories, as open() goes (/sys/block/nvme0n1/stat) */
		const struct memfs_file *f = memfs_find_through(fs->mem, path);
		if (!f || memfs_read(f, buf, len))
			return -1;
		buf[strcspn(buf, "\n")] = 0;
		return 0;
	}
	char p[4096];
	struct stat st;
	return uc_read_first_line(sysroot_path(p, sizeof(p), "%s", path), buf, len, &st);
}

/* In memory a directory is the common prefix of its files: each name below dir given once. */
static int mem_list(const struct memfs *m, const char *dir, void (*fn)(void *, const char *), void *arg)
{
	size_t n = strlen(dir);
	int found = 0;
	for (int i = 0; i < m->n; i++) {
		const char *p = m->f[i].path, *c;
		if (strncmp(p, dir, n) || p[n] != '/')
			continue;
		c = p + n + 1;
		size_t k = strcspn(c, "/");
		int seen = 0; /* named by an earlier file */
		for (int j = 0; j < i && !seen; j++)
			seen = !strncmp(m->f[j].path, p, n + 1 + k) &&
			       (m->f[j].path[n + 1 + k] == '/' || !m->f[j].path[n + 1 + k]);
		found = 1;
		if (!seen) {
			char name[256];
			if (k >= sizeof(name))
				continue;
			memcpy(name, c, k);
			name[k] = 0;
			fn(arg, name);
		}
	}
	return found ? 0 : -1;
}

int dev_fs_list(const struct dev_fs *fs, const char *dir, void (*fn)(void *arg, const char *name), void *arg)
{
	if (fs->mem)
		return mem_list(fs->mem, dir, fn, arg);
	char p[4096];
	DIR *d = opendir(sysroot_path(p, sizeof(p), "%s", dir));
	struct dirent *e;
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			fn(arg, e->d_name);
	closedir(d);
	return 0;
}

int dev_fs_is_dir(const struct dev_fs *fs, const char *path)
{
	if (fs->mem) {
		size_t n = strlen(path);
		if (memfs_find(fs->mem, path))
			return 0; /* a file or a link */
		for (int i = 0; i < fs->mem->n; i++)
			if (!strncmp(fs->mem->f[i].path, path, n) && fs->mem->f[i].path[n] == '/')
				return 1;
		return 0;
	}
	char p[4096];
	struct stat st;
	return !lstat(sysroot_path(p, sizeof(p), "%s", path), &st) && S_ISDIR(st.st_mode);
}

int dev_fs_link_name(const struct dev_fs *fs, const char *path, char *buf, size_t len)
{
	char t[4096];
	if (fs->mem) {
		const struct memfs_file *f = memfs_find(fs->mem, path);
		if (!f || !f->link || strlen(f->text) >= sizeof(t))
			return -1;
		strcpy(t, f->text);
	} else {
		char p[4096];
		ssize_t n = readlink(sysroot_path(p, sizeof(p), "%s", path), t, sizeof(t) - 1);
		if (n <= 0)
			return -1;
		t[n] = 0;
	}
	const char *b = strrchr(t, '/');
	b = b ? b + 1 : t;
	if (!*b || strlen(b) >= len)
		return -1;
	strcpy(buf, b);
	return 0;
}
