/*
 * What the simulator's Sandy Bridge-EP (seed 000, Intel 327043-001) and Ivy Bridge-EP (seed 002, Intel
 * 329468-002; addresses from Linux uncore_snbep.c IVBEP_* and likwid registers.h) maps share: the
 * control-word bits, box controls, filters and PCI layout of the generation.  Included by
 * platforms/snbep/sim_map.c and platforms/ivbep/sim_map.c only.
 */
#ifndef UNCORE_SIM_MAP_XEON_EP_H
#define UNCORE_SIM_MAP_XEON_EP_H

#include "sim_model.h"

#define N(a) UC_ARRAY_LEN(a)

/* Counter control, seed 000 Table 2-10: ev_sel 7:0, umask 15:8, rst 17, edge 18, en 22, invert 23,
 * thresh 31:24.  Each unit keeps the fields its table lists. */
#define EV_UMASK 0xffffull
#define RST (1ull << 17)
#define EDGE (1ull << 18)
#define TID_EN (1ull << 19) /* T2-10 */
#define EXT (1ull << 21)    /* QPI ev_sel_ext, T2-86 */
#define EN (1ull << 22)
#define INV (1ull << 23)
#define THRESH8 0xff000000ull
#define THRESH5 0x1f000000ull /* UBox T2-2, PCU T2-75 */
#define SNB_CTL .ctl_en = EN, .ctl_bytes = 4

/* Box control, seed 000 Tables 2-9/2-74/2-85: rst_ctrl 0, rst_ctrs 1, frz 8, frz_en 16. */
static const struct sim_boxctl snb_bc = { .rst_ctrl = 1u << 0, .rst_ctrs = 1u << 1, .frz = 1u << 8,
					  .frz_en = 1u << 16, .readable = 1u << 8 | 1u << 16 };
/* HA and iMC, Tables 2-34/2-60: bits 1:0 reserved, no reset (seed text L290-293). */
static const struct sim_boxctl snb_bc_norst = { .frz = 1u << 8, .frz_en = 1u << 16, .readable = 1u << 8 | 1u << 16 };
/* IVB-EP: Linux IVBEP_PMON_BOX_CTL_INT = rst_ctrl | rst_ctrs, freeze with frz alone; no frz_en. */
static const struct sim_boxctl ivb_bc = { .rst_ctrl = 1u << 0, .rst_ctrs = 1u << 1, .frz = 1u << 8 };
/* UPI (Skylake-SP, Ice Lake-SP): the same, and bits 17:16 read back as written.  PCM writes them on every UPI box
 * control (types.h UNC_PMON_UNIT_CTL_RSV; cpucounters.cpp of 202302: programXPI with PCM::hasUPI, SKX and ICX
 * alike) and reads the control back: a link whose bit 16 does not read back it takes for one the BIOS hides,
 * "Link N is disabled", and counts no UPI (UncorePMU::initFreeze); on real parts it counts them.  Linux writes
 * neither bit (IVBEP_PMON_BOX_CTL_INT) and reads none back, so its counts are the same.  Bit 17 reading back is
 * taken with 16 [unverified]. */
static const struct sim_boxctl upi_bc = { .rst_ctrl = 1u << 0, .rst_ctrs = 1u << 1, .frz = 1u << 8, .readable = 3u << 16 };
static const struct sim_boxctl ivb_bc_norst = { .frz = 1u << 8 };

/* CBo filter, Table 2-12: tid 4:0, nid 17:10, state 22:18, opc 31:23. */
static const struct sim_filt snb_cbo_filt[] = { { 0xd14, 0, 0x1full | 0x3fc00ull | 0x7c0000ull | 0xff800000ull } };
static const struct sim_fld snb_cbo_fld[] = { { "state", 0, 18, 5 }, { "opc", 0, 23, 9 }, { "nid", 0, 10, 8 },
					      { "tid", 0, 0, 5 } };
/* tid_en (T2-10 bit 19) applies the tid: bit 0 the thread, the core id above it (T2-12) */
#define SNB_TID .tid_en = TID_EN, .tid_core_lo = 1
/* PCU band filter 0xC34 (Linux SNBEP_PCU_MSR_PMON_BOX_FILTER), Table 2-77: bands 31:0. */
static const struct sim_filt pcu_filt[] = { { 0xc34, 0, 0xffffffffull } };
/* HA ADDRMATCH0 0x40 (31:6), ADDRMATCH1 0x44 (13:0), OPCODEMATCH 0x48 (5:0): Tables 2-37..2-39. */
static const struct sim_filt ha_filt[] = { { 0x40, 0, 0xffffffc0ull }, { 0x44, 0, 0x3fffull }, { 0x48, 0, 0x3full } };
/* QPI PKT_MATCH0/1 0x228/0x22C and PKT_MASK0/1 0x238/0x23C on D8/D9:F6 (section 2.7.3.3); Linux takes
 * all 32 bits of each (match0 = config1:0-31). */
static const struct sim_filt qpi_filt[] = { { 0x228, 1, 0xffffffffull }, { 0x22c, 1, 0xffffffffull },
					   { 0x238, 1, 0xffffffffull }, { 0x23c, 1, 0xffffffffull } };

/* PCI units share one layout (Table 1-3): BOX_CTL 0xF4, CTL 0xD8 + 4k, CTR 0xA0 + 8k as two dwords. */
#define PCI_UNIT .space = SIM_PCI, .box_ctl = 0xf4, .ctl0 = 0xd8, .ctl_stride = 4, .ctr0 = 0xa0, .ctr_stride = 8


#endif
