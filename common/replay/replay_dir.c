/*
 * The replay's private directory (replay_dir.h): $TMPDIR/uncore-replay.HOST.PID.XXXXXX, locked (flock) by
 * the process for as long as it is there.  A process that dies before it removes its own (SIGKILL, a
 * crash, a signal it does not catch) leaves it, with what of the archive it had unpacked; the next replay
 * of the same user on the same host removes every such leftover first.  One is a leftover when no process
 * of its pid lives here (kill: ESRCH) and its lock is free: the pid alone could be wrong (a process of
 * another pid namespace sharing the directory), the lock alone too (a $TMPDIR on NFS whose flock is local
 * to each client, hence also the host in the name).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "replay_dir.h"
#include "util/error.h"
#include "util/remove_tree.h"

static const char *tmp_dir(void)
{
	const char *tmp = getenv("TMPDIR");
	return tmp && *tmp && strlen(tmp) < 200 ? tmp : "/tmp";
}

/* "uncore-replay.HOST.": this host's directories (a character a name should not hold as '_') */
static void prefix_of(char *buf, size_t len)
{
	char host[65] = "";
	if (gethostname(host, sizeof(host) - 1))
		snprintf(host, sizeof(host), "unknown");
	for (char *c = host; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '.'))
			*c = '_';
	snprintf(buf, len, "uncore-replay.%s.", host);
}

/* The pid of a name PREFIX<pid>.XXXXXX, or 0 when name is not one. */
static long pid_of(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	if (strncmp(name, prefix, n) || name[n] < '1' || name[n] > '9')
		return 0;
	errno = 0;
	long pid = strtol(name + n, &end, 10);
	return errno || *end != '.' || strlen(end + 1) != 6 ? 0 : pid;
}

/* Remove the leftovers of dead processes in tmp (what cannot be removed stays, unsaid: it is not ours to
 * report, and the next replay tries again). */
static void sweep(const char *tmp, const char *prefix)
{
	DIR *d = opendir(tmp);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		long pid = pid_of(e->d_name, prefix);
		struct stat st;
		if (pid <= 0 || (pid_t)pid != pid || !kill((pid_t)pid, 0) || errno != ESRCH)
			continue;
		int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!fstat(fd, &st) && st.st_uid == geteuid() && !flock(fd, LOCK_EX | LOCK_NB)) {
			char path[512];
			snprintf(path, sizeof(path), "%s/%s", tmp, e->d_name);
			remove_tree(path); /* (its error message, if any, is no caller's: the open goes on) */
		}
		close(fd);
	}
	if (d)
		closedir(d);
}

int replay_dir_make(char *dir, size_t len, int *lock)
{
	const char *tmp = tmp_dir();
	char prefix[96];
	*lock = -1;
	prefix_of(prefix, sizeof(prefix));
	sweep(tmp, prefix);
	for (int tries = 0; tries < 3; tries++) {
		snprintf(dir, len, "%s/%s%ld.XXXXXX", tmp, prefix, (long)getpid());
		if (!mkdtemp(dir)) {
			int e = errno;
			snprintf(dir, len, "%s/%s%ld.XXXXXX", tmp, prefix, (long)getpid());
			uc_err("replay: making a private directory %s: %s (set TMPDIR to a directory of yours)", dir, strerror(e));
			dir[0] = 0;
			return -1;
		}
		/* O_CLOEXEC: a command the CLI runs (stat -- CMD) does not hold it after we are gone */
		*lock = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (*lock >= 0 && (!flock(*lock, LOCK_EX | LOCK_NB) || errno != EWOULDBLOCK))
			return 0; /* locked; or a file system without locks: then no sweep ever takes it either */
		if (*lock < 0) {
			int e = errno;
			rmdir(dir);
			uc_err("replay: opening the private directory %s: %s", dir, strerror(e));
			dir[0] = 0;
			return -1;
		}
		/* a sweep of a process that saw our pid dead (another pid namespace) took it as it was made: it
		 * removes it; another then */
		close(*lock);
		*lock = -1;
	}
	uc_err("replay: making a private directory in %s: each one made was taken at once by another process's "
	       "cleanup", tmp);
	dir[0] = 0;
	return -1;
}

void replay_dir_remove(char *dir, int *lock)
{
	if (dir[0])
		remove_tree(dir); /* then unlocked: until then no sweep takes it */
	dir[0] = 0;
	if (*lock >= 0)
		close(*lock);
	*lock = -1;
}
