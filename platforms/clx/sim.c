/*
 * Simulated Cascade Lake: Skylake-SP's machine (platforms/skx/sim.c) with this part's CPUID and cores
 * (Xeon Platinum 8260-like: 24 cores, stepping 7; CAPID6 gives 26 CHAs, as the machine gives two more than
 * cores).  cpu=6-55-B makes it report a Cooper Lake.
 */
#include "../skx/sim_skx.h"

const struct sim_kind sim_kind_clx = SIM_SKX_KIND("clx", 24, 7);
