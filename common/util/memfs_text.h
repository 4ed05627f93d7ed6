/* A tree of files as text and back (memfs_text.c): the form of a snapshot's device tree. */
#ifndef UNCORE_MEMFS_TEXT_H
#define UNCORE_MEMFS_TEXT_H

#include <stddef.h>
#include "memfs.h"

/* The member of a snapshot that holds the device map's files in this form (doc/snapshot.md) */
#define SNAP_DEVICE_TREE "devices/tree.txt"

/* The files m holds as text (malloc'd): 0, or -1 out of memory (said). */
int memfs_text(const struct memfs *m, char **text, size_t *len);
/* Such a text, len bytes of it (name: its file's, in messages), read back into m: 0, or -1 with a message naming
 * its line. */
int memfs_text_parse(const char *name, const char *text, size_t len, struct memfs *m);

#endif
