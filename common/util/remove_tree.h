/* Removing a directory and what is in it, never following a symbolic link (remove_tree.c). */
#ifndef UNCORE_REMOVE_TREE_H
#define UNCORE_REMOVE_TREE_H

/* Remove dir and everything in it; a symbolic link in it is removed, never followed, and dir itself may
 * not be one.  0, or -1 with "cannot remove DIR: why" in uncore_error(). */
int remove_tree(const char *dir);

#endif
