/*
 * The simulated Sapphire Rapids family (sim:spr, sim:emr, and sim:generic behind an unknown model):
 * the machine publishes its units only through PMON discovery tables, as the real one does.  Per
 * socket: a discovery device (0x09A7) whose DVSEC names a 32-bit BAR holding the table; MSR units
 * (CHA, IIO, IRP, M2PCIe, PCU, UBox, MDF), MMIO IMC channels at the address the 0x3251 config
 * registers give, PCI units (M2M, UPI, M3UPI) on the socket's bus, free-running IIO and IMC
 * counters, and the documented quirks: a broken third UPI entry, CXL units on socket 0 only, and
 * the member's own (struct spr_sim_variant): what MSR 0x2FFE reads, CHA entries beyond the CHAs.
 * dies=N repeats a socket's machine per logical die, each with its own table, bus and windows.
 */
#include <string.h>
#include "sim/sim.h"
#include "sim/sim_disc.h"
#include "util/error.h"
#include "sim/sim_perf.h"
#include "sim/spr_family_sim.h"
#include "sim/sim_only.h"
#include "sim/sim_domains.h"
#include "sim/sim_numa.h"


static const int spr_bus[UC_MAX_SOCKETS] = { 0xfe, 0x7e, 0xbe, 0x3e, 0xde, 0x5e, 0x9e, 0x1e };
static int node_id(int socket) { return (socket * 3 + 1) & 7; }

#define TABLE_MAX 160                         /* unit slots per table */
#define BAR_BASE 0x93200000ull                /* a 32-bit BAR, 1 MiB a die: a real SPR's 09A7 (sim_disc.c) */
#define IMC_BASE 0xc8000000ull                /* MMIO base of socket 0 (cfg 0xD0 << 23) */

/* IMC channel ch of controller imc (MMIO at MEMn + 0x22800 + 0x8000 ch, section 1.10.3); the
 * controller's free-running counters go with channel 0. */
static struct sim_box *imc_unit(struct sim *s, struct sim_disc_table *tb, const struct sim_unit *u, int sock, int imc,
				int ch, uint64_t memn)
{
	struct sim_box *b = sim_disc_placed(s, tb, u, sock, imc * 2 + ch, memn + 0x22800 + 0x8000ull * (uint64_t)ch);
	if (b && ch == 0) {
		b->fr_base = memn;
		b->nfr = u->nfr;
	}
	return b;
}

/* IIO stacks per socket, each with the profile's split of traffic over its ports: PMUs 0-9, every one pcm's
 * spr_xcc_ and emr_sad_to_pmu_id_mapping name (pcm-iio-topology.cpp, intel/pcm 0fae0de1) */
#define SPR_SIM_STACKS 10

/* The free-running counters: IMC clocks and queue cycles, and the IIO ones (sim_disc_iio_fr_rate). */
static double fr_rate(const struct sim *s, const struct sim_box *b, const char *n, int stacks)
{
	const struct sim_profile *p = &s->prof;
	if (!strcmp(n, "dclk"))
		return p->dram_hz;
	if (!strcmp(n, "rpq_cycles"))
		return 0.5 * p->dram_hz;
	if (!strcmp(n, "wpq_cycles"))
		return 0.25 * p->dram_hz;
	return sim_disc_iio_fr_rate(s, b, n, stacks, 32);
}

/* A channel's events (iMC, and HBM's MCHBM, whose JSON gives them the same codes): rd and wr CAS a second;
 * CAS_COUNT umask: 7:6 pseudo-channels, 3:0 read kinds, 5:4 write kinds. */
static double chan_rate(const struct sim *s, int sock, double rd, double wr, unsigned ev, unsigned um)
{
	const struct sim_profile *p = &s->prof;
	double pch = ((um & 0x40) ? 0.5 : 0) + ((um & 0x80) ? 0.5 : 0);
	if (ev == 0x01)
		return p->dram_hz;
	if (ev == 0x05)
		return pch * (rd * ((um & 1 ? 0.7 : 0) + (um & 2 ? 0.2 : 0) + (um & 4 ? 0.06 : 0) + (um & 8 ? 0.04 : 0)) +
			      wr * ((um & 0x10 ? 0.6 : 0) + (um & 0x20 ? 0.4 : 0)));
	if (ev == 0x10)
		return rd * (((um & 1) ? 0.5 : 0) + ((um & 2) ? 0.5 : 0)); /* RPQ_INSERTS.PCH0/1 */
	if (ev == 0x80 || ev == 0x81) /* RPQ_OCCUPANCY_PCH0/1: inserts x residency in DCLKs */
		return rd * 0.5 * p->mem_read_lat_ns[sock] * p->dram_hz / 1e9;
	if (ev == 0x20)
		return wr * (((um & 1) ? 0.5 : 0) + ((um & 2) ? 0.5 : 0)); /* WPQ_INSERTS.PCH0/1 */
	return 0;
}

