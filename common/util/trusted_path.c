/* uc_open_trusted, uc_trusted_dir, uc_private_dir (trusted_path.h): a path resolved one component at a time
 * from "/", each directory checked before anything in it is looked at, so that once checked no one else can
 * swap what it holds; the file then opened by its real path with O_NOFOLLOW and found to be the one looked at. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "file_acl.h"
#include "guarded_read.h"
#include "trusted_path.h"

#define MAX_LINKS 40 /* as the kernel's path walk (MAXSYMLINKS) */

int uc_owner_trusted(uid_t uid) { return uid == 0 || uid == geteuid(); }

int uc_dir_trusted(const struct stat *st, int group_too, char *why, size_t n)
{
	unsigned mode = (unsigned)(st->st_mode & 07777);
	if (!uc_owner_trusted(st->st_uid))
		snprintf(why, n, "belongs to user %u (only root's or your own are trusted)", (unsigned)st->st_uid);
	else if ((st->st_mode & S_IWOTH) && !(st->st_mode & S_ISVTX))
		snprintf(why, n, "is writable by every user (mode %04o) without the sticky bit", mode);
	else if (group_too && (st->st_mode & S_IWGRP) && !(st->st_mode & S_ISVTX))
		snprintf(why, n, "is writable by its group %u (mode %04o) without the sticky bit", (unsigned)st->st_gid, mode);
	else
		return 0;
	return -1;
}

/* path resolved into out (its real path), every directory trusted, links followed as the header says; the last
 * component's lstat in *last.  want_dir: the last component must be a directory, else it must not be one. */
static int walk(const char *path, int want_dir, char *out, size_t outlen, struct stat *last, char *why, size_t n)
{
	char pending[PATH_MAX], next[PATH_MAX], link[PATH_MAX], res[PATH_MAX] = "", cand[PATH_MAX], reason[192];
	int links = 0;
	struct stat st;
	if (!path || !path[0])
		return snprintf(why, n, "no file named"), -1;
	if (path[0] == '/') {
		if (snprintf(pending, sizeof(pending), "%s", path) >= (int)sizeof(pending))
			return snprintf(why, n, "the path is longer than %d characters", PATH_MAX - 1), -1;
	} else { /* relative: from the working directory, whose own directories are checked as well */
		char cwd[PATH_MAX];
		if (!getcwd(cwd, sizeof(cwd)) || snprintf(pending, sizeof(pending), "%s/%s", cwd, path) >= (int)sizeof(pending))
			return snprintf(why, n, "the path is longer than %d characters", PATH_MAX - 1), -1;
	}
	if (stat("/", &st))
		return snprintf(why, n, "/: %s", strerror(errno)), -1;
	if (uc_dir_trusted(&st, 1, reason, sizeof(reason)))
		return snprintf(why, n, "directory / %s", reason), -1;
	*last = st;
	char *p = pending;
	for (;;) {
		p += strspn(p, "/");
		if (!*p)
			break;
		size_t k = strcspn(p, "/");
		char comp[NAME_MAX + 1];
		if (k > NAME_MAX)
			return snprintf(why, n, "a name longer than %d characters", NAME_MAX), -1;
		memcpy(comp, p, k);
		comp[k] = 0;
		p += k;
		int final = !p[strspn(p, "/")];
		if (!strcmp(comp, "."))
			continue;
		if (!strcmp(comp, "..")) { /* the parent was checked on the way here */
			char *s = strrchr(res, '/');
			if (s)
				*s = 0;
			if (stat(res[0] ? res : "/", last))
				return snprintf(why, n, "%s: %s", res[0] ? res : "/", strerror(errno)), -1;
			continue;
		}
		if (snprintf(cand, sizeof(cand), "%s/%s", res, comp) >= (int)sizeof(cand))
			return snprintf(why, n, "the path is longer than %d characters", PATH_MAX - 1), -1;
		if (lstat(cand, &st)) /* the file named: its reason alone, as open(2) would give it */
			return final ? snprintf(why, n, "%s", strerror(errno)) : snprintf(why, n, "%s: %s", cand, strerror(errno)), -1;
		if (S_ISLNK(st.st_mode)) {
			if (!uc_owner_trusted(st.st_uid))
				return snprintf(why, n, "%s is a symbolic link of user %u (only root's or your own are followed)", cand,
						(unsigned)st.st_uid), -1;
			if (++links > MAX_LINKS)
				return snprintf(why, n, "more than %d symbolic links on the way", MAX_LINKS), -1;
			ssize_t m = readlink(cand, link, sizeof(link) - 1);
			if (m <= 0)
				return snprintf(why, n, "%s: %s", cand, m < 0 ? strerror(errno) : "an empty symbolic link"), -1;
			link[m] = 0;
			if (snprintf(next, sizeof(next), "%s/%s", link, p) >= (int)sizeof(next))
				return snprintf(why, n, "the path is longer than %d characters", PATH_MAX - 1), -1;
			strcpy(pending, next);
			p = pending;
			if (link[0] == '/')
				res[0] = 0;
			continue;
		}
		strcpy(res, cand);
		*last = st;
		if (S_ISDIR(st.st_mode)) {
			if (uc_dir_trusted(&st, 1, reason, sizeof(reason)))
				return snprintf(why, n, "directory %s %s", res, reason), -1;
		} else if (!final) {
			return snprintf(why, n, "%s is not a directory", res), -1;
		}
	}
	if (!res[0])
		strcpy(res, "/");
	if (want_dir != !!S_ISDIR(last->st_mode))
		return snprintf(why, n, "%s is %s", res, want_dir ? "not a directory" : "a directory"), -1;
	if (snprintf(out, outlen, "%s", res) >= (int)outlen)
		return snprintf(why, n, "the path is longer than %zu characters", outlen - 1), -1;
	return 0;
}

