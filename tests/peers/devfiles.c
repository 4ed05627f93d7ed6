/*
 * LD_PRELOAD: a node's device files, presented from a simulated machine (issue 90).  With PEER_HOST_DIR
 * naming the directory of a running sim_host (sim_host.c), a process -- an unmodified PCM or likwid under
 * qemu-x86_64 (whose CPUID is the simulated part's), or the library's own direct backend -- finds there:
 *
 *   /dev/cpu/N/msr, /dev/cpu/N/msr_safe   pread/pwrite of 8 bytes at the MSR's address: rdmsr/wrmsr on CPU N
 *   /proc/bus/pci/BB/DD.F, /sys/bus/pci/devices/D:B:D.F/config (and through /sys/devices)
 *                                         the function's configuration space, dword by dword, live
 *   /dev/mem                              pread/pwrite at a physical address, and mmap: the window is a
 *                                         region no page backs, each load and store of it a fault that this
 *                                         library decodes (the x86-64 MOV forms compilers make of a volatile
 *                                         access) and makes on the simulated register, so that a store reaches
 *                                         the simulator's register, not a copy; the MCFG table's ECAM window
 *                                         there reads configuration space
 *   /proc/cpuinfo, /proc/bus/pci/devices, /sys/devices (system/cpu, system/node, the PCI tree), /sys/bus/pci,
 *   /sys/firmware/acpi (MCFG), /proc/sys/kernel/nmi_watchdog
 *                                         the host's files, from PEER_HOST_DIR/root
 *
 * and the simulated CPUs as its own: sched_getaffinity, sysconf and get_nprocs count them, and pinning a
 * thread to one is taken (it reads that CPU's MSRs through its file whichever it runs on).  Built alone,
 * without the sanitizers (it runs inside other programs), from this file and peer_proto.h.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysinfo.h>
#include <sys/types.h>
#include <sys/un.h>
#include <ucontext.h>
#include <unistd.h>
#include "peer_proto.h"
/* sscanf as every glibc has it: glibc 2.38 and later, with _GNU_SOURCE, bind sscanf to __isoc23_sscanf (GLIBC_2.38),
 * which the older glibc of a peer this preload runs inside (Debian 12's PCM on a Debian 13 host) lacks; the formats
 * here read no binary prefix, so the two agree. */
extern int plain_sscanf(const char *s, const char *fmt, ...) __asm__("sscanf");

#define MAX_FD 4096
#define MAX_REGIONS 1024 /* PCM maps a window a channel and a box: 2-socket ICX passed 64 */

enum { NONE, MSR, PCI, MEM };
struct live {
	int kind;
	int cpu, dom, bus, dev, fn;
	uint64_t pos;
};
static struct live fds[MAX_FD];
static unsigned char rootfd[MAX_FD]; /* descriptors of "/" (hwloc opens its paths relative to one) */
static struct { uintptr_t addr; size_t len; uint64_t phys; } regions[MAX_REGIONS];
static int nregions;

static char dir[1024], root[1100];
static int ready, ncpus = 1;
static uint64_t ecam_lo, ecam_hi; /* the MCFG table's ECAM window (segment 0) */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int sock = -1;
static pid_t sock_pid;
static __thread int cur_cpu;

#define REAL(name) ((__typeof__(&name))real_fn(#name))
static void *real_fn(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);
	if (!f) {
		fprintf(stderr, "devfiles: no %s below this library\n", name);
		abort();
	}
	return f;
}

/* ---- paths ---- */
static const char *const redirected[] = {
	"/dev/cpu", "/dev/mem", "/proc/cpuinfo", "/proc/bus/pci", "/proc/sys/kernel/nmi_watchdog",
	"/sys/bus/pci", "/sys/class/pci_bus", "/sys/devices", "/sys/firmware/acpi",
};

/* path as the host's tree has it (buf), or path itself */
static const char *map_path(const char *path, char *buf, size_t len)
{
	if (!ready || !path || path[0] != '/')
		return path;
	for (size_t i = 0; i < sizeof(redirected) / sizeof(redirected[0]); i++) {
		size_t n = strlen(redirected[i]);
		if (!strncmp(path, redirected[i], n) && (path[n] == 0 || path[n] == '/')) {
			snprintf(buf, len, "%s%s", root, path);
			return buf;
		}
	}
	return path;
}

