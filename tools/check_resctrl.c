/*
 * The resctrl row of `uncore check`.  Linux's resctrl file system gives, where the CPU has Intel RDT's memory
 * bandwidth monitoring, each L3 domain's bytes to and from memory (mon_data/mon_L3_NN/mbm_total_bytes; its
 * info/L3_MON/mon_features lists mbm_total_bytes).  Comparing it with the uncore needs a generator run of its
 * own between two reads of the files; not built yet, the row says whether the kernel offers it at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"

#define ROW "resctrl memory-bandwidth monitoring = uncore"

int check_resctrl_rows(struct check *c)
{
	char path[512], line[64];
	const char *root = getenv("UNCORE_SYSROOT");
	int mbm = 0;
	if (c->sim)
		return verdict_add(c->t, V_SKIP, ROW, "-", "-", "the simulator has no resctrl file system");
	snprintf(path, sizeof(path), "%s/sys/fs/resctrl/info/L3_MON/mon_features", root && *root ? root : "");
	FILE *f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		mbm |= !strcmp(line, "mbm_total_bytes\n");
	if (f)
		fclose(f);
	if (!mbm)
		return verdict_add(c->t, V_SKIP, ROW, "-", "-", "the kernel offers no resctrl memory-bandwidth monitoring "
				   "here (%s lists no mbm_total_bytes; mount -t resctrl resctrl /sys/fs/resctrl)", path);
	return verdict_add(c->t, V_SKIP, ROW, "-", "-", "resctrl counts memory bandwidth here, but the check does not "
			   "compare it yet");
}
