/*
 * A machine laid out in PMON discovery domains as Diamond Rapids is (Linux 7.0; the facts and their commits:
 * platforms/dmr/README.md): sim:dmr, and behind the generic kind's unknown CPU sim:generic,layout=domains.  Per socket
 * one I/O and memory hub (IMH) table, found through PCI device 0x09A1 (DMR_UNCORE_DISCOVERY_TABLE_DEVICE,
 * 6daf2c35b835) on the socket's first die's NUMA node; per logical die (dies=N) one compute (CBB) table whose
 * physical address that die's MSR 0x710 holds (CBB_UNCORE_DISCOVERY_MSR, 66e2075426f3), its global control
 * in MMIO with freeze_all (bit 0) set at power-on (b575fc0e3357): nothing on the die counts until it is
 * cleared.  Each table lists a unit Linux ignores as broken (IMH: type 0x13 MSE; CBB: type 0x25 SB2UCIE),
 * which no register answers.  The unit types are Linux's (dmr_uncores[]); their events, addresses, counter
 * counts and offsets are the simulator's own ("placed here"): no public source gives them, the tables
 * publish them.  The IMH iMC's fixed counter sits at 0x18 with its control at 0x10 (DMR_IMC_PMON_FIXED_CTR/
 * CTL); the CXL CM control keeps inv at bit 21, thresh 31:23 and port_en 35:32 (dmr_cxlcm_uncore_formats_attr).
 * Four ITC units a hub (ids 0-3; IMH2's 0x8000-0x8003), and on socket 0's primary hub the IIO free-running
 * counters (d8987048f665) in the MMIO windows of HIOP0/1/3/4 that Linux maps at one fixed address on every die:
 * a physical address reaches one hub, here socket 0's (placed here).
 */
#include <string.h>
#include "sim/sim_disc.h"
#include "sim/sim_disc_map.h"
#include "sim/sim_domains.h"
#include "sim/sim_only.h"
#include "util/error.h"

#define N(a) UC_ARRAY_LEN(a)

#define IMH_BAR 0x2c0000000ull   /* socket s's IMH table at + 0x100000 s (placed here) */
#define CBB_BAR 0x2d0000000ull   /* logical die k's CBB table at + 0x100000 k: what its MSR 0x710 reads */
#define CBB_GCTL 0x2e0000000ull  /* its global control at + 0x1000 k (placed here; the table names it) */
#define IMC_BASE 0xe0000000ull   /* socket s's channel c at + 0x1000000 s + 0x8000 c */
#define IMH_MMIO 0x3100000000ull /* hub k of socket s's other units at + 0x1000000 (2 s + k), 0x4000 apart (placed here) */
#define CBB_MMIO 0x3000000000ull /* logical die k's units at + 0x1000000 k, 0x4000 apart (placed here) */
#define UNIT_SPAN 0x4000ull      /* Linux UNCORE_GENERIC_MMIO_SIZE: what the driver maps at each unit address */
#define IMH_CHANNELS 4
#define CBB_SBOS 2
#define TABLE_MAX 200
#define DISC_MSR_CBB 0x710
#define TYPE_MSE 0x13     /* dmr_uncore_imh_units_ignore */
#define TYPE_SB2UCIE 0x25 /* dmr_uncore_cbb_units_ignore */
#define HUB_ITCS 4        /* ITC units a hub (placed here; ids 0-3, IMH2's from 0x8000) */
#define HIOP_BASE 0x1ffff6ae7000ull /* Linux 7.0 DMR_IMH1_HIOP_MMIO_BASE (d8987048f665) */

static const int imh_bus[UC_MAX_SOCKETS] = { 0x7f, 0xff, 0x3f, 0xbf, 0x5f, 0xdf, 0x1f, 0x9f };

