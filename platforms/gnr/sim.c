/*
 * Simulated Granite Rapids: the machine publishes its units only through PMON discovery tables, as the
 * real one does.  Per socket, one table (one discovery device) for three compute dies and two I/O dies:
 * per compute die a third of the CHAs (24 on sim:gnr), four IMC channels (MMIO in the socket's SCF BAR, which the
 * UBox 3251 at 00.1 gives, each with two schedulers, SCH0 and SCH1) and their B2CMI bridges (PCI, 05.1-06.5 of the
 * UBox bus), a B2HOT and two MDF stops; per I/O die three IIO stacks with their IRP and PCIEX16
 * units; four UPI links with their B2UPI bridges; the PCU and UBox; CXL (CM, DP, B2CXL) on socket 0 only;
 * then units of the types Linux 6.12 names none for (3, 7, 9-11, 14, 19: unnamed_units).
 * Unit types and formats follow Linux 6.12 gnr_uncores[]; addresses are placed here (sim_map.c).
 * The memory controller splits each channel's traffic between its schedulers by the profile's
 * mem_sch0_ratio, so a metric that counts one scheduler is wrong.  dies=N repeats all this per logical
 * die (a table, bus and windows each; CXL on socket 0's first die), as the kernel would key it.
 */
#include <string.h>
#include "util/error.h"
#include "sim/sim_only.h"
#include "sim_gnr.h"
#include "sim/sim_numa.h"

/* PCI buses of the sockets, not in socket order (one uncore bus per socket) */
static const int gnr_bus[UC_MAX_SOCKETS] = { 0x7e, 0xfe, 0x3e, 0xbe, 0x5e, 0xde, 0x1e, 0x9e };
static int node_id(int socket) { return (socket * 5 + 2) & 7; }

#define GNR_DIES 3            /* compute dies per socket */
#define GNR_IO_DIES 2
#define GNR_CHA_PER_DIE 24
/* The CHAs one MSR space holds at 0x2000 + 0x10 n: 144, up to 0x28FF, below IIO stack 0's IOCLK free-running
 * counter at 0x290E (Linux 6.12 gnr_iio_freerunning, a driver constant: the CHAs cannot run into it).  144 is
 * Sierra Forest-SP's largest part, one CHA a core (Xeon 6780E); Clearwater Forest's 288 cores (Xeon 6+ 6990E+,
 * doc/platforms.md) must then share them two a core pair, or be several logical dies [unverified: the part's CHA
 * count and die topology are not public here]: with cores=N above 144 the machine keeps 144 CHAs a die. */
#define GNR_MAX_CHA 144
#define GNR_CH_PER_DIE 4      /* IMC channels per compute die */
#define GNR_STACKS_PER_IO 3   /* IIO stacks per I/O die without a board (sim:cwf) */
/* IIO PMUs a socket: laid out as a board (sim:gnr, sim:srf; one die, up to two sockets) PMUs 0-14, every one pcm's srf_sad_to_pmu_id_mapping names
 * (pcm-iio-topology.cpp, intel/pcm 0fae0de1), the accelerator stacks' 1, 6, 9 and 14 among them; else 6 */
#define GNR_BOARD_STACKS 15
static int gnr_stacks(const struct sim *s) { return sim_board_of(s) ? GNR_BOARD_STACKS : GNR_IO_DIES * GNR_STACKS_PER_IO; }
#define GNR_LINKS 4
#define TABLE_MAX 260 /* 144 CHAs (sim:cwf) and the rest */
/* The PMON MSM 09a7's BAR: a 32-bit memory BAR, as Intel's Birch Stream board lists it ("Region 0: Memory at
 * 90300000 (32-bit, non-prefetchable)" on 00:03.1, c3b00000 on 80:03.1: linuxhw/LsPCI b6f7d8f2, tests/snapshots/
 * field/gnr-birchstream-2s.source).  Those two for the first two logical dies (sockets, without dies=N); the
 * others placed here, 1 MiB apart above the IMC windows, ascending as the first two (a replay pairs a node's
 * tables with the simulated ones in address order, common/replay/sim_replay.c). */
