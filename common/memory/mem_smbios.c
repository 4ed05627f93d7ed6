/*
 * SMBIOS type 17 (Memory Device), as the DMTF's SMBIOS Reference Specification (DSP0134 3.3, section 7.18) lays it
 * out: each structure a formatted part of its length (offset 1) and a set of strings ending in two NULs, the table
 * ending at type 127 or its end.  Of each memory device: Size at 0x0C (0 no module installed, 0xFFFF unknown,
 * 0x7FFF the Extended Size at 0x1C), Device Locator at 0x10 (a string number), Configured Memory Speed at 0x20 in
 * MT/s (SMBIOS 2.7 on; 0 unknown, 0xFFFF the Extended Configured Memory Speed at 0x58, SMBIOS 3.3).  Linux shows
 * the table whole as /sys/firmware/dmi/tables/DMI (drivers/firmware/dmi-sysfs.c and dmi_scan.c), root's alone.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "memory.h"
#include "util/guarded_read.h"

#define T17_SIZE 0x0c
#define T17_LOCATOR 0x10
#define T17_CONF_SPEED 0x20
#define T17_EXT_CONF_SPEED 0x58
#define SMBIOS_END_TYPE 127

static unsigned u16at(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }
static uint32_t u32at(const uint8_t *p) { return (uint32_t)u16at(p) | (uint32_t)u16at(p + 2) << 16; }

/* String k (1..) of the set strs[0 .. n): NULL where there is none. */
static const char *string_no(const uint8_t *strs, size_t n, unsigned k)
{
	size_t at = 0;
	for (unsigned i = 1; k && at < n && strs[at]; i++) {
		if (i == k)
			return (const char *)strs + at; /* (the set ends in a NUL within n: checked by the caller) */
		at += strnlen((const char *)strs + at, n - at) + 1;
	}
	return NULL;
}

static void memory_device(const uint8_t *f, size_t flen, const uint8_t *strs, size_t slen, struct mem_smbios *s)
{
	s->devices++;
	if (flen < T17_SIZE + 2)
		return;
	unsigned size = u16at(f + T17_SIZE);
	if (!size)
		return; /* an empty slot */
	s->present++;
	const char *loc = flen > T17_LOCATOR ? string_no(strs, slen, f[T17_LOCATOR]) : NULL;
	if (loc && !s->first_locator[0])
		snprintf(s->first_locator, sizeof(s->first_locator), "%s", loc);
	uint32_t mts = flen >= T17_CONF_SPEED + 2 ? u16at(f + T17_CONF_SPEED) : 0;
	if (mts == 0xffff)
		mts = flen >= T17_EXT_CONF_SPEED + 4 ? u32at(f + T17_EXT_CONF_SPEED) & 0x7fffffffu : 0;
	if (!mts || mts > 1000000)
		return; /* not said (or past any DRAM's) */
	if (!s->mts_min || (int)mts < s->mts_min)
		s->mts_min = (int)mts;
	if ((int)mts > s->mts_max)
		s->mts_max = (int)mts;
}

int mem_smbios_parse(const uint8_t *t, size_t len, struct mem_smbios *s, char *why, size_t n)
{
	size_t off = 0;
	memset(s, 0, sizeof(*s));
	while (off + 4 <= len) {
		unsigned type = t[off], flen = t[off + 1];
		if (flen < 4 || flen > len - off) {
			snprintf(why, n, "the structure at byte %zu (type %u) is %u bytes long, %s", off, type, flen,
				 flen < 4 ? "shorter than its header" : "past the table's end");
			return -1;
		}
		/* its strings: up to two NULs in a row (an empty set is the two NULs alone) */
		size_t at = off + flen, end = 0;
		for (size_t k = at; k + 1 < len; k++)
			if (!t[k] && !t[k + 1]) {
				end = k + 2;
				break;
			}
		if (!end) {
			snprintf(why, n, "the strings of the structure at byte %zu (type %u) run past the table's end", off, type);
			return -1;
		}
		if (type == 17)
			memory_device(t + off, flen, t + at, end - at, s);
		if (type == SMBIOS_END_TYPE)
			break;
		off = end;
	}
	return 0;
}

int mem_smbios_table(const struct dev_fs *fs, uint8_t **out, size_t *len, char *why, size_t n)
{
	struct dev_fs tmp;
	char p[4096];
	struct stat st;
	const char *unknown = dev_fs_unknown(fs, MEM_SMBIOS_PATH);
	*out = NULL;
	if (unknown) /* a replayed snapshot without it: unknown, not absent */
		return snprintf(why, n, "unknown: %s", unknown), -1;
	fs = dev_fs_layer(fs, MEM_SMBIOS_PATH, &tmp);
	if (fs->mem) {
		const struct memfs_file *f = memfs_find(fs->mem, MEM_SMBIOS_PATH);
		if (!f || f->link || f->dir || f->make_text)
			return snprintf(why, n, "no %s", MEM_SMBIOS_PATH), -1;
		if (f->len > MEM_SMBIOS_MAX)
			return snprintf(why, n, "%s is %zu bytes, more than %d", MEM_SMBIOS_PATH, f->len, MEM_SMBIOS_MAX), -1;
		if (!(*out = malloc(f->len + 1)))
			return snprintf(why, n, "out of memory"), -1;
		memcpy(*out, f->text, f->len);
		*len = f->len;
		return 0;
	}
	int fd = uc_open_guarded(sysroot_path(p, sizeof(p), "%s", MEM_SMBIOS_PATH), MEM_SMBIOS_MAX, &st);
	if (fd < 0) {
		char w[128];
		if (errno == EACCES || errno == EPERM)
			return snprintf(why, n, "%s: only root may read it", p), -1;
		return snprintf(why, n, "%s: %s", p, uc_guarded_why(errno, &st, MEM_SMBIOS_MAX, 0, w, sizeof(w))), -1;
	}
	size_t got = 0, cap = st.st_size > 0 ? (size_t)st.st_size : 65536;
	uint8_t *b = malloc(cap);
	ssize_t r = 1;
	while (b && r > 0 && got < cap) {
		r = read(fd, b + got, cap - got);
		got += r > 0 ? (size_t)r : 0;
	}
	close(fd);
	if (!b || r < 0) {
		free(b);
		return snprintf(why, n, "%s: %s", p, b ? strerror(errno) : "out of memory"), -1;
	}
	*out = b;
	*len = got;
	return 0;
}

int mem_smbios_read(const struct dev_fs *fs, struct mem_smbios *s, char *why, size_t n)
{
	uint8_t *t;
	size_t len = 0;
	if (mem_smbios_table(fs, &t, &len, why, n))
		return -1;
	int rc = mem_smbios_parse(t, len, s, why, n);
	free(t);
	return rc;
}
