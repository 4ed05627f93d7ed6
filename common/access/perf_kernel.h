/*
 * The kernel's side of the perf_event backend, behind a seam: perf_event_open(2), read(2), ioctl(2)
 * and close(2) on perf fds, the capabilities of the caller, and the files of the kernel's sysfs and
 * procfs trees.  The real kernel is the system calls; the simulator's kernel (sim_kernel/sim_kernel.c) enforces
 * the same rules over a simulated machine, so the backend runs end to end without uncore PMUs.
 */
#ifndef UNCORE_PERF_KERNEL_H
#define UNCORE_PERF_KERNEL_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <sys/types.h>

struct perf_kernel;
struct perf_kernel_ops {
	/* an fd, or -errno */
	int (*open)(struct perf_kernel *k, struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags);
	/* bytes read, or -errno */
	ssize_t (*read)(struct perf_kernel *k, int fd, void *buf, size_t len);
	/* 0, or -errno */
	int (*ioctl)(struct perf_kernel *k, int fd, unsigned long req, unsigned long arg);
	int (*close)(struct perf_kernel *k, int fd);
	/* whether the caller has CAP_PERFMON and CAP_SYS_ADMIN in its effective set */
	void (*caps)(struct perf_kernel *k, int *perfmon, int *sys_admin);
	/* the first line of a file of its trees ("/sys/...", "/proc/..."), without the newline: 0; -1 when
	 * there is no such file (or it cannot be read); -2, with the reason in uncore_error(), when a file is
	 * there but refused: not a regular file, larger than a kernel file, or a line longer than len - 1 */
	int (*read_line)(struct perf_kernel *k, const char *path, char *buf, size_t len);
	/* fn(arg, name) for each entry of a directory of its trees but "." and "..", until fn returns
	 * non-zero: 0, or -1 when there is no such directory */
	int (*list_dir)(struct perf_kernel *k, const char *dir, int (*fn)(void *arg, const char *name), void *arg);
	void (*free)(struct perf_kernel *k);
};

struct perf_kernel {
	const struct perf_kernel_ops *ops;
	const char *name;   /* "the kernel", "the simulated kernel" */
	char root[512];     /* prefix of its /sys and /proc in messages ("" = the machine's own) */
	int simulated;
	int fd_limit;       /* the simulated kernel's own limit on open events (its fds=N), which stands for the
			     * process's RLIMIT_NOFILE; 0: that limit is the process's */
	unsigned long syscalls; /* calls made into it */
	void *priv;
};

/* The running kernel, its trees below UNCORE_SYSROOT. */
struct perf_kernel *perf_kernel_syscalls(void);
struct access;
/* A kernel that a backend's name makes (the backend registry, replay/perf_kernels.c): "perf+sim:SPEC" the simulated
 * kernel, "perf+replay:SNAPSHOT" a replayed node's.  open: the kernel of spec (what follows prefix), *inner the
 * access under it, which it owns; NULL with a message.  machine_spec: the machine under spec, without the
 * kernel's options (0, or -1); NULL where the kernel is no simulated machine's. */
struct kernel_maker {
	const char *prefix;
	struct perf_kernel *(*open)(const char *spec, struct access **inner);
	int (*machine_spec)(const char *spec, char *out, size_t len);
};
/* The kernel maker of a backend's name ("perf+sim:...", "perf+replay:..."), or NULL. */
const struct kernel_maker *kernel_maker_of(const char *backend);

#endif