static uint64_t disc_bar(int scope)
{
	return scope == 0 ? 0x90300000ull : scope == 1 ? 0xc3b00000ull : 0xf0000000ull + 0x100000ull * (uint64_t)(scope - 2);
}
#define IMC_BASE 0xe0000000ull /* socket 0's uncore MMIO window (the SCF BAR within it; the unnamed types' units) */
/* The SCF BAR of a logical die: IMC_BASE + 16 MiB a die + 2 MiB (placed here; the 2 MiB puts a value in 0xD4 as
 * well as 0xD0).  The UBox 3251 at 00.1 gives it: 0xD0 bits 28:0 are address 51:23, 0xD4 bits 10:0 address 22:12
 * (PCM 202502 bw.cpp getServerBars/getServerSCFBar, which reads 0xD0 and 0xD4 of 00.1 of the bus it found 3251
 * on, cpucounters.cpp initSocket2Ubox0Bus). */
static uint64_t scf_bar(int scope) { return IMC_BASE + 0x1000000ull * (uint64_t)scope + 0x200000ull; }
/* Birch Stream's IMC channel c of a socket (0-11) at SCF BAR + 0x24E800 + 0x4000 c: PCM 202502 src/types.h
 * BHS_MC_CH_PMON_BASE_ADDR 0x024e800 and SERVER_MC_CH_PMON_STEP 0x4000 (cpucounters.cpp initBHSiMCPMUs, 12
 * channels on GNR and SRF).  The discovery table names the same addresses: Linux reaches the channels through it
 * alone (gnr_uncore_imc, generic MMIO ops) */
#define BHS_IMC_OFF 0x24e800ull
#define BHS_IMC_STEP 0x4000ull

/* IMC channel events: traffic spread evenly over the channels, each CAS going to scheduler 0 by
 * mem_sch0_ratio; CAS_COUNT_SCH0 (0x05) and _SCH1 (0x06) umasks (perfmon): 3:0 read kinds RD_REG,
 * RD_PRE_REG, RD_UNDERFILL, RD_PRE_UNDERFILL, 5:4 write kinds WR_NONPRE, WR_PRE, 7:6 set in every event. */
static double imc_rate(const struct sim *s, const struct sim_box *b, unsigned ev, unsigned um)
{
	const struct sim_profile *p = &s->prof;
	int sock = b->socket;
	int all = s->mem_channels[sock] > 0 ? s->mem_channels[sock] : 1; /* SNC: sim_numa.c */
	double rd = p->mem_read_bps[sock] / 64 / sim_chan_div(s, b, all, 0), wr = p->mem_write_bps[sock] / 64 / sim_chan_div(s, b, all, 1);
	double sch = ev == 0x05 ? p->mem_sch0_ratio[sock] : 1 - p->mem_sch0_ratio[sock];
	double both = ((um & 0x40) ? 0.5 : 0) + ((um & 0x80) ? 0.5 : 0);
	if (ev == 0x01)
		return p->dram_hz;
	if (ev == 0x05 || ev == 0x06)
		return sch * both * (rd * ((um & 1 ? 0.7 : 0) + (um & 2 ? 0.2 : 0) + (um & 4 ? 0.06 : 0) + (um & 8 ? 0.04 : 0)) +
				     wr * ((um & 0x10 ? 0.6 : 0) + (um & 0x20 ? 0.4 : 0)));
	return 0;
}

/* B2CMI (one per channel): IMC_READS (0x24: NORMAL 0x01, ALL 0x04) and IMC_WRITES (0x25: FULL 0x01,
 * PARTIAL 0x02, ALL 0x10) of the channel's traffic, writes 90 % full; DIRECTORY_UPDATE.ANY (0x21 0x01)
 * half the directory writes, as EMR's M2M. */