/* a path relative to a descriptor of "/" made absolute */
static const char *at_path(int dirfd, const char *path, char *buf, size_t len)
{
	if (path && path[0] != '/' && dirfd >= 0 && dirfd < MAX_FD && rootfd[dirfd]) {
		snprintf(buf, len, "/%s", path);
		return buf;
	}
	return path;
}

/* Which live register file path is (a PCI function's config, a CPU's MSRs, physical memory). */
static int classify(const char *p, struct live *l)
{
	unsigned a, b, c, d;
	int n = 0;
	memset(l, 0, sizeof(*l));
	if (plain_sscanf(p, "/dev/cpu/%u/msr%n", &a, &n) == 1 && (!p[n] || !strcmp(p + n, "_safe"))) {
		l->kind = MSR;
		l->cpu = (int)a;
	} else if (!strcmp(p, "/dev/mem")) {
		l->kind = MEM;
	} else if (plain_sscanf(p, "/proc/bus/pci/%x:%x/%x.%x%n", &d, &a, &b, &c, &n) == 4 && !p[n]) {
		*l = (struct live){ PCI, 0, (int)d, (int)a, (int)b, (int)c, 0 };
	} else if (plain_sscanf(p, "/proc/bus/pci/%x/%x.%x%n", &a, &b, &c, &n) == 3 && !p[n]) {
		*l = (struct live){ PCI, 0, 0, (int)a, (int)b, (int)c, 0 };
	} else {
		size_t k = strlen(p);
		const char *s;
		if (k < 8 || strcmp(p + k - 7, "/config") || (strncmp(p, "/sys/bus/pci/", 13) && strncmp(p, "/sys/devices/", 13)))
			return 0;
		for (s = p + k - 8; s > p && *s != '/'; s--)
			;
		if (plain_sscanf(s, "/%x:%x:%x.%x%n", &d, &a, &b, &c, &n) != 4 || strcmp(s + n, "/config"))
			return 0;
		*l = (struct live){ PCI, 0, (int)d, (int)a, (int)b, (int)c, 0 };
	}
	return 1;
}

/* ---- the host's socket ---- */
static int io_all(int fd, void *buf, size_t len, int wr)
{
	ssize_t (*rd)(int, void *, size_t) = REAL(read);
	ssize_t (*w)(int, const void *, size_t) = REAL(write);
	for (size_t k = 0; k < len;) {
		ssize_t r = wr ? w(fd, (char *)buf + k, len - k) : rd(fd, (char *)buf + k, len - k);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			return -1;
		}
		k += (size_t)r;
	}
	return 0;
}

/* One request answered: the response's errno (0: done), its data into data. */
static int ask(struct peer_req *q, uint64_t *val, void *data)
{
	struct peer_rsp r;
	int saved = errno;
	q->tid = (int32_t)syscall(SYS_gettid);
	pthread_mutex_lock(&mu);
	if (sock >= 0 && sock_pid != getpid()) { /* a child of fork: its own connection */
		REAL(close)(sock);
		sock = -1;
	}
	if (sock < 0) {
		struct sockaddr_un a = { .sun_family = AF_UNIX };
		size_t n = strlen(dir);
		if (n + sizeof("/sock") > sizeof(a.sun_path)) {
			fprintf(stderr, "devfiles: %s/sock is too long a path for a socket\n", dir);
			abort();
		}
		memcpy(a.sun_path, dir, n);
		memcpy(a.sun_path + n, "/sock", sizeof("/sock"));
		sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (sock < 0 || connect(sock, (struct sockaddr *)&a, sizeof(a))) {
			fprintf(stderr, "devfiles: the simulated host at %s does not answer: %s\n", dir, strerror(errno));
			abort(); /* no machine behind the files: nothing this process reads would be true */
		}
		sock_pid = getpid();
	}
	if (io_all(sock, q, sizeof(*q), 1) || io_all(sock, &r, sizeof(r), 0) || r.len > PEER_MAX_DATA ||
	    (r.len && io_all(sock, data, r.len, 0))) {
		fprintf(stderr, "devfiles: the simulated host at %s went away\n", dir);
		abort();
	}
	pthread_mutex_unlock(&mu);
	if (val)
		*val = r.val;
	errno = saved;
	return r.rc;
}

