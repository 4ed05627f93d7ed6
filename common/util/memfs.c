/* A tree of files kept in memory (memfs.h). */
#include <stdlib.h>
#include <string.h>
#include "memfs.h"

/* FNV-1a, 64 bits (the FNV offset basis and prime: Fowler, Noll, Vo, draft-eastlake-fnv): a byte more of h */
#define FNV_BASIS 14695981039346656037ull
static unsigned long long fnv(unsigned long long h, char c) { return (h ^ (unsigned char)c) * 1099511628211ull; }

static size_t hash_n(const char *p, size_t len)
{
	unsigned long long h = FNV_BASIS;
	for (size_t i = 0; i < len; i++)
		h = fnv(h, p[i]);
	return (size_t)h;
}

static size_t hash(const char *p) { return hash_n(p, strlen(p)); }

/* The directories' index slot of the prefix p[0..len) of hash h: where its node's index is, or the empty one */
static size_t node_slot(const struct memfs *m, const char *p, size_t len, size_t h)
{
	size_t mask = (size_t)m->nidx_cap - 1, i = h & mask;
	while (m->nidx[i] >= 0 && (m->nodes[m->nidx[i]].len != len || memcmp(m->nodes[m->nidx[i]].path, p, len)))
		i = (i + 1) & mask;
	return i;
}

/* Room for more nodes, the index at most half full after them: 0, or -1 out of memory */
static int reserve_nodes(struct memfs *m, int more)
{
	if (m->nnodes + more > m->nodes_cap) {
		int cap = m->nodes_cap ? 2 * m->nodes_cap : 256;
		while (cap < m->nnodes + more)
			cap *= 2;
		struct memfs_node *n = realloc(m->nodes, (size_t)cap * sizeof(*n));
		if (!n)
			return -1;
		m->nodes = n;
		m->nodes_cap = cap;
	}
	if (2 * (m->nnodes + more) <= m->nidx_cap)
		return 0;
	int cap = m->nidx_cap ? 2 * m->nidx_cap : 512;
	while (2 * (m->nnodes + more) > cap)
		cap *= 2;
	int *idx = malloc((size_t)cap * sizeof(*idx));
	if (!idx)
		return -1;
	free(m->nidx);
	m->nidx = idx;
	m->nidx_cap = cap;
	memset(idx, 0xff, (size_t)cap * sizeof(*idx));
	for (int i = 0; i < m->nnodes; i++)
		idx[node_slot(m, m->nodes[i].path, m->nodes[i].len, m->nodes[i].hash)] = i;
	return 0;
}

/* The node of p[0..len) (hash h), made (room reserved) when there is none yet: its index */
static int node_of(struct memfs *m, const char *p, size_t len, size_t h, int *made)
{
	size_t k = node_slot(m, p, len, h);
	*made = m->nidx[k] < 0;
	if (*made) {
		m->nodes[m->nnodes] = (struct memfs_node){ p, len, h, -1, -1, -1 };
		m->nidx[k] = m->nnodes++;
	}
	return m->nidx[k];
}

/* Each directory of path (each prefix before a '/'), and the name below it, indexed, the prefixes' hashes
 * taken in one pass over path; path stays as long as m */
static void index_dirs(struct memfs *m, const char *path)
{
	unsigned long long h = FNV_BASIS;
	size_t i = 0;
	while (path[i] && path[i] != '/')
		h = fnv(h, path[i++]);
	while (path[i] == '/') {
		size_t d = i, hd = (size_t)h;
		do
			h = fnv(h, path[i++]);
		while (path[i] && path[i] != '/');
		int made, dir = node_of(m, path, d, hd, &made);
		int name = node_of(m, path, i, (size_t)h, &made);
		if (!made)
			continue;
		if (m->nodes[dir].last < 0)
			m->nodes[dir].first = name;
		else
			m->nodes[m->nodes[dir].last].next = name;
		m->nodes[dir].last = name;
	}
}

/* The index's slot of path: where its file's index is, or the empty one where it would go */
static size_t slot_of(const struct memfs *m, const char *path)
{
	size_t mask = (size_t)m->idx_cap - 1, i = hash(path) & mask;
	while (m->idx[i] >= 0 && strcmp(m->f[m->idx[i]].path, path))
		i = (i + 1) & mask;
	return i;
}

/* The index made anew with cap slots (a power of two), each path's first file in it: 0, or -1 out of memory */
static int reindex(struct memfs *m, int cap)
{
	int *idx = malloc((size_t)cap * sizeof(*idx));
	if (!idx)
		return -1;
	free(m->idx);
	m->idx = idx;
	m->idx_cap = cap;
	memset(idx, 0xff, (size_t)cap * sizeof(*idx)); /* -1: empty */
	for (int i = 0; i < m->n; i++) {
		size_t k = slot_of(m, m->f[i].path);
		if (idx[k] < 0)
			idx[k] = i;
	}
	return 0;
}

