/*
 * What Granite Rapids shares with Sierra Forest and Clearwater Forest, which Linux drives with the same
 * gnr_uncore_init (uncore.c intel_uncore_match: INTEL_ATOM_CRESTMONT_X, INTEL_ATOM_DARKMONT_X): the unit
 * types, quirks and perf aliases (platform.c) and the simulated machine (sim.c, sim_map.c, sim_perf.c).
 * platforms/srf and platforms/cwf are thin: their models, their event catalogs and their machine's size.
 */
#ifndef UNCORE_PLATFORM_GNR_H
#define UNCORE_PLATFORM_GNR_H

#include "platform/platform.h"

extern const struct box_type *const gnr_types[];
extern const struct iio_layout gnr_iio; /* platform.c: Birch Stream's, Granite Rapids' and Sierra Forest's */
#define GNR_NTYPES 16
extern const struct perf_alias gnr_aliases[];
extern const struct perf_term gnr_terms[];
extern const struct pci_id_range gnr_own_fns[];
int gnr_fixup(struct disc_ctx *c);

/* A descriptor's uncore fields on this layout, with platform p's catalog and metrics.  No UBox bus map
 * (ubox_devid 0): Linux 6.12's gnr_uncore_pci_init and gnr_uncore_mmio_init call no
 * snbep_pci2phy_map_init, unlike SPR's; each discovery table, and with it every unit it lists (MSR, PCI
 * and MMIO: uncore_pci_pmus_register takes unit->die), is placed by its device's NUMA node
 * (uncore_discovery.c get_device_die_id, uncore.c uncore_device_to_die; discover_table.c table_die). */
#define GNR_UNCORE(p)                                                                                    \
	.types = gnr_types, .ntypes = GNR_NTYPES,                                                          \
	.events = &uc_events_##p, .metrics_json = uc_metrics_##p, .discovery = 1, \
	.pmon_msr_lo = 0x2000, .pmon_msr_hi = 0x3fff, .disc_unnamed = 1, .glob_ctl = 0x2ff0,       \
	.glob_status = 0x2ff2, .glob_status_regs = 2, .glob_frz_all = 1ull << 0, .perf_aliases = gnr_aliases, \
	.perf_terms = gnr_terms, .fixup = gnr_fixup, .perfmon_filters = uc_events_##p##_filters,               \
	.perfmon_folds = uc_events_##p##_folds, .own_fns = gnr_own_fns

#endif