static int msr(int cpu, uint32_t reg, uint64_t *v, int write)
{
	struct peer_req q = { .op = write ? PEER_MSR_WRITE : PEER_MSR_READ, .a = cpu, .addr = reg, .val = write ? *v : 0 };
	return ask(&q, write ? NULL : v, NULL);
}

static int cfg(const struct live *l, uint32_t off, uint32_t *v, int write)
{
	struct peer_req q = { .op = write ? PEER_PCI_WRITE : PEER_PCI_READ, .a = l->dom, .b = l->bus, .c = l->dev,
			      .d = l->fn, .addr = off, .val = write ? *v : 0 };
	uint64_t r = 0;
	int rc = ask(&q, &r, NULL);
	if (!write)
		*v = (uint32_t)r;
	return rc;
}

/* A physical load or store of len bytes (1..8, within a naturally aligned dword or qword): ECAM or MMIO. */
static int phys_access(uint64_t phys, void *buf, int len, int write)
{
	if (phys >= ecam_lo && phys < ecam_hi) { /* the MCFG window: configuration space */
		uint64_t o = phys - ecam_lo;
		struct live l = { PCI, 0, 0, (int)(o >> 20 & 0xff), (int)(o >> 15 & 0x1f), (int)(o >> 12 & 7), 0 };
		uint32_t off = (uint32_t)(o & 0xfff), dw;
		for (int k = 0; k < len;) { /* dword by dword */
			uint32_t at = (off + (uint32_t)k) & ~3u, b = (off + (uint32_t)k) & 3u;
			int n = len - k < (int)(4 - b) ? len - k : (int)(4 - b);
			/* a whole dword is stored unread, as the processor's store to ECAM is one configuration write */
			int rc = write && n == 4 ? 0 : cfg(&l, at, &dw, 0);
			if (write) {
				memcpy((char *)&dw + b, (char *)buf + k, (size_t)n);
				rc = rc ? rc : cfg(&l, at, &dw, 1);
			} else
				memcpy((char *)buf + k, (char *)&dw + b, (size_t)n);
			if (rc)
				return rc;
			k += n;
		}
		return 0;
	}
	struct peer_req q = { .op = write ? PEER_MMIO_WRITE : PEER_MMIO_READ, .addr = phys, .len = (uint32_t)len };
	if (write) {
		uint64_t v = 0;
		memcpy(&v, buf, (size_t)len);
		q.val = v;
		return ask(&q, NULL, NULL);
	}
	return ask(&q, NULL, buf);
}

/* ---- the register files' reads and writes ---- */
static ssize_t live_rw(int fd, void *buf, size_t count, uint64_t off, int write)
{
	struct live *l = &fds[fd];
	size_t done = 0;
	int rc = 0;
	if (l->kind == MSR) {
		if (count % 8) /* Linux arch/x86/kernel/msr.c: whole registers only */
			return errno = EINVAL, -1;
		for (; done < count && !rc; done += 8) {
			uint64_t v;
			if (write)
				memcpy(&v, (char *)buf + done, 8);
			rc = msr(l->cpu, (uint32_t)off, &v, write);
			if (!rc && !write)
				memcpy((char *)buf + done, &v, 8);
		}
		if (rc)
			done -= 8;
	} else if (l->kind == PCI) {
		if (off >= 4096)
			return 0;
		if (count > 4096 - off)
			count = (size_t)(4096 - off);
		while (done < count && !rc) {
			uint32_t at = (uint32_t)(off + done) & ~3u, b = (uint32_t)(off + done) & 3u, dw = 0;
			size_t n = count - done < 4 - b ? count - done : 4 - b;
			/* Linux writes a whole aligned dword as it is (drivers/pci/pci-sysfs.c pci_write_config:
			 * pci_user_write_config_dword), reading nothing; a part of one (a byte or word write there)
			 * is read and merged here, the simulator's raw API writing dwords, which costs a read the
			 * kernel does not make */
			rc = write && n == 4 ? 0 : cfg(l, at, &dw, 0);
			if (write && !rc) {
				memcpy((char *)&dw + b, (char *)buf + done, n);
				rc = cfg(l, at, &dw, 1);
			} else if (!rc)
				memcpy((char *)buf + done, (char *)&dw + b, n);
			if (!rc)
				done += n;
		}
	} else { /* physical memory: naturally aligned pieces of at most 8 bytes */
		while (done < count && !rc) {
			uint64_t p = off + done;
			int n = (p & 7) == 0 && count - done >= 8 ? 8 : (p & 3) == 0 && count - done >= 4 ? 4 : 1;
			rc = phys_access(p, (char *)buf + done, n, write);
			if (!rc)
				done += (size_t)n;
		}
	}
	if (rc && !done)
		return errno = rc, -1;
	return (ssize_t)done;
}

