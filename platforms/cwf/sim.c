/*
 * Simulated Clearwater Forest (Xeon 6+ with E-cores): Granite Rapids' machine (platforms/gnr/sim.c) with this part's CPUID and
 * 144 CHAs a socket over the three compute dies (a round number: the part's CHA count is not public here).
 */
#include "../gnr/sim_gnr.h"

const struct sim_kind sim_kind_cwf = SIM_GNR_KIND("cwf", 144, 0xdd, 1, 0x104, NULL); /* Darkmont cores read with DRd_Opt */
