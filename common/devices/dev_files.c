/*
 * The files the device map reads, kept on the handle (dev_map.h dev_fs_of): a simulated machine's files or a
 * replayed node's (the backend's one tree, access_files) are made once, the first time they are read, and
 * kept until uncore_close.
 * Nothing in them goes stale: the machine's PCI tree is fixed when the handle opens (its devices, faults and
 * stack map are options of the backend; a replayed node's is its snapshot's), and the devices' counter files
 * are made at each read (sim_devcount.c, memfs_put_gen), from the simulated clock of that read.
 */
#include <stdio.h>
#include <string.h>
#include "dev_map.h"
#include "handle/handle.h"
#include "access/access.h"
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
	if (dev_fs_sim(u, fs))
		return -1;
	/* a snapshot taken before snapshots kept the PCI tree: said, not taken for a node without devices */
	const char *why = dev_fs_unknown(fs, "/sys/bus/pci/devices");
	return why ? uc_err("%s", why) : 0;
}

void dev_files_free(struct dev_files *f)
{
	memset(f, 0, sizeof(*f));
}