static double b2cmi_rate(const struct sim *s, const struct sim_box *b, unsigned ev, unsigned um)
{
	const struct sim_profile *p = &s->prof;
	int sock = b->socket;
	int all = s->mem_channels[sock] > 0 ? s->mem_channels[sock] : 1;
	double nch = sim_chan_div(s, b, all, 0);
	if (ev == 0x24)
		return um & 0x05 ? p->mem_read_bps[sock] / 64 / nch : 0;
	if (ev == 0x25)
		return p->mem_write_bps[sock] / 64 / sim_chan_div(s, b, all, 1) * (um & 0x10 ? 1 : (um & 1 ? 0.9 : 0) + (um & 2 ? 0.1 : 0));
	if (ev == 0x21 && (um & 1))
		return p->dir_update_bps[sock] / 64 / nch * 0.5;
	return ev == 0x01 ? p->uncore_hz : 0;
}

/* cxl=1: the CXL memory expanders, GNR_CXL_PORTS a socket; port k carries (k + 1) / (1 + .. + GNR_CXL_PORTS) of
 * the socket's CXL traffic (uneven: a metric that reads one port for another is wrong).  Without CXL memory
 * (cxl=0) the ports move nothing. */
#define GNR_CXL_PORTS 2
static double cxl_share(const struct sim *s, int port)
{
	return s->variant == SIM_GNR_CXL ? (port + 1) / (GNR_CXL_PORTS * (GNR_CXL_PORTS + 1) / 2.0) : 0;
}

/* The CXL ports' data: CXL CM RxC_PACK_BUF_INSERTS.MEM_DATA (0x41, umask bit 0x10) counts the 64-byte lines
 * read from CXL memory, CXL DP TxC_AGF_INSERTS.M2S_DATA (0x02, umask bit 0x20) those written to it (Intel's
 * graniterapids_uncore.json and sierraforest_uncore.json; PCM pcm-memory.cpp reads them as the CXL.mem read
 * and write bandwidth of a port on Birch Stream, cpucounters.cpp programCXLCM/programCXLDP); -1: not these. */
static double cxl_rate(const struct sim *s, const struct sim_box *b, unsigned ev, unsigned um)
{
	const struct sim_profile *p = &s->prof;
	if (!strcmp(b->u->name, "cxlcm") && ev == 0x41)
		return um & 0x10 ? p->cxl_read_bps[b->socket] / 64 * cxl_share(s, b->idx) : 0;
	if (!strcmp(b->u->name, "cxldp") && ev == 0x02)
		return um & 0x20 ? p->cxl_write_bps[b->socket] / 64 * cxl_share(s, b->idx) : 0;
	return -1;
}

/* GNR's own units: IMC channels and their B2CMI bridges, the CXL ports; -1: the shared model's. */
static double gnr_own(const struct sim *s, const struct sim_box *b, unsigned ev, unsigned um, uint64_t ctl)
{
	(void)ctl;
	if (!strcmp(b->u->name, "cxlcm") || !strcmp(b->u->name, "cxldp"))
		return cxl_rate(s, b, ev, um);
	if (!strcmp(b->u->name, "imc"))
		return b->sched_lost && ev == 0x06 ? 0 : imc_rate(s, b, ev, um);
	if (!strcmp(b->u->name, "b2cmi"))
		return b2cmi_rate(s, b, ev, um);
	return -1;
}

