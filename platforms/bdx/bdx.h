/*
 * Broadwell-EP's box types that Broadwell-DE shares (Linux 6.12 drives both with bdx_uncore_init; the DE has
 * no SBox, QPI or R3QPI: bdx_uncore_cpu_init drops the SBox type on INTEL_BROADWELL_D, and its PCI functions
 * are not there), with the driver's aliases and perf terms.
 */
#ifndef UNCORE_PLATFORM_BDX_H
#define UNCORE_PLATFORM_BDX_H

#include "../hsx/hsx.h"

extern const uint16_t bdx_ha_ids[2], bdx_imc_ids[8], bdx_irp_ids[1], bdx_r2pcie_ids[1]; /* bdx_uncore_pci_ids */
extern const struct box_type bdx_ubox, bdx_cbo, bdx_pcu, bdx_ha, bdx_imc, bdx_irp, bdx_r2pcie;
extern const struct perf_alias bdx_aliases[];
extern const struct perf_term bdx_terms[];

#endif
