/*
 * The PMON registers of a box, named by what they are (kind and index) rather
 * than by address: where each lives on this machine and which bits software
 * may write.  Sessions, the claims file, the write guard and the msr-safe
 * allowlist all ask here, so a register is only ever written at the address
 * its box's type and discovery give, and only with bits it defines.
 */
#ifndef UNCORE_PMON_REGS_H
#define UNCORE_PMON_REGS_H

#include <stdint.h>
#include "platform/platform.h"

enum pmon_kind {
	PK_BOX_CTL,   /* unit (box) control */
	PK_CTL,       /* counter control idx */
	PK_CTR,       /* counter idx */
	PK_FILT,      /* filter/match register idx (box_type.filt_regs) */
	PK_FIXED_CTL, /* fixed counter control */
	PK_FIXED_CTR, /* fixed counter */
	PK_STATUS,    /* overflow status (idx 0), or where its bits are cleared (idx 1, Nehalem 0x393) */
	PK_NKINDS
};

struct pmon_reg {
	enum pmon_kind kind;
	int idx;
	uint64_t addr;  /* MSR number, PCI config offset or MMIO physical address */
	int companion;  /* PCI: on the box's match/mask function */
	int bytes;      /* 4 or 8 */
	int counter;    /* a counter: PCI halves written low first, read consistently */
	uint64_t wmask; /* bits software writes (write-1-to-clear bits included) */
};

/* The field's bits inside its register. */
uint64_t filter_field_mask(const struct filter_field *f);
/* Register idx of a kind in box b; -1 (no message) when the box has no such register. */
int pmon_reg(const struct box *b, enum pmon_kind kind, int idx, struct pmon_reg *out);
/* Every register of box b, kind by kind; returns how many (at most max are stored). */
int pmon_regs_all(const struct box *b, struct pmon_reg *out, int max);
/* A name for messages: "CTL2", "FILTER0", "box control". */
const char *pmon_reg_name(const struct box *b, enum pmon_kind kind, int idx, char *buf, size_t len);
/* Registers a box can have: box control, counters and their controls, filters, fixed pair, status pair. */
#define PMON_MAX_REGS (1 + 2 * UC_MAX_CTR + UC_MAX_FILT + 2 + 2)

/* The widths in bytes of a box type's control registers. */
int reg_ctl_bytes(const struct box_type *t);     /* a counter control register */
int reg_box_ctl_bytes(const struct box_type *t); /* the box control register */

#endif
