/*
 * The simulated Granite Rapids machine that sim:srf and sim:cwf reuse (same Linux driver, same unit
 * layout): its builder, register map, PMU types and global registers.  A kind sets its CPUID and the
 * number of CHAs (cores), spread over the three compute dies.
 */
#ifndef UNCORE_SIM_GNR_H
#define UNCORE_SIM_GNR_H

#include "sim/sim.h"
#include "sim/sim_disc.h"
#include "sim/sim_perf.h"

SIM_MAP_DECL(gnr);
SIM_PERF_DECL(gnr);
extern const struct sim_ubox_dev sim_gnr_ubox;
extern const struct sim_global sim_gnr_global;
int sim_gnr_build(struct sim *s);
int sim_gnr_fault(struct sim *s, const char *kind, struct sim_box *b); /* the discovery faults, onesched, scfbar */
#define SIM_GNR_CXL 1 /* the machine's variant with CXL memory (option cxl=1) */
int sim_gnr_option(struct sim *s, const char *key, const char *value);
extern const struct sim_board sim_gnr_board; /* board.c: Intel's Birch Stream board, GNR and SRF */
extern const struct sim_iio_regs sim_gnr_iio_regs; /* board.c: Birch Stream's root ports and MSM (GNR, SRF) */
extern const struct sim_snc_layout sim_gnr_snc;    /* sim.c: SNC3, a compute die a domain */

/* A kind on GNR's machine: name, CHAs per socket, the largest part's cores, CPUID model and stepping, the cores' data-read opcode, its
 * board (NULL: none) and its IIO stacks' registers. */
#define SIM_GNR_KIND(n, c, mx, m, st, opc, brd, rg)                                                              \
	{ .name = n, .cores = (c), .max_cores = (mx), .family = 6, .model = (m), .stepping = (st), .build = sim_gnr_build,       \
	  .ia_read_opc = (opc),                                                                              \
	  .units = sim_gnr_units, .nunits = &sim_gnr_nunits, .glob = &sim_gnr_global, .ubox = &sim_gnr_ubox,  \
	  .faults = SIM_DISC_FAULTS ", onesched, scfbar", .fault = sim_gnr_fault, .perf = sim_gnr_perf, .nperf = &sim_gnr_nperf,  \
	  .multi_die = 1, .option_help = "cxl=0|1", .option = sim_gnr_option, .board = (brd), .iio_regs = (rg), \
	  .snc_layout = &sim_gnr_snc, \
	  .ufreq_mode = SIM_UFREQ_TPMI, .ufreq_min_ratio = 8 /* TPMI; 0.8 GHz floor: sim_ufreq.c */ }

#endif
