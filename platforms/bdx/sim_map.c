/* The simulator's register map of Broadwell-EP, written from Linux 6.12 uncore_snbep.c ("BDX uncore support":
 * bdx_uncore_* over the HSWEP_* registers, bdx_uncore_pci_ids; /work/notes/i34/bdx.md): Haswell-EP's map
 * (platforms/hsx/sim_hsx.h) with BDX's widths, 24 CBos and PCI ids. */
#include "../hsx/sim_hsx.h"

/* bdx_uncore_pci_ids' units: QPI port 2's match/mask function BDX_PCI_QPI_PORT2_FILTER 0x6f46 */
#define BDX_ID(xx) 0x6f##xx
#define BDX_PCI_UNITS SIM_HSX_PCI_UNITS("bdx", BDX_ID, 48, 0x6f46)

/* bdx_uncore_*: UBox, SBox and R3QPI of 48 bits, 24 CBos */
const struct sim_unit sim_bdx_units[] = { SIM_HSX_MSR_UNITS(48, 24), SIM_HSX_SBOX(48), BDX_PCI_UNITS };
const int sim_bdx_nunits = N(sim_bdx_units);
/* A part whose PCU CAPID4 chop is 0: no SBox (Linux bdx_uncore_cpu_init, hswep_has_limit_sbox(BDX_PCU_DID)) */
const struct sim_unit sim_bdx_units_chop0[] = { SIM_HSX_MSR_UNITS(48, 24), BDX_PCI_UNITS };
const int sim_bdx_nunits_chop0 = N(sim_bdx_units_chop0);
const struct sim_ubox_dev sim_bdx_ubox = { 0x6f1e, 0x40, 0x54 }; /* bdx_uncore_pci_init */
