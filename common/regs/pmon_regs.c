/* The PMON registers of a box by kind and index: address, width and writable bits (pmon_regs.h). */
#include <stdio.h>
#include "pmon_regs.h"
#include "regs.h"

uint64_t filter_field_mask(const struct filter_field *f) { return uc_width_mask(f->width) << f->lo; }

/* The bits of a filter register that some qualifier of the box type sets. */
static uint64_t filter_wmask(const struct box_type *t, int f)
{
	uint64_t m = 0;
	for (int i = 0; i < t->nfields; i++)
		if (t->fields[i].reg == f)
			m |= filter_field_mask(&t->fields[i]);
	return t->filt_regs[f].bits >= 64 ? m : m & 0xffffffffull;
}

/* Overflow bits of the status register: one per general counter, from status_shift. */
static uint64_t status_bits(const struct box *b) { return uc_width_mask(b->r.nctr) << b->t->status_shift; }

static uint64_t box_ctl_wmask(const struct box *b)
{
	const struct box_ctl_bits *bc = b->t->bc;
	uint64_t m = bc->rst_ctrl | bc->rst_ctrs | bc->frz | bc->frz_en | bc->run;
	return b->r.status && b->r.status == b->r.box_ctl ? m | status_bits(b) : m; /* Montecito PMC0 */
}

int pmon_reg(const struct box *b, enum pmon_kind kind, int idx, struct pmon_reg *o)
{
	const struct box_type *t = b->t;
	*o = (struct pmon_reg){ .kind = kind, .idx = idx, .bytes = reg_box_ctl_bytes(t) };
	switch (kind) {
	case PK_BOX_CTL:
		if (!t->has_box_ctl || idx)
			return -1;
		o->addr = b->r.box_ctl;
		o->wmask = box_ctl_wmask(b);
		return 0;
	case PK_CTL:
	case PK_CTR:
		if (idx < 0 || idx >= b->r.nctr || idx >= UC_MAX_CTR)
			return -1;
		if (kind == PK_CTL) {
			o->addr = box_ctl_addr(b, idx);
			o->bytes = reg_ctl_bytes(t);
			o->wmask = box_ctl_valid(t);
		} else {
			o->addr = box_ctr_addr(b, idx);
			o->bytes = 8;
			o->counter = 1;
			o->wmask = uc_width_mask(b->r.width);
		}
		return 0;
	case PK_FILT:
		if (idx < 0 || idx >= t->nfilt_regs || (t->filt_regs[idx].companion && t->space == UC_PCI && !b->has_comp))
			return -1;
		o->companion = t->filt_regs[idx].companion;
		o->addr = o->companion ? t->filt_regs[idx].addr : b->r.rel + t->filt_regs[idx].addr;
		o->bytes = t->filt_regs[idx].bits / 8;
		o->wmask = filter_wmask(t, idx);
		return 0;
	case PK_FIXED_CTL:
	case PK_FIXED_CTR:
		if (!t->has_fixed || idx)
			return -1;
		if (kind == PK_FIXED_CTL) {
			o->addr = b->r.rel + t->fixed_ctl;
			o->wmask = t->fixed_en | t->fixed_rst;
		} else {
			o->addr = b->r.rel + t->fixed_ctr;
			o->bytes = 8;
			o->counter = 1;
			o->wmask = uc_width_mask(t->fixed_width);
		}
		return 0;
	case PK_STATUS:
		if (!b->r.status || idx < 0 || idx > 1 || (idx == 1 && !t->status_clr))
			return -1;
		o->addr = idx ? b->r.rel + t->status_clr : b->r.status;
		o->wmask = status_bits(b); /* write 1 to clear */
		return 0;
	default:
		return -1;
	}
}

int pmon_regs_all(const struct box *b, struct pmon_reg *out, int max)
{
	int n = 0;
	for (int k = 0; k < PK_NKINDS; k++)
		for (int i = 0; i < UC_MAX_CTR; i++) {
			struct pmon_reg r;
			if (pmon_reg(b, (enum pmon_kind)k, i, &r))
				continue;
			if (n < max)
				out[n] = r;
			n++;
		}
	return n;
}

const char *pmon_reg_name(const struct box *b, enum pmon_kind kind, int idx, char *buf, size_t len)
{
	switch (kind) {
	case PK_BOX_CTL: snprintf(buf, len, "box control"); break;
	case PK_CTL: snprintf(buf, len, "CTL%d", idx); break;
	case PK_CTR: snprintf(buf, len, "CTR%d", idx); break;
	case PK_FILT: snprintf(buf, len, "%s", idx < b->t->nfilt_regs ? b->t->filt_regs[idx].name : "filter"); break;
	case PK_FIXED_CTL: snprintf(buf, len, "fixed counter control"); break;
	case PK_FIXED_CTR: snprintf(buf, len, "fixed counter"); break;
	default: snprintf(buf, len, "status"); break;
	}
	return buf;
}

/* The widths of a box type's control registers: MSRs are 64-bit, PCI and MMIO ones as the type says. */
int reg_ctl_bytes(const struct box_type *t) { return box_ctl_bytes(t); }
int reg_box_ctl_bytes(const struct box_type *t) { return t->space == UC_MSR ? 8 : 4; }