static int is_live(int fd) { return ready && fd >= 0 && fd < MAX_FD && fds[fd].kind != NONE; }

/* ---- opening ---- */
/* PCM finds its devices by opening every bus, device and function's /proc/bus/pci file (65,536 opens a scan, and
 * it scans more than once); under qemu-user every open that fails is a dozen of the host's system calls (qemu's
 * realpath of the path, its -L lookup, the open). A bus whose directory the served tree has not is answered here,
 * ENOENT as Linux's, after one look: sim_host makes the tree before the peer starts, and after that it only loses
 * functions. */
static signed char bus_there[256]; /* 0 not looked at, 1 there, -1 not */
static int bus_absent(const char *p)
{
	unsigned bus;
	int n = 0;
	char d[1200];
	if (plain_sscanf(p, "/proc/bus/pci/%2x/%n", &bus, &n) != 1 || n != 17)
		return 0;
	signed char s = __atomic_load_n(&bus_there[bus], __ATOMIC_RELAXED);
	if (!s) {
		snprintf(d, sizeof(d), "%s/proc/bus/pci/%02x", root, bus);
		s = REAL(access)(d, F_OK) == 0 ? 1 : -1;
		__atomic_store_n(&bus_there[bus], s, __ATOMIC_RELAXED);
	}
	return s < 0;
}

static int open_at(int dirfd, const char *path, int flags, mode_t mode)
{
	int (*real_openat)(int, const char *, int, ...) = REAL(openat);
	char abs[4096], buf[4200];
	const char *p = at_path(dirfd, path, abs, sizeof(abs)), *m = map_path(p, buf, sizeof(buf));
	struct live l;
	int fd;
	if (m == p) {
		fd = real_openat(dirfd, path, flags, mode);
		if (fd >= 0 && fd < MAX_FD)
			rootfd[fd] = ready && !strcmp(p, "/");
		return fd;
	}
	if (bus_absent(p)) {
		errno = ENOENT;
		return -1;
	}
	if (!classify(p, &l))
		fd = real_openat(AT_FDCWD, m, flags, mode);
	else {
		if ((fd = real_openat(AT_FDCWD, m, O_RDONLY | O_CLOEXEC)) < 0) /* there, as the host has it */
			return -1;
		REAL(close)(fd);
		/* a character device, as the kernel's are (the direct backend sizes a window of a regular file) */
		fd = real_openat(AT_FDCWD, "/dev/null", (flags & (O_ACCMODE | O_CLOEXEC)));
	}
	if (fd >= 0 && fd < MAX_FD) {
		rootfd[fd] = 0;
		fds[fd] = classify(p, &l) ? l : (struct live){ 0 };
	}
	return fd;
}

static mode_t mode_arg(int flags, va_list ap)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return open_at(AT_FDCWD, path, flags, m);
}
int open64(const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return open_at(AT_FDCWD, path, flags, m);
}
int openat(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return open_at(dirfd, path, flags, m);
}
int openat64(int dirfd, const char *path, int flags, ...)
{
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return open_at(dirfd, path, flags, m);
}
int __open_2(const char *path, int flags) { return open_at(AT_FDCWD, path, flags, 0); }
int __open64_2(const char *path, int flags) { return open_at(AT_FDCWD, path, flags, 0); }
int __openat_2(int dirfd, const char *path, int flags) { return open_at(dirfd, path, flags, 0); }

FILE *fopen(const char *path, const char *mode)
{
	char buf[4200];
	return REAL(fopen)(map_path(path, buf, sizeof(buf)), mode);
}
FILE *fopen64(const char *path, const char *mode)
{
	char buf[4200];
	return REAL(fopen64)(map_path(path, buf, sizeof(buf)), mode);
}

DIR *opendir(const char *path)
{
	char buf[4200];
	return REAL(opendir)(map_path(path, buf, sizeof(buf)));
}

