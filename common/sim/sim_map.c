/*
 * The simulator's register map: every register of every simulated box entered by absolute address
 * (MSR: socket and number; PCI: function and config offset; MMIO: physical address), from the unit
 * models of map_*.c.  A register two boxes claim is an error in the model.
 */
#include <stdlib.h>
#include "sim.h"
#include "util/error.h"
#include "sim_only.h"

/* ---- the register map: every register of every box by absolute address ---- */

/* MSR: scope = socket; PCI: scope = device index + 1 and addr the config offset; MMIO: scope 0. */
uint64_t sim_reg_key(enum sim_space sp, unsigned scope, uint64_t addr)
{
	return (uint64_t)sp << 62 | (uint64_t)scope << 50 | (addr & ((1ull << 50) - 1));
}

static size_t slot_of(const struct sim *s, uint64_t key)
{
	/* every bit of the key mixed in (murmur3's finaliser): the socket and the space sit in its top bits */
	key ^= key >> 33;
	key *= 0xff51afd7ed558ccdull;
	key ^= key >> 33;
	key *= 0xc4ceb9fe1a85ec53ull;
	key ^= key >> 33;
	return (size_t)key & (s->map_cap - 1);
}

static int map_put(struct sim *s, uint64_t key, int box, int kind, int idx)
{
	size_t h = slot_of(s, key);
	while (s->map[h].box) {
		if (s->map[h].key == key) {
			const struct sim_box *o = &s->boxes[s->map[h].box - 1], *b = &s->boxes[box];
			return uc_err("simulator map: %s %d and %s %d (socket %d) both claim register 0x%llx", o->u->name,
				      o->idx, b->u->name, b->idx, b->socket, (unsigned long long)(key & ((1ull << 50) - 1)));
		}
		h = (h + 1) & (s->map_cap - 1);
	}
	s->map[h] = (struct sim_reg){ key, (uint32_t)box + 1, (uint8_t)kind, (uint8_t)idx };
	return 0;
}

struct sim_box *sim_map_get(struct sim *s, uint64_t key, int *kind, int *idx)
{
	if (!s->map)
		return NULL;
	for (size_t h = slot_of(s, key); s->map[h].box; h = (h + 1) & (s->map_cap - 1))
		if (s->map[h].key == key) {
			*kind = s->map[h].kind;
			*idx = s->map[h].idx;
			return &s->boxes[s->map[h].box - 1];
		}
	return NULL;
}

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

/* Build the map once the machine is built: a register claimed twice is an error in the model. */
int sim_map_build(struct sim *s)
{
	size_t need = 0;
	int rc = 0;
	for (int i = 0; i < s->nboxes; i++) {
		const struct sim_unit *u = s->boxes[i].u;
		need += 6 + 4 * (size_t)u->nctr + (size_t)u->nfilt + 2 * (size_t)s->boxes[i].nfr;
	}
	for (s->map_cap = 64; s->map_cap < 2 * need; s->map_cap *= 2)
		;
	if (!(s->map = calloc(s->map_cap, sizeof(*s->map))))
		return uc_err("out of memory");
	for (int i = 0; i < s->nboxes && !rc; i++)
		if (s->boxes[i].u->space != SIM_PCI)
			rc = map_box(s, i, s->boxes[i].u->space, s->boxes[i].u->space == SIM_MSR ? (unsigned)sim_box_scope(s, &s->boxes[i]) : 0, 0);
	for (int d = 0; d < s->ndevs && !rc; d++)
		if (s->devs[d].box)
			rc = map_box(s, (int)(s->devs[d].box - s->boxes), SIM_PCI, (unsigned)d + 1, s->devs[d].companion);
	return rc;
}