static struct memfs_file *add(struct memfs *m, const char *path, const void *data, size_t len)
{
	if (2 * (m->n + 1) > m->idx_cap && reindex(m, m->idx_cap ? 2 * m->idx_cap : 128))
		return NULL;
	int depth = 0;
	for (const char *c = strchr(path, '/'); c; c = strchr(c + 1, '/'))
		depth++;
	if (reserve_nodes(m, 2 * depth)) /* (so that indexing the new path cannot fail half way) */
		return NULL;
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
	f->text = malloc(len + 1); /* terminated one byte past the data, binary or not */
	if (!f->path || !f->text) {
		free(f->path);
		free(f->text);
		return NULL;
	}
	if (len)
		memcpy(f->text, data, len);
	f->text[len] = 0;
	f->len = len;
	size_t k = slot_of(m, path);
	if (m->idx[k] < 0) /* a path put again: memfs_find keeps giving the first */
		m->idx[k] = m->n;
	m->n++;
	index_dirs(m, f->path);
	return f;
}

int memfs_put(struct memfs *m, const char *path, const char *text, int link)
{
	struct memfs_file *f = add(m, path, text, strlen(text));
	if (!f)
		return -1;
	f->link = link;
	return 0;
}

int memfs_put_bytes(struct memfs *m, const char *path, const void *data, size_t len, int dir)
{
	struct memfs_file *f = add(m, path, data, len);
	if (!f)
		return -1;
	f->dir = dir;
	return 0;
}

int memfs_put_owner(struct memfs *m, const char *path, unsigned uid)
{
	struct memfs_file *f = add(m, path, NULL, 0);
	if (!f)
		return -1;
	f->dir = 1;
	f->uid = uid;
	return 0;
}

int memfs_put_gen(struct memfs *m, const char *path, memfs_gen_fn make_text, const void *ctx, int arg)
{
	struct memfs_file *f = add(m, path, "", 0);
	if (!f)
		return -1;
	f->make_text = make_text, f->ctx = ctx, f->arg = arg;
	return 0;
}

int memfs_put_unknown(struct memfs *m, const char *path, const char *why)
{
	struct memfs_unknown *u = realloc(m->unknown, (size_t)(m->nunknown + 1) * sizeof(*u));
	if (!u)
		return -1;
	m->unknown = u;
	u += m->nunknown;
	u->path = strdup(path);
	u->why = strdup(why);
	if (!u->path || !u->why) {
		free(u->path);
		free(u->why);
		return -1;
	}
	m->nunknown++;
	return 0;
}

const char *memfs_unknown(const struct memfs *m, const char *path)
{
	for (int i = 0; i < m->nunknown; i++) {
		size_t n = strlen(m->unknown[i].path);
		if (!strncmp(path, m->unknown[i].path, n) && (path[n] == '/' || !path[n]))
			return m->unknown[i].why;
	}
	return NULL;
}

int memfs_put_all(struct memfs *m, const struct memfs *from)
{
	for (int i = 0; i < from->n; i++) {
		const struct memfs_file *f = &from->f[i];
		struct memfs_file *t = add(m, f->path, f->text, f->len);
		if (!t)
			return -1;
		t->link = f->link, t->dir = f->dir, t->uid = f->uid, t->make_text = f->make_text, t->ctx = f->ctx, t->arg = f->arg;
	}
	for (int i = 0; i < from->nunknown; i++)
		if (memfs_put_unknown(m, from->unknown[i].path, from->unknown[i].why))
			return -1;
	return 0;
}

void memfs_free(struct memfs *m)
{
	for (int i = 0; i < m->n; i++) {
		free(m->f[i].path);
		free(m->f[i].text);
	}
	for (int i = 0; i < m->nunknown; i++) {
		free(m->unknown[i].path);
		free(m->unknown[i].why);
	}
	free(m->unknown);
	free(m->f);
	free(m->idx);
	free(m->nodes);
	free(m->nidx);
	memset(m, 0, sizeof(*m));
}

const struct memfs_file *memfs_find(const struct memfs *m, const char *path)
{
	if (!m->idx_cap)
		return NULL; /* nothing put yet */
	int i = m->idx[slot_of(m, path)];
	return i < 0 ? NULL : &m->f[i];
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

int memfs_has_dir(const struct memfs *m, const char *path)
{
	size_t n = strlen(path);
	const struct memfs_file *f = memfs_find(m, path);
	if (f)
		return f->dir; /* a file, a link, or a directory kept as such */
	for (int i = 0; i < m->n; i++)
		if (!strncmp(m->f[i].path, path, n) && m->f[i].path[n] == '/')
			return 1;
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

int memfs_list(const struct memfs *m, const char *dir, int (*fn)(void *arg, const char *name), void *arg)
{
	size_t n = strlen(dir);
	int d = m->nidx_cap ? m->nidx[node_slot(m, dir, n, hash_n(dir, n))] : -1;
	if (d < 0 || m->nodes[d].first < 0)
		return -1;
	for (int i = m->nodes[d].first; i >= 0; i = m->nodes[i].next) {
		size_t k = m->nodes[i].len - n - 1;
		if (k >= 256)
			continue;
		char name[256];
		memcpy(name, m->nodes[i].path + n + 1, k);
		name[k] = 0;
		if (fn(arg, name))
			break;
	}
	return 0;
}

int memfs_read(const struct memfs_file *f, char *buf, size_t len)
{
	if (f->link || f->dir)
		return -1;
	if (f->make_text)
		return f->make_text(f->ctx, f->arg, buf, len);
	if (strlen(f->text) >= len)
		return -1;
	strcpy(buf, f->text);
	return 0;
}
