/* uc_open_guarded, uc_read_first_line (guarded_read.h): O_NONBLOCK, fstat, a bound on size and line. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "guarded_read.h"

int uc_open_guarded(const char *path, off_t max, struct stat *st)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), fl, e;
	memset(st, 0, sizeof(*st));
	if (fd < 0)
		return -1;
	if (fstat(fd, st)) {
		e = errno;
		memset(st, 0, sizeof(*st));
	} else if (!S_ISREG(st->st_mode)) {
		e = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
	} else if (max > 0 && st->st_size > max) {
		e = EFBIG;
	} else if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		e = errno;
	} else {
		return fd;
	}
	close(fd);
	errno = e;
	return -1;
}

const char *uc_file_kind(mode_t m)
{
	return S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

const char *uc_guarded_why(int err, const struct stat *st, off_t max, size_t len, char *buf, size_t buflen)
{
	if (err == EISDIR)
		snprintf(buf, buflen, "%s", strerror(EISDIR));
	else if (st->st_mode && !S_ISREG(st->st_mode))
		snprintf(buf, buflen, "it is %s, not a regular file", uc_file_kind(st->st_mode));
	else if (err == EFBIG && st->st_mode)
		snprintf(buf, buflen, "it is %lld bytes, more than %lld", (long long)st->st_size, (long long)max);
	else if (err == EOVERFLOW && st->st_mode)
		snprintf(buf, buflen, "its first line is longer than %zu characters", len ? len - 1 : 0);
	else
		snprintf(buf, buflen, "%s", strerror(err));
	return buf;
}

int uc_read_first_line(const char *path, char *buf, size_t len, struct stat *st)
{
	size_t n = 0;
	char *nl = NULL;
	int fd, e = 0;
	memset(st, 0, sizeof(*st));
	if (!len) {
		errno = EOVERFLOW;
		return -1;
	}
	if ((fd = uc_open_guarded(path, UC_SYSFILE_MAX, st)) < 0)
		return -1;
	while (!nl && n < len - 1) { /* a sysfs attribute comes whole in one read; a regular file may take more */
		ssize_t r = read(fd, buf + n, len - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			e = r < 0 ? errno : 0;
			break;
		}
		nl = memchr(buf + n, '\n', (size_t)r);
		n += (size_t)r;
	}
	if (!e && !nl && n == len - 1) { /* full: the line must end here */
		char c;
		ssize_t r;
		do
			r = read(fd, &c, 1);
		while (r < 0 && errno == EINTR);
		e = r < 0 ? errno : r == 1 && c != '\n' ? EOVERFLOW : 0;
	}
	close(fd);
	if (e) {
		errno = e;
		return -1;
	}
	buf[nl ? (size_t)(nl - buf) : n] = 0;
	return 0;
}

int uc_parse_u64(const char *s, uint64_t max, uint64_t *v)
{
	uint64_t n = 0;
	if (!*s)
		return errno = EINVAL, -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return errno = EINVAL, -1;
		if (n > (max - (uint64_t)(*s - '0')) / 10) /* n * 10 + digit > max, without overflowing */
			return errno = ERANGE, -1;
		n = n * 10 + (uint64_t)(*s - '0');
	}
	*v = n;
	return 0;
}