int stat(const char *path, struct stat *st)
{
	char buf[4200];
	return REAL(stat)(map_path(path, buf, sizeof(buf)), st);
}
int stat64(const char *path, struct stat64 *st)
{
	char buf[4200];
	return REAL(stat64)(map_path(path, buf, sizeof(buf)), st);
}
int lstat(const char *path, struct stat *st)
{
	char buf[4200];
	return REAL(lstat)(map_path(path, buf, sizeof(buf)), st);
}
int lstat64(const char *path, struct stat64 *st)
{
	char buf[4200];
	return REAL(lstat64)(map_path(path, buf, sizeof(buf)), st);
}
int fstatat(int dirfd, const char *path, struct stat *st, int flags)
{
	char abs[4096], buf[4200];
	const char *p = at_path(dirfd, path, abs, sizeof(abs)), *m = map_path(p, buf, sizeof(buf));
	return REAL(fstatat)(m == p ? dirfd : AT_FDCWD, m == p ? path : m, st, flags);
}
int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags)
{
	char abs[4096], buf[4200];
	const char *p = at_path(dirfd, path, abs, sizeof(abs)), *m = map_path(p, buf, sizeof(buf));
	return REAL(fstatat64)(m == p ? dirfd : AT_FDCWD, m == p ? path : m, st, flags);
}
int access(const char *path, int mode)
{
	char buf[4200];
	return REAL(access)(map_path(path, buf, sizeof(buf)), mode);
}
int faccessat(int dirfd, const char *path, int mode, int flags)
{
	char abs[4096], buf[4200];
	const char *p = at_path(dirfd, path, abs, sizeof(abs)), *m = map_path(p, buf, sizeof(buf));
	return REAL(faccessat)(m == p ? dirfd : AT_FDCWD, m == p ? path : m, mode, flags);
}
ssize_t readlink(const char *path, char *out, size_t len)
{
	char buf[4200];
	return REAL(readlink)(map_path(path, buf, sizeof(buf)), out, len);
}
ssize_t readlinkat(int dirfd, const char *path, char *out, size_t len)
{
	char abs[4096], buf[4200];
	const char *p = at_path(dirfd, path, abs, sizeof(abs)), *m = map_path(p, buf, sizeof(buf));
	return REAL(readlinkat)(m == p ? dirfd : AT_FDCWD, m == p ? path : m, out, len);
}
/* the host's tree's own name taken off what it resolves to */
char *realpath(const char *path, char *out)
{
	char buf[4200];
	char *r = REAL(realpath)(map_path(path, buf, sizeof(buf)), out);
	size_t n = strlen(root);
	if (r && ready && !strncmp(r, root, n) && r[n] == '/')
		memmove(r, r + n, strlen(r + n) + 1);
	return r;
}
int scandir(const char *path, struct dirent ***list, int (*sel)(const struct dirent *),
	    int (*cmp)(const struct dirent **, const struct dirent **))
{
	char buf[4200];
	return REAL(scandir)(map_path(path, buf, sizeof(buf)), list, sel, cmp);
}

