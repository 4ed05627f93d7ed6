/*
 * Simulated Sierra Forest (Xeon 6 with E-cores): Granite Rapids' machine (platforms/gnr/sim.c) with this part's CPUID and
 * 96 CHAs a socket over the three compute dies (a round number: the part's CHA count is not public here).
 */
#include "../gnr/sim_gnr.h"

const struct sim_kind sim_kind_srf = SIM_GNR_KIND("srf", 96, 144 /* Xeon 6780E */, 0xaf, 3, 0x104, &sim_gnr_board, &sim_gnr_iio_regs); /* Crestmont cores read with DRd_Opt */
