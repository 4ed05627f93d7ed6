/* A tree of files kept in memory (memfs.h). */
#include <stdlib.h>
#include <string.h>
#include "memfs.h"

int memfs_put(struct memfs *m, const char *path, const char *text, int link)
{
	if (memfs_put_bytes(m, path, text, strlen(text), 0))
		return -1;
	m->f[m->n - 1].link = link;
	return 0;
}

int memfs_put_bytes(struct memfs *m, const char *path, const void *data, size_t len, int dir)
{
	if (m->n == m->cap) {
		int cap = m->cap ? 2 * m->cap : 64;
		struct memfs_file *f = realloc(m->f, (size_t)cap * sizeof(*f));
		if (!f)
			return -1;
		m->f = f;
		m->cap = cap;
	}
	struct memfs_file *f = &m->f[m->n];
	f->path = strdup(path);
	f->text = malloc(len + 1);
	f->len = len;
	f->link = 0;
	f->dir = dir;
	if (f->text) {
		if (len)
			memcpy(f->text, data, len);
		f->text[len] = 0;
	}
	if (!f->path || !f->text) {
		free(f->path);
		free(f->text);
		return -1;
	}
	m->n++;
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
