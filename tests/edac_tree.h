/*
 * EDAC trees and SMBIOS tables laid out in a fake sysroot (fake_tree.h), as Linux's edac_mc_sysfs.c and a BIOS write
 * them: the helpers of the memory population's tests (test_memory.c, test_memory_shapes.c).
 */
#ifndef TEST_EDAC_TREE_H
#define TEST_EDAC_TREE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "fake_tree.h"

static inline void clear_tree(void)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys'", root);
	CU_ASSERT(system(cmd) == 0);
}

static inline void mc(int n, const char *name)
{
	char p[96], v[256];
	snprintf(p, sizeof(p), "/sys/devices/system/edac/mc/mc%d/mc_name", n);
	snprintf(v, sizeof(v), "%s\n", name);
	put_str(v, p);
	snprintf(p, sizeof(p), "/sys/devices/system/edac/mc/mc%d/size_mb", n); /* one of a controller's own files */
	put_str("0\n", p);
}

/* A DIMM as edac_mc_sysfs.c shows it: dimm<idx>/ with "channel C slot S \n", size in MiB, type and label. */
static inline void dimm(int n, int idx, int chan, int slot, const char *mib, const char *type, const char *label)
{
	char d[96], p[160], v[96];
	snprintf(d, sizeof(d), "/sys/devices/system/edac/mc/mc%d/dimm%d", n, idx);
	snprintf(p, sizeof(p), "%s/dimm_location", d);
	snprintf(v, sizeof(v), "channel %d slot %d \n", chan, slot);
	put_str(v, p);
	snprintf(p, sizeof(p), "%s/size", d);
	snprintf(v, sizeof(v), "%s\n", mib);
	put_str(v, p);
	snprintf(p, sizeof(p), "%s/dimm_mem_type", d);
	snprintf(v, sizeof(v), "%s\n", type);
	put_str(v, p);
	snprintf(p, sizeof(p), "%s/dimm_label", d);
	snprintf(v, sizeof(v), "%s\n", label);
	put_str(v, p);
}

struct blob {
	uint8_t b[4096];
	size_t n;
};

/* A structure: type, formatted length, the formatted bytes after the header (len - 4 of them), then strings. */
static inline void structure(struct blob *t, int type, int len, const uint8_t *body, const char *const *strs)
{
	uint8_t *s = t->b + t->n;
	s[0] = (uint8_t)type, s[1] = (uint8_t)len, s[2] = (uint8_t)t->n, s[3] = 0;
	if (len > 4)
		memcpy(s + 4, body, (size_t)len - 4);
	t->n += (size_t)len;
	int any = 0;
	for (; strs && *strs; strs++, any = 1) {
		memcpy(t->b + t->n, *strs, strlen(*strs) + 1);
		t->n += strlen(*strs) + 1;
	}
	t->b[t->n++] = 0;
	if (!any)
		t->b[t->n++] = 0;
}

#endif