static double gnr_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr)
{
	static const struct sim_disc_model board = { .links = GNR_LINKS, .stacks = GNR_BOARD_STACKS, .own = gnr_own },
					   plain = { .links = GNR_LINKS, .stacks = GNR_IO_DIES * GNR_STACKS_PER_IO, .own = gnr_own };
	const struct sim_disc_model *model = sim_board_of(s) ? &board : &plain;
	if (SIM_CTR_IS_FR(ctr)) /* IIO only: GNR has no IMC free-running counters */
		return sim_disc_iio_fr_rate(s, b, b->u->fr[SIM_CTR_FR_INDEX(ctr)].name, gnr_stacks(s) * s->dies, 32);
	if (ctr == SIM_CTR_FIXED) /* the IMC's DCLK, the UBox's UCLK */
		return strcmp(b->u->name, "ubox") ? s->prof.dram_hz : s->prof.uncore_hz;
	/* CXL CM: the receive side's events (0x41) count on counters 4-7, the transmit side's (0x02) on 0-3
	 * (Intel's JSON Counter fields; PCM cpucounters.h CXL_RxC_MEM "works only on counters 4-7") */
	if (!strcmp(b->u->name, "cxlcm") && ((ctl & 0xff) == 0x41 ? ctr < 4 : (ctl & 0xff) == 0x02 && ctr >= 4))
		return 0;
	return sim_disc_rate(s, b, ctl, model);
}

/* One compute die: its CHAs (MSR 0x2000 + 0x10 n over the socket), IMC channels, B2CMIs, B2HOT, MDFs. */
static int compute_die(struct sim *s, struct sim_disc_table *tb, int sock, int die, int bus)
{
	const struct sim_unit *cha = sim_unit_named(s, "cha"), *imc = sim_unit_named(s, "imc"),
			      *b2cmi = sim_unit_named(s, "b2cmi"), *b2hot = sim_unit_named(s, "b2hot"), *mdf = sim_unit_named(s, "mdf");
	int sc = sock * s->dies + s->build_die; /* the logical die's own window (dies=N) */
	for (int i = die * sim_chas(s) / GNR_DIES; i < (die + 1) * sim_chas(s) / GNR_DIES; i++) /* cores=N: any N */
		if (!sim_disc_placed(s, tb, cha, sock, i, 0x2000 + 0x10u * (unsigned)i))
			return -1;
	for (int c = 0; c < GNR_CH_PER_DIE; c++) {
		int id = die * GNR_CH_PER_DIE + c;
		/* B2CMI n at 05.1-05.7 (n 0-6) and 06.1-06.5 (n 7-11) of the UBox bus, as the Birch Stream listing has
		 * 324a (board.c) and PCM 202502 looks for them (src/types.h BHS_M2M_0..11_REGISTER_DEV/FUNC_ADDR) */
		if (!sim_disc_placed(s, tb, imc, sock, id, scf_bar(sc) + BHS_IMC_OFF + BHS_IMC_STEP * (uint64_t)id) ||
		    !sim_disc_pci(s, tb, b2cmi, sock, id, bus, id < 7 ? 5 : 6, id < 7 ? id + 1 : id - 6))
			return -1;
	}
	if (!sim_disc_placed(s, tb, b2hot, sock, die, 0x2b00 + 0x10u * (unsigned)die))
		return -1;
	for (int k = 0; k < 2; k++)
		if (!sim_disc_placed(s, tb, mdf, sock, die * 2 + k, 0x2c00 + 0x10u * (unsigned)(die * 2 + k)))
			return -1;
	return 0;
}

/* The I/O dies' stacks (IIO 0x2900 + 0x10 n: the driver's IOCLK free-running counter 0x290E + 0x10 n sits
 * at its +0xE; IRP 0x2A00 + 0x10 n), their PCIEX16 functions, the UPI links and B2UPIs, PCU, UBox, CXL. */
