/*
 * The files a simulated backend presents, as one tree on its access: made once, the first time a feature
 * reads them, and kept (the same tree, its files made again by a refresh) until the access closes.  The feature folders read them through the one file view
 * (devices/dev_fs.h) and never ask which backend made them.
 */
#include <stdlib.h>
#include "access.h"
#include "util/error.h"
#include "util/memfs.h"

/* The access that presents the files: the first under a that has them (a perf backend or a recorder wraps the
 * simulator's access or a replay's in inner; a replay, whose files are the node's, wraps the simulator's), as
 * long as the outermost is a simulated one. */
static struct access *presenter(struct access *a)
{
	if (!a || !a->simulated)
		return NULL;
	for (; a; a = a->inner)
		if (a->ops && a->ops->files)
			return a;
	return NULL;
}

static int make(struct access *p)
{
	if (!(p->files = calloc(1, sizeof(*p->files))))
		return uc_err("out of memory");
	p->files_made++;
	if (p->ops->files(p, p->files)) { /* it said why: out of memory, an option naming what is not there */
		access_files_free(p);
		return -1;
	}
	return 0;
}

int access_files(struct access *a, const struct memfs **out)
{
	struct access *p = presenter(a);
	*out = NULL;
	if (!p)
		return 0;
	if (!p->files && make(p))
		return -1;
	*out = p->files;
	return 0;
}

int access_files_refresh(struct access *a)
{
	struct access *p = presenter(a);
	if (!p || !p->files)
		return 0; /* made when next read */
	memfs_free(p->files);
	p->files_made++;
	/* one that fails leaves the tree empty, not freed: the node's facts and the energy object keep it to read */
	return p->ops->files(p, p->files) ? memfs_free(p->files), -1 : 0;
}

int access_files_made(struct access *a)
{
	struct access *p = presenter(a);
	return p ? p->files_made : 0;
}

int access_node_poll(struct access *a)
{
	for (; a; a = a->inner)
		if (a->ops && a->ops->node_poll)
			return a->ops->node_poll(a);
	return 0;
}

void access_files_free(struct access *a)
{
	if (a && a->files) {
		memfs_free(a->files);
		free(a->files);
		a->files = NULL;
	}
}

struct access *access_driven(struct access *a, const char *backend)
{
	/* the first under a that drives one: a replay's drive is its simulated machine's, less what the node's
	 * files say instead (its IIO stacks) */
	for (struct access *p = a && a->simulated ? a : NULL; p; p = p->inner)
		if (p->ops->drive)
			return p;
	return uc_err("the %s backend is not simulated: its traffic is the machine's own", backend), NULL;
}
