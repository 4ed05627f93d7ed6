/*
 * resctrl's memory-bandwidth monitoring (Linux Documentation/arch/x86/resctrl.rst, "Monitoring"): where
 * the CPU has Intel RDT's MBM and resctrl is mounted, info/L3_MON/mon_features lists mbm_total_bytes and
 * mon_data/mon_L3_<id>/mbm_total_bytes gives the bytes an L3 domain moved to and from memory, for every task
 * of the default group, which holds all of them.  The domain id is the L3 cache's id (cache/index3/id).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "access.h"
#include "util/error.h"
#include "util/safe_file.h"

int resctrl_mbm_bytes(int cpu, uint64_t *bytes)
{
	char path[512], line[64];
	long id;
	int mbm = 0, refused;
	FILE *f = uc_open_sysfile(sysroot_path(path, sizeof(path), "/sys/fs/resctrl/info/L3_MON/mon_features"), &refused);
	if (refused)
		return uc_err_prefix("resctrl: ");
	while (f && fgets(line, sizeof(line), f))
		mbm |= !strcmp(line, "mbm_total_bytes\n");
	if (f)
		fclose(f);
	if (!mbm)
		return uc_err("the kernel offers no resctrl memory-bandwidth monitoring here (%s lists no mbm_total_bytes: "
			      "no RDT MBM, or resctrl not mounted: mount -t resctrl resctrl /sys/fs/resctrl)", path);
	if (sysroot_read_long(sysroot_path(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cache/index3/id", cpu), &id))
		return uc_err("resctrl: cannot read CPU %d's L3 cache id (%s)", cpu, path);
	f = uc_open_sysfile(sysroot_path(path, sizeof(path), "/sys/fs/resctrl/mon_data/mon_L3_%02ld/mbm_total_bytes", id),
			    &refused);
	if (refused)
		return uc_err_prefix("resctrl: ");
	int ok = f && fscanf(f, "%" SCNu64, bytes) == 1; /* "Unavailable" while the counter is not assigned */
	if (f)
		fclose(f);
	return ok ? 0 : uc_err("resctrl: %s does not give a byte count", path);
}
