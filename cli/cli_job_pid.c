/* The job's counting process as the spool names it, and the spool's lock (cli_job_pid.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "cli_job_pid.h"
#include "util/proc_start.h"

int job_proc_self(struct job_proc *p)
{
	p->pid = (long)getpid();
	p->start = uc_proc_start((int)p->pid, NULL);
	return p->start && !uc_boot_id(p->boot, sizeof(p->boot)) ? 0 : -1;
}

void job_proc_format(const struct job_proc *p, char *buf, size_t len)
{
	snprintf(buf, len, "%ld %llu %s\n", p->pid, p->start, p->boot);
}

int job_proc_parse(const char *text, struct job_proc *p)
{
	char boot[sizeof(p->boot)] = "";
	if (sscanf(text, "%ld %llu %39s", &p->pid, &p->start, boot) != 3 || p->pid <= 1 || !p->start)
		return -1;
	snprintf(p->boot, sizeof(p->boot), "%s", boot);
	return 0;
}

int job_proc_alive(const struct job_proc *p)
{
	char boot[sizeof(p->boot)], state = 0;
	if (uc_boot_id(boot, sizeof(boot)) || strcmp(boot, p->boot)) /* a file of an earlier boot */
		return 0;
	/* an exited process not yet reaped (Z, X) keeps its start time: it counts no more */
	return uc_proc_start((int)p->pid, &state) == p->start && state != 'Z' && state != 'X';
}

/* A pidfd of pid (Linux 5.3), or -1: one opened while the process still holds its pid names it even once
 * the pid is reused, so a signal sent through it reaches no other process. */
static int pidfd_of(long pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
#else
	(void)pid;
	return -1;
#endif
}

static int send_term(int pfd, long pid)
{
#ifdef SYS_pidfd_send_signal
	if (pfd >= 0)
		return (int)syscall(SYS_pidfd_send_signal, pfd, SIGTERM, NULL, 0);
#endif
	(void)pfd;
	return kill((pid_t)pid, SIGTERM);
}

int job_proc_stop(const struct job_proc *p, int timeout_ms)
{
	/* opened first, then the identity checked: the process the check finds held the pid since before the
	 * open (it started earlier), so the pidfd names it */
	int pfd = pidfd_of(p->pid), rc = -2;
	if (!job_proc_alive(p)) {
		if (pfd >= 0)
			close(pfd);
		return 1;
	}
	if (send_term(pfd, p->pid)) {
		int e = errno;
		if (pfd >= 0)
			close(pfd);
		errno = e;
		return e == ESRCH ? 1 : -1; /* it exited in between */
	}
	for (int waited = 0; waited < timeout_ms; waited += 50) {
		struct pollfd pl = { .fd = pfd, .events = POLLIN };
		if (pfd >= 0 ? poll(&pl, 1, 50) > 0 : !job_proc_alive(p)) { /* a pidfd is readable once it exited */
			rc = 0;
			break;
		}
		if (pfd < 0)
			nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	}
	if (pfd >= 0)
		close(pfd);
	return rc;
}

int job_spool_lock(const char *dir, char *why, size_t len)
{
	char path[1100];
	struct stat st;
	snprintf(path, sizeof(path), "%s/.lock", dir);
	int fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || fstat(fd, &st)) {
		snprintf(why, len, "cannot open the spool's lock %s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & 077)) {
		snprintf(why, len, "the spool's lock %s is not a file of this user's that no one else may open (owner %u, "
			 "mode %04o): remove it", path, (unsigned)st.st_uid, (unsigned)(st.st_mode & 07777));
		close(fd);
		return -1;
	}
	/* only this user's begins and ends take it, each for a moment: 10 s is a stuck one */
	for (int i = 0; flock(fd, LOCK_EX | LOCK_NB); i++) {
		if (errno != EWOULDBLOCK || i == 200) {
			snprintf(why, len, "cannot lock %s: %s", path, errno == EWOULDBLOCK ? "held for 10 s" : strerror(errno));
			close(fd);
			return -1;
		}
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
	}
	return fd;
}
