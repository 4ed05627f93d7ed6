/*
 * The files the device features read (dev_files.h): a simulated machine's files or a replayed node's are the
 * backend's one tree (access_files), made once, the first time they are read, and kept until uncore_close.
 * Nothing in them goes stale: the machine's PCI tree is fixed when the handle opens (its devices, faults and
 * stack map are options of the backend; a replayed node's is its snapshot's) or made again when the node
 * changes (access_files_refresh), and the devices' counter files are made at each read (sim_devcount.c,
 * memfs_put_gen), from the simulated clock of that read.
 */
#include <string.h>
#include "dev_files.h"
#include "handle/handle.h"
#include "access/access.h"
#include "util/error.h"

int dev_fs_sim(uncore_t *u, struct dev_fs *fs)
{
	memset(fs, 0, sizeof(*fs));
	return access_files(u->acc, &fs->mem);
}

int dev_fs_of(uncore_t *u, struct dev_fs *fs)
{
	if (dev_fs_sim(u, fs))
		return -1;
	/* a snapshot taken before snapshots kept the PCI tree: said, not taken for a node without devices */
	const char *why = dev_fs_unknown(fs, "/sys/bus/pci/devices");
	return why ? uc_err("%s", why) : 0;
}
