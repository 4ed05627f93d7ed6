/* The real kernel behind the perf seam: the system calls themselves. */
#include <errno.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "perf_kernel.h"
#include "access.h"

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

static void k_free(struct perf_kernel *k) { free(k); }

static const struct perf_kernel_ops syscall_ops = { k_open, k_read, k_ioctl, k_close, k_caps, k_free };

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
