/* The real kernel behind the perf seam: the system calls themselves. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "perf_kernel.h"
#include "access/access.h"
#include "util/error.h"
#include "util/guarded_read.h"

static int k_open(struct perf_kernel *k, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		  unsigned long flags)
{
	(void)k;
	long fd = syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
	return fd < 0 ? -errno : (int)fd;
}

static ssize_t k_read(struct perf_kernel *k, int fd, void *buf, size_t len)
{
	(void)k;
	ssize_t n;
	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static int k_ioctl(struct perf_kernel *k, int fd, unsigned long req, unsigned long arg)
{
	(void)k;
	return ioctl(fd, req, arg) < 0 ? -errno : 0;
}

static int k_close(struct perf_kernel *k, int fd)
{
	(void)k;
	return close(fd) < 0 ? -errno : 0;
}

/* The effective set, through capget(2) (no libcap needed). */
static void k_caps(struct perf_kernel *k, int *perfmon, int *sys_admin)
{
	(void)k;
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	memset(d, 0, sizeof(d));
	*perfmon = *sys_admin = 0;
	if (syscall(SYS_capget, &h, d))
		return;
#ifndef CAP_PERFMON
#define CAP_PERFMON 38 /* Linux 5.8 */
#endif
	*perfmon = !!(d[CAP_PERFMON / 32].effective & (1u << (CAP_PERFMON % 32)));
	*sys_admin = !!(d[CAP_SYS_ADMIN / 32].effective & (1u << (CAP_SYS_ADMIN % 32)));
}

/* The trees below UNCORE_SYSROOT: read as guarded_read.h does, so that a FIFO or a huge file planted there
 * cannot stall the reader. */
static int k_read_line(struct perf_kernel *k, const char *path, char *buf, size_t len)
{
	char full[1024], why[128];
	struct stat st;
	if (snprintf(full, sizeof(full), "%s%s", k->root, path) >= (int)sizeof(full))
		return -1;
	if (!uc_read_first_line(full, buf, len, &st))
		return 0;
	int e = errno;
	if (!st.st_mode || S_ISDIR(st.st_mode) || (S_ISREG(st.st_mode) && e != EFBIG && e != EOVERFLOW))
		return -1; /* not there, a directory or a read error: as a file that is not there */
	uc_err("cannot read %s: %s", full, uc_guarded_why(e, &st, UC_SYSFILE_MAX, len, why, sizeof(why)));
	return -2;
}

static int k_list_dir(struct perf_kernel *k, const char *dir, int (*fn)(void *arg, const char *name), void *arg)
{
	char full[1024];
	if (snprintf(full, sizeof(full), "%s%s", k->root, dir) >= (int)sizeof(full))
		return -1;
	DIR *d = opendir(full);
	if (!d)
		return -1;
	struct dirent *de;
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") && fn(arg, de->d_name))
			break;
	closedir(d);
	return 0;
}

static void k_free(struct perf_kernel *k) { free(k); }

static const struct perf_kernel_ops syscall_ops = { k_open, k_read, k_ioctl, k_close, k_caps, k_read_line, k_list_dir,
						    k_free };

struct perf_kernel *perf_kernel_syscalls(void)
{
	struct perf_kernel *k = calloc(1, sizeof(*k));
	if (!k)
		return NULL;
	k->ops = &syscall_ops;
	k->name = "the kernel";
	char buf[512];
	sysroot_path(buf, sizeof(buf), "/");
	size_t n = strlen(buf);
	while (n && buf[n - 1] == '/') /* "/" -> "", "/tmp/x/" -> "/tmp/x" */
		buf[--n] = 0;
	memcpy(k->root, buf, n + 1);
	return k;
}
