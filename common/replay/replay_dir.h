/* The replay's private directory, and the leftovers of dead processes' (replay_dir.c). */
#ifndef UNCORE_REPLAY_DIR_H
#define UNCORE_REPLAY_DIR_H

#include <stddef.h>

/* Make a new directory of this process's in $TMPDIR (else /tmp), first removing the leftovers of this
 * user's dead processes there; its path in dir (len bytes), the descriptor holding its lock in *lock
 * (-1: the file system has no locks).  0, or -1 with the reason (dir empty). */
int replay_dir_make(char *dir, size_t len, int *lock);
/* Remove dir (nothing when empty) and everything in it, then release its lock. */
void replay_dir_remove(char *dir, int *lock);

#endif