/* CXL CM: event 7:0, umask 15:8, rst 17, edge 18, inv 21, thresh 31:23, port_en 35:32 (Linux dmr_cxlcm) */
#define CXL_W (0xffffull | RST | (1ull << 18) | (1ull << 21) | (0x1ffull << 23) | (0xfull << 32))
/* iMC: event, umask, rst, edge, frz_ovf 20, inv 23, thresh 32:23 (Linux dmr_imc_uncore_formats_attr) */
#define IMC_W (0xffffull | RST | (1ull << 18) | OV | (0x3ffull << 23))
/* A unit Linux drives with its generic MMIO ops (uncore_discovery.c generic_uncore_mmio_ops: controls at the entry's
 * control offset 4 bytes apart, 32-bit registers written with writel; counters 8 apart read with readq), its offsets
 * placed here: status +0x8, controls +0x10, counters +0x30 (up to 8 of each) */
#define MMIO_GEN(n) .space = SIM_MMIO, .status = 0x08, .ctl0 = 0x10, .ctl_stride = 4, .ctr0 = 0x30, .ctr_stride = 8, \
	.nctr = (n), .ctl_bytes = 4
#define LO32 0xffffffffull /* a 32-bit control keeps no bit above 31 */

/* Linux 7.0's event masks: DMR_HAMVF_EVENT_MASK_EXT 0xffffffff (umask_ext5: sca, hamvf, cbo, ula, dda, sbo, ubr,
 * cpc, itc, otc), DMR_PCIE4_EVENT_MASK_EXT 0xffffff (pcie4, pcie6); the others the generic format (BASE) */
#define EXT32 0xffffffff00000000ull
#define MMIO_T(n, t, w, why) { .name = n, MMIO_GEN(4), CTL((w) & LO32), .disc_type = t, \
	.src = "Linux 7.0 dmr_uncores[" #t "] " why ": generic MMIO ops; offsets placed here" }
/* the same type listed through MSR (option msr=), placed here: Linux 7.0 registers no PMU for it (no .cpu_init) */
#define MSR_TWIN(n, t, w) { .name = n, MSR_UNIT(4), CTL(w), .disc_type = t, .src = "an MSR-access entry (option msr=); placed here" }
/* ... and through PCI (option pci=): Linux's generic PCI ops (generic_uncore_pci_ops: controls 8 apart, CTL_OFFS8),
 * the offsets and the device id placed here */
#define PCI_TWIN(n, t, w, id) { .name = n, .space = SIM_PCI, .box_ctl = 0x400, .status = 0x408, .ctl0 = 0x410, .ctl_stride = 8, \
	.ctr0 = 0x450, .ctr_stride = 8, .ctl_bytes = 8, .nctr = 4, CTL(w), .disc_type = t, .ids = { id }, \
	.src = "a PCI-access entry (option pci=); placed here" }

/* The IIO free-running counters of HIOP n at HIOP_BASE + hiop_offs[n] (dmr_iio_freerunning_box_offsets: HIOP0,
 * HIOP1, HIOP3, HIOP4), in Linux's dmr_iio_freerunning groups: ITC_INB_DATA_BW 0x4d40, ITC_BW_IN 0x6b00,
 * OTC_BW_OUT 0x6b60 (8 ports, 8 bytes apart), OTC_CLOCK_TICKS 0x6bb0; 48 bits (d8987048f665) */
static const uint32_t hiop_offs[] = { 0x0, 0x8000, 0x18000, 0x20000 };
#define FRP(s, n, a) { s #n, (a) + 8 * (n), 48, 0, hiop_offs }
#define FR8(s, a) FRP(s, 0, a), FRP(s, 1, a), FRP(s, 2, a), FRP(s, 3, a), FRP(s, 4, a), FRP(s, 5, a), FRP(s, 6, a), FRP(s, 7, a)
static const struct sim_fr iio_fr[] = { FR8("inb_data_port", 0x4d40), FR8("bw_in_port", 0x6b00), FR8("bw_out_port", 0x6b60),
					{ "clockticks", 0x6bb0, 48, 0, hiop_offs } };
_Static_assert(N(iio_fr) <= SIM_MAX_FR, "sim_model.h: SIM_MAX_FR holds every free-running counter of a box");