int uc_trusted_dir(const char *dir, char *out, size_t outlen, char *why, size_t n)
{
	struct stat st;
	return walk(dir, 1, out, outlen, &st, why, n);
}

int uc_dir_private(const struct stat *st, char *why, size_t n)
{
	unsigned mode = (unsigned)(st->st_mode & 07777);
	if (uc_dir_trusted(st, 1, why, n))
		return -1;
	if (st->st_mode & S_IWOTH)
		snprintf(why, n, "is writable by every user (mode %04o): sticky or not, another user can make a name there first",
			 mode);
	else if (st->st_mode & S_IWGRP)
		snprintf(why, n, "is writable by its group %u (mode %04o): sticky or not, a member can make a name there first",
			 (unsigned)st->st_gid, mode);
	else
		return 0;
	return -1;
}

int uc_private_dir(const char *dir, char *out, size_t outlen, char *why, size_t n)
{
	struct stat st;
	char reason[192];
	if (walk(dir, 1, out, outlen, &st, why, n))
		return -1;
	if (uc_dir_private(&st, reason, sizeof(reason)))
		return snprintf(why, n, "directory %s %s", out, reason), -1;
	return 0;
}

int uc_my_group(gid_t gid)
{
	gid_t g[256];
	int n = getgroups(256, g);
	if (gid == getegid())
		return 1;
	for (int i = 0; i < n; i++)
		if (g[i] == gid)
			return 1;
	return 0;
}

/* can the user or group (tag UC_ACL_USER or UC_ACL_GROUP) id search every directory of real path res? */
static int reaches(const char *res, unsigned tag, uint32_t id)
{
	char pre[PATH_MAX];
	struct stat d;
	struct uc_acl a;
	for (const char *s = res; (s = strchr(s, '/')); s++) {
		size_t k = (size_t)(s - res);
		memcpy(pre, res, k);
		pre[k] = 0;
		if (stat(k ? pre : "/", &d))
			return 0;
		if ((d.st_mode & S_IXOTH) || (tag == UC_ACL_USER && d.st_uid == id && (d.st_mode & S_IXUSR)) ||
		    (tag == UC_ACL_GROUP && d.st_gid == id && (d.st_mode & S_IXGRP)))
			continue;
		if (uc_acl_read(-1, k ? pre : "/", &a) || !uc_acl_grants(&a, tag, id, 1))
			return 0;
	}
	return 1;
}

