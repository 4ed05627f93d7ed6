/*
 * The simulator's register map: every register of every simulated box entered by absolute address
 * (MSR: socket and number; PCI: function and config offset; MMIO: physical address), from the unit
 * models of map_*.c.  A register two boxes claim is an error in the model.
 */
#include <stddef.h>
#include <stdlib.h>
#include "sim.h"
#include "util/error.h"
#include "sim_only.h"

/* ---- the register map: every register of every box by absolute address ---- */

/* MSR: scope = socket; PCI: scope = device index + 1 and addr the config offset; MMIO: scope 0. */
uint64_t sim_reg_key(enum sim_space sp, unsigned scope, uint64_t addr) { return sim_key(sp, scope, addr); }

/* Where a register of kind and index i keeps its value in the box: the offset of its uint64_t, + 1 for
 * the upper half; 0 for one sim_reg_value works out (the box control). */
static uint16_t reg_at(int kind, int i)
{
	size_t o = 0, hi = 0;
	switch (kind) {
	case R_STATUS: o = offsetof(struct sim_box, status); break;
	case R_CTL_HI: hi = 1; /* fall through */
	case R_CTL: o = offsetof(struct sim_box, ctl) + 8 * (size_t)i; break;
	case R_FR_HI: hi = 1; /* fall through */
	case R_FR: o = offsetof(struct sim_box, fr) + 8 * (size_t)i; break;
	case R_CTR_HI: hi = 1; /* fall through */
	case R_CTR: o = offsetof(struct sim_box, cnt) + sizeof(struct sim_count) * (size_t)i; break;
	case R_FIXED_CTL: o = offsetof(struct sim_box, fixed_ctl); break;
	case R_FIXED_CTR_HI: hi = 1; /* fall through */
	case R_FIXED_CTR: o = offsetof(struct sim_box, fixed); break;
	case R_FILT: o = offsetof(struct sim_box, filt) + 8 * (size_t)i; break;
	}
	return (uint16_t)(o | hi);
}

static int map_put(struct sim *s, uint64_t key, int box, int kind, int idx)
{
	size_t h = sim_map_slot(s, key);
	while (s->map[h].box) {
		if (s->map[h].key == key) {
			const struct sim_box *o = &s->boxes[s->map[h].box - 1], *b = &s->boxes[box];
			return uc_err("simulator map: %s %d and %s %d (socket %d) both claim register 0x%llx", o->u->name,
				      o->idx, b->u->name, b->idx, b->socket, (unsigned long long)(key & ((1ull << 50) - 1)));
		}
		h = (h + 1) & (s->map_cap - 1);
	}
	s->map[h] = (struct sim_reg){ key, (uint32_t)box + 1, (uint8_t)kind, (uint8_t)idx, reg_at(kind, idx) };
	return 0;
}

struct sim_box *sim_map_get(struct sim *s, uint64_t key, int *kind, int *idx) { return sim_map_find(s, key, kind, idx); }

/* Enter the registers of box bi (on PCI: those of one of its functions) into the map. */
static int map_box(struct sim *s, int bi, enum sim_space sp, unsigned scope, int companion)
{
	const struct sim_box *b = &s->boxes[bi];
	const struct sim_unit *u = b->u;
	uint64_t base = b->base;
	int pci = u->space == SIM_PCI, rc = 0;
#define PUT(a, k, i) (rc = rc ? rc : map_put(s, sim_reg_key(sp, scope, (a)), bi, (k), (i)))
	for (int f = 0; f < u->nfilt; f++)
		if (u->filt[f].companion == companion)
			PUT(base + u->filt[f].addr, R_FILT, f);
	if (companion)
		return rc;
	if (u->bc) /* Montecito: PMC0 holds the freeze bit and the overflow bits */
		PUT(base + u->box_ctl, R_BOX_CTL, 0);
	if (u->bc && pci && u->box_ctl_bytes == 8) /* its reserved upper dword: reads 0, writes dropped */
		PUT(base + u->box_ctl + 4, R_BOX_CTL_HI, 0);
	if (u->status && !(u->bc && u->bc->pmc0)) /* reads give the bits; writing 1s clears them */
		PUT(base + u->status, R_STATUS, 0);
	if (u->status_clr) /* Nehalem clears through 0x393 */
		PUT(base + u->status_clr, R_STATUS, 0);
	for (int c = 0; c < u->nctr; c++) {
		uint64_t ctl = base + u->ctl0 + (uint64_t)c * u->ctl_stride;
		uint64_t ctr = base + (u->ctr_offs ? u->ctr_offs[c] : u->ctr0 + (uint64_t)c * u->ctr_stride);
		PUT(ctl, R_CTL, c);
		if (pci && u->ctl_bytes == 8)
			PUT(ctl + 4, R_CTL_HI, c);
		PUT(ctr, R_CTR, c);
		if (pci) /* PCI counters are two dwords */
			PUT(ctr + 4, R_CTR_HI, c);
	}
	if (u->fixed_ctl) {
		PUT(base + u->fixed_ctl, R_FIXED_CTL, 0);
		PUT(base + u->fixed_ctr, R_FIXED_CTR, 0);
		if (pci)
			PUT(base + u->fixed_ctr + 4, R_FIXED_CTR_HI, 0);
	}
	for (int k = 0; k < b->nfr; k++) {
		const struct sim_fr *f = &u->fr[k];
		uint64_t a = b->fr_base + f->addr + (f->box_offs ? f->box_offs[b->idx] : (uint64_t)b->idx * f->box_step);
		PUT(a, R_FR, k);
		if (pci)
			PUT(a + 4, R_FR_HI, k);
	}
#undef PUT
	return rc;
}

