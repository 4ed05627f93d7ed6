/* MSR backend: pread/pwrite at the MSR address on /dev/cpu/N/msr_safe, else /dev/cpu/N/msr; a CPU's many
 * reads in one call through msr-safe's batch device where it exists. */
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/guarded_read.h"
#include "access.h"
#include "util/error.h"

#define MSR_MAX_CPUS 4096

struct msr_backend {
	int fd[MSR_MAX_CPUS]; /* 0 = not opened yet, else fd + 1 */
	int batch_fd;         /* /dev/cpu/msr_batch: 0 not tried yet, -1 none, else fd + 1 */
	uint32_t batch_version; /* what the array's version field says: the module's, 0 for 1.x */
};

/* msr-safe's batch interface (LLNL msr-safe msr_safe.h and msr_version.h, release 2.0.0): X86_IOC_MSR_BATCH =
 * _IOWR('c', 0xA2, struct msr_batch_array); each op names its CPU, and the module runs a CPU's ops there
 * (one interrupt at most; none from a thread on that CPU); err is the op's own errno.  Since 2.0.0 the
 * array carries the module's version (MAJOR << 16 | MINOR << 8 | PATCH) and a mismatch is refused; 1.x has
 * no version file and ignores the field (the same layout: the pointer is 8-aligned after numops).  Other
 * releases may change the op, so only these two are used. */
struct msr_batch_op {
	uint16_t cpu, isrdmsr;
	int32_t err;
	uint32_t msr;
	uint64_t msrdata, wmask;
};
struct msr_batch_array {
	uint32_t numops, version;
	struct msr_batch_op *ops;
};
#define X86_IOC_MSR_BATCH _IOWR('c', 0xA2, struct msr_batch_array)
#define MSR_BATCH_MAX 4096

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

int msr_backend_read_batch(struct msr_backend *m, int cpu, const uint32_t *regs, int n, uint64_t *vals,
			   struct uncore_stats *st)
{
	struct msr_batch_op ops[MSR_BATCH_MAX];
	if (n > MSR_BATCH_MAX || cpu < 0 || cpu > UINT16_MAX)
		return uc_err("an MSR batch of %d reads on CPU %d: at most %d", n, cpu, MSR_BATCH_MAX);
	if (!m->batch_fd) {
		char path[4096], ver[32] = "";
		unsigned major = 1, minor = 0, patch = 0;
		struct stat vst = { 0 };
		/* "2.0.0"; read without blocking (a FIFO planted in a sysroot), a file there that cannot be read
		 * taken as an unknown version */
		if (!uc_read_first_line(sysroot_path(path, sizeof(path), "/dev/cpu/msr_safe_version"), ver, sizeof(ver), &vst))
			major = sscanf(ver, "%u.%u.%u", &major, &minor, &patch) == 3 ? major : 0;
		else if (vst.st_mode) /* there, but a FIFO, huge or one long line: not a version this knows */
			major = 0;
		int fd = major == 1 || (major == 2 && minor == 0 && patch < 256) ?
				 open(sysroot_path(path, sizeof(path), "/dev/cpu/msr_batch"), O_RDWR | O_CLOEXEC) : -1;
		st->syscalls++;
		m->batch_fd = fd < 0 ? -1 : fd + 1;
		m->batch_version = major == 2 ? 2u << 16 | patch : 0;
	}
	if (m->batch_fd < 0)
		return uc_err("no msr-safe batch device");
	for (int i = 0; i < n; i++)
		ops[i] = (struct msr_batch_op){ .cpu = (uint16_t)cpu, .isrdmsr = 1, .msr = regs[i] };
	struct msr_batch_array arr = { (uint32_t)n, m->batch_version, ops };
	st->syscalls++;
	if (ioctl(m->batch_fd - 1, X86_IOC_MSR_BATCH, &arr)) {
		int err = errno;
		if (err == ENOTTY || err == EINVAL) { /* not msr-safe's device (a file in a sysroot): never again */
			close(m->batch_fd - 1);
			m->batch_fd = -1;
		}
		return uc_err("msr-safe batch on CPU %d: %s", cpu, strerror(err));
	}
	for (int i = 0; i < n; i++) {
		if (ops[i].err)
			return uc_err("msr-safe batch: MSR 0x%x on CPU %d: %s", regs[i], cpu, strerror(-ops[i].err > 0 ? -ops[i].err : ops[i].err));
		vals[i] = ops[i].msrdata;
	}
	st->reads += (uint64_t)n;
	return 0;
}

void msr_backend_close(struct msr_backend *m)
{
	if (!m)
		return;
	if (m->batch_fd > 0)
		close(m->batch_fd - 1);
	for (int i = 0; i < MSR_MAX_CPUS; i++)
		if (m->fd[i])
			close(m->fd[i] - 1);
	free(m);
}
