/*
 * Simulated Diamond Rapids: the discovery-domain machine of common/sim/sim_domains.c (an I/O hub table a socket
 * behind PCI device 0x09A1, a compute-die table a die behind MSR 0x710, frozen at power-on; the units and
 * addresses there), with this part's CPUID: family 0x13 model 0x01 (Linux INTEL_DIAMONDRAPIDS_X), stepping 0
 * (placed here: no part has shipped).  8 CBOs a compute die (cores=N), one hub a socket (imh=2: two).
 */
#include "sim/sim_disc.h"
#include "sim/sim_domains.h"
#include "sim/sim_perf.h"

SIM_PERF_DECL(dmr);

const struct sim_kind sim_kind_dmr = {
	.name = "dmr", .cores = 8, .max_cores = 192 /* announced, not shipped: field notes 1 */, .family = 0x13, .model = 0x01, .stepping = 0, .build = sim_domains_build,
	.units = sim_domains_units, .nunits = &sim_domains_nunits, .glob = NULL, .ubox = NULL,
	.faults = SIM_DISC_FAULTS, .fault = sim_disc_fault, .perf = sim_dmr_perf, .nperf = &sim_dmr_nperf,
	.multi_die = 1, .option_help = "imh=1|2, msr=itc|pcu, pci=pcie4, gctl=msr, imh_node=none", .option = sim_domains_dmr_option,
};