/* The MSR table (struct sim_msr_slot): every MSR of the map, scope by scope, where their addresses span
 * no more than SIM_MSR_TAB_MAX; the global control and read-only MSRs among them marked. */
#define SIM_MSR_TAB_MAX 65536

static void mark_other(struct sim *s, uint32_t addr)
{
	for (int sc = 0; addr - s->msr_lo < s->msr_span && sc < sim_scopes(s); sc++)
		s->msr_tab[(size_t)sc * s->msr_span + (addr - s->msr_lo)].kind = SIM_MSR_OTHER;
}

static int msr_table(struct sim *s)
{
	uint64_t lo = UINT64_MAX, hi = 0, m = (1ull << 50) - 1;
	for (size_t h = 0; h < s->map_cap; h++)
		if (s->map[h].box && s->map[h].key >> 62 == SIM_MSR) {
			lo = (s->map[h].key & m) < lo ? s->map[h].key & m : lo;
			hi = (s->map[h].key & m) > hi ? s->map[h].key & m : hi;
		}
	if (lo > hi || hi - lo >= SIM_MSR_TAB_MAX || hi > UINT32_MAX)
		return 0; /* no MSR box, or too wide a span: the map alone */
	s->msr_lo = (uint32_t)lo;
	s->msr_span = (uint32_t)(hi - lo + 1);
	if (!(s->msr_tab = calloc((size_t)sim_scopes(s) * s->msr_span, sizeof(*s->msr_tab))))
		return uc_err("out of memory");
	for (size_t h = 0; h < s->map_cap; h++) {
		const struct sim_reg *r = &s->map[h];
		uint64_t scope = r->key >> 50 & 0xfff;
		if (r->box && r->key >> 62 == SIM_MSR && scope < (uint64_t)sim_scopes(s))
			s->msr_tab[scope * s->msr_span + ((r->key & m) - lo)] = (struct sim_msr_slot){
				(uint32_t)((const char *)&s->boxes[r->box - 1] - (const char *)s), (uint16_t)(r->at & ~1u),
				(uint8_t)(r->at & 1u ? 32 : 0), r->kind };
	}
	if (s->glob) {
		mark_other(s, s->glob->ctl);
		for (int w = 0; s->glob->status_regs <= SIM_MAX_GLOB_STATUS && w < s->glob->status_regs; w++)
			mark_other(s, s->glob->status + (uint32_t)w);
	}
	for (int i = 0; i < s->nromsr; i++)
		mark_other(s, s->romsr[i].addr);
	return 0;
}

/* The discovery MSRs a discovery-generation machine answers, 0 where it places no table (Linux 7.0 reads
 * UNCORE_DISCOVERY_MSR 0x201E and CBB_UNCORE_DISCOVERY_MSR 0x710 per die and skips a 0: uncore_discovery_msr):
 * the simulator's choice, so that a probe of them is no stray access.  Where a box's register has the address
 * (SPR/EMR: MSR 0x201E is CHA 1's filter) the box answers: a read-only 0 there hid the filter's value, and
 * a session restored it as 0. */
static int disc_msrs(struct sim *s)
{
	static const uint32_t msrs[] = { 0x201e, 0x710 };
	for (int i = 0; s->kind->multi_die && i < 2; i++) {
		int have = 0;
		for (int k = 0; k < s->nromsr; k++)
			have |= s->romsr[k].addr == msrs[i];
		for (int sc = 0; sc < sim_scopes(s); sc++)
			have |= sim_map_entry(s, sim_key(SIM_MSR, (unsigned)sc, msrs[i])) != NULL;
		if (have)
			continue;
		if (s->nromsr == SIM_MAX_ROMSR)
			return uc_err("simulator: too many read-only MSRs");
		s->romsr[s->nromsr].addr = msrs[i];
		s->romsr[s->nromsr].val = s->romsr[s->nromsr].step = 0;
		s->nromsr++;
	}
	return 0;
}

/* Build the map once the machine is built: a register claimed twice is an error in the model. */
int sim_map_build(struct sim *s)
{
	size_t need = 0;
	int rc = 0;
	for (int i = 0; i < s->nboxes; i++) {
		const struct sim_unit *u = s->boxes[i].u;
		need += 6 + 4 * (size_t)u->nctr + (size_t)u->nfilt + 2 * (size_t)s->boxes[i].nfr;
	}
	for (s->map_cap = 64, s->map_bits = 6; s->map_cap < 2 * need; s->map_cap *= 2)
		s->map_bits++;
	if (!(s->map = calloc(s->map_cap, sizeof(*s->map))))
		return uc_err("out of memory");
	for (int i = 0; i < s->nboxes && !rc; i++)
		if (s->boxes[i].u->space != SIM_PCI)
			rc = map_box(s, i, s->boxes[i].u->space, s->boxes[i].u->space == SIM_MSR ? (unsigned)sim_box_scope(s, &s->boxes[i]) : 0, 0);
	for (int d = 0; d < s->ndevs && !rc; d++)
		if (s->devs[d].box)
			rc = map_box(s, (int)(s->devs[d].box - s->boxes), SIM_PCI, (unsigned)d + 1, s->devs[d].companion);
	return rc ? rc : disc_msrs(s) ? -1 : msr_table(s);
}
