/* The Sapphire Rapids family's shared tables (spr_family.c): what platforms/spr and platforms/emr
 * have in common, given to their descriptors through SPR_FAMILY_DESC. */
#ifndef UNCORE_SPR_FAMILY_H
#define UNCORE_SPR_FAMILY_H
#include "platform/platform.h"

#define SPR_FAMILY_NTYPES 14
#define SPR_MSR_UNC_CBO_CONFIG 0x2ffe /* Linux spr_uncore_cpu_init: the CHA count; reads 0 on EMR XCC (6f7f984f) */

extern const struct box_type *const spr_family_types[SPR_FAMILY_NTYPES];
extern const int spr_family_ignore[];
extern const struct perf_alias spr_family_aliases[];
extern const struct perf_term spr_family_terms[];
extern const uint32_t spr_family_ro_msrs[];
extern const struct pci_id_range spr_family_own_fns[];
int spr_family_fixup(struct disc_ctx *c);

/* The descriptor fields both platforms share: units from discovery with the quirks of
 * spr_family_fixup, the UBox device and global control. */
#define SPR_FAMILY_DESC                                                                                      \
	.family = 6, .types = spr_family_types, .ntypes = SPR_FAMILY_NTYPES,                               \
	/* UBox 0x3250 with CPUNODEID 0xC0 / GIDNIDMAP 0xD4 (Linux spr_uncore_pci_init's                    \
	 * snbep_pci2phy_map_init; the seed's defines are blank, L1064-1141) */                              \
	.ubox_devid = 0x3250, .cpunodeid = 0xc0, .gidnidmap = 0xd4,                                        \
	.discovery = 1, .pmon_msr_lo = 0x2000, .pmon_msr_hi = 0x3fff, /* T1-8, T1-9, T1-10 */               \
	.disc_ignore = spr_family_ignore, .fixup = spr_family_fixup,                                       \
	/* U_MSR_PMON_GLOBAL_CTL 0x2FF0 (T1-1: frz_all bit 0; no unfreeze bit, frz_all = 0 resumes, L1291)  \
	 * and GLOBAL_STATUS 0x2FF2-0x2FF3 (T1-2: one RW1C bit per Global Status Position) */              \
	.glob_ctl = 0x2ff0, .glob_status = 0x2ff2, .glob_status_regs = 2, .glob_frz_all = 1ull << 0,       \
	.ro_msrs = spr_family_ro_msrs, .perf_aliases = spr_family_aliases, .perf_terms = spr_family_terms,     \
	.own_fns = spr_family_own_fns

#endif
