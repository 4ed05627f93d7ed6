/*
 * SMBIOS type 17 (Memory Device), as the DMTF's SMBIOS Reference Specification (DSP0134 3.3, section 7.18) lays it
 * out: each structure a formatted part of its length (offset 1) and a set of strings ending in two NULs, the table
 * ending at type 127 or its end.  Of each memory device: Size at 0x0C (0 no module installed, 0xFFFF unknown,
 * 0x7FFF the Extended Size at 0x1C), Device Locator at 0x10 (a string number), Configured Memory Speed at 0x20 in
 * MT/s (SMBIOS 2.7 on; 0 unknown, 0xFFFF the Extended Configured Memory Speed at 0x58, SMBIOS 3.3).  Linux shows
 * the table whole as /sys/firmware/dmi/tables/DMI (drivers/firmware/dmi-sysfs.c and dmi_scan.c), root's alone.
 *
 * A structure is as long as its table's version makes it (issue 98, real servers' tables): 28 bytes in SMBIOS 2.6
 * (no Configured Speed: the rated Speed at 0x15, MT/s from 2.7's wording, 0 unknown, 0xFFFF the Extended Speed at
 * 0x54 of 3.3), 34 or 40 in 2.7/2.8, 84 in 3.2, 92 in 3.3 on; a field past the length is not there.  A device that
 * is no DRAM -- Memory Type 0x12 FLASH (0x09) or Logical non-volatile device (0x1F), Type Detail's Non-volatile bit
 * 12 (0x13), Memory Technology 0x28 (3.2 on) NVDIMM-N/F/P (4-6) or Intel Optane persistent memory (7) -- is counted
 * apart and kept out of the DRAM's speed.
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
#define T17_TYPE 0x12
#define T17_DETAIL 0x13
#define T17_SPEED 0x15
#define T17_EXT_SPEED 0x54
#define T17_TECH 0x28
#define DETAIL_NONVOLATILE (1u << 12)
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

/* What a device present is when it is no DRAM: its kind, or NULL for DRAM. */
static const char *not_dram(const uint8_t *f, size_t flen)
{
	static const char *const tech[] = { [4] = "NVDIMM-N", [5] = "NVDIMM-F", [6] = "NVDIMM-P",
					    [7] = "Intel Optane persistent memory" };
	if (flen > T17_TECH && f[T17_TECH] >= 4 && f[T17_TECH] <= 7)
		return tech[f[T17_TECH]];
	if (flen > T17_TYPE && f[T17_TYPE] == 0x09)
		return "Flash";
	if (flen > T17_TYPE && f[T17_TYPE] == 0x1f)
		return "logical non-volatile device";
	if (flen >= T17_DETAIL + 2 && u16at(f + T17_DETAIL) & DETAIL_NONVOLATILE)
		return "non-volatile memory";
	return NULL;
}

/* A speed field at off (MT/s) with its extended one at ext (0xFFFF: there, bits 30:0): the speed, 0 where the
 * table says "Unknown", -1 where the structure is too short to hold the field. */
static long speed_at(const uint8_t *f, size_t flen, size_t off, size_t ext)
{
	if (flen < off + 2)
		return -1;
	uint32_t mts = u16at(f + off);
	if (mts == 0xffff)
		mts = flen >= ext + 4 ? u32at(f + ext) & 0x7fffffffu : 0;
	return mts > 1000000 ? 0 : (long)mts; /* past any DRAM's: not said */
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
	const char *nv = not_dram(f, flen);
	if (nv) {
		if (!s->nonvolatile++)
			snprintf(s->nv_kind, sizeof(s->nv_kind), "%s", nv);
		return;
	}
	const char *loc = flen > T17_LOCATOR ? string_no(strs, slen, f[T17_LOCATOR]) : NULL;
	if (loc && !s->first_locator[0])
		snprintf(s->first_locator, sizeof(s->first_locator), "%s", loc);
	long conf = speed_at(f, flen, T17_CONF_SPEED, T17_EXT_CONF_SPEED), rated = speed_at(f, flen, T17_SPEED, T17_EXT_SPEED);
	long mts = conf > 0 ? conf : rated > 0 ? rated : 0;
	if (!mts) {
		s->unknown++;
		return;
	}
	if (conf > 0)
		s->configured++;
	else
		s->rated++;
	if (!s->mts_min || mts < s->mts_min)
		s->mts_min = (int)mts;
	if (mts > s->mts_max)
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
