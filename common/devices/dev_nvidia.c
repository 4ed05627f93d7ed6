/*
 * The NVIDIA driver's /proc/driver/nvidia/gpus/<bdf>/information, as its procfs code prints it (a field a line,
 * "Name: \t value"): the GPU's minor ("Device Minor:", its /dev/nvidia<minor>) and UUID ("GPU UUID:"), read
 * through the node's files -- the machine's below the sysroot, or a simulated node's own driver files.  The
 * jobs' devices take the minor (job_devs.c), the front ends both (uncore_gpu_info: the labels NVIDIA's DCGM
 * exporter gives a GPU's series).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dev_nvidia.h"
#include "dev_map.h"
#include "dev_files.h"
#include "util/error.h"

/* the value after "key" at the start of a line, blanks trimmed: 0, or -1 (none, empty, or too long) */
static int field(const char *text, const char *key, char *out, size_t len)
{
	size_t k = strlen(key);
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, k))
			continue;
		const char *v = l + k;
		v += strspn(v, " \t");
		size_t n = strcspn(v, "\n");
		while (n && (v[n - 1] == ' ' || v[n - 1] == '\t' || v[n - 1] == '\r'))
			n--;
		if (!n || n >= len)
			return -1;
		memcpy(out, v, n);
		out[n] = 0;
		return 0;
	}
	return -1;
}

int dev_nvidia_gpu(const struct dev_fs *fs, const char *bdf, unsigned *minor, char *uuid, size_t len)
{
	char p[256], text[4096], m[16];
	struct stat st;
	size_t got;
	if (len)
		uuid[0] = 0;
	if (snprintf(p, sizeof(p), "/proc/driver/nvidia/gpus/%s/information", bdf) >= (int)sizeof(p) ||
	    dev_fs_text(fs, p, text, sizeof(text), &got, &st) || field(text, "Device Minor:", m, sizeof(m)) ||
	    strspn(m, "0123456789") != strlen(m) || strlen(m) > 7)
		return -1;
	*minor = (unsigned)strtoul(m, NULL, 10);
	/* label-safe: "GPU-" and the 8-4-4-4-12 hex digits the driver prints (or a MIG device's "MIG-GPU-.../g/c") */
	if (len && (field(text, "GPU UUID:", uuid, len) || strspn(uuid, "GPU-MIG0123456789abcdefABCDEF/") != strlen(uuid)))
		uuid[0] = 0;
	return 0;
}

int uncore_gpu_info(uncore_t *u, const char *bdf, struct uncore_gpu *out)
{
	struct dev_fs fs;
	unsigned minor;
	memset(out, 0, sizeof(*out));
	if (!bdf || dev_fs_sim(u, &fs))
		return -1;
	fs.with_host = 1; /* the jobs' view (jobs_api.c): a simulated node's own driver files */
	if (dev_nvidia_gpu(&fs, bdf, &minor, out->uuid, sizeof(out->uuid)))
		return uc_err("%s: no NVIDIA GPU the driver lists (/proc/driver/nvidia/gpus/%s/information)", bdf, bdf);
	out->minor = (int)minor;
	return 0;
}
