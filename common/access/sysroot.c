/* Paths below UNCORE_SYSROOT, and errno -> advice the user can act on. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "access.h"
#include "util/env.h"
#include "util/error.h"
#include "util/guarded_read.h"
#include "util/safe_file.h"
#include "util/memfs.h"

static const char *root_path(const char *root, char *buf, size_t len, const char *fmt, va_list ap)
{
	size_t n;
	if (!root)
		root = uc_env("UNCORE_SYSROOT");
	if (!root || !*root || !strcmp(root, "/"))
		root = "";
	n = (size_t)snprintf(buf, len, "%s", root);
	if (n >= len)
		n = len - 1;
	vsnprintf(buf + n, len - n, fmt, ap);
	return buf;
}

const char *sysroot_path(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	root_path(NULL, buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

const char *sysroot_path_at(const char *root, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	root_path(root, buf, len, fmt, ap);
	va_end(ap);
	return buf;
}

int access_errno_error(int err, const char *path, const char *what)
{
	switch (err) {
	case ENOENT:
	case ENXIO:
	case ENODEV:
		if (strstr(path, "/dev/cpu/"))
			return uc_err("%s: %s does not exist: load the msr module (modprobe msr) "
				      "or install msr-safe", what, path);
		return uc_err("%s: %s does not exist: the device is not present on this machine", what, path);
	case EACCES:
	case EPERM:
		if (strstr(path, "/dev/cpu/"))
			return uc_err("%s: permission denied on %s: needs root or CAP_SYS_RAWIO "
				      "(or an msr-safe allowlist granting these registers)", what, path);
		return uc_err("%s: permission denied on %s: needs root (PCI config space above "
			      "64 bytes and MMIO are root-only)", what, path);
	case EIO:
		return uc_err("%s: I/O error on %s: the register is not implemented on this CPU, "
			      "or a hypervisor blocks it", what, path);
	default:
		return uc_err("%s: %s: %s", what, path, strerror(err));
	}
}

/* The regular file at path of m, links among its directories followed: NULL with errno (ENOENT, EISDIR, EINVAL:
 * a link) where there is none */
static const struct memfs_file *regular_in(const struct memfs *m, const char *path)
{
	const struct memfs_file *f = memfs_find_through(m, path);
	errno = !f ? ENOENT : f->dir ? EISDIR : f->link ? EINVAL : 0;
	return errno ? NULL : f;
}

FILE *sys_open(const struct memfs *m, const char *path, int *refused)
{
	if (!m)
		return uc_open_sysfile(path, refused);
	const struct memfs_file *f = regular_in(m, path);
	*refused = 0;
	if (!f)
		return NULL;
	/* (an empty file: fmemopen takes no empty buffer) */
	return f->len ? fmemopen(f->text, f->len, "r") : fopen("/dev/null", "re");
}

int sys_exists(const struct memfs *m, const char *path)
{
	return m ? memfs_find_through(m, path) != NULL : access(path, F_OK) == 0;
}

int sys_first_line(const struct memfs *m, const char *path, char *buf, size_t len, struct stat *st)
{
	if (!m)
		return uc_read_first_line(path, buf, len, st);
	memset(st, 0, sizeof(*st));
	const struct memfs_file *f = regular_in(m, path);
	if (!f || !len)
		return errno = f ? EOVERFLOW : errno, -1;
	st->st_mode = S_IFREG; /* as uc_read_first_line: a line of at most len - 1 bytes, its newline left out */
	st->st_size = (off_t)f->len;
	size_t n = f->len < len - 1 ? f->len : len - 1;
	const char *nl = memchr(f->text, '\n', n);
	if (!nl && n < f->len && f->text[n] != '\n')
		return errno = EOVERFLOW, -1;
	n = nl ? (size_t)(nl - f->text) : n;
	memcpy(buf, f->text, n);
	buf[n] = 0;
	return 0;
}

int sys_read_long(const struct memfs *m, const char *path, long *val)
{
	char line[64], why[128], *end;
	struct stat st;
	if (sys_first_line(m, path, line, sizeof(line), &st)) {
		int e = errno; /* a FIFO, a device, a huge file or an overlong line planted there: said */
		if (st.st_mode && !S_ISDIR(st.st_mode) && (!S_ISREG(st.st_mode) || e == EFBIG || e == EOVERFLOW))
			uc_warn("%s: %s: taken as absent", path, uc_guarded_why(e, &st, UC_SYSFILE_MAX, sizeof(line), why,
										 sizeof(why)));
		return -1;
	}
	errno = 0;
	*val = strtol(line, &end, 0); /* as fscanf's %li: 0x... hexadecimal, 0... octal */
	return end == line || errno ? -1 : 0;
}

int sysroot_read_long(const char *path, long *val) { return sys_read_long(NULL, path, val); }
