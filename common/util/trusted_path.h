/*
 * Whether another user can steer a path: a directory on the way, or the file itself, that someone other
 * than root or this user may change.  The claims file (safe_file.c) and the exporter's TLS key, certificates
 * and web configuration go through the same rule.  Nothing here depends on the rest of the library but
 * guarded_read.c, so that a program builds both in; the reasons come back as text for the caller's message.
 */
#ifndef UNCORE_TRUSTED_PATH_H
#define UNCORE_TRUSTED_PATH_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* A file or directory root, or this process's effective user, owns. */
int uc_owner_trusted(uid_t uid);

/* Whether a directory (st, from stat) lets no one else change what it holds: owned by root or this user, and
 * not writable by every user (with group_too: nor by its group) unless its sticky bit is set.  0, or -1 with
 * the reason in why: "belongs to user 1000 (only root's or your own are trusted)", "is writable by every
 * user (mode 0777) without the sticky bit", "is writable by its group 100 (mode 0775) without the sticky bit". */
int uc_dir_trusted(const struct stat *st, int group_too, char *why, size_t n);

/* Who besides the owner may read a file reached through trusted directories. */
struct uc_readers {
	int every;   /* every user: the file o+r and each directory of its real path o+x */
	int group;   /* its group's members: the file g+r (with an ACL: its group entry, masked), each directory
		      * o+x or of that group and g+x */
	gid_t gid;
	/* a user (not root nor this one) or a group (not one of this process's) its ACL names may read it, and
	 * pass each directory (o+x, its owner or group with x, or named in its ACL with x): the first such, or
	 * -1 where the ACL has too many entries to be read (file_acl.h) */
	int acl_user, acl_group;
	long long acl_uid, acl_gid;
};

/* Is gid this process's group, or one of its supplementary groups? */
int uc_my_group(gid_t gid);

/* path resolved with every directory on the way (and, for a symbolic link, the directory it lies in) checked
 * with uc_dir_trusted(group_too = 1), a symbolic link followed only when root or this user owns it (at most 40),
 * and the file opened read-only, close-on-exec and without blocking (a FIFO cannot stall it), refused unless a
 * regular file of at most max bytes (0: any) that root or this user owns and that neither its group nor every
 * user may write.  The descriptor, with the file's st and readers (either may be NULL); or -1 with the reason
 * in why ("directory /srv/tls is writable by every user (mode 0777) without the sticky bit", "it may be
 * written by its group 100 (mode 0664)", ...). */
int uc_open_trusted(const char *path, off_t max, struct stat *st, struct uc_readers *readers, char *why, size_t n);

/* The directory dir resolved as above (every directory on its way, itself included, trusted) into out, its
 * real path without symbolic links: 0, or -1 with the reason in why. */
int uc_trusted_dir(const char *dir, char *out, size_t outlen, char *why, size_t n);

/* Whether a directory (st) lets no one else make a name in it: uc_dir_trusted, and writable by neither its
 * group nor every user, sticky or not.  The sticky bit keeps others from removing or renaming what is there,
 * not from making a name that is not there yet: the one a socket is to be bound to, before its bind or after
 * its removal.  0, or -1 with the reason in why: "is writable by every user (mode 1777): sticky or not, another
 * user can make a name there first". */
int uc_dir_private(const struct stat *st, char *why, size_t n);

/* uc_trusted_dir, with dir itself private (uc_dir_private): the directory a name is made in and removed from,
 * which no one else may take in between.  "directory /tmp is writable by every user (mode 1777): ..." */
int uc_private_dir(const char *dir, char *out, size_t outlen, char *why, size_t n);

#endif