static int io_units(struct sim *s, struct sim_disc_table *tb, int sock, int bus)
{
	const struct sim_unit *iio = sim_unit_named(s, "iio"), *irp = sim_unit_named(s, "irp"), *pcu = sim_unit_named(s, "pcu"),
			      *ubox = sim_unit_named(s, "ubox"), *upi = sim_unit_named(s, "upi"), *b2upi = sim_unit_named(s, "b2upi"),
			      *x16 = sim_unit_named(s, "pciex16"), *x8 = sim_unit_named(s, "pciex8"), *cxlcm = sim_unit_named(s, "cxlcm"),
			      *cxldp = sim_unit_named(s, "cxldp"), *b2cxl = sim_unit_named(s, "b2cxl");
	for (int i = 0; i < gnr_stacks(s); i++) { /* a PCIEX16 unit for the first six (the I/O dies' PCIe stacks) */
		struct sim_box *b = sim_disc_placed(s, tb, iio, sock, i, 0x2900 + 0x10u * (unsigned)i);
		if (!b || !sim_disc_placed(s, tb, irp, sock, i, 0x2a00 + 0x10u * (unsigned)i) ||
		    (i < GNR_IO_DIES * GNR_STACKS_PER_IO && !sim_disc_pci(s, tb, x16, sock, i, bus, 9 + i, 2)))
			return -1;
		b->nfr = iio->nfr; /* at the driver's addresses, base 0 (sim_map.c iio_fr) */
	}
	if (!sim_disc_pci(s, tb, x8, sock, 0, bus, 9, 3))
		return -1;
	/* UPI link n at 10.1 + n and its B2UPI at 18.0 + n of the bus after the UBox's: the Birch Stream listing's
	 * 3241 at 7f:10.1-15.1 and 3245 at 7f:18.0-1d.0 (board.c), PCM 202502's BHS_QPI_PORTn (dev 16 + n, fn 1)
	 * and BHS_M3UPI_PORTn (dev 24 + n, fn 0) in src/types.h */
	for (int i = 0; i < GNR_LINKS; i++)
		if (!sim_disc_pci(s, tb, upi, sock, i, bus + 1, 16 + i, 1) || !sim_disc_pci(s, tb, b2upi, sock, i, bus + 1, 24 + i, 0))
			return -1;
	/* the UBox at PCM 202502's BHS_UBOX_MSR_PMON_BOX_CTL_ADDR 0x3FF0 (sim_map.c) */
	if (!sim_disc_placed(s, tb, pcu, sock, 0, 0x2d00) || !sim_disc_placed(s, tb, ubox, sock, 0, 0x3ff0))
		return -1;
	/* CXL: one port on socket 0 without CXL memory; with it (cxl=1) GNR_CXL_PORTS on every socket, each a CM, DP
	 * and B2CXL at 0xD8000000 + 0x100000 a logical die + 0x10000 a port (placed here) */
	int ports = s->variant == SIM_GNR_CXL ? GNR_CXL_PORTS : sock == 0;
	uint64_t cxlbase = 0xd8000000ull + 0x100000ull * (uint64_t)(sock * s->dies);
	for (int k = 0; k < ports && s->build_die == 0; k++) {
		uint64_t a = cxlbase + 0x10000ull * (uint64_t)k;
		if (!sim_disc_placed(s, tb, cxlcm, sock, k, a) || !sim_disc_placed(s, tb, cxldp, sock, k, a + 0x1000) ||
		    !sim_disc_placed(s, tb, b2cxl, sock, k, a + 0x2000))
			return -1;
	}
	return 0;
}

/* The units of the types Linux names none for (gnr_uncores[] NULL), after the rest of the table, a few a
 * logical die (the machine's 1024 boxes hold sim:srf,dies=3): two of type 3 (MSR 0x3000 + 0x10 n), two of
 * type 7 (MMIO, in compute die n's IMC window at +0x40000), one each of types 9, 10, 11 (MSR 0x3100, 0x3200,
 * 0x3300), 14 (MMIO, compute die 0's window +0x50000) and 19 (MSR 0x3400); all placed here.  With 15 stacks (a
 * board) the MSR ones sit between the stacks' free-running counters (BW_OUT up to 0x357E, BW_IN up to 0x3D7E) and
 * the end of the PMON MSR range (0x3FFF, platforms/gnr/platform.c), 0x20 apart from 0x3E00: outside it the
 * library leaves a unit out, with a warning on every open. */
