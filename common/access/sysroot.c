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

int sysroot_read_long(const char *path, long *val)
{
	char line[64], why[128], *end;
	struct stat st;
	if (uc_read_first_line(path, line, sizeof(line), &st)) {
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
