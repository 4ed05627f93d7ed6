/* MMIO windows: mmap of a PCI BAR resource file or /dev/mem, below the sysroot. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "access.h"
#include "util/error.h"

struct mmio_window {
	volatile uint8_t *base;
	void *map;
	size_t maplen, len;
	size_t limit; /* bytes from base that exist behind the mapping (a file's end) */
};

struct mmio_window *mmio_map(const char *path, uint64_t off, size_t len)
{
	char full[4096];
	long pg = sysconf(_SC_PAGESIZE);
	uint64_t aligned = off & ~(uint64_t)(pg - 1);
	struct mmio_window *w;
	int fd = open(sysroot_path(full, sizeof(full), "%s", path), O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		access_errno_error(errno, full, "mapping an MMIO window");
		return NULL;
	}
	struct stat st;
	w = calloc(1, sizeof(*w));
	if (!w) {
		close(fd);
		uc_err("out of memory");
		return NULL;
	}
	/* a regular file (a test's fake /dev/mem) has an end: a page past it faults (SIGBUS) when touched,
	 * so accesses there are refused; a device has no such end */
	w->limit = !fstat(fd, &st) && S_ISREG(st.st_mode) ? (st.st_size > (off_t)off ? (size_t)(st.st_size - (off_t)off) : 0)
							    : SIZE_MAX;
	w->maplen = len + (size_t)(off - aligned);
	w->map = mmap(NULL, w->maplen, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)aligned);
	close(fd);
	if (w->map == MAP_FAILED) {
		access_errno_error(errno, full, "mapping an MMIO window");
		free(w);
		return NULL;
	}
	w->base = (volatile uint8_t *)w->map + (off - aligned);
	w->len = len;
	return w;
}

static int mmio_check(struct mmio_window *w, uint64_t off, size_t sz)
{
	if (off + sz > w->len || (off & (sz - 1)))
		return uc_err("MMIO access at 0x%llx (%zu bytes) is outside the %zu-byte window or unaligned",
			      (unsigned long long)off, sz, w->len);
	if (off + sz > w->limit)
		return uc_err("MMIO access at 0x%llx of the window lies beyond the end of the file behind it",
			      (unsigned long long)off);
	return 0;
}

int mmio_read32(struct mmio_window *w, uint64_t off, uint32_t *val)
{
	if (mmio_check(w, off, 4))
		return -1;
	*val = *(volatile uint32_t *)(w->base + off);
	return 0;
}

int mmio_read64(struct mmio_window *w, uint64_t off, uint64_t *val)
{
	if (mmio_check(w, off, 8))
		return -1;
	*val = *(volatile uint64_t *)(w->base + off);
	return 0;
}

int mmio_write32(struct mmio_window *w, uint64_t off, uint32_t val)
{
	if (mmio_check(w, off, 4))
		return -1;
	*(volatile uint32_t *)(w->base + off) = val;
	return 0;
}

int mmio_write64(struct mmio_window *w, uint64_t off, uint64_t val)
{
	if (mmio_check(w, off, 8))
		return -1;
	*(volatile uint64_t *)(w->base + off) = val;
	return 0;
}

void mmio_unmap(struct mmio_window *w)
{
	if (!w)
		return;
	munmap(w->map, w->maplen);
	free(w);
}
