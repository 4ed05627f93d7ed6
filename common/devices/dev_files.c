/*
 * The files the device map reads, kept on the handle (dev_map.h dev_fs_of): a simulated machine's files (the
 * backend's one tree, access_files) and a replayed snapshot's device tree are made once, the first time they
 * are read, and kept until uncore_close.
 * Nothing in them goes stale: the machine's PCI tree is fixed when the handle opens (its devices, faults and
 * stack map are options of the backend), and the devices' counter files are made at each read
 * (sim_devcount.c, memfs_put_gen), from the simulated clock of that read.
 */
#include <stdio.h>
#include <string.h>
#include "dev_map.h"
#include "handle/handle.h"
#include "access/access.h"
#include "replay/sim_replay.h"
#include "util/error.h"

int dev_fs_sim(uncore_t *u, struct dev_fs *fs)
{
	const struct memfs *mem;
	memset(fs, 0, sizeof(*fs));
	if (access_files(u->acc, &mem))
		return -1;
	struct dev_files *f = mem ? dev_map_files(u) : NULL;
	if (mem && !f)
		return -1;
	if (mem && !f->sim_made) { /* the backend's tree, made once on its access (access_files.c) */
		f->builds++;
		f->sim_made = 1;
	}
	fs->mem = mem;
	return 0;
}

int dev_fs_of(uncore_t *u, struct dev_fs *fs)
{
	const char *dir = replay_dir_of(u->acc);
	struct dev_files *f = dir ? dev_map_files(u) : NULL;
	if (!dir) /* the simulated machine's own sysfs, or this machine's */
		return dev_fs_sim(u, fs);
	memset(fs, 0, sizeof(*fs));
	if (!f)
		return -1;
	if (!f->snap_made) { /* replay: and perf+replay: */
		char p[1024];
		snprintf(p, sizeof(p), "%s/%s", dir, DEV_CAPTURE_MEMBER);
		f->builds++;
		int r = dev_capture_load(p, &f->snap);
		if (r) {
			memfs_free(&f->snap);
			return r == -1 ? -1 : uc_err("this snapshot keeps no PCI device tree (%s: taken by a version "
							      "before snapshots kept it): take a new snapshot of the node, or "
							      "map the node itself", DEV_CAPTURE_MEMBER);
		}
		f->snap_made = 1;
	}
	fs->mem = &f->snap;
	fs->replay = 1;
	return 0;
}

void dev_files_free(struct dev_files *f)
{
	memfs_free(&f->snap);
	memset(f, 0, sizeof(*f));
}
