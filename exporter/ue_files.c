/*
 * The exporter's own files (--config, --web.config.file, its certificates and key) read whole through the rule
 * the claims file and the jobs spool are read by (trusted_path.h): refused where another user could change
 * them, and warned of where another user may read them: every user, a group the exporter is not of, or a user
 * or group the file's ACL names.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "ue.h"

#define MAX_FILE ((size_t)1 << 20) /* a certificate chain or a config file is kilobytes */

/* the whole file, NUL-terminated; NULL with the reason in err.  Opened without blocking and refused unless a
 * regular file of at most 1 MiB: a FIFO or a device put there must not stall the start or a reload (SIGHUP);
 * and refused where another user could change it or a directory on its way (trusted_path.h): a certificate,
 * key, password hash or option swapped by a user would be the exporter's */
char *ue_read_small(const char *what, const char *path, size_t *n, struct ue_exposure *x, char *err, size_t len)
{
	struct stat st;
	struct uc_readers r;
	char why[PATH_MAX + 160];
	int fd = uc_open_trusted(path, (off_t)MAX_FILE, &st, &r, why, sizeof(why));
	if (fd < 0) {
		ue_fail(err, len, "%s %s: %s", what, path, why);
		return NULL;
	}
	if (x) {
		x->readers = r;
		x->mode = (unsigned)(st.st_mode & 07777);
	}
	char *buf = malloc(MAX_FILE + 1);
	size_t got = 0;
	ssize_t k = 1;
	while (buf && got <= MAX_FILE && (k = read(fd, buf + got, MAX_FILE + 1 - got)) > 0)
		got += (size_t)k;
	close(fd);
	if (!buf || k < 0 || got > MAX_FILE) {
		if (!buf)
			ue_fail(err, len, "out of memory");
		else
			ue_fail(err, len, "%s %s: %s", what, path, k < 0 ? "cannot be read" : "larger than 1 MiB");
		free(buf);
		return NULL;
	}
	buf[got] = 0;
	if (n)
		*n = got;
	return buf;
}

/* A group of the exporter's own is how a key is given to a service (Debian's ssl-cert, Kubernetes' fsGroup): not
 * warned of; another group's members are other users, and so is whoever the file's ACL names. */
void ue_warn_exposed(const char *what, const char *path, const struct ue_exposure *x, const char *holds)
{
	const struct uc_readers *r = &x->readers;
	if (r->every)
		fprintf(stderr, "uncore-exporter: warning: %s %s may be read by every user (mode %04o), and it holds %s: "
			"chmod o-r it\n", what, path, x->mode, holds);
	else if (r->group && !uc_my_group(r->gid))
		fprintf(stderr, "uncore-exporter: warning: %s %s may be read by the members of its group %u (mode %04o), "
			"and it holds %s: chmod g-r it unless they are to\n", what, path, (unsigned)r->gid, x->mode, holds);
	else if (r->acl_user && r->acl_uid < 0)
		fprintf(stderr, "uncore-exporter: warning: %s %s has an ACL of more entries than are read here, which may let "
			"other users read it, and it holds %s: setfacl -b it\n", what, path, holds);
	else if (r->acl_user)
		fprintf(stderr, "uncore-exporter: warning: %s %s may be read by user %lld, whom its ACL names (getfacl), and "
			"it holds %s: setfacl -x u:%lld it unless they are to\n", what, path, r->acl_uid, holds, r->acl_uid);
	else if (r->acl_group)
		fprintf(stderr, "uncore-exporter: warning: %s %s may be read by the members of group %lld, which its ACL "
			"names (getfacl), and it holds %s: setfacl -x g:%lld it unless they are to\n", what, path, r->acl_gid,
			holds, r->acl_gid);
}
