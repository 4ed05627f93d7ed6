/*
 * Simulated Clearwater Forest (Xeon 6+ with E-cores): Granite Rapids' machine (platforms/gnr/sim.c) with this part's CPUID and
 * 144 CHAs a socket over the three compute dies (a round number: the part's CHA count is not public here).
 */
#include "../gnr/sim_gnr.h"

/* Birch Stream's root ports A-H at devices 2-9 (pcm-iio-topology.cpp); no board, and no MSM simulated */
static const struct sim_iio_regs cwf_regs = { .port_dev = 2 };

const struct sim_kind sim_kind_cwf = SIM_GNR_KIND("cwf", 144, 288 /* Xeon 6+ 6990E+ */, 0xdd, 1, 0x104, NULL, &cwf_regs); /* Darkmont cores read with DRd_Opt */
