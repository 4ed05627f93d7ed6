/*
 * The snapshot's archive through libarchive: writing a POSIX ustar archive of regular files, plain or
 * gzip-compressed, and extracting an archive that anyone may have written.  libarchive parses the tar
 * (ustar, pax and GNU headers, their checksums) and the gzip stream; this file decides what of it may be
 * written: regular files and directories only, below one directory, with names from a short character
 * set, within limits the caller sets, never following a symbolic link.
 *
 * Every function returning int returns 0, or -1 with "archive PATH: [member 'NAME': ]why" in
 * uncore_error().
 */
#ifndef UNCORE_TARBALL_H
#define UNCORE_TARBALL_H

#include <stddef.h>

struct tarball_writer;

/* Create the archive path (mode 0600; an existing file or a symbolic link there is refused): gzip when
 * path ends in ".gz" or ".tgz" (FILE.tar.gz), else a plain tar. */
int tarball_create(struct tarball_writer **w, const char *path);
/* Add a regular file (mode 0644, root:root, mtime 0, and no time in the gzip header, so that equal inputs
 * give equal archives).  The name obeys the reader's rules (tarball_extract) and fits a ustar header (at
 * most 255 characters; one longer than 100 splits at a '/' into at most 155 + 100).  Directories are
 * implicit.  A refused name leaves the archive as it was; a failed write leaves it broken, and
 * tarball_finish then fails. */
int tarball_add(struct tarball_writer *w, const char *name, const void *data, size_t len);
/* Write the end of the archive, fsync and close it, and free w.  On an error the partial file is removed
 * (and w freed all the same). */
int tarball_finish(struct tarball_writer *w);
/* Close, remove the partial file, free w (NULL is allowed). */
void tarball_abort(struct tarball_writer *w);

struct tarball_limits {
	size_t max_member; /* bytes in one member */
	size_t max_total;  /* bytes in all members, as unpacked (a gzip bomb stops here) */
	int max_members;   /* members, directories included */
	/* called after each member is extracted with the count so far (NULL: not called) */
	void (*each)(void *arg, int members);
	void *arg;
};

/* Extract every member of archive (a tar, plain or gzip) into dir, an existing, empty directory private to
 * the caller (made with mkdtemp).  Refused: anything but regular files and directories (links, devices,
 * FIFOs, sparse files); a name that is empty, absolute, longer than 255, has a '.', '..' or empty
 * component, or a character outside [A-Za-z0-9._:,+=@-] and '/'; a member made already; limits exceeded
 * (a member over max_member is refused from its header, before its data is read); a damaged header,
 * gzip stream or size; an archive that ends before its two zero blocks.  On an error, what was extracted
 * stays: the caller removes dir (remove_tree). */
int tarball_extract(const char *archive, const char *dir, const struct tarball_limits *lim);
/* A member as tarball_read hands it over: its name (a directory's without its '/'), its bytes (NULL for a
 * directory, dir 1).  0, or -1 with the reason (a member the taker refuses: a name given twice). */
typedef int (*tarball_take_fn)(void *arg, const char *name, const void *data, size_t len, int dir);
/* The same members under the same checks and limits, each read into memory (at most max_member bytes at a
 * time) and handed to take instead of written: nothing is written anywhere.  On an error what was taken
 * stays the taker's. */
int tarball_read(const char *archive, const struct tarball_limits *lim, tarball_take_fn take, void *arg);

#endif