const struct sim_unit sim_domains_units[] = {
	MMIO_T("pcu", 4, BASE, "spr_uncore_pcu"),
	{ .name = "ubox", MMIO_GEN(2), CTL(BASE), .disc_type = 5, .src = "Linux 7.0 dmr_uncores[5] gnr_uncore_ubox: generic MMIO ops; placed here" },
	{ .name = "imc", .space = SIM_MMIO, .ctl0 = 0x40, .ctl_stride = 4, .ctr0 = 0x20, .ctr_stride = 8, .status = 0x5c,
	  .nctr = 4, .ctl_bytes = 4, CTL(IMC_W), .disc_type = 6, .fixed_ctl = 0x10, .fixed_ctr = 0x18, .fixed_width = 48,
	  .fixed_en = 1u << 22, .src = "Linux 7.0 dmr_uncore_imc: fixed 0x18/0x10, thresh10; counters placed here" },
	{ .name = "cxlcm", MMIO_GEN(8), CTL_NOOV(CXL_W & LO32), .disc_type = 24,
	  .src = "Linux 7.0 dmr_uncore_cxlcm: inv2, thresh9_2, port_en; no .ops: generic MMIO ops, controls 4 apart" },
	{ .name = "mse", MSR_UNIT(4), CTL(BASE), .disc_type = TYPE_MSE, .src = "listed, no register: Linux ignores it (broken)" },
	MMIO_T("cbo", 31, BASE | EXT32, "dmr_uncore_cbo"),
	MMIO_T("sbo", 38, BASE | EXT32, "dmr_uncore_sbo"),
	{ .name = "sb2ucie", MSR_UNIT(4), CTL(BASE), .disc_type = TYPE_SB2UCIE, .src = "listed, no register: Linux ignores it (broken)" },
	/* the hub's other types (one unit each on the primary hub) and the compute die's (one each a die) */
	MMIO_T("sca", 23, BASE | EXT32, "dmr_uncore_sca"), MMIO_T("hamvf", 30, BASE | EXT32, "dmr_uncore_hamvf"),
	MMIO_T("ula", 35, BASE | EXT32, "dmr_uncore_ula"), MMIO_T("ubr", 43, BASE | EXT32, "dmr_uncore_ubr"),
	MMIO_T("pcie4", 45, BASE | EXT24, "dmr_uncore_pcie4"), MMIO_T("crs", 46, BASE, "dmr_uncore_crs"),
	MMIO_T("cpc", 47, BASE | EXT32, "dmr_uncore_cpc"), MMIO_T("itc", 48, BASE | EXT32, "dmr_uncore_itc"),
	MMIO_T("otc", 49, BASE | EXT32, "dmr_uncore_otc"), MMIO_T("cms", 50, BASE, "dmr_uncore_cms"),
	MMIO_T("pcie6", 51, BASE | EXT24, "dmr_uncore_pcie6"),
	MMIO_T("santa", 32, BASE, "dmr_uncore_santa"), MMIO_T("cncu", 33, BASE, "dmr_uncore_cncu"),
	MMIO_T("sncu", 34, BASE, "dmr_uncore_sncu"), MMIO_T("dda", 36, BASE | EXT32, "dmr_uncore_dda"),
	/* not in any table: free-running counters alone (Linux's dmr_uncore_iio_free_running) */
	{ .name = "iio", .space = SIM_MMIO, .disc_type = -1, .fr = iio_fr, .nfr = N(iio_fr),
	  .src = "Linux 7.0 dmr_iio_freerunning, dmr_iio_freerunning_box_offsets, DMR_IMH1_HIOP_MMIO_BASE (d8987048f665)" },
	/* after every unit of the name, so that sim_unit_named finds the MMIO one: the MSR-access twins option msr= places */
	MSR_TWIN("itc", 48, BASE | EXT32), MSR_TWIN("pcu", 4, BASE), PCI_TWIN("pcie4", 45, BASE | EXT24, 0x09b4),
};
const int sim_domains_nunits = N(sim_domains_units);
/* the hub's and the compute die's other units, each at its own MMIO window (placed here) */
static const char *const imh_more[] = { "sca", "hamvf", "ula", "ubr", "pcie4", "crs", "cpc", NULL /* itc: below */, "otc", "cms",
					"pcie6" };