/* ---- descriptors ---- */
ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	return is_live(fd) ? live_rw(fd, buf, n, (uint64_t)off, 0) : REAL(pread)(fd, buf, n, off);
}
ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
	return is_live(fd) ? live_rw(fd, buf, n, (uint64_t)off, 0) : REAL(pread64)(fd, buf, n, off);
}
ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
{
	(void)buflen;
	return pread(fd, buf, n, off);
}
ssize_t __pread64_chk(int fd, void *buf, size_t n, off64_t off, size_t buflen)
{
	(void)buflen;
	return pread64(fd, buf, n, off);
}
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	return is_live(fd) ? live_rw(fd, (void *)buf, n, (uint64_t)off, 1) : REAL(pwrite)(fd, buf, n, off);
}
ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	return is_live(fd) ? live_rw(fd, (void *)buf, n, (uint64_t)off, 1) : REAL(pwrite64)(fd, buf, n, off);
}
ssize_t read(int fd, void *buf, size_t n)
{
	if (!is_live(fd))
		return REAL(read)(fd, buf, n);
	ssize_t r = live_rw(fd, buf, n, fds[fd].pos, 0);
	if (r > 0 && fds[fd].kind != MSR) /* the msr device's position is the register's address: it stays */
		fds[fd].pos += (uint64_t)r;
	return r;
}
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	(void)buflen;
	return read(fd, buf, n);
}
ssize_t write(int fd, const void *buf, size_t n)
{
	if (!is_live(fd))
		return REAL(write)(fd, buf, n);
	ssize_t r = live_rw(fd, (void *)buf, n, fds[fd].pos, 1);
	if (r > 0 && fds[fd].kind != MSR)
		fds[fd].pos += (uint64_t)r;
	return r;
}
off_t lseek(int fd, off_t off, int whence)
{
	if (!is_live(fd))
		return REAL(lseek)(fd, off, whence);
	uint64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? fds[fd].pos : fds[fd].kind == PCI ? 4096 : 0;
	if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END)
		return errno = EINVAL, -1;
	fds[fd].pos = base + (uint64_t)off;
	return (off_t)fds[fd].pos;
}
off64_t lseek64(int fd, off64_t off, int whence)
{
	return is_live(fd) ? (off64_t)lseek(fd, (off_t)off, whence) : REAL(lseek64)(fd, off, whence);
}
int close(int fd)
{
	if (fd >= 0 && fd < MAX_FD) {
		fds[fd].kind = NONE;
		rootfd[fd] = 0;
	}
	return REAL(close)(fd);
}
int dup(int fd)
{
	int n = REAL(dup)(fd);
	if (n >= 0 && n < MAX_FD && fd >= 0 && fd < MAX_FD)
		fds[n] = fds[fd], rootfd[n] = rootfd[fd];
	return n;
}
int dup2(int fd, int to)
{
	int n = REAL(dup2)(fd, to);
	if (n >= 0 && n < MAX_FD && fd >= 0 && fd < MAX_FD && n != fd)
		fds[n] = fds[fd], rootfd[n] = rootfd[fd];
	return n;
}

/* ---- /dev/mem windows: every load and store a fault, made on the register ---- */
static struct sigaction app_segv; /* the program's own handler, called for its own faults */
static int segv_ours;

/* the ucontext's register of x86 register number r (ModRM order: rax rcx rdx rbx rsp rbp rsi rdi r8..r15) */
static greg_t *gpr(ucontext_t *uc, int r)
{
	static const int at[16] = { REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
				    REG_R8,  REG_R9,  REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15 };
	return &uc->uc_mcontext.gregs[at[r & 15]];
}

/* Make the faulting instruction on the simulated register at phys and step past it: MOV r, m (8B), MOV m, r
 * (89), MOV m, imm (C7), MOVZX r, m8/m16 (0F B6/B7), with operand-size and REX prefixes (Intel SDM vol. 2
 * ch. 2: ModRM, SIB and displacement).  0 where the instruction is none of those. */
static int emulate(ucontext_t *uc, uint64_t phys)
{
	const uint8_t *ip = (const uint8_t *)uc->uc_mcontext.gregs[REG_RIP];
	int i = 0, rex = 0, o16 = 0, two = 0;
	for (;; i++) {
		uint8_t b = ip[i];
		if (b == 0x66)
			o16 = 1;
		else if (b != 0x2e && b != 0x3e && b != 0x26 && b != 0x36 && b != 0x64 && b != 0x65 && b != 0x67)
			break;
	}
	if ((ip[i] & 0xf0) == 0x40)
		rex = ip[i++];
	uint8_t op = ip[i++];
	if (op == 0x0f) {
		two = 1;
		op = ip[i++];
	}
	uint8_t modrm = ip[i++];
	int mod = modrm >> 6, reg = (modrm >> 3 & 7) | (rex & 4 ? 8 : 0), rm = modrm & 7;
	if (mod == 3)
		return 0;
	if (rm == 4) {
		uint8_t sib = ip[i++];
		if (mod == 0 && (sib & 7) == 5)
			i += 4;
	} else if (mod == 0 && rm == 5)
		i += 4;
	i += mod == 1 ? 1 : mod == 2 ? 4 : 0;
	int size = rex & 8 ? 8 : o16 ? 2 : 4;
	uint64_t v = 0;
	greg_t *r = gpr(uc, reg);
	if (!two && op == 0x8b) { /* load */
		if (phys_access(phys, &v, size, 0))
			v = ~0ull;
		if (size == 2)
			*r = (greg_t)(((uint64_t)*r & ~0xffffull) | (v & 0xffff));
		else
			*r = (greg_t)(size == 4 ? v & 0xffffffffull : v); /* a 32-bit load clears the upper half */
	} else if (!two && op == 0x89) { /* store */
		v = (uint64_t)*r;
		phys_access(phys, &v, size, 1);
	} else if (!two && op == 0xc7 && (modrm >> 3 & 7) == 0) { /* store of an immediate */
		int32_t imm32;
		int16_t imm16;
		if (size == 2) {
			memcpy(&imm16, ip + i, 2);
			v = (uint16_t)imm16;
			i += 2;
		} else {
			memcpy(&imm32, ip + i, 4);
			v = (uint64_t)(int64_t)imm32; /* sign-extended to 64 bits under REX.W */
			i += 4;
		}
		phys_access(phys, &v, size, 1);
	} else if (two && (op == 0xb6 || op == 0xb7)) { /* zero-extending load of a byte or a word */
		if (phys_access(phys, &v, op == 0xb6 ? 1 : 2, 0))
			v = ~0ull;
		*r = (greg_t)(v & (op == 0xb6 ? 0xffu : 0xffffu));
	} else
		return 0;
	uc->uc_mcontext.gregs[REG_RIP] += i;
	return 1;
}