/* IMC channel events: traffic spread over the channels built (4 IMCs x 2, generic 2; with SNC over its domain's,
 * sim_chan_div), 64 bytes a CAS. */
static double imc_rate(const struct sim *s, const struct sim_box *b, unsigned ev, unsigned um)
{
	const struct sim_profile *p = &s->prof;
	int sock = b->socket;
	int all = s->mem_channels[sock] > 0 ? s->mem_channels[sock] : 1;
	double nr = sim_chan_div(s, b, all, 0), nw = sim_chan_div(s, b, all, 1);
	if (ev == 0xe3 || ev == 0xe7) /* PMM_RPQ_INSERTS, PMM_WPQ_INSERTS: PMem traffic over the same channels */
		return ev == 0xe3 ? p->pmem_read_bps[sock] / 64 / nr : p->pmem_write_bps[sock] / 64 / nw;
	return chan_rate(s, sock, p->mem_read_bps[sock] / 64 / nr, p->mem_write_bps[sock] / 64 / nw, ev, um);
}

/* HBM channel events: HBM traffic spread over the socket's HBM channels (with SNC its domain's), SPR_HBM_CAS_BYTES
 * a CAS. */
static double hbm_rate(const struct sim *s, const struct sim_box *b, unsigned ev, unsigned um)
{
	const struct sim_profile *p = &s->prof;
	int sock = b->socket;
	int all = s->hbm_channels[sock] > 0 ? s->hbm_channels[sock] : 1;
	double nr = sim_chan_div(s, b, all, 0) * SPR_HBM_CAS_BYTES, nw = sim_chan_div(s, b, all, 1) * SPR_HBM_CAS_BYTES;
	return chan_rate(s, sock, p->hbm_read_bps[sock] / nr, p->hbm_write_bps[sock] / nw, ev, um);
}

/* The family's own units: IMC channels, M2M directory updates, PCU frequency limits; -1: the shared model's. */
static double spr_own(const struct sim *s, const struct sim_box *b, unsigned ev, unsigned um, uint64_t ctl)
{
	const struct sim_profile *p = &s->prof;
	const char *u = b->u->name;
	int sock = b->socket;
	if (!strcmp(u, "imc"))
		return imc_rate(s, b, ev, um);
	if (!strcmp(u, "hbm"))
		return hbm_rate(s, b, ev, um);
	if (!strcmp(u, "m2m") && ev == 0x21) /* DIRECTORY_UPDATE: half the directory writes, hit (ext 1) or miss (2) */
		return (um & 1) * p->dir_update_bps[sock] / 64 / 4 * 0.5 * (((ctl >> 32) & 1 ? 0.5 : 0) + ((ctl >> 33) & 1 ? 0.5 : 0));
	if (!strcmp(u, "pcu") && (ev == 0x04 || ev == 0x05)) /* FREQ_MAX_LIMIT_THERMAL / _POWER_CYCLES */
		return (ev == 0x04 ? p->pcu_thermal[sock] : p->pcu_power[sock]) * p->pcu_hz;
	return -1;
}

static double spr_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr)
{
	static const struct sim_disc_model model = { .links = 4, .stacks = SPR_SIM_STACKS, .own = spr_own };
	const struct sim_profile *p = &s->prof;
	if (SIM_CTR_IS_FR(ctr))
		return fr_rate(s, b, b->u->fr[SIM_CTR_FR_INDEX(ctr)].name, SPR_SIM_STACKS * s->dies);
	if (ctr == SIM_CTR_FIXED)
		return !strcmp(b->u->name, "imc") ? p->dram_hz : p->uncore_hz; /* DCLK fixed; UBox UCLK */
	return sim_disc_rate(s, b, ctl, &model);
}

int spr_family_fault(struct sim *s, const char *kind, struct sim_box *b)
{
	if (!strcmp(kind, "imcbase")) { /* the config registers place the box's IMC a page off its table entry */
		for (int i = 0; i < s->ndevs; i++) {
			struct sim_dev *d = &s->devs[i];
			uint32_t v;
			if (d->info.device != 0x3251 || d->info.loc.bus != spr_bus[sim_box_scope(s, b)] || b->u->space != SIM_MMIO)
				continue;
			memcpy(&v, d->cfg + 0xd8 + 4 * (b->idx / 2), 4);
			v += 1;
			memcpy(d->cfg + 0xd8 + 4 * (b->idx / 2), &v, 4);
			return 0;
		}
		return uc_err("simulator fault imcbase: %s %d is not an IMC channel", b->u->name, b->idx);
	}
	return sim_disc_fault(s, kind, b);
}

