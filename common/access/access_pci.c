/*
 * PCI configuration space through libpci's sysfs method, rooted at the sysroot.
 * libpci reports fatal errors through a noreturn callback; we catch them with
 * longjmp so the library never exits the process.
 * libpci opens a device's config file (read-write) without O_CLOEXEC when first used; right after
 * every call we mark its descriptors close-on-exec, so no command the process runs later gets them.
 * (A thread of the host that forks and execs during the call itself could still take one; the CLI
 * also closes everything but its caller's descriptors before it runs a command.)
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <pci/pci.h>
#include "access.h"
#include "util/error.h"

struct pci_backend {
	struct pci_access *pacc;
	char sysfs[4096];
	struct pci_cache {
		struct pci_loc loc;
		struct pci_dev *dev;
	} *devs;
	int ndevs;
};

static _Thread_local jmp_buf *pci_jmp;
static _Thread_local char pci_msg[256];

static void PCI_NONRET pci_fatal(char *msg, ...)
{
	va_list ap;
	va_start(ap, msg);
	vsnprintf(pci_msg, sizeof(pci_msg), msg, ap);
	va_end(ap);
	if (pci_jmp)
		longjmp(*pci_jmp, 1);
	abort(); /* unreachable: every libpci call is guarded */
}

static void pci_quiet(char *msg, ...)
{
	va_list ap;
	va_start(ap, msg);
	vsnprintf(pci_msg, sizeof(pci_msg), msg, ap);
	va_end(ap);
}

struct pci_backend *pci_backend_open(void)
{
	struct pci_backend *volatile p = calloc(1, sizeof(*p));
	jmp_buf jb;
	if (!p) {
		uc_err("out of memory");
		return NULL;
	}
	sysroot_path(p->sysfs, sizeof(p->sysfs), "/sys/bus/pci");
	pci_jmp = &jb;
	if (setjmp(jb)) {
		pci_jmp = NULL;
		uc_err("libpci: %s", pci_msg);
		free(p);
		return NULL;
	}
	p->pacc = pci_alloc();
	p->pacc->error = pci_fatal;
	p->pacc->warning = pci_quiet;
	p->pacc->debug = pci_quiet;
	p->pacc->method = PCI_ACCESS_SYS_BUS_PCI;
	p->pacc->writeable = 1;
	pci_set_param(p->pacc, "sysfs.path", p->sysfs);
	pci_init(p->pacc);
	pci_jmp = NULL;
	return p;
}

/* libpci keeps the descriptors of the device it used last in these fields of pci_access. */
static void pci_cloexec(struct pci_backend *p)
{
	if (p->pacc->fd >= 0)
		fcntl(p->pacc->fd, F_SETFD, FD_CLOEXEC);
	if (p->pacc->fd_vpd >= 0)
		fcntl(p->pacc->fd_vpd, F_SETFD, FD_CLOEXEC);
}

static struct pci_dev *pci_dev_get(struct pci_backend *p, const struct pci_loc *d)
{
	struct pci_dev *dev;
	for (int i = 0; i < p->ndevs; i++)
		if (!memcmp(&p->devs[i].loc, d, sizeof(*d)))
			return p->devs[i].dev;
	dev = pci_get_dev(p->pacc, d->dom, d->bus, d->dev, d->fn);
	if (dev) {
		struct pci_cache *nc = realloc(p->devs, (size_t)(p->ndevs + 1) * sizeof(*nc));
		if (!nc)
			return dev; /* uncached: still usable, leaks nothing beyond this call */
		p->devs = nc;
		p->devs[p->ndevs].loc = *d;
		p->devs[p->ndevs].dev = dev;
		p->ndevs++;
	}
	return dev;
}

/* libpci hides errno: reopen the config file to tell the user why it failed. */
static int pci_explain(struct pci_backend *p, const struct pci_loc *d, uint32_t off, size_t len, int write)
{
	char path[4200];
	int fd;
	snprintf(path, sizeof(path), "%s/devices/%04x:%02x:%02x.%d/config", p->sysfs, d->dom, d->bus, d->dev, d->fn);
	fd = open(path, (write ? O_RDWR : O_RDONLY) | O_NONBLOCK | O_CLOEXEC); /* a FIFO planted in a sysroot: no wait */
	if (fd < 0)
		return access_errno_error(errno, path, write ? "writing PCI config space" : "reading PCI config space");
	if (!write) {
		char buf[8];
		struct stat st;
		ssize_t r = pread(fd, buf, len < sizeof(buf) ? len : sizeof(buf), off);
		int e = errno, sized = !fstat(fd, &st);
		close(fd);
		if (r < 0)
			return access_errno_error(e, path, "reading PCI config space");
		/* a file shorter than the read (a snapshot's or a sysroot's, one cut short): whoever reads it */
		if (r < (ssize_t)len && sized && st.st_size < (off_t)off + (off_t)len)
			return uc_err("reading PCI config space: %s holds only %lld bytes, not offset 0x%x", path,
				      (long long)st.st_size, off);
		if (r == 0)
			return uc_err("reading PCI config space: %s has no offset 0x%x: only root can read past "
				      "the first 64 bytes (or 256 without extended config access)", path, off);
	} else {
		close(fd);
	}
	return uc_err("%s PCI config %s at 0x%x failed (%s)", write ? "writing" : "reading", path, off, pci_msg);
}

/* One access through libpci, whose errors longjmp back here (pci_jmp): a read of len bytes into buf, or a write
 * of the dword at buf. */
static int pci_access(struct pci_backend *p, const struct pci_loc *d, uint32_t off, void *buf, size_t len, int write,
		      struct uncore_stats *st)
{
	jmp_buf jb;
	struct pci_dev *dev;
	int ok;
	pci_jmp = &jb;
	if (setjmp(jb)) {
		pci_jmp = NULL;
		pci_cloexec(p);
		return uc_err("libpci: %s", pci_msg);
	}
	pci_msg[0] = 0;
	dev = pci_dev_get(p, d);
	ok = dev && (write ? pci_write_long(dev, (int)off, *(const uint32_t *)buf)
			   : pci_read_block(dev, (int)off, buf, (int)len));
	pci_jmp = NULL;
	pci_cloexec(p);
	st->syscalls++;
	if (write)
		st->writes++;
	else
		st->reads += len / 4;
	return ok ? 0 : pci_explain(p, d, off, len, write);
}

int pci_backend_read(struct pci_backend *p, const struct pci_loc *d, uint32_t off, void *buf, size_t len,
		     struct uncore_stats *st)
{
	return pci_access(p, d, off, buf, len, 0, st);
}

int pci_backend_write32(struct pci_backend *p, const struct pci_loc *d, uint32_t off, uint32_t val,
			struct uncore_stats *st)
{
	return pci_access(p, d, off, &val, 4, 1, st);
}

void pci_backend_close(struct pci_backend *p)
{
	jmp_buf jb;
	if (!p)
		return;
	pci_jmp = &jb;
	if (!setjmp(jb)) {
		for (int i = 0; i < p->ndevs; i++)
			pci_free_dev(p->devs[i].dev);
		pci_cleanup(p->pacc);
	}
	pci_jmp = NULL;
	free(p->devs);
	free(p);
}