/* The window mapped of /dev/mem that a is in, or -1 */
static int region_of(uintptr_t a)
{
	for (int k = 0; k < nregions; k++)
		if (a >= regions[k].addr && a < regions[k].addr + regions[k].len)
			return k;
	return -1;
}

/* (force_align_arg_pointer: qemu-user 7.2 enters a handler with the stack 8 bytes off the ABI's 16-byte
 * alignment, and the first call through the PLT from there, resolved by ld.so with aligned vector stores, faults) */
__attribute__((force_align_arg_pointer)) static void on_segv(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t a = (uintptr_t)si->si_addr;
	int k = region_of(a);
	if (k >= 0) {
		if (emulate(ctx, regions[k].phys + (a - regions[k].addr)))
			return;
		fprintf(stderr, "devfiles: an access of the /dev/mem window at 0x%llx by an instruction this "
				"library does not decode (%02x %02x %02x %02x)\n",
			(unsigned long long)(regions[k].phys + (a - regions[k].addr)),
			((uint8_t *)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP])[0],
			((uint8_t *)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP])[1],
			((uint8_t *)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP])[2],
			((uint8_t *)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP])[3]);
	} else /* said, so that a peer's own fault is not taken for the harness's (at 0: a general protection fault) */
		fprintf(stderr, "devfiles: a fault at 0x%llx (code %d), outside the /dev/mem windows: the program's own\n",
			(unsigned long long)a, si->si_code);
	if ((app_segv.sa_flags & SA_SIGINFO) && app_segv.sa_sigaction)
		app_segv.sa_sigaction(sig, si, ctx);
	else if (app_segv.sa_handler != SIG_DFL && app_segv.sa_handler != SIG_IGN)
		app_segv.sa_handler(sig);
	else { /* the default: fault again and end */
		struct sigaction d = { .sa_handler = SIG_DFL };
		REAL(sigaction)(SIGSEGV, &d, NULL);
	}
}

/* The program's handler of SIGSEGV is kept aside once the windows' is in place. */
int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	if (sig != SIGSEGV || !segv_ours)
		return REAL(sigaction)(sig, act, old);
	if (old)
		*old = app_segv;
	if (act)
		app_segv = *act;
	return 0;
}
sighandler_t signal(int sig, sighandler_t h)
{
	if (sig != SIGSEGV || !segv_ours)
		return REAL(signal)(sig, h);
	sighandler_t old = app_segv.sa_handler;
	memset(&app_segv, 0, sizeof(app_segv));
	app_segv.sa_handler = h;
	return old;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (!is_live(fd) || fds[fd].kind != MEM)
		return REAL(mmap)(addr, len, prot, flags, fd, off);
	void *p = REAL(mmap)(addr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | (flags & MAP_FIXED), -1, 0);
	if (p == MAP_FAILED)
		return p;
	pthread_mutex_lock(&mu);
	if (!segv_ours) {
		struct sigaction sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_NODEFER };
		REAL(sigaction)(SIGSEGV, &sa, &app_segv);
		segv_ours = 1;
	}
	int full = nregions == MAX_REGIONS;
	if (!full)
		regions[nregions++] = (__typeof__(regions[0])){ (uintptr_t)p, len, (uint64_t)off };
	pthread_mutex_unlock(&mu);
	(void)prot;
	if (full) { /* a window this library cannot follow would fault as the program's own bug: refused instead */
		fprintf(stderr, "devfiles: more than %d /dev/mem windows mapped at once\n", MAX_REGIONS);
		REAL(munmap)(p, len);
		errno = ENOMEM;
		return MAP_FAILED;
	}
	return p;
}
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
	return mmap(addr, len, prot, flags, fd, (off_t)off);
}
int munmap(void *addr, size_t len)
{
	pthread_mutex_lock(&mu);
	for (int k = 0; k < nregions; k++)
		if (regions[k].addr == (uintptr_t)addr)
			regions[k--] = regions[--nregions];
	pthread_mutex_unlock(&mu);
	return REAL(munmap)(addr, len);
}

