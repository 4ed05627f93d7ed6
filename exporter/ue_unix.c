/*
 * --listen unix:PATH: a socket whose file decides who may connect (mode 0660: the exporter's user and group),
 * so that a scraper on the same host has a way in no other local user can take (on loopback any user binds
 * any of 127.0.0.0/8, which is one client of --max-connections-per-ip: doc/safety.md).
 * Made without letting another user steer it: every directory on the way must be one only root or the
 * exporter's user may change (trusted_path.h), so nothing can be swapped under the path between the look and
 * the bind, and the socket's own directory one no one else may write even with the sticky bit (/tmp): there
 * another user binds the name while it is free (after the exporter's exit, or a stale socket's removal) and the
 * scraper, which connects by path, reads that user's numbers; what is already there is removed only when it is a socket of root or this user that no process
 * listens on any more (an exporter killed before it could remove it), never a link or a file; the mode is set
 * before listen(2), so no one connects through a wider one; and at the end the socket is removed if it is
 * still the one this process made.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include "ue.h"
#include "util/guarded_read.h"

#define UE_UNIX_MODE 0660
#define BACKLOG 128

struct ue_unix {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	dev_t dev;
	ino_t ino;
};

/* is anyone listening on the socket at a? */
static int listened(const struct sockaddr_un *a)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	int rc = connect(s, (const struct sockaddr *)a, sizeof(*a)) == 0 ? 1 : errno == ECONNREFUSED ? 0 : -1;
	close(s);
	return rc;
}

int ue_unix_listen(const char *path, struct ue_unix **out, char *err, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX], why[PATH_MAX + 160];
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct stat st;
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	*out = NULL;
	if (path[0] != '/' || !base[0] || !strcmp(base, ".") || !strcmp(base, ".."))
		return ue_fail(err, len, "--listen unix:%s: give the socket's absolute path, e.g. unix:/run/uncore-exporter/metrics.sock", path);
	snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (uc_private_dir(dir, real, sizeof(real), why, sizeof(why)))
		return ue_fail(err, len, "--listen unix:%s: %s; give the socket a directory of its own that only root or the "
			       "exporter's user may write (the unit's RuntimeDirectory=: /run/uncore-exporter)", path, why);
	if (snprintf(a.sun_path, sizeof(a.sun_path), "%s/%s", strcmp(real, "/") ? real : "", base) >= (int)sizeof(a.sun_path))
		return ue_fail(err, len, "--listen unix:%s: the socket's path (%s/%s) is longer than %zu characters", path, real, base,
			       sizeof(a.sun_path) - 1);
	if (!lstat(a.sun_path, &st)) {
		int on = S_ISSOCK(st.st_mode) && uc_owner_trusted(st.st_uid) ? listened(&a) : -2;
		if (on == 1)
			return ue_fail(err, len, "--listen unix:%s: a process listens on it already (another exporter?)", path);
		if (on == -2) {
			char kind[64];
			if (S_ISLNK(st.st_mode))
				snprintf(kind, sizeof(kind), "a symbolic link");
			else if (S_ISSOCK(st.st_mode))
				snprintf(kind, sizeof(kind), "a socket of user %u", (unsigned)st.st_uid);
			else
				snprintf(kind, sizeof(kind), "%s", S_ISREG(st.st_mode) ? "a regular file" : uc_file_kind(st.st_mode));
			return ue_fail(err, len, "--listen unix:%s: %s is there, which is not removed: remove it or name another path",
				       path, kind);
		}
		if (on < 0 || unlink(a.sun_path)) /* a socket no one listens on: an exporter's that did not end cleanly */
			return ue_fail(err, len, "--listen unix:%s: a socket is there and cannot be removed: %s", path, strerror(errno));
		fprintf(stderr, "uncore-exporter: --listen unix:%s: removed the socket no process listened on\n", path);
	}
	struct ue_unix *u = calloc(1, sizeof(*u));
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (!u || s < 0) {
		free(u);
		if (s >= 0)
			close(s);
		return ue_fail(err, len, "--listen unix:%s: %s", path, u ? strerror(errno) : "out of memory");
	}
	const char *step = "bind";
	if (bind(s, (struct sockaddr *)&a, sizeof(a)) ||
	    (step = "chmod", chmod(a.sun_path, UE_UNIX_MODE)) ||
	    (step = "stat", lstat(a.sun_path, &st)) ||
	    (step = "listen", listen(s, BACKLOG))) {
		int e = errno;
		if (strcmp(step, "bind"))
			unlink(a.sun_path);
		close(s);
		free(u);
		return ue_fail(err, len, "--listen unix:%s: %s: %s", path, step, strerror(e));
	}
	snprintf(u->path, sizeof(u->path), "%s", a.sun_path);
	u->dev = st.st_dev;
	u->ino = st.st_ino;
	*out = u;
	return s;
}

const char *ue_unix_path(const struct ue_unix *u) { return u->path; }

void ue_unix_remove(struct ue_unix *u)
{
	struct stat st;
	if (!u)
		return;
	if (!lstat(u->path, &st) && S_ISSOCK(st.st_mode) && st.st_dev == u->dev && st.st_ino == u->ino)
		unlink(u->path);
	free(u);
}
