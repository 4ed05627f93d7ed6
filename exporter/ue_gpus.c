/*
 * The NVIDIA GPUs among a port's devices, labelled as NVIDIA's DCGM exporter labels its series: gpu (here the
 * driver's minor number, /dev/nvidia<minor>) and UUID, so that joining an IIO series with DCGM's is one
 * on(UUID) (doc/prometheus.md).  Both from the driver's /proc/driver/nvidia/gpus/<bdf>/information ("Device
 * Minor:" and "GPU UUID:" lines), or the file standing in for it below UNCORE_SYSROOT; a simulated machine's
 * GPUs only from there (the host's own GPUs are not the simulated ones).  A group of devices behind a
 * switch lists its GPUs comma-separated in pci_bdf's order, as the other device labels do, and has none where
 * one of its GPUs cannot be identified.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ue.h"

/* the file's text (a regular file only: a FIFO put there must not block a read); 0, or -1 */
static int info_text(const char *bdf, char *buf, size_t len)
{
	const char *root = getenv("UNCORE_SYSROOT");
	char p[512];
	struct stat st;
	snprintf(p, sizeof(p), "%s/proc/driver/nvidia/gpus/%s/information", root ? root : "", bdf);
	int fd = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = !fstat(fd, &st) && S_ISREG(st.st_mode) ? read(fd, buf, len - 1) : -1;
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return 0;
}

/* the value after "key:" on its line, blanks trimmed */
static int field(const char *text, const char *key, char *out, size_t len)
{
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, strlen(key)))
			continue;
		const char *v = l + strlen(key);
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

void ue_gpu_labels(int simulated, const char *bdfs, const char *drivers, char *out, size_t len)
{
	char gpu[256] = "", uuid[1024] = "";
	size_t ng = 0, nu = 0;
	int unknown = 0; /* a GPU of the group not identified: no labels, or a join would give it the group's bytes */
	out[0] = 0;
	if (simulated && !getenv("UNCORE_SYSROOT"))
		return;
	for (const char *b = bdfs, *d = drivers; b && *b;) {
		size_t bn = strcspn(b, ","), dn = d ? strcspn(d, ",") : 0;
		char bdf[32], text[4096], minor[16], id[128];
		if (d && dn == 6 && !strncmp(d, "nvidia", 6) && bn < sizeof(bdf)) {
			memcpy(bdf, b, bn);
			bdf[bn] = 0;
			/* the minor a number, the UUID of label-safe characters (GPU-<hex and dashes>), else no label */
			if (!info_text(bdf, text, sizeof(text)) && !field(text, "Device Minor:", minor, sizeof(minor)) &&
			    strspn(minor, "0123456789") == strlen(minor) && !field(text, "GPU UUID:", id, sizeof(id)) &&
			    strspn(id, "GPU-MIG0123456789abcdefABCDEF/") == strlen(id) && ng + strlen(minor) + 2 < sizeof(gpu) &&
			    nu + strlen(id) + 2 < sizeof(uuid)) {
				ng += (size_t)snprintf(gpu + ng, sizeof(gpu) - ng, "%s%s", ng ? "," : "", minor);
				nu += (size_t)snprintf(uuid + nu, sizeof(uuid) - nu, "%s%s", nu ? "," : "", id);
			} else
				unknown = 1;
		}
		b += bn + (b[bn] == ',');
		if (d)
			d = d[dn] ? d + dn + 1 : NULL;
	}
	if (ng && !unknown)
		snprintf(out, len, ",gpu=\"%s\",UUID=\"%s\"", gpu, uuid);
}
