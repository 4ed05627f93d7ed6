/* safe_open_rw (safe_file.h): walk the path one directory at a time with O_NOFOLLOW, checking each. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "safe_file.h"
#include "error.h"
#include "guarded_read.h"
#include "trusted_path.h"
#include "env.h"

static int check_dir(int fd, const char *path, const char *file)
{
	struct stat st;
	char why[160];
	if (fstat(fd, &st))
		return uc_err("%s: cannot check directory %s: %s", file, path, strerror(errno));
	if (uc_dir_trusted(&st, 0, why, sizeof(why))) /* a group-writable one too for root: claims.c */
		return uc_err("%s: directory %s %s", file, path, why);
	return 0;
}

/* fd, opened O_NONBLOCK, is a regular file: O_NONBLOCK off again. */
static int regular(int fd, struct stat *st)
{
	int fl;
	if (fstat(fd, st) || !S_ISREG(st->st_mode) || (fl = fcntl(fd, F_GETFL)) < 0 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		return -1;
	return 0;
}

/* uc_open_guarded's descriptor as a stream, or NULL with errno and "cannot open PATH: why" in
 * uncore_error(); *refused: the file was opened, then refused for what it is. */
static FILE *open_guarded(const char *path, off_t max, int *refused)
{
	struct stat st;
	char why[128];
	int fd = uc_open_guarded(path, max, &st);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	*refused = 0;
	if (f)
		return f;
	int e = errno;
	if (fd >= 0)
		close(fd);
	*refused = fd < 0 && st.st_mode;
	uc_err("cannot open %s: %s", path, uc_guarded_why(e, &st, max, 0, why, sizeof(why)));
	errno = e;
	return NULL;
}

/* In a process with more privilege than its user (file capabilities; a set-user-ID uncore refuses to run),
 * may the user do mode on path (R_OK, W_OK; create: or make it in its directory)?  access(2) checks the real
 * uid and gid and, for a user other than root, no capabilities: a file the user cannot read is never opened,
 * so no message can quote it.  The documented cap_perfmon grants no file access, so the open could not do
 * more; only a capability that overrides file permissions leaves a window between this check and the
 * open, which a site granting one accepts.  Else 0 with the reason in uncore_error().  faccessat with no flags
 * is access(2) itself. */
static int user_may(const char *path, int mode, int create)
{
	char dir[PATH_MAX];
	if (!uc_env_secure() || !faccessat(AT_FDCWD, path, mode, 0))
		return 1;
	int e = errno;
	if (e == ENOENT && create && strlen(path) < sizeof(dir)) {
		char *slash = strrchr(strcpy(dir, path), '/');
		if (slash)
			slash[slash == dir] = 0; /* "/x" -> "/" */
		if (!faccessat(AT_FDCWD, slash ? dir : ".", W_OK | X_OK, 0))
			return 1;
		e = errno;
	}
	uc_err("cannot open %s: %s", path, strerror(e));
	return 0;
}

FILE *uc_open_input(const char *path)
{
	int refused;
	return user_may(path, R_OK, 0) ? open_guarded(path, 0, &refused) : NULL;
}

FILE *uc_open_sysfile(const char *path, int *refused) { return open_guarded(path, UC_SYSFILE_MAX, refused); }

static int check_file(int fd, const char *path)
{
	struct stat st = { 0 };
	if (regular(fd, &st))
		return S_ISREG(st.st_mode) || !st.st_mode ? uc_err("%s: %s", path, strerror(errno))
							  : uc_err("%s is %s, not a regular file", path, uc_file_kind(st.st_mode));
	if (st.st_nlink != 1)
		return uc_err("%s has %lu hard links (another name could point at a file it must not change)", path,
			      (unsigned long)st.st_nlink);
	if (!uc_owner_trusted(st.st_uid))
		return uc_err("%s belongs to user %u (only root's or your own are trusted)", path, (unsigned)st.st_uid);
	if (st.st_mode & 0007)
		return uc_err("%s may be opened by every user (mode %04o): anyone could hold its lock or rewrite it", path,
			      (unsigned)(st.st_mode & 07777));
	return 0;
}

static int open_error(int err, const char *path)
{
	if (err == ELOOP)
		return uc_err("%s is a symbolic link", path);
	if (err == EISDIR)
		return uc_err("%s is a directory", path);
	return uc_err("%s: %s", path, strerror(err));
}

int safe_open_rw(const char *path, int create, mode_t mode, int mkdir)
{
	char buf[PATH_MAX], sofar[PATH_MAX];
	if (!path || !*path || strlen(path) >= sizeof(buf))
		return uc_err("bad file name '%.100s'", path ? path : "");
	if (!user_may(path, R_OK | W_OK, create)) /* the claims file, shared=FILE: as its user could */
		return -1;
	snprintf(buf, sizeof(buf), "%s", path);
	char *slash = strrchr(buf, '/'), *dir = slash ? buf : NULL, *base = slash ? slash + 1 : buf;
	if (slash)
		*slash = 0;
	if (!*base)
		return uc_err("%s names a directory, not a file", path);
	snprintf(sofar, sizeof(sofar), "%s", path[0] == '/' ? "/" : ".");
	int dfd = open(sofar, O_RDONLY | O_DIRECTORY | O_CLOEXEC), fd;
	if (dfd < 0)
		return uc_err("%s: %s: %s", path, sofar, strerror(errno));
	if (check_dir(dfd, sofar, path))
		goto fail;
	for (char *c = dir, *next; c && *c; c = next) { /* each directory, opened below the last one checked */
		next = strchr(c, '/');
		if (next)
			*next++ = 0;
		if (!*c || !strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			uc_err("%s: '..' in the path is not accepted", path);
			goto fail;
		}
		size_t n = strlen(sofar);
		if (snprintf(sofar + n, sizeof(sofar) - n, "%s%s", sofar[n - 1] == '/' ? "" : "/", c) >= (int)(sizeof(sofar) - n)) {
			uc_err("%.100s: path too long", path);
			goto fail;
		}
		int nfd = openat(dfd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (nfd < 0 && errno == ENOENT && mkdir && !(next && *next)) {
			if (mkdirat(dfd, c, 0755) && errno != EEXIST) {
				uc_err("%s: directory %s does not exist and cannot be made (%s)", path, sofar, strerror(errno));
				goto fail;
			}
			nfd = openat(dfd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		}
		if (nfd < 0) {
			if (errno == ENOENT)
				uc_err("%s: directory %s does not exist", path, sofar);
			else
				uc_err("%s: %s is a symbolic link or not a directory (%s)", path, sofar, strerror(errno));
			goto fail;
		}
		close(dfd);
		dfd = nfd;
		if (check_dir(dfd, sofar, path))
			goto fail;
	}
	fd = openat(dfd, base, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && create) {
		fd = openat(dfd, base, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd < 0 && errno == EEXIST) /* another process made it meanwhile */
			fd = openat(dfd, base, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	}
	if (fd < 0) {
		open_error(errno, path);
		goto fail;
	}
	close(dfd);
	if (check_file(fd, path)) { /* O_NONBLOCK only kept a planted FIFO from blocking the open: cleared */
		close(fd);
		return -1;
	}
	return fd;
fail:
	close(dfd);
	return -1;
}
