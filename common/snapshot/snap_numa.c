/*
 * The node's NUMA topology in a snapshot (doc/snapshot.md): the files the channel-to-node map reads
 * (numa_capture), kept as the members at their sysfs paths, so that a replay maps the node's nodes as the node
 * did (doc/numa.md).  A member the host's files already hold (a node's cpulist) takes the map's reading.
 */
#include <stdlib.h>
#include <string.h>
#include "snapshot.h"
#include "numa/numa.h"
#include "util/error.h"

static const char why[] = "the NUMA topology the channel-to-node map reads: nodes' CPUs, distances and memory blocks "
			  "(empty: their names count), the block size, the L3's CPUs (doc/numa.md)";

/* name's member given data in place of what it held, or added */
static int put_over(struct snap_out *o, const char *name, const char *data, size_t len)
{
	for (int i = 0; i < o->n; i++)
		if (!strcmp(o->m[i].name, name)) {
			uint8_t *d = malloc(len ? len : 1);
			if (!d)
				return uc_err("out of memory");
			memcpy(d, data, len);
			free(o->m[i].data);
			o->m[i].data = d;
			o->m[i].len = len;
			return 0;
		}
	return snap_put(o, name, data, len, why);
}

int snap_numa(struct snap_out *o, const char *regspec)
{
	uncore_t *u = NULL;
	struct memfs rec = { 0 };
	int rc = 0;
	if (uncore_open_topology(regspec, &u) || numa_capture(u, &rec)) {
		snap_note(o, "the NUMA topology: not read: %s", uncore_error());
		goto out;
	}
	for (int i = 0; i < rec.n && !rc; i++) {
		const struct memfs_file *f = &rec.f[i];
		if (f->dir || f->path[0] != '/')
			continue;
		rc = put_over(o, f->path + 1, f->link ? "" : f->text, f->link ? 0 : f->len);
	}
out:
	memfs_free(&rec);
	uncore_close(u);
	return rc;
}
