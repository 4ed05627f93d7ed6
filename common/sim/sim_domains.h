/* The machine laid out in discovery domains as Diamond Rapids (sim_domains.c): sim:dmr, and the generic
 * kind's sim:generic,layout=domains. */
#ifndef UNCORE_SIM_DOMAINS_H
#define UNCORE_SIM_DOMAINS_H

#include "sim/sim.h"

#define SIM_LAYOUT_DOMAINS 1      /* s->variant of the generic kind: one I/O hub a socket */
#define SIM_LAYOUT_DOMAINS_IMH2 2 /* two, the second's unit ids from 0x8000 */
/* sim:dmr's options besides imh= (bits of s->variant above the layout's two): msr=itc, msr=pcu, pci=pcie4,
 * gctl=msr, imh_node=none */
#define SIM_DOMAINS_MSR_ITC 0x10
#define SIM_DOMAINS_MSR_PCU 0x20
#define SIM_DOMAINS_GCTL_MSR 0x40
#define SIM_DOMAINS_IMH_NO_NODE 0x80 /* imh_node=none */
#define SIM_DOMAINS_PCI_PCIE4 0x100  /* pci=pcie4 */
/* layout=domains: the units and global registers of this layout, before the build */
int sim_domains_option(struct sim *s, const char *key, const char *value);
int sim_domains_build(struct sim *s);
int sim_domains_dmr_option(struct sim *s, const char *key, const char *value); /* imh=, msr=, gctl= */
extern const struct sim_unit sim_domains_units[];
extern const int sim_domains_nunits;

#endif