/* the users and groups the ACL a names who may read the file at real path res (readers.acl_*) */
static void acl_readers(const struct uc_acl *a, const char *res, struct uc_readers *r)
{
	if (a->too_many) {
		r->acl_user = r->acl_group = 1;
		r->acl_uid = r->acl_gid = -1;
		return;
	}
	for (int i = 0; i < a->n; i++) {
		const struct uc_acl_entry *e = &a->e[i];
		if (!(uc_acl_perm(a, i) & 4))
			continue;
		if (e->tag == UC_ACL_USER && !r->acl_user && !uc_owner_trusted(e->id) && reaches(res, e->tag, e->id)) {
			r->acl_user = 1;
			r->acl_uid = e->id;
		} else if (e->tag == UC_ACL_GROUP && !r->acl_group && !uc_my_group(e->id) && reaches(res, e->tag, e->id)) {
			r->acl_group = 1;
			r->acl_gid = e->id;
		}
	}
}

/* who may read the file fd at real path res (its stat st): the directories of res looked at one by one */
static void readers_of(int fd, const char *res, const struct stat *st, struct uc_readers *r)
{
	char pre[PATH_MAX];
	struct stat d;
	struct uc_acl a;
	memset(r, 0, sizeof(*r));
	r->gid = st->st_gid;
	r->every = !!(st->st_mode & S_IROTH);
	r->group = !!(st->st_mode & S_IRGRP);
	if (uc_acl_read(fd, NULL, &a)) { /* unreadable: as if it named a reader */
		a.extended = a.too_many = 1;
	}
	if (a.extended) {
		r->group = 0; /* the mode's group bits are the mask: the group's own entry says */
		for (int i = 0; i < a.n; i++)
			r->group |= a.e[i].tag == UC_ACL_GROUP_OBJ && (uc_acl_perm(&a, i) & 4);
		r->group |= a.too_many;
		acl_readers(&a, res, r);
	}
	for (const char *s = res; (s = strchr(s, '/')) && (r->every || r->group); s++) {
		size_t k = (size_t)(s - res);
		memcpy(pre, res, k);
		pre[k] = 0;
		if (stat(k ? pre : "/", &d)) {
			r->every = r->group = 0;
			break;
		}
		r->every &= !!(d.st_mode & S_IXOTH);
		r->group &= (d.st_mode & S_IXOTH) || (d.st_gid == st->st_gid && (d.st_mode & S_IXGRP));
	}
}

/* does the open file's ACL name a user or a group (whose rights the mode's group bits then bound)? */
static int named_in_acl(int fd)
{
	struct uc_acl a;
	if (uc_acl_read(fd, NULL, &a))
		return 0;
	for (int i = 0; i < a.n; i++)
		if (a.e[i].tag == UC_ACL_USER || a.e[i].tag == UC_ACL_GROUP)
			return 1;
	return a.too_many;
}

int uc_open_trusted(const char *path, off_t max, struct stat *stp, struct uc_readers *readers, char *why, size_t n)
{
	char res[PATH_MAX];
	struct stat seen, st;
	if (walk(path, 0, res, sizeof(res), &seen, why, n))
		return -1;
	int fd = open(res, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), fl;
	if (fd < 0)
		return snprintf(why, n, "%s", strerror(errno)), -1;
	unsigned mode = 0;
	if (fstat(fd, &st) || st.st_dev != seen.st_dev || st.st_ino != seen.st_ino)
		snprintf(why, n, "it changed while it was opened");
	else if (!S_ISREG(st.st_mode))
		snprintf(why, n, "it is %s, not a regular file", uc_file_kind(st.st_mode));
	else if (max > 0 && st.st_size > max)
		snprintf(why, n, "it is %lld bytes, more than %lld", (long long)st.st_size, (long long)max);
	else if (!uc_owner_trusted(st.st_uid))
		snprintf(why, n, "it belongs to user %u (only root's or your own are trusted)", (unsigned)st.st_uid);
	else if ((mode = (unsigned)(st.st_mode & 07777)) & S_IWOTH)
		snprintf(why, n, "it may be written by every user (mode %04o)", mode);
	else if ((mode & S_IWGRP) && named_in_acl(fd))
		snprintf(why, n, "it may be written by a user or group its ACL names (mode %04o, whose group bits are the "
			 "ACL's mask: getfacl shows whom)", mode);
	else if (mode & S_IWGRP)
		snprintf(why, n, "it may be written by its group %u (mode %04o)", (unsigned)st.st_gid, mode);
	else if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		snprintf(why, n, "%s", strerror(errno));
	else {
		if (stp)
			*stp = st;
		if (readers)
			readers_of(fd, res, &st, readers);
		return fd;
	}
	close(fd);
	return -1;
}