/* ---- the simulated CPUs as the process's ---- */
static void fill_cpus(size_t size, cpu_set_t *set)
{
	CPU_ZERO_S(size, set);
	for (int c = 0; c < ncpus && (size_t)c < size * 8; c++)
		CPU_SET_S((size_t)c, size, set);
}
static int first_cpu(size_t size, const cpu_set_t *set)
{
	for (int c = 0; c < ncpus && (size_t)c < size * 8; c++)
		if (CPU_ISSET_S((size_t)c, size, set))
			return c;
	return -1;
}
int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	if (!ready)
		return REAL(sched_getaffinity)(pid, size, set);
	fill_cpus(size, set);
	return 0;
}
int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	if (!ready)
		return REAL(sched_setaffinity)(pid, size, set);
	int c = first_cpu(size, set);
	if (c < 0)
		return errno = EINVAL, -1;
	cur_cpu = c;
	return 0;
}
int pthread_getaffinity_np(pthread_t t, size_t size, cpu_set_t *set)
{
	if (!ready)
		return REAL(pthread_getaffinity_np)(t, size, set);
	fill_cpus(size, set);
	return 0;
}
int pthread_setaffinity_np(pthread_t t, size_t size, const cpu_set_t *set)
{
	if (!ready)
		return REAL(pthread_setaffinity_np)(t, size, set);
	int c = first_cpu(size, set);
	if (c < 0)
		return EINVAL;
	if (pthread_equal(t, pthread_self()))
		cur_cpu = c;
	return 0;
}
int sched_getcpu(void) { return ready ? cur_cpu : REAL(sched_getcpu)(); }
long sysconf(int name)
{
	if (ready && (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF))
		return ncpus;
	return REAL(sysconf)(name);
}
int get_nprocs(void) { return ready ? ncpus : REAL(get_nprocs)(); }
int get_nprocs_conf(void) { return ready ? ncpus : REAL(get_nprocs_conf)(); }

__attribute__((constructor)) static void init(void)
{
	const char *d = getenv("PEER_HOST_DIR");
	char p[1200], line[128];
	if (!d || !*d || strlen(d) >= sizeof(dir))
		return;
	snprintf(dir, sizeof(dir), "%s", d);
	snprintf(root, sizeof(root), "%s/root", dir);
	snprintf(p, sizeof(p), "%s/info", dir);
	FILE *f = REAL(fopen)(p, "r");
	if (!f) {
		fprintf(stderr, "devfiles: %s: %s (PEER_HOST_DIR names no running sim_host)\n", p, strerror(errno));
		abort();
	}
	while (fgets(line, sizeof(line), f))
		plain_sscanf(line, "ncpus %d", &ncpus);
	fclose(f);
	/* the MCFG table's first entry: segment 0's ECAM base (its buses 0-255) */
	snprintf(p, sizeof(p), "%s/sys/firmware/acpi/tables/MCFG", root);
	if ((f = REAL(fopen)(p, "rb"))) {
		uint8_t t[60];
		uint64_t base;
		if (fread(t, 1, sizeof(t), f) == sizeof(t)) {
			memcpy(&base, t + 44, 8);
			ecam_lo = base;
			ecam_hi = base + ((uint64_t)(t[55] - t[54]) + 1) * (1u << 20);
		}
		fclose(f);
	}
	ready = 1;
}
