/* MSR backend: pread/pwrite at the MSR address on /dev/cpu/N/msr_safe, else /dev/cpu/N/msr. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "access.h"
#include "util/error.h"

#define MSR_MAX_CPUS 4096

struct msr_backend {
	int fd[MSR_MAX_CPUS]; /* 0 = not opened yet, else fd + 1 */
};

struct msr_backend *msr_backend_open(void)
{
	struct msr_backend *m = calloc(1, sizeof(*m));
	if (!m)
		uc_err("out of memory");
	return m;
}

static int msr_fd(struct msr_backend *m, int cpu, struct uncore_stats *st)
{
	char safe[4096], plain[4096];
	int fd, err;
	if (cpu < 0 || cpu >= MSR_MAX_CPUS)
		return uc_err("CPU %d is out of range", cpu);
	if (m->fd[cpu])
		return m->fd[cpu] - 1;
	/* msr_safe first: it lets non-root users at allowlisted registers */
	sysroot_path(safe, sizeof(safe), "/dev/cpu/%d/msr_safe", cpu);
	fd = open(safe, O_RDWR | O_CLOEXEC);
	st->syscalls++;
	if (fd < 0) {
		int safe_err = errno;
		sysroot_path(plain, sizeof(plain), "/dev/cpu/%d/msr", cpu);
		fd = open(plain, O_RDWR | O_CLOEXEC);
		st->syscalls++;
		if (fd < 0) {
			err = errno;
			/* report the more useful of the two failures */
			if (err == ENOENT && safe_err != ENOENT)
				return access_errno_error(safe_err, safe, "opening the MSR device");
			return access_errno_error(err, plain, "opening the MSR device");
		}
	}
	m->fd[cpu] = fd + 1;
	return fd;
}

int msr_backend_read(struct msr_backend *m, int cpu, uint32_t reg, uint64_t *val, struct uncore_stats *st)
{
	int fd = msr_fd(m, cpu, st);
	ssize_t r;
	if (fd < 0)
		return -1;
	r = pread(fd, val, sizeof(*val), reg);
	st->syscalls++;
	st->reads++;
	if (r != (ssize_t)sizeof(*val)) {
		char path[64];
		snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
		if (r >= 0)
			return uc_err("reading MSR 0x%x on CPU %d: short read", reg, cpu);
		access_errno_error(errno, path, "reading an MSR");
		return uc_err_prefix("MSR 0x%x: ", reg);
	}
	return 0;
}

int msr_backend_write(struct msr_backend *m, int cpu, uint32_t reg, uint64_t val, struct uncore_stats *st)
{
	int fd = msr_fd(m, cpu, st);
	ssize_t r;
	if (fd < 0)
		return -1;
	r = pwrite(fd, &val, sizeof(val), reg);
	st->syscalls++;
	st->writes++;
	if (r != (ssize_t)sizeof(val)) {
		char path[64];
		snprintf(path, sizeof(path), "/dev/cpu/%d/msr", cpu);
		if (r >= 0)
			return uc_err("writing MSR 0x%x on CPU %d: short write", reg, cpu);
		access_errno_error(errno, path, "writing an MSR");
		return uc_err_prefix("MSR 0x%x: ", reg);
	}
	return 0;
}

void msr_backend_close(struct msr_backend *m)
{
	if (!m)
		return;
	for (int i = 0; i < MSR_MAX_CPUS; i++)
		if (m->fd[i])
			close(m->fd[i] - 1);
	free(m);
}
