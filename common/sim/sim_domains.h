/* The generic kind's machine laid out in discovery domains as Diamond Rapids (sim_domains.c):
 * sim:generic,layout=domains. */
#ifndef UNCORE_SIM_DOMAINS_H
#define UNCORE_SIM_DOMAINS_H

#include "sim/sim.h"

#define SIM_LAYOUT_DOMAINS 1      /* s->variant of the generic kind: one I/O hub a socket */
#define SIM_LAYOUT_DOMAINS_IMH2 2 /* two, the second's unit ids from 0x8000 */
/* layout=domains: the units and global registers of this layout, before the build */
int sim_domains_option(struct sim *s, const char *key, const char *value);
int sim_domains_build(struct sim *s);

#endif
