/*
 * Platforms and box types as data.  A box type describes where a box's
 * registers live and how its control word is laid out; code exists only
 * where hardware deviates.
 */
#ifndef UNCORE_PLATFORM_H
#define UNCORE_PLATFORM_H

#include <stdint.h>
#include "access.h"

enum uc_space { UC_MSR, UC_PCI, UC_MMIO };

#define UC_MAX_FILT 4 /* filter registers per box */
#define UC_MAX_CTR 8  /* general counters per box */

/* Event flags. */
#define UC_EV_FIXED 0x01 /* counted by the box's fixed counter */

/* One event/umask pair of the catalog (generated from eventtables/). */
struct uc_event {
	const char *name;    /* full Intel name */
	const char *unit;    /* box type name */
	uint8_t code, umask, ext;
	uint8_t ctr_mask;
	uint8_t maxinc;
	uint8_t flags;
	const char *filters; /* "state:0x1f", "opc,nid", "band0?" ("" = none) */
	const char *desc;
	const char *src;     /* where the facts come from */
};

/* A filter/match register and the qualifier fields inside it. */
struct filter_reg {
	const char *name;
	uint32_t addr;        /* MSR: relative to the box base; PCI: config offset */
	uint8_t companion;    /* PCI: register sits on the box's companion function */
	uint8_t bits;         /* 32 or 64 */
};

struct filter_field {
	const char *name;     /* qualifier name users write, "state" */
	uint8_t reg;          /* index into box_type.filt_regs */
	uint8_t lo, width;
	const char *help;
};

/* Control-word fields common to the SNB-EP family (seed 000 Table 2-10 etc.). */
#define CTL_EV_SEL(x)   ((uint64_t)(x) & 0xff)
#define CTL_UMASK(x)    (((uint64_t)(x) & 0xff) << 8)
#define CTL_RST         (1ull << 17)
#define CTL_EDGE        (1ull << 18)
#define CTL_TID_EN      (1ull << 19)
#define CTL_EV_SEL_EXT  (1ull << 21)
#define CTL_EN          (1ull << 22)
#define CTL_INVERT      (1ull << 23)
#define CTL_THRESH_SHIFT 24
#define CTL_OCC_INVERT  (1ull << 30) /* PCU, Table 2-75 */
#define CTL_OCC_EDGE    (1ull << 31) /* PCU, Table 2-75 */

/* Box control (seed 000 Tables 2-9, 2-34, 2-60, 2-74, 2-85). */
#define BOX_CTL_RST_CTRL (1u << 0)
#define BOX_CTL_RST_CTRS (1u << 1)
#define BOX_CTL_FRZ      (1u << 8)
#define BOX_CTL_FRZ_EN   (1u << 16)

struct box_type {
	const char *name;     /* "cbo" */
	const char *desc;
	const char *prefix;   /* event-name prefix, "UNC_C" */
	enum uc_space space;
	int max_boxes;
	int nctr, width;
	uint32_t box_stride;  /* MSR address distance between boxes */
	int has_box_ctl;      /* UBox has none */
	int box_ctl_resets;   /* rst_ctrs/rst_ctrl exist (not on HA, iMC) */
	uint32_t box_ctl, ctl0, ctl_stride, ctr0, ctr_stride;
	uint64_t ctl_valid;   /* bits a control word may carry */
	/* fixed counter */
	int has_fixed;
	uint32_t fixed_ctl, fixed_ctr;
	int fixed_width;
	uint64_t fixed_en, fixed_rst;
	/* PCI identity of box i and of its companion function (match/mask) */
	const uint16_t *pci_ids;
	const uint16_t *companion_ids;
	const struct filter_reg *filt_regs;
	int nfilt_regs;
	const struct filter_field *fields;
	int nfields;
};

struct platform_desc {
	const char *name, *desc;
	int family;
	const int *models;          /* 0-terminated */
	const struct box_type *const *types;
	int ntypes;
	uint16_t ubox_devid;        /* UBox PCI device used for bus -> socket */
	uint32_t cpunodeid, gidnidmap;
	const struct uc_event *events; /* catalog, grouped by unit */
	const int *nevents;
};

/* One box found on the machine. */
struct box {
	const struct box_type *t;
	int type_idx;
	int socket, idx;
	int cpu;                    /* MSR boxes: a CPU of the socket */
	uint32_t msr_off;           /* MSR boxes: idx * box_stride */
	struct pci_loc pci, comp;   /* PCI boxes: the box and its companion */
	int has_comp;
};

extern const struct platform_desc platform_snbep;
const struct platform_desc *platform_by_name(const char *name);
const struct platform_desc *platform_by_cpu(int family, int model);
extern const struct platform_desc *const uc_platforms[];

/* Register addresses of a box. */
uint32_t box_ctl_addr(const struct box *b, int ctr);
uint32_t box_ctr_addr(const struct box *b, int ctr);

/* Discovery: fill the list of boxes for a platform. */
int boxes_discover(struct access *a, const struct host_info *h, const struct platform_desc *p,
		   struct box **out, int *n);

/* Generated catalog (eventtables/ -> events_gen.c). */
extern const struct uc_event uc_events_snbep[];
extern const int uc_events_snbep_n;
const struct uc_event *catalog_unit_slice(const struct uc_event *all, int n, const char *unit, int *cnt);

#endif