static const char *const cbb_more[] = { "santa", "cncu", "sncu", "dda" };


/* The simulator's own events: clockticks (0x01) on every unit, the iMC's at the DRAM clock. */
static double own(const struct sim *s, const struct sim_box *b, unsigned ev, unsigned um, uint64_t ctl)
{
	(void)um, (void)ctl;
	return !strcmp(b->u->name, "imc") && ev == 0x01 ? s->prof.dram_hz : -1;
}

static double rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr)
{
	static const struct sim_disc_model model = { .links = 0, .stacks = 0, .own = own };
	if (ctr == SIM_CTR_FIXED)
		return s->prof.dram_hz; /* the iMC's DCLK */
	if (SIM_CTR_IS_FR(ctr)) /* the socket's IIO traffic over its HIOPs, 4 bytes a count (scale 3.814697266e-6 MiB) */
		return sim_disc_iio_fr_rate(s, b, b->u->fr[SIM_CTR_FR_INDEX(ctr)].name, HUB_ITCS, 4);
	return sim_disc_rate(s, b, ctl, &model);
}

/* The twin of unit name listed through another access (options msr=, pci=): the unit of that name and space
 * listed after the MMIO one. */
static const struct sim_unit *twin(const struct sim *s, const char *name, enum sim_space space)
{
	for (int i = s->nunits - 1; i >= 0; i--)
		if (!strcmp(s->units[i].name, name) && s->units[i].space == space)
			return &s->units[i];
	return NULL;
}

static int opt(const struct sim *s, int flag) { return s->variant > 0 && (s->variant & flag); }

/* Unit name at MMIO address mmio, or its MSR twin at MSR msr where option msr= names it (flag). */
static struct sim_box *place(struct sim *s, struct sim_disc_table *tb, const char *name, int flag, int sock, int id,
			     uint64_t mmio, uint32_t msr)
{
	if (opt(s, flag))
		return sim_disc_placed(s, tb, twin(s, name, SIM_MSR), sock, id, msr);
	return sim_disc_placed(s, tb, sim_unit_named(s, name), sock, id, mmio);
}

/* Socket sock's IMH k (k 1: the secondary, IMH2, whose unit ids start at 0x8000: Linux d8987048f665,
 * uncore_type_max_boxes): its table behind a 0x09A1 device on the socket's first die's node, PCU, UBox (the
 * primary's), channels, ITCs, CXL CM on socket 0's primary, the MSE entry, and on socket 0's primary a
 * free-running box per ITC (no table lists it: the HIOP windows are there whatever the tables say). */
