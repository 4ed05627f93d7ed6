/* A tree of files kept in memory (memfs.h). */
#include <stdlib.h>
#include <string.h>
#include "memfs.h"

int memfs_put(struct memfs *m, const char *path, const char *text, int link)
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
	f->text = strdup(text);
	f->link = link;
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
