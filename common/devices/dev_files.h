/* The files the device features read for a handle (dev_files.c). */
#ifndef UNCORE_DEV_FILES_H
#define UNCORE_DEV_FILES_H

#include "uncore.h"
#include "dev_fs.h"

/* The files to read the devices from: the machine's (fs->mem NULL), or the backend's one tree (a simulated
 * machine's, a replayed node's: access_files, made once on the access and kept): 0, or -1 with the message (a
 * snapshot taken before snapshots kept the PCI tree, out of memory). */
int dev_fs_of(uncore_t *u, struct dev_fs *fs);
/* ... without asking for the PCI tree (the jobs' spool and GPUs); fs->mem NULL where the handle is not
 * simulated. */
int dev_fs_sim(uncore_t *u, struct dev_fs *fs);

#endif
