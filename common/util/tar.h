/*
 * A small POSIX ustar archive (POSIX.1-2001, pax(1) "ustar Interchange Format"): writing the regular files
 * of a snapshot, and extracting an archive that anyone may have written.  The reader trusts nothing: it
 * extracts regular files and directories only, below one directory, with names from a short character
 * set, within limits the caller sets, never following a symbolic link.
 *
 * Every function returning int returns 0, or -1 with "archive PATH: [member 'NAME': ]why" in
 * uncore_error().
 */
#ifndef UNCORE_TAR_H
#define UNCORE_TAR_H

#include <stddef.h>

struct tar_writer;

/* Create the archive path (mode 0600; an existing file or a symbolic link there is refused). */
int tar_create(struct tar_writer **w, const char *path);
/* Add a regular file (mode 0644, root:root, mtime 0, so that equal inputs give equal archives).  The
 * name obeys the reader's rules (tar_extract) and has at most 255 characters; one longer than 100 must
 * split at a '/' into at most 155 + 100.  Directories are implicit.  A refused name leaves the archive
 * as it was; a failed write leaves it broken, and tar_finish then fails. */
int tar_add(struct tar_writer *w, const char *name, const void *data, size_t len);
/* Write the end of the archive, fsync and close it, and free w.  On an error the partial file is removed
 * (and w freed all the same). */
int tar_finish(struct tar_writer *w);
/* Close, remove the partial file, free w (NULL is allowed). */
void tar_abort(struct tar_writer *w);

struct tar_limits {
	size_t max_member; /* bytes in one member */
	size_t max_total;  /* bytes in all members */
	int max_members;   /* members, directories included */
	/* called after each member is extracted with the count so far (NULL: not called) */
	void (*each)(void *arg, int members);
	void *arg;
};

/* Extract every member of archive into dir, an existing, empty directory private to the caller (made
 * with mkdtemp).  Refused: anything but regular files ('0', '\0') and directories ('5'); a name that is
 * empty, absolute, longer than 255, has a '.', '..' or empty component, a character outside
 * [A-Za-z0-9._:,+=@-] and '/', or is a member's name again; a bad checksum or size field; limits
 * exceeded (a member over max_member is refused from its header, before its data is read); a truncated
 * archive.  On an error, what was extracted stays: the caller removes dir (tar_remove_tree). */
int tar_extract(const char *archive, const char *dir, const struct tar_limits *lim);

/* Remove dir and everything in it, never following a symbolic link. */
int tar_remove_tree(const char *dir);

#endif
