/*
 * The kernel's NUMA topology as the map reads it (numa_topo.c), kept for a snapshot (doc/snapshot.md) and read
 * back from a replayed node's files: each node's cpulist and distance, its memory blocks (kept as empty files
 * named as the kernel's nodeX/memoryY links: the map counts their names), the block size, each socket's L3
 * list.  A replay of a node then maps its nodes as the node did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "numa.h"
#include "handle/handle.h"
#include "access/access.h"
#include "util/error.h"

struct blocks {
	struct memfs *rec;
	int n;
	const char *dir;
	int failed;
};

static void keep_block(void *arg, const char *name)
{
	struct blocks *b = arg;
	char path[160];
	int id, len = 0;
	if (sscanf(name, "memory%d%n", &id, &len) != 1 || name[len])
		return;
	snprintf(path, sizeof(path), "%s/%s", b->dir, name);
	b->failed |= memfs_put(b->rec, path, "", 0);
}

int numa_capture(uncore_t *u, struct memfs *rec)
{
	struct dev_fs fs = { .rec = rec };
	struct numa_topo *t = malloc(sizeof(*t));
	int rc = -1;
	if (!t)
		return uc_err("out of memory");
	if (access_files(u->acc, &fs.mem)) /* a simulated machine: its kernel's files */
		goto out;
	if (numa_topo_read(&fs, &u->host, t))
		goto out;
	rc = 0;
	for (int n = 0; n < t->n && !rc; n++) {
		char dir[96];
		struct blocks b = { rec, 0, dir, 0 };
		if (!t->node[n].present)
			continue;
		snprintf(dir, sizeof(dir), "/sys/devices/system/node/node%d", n);
		dev_fs_list(&fs, dir, keep_block, &b);
		rc = b.failed || fs.rec_failed ? uc_err("out of memory") : 0;
	}
out:
	free(t);
	return rc;
}
