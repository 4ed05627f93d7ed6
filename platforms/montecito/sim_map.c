/*
 * The simulator's register map of a Montecito core PMU (seed 004, Intel 308065-001, chapter 3).
 * IA-64 reaches PMC/PMD by instruction, not by address; the simulator numbers PMC n of core k as
 * 0x1000 + 0x200 k + n and PMD n as 0x1100 + 0x200 k + n, the convention the project's IA-64 access
 * uses.
 */
#include "sim/sim_model.h"
#include "sim/sim_only.h"

/* PMC0 (Table 3-8): fr bit 0, set by an overflow with oi = 1, cleared by software; overflow bits 15:4. */
static const struct sim_boxctl pmc0 = { .frz = 1u << 0, .pmc0 = 1 };

const struct sim_unit sim_montecito_units[] = {
	{ .name = "pmu", .space = SIM_MSR, .nboxes = 2, .bc = &pmc0, .box_stride = 0x200, .box_ctl = 0x1000,
	  .status = 0x1000, .status_shift = 4, .ctl0 = 0x1004, .ctl_stride = 1, .ctr0 = 0x1104, .ctr_stride = 1,
	  .nctr = 12, .width = 47 /* PMD count 46:0, Table 3-7 */,
	  /* PMC4-15 (Table 3-6): plm 3:0, ev 4, oi 5, pm 6, es 15:8, umask 19:16, threshold 22:20, ism 25:24,
	   * all 26, MESI 30:27; a plm bit set counts at that privilege level */
	  .ctl_writable = 0x7f7fff7full, .ctl_en = 0xf, .ev_shift = 8, .ov_en = 1ull << 5,
	  .src = "seed 004 Tables 3-4, 3-6, 3-7, 3-8" },
};
const int sim_montecito_nunits = 1;
