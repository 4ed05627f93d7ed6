/* remove_tree.h: a private directory's removal (an archive extracted into it, a replay's), links unfollowed. */
#define _POSIX_C_SOURCE 200809L /* openat, unlinkat, fdopendir, O_NOFOLLOW, O_CLOEXEC */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "remove_tree.h"
#include "error.h"

/* Empty the directory open at fd (closed here): a subdirectory is emptied, then removed; anything else,
 * a symbolic link included, is unlinked, never followed. */
static int empty_dir(int fd, const char *top)
{
	DIR *d = fdopendir(fd);
	int rc = 0;
	if (!d) {
		int e = errno;
		close(fd);
		return uc_err("cannot remove %s: %s", top, strerror(e));
	}
	while (!rc) {
		struct stat st;
		struct dirent *de;
		errno = 0;
		if (!(de = readdir(d))) {
			if (errno)
				rc = uc_err("cannot remove %s: %s", top, strerror(errno));
			break;
		}
		const char *n = de->d_name;
		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (fstatat(dirfd(d), n, &st, AT_SYMLINK_NOFOLLOW))
			rc = -1;
		else if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(d), n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0 || empty_dir(sub, top))
				rc = sub < 0 ? -1 : -2; /* -2: the message is set */
			else if (unlinkat(dirfd(d), n, AT_REMOVEDIR))
				rc = -1;
		} else if (unlinkat(dirfd(d), n, 0))
			rc = -1;
		if (rc == -1)
			rc = uc_err("cannot remove %s: '%s': %s", top, n, strerror(errno));
	}
	closedir(d);
	return rc ? -1 : 0;
}

int remove_tree(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return uc_err("cannot remove %s: %s", dir,
			      errno == ELOOP || errno == ENOTDIR ? "a symbolic link or not a directory (refused)" : strerror(errno));
	if (empty_dir(fd, dir))
		return -1;
	if (rmdir(dir))
		return uc_err("cannot remove %s: %s", dir, strerror(errno));
	return 0;
}
