/*
 * What Skylake-SP shares with Cascade Lake and Cooper Lake, which Linux drives with the same
 * skx_uncore_init for every stepping of model 0x55 (uncore.c intel_uncore_match: INTEL_SKYLAKE_X): the box
 * types and perf spellings (platform.c).  platforms/clx is thin: its catalog and metrics.
 */
#ifndef UNCORE_PLATFORM_SKX_H
#define UNCORE_PLATFORM_SKX_H

#include "platform/platform.h"

#define SKX_NTYPES 10
extern const struct box_type *const skx_types[];
extern const struct perf_alias skx_aliases[];
extern const struct perf_term skx_terms[];
/* What Ice Lake-SP keeps of Skylake-SP (Linux icx_msr_uncores[]: skx_uncore_ubox, skx_uncore_pcu): the UBox
 * and PCU types and the box control of every box (IVBEP_PMON_BOX_CTL_INT, frz 8) */
extern const struct box_type skx_ubox, skx_pcu;
extern const struct box_ctl_bits box_ctl_skx;
/* The uncore's register functions a real board lists on its root buses (board.c) */
extern const struct pci_id_range skx_own_functions[];
extern const struct iio_layout skx_iio; /* platform.c: Skylake-SP's and Cascade Lake's */

/* A descriptor's uncore fields on this layout, with platform p's catalog and metrics: the UBox device
 * 0x2014 with CPUNODEID 0xC0 and GIDNIDMAP 0xD4, buses filled forward (skx_uncore_pci_init:
 * snbep_pci2phy_map_init(0x2014, SKX_CPUNODEID, SKX_GIDNIDMAP, false)). */
#define SKX_UNCORE(p)                                                                                          \
	.types = skx_types, .ntypes = SKX_NTYPES, .ubox_devid = 0x2014, .cpunodeid = 0xc0, .gidnidmap = 0xd4,       \
	.busmap_forward = 1, .events = &uc_events_##p, .metrics_json = uc_metrics_##p, \
	.perfmon_filters = uc_events_##p##_filters, .perfmon_folds = uc_events_##p##_folds, .perf_aliases = skx_aliases,  \
	.perf_terms = skx_terms, .own_fns = skx_own_functions, .iio = &skx_iio

#endif