/* The generic platform's units of one socket: a CHA-like MSR unit of an unknown type, two IMC channels
 * (MMIO) and an M2M (PCI). */
static int generic_units(struct sim *s, struct sim_disc_table *tb, int sock, int bus, uint64_t imcbase)
{
	const struct sim_unit *imc = sim_unit_named(s, "imc"), *m2m = sim_unit_named(s, "m2m");
	if (!sim_disc_placed(s, tb, &sim_generic_type21, sock, 0, 0x2e00))
		return -1;
	if (!sim_add_dev(s, bus, 0, 1, 0x3251))
		return uc_err("simulator: too many devices");
	for (int ch = 0; ch < 2; ch++)
		if (!imc_unit(s, tb, imc, sock, 0, ch, imcbase))
			return -1;
	if (!sim_disc_pci(s, tb, m2m, sock, 0, bus, 12, 0))
		return -1;
	return 0;
}

/* The IMC config device (MMIO base at 0xD0, address 51:23; MEM0..3 at 0xD8 + 4n, address 22:12) and the
 * two channels of each of the four IMCs it places. */
static int spr_imcs(struct sim *s, struct sim_disc_table *tb, int sock, int bus, uint64_t imcbase)
{
	const struct sim_unit *imc = sim_unit_named(s, "imc");
	struct sim_dev *d = sim_add_dev(s, bus, 0, 1, 0x3251);
	uint32_t v = (uint32_t)(imcbase >> 23);
	if (!d)
		return uc_err("simulator: too many devices");
	memcpy(d->cfg + 0xd0, &v, 4);
	for (int imcn = 0; imcn < 4; imcn++) {
		uint64_t off = 0x280000ull + 0x80000ull * (uint64_t)imcn;
		v = (uint32_t)(off >> 12);
		memcpy(d->cfg + 0xd8 + 4 * imcn, &v, 4);
		for (int ch = 0; ch < 2; ch++)
			if (!imc_unit(s, tb, imc, sock, imcn, ch, imcbase + off))
				return -1;
	}
	return 0;
}

/* Xeon Max's HBM channels (hbm=flat|cache), on each socket's first die: 16 controllers of 2 channels at
 * PCM's HBM map, SCF BAR + 0x141C00 + 0x9000 controller + 0x4000 channel (src/types.h); the SCF BAR is
 * the simulator's choice. */
#define HBM_SCF_BASE 0xe0000000ull
static int hbm_units(struct sim *s, struct sim_disc_table *tb, int sock, int scope)
{
	const struct sim_unit *hbm = sim_unit_named(s, "hbm");
	uint64_t scf = HBM_SCF_BASE + 0x200000ull * (uint64_t)scope;
	for (int i = 0; s->hbm_mode && s->build_die == 0 && i < SPR_HBM_CHANNELS; i++)
		if (!sim_disc_placed(s, tb, hbm, sock, i, scf + 0x141c00 + 0x9000ull * (uint64_t)(i / 2) + 0x4000ull * (uint64_t)(i % 2)))
			return -1;
	return 0;
}

/* The family's units of one socket besides the CHAs, at the addresses of T1-9 and T1-12. */
static int spr_units(struct sim *s, struct sim_disc_table *tb, int sock, int bus, uint64_t imcbase)
{
	const struct sim_unit *iio = sim_unit_named(s, "iio"), *irp = sim_unit_named(s, "irp"),
			      *m2p = sim_unit_named(s, "m2pcie"), *pcu = sim_unit_named(s, "pcu"), *ubox = sim_unit_named(s, "ubox"),
			      *m2m = sim_unit_named(s, "m2m"), *upi = sim_unit_named(s, "upi"), *m3upi = sim_unit_named(s, "m3upi"),
			      *mdf = sim_unit_named(s, "mdf"), *cxlcm = sim_unit_named(s, "cxlcm"), *cxldp = sim_unit_named(s, "cxldp");
	static const uint32_t mdf_ctl[] = { 0x2800, 0x2810, 0x2820, 0x2830 }; /* T1-9 */
	for (int i = 0; i < SPR_SIM_STACKS; i++) { /* T1-9: IIO 0x3000, IRP 0x3400, M2PCIe 0x3200, + 0x10 n */
		struct sim_box *b = sim_disc_placed(s, tb, iio, sock, i, 0x3000 + 0x10u * (unsigned)i);
		if (!b || !sim_disc_placed(s, tb, irp, sock, i, 0x3400 + 0x10u * (unsigned)i) ||
		    !sim_disc_placed(s, tb, m2p, sock, i, 0x3200 + 0x10u * (unsigned)i))
			return -1;
		b->fr_base = 0x10u * (unsigned)i;
		b->nfr = iio->nfr;
	}
	if (!sim_disc_placed(s, tb, pcu, sock, 0, 0x2fc0) || !sim_disc_placed(s, tb, ubox, sock, 0, 0x2fd0))
		return -1;
	for (int i = 0; i < 4; i++)
		if (!sim_disc_placed(s, tb, mdf, sock, i, mdf_ctl[i]))
			return -1;
	if (spr_imcs(s, tb, sock, bus, imcbase))
		return -1;
	for (int i = 0; i < 4; i++) { /* T1-12: UPI D1-4:F1, M3UPI D5-8:F1, M2M D12-15:F0 */
		struct sim_box *u3 = sim_disc_pci(s, tb, upi, sock, i, bus, 1 + i, 1);
		if (!u3 || !sim_disc_pci(s, tb, m3upi, sock, i, bus, 5 + i, 1) || !sim_disc_pci(s, tb, m2m, sock, i, bus, 12 + i, 0))
			return -1;
		if (i == 2) /* quirk 1: the third UPI entry points at a device that does not exist */
			sim_disc_put64(sim_disc_entry(tb, u3->disc_entry) + 8,
				       (uint64_t)bus << 20 | (uint64_t)(0x1f << 3 | 7) << 12 | upi->box_ctl);
	}
	/* CXL on socket 0 (its first die) only: dies are not symmetric (Linux 0007f393) */
	if (sock == 0 && s->build_die == 0 && (!sim_disc_placed(s, tb, cxlcm, sock, 0, 0xd0000000ull) ||
			  !sim_disc_placed(s, tb, cxldp, sock, 0, 0xd0001000ull)))
		return -1;
	return 0;
}

