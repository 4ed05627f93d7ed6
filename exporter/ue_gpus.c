/*
 * The NVIDIA GPUs among a port's devices, labelled as NVIDIA's DCGM exporter labels its series: gpu (here the
 * driver's minor number, /dev/nvidia<minor>) and UUID, so that joining an IIO series with DCGM's is one
 * on(UUID) (doc/prometheus.md).  Both from the driver's /proc/driver/nvidia/gpus/<bdf>/information as the
 * library reads the node's files (uncore_gpu_info: below UNCORE_SYSROOT, and a simulated node's own driver
 * files).  A group of devices behind a switch lists its GPUs comma-separated in pci_bdf's order, as the other
 * device labels do, and has none where one of its GPUs cannot be identified.
 */
#include <stdio.h>
#include <string.h>
#include "ue.h"

void ue_gpu_labels(uncore_t *u, const char *bdfs, const char *drivers, char *out, size_t len)
{
	char gpu[256] = "", uuid[1024] = "";
	size_t ng = 0, nu = 0;
	int unknown = 0; /* a GPU of the group not identified: no labels, or a join would give it the group's bytes */
	out[0] = 0;
	for (const char *b = bdfs, *d = drivers; b && *b;) {
		size_t bn = strcspn(b, ","), dn = d ? strcspn(d, ",") : 0;
		char bdf[32];
		struct uncore_gpu g;
		if (d && dn == 6 && !strncmp(d, "nvidia", 6) && bn < sizeof(bdf)) {
			memcpy(bdf, b, bn);
			bdf[bn] = 0;
			if (!uncore_gpu_info(u, bdf, &g) && g.uuid[0] && ng + 16 < sizeof(gpu) &&
			    nu + strlen(g.uuid) + 2 < sizeof(uuid)) {
				ng += (size_t)snprintf(gpu + ng, sizeof(gpu) - ng, "%s%d", ng ? "," : "", g.minor);
				nu += (size_t)snprintf(uuid + nu, sizeof(uuid) - nu, "%s%s", nu ? "," : "", g.uuid);
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
