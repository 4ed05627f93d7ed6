/*
 * The simulated Ice Lake-SP: its builder's view of the register map (sim_map.c), the PMU types of the
 * simulated kernel (sim_perf.c).
 */
#ifndef UNCORE_SIM_ICX_H
#define UNCORE_SIM_ICX_H

#include "sim/sim.h"
#include "sim/sim_perf.h"

#define SIM_ICX_MAX_CHA 40 /* icx_cha_msr_offsets[] */
#define SIM_ICX_STACKS 6   /* IIO, IRP, M2PCIe: num_boxes 6 */

SIM_MAP_DECL(icx);
SIM_PERF_DECL(icx);
extern const struct sim_ubox_dev sim_icx_ubox;
extern const struct sim_global sim_icx_global; /* sim_map.c: U_MSR_PMON_GLOBAL_CTL 0x700 */
extern const struct sim_root_fn sim_icx_root_fns[]; /* board.c */
extern const struct sim_board sim_icx_board;       /* board.c */
extern const struct sim_cbdma sim_icx_cbdma;       /* board.c */
extern const struct sim_mem_board sim_icx_mem;     /* sim_memory.c */

#endif