/* Every socket: its discovery table, UBox node-id device, CHAs and the platform's other units. */
int spr_family_build(struct sim *s, const struct spr_sim_variant *v)
{
	const struct sim_unit *cha = sim_unit_named(s, "cha"), *imc = sim_unit_named(s, "imc");
	uint32_t gidnidmap = 0;
	s->rate = spr_rate;
	s->romsr[s->nromsr].addr = 0x2ffe; /* UNC_CBO_CONFIG (Linux spr_uncore_cpu_init) */
	s->romsr[s->nromsr++].val = v->cbo_count ? (uint64_t)s->cores : 0;
	for (int g = 0; g < sim_scopes(s); g++) /* GIDNIDMAP's groups: the logical dies (one per socket by default) */
		gidnidmap |= (uint32_t)node_id(g) << (3 * g);
	for (int sc = 0; sc < sim_scopes(s); sc++) { /* die by die: a table, bus and addresses of its own */
		int bus = spr_bus[sc], sock = sc / s->dies;
		uint64_t bar = BAR_BASE + 0x100000ull * (uint64_t)sc, imcbase = IMC_BASE + 0x1000000ull * (uint64_t)sc;
		struct sim_disc_table tb;
		int first = s->ndevs;
		s->build_die = sc % s->dies;
		if (sim_disc_socket(s, &tb, sc, bus, bar, TABLE_MAX, (uint32_t)node_id(sc), gidnidmap))
			return -1;
		for (int i = 0; i < s->cores; i++) /* T1-9: CHA n at 0x2000 + 0x10 n */
			if (!sim_disc_placed(s, &tb, cha, sock, i, 0x2000 + 0x10u * (unsigned)i))
				return -1;
		for (int i = s->cores; i < s->cores + v->extra_chas; i++) /* listed, but no CHA answers there */
			if (sim_disc_listed(&tb, cha, i, 0x2000 + 0x10u * (unsigned)i))
				return -1;
		if ((v->generic ? generic_units : spr_units)(s, &tb, sock, bus, imcbase) || hbm_units(s, &tb, sock, sc))
			return -1;
		sim_disc_finish(s, &tb);
		sim_node_functions(s, first, sc); /* the DL380 Gen11's (issue 90 D9) */
	}
	s->build_die = 0;
	sim_disc_count_channels(s, imc);
	for (int i = 0; i < s->nboxes; i++)
		s->hbm_channels[s->boxes[i].socket] += !strcmp(s->boxes[i].u->name, "hbm");
	return 0;
}

static int build_generic(struct sim *s)
{
	static const struct spr_sim_variant generic = { .generic = 1 };
	if (s->variant >= SIM_LAYOUT_DOMAINS) /* layout=domains[2]: Diamond Rapids' layout (sim_domains.c) */
		return sim_domains_build(s);
	return spr_family_build(s, &generic);
}

/* EMR's map behind a CPU model without tables (0xEE is invented): the generic discovery platform */
const struct sim_kind sim_kind_generic = { .name = "generic", .cores = 4, .max_cores = 64 /* no part: the EMR-like layout's */, .family = 6, .model = 0xee,
					   .build = build_generic, SPR_FAMILY_SIM_MAP,
					   .option_help = "layout=domains", .option = sim_domains_option };
