/*
 * The layout of a counter control word: each field by role, with its bit position and width.  One
 * record per box type says what the hardware's control register holds; the spec encoder, the
 * qualifier list and the PMON write mask all read it, and nothing assumes a default layout.
 */
#ifndef UNCORE_CTL_LAYOUT_H
#define UNCORE_CTL_LAYOUT_H

#include <stdint.h>
#include "util/uc_defs.h"

/* In listing order: qualifiers are offered in this order. */
enum ctl_role {
	CR_EVENT,     /* event select */
	CR_UMASK,     /* unit mask (the catalog's umask byte is placed here) */
	CR_UMASK_EXT, /* umask extension (EMR, from bit 32) */
	CR_EV_EXT,    /* the extra event-select bit (SNB-EP QPI/PCU bit 21) */
	CR_RST,       /* write-only counter reset */
	CR_OV_EN,     /* report an overflow (and freeze, where the box does) */
	CR_TID_EN,    /* count only what the thread-id filter matches */
	CR_THRESH,    /* threshold compared with the event's increment per cycle */
	CR_EDGE,      /* count rising edges of the threshold comparison */
	CR_INV,       /* invert the threshold comparison */
	CR_OCC_SEL,   /* PCU occupancy counter select */
	CR_OCC_INV,   /* PCU: invert the occupancy comparison */
	CR_OCC_EDGE,  /* PCU: count edges of the occupancy comparison */
	CR_NROLES
};

struct ctl_field {
	uint8_t lo, width; /* width 0: the box has no such field */
};

struct ctl_layout {
	const char *name;             /* for messages and tests: "snbep-cbo" */
	struct ctl_field f[CR_NROLES];
	uint64_t enable;              /* written with every event to make it count (0: ev_sel != 0 counts) */
	uint64_t other;               /* further bits the register keeps that no role names (Montecito plm,
				       * ism, MESI) */
	uint64_t reserved;            /* bits inside a named field that the register does not keep (SNB-EP
				       * PCU umask 13:8: occ_sel 15:14 sits in the umask byte) */
};

static inline int ctl_has(const struct ctl_layout *l, enum ctl_role r) { return l->f[r].width != 0; }
/* The bits of field r (0 when absent). */
uint64_t ctl_mask(const struct ctl_layout *l, enum ctl_role r);
/* Value v placed into field r, cut to its width (0 when absent). */
uint64_t ctl_put(const struct ctl_layout *l, enum ctl_role r, uint64_t v);
/* The largest value field r takes. */
uint64_t ctl_max(const struct ctl_layout *l, enum ctl_role r);
/* Every bit a control word of this layout may carry. */
uint64_t ctl_valid(const struct ctl_layout *l);

/* The user-facing side of a role: the qualifier that sets it (NULL: none) and what it means. */
struct ctl_role_info {
	const char *qualifier;
	int flag;        /* 1: given alone ("edge"), 0: name=value */
	const char *desc;
};
extern const struct ctl_role_info ctl_roles[CR_NROLES];

#endif