static int unnamed_units(struct sim *s, struct sim_disc_table *tb, int sock)
{
	static const struct { const char *unit; unsigned msr; int mmio; } one[] = {
		{ "type9", 0x3100, 0 }, { "type10", 0x3200, 0 }, { "type11", 0x3300, 0 }, { "type14", 0, 0x50000 }, { "type19", 0x3400, 0 },
	};
	const struct sim_unit *t3u = sim_unit_named(s, "type3"), *t7 = sim_unit_named(s, "type7");
	uint64_t win = IMC_BASE + 0x1000000ull * (uint64_t)(sock * s->dies + s->build_die);
	int board = sim_board_of(s) != NULL;
	unsigned t3 = board ? 0x3e00 : 0x3000, step = board ? 0x20 : 0x10; /* type3 n at t3 + step n */
	for (int i = 0; i < 2; i++)
		if (!sim_disc_placed(s, tb, t3u, sock, i, t3 + step * (unsigned)i) ||
		    !sim_disc_placed(s, tb, t7, sock, i, win + 0x100000ull * (uint64_t)i + 0x40000))
			return -1;
	for (size_t k = 0; k < sizeof(one) / sizeof(one[0]); k++) {
		/* on a board: type9 0x3E40, type10 0x3E60, type11 0x3E80, type19 0x3EC0 (the table's order, 0x20 apart) */
		unsigned msr = board ? 0x3e40 + 0x20u * (unsigned)k : one[k].msr;
		if (!sim_disc_placed(s, tb, sim_unit_named(s, one[k].unit), sock, 0, one[k].mmio ? win + (uint64_t)one[k].mmio : msr))
			return -1;
	}
	return 0;
}

/* The discovery faults; onesched: an IMC channel whose scheduler 1 counts no CAS (the tools that read half of
 * Granite Rapids' DRAM bandwidth counted SCH0 alone); scfbar: a board mistake, the UBox 3251 of the box's logical die
 * giving an SCF BAR a page off (0xD4 + 1), where the discovery table still names the channels (PCM 202502 reads the
 * channels there, the library the table's). */
int sim_gnr_fault(struct sim *s, const char *kind, struct sim_box *b)
{
	if (!strcmp(kind, "scfbar")) {
		int scope = sim_box_scope(s, b), k = 0;
		for (int i = 0; i < s->ndevs; i++) {
			struct sim_dev *d = &s->devs[i];
			uint32_t v;
			if (d->info.device != 0x3251 || d->info.loc.dev != 0 || d->info.loc.fn != 1 || k++ != scope)
				continue;
			memcpy(&v, d->cfg + 0xd4, 4);
			v = (v & ~0x7ffu) | ((v + 1) & 0x7ffu);
			memcpy(d->cfg + 0xd4, &v, 4);
			return 0;
		}
		return uc_err("simulator fault scfbar: no UBox 3251 on the logical die of %s %d", b->u->name, b->idx);
	}
	if (strcmp(kind, "onesched"))
		return sim_disc_fault(s, kind, b);
	if (strcmp(b->u->name, "imc"))
		return uc_err("simulator fault onesched: %s %d is not an IMC channel", b->u->name, b->idx);
	b->sched_lost = 1;
	return 0;
}

/* The UBox's 3251 at 00.1 of the UBox bus (the Birch Stream listing: 3250-3252 at 7e:00.0-2), its SCF BAR at
 * 0xD0 and 0xD4 (scf_bar) */
static int scf_device(struct sim *s, int bus, int scope)
{
	struct sim_dev *d = sim_add_dev(s, bus, 0, 1, 0x3251);
	uint64_t scf = scf_bar(scope);
	uint32_t v;
	if (!d)
		return uc_err("simulator: too many devices");
	d->info.node = sim_node_of_scope(s, scope);
	v = (uint32_t)(scf >> 23) & 0x1fffffffu;
	memcpy(d->cfg + 0xd0, &v, 4);
	v = (uint32_t)(scf >> 12) & 0x7ffu;
	memcpy(d->cfg + 0xd4, &v, 4);
	return 0;
}

