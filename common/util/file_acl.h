/*
 * A file's POSIX access ACL (acl(5)): the users and groups it names beside the owner, the owning group and every
 * user.  Read from the system.posix_acl_access attribute as Linux stores it (linux/posix_acl_xattr.h), without
 * libacl, so that trusted_path.c needs no library.  With such an ACL the mode's group bits are its mask, not
 * the owning group's entry, and every named entry and the owning group's are limited by that mask.
 */
#ifndef UNCORE_FILE_ACL_H
#define UNCORE_FILE_ACL_H

#include <stdint.h>

#define UC_ACL_MAX 128 /* entries read; an ACL with more is taken as naming someone who may do anything */
enum { UC_ACL_USER_OBJ = 0x01, UC_ACL_USER = 0x02, UC_ACL_GROUP_OBJ = 0x04, UC_ACL_GROUP = 0x08, UC_ACL_MASK = 0x10,
       UC_ACL_OTHER = 0x20 };

struct uc_acl_entry {
	unsigned tag, perm; /* perm: 4 read, 2 write, 1 search, as in the mode */
	uint32_t id;        /* a named user's uid or group's gid */
};
struct uc_acl {
	int extended; /* it names a user or a group (or has a mask): the mode alone does not say who may read */
	int too_many; /* more than UC_ACL_MAX entries */
	int n;
	struct uc_acl_entry e[UC_ACL_MAX];
};

/* The access ACL of the open file fd, or of path when fd < 0: 0 (extended 0 where it has none or its file
 * system keeps none), or -1 where it cannot be read or is not one (errno set). */
int uc_acl_read(int fd, const char *path, struct uc_acl *a);
/* Entry i's permissions after the mask (the owner's and every user's entries are not masked). */
unsigned uc_acl_perm(const struct uc_acl *a, int i);
/* Whether an entry of tag (UC_ACL_USER, UC_ACL_GROUP) names id with every bit of perm after the mask. */
int uc_acl_grants(const struct uc_acl *a, unsigned tag, uint32_t id, unsigned perm);

#endif
