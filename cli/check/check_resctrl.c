/*
 * The resctrl rows of `uncore check`: where the kernel offers resctrl's memory-bandwidth monitoring (Intel
 * RDT MBM; on the simulator, its own count of what each socket's memory moved), the bytes its L3 domain
 * moved while a socket's generators ran must agree with what the uncore counted there, within a margin:
 * MBM counts in chunks of its upscaling factor (info/L3_MON, tens of KiB) and sees the lines the program
 * itself touches around the run, as the uncore's own margins allow.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "check.h"

#define RDT_REL 0.1             /* resctrl and the uncore agree within 10 % ... */
#define RDT_ABS (16.0 * 1048576) /* ... plus 16 MiB */

int check_resctrl_read(struct check *c, int sock, uint64_t *bytes)
{
	if (c->rdt_off)
		return -1;
	if (!uncore_resctrl_bytes(c->u, sock, bytes))
		return 0;
	c->rdt_off = 1; /* once: the kernel's answer does not change within a run */
	snprintf(c->rdt_why, sizeof(c->rdt_why), "%s", uncore_error());
	return -1;
}

int check_resctrl_rows(struct check *c)
{
	for (int k = 0; k < c->nsock; k++) {
		char check[96], exp[96], got[96];
		double rdt = c->rdt[k], unc = c->rdt_uncore[k], lim = RDT_REL * fmax(rdt, unc) + RDT_ABS;
		if (c->gen_s[k] <= 0)
			continue; /* no generator ran there */
		snprintf(check, sizeof(check), "socket %d: resctrl memory bandwidth = uncore", k);
		snprintf(exp, sizeof(exp), "within %.0f%% + %.0f MiB", 100 * RDT_REL, RDT_ABS / 1048576);
		if (c->rdt_off) {
			verdict_add(c->t, V_SKIP, check, exp, "-", "%s", c->rdt_why);
			continue;
		}
		snprintf(got, sizeof(got), "%.1f / %.1f MiB", rdt / 1048576, unc / 1048576);
		if (isnan(unc) || fabs(rdt - unc) > lim)
			verdict_add(c->t, V_FAIL, check, exp, got, "resctrl saw %.1f MiB move, the uncore counted %.1f MiB: "
				    "the uncore misses or adds traffic (or resctrl's domain is not this socket)", rdt / 1048576,
				    unc / 1048576);
		else
			verdict_add(c->t, V_PASS, check, exp, got, "%s", "");
	}
	return 0;
}
