/* The simulator's register map of Haswell-EP, written from Linux 6.12 uncore_snbep.c (HSWEP_* defines,
 * hswep_uncore_* types and hswep_uncore_pci_ids; /work/notes/i34/hsx.md): MSR units at their HSWEP_*
 * addresses, PCI units with SNB-EP's layout (SNBEP_PCI_PMON_*), control bits as SNB-EP's (sim_hsx.h). */
#include "sim_hsx.h"

const struct sim_filt sim_hsx_ubox_filt[] = { { 0x707, 0, 0x3full } }; /* HSWEP_U_MSR_PMON_BOX_FILTER_TID/CID */
/* HSWEP_C0_MSR_PMON_BOX_FILTER0, HSWEP_CB0_MSR_PMON_BOX_FILTER_*, FILTER1 = FILTER0 + 1 (hswep_cbox_enable_event) */
const struct sim_filt sim_hsx_cbo_filt[] = { { 0xe05, 0, 0xfe03ffull }, { 0xe06, 0, 0xfff0ffffull } };
/* tid 5:0 (HSWEP_CB0_MSR_PMON_BOX_FILTER_TID 0x3f): thread bit 0, the core above */
const struct sim_fld sim_hsx_cbo_fld[] = { { "state", 0, 17, 7 }, { "opc", 1, 20, 9 }, { "nid", 1, 0, 16 }, { "tid", 0, 0, 6 } };
const struct sim_filt sim_hsx_pcu_filt[] = { { 0x715, 0, 0xffffffffull } }; /* HSWEP_PCU_MSR_PMON_BOX_FILTER */

/* hswep_uncore_*: UBox, SBox and R3QPI of 44 bits, 18 CBos; ids of hswep_uncore_pci_ids */
#define HSX_ID(xx) 0x2f##xx
#define HSX_PCI_UNITS SIM_HSX_PCI_UNITS("hswep", HSX_ID, 44, )

const struct sim_unit sim_hsx_units[] = { SIM_HSX_MSR_UNITS(44, 18), SIM_HSX_SBOX(44), HSX_PCI_UNITS };
const int sim_hsx_nunits = N(sim_hsx_units);
/* The 6-8 core die (its PCU's CAPID4 chop 0): two SBoxes (Linux hswep_uncore_cpu_init, hswep_has_limit_sbox) */
const struct sim_unit sim_hsx_units_chop0[] = { SIM_HSX_MSR_UNITS(44, 18), SIM_HSX_SBOXES(44, 2), HSX_PCI_UNITS };
const int sim_hsx_nunits_chop0 = N(sim_hsx_units_chop0);
const struct sim_ubox_dev sim_hsx_ubox = { 0x2f1e, 0x40, 0x54 }; /* hswep_uncore_pci_init */
/* The UBox's global control U_MSR_PMON_GLOBAL_CTL 0x700 and status 0x701 (Haswell-EP uncore guide 331051-001,
 * as likwid names them: registers.h MSR_UNC_V3_U_PMON_GLOBAL_CTL/STATUS), frz_all bit 31 and unfrz_all bit 29 as
 * IVB-EP's 0xC00 (seed 002 Table 2-2): likwid freezes Haswell-EP and Broadwell-EP with bit 31 and resumes with
 * bit 29 (perfmon_haswell.h, perfmon_broadwell.h), PCM resumes with bit 29 (HASWELLX, BDX).  Broadwell-EP and -DE
 * keep it (their uncore is Haswell-EP's: Linux bdx_* reuse the HSWEP_U_* registers). */
const struct sim_global sim_hsx_global = { 0x700, 0x701, 1, 1ull << 31, 1ull << 29 };