static int imh(struct sim *s, int sock, int k)
{
	struct sim_disc_table tb;
	int id0 = k ? 0x8000 : 0, sc = sock * 2 + k;
	uint64_t bar = IMH_BAR + 0x100000ull * (uint64_t)sc, imc = IMC_BASE + 0x1000000ull * (uint64_t)sock + 0x100000ull * (uint64_t)k;
	uint64_t mm = IMH_MMIO + 0x1000000ull * (uint64_t)sc;
	int nimh = (s->variant & 3) == SIM_LAYOUT_DOMAINS_IMH2 ? 2 : 1;
	s->build_die = 0;
	/* the hubs' devices in ascending bus order, as Linux's PCI walk finds them (IMH1 below IMH2) */
	if (sim_disc_table_new(s, &tb, bar, TABLE_MAX) ||
	    sim_disc_device(s, imh_bus[sock] - 0x10 * (nimh - 1 - k), bar, sock * s->dies, 0x09a1))
		return uc_err("simulator: too many devices or tables");
	if (s->variant & SIM_DOMAINS_IMH_NO_NODE) /* NUMA off: the device has none (pcibus_to_node NUMA_NO_NODE) */
		s->devs[s->ndevs - 1].info.node = -1;
	if (!k && (!place(s, &tb, "pcu", SIM_DOMAINS_MSR_PCU, sock, 0, mm, 0x2fc0) ||
		   !sim_disc_placed(s, &tb, sim_unit_named(s, "ubox"), sock, 0, mm + UNIT_SPAN)))
		return -1;
	for (int c = 0; c < IMH_CHANNELS; c++)
		if (!sim_disc_placed(s, &tb, sim_unit_named(s, "imc"), sock, id0 + c, imc + 0x8000ull * (uint64_t)c))
			return -1;
	if (sock == 0 && !k && !sim_disc_placed(s, &tb, sim_unit_named(s, "cxlcm"), sock, 0, 0xd8000000ull))
		return -1;
	for (int n = 0; n < HUB_ITCS; n++) {
		struct sim_box *b = place(s, &tb, "itc", SIM_DOMAINS_MSR_ITC, sock, id0 + n, mm + UNIT_SPAN * (uint64_t)(2 + n),
					  0x3100 + 0x10u * (unsigned)(4 * k + n));
		struct sim_box *fr = b && !k && !sock ? sim_add_box(s, sim_unit_named(s, "iio"), sock, n) : NULL;
		if (!b || (!k && !sock && !fr))
			return b ? uc_err("simulator: too many boxes") : -1;
		if (fr) {
			fr->fr_base = HIOP_BASE;
			fr->nfr = fr->u->nfr;
		}
	}
	for (size_t i = 0; i < N(imh_more) && !k; i++) {
		int pci = imh_more[i] && !strcmp(imh_more[i], "pcie4") && opt(s, SIM_DOMAINS_PCI_PCIE4); /* at bus:04.0 */
		if (imh_more[i] && !(pci ? sim_disc_pci(s, &tb, twin(s, "pcie4", SIM_PCI), sock, 0, imh_bus[sock], 4, 0)
					 : sim_disc_placed(s, &tb, sim_unit_named(s, imh_more[i]), sock, 0, mm + UNIT_SPAN * (8 + i))))
			return -1;
	}
	if (sim_disc_listed(&tb, sim_unit_named(s, "mse"), id0, 0x2f80 + 8u * (unsigned)k))
		return -1;
	sim_disc_finish_at(&tb, 0, 0x2ff0, 2); /* no source says where the IMH's global control is: placed here */
	return 0;
}

/* Logical die sc's CBB: its table where its MSR 0x710 points, frozen at power-on, CBOs, SBOs, SB2UCIE. */
static int cbb(struct sim *s, int sc)
{
	struct sim_disc_table tb;
	int sock = sc / s->dies;
	uint64_t gctl = CBB_GCTL + 0x1000ull * (uint64_t)sc, mm = CBB_MMIO + 0x1000000ull * (uint64_t)sc;
	s->build_die = sc % s->dies;
	if (s->nmglob == SIM_MAX_BLOBS || sim_disc_table_new(s, &tb, CBB_BAR + 0x100000ull * (uint64_t)sc, TABLE_MAX))
		return uc_err("simulator: too many tables");
	for (int i = 0; i < s->cores; i++) /* CBO i at + 0x4000 i, SBOs from + 0x800000, the others from + 0xc00000 */
		if (!sim_disc_placed(s, &tb, sim_unit_named(s, "cbo"), sock, i, mm + UNIT_SPAN * (uint64_t)i))
			return -1;
	for (int i = 0; i < CBB_SBOS; i++)
		if (!sim_disc_placed(s, &tb, sim_unit_named(s, "sbo"), sock, i, mm + 0x800000 + UNIT_SPAN * (uint64_t)i))
			return -1;
	for (size_t i = 0; i < N(cbb_more); i++)
		if (!sim_disc_placed(s, &tb, sim_unit_named(s, cbb_more[i]), sock, 0, mm + 0xc00000 + UNIT_SPAN * i))
			return -1;
	if (sim_disc_listed(&tb, sim_unit_named(s, "sb2ucie"), 0, 0x2f00))
		return -1;
	/* the global block names its control's access: MMIO, or MSR with option gctl=msr (the control is in MMIO
	 * either way: Linux's uncore_mmio_global_init maps it whatever the block says, b575fc0e3357) */
	sim_disc_finish_at(&tb, opt(s, SIM_DOMAINS_GCTL_MSR) ? 0 : 1, gctl, 8);
	s->mglob[s->nmglob].phys = gctl;
	s->mglob[s->nmglob++].scope = sc;
	s->gfrz[sc] = s->gfrz_boot[sc] = 1; /* freeze_all set at power-on */
	return 0;
}