int sim_gnr_build(struct sim *s)
{
	const struct sim_unit *imc = sim_unit_named(s, "imc");
	uint32_t gidnidmap = 0;
	s->rate = gnr_rate;
	s->chas = s->cores > GNR_MAX_CHA ? GNR_MAX_CHA : 0;
	/* MSR_PMON_NUMBER_CBOS (0x3FED), bits 8:0 the socket's CHAs: PCM 202502 cpucounters.cpp
	 * getMaxNumOfCBoxesInternal reads it on GNR, SRF and GNR-D (0 there: "0 CHA/CBO units detected") */
	if (s->nromsr < SIM_MAX_ROMSR) {
		s->romsr[s->nromsr].addr = 0x3fed;
		s->romsr[s->nromsr++].val = (uint64_t)(sim_chas(s) * s->dies) & 511;
	}
	s->cxl_mem = s->variant == SIM_GNR_CXL; /* a CXL memory node a socket: workloads may be placed in it */
	for (int g = 0; g < sim_scopes(s); g++) /* GIDNIDMAP's groups: the logical dies (one per socket by default) */
		gidnidmap |= (uint32_t)node_id(g) << (3 * g);
	for (int sc = 0; sc < sim_scopes(s); sc++) { /* die by die (dies=N): a table, bus and addresses of its own */
		struct sim_disc_table tb;
		int bus = gnr_bus[sc], sock = sc / s->dies;
		s->build_die = sc % s->dies;
		if (sim_disc_socket(s, &tb, sc, bus, disc_bar(sc), TABLE_MAX, (uint32_t)node_id(sc), gidnidmap) ||
		    scf_device(s, bus, sc))
			return -1;
		/* Each PCI unit's address with bit 31 set, the PCI enable bit of a configuration address: PCM 202502
		 * asserts it in every PCI unit it takes from a Birch Stream table (cpucounters.cpp
		 * getPCICFGPMUsFromDiscovery, "assert(Addr.raw & PCI_ENABLE)", PCI_ENABLE 0x80000000), and Linux reads
		 * the segment from bits 30:28 alone (uncore_discovery.h UNCORE_DISCOVERY_PCI_DOMAIN) */
		tb.pci_enable = 1ull << 31;
		for (int d = 0; d < GNR_DIES; d++)
			if (compute_die(s, &tb, sock, d, bus))
				return -1;
		if (io_units(s, &tb, sock, bus) || unnamed_units(s, &tb, sock))
			return -1;
		sim_disc_finish(s, &tb);
	}
	s->build_die = 0;
	sim_disc_count_channels(s, imc);
	return 0;
}

/* cxl=0|1: CXL memory expanders on every socket (1), their traffic the profile's cxl_read/write_bytes_per_s */
int sim_gnr_option(struct sim *s, const char *key, const char *value)
{
	if (!strcmp(key, "cxl") && (!strcmp(value, "0") || !strcmp(value, "1"))) {
		s->variant = value[0] == '1' ? SIM_GNR_CXL : 0;
		return 0;
	}
	return uc_err("bad simulator option '%s=%s' (%s: cxl=0|1, CXL memory expanders on every socket)", key, value,
		      s->kind->name);
}

/* SNC3: a compute die a domain; the DDR channel pairs 0, 1 and 2 of a die's iMCs sit on dies 1, 0 and 2 */
const struct sim_snc_layout sim_gnr_snc = {
	.allowed = "1, 3", .why = "three compute dies, a die a domain; SNC2 is for parts of two compute dies",
	.ddr = { [3] = { 1, 0, 2 } } };

/* Xeon 6 6960P-like: 72 cores (3 dies x 24), family 6 model 0xAD (Linux INTEL_GRANITERAPIDS_X), stepping 1 */
const struct sim_kind sim_kind_gnr = SIM_GNR_KIND("gnr", GNR_DIES * GNR_CHA_PER_DIE, 128 /* Xeon 6980P */, 0xad, 1, 0x102, &sim_gnr_board, &sim_gnr_iio_regs);
