/* A tree of files kept in memory (memfs.h). */
#include <stdlib.h>
#include <string.h>
#include "memfs.h"

static struct memfs_file *add(struct memfs *m, const char *path, const char *text)
{
	if (m->n == m->cap) {
		int cap = m->cap ? 2 * m->cap : 64;
		struct memfs_file *f = realloc(m->f, (size_t)cap * sizeof(*f));
		if (!f)
			return NULL;
		m->f = f;
		m->cap = cap;
	}
	struct memfs_file *f = &m->f[m->n];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	f->text = strdup(text);
	if (!f->path || !f->text) {
		free(f->path);
		free(f->text);
		return NULL;
	}
	m->n++;
	return f;
}

int memfs_put(struct memfs *m, const char *path, const char *text, int link)
{
	struct memfs_file *f = add(m, path, text);
	if (!f)
		return -1;
	f->link = link;
	return 0;
}

int memfs_put_gen(struct memfs *m, const char *path, memfs_gen_fn gen, const void *ctx, int arg)
{
	struct memfs_file *f = add(m, path, "");
	if (!f)
		return -1;
	f->gen = gen, f->ctx = ctx, f->arg = arg;
	return 0;
}

void memfs_free(struct memfs *m)
{
	for (int i = 0; i < m->n; i++) {
		free(m->f[i].path);
		free(m->f[i].text);
	}
	free(m->f);
	memset(m, 0, sizeof(*m));
}

const struct memfs_file *memfs_find(const struct memfs *m, const char *path)
{
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->f[i].path, path))
			return &m->f[i];
	return NULL;
}

/* path with its first directory that is a link replaced by the link's target: 1, 0 when none is, -1 too long */
static int follow_one(const struct memfs *m, char *path, size_t len)
{
	for (char *c = strchr(path + 1, '/'); c; c = strchr(c + 1, '/')) {
		*c = 0;
		const struct memfs_file *f = memfs_find(m, path);
		*c = '/';
		if (!f || !f->link)
			continue;
		/* the target (relative to the link's directory unless absolute), then the rest of the path */
		size_t dir = f->text[0] == '/' ? 0 : (size_t)(strrchr(f->path, '/') - f->path) + 1,
		       nt = strlen(f->text), nr = strlen(c);
		char t[1024];
		if (dir + nt + nr >= sizeof(t) || dir + nt + nr >= len)
			return -1;
		memcpy(t, f->path, dir);
		memcpy(t + dir, f->text, nt);
		memcpy(t + dir + nt, c, nr + 1);
		memcpy(path, t, dir + nt + nr + 1);
		/* "a/b/../c" to "a/c", as the kernel resolves ".." of a real directory */
		for (char *d; (d = strstr(path, "/../"));) {
			char *up = d;
			while (up > path && *--up != '/')
				;
			memmove(up, d + 3, strlen(d + 3) + 1);
		}
		return 1;
	}
	return 0;
}

const struct memfs_file *memfs_find_through(const struct memfs *m, const char *path)
{
	char p[1024];
	const struct memfs_file *f = memfs_find(m, path);
	if (f || strlen(path) >= sizeof(p) || path[0] != '/')
		return f;
	strcpy(p, path);
	for (int hops = 0; hops < 8; hops++) {
		if (follow_one(m, p, sizeof(p)) != 1)
			return NULL;
		if ((f = memfs_find(m, p)))
			return f;
	}
	return NULL;
}

int memfs_read(const struct memfs_file *f, char *buf, size_t len)
{
	if (f->link)
		return -1;
	if (f->gen)
		return f->gen(f->ctx, f->arg, buf, len);
	if (strlen(f->text) >= len)
		return -1;
	strcpy(buf, f->text);
	return 0;
}
