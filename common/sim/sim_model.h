/*
 * What the simulated hardware is: per unit, where its registers sit and what their bits do.
 * Written from the manuals and the Linux driver's constants, each row citing its source, and
 * never from the library's platform tables (common/platform_*.c): the simulator is the second
 * source the library is checked against, so it must not include platform.h.
 */
#ifndef UNCORE_SIM_MODEL_H
#define UNCORE_SIM_MODEL_H

#include <stdint.h>
#include "util/uc_defs.h"

#define SIM_MAX_CTR 12  /* Montecito PMD4-15 */
#define SIM_MAX_FILT 8
#define SIM_MAX_FR 25   /* DMR IIO: 3 x 8 bandwidth counters and the clock */
#define SIM_MAX_IDS 8   /* PCI device IDs per unit (IVB-EP iMC: 8 channels) */

enum sim_space { SIM_MSR, SIM_PCI, SIM_MMIO };

/* Counter-control bits the workload models read (seed 000 Table 2-10; seed 001 Table 1-5). */
#define SIM_EDGE (1ull << 18)
#define SIM_EV_EXT (1ull << 21)
#define SIM_INV (1ull << 23)

/* How a unit's box control behaves. */
struct sim_boxctl {
	uint64_t rst_ctrl, rst_ctrs; /* write-only reset commands (0: none) */
	uint64_t frz, frz_en;        /* frz freezes; with frz_en non-zero, only together with it */
	uint64_t readable;           /* bits that read back (reset commands and discovery-era freeze read 0) */
	uint64_t run;                /* enable style (Nehalem global control): counter n runs while bit n
				      * is set, the fixed counter with bit 32; frz unused */
	int pmc0;                    /* Montecito PMC0: freeze bit 0 and overflow bits 15:4 in one register */
};

/* A filter or match register: its address (like the unit's other registers) and the bits it keeps. */
struct sim_filt {
	uint32_t addr;
	uint8_t companion; /* PCI: on the unit's companion function, at this config offset */
	uint64_t writable;
};

/* A filter field the workload model reads ("state" of the CBo filter). */
struct sim_fld {
	const char *name;
	uint8_t reg, lo, width;
};

/* A free-running counter, at the box's free-running base + addr. */
struct sim_fr {
	const char *name;
	uint32_t addr;
	int width;
	uint32_t box_step; /* + the box's index x this (Linux freerunning_counters box_offset; 0: none) */
	const uint32_t *box_offs; /* + this by box index instead (Linux freerunning_counters box_offsets) */
};

struct sim_unit {
	const char *name;    /* as events name the unit: "cbo" */
	enum sim_space space;
	int nboxes;          /* per socket, where the builder makes them all */
	const struct sim_boxctl *bc; /* NULL: no box control (SNB-EP UBox) */
	/* Addresses: each box has a base (MSR units: box index x box_stride; PCI: 0, config offsets;
	 * discovery-era units: the unit control address); a register is base + the value here. */
	uint32_t box_stride;
	const uint32_t *box_offs; /* MSR units: box i's base instead of i x box_stride, nboxes entries (Linux
				   * msr_offsets: Ice Lake-SP) */
	uint32_t box_ctl, ctl0, ctl_stride, ctr0, ctr_stride;
	const uint32_t *ctr_offs; /* counters not evenly spaced (IVB-EP IRP) */
	uint32_t status;     /* box overflow status, 0: none (W1C) */
	uint32_t status_clr; /* where status bits are cleared by writing 1s, 0: the status register */
	int nctr, width;
	int ctl_bytes;       /* PCI/MMIO counter control width (8: two dwords on PCI) */
	int box_ctl_bytes;   /* PCI unit control width: 8 where its upper dword is there (reserved), else 4 */
	uint64_t ctl_writable; /* control bits the hardware keeps; reserved bits are dropped */
	uint64_t ctl_en;     /* counting enable bits (any set counts); 0: an ev_sel != 0 counts */
	int ev_shift;        /* event select position (Montecito: 15:8) */
	uint64_t ctl_rst;    /* the control bit that clears its counter (write-only), 0: none */
	uint64_t ov_en;      /* the control bit that reports an overflow */
	int status_shift;    /* status bit of counter 0 */
	/* fixed counter */
	uint32_t fixed_ctl, fixed_ctr; /* 0: none */
	int fixed_width;
	uint64_t fixed_en, fixed_rst;
	int fixed_global;    /* the fixed counter is a global register: the box's own freeze does not stop it */
	const struct sim_filt *filt;
	int nfilt;
	const struct sim_fld *fld;
	int nfld;
	const struct sim_fr *fr;
	int nfr;
	uint16_t ids[SIM_MAX_IDS], comp_ids[SIM_MAX_IDS]; /* PCI device IDs of box i and its companion */
	uint64_t tid_en;     /* CBo/CHA: the control bit that applies the filter's "tid" field (0: none) */
	int tid_core_lo;     /* its core id starts at this bit of the tid, the thread below it */
	int disc_type;       /* EMR discovery type */
	const char *src;     /* where the facts come from */
};

/* A simulated platform's global registers (IVB-EP, EMR: per socket, MSRs). */
struct sim_global {
	uint32_t ctl, status;
	int status_regs;
	uint64_t frz_all, unfrz_all; /* unfrz_all 0: clearing frz_all resumes (EMR) */
};

/* The UBox PCI device whose node-id registers map buses to sockets. */
struct sim_ubox_dev {
	uint16_t devid;
	uint32_t cpunodeid, gidnidmap;
};

/* A platform's map (platforms/<p>/sim_map.c), declared where its simulator (sim.c) uses it. */
#define SIM_MAP_DECL(p) extern const struct sim_unit sim_##p##_units[]; extern const int sim_##p##_nunits

#endif