static int build(struct sim *s)
{
	if (s->variant < 0)
		s->variant = SIM_LAYOUT_DOMAINS;
	if (s->nromsr == SIM_MAX_ROMSR)
		return uc_err("simulator: too many read-only MSRs");
	s->rate = rate;
	s->romsr[s->nromsr].addr = DISC_MSR_CBB; /* each die reads its own table's address */
	s->romsr[s->nromsr].val = CBB_BAR;
	s->romsr[s->nromsr++].step = 0x100000;
	for (int sock = 0; sock < s->nsockets; sock++)
		for (int k = 0; k < ((s->variant & 3) == SIM_LAYOUT_DOMAINS_IMH2 ? 2 : 1); k++)
			if (imh(s, sock, k))
				return -1;
	for (int sc = 0; sc < sim_scopes(s); sc++)
		if (cbb(s, sc))
			return -1;
	s->build_die = 0;
	sim_disc_count_channels(s, sim_unit_named(s, "imc"));
	return 0;
}

int sim_domains_option(struct sim *s, const char *key, const char *value)
{
	(void)key;
	if (strcmp(value, "domains") && strcmp(value, "domains2"))
		return uc_err("simulator option layout=%s: the generic machine's layouts are domains (a table per "
			      "I/O hub and per compute die, as Diamond Rapids) and domains2 (two hubs a socket)", value);
	s->units = sim_domains_units;
	s->nunits = sim_domains_nunits;
	s->glob = NULL; /* the compute dies' global controls are in MMIO (s->mglob) */
	s->variant = strcmp(value, "domains") ? SIM_LAYOUT_DOMAINS_IMH2 : SIM_LAYOUT_DOMAINS;
	return 0;
}

/* sim:dmr's options: imh=1|2, one I/O hub a socket or two (the second IMH2, ids from 0x8000); msr=itc|pcu, that
 * type's units listed through MSR (Linux 7.0 registers no PMU for them); pci=pcie4, the PCIe 4 units listed through
 * PCI (Linux's generic PCI ops); gctl=msr, the compute tables' global
 * block naming its control's access MSR; imh_node=none, the hubs' table devices on no NUMA node (numa=off: the
 * tables then go to logical dies in the order they are found, those beyond the dies skipped, 7b568e9eba2f) */
int sim_domains_dmr_option(struct sim *s, const char *key, const char *value)
{
	if (s->variant < 0)
		s->variant = SIM_LAYOUT_DOMAINS;
	if (!strcmp(key, "imh") && (!strcmp(value, "1") || !strcmp(value, "2")))
		s->variant = (s->variant & ~3) | (value[0] == '2' ? SIM_LAYOUT_DOMAINS_IMH2 : SIM_LAYOUT_DOMAINS);
	else if (!strcmp(key, "msr") && (!strcmp(value, "itc") || !strcmp(value, "pcu")))
		s->variant |= value[0] == 'i' ? SIM_DOMAINS_MSR_ITC : SIM_DOMAINS_MSR_PCU;
	else if (!strcmp(key, "gctl") && !strcmp(value, "msr"))
		s->variant |= SIM_DOMAINS_GCTL_MSR;
	else if (!strcmp(key, "pci") && !strcmp(value, "pcie4"))
		s->variant |= SIM_DOMAINS_PCI_PCIE4;
	else if (!strcmp(key, "imh_node") && !strcmp(value, "none"))
		s->variant |= SIM_DOMAINS_IMH_NO_NODE;
	else
		return uc_err("bad simulator option '%s=%s' (dmr: imh=1|2, I/O hubs a socket; msr=itc|pcu, that type listed "
			      "through MSR; pci=pcie4, the PCIe 4 units through PCI; gctl=msr, the compute tables' global block "
			      "saying MSR; imh_node=none, the hubs' table devices on no NUMA node)", key, value);
	return 0;
}

int sim_domains_build(struct sim *s) { return build(s); }
