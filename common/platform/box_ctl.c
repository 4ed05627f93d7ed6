/* Box-control styles: what each kind of box control register is written to stop, resume and reset. */
#include "platform.h"

static uint64_t none(const struct box_ctl_bits *bc) { (void)bc; return 0; }
static uint64_t frz_en_frz(const struct box_ctl_bits *bc) { return (uint64_t)bc->frz_en | bc->frz; }
static uint64_t frz_en(const struct box_ctl_bits *bc) { return bc->frz_en; }
static uint64_t frz(const struct box_ctl_bits *bc) { return bc->frz; }
static uint64_t run(const struct box_ctl_bits *bc) { return bc->run; }

/* frz takes effect only with frz_en set, and frz_en alone counts (seed 000 section 2.1.2) */
const struct box_ctl_style bc_style_frz_en = { "freeze with enable", frz_en_frz, frz_en, none, 0 };
const struct box_ctl_style bc_style_frz = { "freeze", frz, none, none, 0 };
const struct box_ctl_style bc_style_enable = { "enable", none, run, run, 0 };
const struct box_ctl_style bc_style_pmc0 = { "PMC0", frz, none, none, 1 };

uint64_t box_ctl_reset(const struct box_ctl_bits *bc) { return bc->style->frozen(bc) | bc->rst_ctrs; }
