/* uc_acl_read (file_acl.h): the xattr is a 4-byte version (2) and 8-byte entries of a 16-bit tag, 16-bit
 * permissions and a 32-bit id, little-endian (linux/posix_acl_xattr.h). */
#include <errno.h>
#include <string.h>
#include <sys/xattr.h>
#include "file_acl.h"

#define XATTR "system.posix_acl_access"
#define ACL_VERSION 2

static unsigned le16(const unsigned char *p) { return p[0] | (unsigned)p[1] << 8; }
static uint32_t le32(const unsigned char *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

int uc_acl_read(int fd, const char *path, struct uc_acl *a)
{
	unsigned char buf[4 + 8 * UC_ACL_MAX];
	memset(a, 0, sizeof(*a));
	ssize_t n = fd >= 0 ? fgetxattr(fd, XATTR, buf, sizeof(buf)) : getxattr(path, XATTR, buf, sizeof(buf));
	if (n < 0 && (errno == ENODATA || errno == ENOTSUP))
		return 0; /* the mode says it all */
	if (n < 0 && errno == ERANGE) {
		a->extended = a->too_many = 1;
		return 0;
	}
	if (n < 4 || (n - 4) % 8 || le32(buf) != ACL_VERSION) {
		if (n >= 0)
			errno = EINVAL;
		return -1;
	}
	for (const unsigned char *p = buf + 4; p < buf + n; p += 8) {
		struct uc_acl_entry *e = &a->e[a->n++];
		e->tag = le16(p);
		e->perm = le16(p + 2) & 7;
		e->id = le32(p + 4);
		a->extended |= e->tag == UC_ACL_USER || e->tag == UC_ACL_GROUP || e->tag == UC_ACL_MASK;
	}
	return 0;
}

unsigned uc_acl_perm(const struct uc_acl *a, int i)
{
	unsigned tag = a->e[i].tag, perm = a->e[i].perm;
	if (tag != UC_ACL_USER && tag != UC_ACL_GROUP && tag != UC_ACL_GROUP_OBJ)
		return perm;
	for (int k = 0; k < a->n; k++)
		if (a->e[k].tag == UC_ACL_MASK)
			perm &= a->e[k].perm;
	return perm;
}

int uc_acl_grants(const struct uc_acl *a, unsigned tag, uint32_t id, unsigned perm)
{
	if (a->too_many)
		return 1;
	for (int i = 0; i < a->n; i++)
		if (a->e[i].tag == tag && a->e[i].id == id && (uc_acl_perm(a, i) & perm) == perm)
			return 1;
	return 0;
}
