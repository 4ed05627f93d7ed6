/*
 * Issue 90 D2-D5 and D8: the registers peers (PCM, likwid) read and write that the library does not, as the
 * simulated machine answers them: the UBox's global control and status (0x700, 0x701 / 0x70E),
 * U_MSR_PMON_GLOBAL_CONFIG 0x702's CHA count, Skylake-SP's UBox functions 08.1 and 08.2 with the stacks' buses,
 * MSR_PLATFORM_INFO with the TSC, the Sapphire Rapids family's CAPID6/7, and the bits of SKX's UPI box control
 * that PCM reads back.  Each value is checked against a source outside the register it is in: the profile or
 * spec, the CAPID registers, the PCI tree's root ports, PCM's constants.
 */
#include <stdlib.h>
#include <string.h>
#include "sim_helpers.h"
#include "sim/sim_numa.h"
#include "sim_truth.h"

static int msr_rd(uncore_t *u, int cpu, uint32_t reg, uint64_t *v) { return u->acc->ops->msr_read(u->acc, cpu, reg, v); }
static int msr_wr(uncore_t *u, int cpu, uint32_t reg, uint64_t v) { return u->acc->ops->msr_write(u->acc, cpu, reg, v); }

/* One more simulated second read; then mem_bw_read's value of it on a socket (its truth: the profile's GB/s). */
static void next_second(uncore_t *u, uncore_session_t *s)
{
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
}

static double last_value(uncore_session_t *s, int m, int sock)
{
	double v = NAN;
	CU_ASSERT(uncore_session_metric_value(s, m, sock, -1, UNCORE_LAST_INTERVAL, &v) == 0);
	return v;
}

/* D2: a global freeze written to 0x700 stops every box of its socket until unfrz_all is written (frz_all
 * written 0 resumes nothing: the bit is a command, reading 0), the other socket counting on; the status MSRs
 * are there (read 0 with no overflow, written 1s to clear).  HSX, BDX, BDX-DE: bits 31/29 (likwid's freeze,
 * PCM's unfreeze); SKX, CLX, ICX: 63/61; status 0x701, ICX 0x70E-0x70F (likwid registers.h). */
static void test_global_freeze(void)
{
	static const struct { const char *spec; uint64_t frz, unfrz; uint32_t status; int nstatus; } plats[] = {
		{ "sim:hsx,clock=manual", 1ull << 31, 1ull << 29, 0x701, 1 },
		{ "sim:bdx,clock=manual", 1ull << 31, 1ull << 29, 0x701, 1 },
		{ "sim:bdxde,clock=manual,sockets=2", 1ull << 31, 1ull << 29, 0x701, 1 },
		{ "sim:skx,clock=manual", 1ull << 63, 1ull << 61, 0x701, 1 },
		{ "sim:clx,clock=manual", 1ull << 63, 1ull << 61, 0x701, 1 },
		{ "sim:icx,clock=manual", 1ull << 63, 1ull << 61, 0x70e, 2 },
	};
	for (size_t i = 0; i < sizeof(plats) / sizeof(plats[0]); i++) {
		uncore_t *u = open_sim(plats[i].spec);
		struct sim *sim = sim_of(u->acc);
		uncore_session_t *s;
		char what[128];
		uint64_t v = 1;
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		int m = uncore_session_add_metric(s, "mem_bw_read");
		CU_ASSERT_FATAL(m >= 0 && uncore_session_start(s) == 0);
		double rd0 = truth_of(sim, "mem_bw_read", 0).v, rd1 = truth_of(sim, "mem_bw_read", 1).v;
		snprintf(what, sizeof(what), "%s counting", plats[i].spec);
		next_second(u, s);
		check_truth(what, last_value(s, m, 0), rd0);
		/* socket 0 (CPU 0: the simulator's CPUs are socket 0's first) frozen: it counts nothing, socket 1 on */
		CU_ASSERT(msr_wr(u, 0, 0x700, plats[i].frz) == 0);
		CU_ASSERT(msr_rd(u, 0, 0x700, &v) == 0 && v == 0); /* a command, read 0 */
		next_second(u, s);
		CU_ASSERT_EQUAL(last_value(s, m, 0), 0);
		snprintf(what, sizeof(what), "%s socket 1 beside the freeze", plats[i].spec);
		check_truth(what, last_value(s, m, 1), rd1);
		/* frz_all written 0 is no unfreeze */
		CU_ASSERT(msr_wr(u, 0, 0x700, 0) == 0);
		next_second(u, s);
		CU_ASSERT_EQUAL(last_value(s, m, 0), 0);
		/* unfrz_all: counting again, the frozen span not counted */
		CU_ASSERT(msr_wr(u, 0, 0x700, plats[i].unfrz) == 0);
		snprintf(what, sizeof(what), "%s after unfrz_all", plats[i].spec);
		next_second(u, s);
		check_truth(what, last_value(s, m, 0), rd0);
		for (int k = 0; k < plats[i].nstatus; k++) {
			CU_ASSERT(msr_rd(u, 0, plats[i].status + (uint32_t)k, &v) == 0 && v == 0);
			CU_ASSERT(msr_wr(u, 0, plats[i].status + (uint32_t)k, ~0ull) == 0);
		}
		CU_ASSERT_EQUAL(sim->bad_accesses, 0);
		uncore_session_free(s);
		uncore_close(u);
	}
}

/* The CHAs a socket's CAPID registers (Skylake-SP 8086:2083 0x9C bits 27:0; Ice Lake-SP 8086:345B 0x9C and
 * 0xA0) give: Linux's count (skx_count_chabox, icx_count_chabox). */
static int capid_chas(const struct sim *sim, uint16_t did)
{
	for (int d = 0; d < sim->ndevs; d++)
		if (sim->devs[d].info.device == did) {
			uint32_t lo, hi;
			memcpy(&lo, sim->devs[d].cfg + 0x9c, 4);
			memcpy(&hi, sim->devs[d].cfg + 0xa0, 4);
			return did == 0x2083 ? __builtin_popcount(lo & 0x0fffffffu) : __builtin_popcount(lo) + __builtin_popcount(hi);
		}
	return -1;
}

/* D3: MSR 0x702 bits 5:0 the CHAs (PCM's NCUPMONConfig), on every socket the CAPID count. */
static void test_ncu_pmon_config(void)
{
	static const struct { const char *spec; uint16_t did; } plats[] = {
		{ "sim:skx,cores=4", 0x2083 }, { "sim:skx,cores=28", 0x2083 }, { "sim:clx", 0x2083 },
		{ "sim:icx,cores=36", 0x345b }, { "sim:icx,cores=40", 0x345b },
	};
	for (size_t i = 0; i < sizeof(plats) / sizeof(plats[0]); i++) {
		uncore_t *u = open_sim(plats[i].spec);
		struct sim *sim = sim_of(u->acc);
		int chas = capid_chas(sim, plats[i].did);
		CU_ASSERT_FATAL(chas > 0);
		for (int sock = 0; sock < sim->nsockets; sock++) {
			uint64_t v = 0;
			CU_ASSERT(msr_rd(u, sock * sim->cores, 0x702, &v) == 0);
			if ((int)(v & 0x3f) != chas)
				fprintf(stderr, "%s socket %d: MSR 0x702 0x%llx, CAPID %d CHAs\n", plats[i].spec, sock,
					(unsigned long long)v, chas);
			CU_ASSERT_EQUAL((int)(v & 0x3f), chas);
		}
		uncore_close(u);
	}
}

/* D4: beside each socket's UBox 08.0 (8086:2014) the functions 08.1 (2015) and 08.2 (2016), whose CPUBUSNO
 * (0xCC stacks 0-3, 0xD0 stacks 4-5, a byte each: pcm-iio) names the root bus each IIO stack's root ports
 * are on in the machine's PCI tree (the device groups the library finds there). */
static void test_skx_cpubusno(void)
{
	uncore_t *u = open_sim("sim:skx");
	struct sim *sim = sim_of(u->acc);
	uint64_t busno[2] = { 0, 0 };
	int socks = 0;
	for (int d = 0; d < sim->ndevs; d++) {
		const struct pci_devinfo *ub = &sim->devs[d].info;
		if (ub->device != 0x2014)
			continue;
		uint32_t node = 0, lo = 0, hi = 0, id = 0;
		struct pci_loc f1 = ub->loc, f2 = ub->loc;
		f1.fn = 1, f2.fn = 2;
		CU_ASSERT_FATAL(u->acc->ops->pci_read(u->acc, &ub->loc, 0xc0, &node, 4) == 0);
		CU_ASSERT(u->acc->ops->pci_read(u->acc, &f1, 0, &id, 4) == 0 && id == 0x20158086u);
		CU_ASSERT(u->acc->ops->pci_read(u->acc, &f2, 0, &id, 4) == 0 && id == 0x20168086u);
		CU_ASSERT(u->acc->ops->pci_read(u->acc, &f2, 0xcc, &lo, 4) == 0);
		CU_ASSERT(u->acc->ops->pci_read(u->acc, &f2, 0xd0, &hi, 4) == 0);
		/* the socket of this UBox: the one whose bus map holds its bus (the node id's group) */
		int sock = -1;
		for (int k = 0; k < 2; k++)
			if ((int)node == ((k * 3 + 2) & 7)) /* platforms/skx/sim.c node_id() */
				sock = k;
		CU_ASSERT_FATAL(sock >= 0);
		busno[sock] = (uint64_t)hi << 32 | lo;
		socks++;
	}
	CU_ASSERT_FATAL(socks == 2);
	int groups = uncore_num_device_groups(u), checked = 0;
	CU_ASSERT_FATAL(groups > 0);
	for (int g = 0; g < groups; g++) {
		struct uncore_device_group gi;
		unsigned dom, root;
		CU_ASSERT_FATAL(uncore_device_group_info(u, g, &gi) == 0);
		if (gi.socket < 0 || gi.socket > 1 || gi.stack < 0 || gi.stack > 5 || !gi.root_port[0])
			continue;
		CU_ASSERT_FATAL(sscanf(gi.root_port, "%x:%x", &dom, &root) == 2);
		if ((busno[gi.socket] >> (8 * gi.stack) & 0xff) != root)
			fprintf(stderr, "socket %d stack %d: CPUBUSNO 0x%012llx, root port %s\n", gi.socket, gi.stack,
				(unsigned long long)busno[gi.socket], gi.root_port);
		CU_ASSERT_EQUAL(busno[gi.socket] >> (8 * gi.stack) & 0xff, root);
		checked++;
	}
	CU_ASSERT(checked >= 4); /* the default device set: stacks with root ports on both sockets */
	uncore_close(u);
}

/* D8: the Sapphire Rapids family's CHA count where PCM reads it, CAPID6 (0x9C) and CAPID7 (0xA0) of the PCU CR3 at
 * D30 F3 (seed 001 section 1.7.1; PCM getMaxNumOfCBoxes counts their bits, device 8086:325b), one a socket: as
 * many bits as the spec's cores= CHAs (the simulator's truth; the default part's 56 on SPR and 60 on EMR), none
 * past the part's largest die (60 and 64 slots), and on SPR as many as MSR 0x2FFE, Linux's count (38776cc4).
 * The function is the simulated kernel's (its sysfs config file), as PCM reads it through /proc/bus/pci. */
static void test_spr_capid(void)
{
	static const struct { const char *spec; int chas, slots; } plats[] = {
		{ "sim:spr", 56, 60 }, { "sim:spr,cores=60", 60, 60 }, { "sim:spr,sockets=2,cores=13", 13, 60 },
		{ "sim:emr", 60, 64 }, { "sim:emr,cores=64", 64, 64 }, { "sim:emr,sockets=2,cores=33", 33, 64 },
	};
	for (size_t i = 0; i < sizeof(plats) / sizeof(plats[0]); i++) {
		uncore_t *u = open_sim(plats[i].spec);
		struct sim *sim = sim_of(u->acc);
		const struct memfs *m = NULL;
		int found = 0;
		CU_ASSERT_FATAL(access_files(u->acc, &m) == 0 && m);
		for (int f = 0; f < m->n; f++) {
			const struct memfs_file *fl = &m->f[f];
			unsigned dom, bus, dev, fn;
			uint32_t id, lo, hi;
			if (fl->link || fl->dir || !fl->text || fl->len < 0xa4 ||
			    sscanf(fl->path, "/sys/bus/pci/devices/%x:%x:%x.%x/config", &dom, &bus, &dev, &fn) != 4)
				continue;
			memcpy(&id, fl->text, 4);
			if (id != 0x325b8086u)
				continue;
			memcpy(&lo, fl->text + 0x9c, 4);
			memcpy(&hi, fl->text + 0xa0, 4);
			uint64_t capid = (uint64_t)hi << 32 | lo;
			int n = __builtin_popcountll(capid);
			if (n != plats[i].chas || dev != 30 || fn != 3 || capid >> (plats[i].slots - 1) >> 1)
				fprintf(stderr, "%s: %s CAPID6 0x%08x CAPID7 0x%08x: %d CHAs, the spec's %d\n", plats[i].spec,
					fl->path, lo, hi, n, plats[i].chas);
			CU_ASSERT_EQUAL(n, plats[i].chas);
			CU_ASSERT(dev == 30 && fn == 3);
			CU_ASSERT_EQUAL(capid >> (plats[i].slots - 1) >> 1, 0);
			if (!strcmp(sim->kind->name, "spr")) { /* MSR 0x2FFE: Linux's count on SPR (it reads 0 on EMR) */
				uint64_t v = 0;
				CU_ASSERT(msr_rd(u, found * sim->cores, 0x2ffe, &v) == 0 && (int)v == n);
			}
			found++;
		}
		CU_ASSERT_EQUAL(found, sim->nsockets);
		uncore_close(u);
	}
}

/* PCM's UPI check (platforms/skx/sim_map.c upi_bc): on every SKX and CLX UPI function (8086:2058) the box
 * control 0x378 written with bits 17:16 (PCM's UNC_PMON_UNIT_CTL_RSV) and the reset commands reads bit 16 back, the
 * reset commands 0; the iMC's control (ivb_bc), which PCM does not check, keeps neither. */
static void test_skx_upi_box_ctl(void)
{
	static const char *const specs[] = { "sim:skx", "sim:clx" };
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		uncore_t *u = open_sim(specs[i]);
		struct sim *sim = sim_of(u->acc);
		int upis = 0;
		for (int d = 0; d < sim->ndevs; d++) {
			const struct pci_devinfo *f = &sim->devs[d].info;
			uint32_t v = 0;
			if (f->device != 0x2058 && f->device != 0x2042)
				continue;
			uint32_t at = f->device == 0x2058 ? 0x378 : 0xf4; /* UPI's, iMC channel 0's (Linux SKX_*_PMON_BOX_CTL) */
			CU_ASSERT_FATAL(u->acc->ops->pci_write32(u->acc, &f->loc, at, 0x30003u) == 0);
			CU_ASSERT(u->acc->ops->pci_read(u->acc, &f->loc, at, &v, 4) == 0);
			/* what PCM compares: bits 16:0 (UNC_PMON_UNIT_CTL_VALID_BITS_MASK); bit 17 is unverified */
			CU_ASSERT_EQUAL(v & 0x1ffffu, f->device == 0x2058 ? 0x10000u : 0u);
			CU_ASSERT(u->acc->ops->pci_write32(u->acc, &f->loc, at, 0) == 0);
			upis += f->device == 0x2058;
		}
		CU_ASSERT_EQUAL(upis, 6); /* three links on each of two sockets */
		uncore_close(u);
	}
}

/* D5: MSR_PLATFORM_INFO 15:8 the profile's TSC rate over the bus clock (100 MHz; Nehalem's 133.33), and the TSC
 * (MSR 0x10) ticking at ratio x bus on the simulator's clock: over a simulated second, TSC / (ratio x bus) = 1.
 * A Nehalem-EP profile of the X5570's 2.93 GHz (22 x 133.33 MHz) and the default 2.6 GHz (26 x 100 MHz); an
 * Itanium has neither MSR. */
static void test_platform_info(void)
{
	char prof[512], spec[600];
	const char *tmp = getenv("TMPDIR");
	snprintf(prof, sizeof(prof), "%s/test_peer_regs.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	int fd = mkstemp(prof);
	CU_ASSERT_FATAL(fd >= 0);
	const char *text = "tsc_hz = 2.93333333e9\n";
	CU_ASSERT_FATAL(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
	close(fd);
	snprintf(spec, sizeof(spec), "sim:nhm,clock=manual,profile=%s", prof);
	static const struct { const char *spec; int ratio; double bus; } plats[] = {
		{ NULL, 22, 400e6 / 3 }, { "sim:snbep,clock=manual", 26, 100e6 }, { "sim:skx,clock=manual", 26, 100e6 },
		{ "sim:icx,clock=manual", 26, 100e6 }, { "sim:emr,clock=manual", 26, 100e6 }, { "sim:gnr,clock=manual", 26, 100e6 },
	};
	for (size_t i = 0; i < sizeof(plats) / sizeof(plats[0]); i++) {
		uncore_t *u = open_sim(plats[i].spec ? plats[i].spec : spec);
		struct sim *sim = sim_of(u->acc);
		uint64_t info = 0, t0 = 0, t1 = 0;
		CU_ASSERT(msr_rd(u, 0, 0xce, &info) == 0);
		CU_ASSERT_EQUAL((int)(info >> 8 & 0xff), plats[i].ratio);
		CU_ASSERT_EQUAL((int)(info >> 8 & 0xff), (int)lround(sim->prof.tsc_hz / plats[i].bus));
		CU_ASSERT(msr_rd(u, 0, 0x10, &t0) == 0);
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT(msr_rd(u, sim->cores, 0x10, &t1) == 0); /* another socket's CPU: one clock */
		double secs = (double)(t1 - t0) / ((double)(info >> 8 & 0xff) * plats[i].bus);
		if (fabs(secs - 1) > 1e-8)
			fprintf(stderr, "%s: TSC over ratio %.9f s over a simulated second\n", sim->name, secs);
		CU_ASSERT(fabs(secs - 1) <= 1e-8);
		uncore_close(u);
	}
	unlink(prof);
	uncore_t *u = open_sim("sim:montecito");
	uint64_t v;
	CU_ASSERT(msr_rd(u, 0, 0xce, &v) < 0);
	uncore_close(u);
}

/* PCM's QPI speed (202302 cpucounters.cpp computeQPISpeed): each QPI link's function 0 beside its counters'
 * function 2 (Haswell-EP 2f80/2f90, Broadwell-EP 6f80/6f90 at 08.0 and 09.0: the Dell R730 and Supermicro
 * X10DRi listings, tests/snapshots/field/bdx-*.source), QPI_RATE_STATUS 0xd4 bits 2:0 a rate PCM decodes as
 * 4.0 + 0.8 x value GT/s: the profile's QPI clock (qpi_hz, 1 GHz by default) times 8 transfers. */
static void test_qpi_rate(void)
{
	/* the links' counter functions (08.2, 09.2, 0a.2) and their own (08.0, 09.0, 0a.0): pci.ids "QPI Link 0/1/2";
	 * R3QPI link 2 (0b.5), 2f3e / 6f3e */
	static const struct { const char *spec; int nlinks; uint16_t ctr[3], link[3], r3_2; } plats[] = {
		{ "sim:hsx,sockets=2", 2, { 0x2f32, 0x2f33, 0x2f3a }, { 0x2f80, 0x2f90, 0x2f40 }, 0x2f3e },
		{ "sim:bdx,sockets=2", 2, { 0x6f32, 0x6f33, 0x6f3a }, { 0x6f80, 0x6f90, 0x6f40 }, 0x6f3e },
		{ "sim:bdx,sockets=4", 3, { 0x6f32, 0x6f33, 0x6f3a }, { 0x6f80, 0x6f90, 0x6f40 }, 0x6f3e },
	};
	for (size_t i = 0; i < sizeof(plats) / sizeof(plats[0]); i++) {
		uncore_t *u = open_sim(plats[i].spec);
		struct sim *sim = sim_of(u->acc);
		int links = 0, r3_2 = 0;
		for (int d = 0; d < sim->ndevs; d++) {
			const struct pci_devinfo *c = &sim->devs[d].info;
			r3_2 += c->device == plats[i].r3_2;
			int k = 0;
			while (k < 3 && c->device != plats[i].ctr[k])
				k++;
			if (k == 3)
				continue;
			struct pci_loc l = c->loc;
			uint32_t id = 0, st = 0;
			l.fn = 0;
			CU_ASSERT(u->acc->ops->pci_read(u->acc, &l, 0, &id, 4) == 0);
			CU_ASSERT_EQUAL(id, 0x8086u | (uint32_t)plats[i].link[k] << 16);
			CU_ASSERT(u->acc->ops->pci_read(u->acc, &l, 0xd4, &st, 4) == 0);
			double gts = 4.0 + 0.8 * (st & 7);
			if (fabs(gts - sim->prof.qpi_hz * 8 / 1e9) > 1e-9)
				fprintf(stderr, "%s: %02x:%02x.0 QPI_RATE_STATUS %u: %.1f GT/s, the profile's %.1f\n", plats[i].spec,
					l.bus, l.dev, st & 7, gts, sim->prof.qpi_hz * 8 / 1e9);
			CU_ASSERT(fabs(gts - 8.0) < 1e-9); /* qfclk 1 GHz: 8 GT/s (sim_profile.c) */
			links++;
		}
		/* a two-socket E5 board lists links 0 and 1 alone (tests/snapshots/field/bdx-x10dri-2s.source); the E7's
		 * third link where the machine has more sockets */
		if (links != plats[i].nlinks * sim->nsockets || r3_2 != (plats[i].nlinks - 2) * sim->nsockets)
			fprintf(stderr, "%s: %d QPI links, %d R3QPI link 2, want %d a socket\n", plats[i].spec, links, r3_2, plats[i].nlinks);
		CU_ASSERT_EQUAL(links, plats[i].nlinks * sim->nsockets);
		CU_ASSERT_EQUAL(r3_2, (plats[i].nlinks - 2) * sim->nsockets);
		CU_ASSERT_EQUAL(unit_boxes(u, "qpi", 0), plats[i].nlinks);
		uncore_close(u);
	}
}

/* What PCM counts as a link's traffic: every flit sent, which fills the link to the profile's use (qpi_link_util
 * = upi_link_util; doc/user-guide.md); its data alone are the bytes sent, spread over the socket's links.
 * Haswell-EP and Broadwell-EP: TxL_FLITS_G0 0x00, umask 6 = DATA 2 + NON_DATA 4, 2 flits a QPI clock, 8 bytes
 * of data a flit (cpucounters.cpp programXPI).  UPI: TxL_FLITS 0x02, umask 0x9F = DATA 0x08, LLCRD 0x10 and
 * PROTHDR 0x80 in slots 0-2 (seed 001 Table 2-230), 3 slots a clock, 9 flits for 64 bytes. */
static void test_link_flits(void)
{
	static const struct { const char *spec, *all, *data; int links; double slots, flits_per_byte; } plats[] = {
		{ "sim:bdx,sockets=2,clock=manual", "qpi/event=0x00,umask=0x06/", "qpi/event=0x00,umask=0x02/", 2, 2, 1.0 / 8 },
		{ "sim:hsx,sockets=4,clock=manual", "qpi/event=0x00,umask=0x06/", "qpi/event=0x00,umask=0x02/", 3, 2, 1.0 / 8 },
		{ "sim:skx,sockets=2,clock=manual", "upi/event=0x02,umask=0x9f/", "upi/event=0x02,umask=0x0f/", 3, 3, 9.0 / 64 },
		{ "sim:spr,sockets=2,clock=manual", "upi/event=0x02,umask=0x9f/", "upi/event=0x02,umask=0x0f/", 4, 3, 9.0 / 64 },
	};
	for (size_t i = 0; i < sizeof(plats) / sizeof(plats[0]); i++) {
		uncore_t *u = open_sim(plats[i].spec);
		struct sim *sim = sim_of(u->acc);
		char all[96], data[96];
		snprintf(all, sizeof(all), "%s:socket=1:box=1", plats[i].all);
		snprintf(data, sizeof(data), "%s:socket=1:box=1", plats[i].data);
		const char *ev[] = { all, data };
		uncore_session_t *s = start_session(u, ev, 2);
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		double want_all = sim->prof.link_util[1] * plats[i].slots * sim->prof.qpi_hz;
		double want_data = sim->prof.qpi_tx_bps[1] / plats[i].links * plats[i].flits_per_byte;
		fprintf(stderr, "%s: %s %llu a second (truth %.6g), %s %llu (truth %.6g)\n", plats[i].spec, plats[i].all,
			(unsigned long long)val(s, 0, 1), want_all, plats[i].data, (unsigned long long)val(s, 1, 1), want_data);
		CU_ASSERT(near_truth("data and non-data flits a second", (double)val(s, 0, 1), want_all));
		CU_ASSERT(near_truth("data flits a second", (double)val(s, 1, 1), want_data));
		finish(u, s);
	}
}

/* UPI's TxL_FLITS and RxL_FLITS count slots (seed 001 Table 2-230): a data flit "consume[s] all slots" and counts
 * once for each slot the umask names in bits 2:0, so DATA with slot 0 alone (0x09) counts a third of ALL_DATA's 9 a
 * line; ALL_NULL (0x27) counts the idle slots, the three a UPI clock less those the link's use fills; received
 * non-data flits (RxL 0x97) fill the link to its use beside the received data, as sent ones do. */
static void test_upi_slots(void)
{
	static const struct { const char *spec; int links; } plats[] = { { "sim:skx,sockets=2,clock=manual", 3 },
									  { "sim:spr,sockets=2,clock=manual", 4 } };
	for (size_t i = 0; i < sizeof(plats) / sizeof(plats[0]); i++) {
		uncore_t *u = open_sim(plats[i].spec);
		struct sim *sim = sim_of(u->acc);
		const char *ev[] = { "upi/event=0x02,umask=0x09/:socket=1:box=1", "upi/event=0x02,umask=0x27/:socket=1:box=1",
				     "upi/event=0x03,umask=0x97/:socket=1:box=1", "upi/event=0x03,umask=0x0f/:socket=1:box=1" };
		uncore_session_t *s = start_session(u, ev, 4);
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		double slots = 3 * sim->prof.qpi_hz, use = sim->prof.link_util[1] * slots; /* a link's, a second */
		double tx = sim->prof.qpi_tx_bps[1] / plats[i].links / 64 * 9, rx = sim->prof.qpi_rx_bps[1] / plats[i].links / 64 * 9;
		fprintf(stderr, "%s: TxL DATA slot 0 %llu (truth %.6g), ALL_NULL %llu (%.6g); RxL NON_DATA %llu (%.6g), ALL_DATA %llu (%.6g)\n",
			plats[i].spec, (unsigned long long)val(s, 0, 1), tx / 3, (unsigned long long)val(s, 1, 1), slots - use,
			(unsigned long long)val(s, 2, 1), use - rx, (unsigned long long)val(s, 3, 1), rx);
		CU_ASSERT(near_truth("TxL data flits of slot 0 a second", (double)val(s, 0, 1), tx / 3));
		CU_ASSERT(near_truth("TxL idle slots a second", (double)val(s, 1, 1), slots - use));
		CU_ASSERT(near_truth("RxL non-data slots a second", (double)val(s, 2, 1), use - rx));
		CU_ASSERT(near_truth("RxL data slots a second", (double)val(s, 3, 1), rx));
		finish(u, s);
	}
}

/* The Sapphire Rapids family's UCLK fixed counter (0x2FDE/0x2FDF) is one of the global registers (seed 001
 * Table 1-8, beside U_MSR_PMON_GLOBAL_CTL 0x2FF0), not the UBox unit's (Table 1-9): PCM 202302 freezes the UBox
 * unit (0x2FD0 frz, bit 0) and leaves it so, then enables the fixed counter (bit 22) and reads its uncore clock
 * there (its UncFREQ and LLC read-miss latency read 0 and inf while the unit's freeze stopped it).  A global
 * freeze (frz_all, bit 0 of 0x2FF0) stops it. */
static void test_spr_uclk(void)
{
	const char *spec[] = { "sim:spr,sockets=1,clock=manual", "sim:emr,sockets=1,clock=manual" };
	for (size_t i = 0; i < sizeof(spec) / sizeof(spec[0]); i++) {
		uncore_t *u = open_sim(spec[i]);
		struct sim *sim = sim_of(u->acc);
		uint64_t a = 0, b = 0;
		CU_ASSERT(msr_wr(u, 0, 0x2fd0, 0x1) == 0 && msr_wr(u, 0, 0x2fd0, 0x101) == 0);
		CU_ASSERT(msr_wr(u, 0, 0x2fde, 1ull << 22) == 0);
		CU_ASSERT(msr_rd(u, 0, 0x2fdf, &a) == 0);
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT(msr_rd(u, 0, 0x2fdf, &b) == 0);
		CU_ASSERT(near_truth("UCLK fixed counter a second, the UBox unit frozen", (double)(b - a), sim->prof.uncore_hz));
		CU_ASSERT(msr_wr(u, 0, 0x2ff0, 1) == 0); /* frz_all */
		CU_ASSERT(msr_rd(u, 0, 0x2fdf, &a) == 0);
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT(msr_rd(u, 0, 0x2fdf, &b) == 0);
		if (b != a)
			fprintf(stderr, "%s: the UCLK fixed counter moved %llu under a global freeze\n", spec[i], (unsigned long long)(b - a));
		CU_ASSERT_EQUAL(b, a);
		CU_ASSERT(msr_wr(u, 0, 0x2ff0, 0) == 0 && msr_wr(u, 0, 0x2fde, 0) == 0 && msr_wr(u, 0, 0x2fd0, 0) == 0);
		CU_ASSERT_EQUAL(sim->bad_accesses, 0);
		uncore_close(u);
	}
}

/* D9 on Ice Lake-SP: the uncore functions in their socket's NUMA node, as the Lenovo SR650 V2's listing gives
 * them (tests/snapshots/field/icx-sr650v2-2s.source: 7e and 7f node 0, fe and ff node 1; what a host's
 * /sys/bus/pci/devices/.../numa_node shows of them, tests/peers/sim_host.c); likwid 5.2.2 crashes on a
 * function hwloc puts at its root.  numa=off takes them to -1. */
static void test_icx_numa(void)
{
	static const struct { int bus, dev, fn, node; } fns[] = {
		{ 0x7e, 0, 0, 0 }, { 0x7e, 0, 1, 0 }, { 0x7f, 0x1e, 3, 0 }, { 0xfe, 0, 0, 1 }, { 0xfe, 0, 1, 1 }, { 0xff, 0x1e, 3, 1 },
	};
	for (int off = 0; off < 2; off++) {
		uncore_t *u = open_sim(off ? "sim:icx,sockets=2,numa=off" : "sim:icx,sockets=2");
		struct sim *sim = sim_of(u->acc);
		for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
			int node = -2, want = off ? -1 : fns[i].node;
			for (int d = 0; d < sim->ndevs; d++) {
				const struct pci_devinfo *f = &sim->devs[d].info;
				if (f->loc.bus == fns[i].bus && f->loc.dev == fns[i].dev && f->loc.fn == fns[i].fn)
					node = f->node;
			}
			if (node != want)
				fprintf(stderr, "sim:icx%s %02x:%02x.%u: NUMA node %d, the listing's %d\n", off ? ",numa=off" : "",
					fns[i].bus, fns[i].dev, fns[i].fn, node, want);
			CU_ASSERT_EQUAL(node, want);
		}
		uncore_close(u);
	}
	/* Sapphire Rapids: the HPE DL380 Gen11's listing (spr-dl380g11-mcc.source) gives every function a node, each
	 * UBox bus's its socket's (7e node 0, fe node 2 in SNC2); sim:spr puts socket 0 on fe (the UBox node map's
	 * trap, D6), so each bus's functions share the node of the bus's UBox 3250, and none is -1 */
	uncore_t *u = open_sim("sim:spr,sockets=2");
	struct sim *sim = sim_of(u->acc);
	int seen = 0;
	for (int d = 0; d < sim->ndevs; d++) {
		const struct pci_devinfo *f = &sim->devs[d].info;
		if (f->device != 0x3251 && f->device != 0x3241 && f->device != 0x324a)
			continue;
		int ubox = -2;
		for (int e = 0; e < sim->ndevs; e++)
			if (sim->devs[e].info.device == 0x3250 && sim->devs[e].info.loc.bus == f->loc.bus)
				ubox = sim->devs[e].info.node;
		if (f->node < 0 || f->node != ubox)
			fprintf(stderr, "sim:spr %02x:%02x.%u (%04x): NUMA node %d, its bus's UBox %d\n", f->loc.bus, f->loc.dev,
				f->loc.fn, f->device, f->node, ubox);
		CU_ASSERT(f->node >= 0 && f->node == ubox);
		seen++;
	}
	CU_ASSERT_EQUAL(seen, 2 * (1 + 4 + 4)); /* a socket's 3251, 4 UPI, 4 M2M (T1-12) */
	uncore_close(u);
}

/* The discovery device as PCM 202502 walks it (pci.h processDVSEC): its status says it has a capabilities list
 * (bit 20 of dword 1), else PCM looks no further; the DVSEC's BAR, read as one dword, is the table's address.  A
 * real Sapphire Rapids lists its 09A7 with a 32-bit BAR below 4 GiB ("reg 0x10: [mem 0x93200000-0x9327ffff]" in the
 * boot logs of real ones, issue 97), and so do sim:spr and sim:emr; Granite Rapids and Sierra Forest as Intel's Birch
 * Stream board lists them ("Memory at 90300000 (32-bit, non-prefetchable)" on 00:03.1, c3b00000 on 80:03.1:
 * tests/snapshots/field/gnr-birchstream-2s.source); the library reads a BAR of either width whole
 * (discover_table.c dvsec_bar).  The PMON DVSEC is the first extended capability, at 0x100,
 * as the HPE DL380 Gen11's lspci lists it (tests/snapshots/field/spr-dl380g11-mcc.source) and Granite Rapids'
 * (gnr-birchstream-2s.source): likwid 5.4.1 finds no other (intel_perfmon_uncore_discovery.c restarts its walk
 * past a DVSEC of another id at 0x100 plus that DVSEC's offset). */
static void test_disc_device(void)
{
	static const struct { const char *spec; int bar64; } plats[] = {
		{ "sim:spr", 0 }, { "sim:emr,sockets=2", 0 }, { "sim:emr,dies=2", 0 }, { "sim:gnr", 0 }, { "sim:srf", 0 },
		{ "sim:gnr,dies=2", 0 },
	};
	for (size_t i = 0; i < sizeof(plats) / sizeof(plats[0]); i++) {
		uncore_t *u = open_sim(plats[i].spec);
		struct sim *sim = sim_of(u->acc);
		int found = 0;
		for (int d = 0; d < sim->ndevs; d++) {
			const struct sim_dev *dv = &sim->devs[d];
			uint32_t st = 0, bar = 0, hi = 0, cap = 0, pcie = 0, dvsec = 0, off = 0x100;
			if (!dv->present || dv->info.device != 0x09a7)
				continue;
			const struct pci_loc *l = &dv->info.loc;
			CU_ASSERT(u->acc->ops->pci_read(u->acc, l, 0x04, &st, 4) == 0 && u->acc->ops->pci_read(u->acc, l, 0x10, &bar, 4) == 0 &&
				  u->acc->ops->pci_read(u->acc, l, 0x14, &hi, 4) == 0 && u->acc->ops->pci_read(u->acc, l, 0x34, &cap, 4) == 0);
			CU_ASSERT(u->acc->ops->pci_read(u->acc, l, cap & 0xfc, &pcie, 4) == 0);
			/* the extended capabilities from 0x100 to the PMON DVSEC (0x23, its id 1 at + 8), PCM's walk */
			for (int k = 0; k < 8 && off >= 0x100; k++) {
				uint32_t h = 0, id = 0;
				CU_ASSERT_FATAL(u->acc->ops->pci_read(u->acc, l, off, &h, 4) == 0);
				if ((h & 0xffff) == 0x23 && u->acc->ops->pci_read(u->acc, l, off + 8, &id, 4) == 0 && (id & 0xffff) == 1) {
					dvsec = off;
					break;
				}
				off = h >> 20;
			}
			uint64_t addr = (bar & 0x6) == 0x4 ? (uint64_t)hi << 32 | (bar & ~0xfffu) : bar & ~0xfffu;
			if (!(st & 1u << 20) || (pcie & 0xff) != 0x10 || !dvsec || ((bar & 0x6) == 0x4) != plats[i].bar64 ||
			    (addr >> 32 != 0) != plats[i].bar64)
				fprintf(stderr, "%s: 09a7 at %02x:%02x.%x: status 0x%08x, capability 0x%x at 0x%x, DVSEC at 0x%x, BAR 0x%08x 0x%08x\n",
					plats[i].spec, l->bus, l->dev, l->fn, st, pcie & 0xff, cap & 0xff, dvsec, bar, hi);
			CU_ASSERT(st & 1u << 20);
			CU_ASSERT_EQUAL(pcie & 0xff, 0x10);
			CU_ASSERT_EQUAL(dvsec, 0x100);
			CU_ASSERT_EQUAL((bar & 0x6) == 0x4, plats[i].bar64);
			CU_ASSERT_EQUAL(addr >> 32 != 0, plats[i].bar64);
			CU_ASSERT(addr != 0);
			found++;
		}
		CU_ASSERT_EQUAL(found, sim_scopes(sim));
		uncore_close(u);
	}
}

/* Birch Stream (GNR, SRF) as PCM 202502 finds its memory controllers and CHAs (issue 97), and as Intel's Birch Stream
 * board lists the functions (tests/snapshots/field/gnr-birchstream-2s.source): on each socket's UBox bus the UBox
 * 3251 at 00.1, whose 0xD0 (bits 28:0, address 51:23) and 0xD4 (bits 10:0, address 22:12) give the SCF BAR (PCM
 * bw.cpp getServerSCFBar), IMC channel n's PMON at SCF BAR + 0x24E800 + 0x4000 n (PCM src/types.h
 * BHS_MC_CH_PMON_BASE_ADDR, SERVER_MC_CH_PMON_STEP), where the library finds it in the discovery table; the
 * B2CMIs 324a at 05.1-05.7 and 06.1-06.5 (PCM BHS_M2M_n_REGISTER_DEV/FUNC_ADDR), 12 of them, as many channels as PCM
 * then takes; UPI 3241 at 10.1 + n and B2UPI 3245 at 18.0 + n of the next bus; MSR 0x3FED bits 8:0 the socket's
 * CHAs (PCM cpucounters.cpp getMaxNumOfCBoxesInternal). */
static void test_birch_stream(void)
{
	static const char *const specs[] = { "sim:gnr", "sim:srf", "sim:cwf,sockets=1" };
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		uncore_t *u = open_sim(specs[i]);
		struct sim *sim = sim_of(u->acc);
		int imc = uncore_unit_find(u, "imc"), cha = uncore_unit_find(u, "cha");
		CU_ASSERT_FATAL(imc >= 0 && cha >= 0);
		for (int sock = 0; sock < sim->nsockets; sock++) {
			int found = 0, b2cmi = 0, upi = 0;
			uint64_t chas = 0;
			for (int d = 0; d < sim->ndevs; d++) {
				const struct sim_dev *dv = &sim->devs[d];
				const struct pci_loc *l = &dv->info.loc;
				uint32_t id = 0, d0 = 0, d4 = 0;
				if (!dv->present || (dv->box ? dv->box->socket != sock : dv->info.node != sim_node_of_scope(sim, sock)))
					continue;
				CU_ASSERT(u->acc->ops->pci_read(u->acc, l, 0, &id, 4) == 0);
				if (id >> 16 == 0x324a && l->fn != 0 && (l->dev == 5 || (l->dev == 6 && l->fn <= 5)))
					b2cmi++;
				if (id >> 16 == 0x3241 && l->dev >= 16 && l->dev <= 21 && l->fn == 1)
					upi++;
				if (id >> 16 != 0x3251 || l->dev != 0 || l->fn != 1)
					continue;
				found++;
				CU_ASSERT(u->acc->ops->pci_read(u->acc, l, 0xd0, &d0, 4) == 0 && u->acc->ops->pci_read(u->acc, l, 0xd4, &d4, 4) == 0);
				uint64_t scf = (uint64_t)(d0 & 0x1fffffffu) << 23 | (uint64_t)(d4 & 0x7ffu) << 12;
				for (int n = 0; n < 12; n++) {
					char where[64], want[64];
					snprintf(want, sizeof(want), "mmio 0x%llx", (unsigned long long)(scf + 0x24e800 + 0x4000ull * (uint64_t)n));
					CU_ASSERT(uncore_box_location(u, imc, sock, n, where, sizeof(where)) == 0);
					if (strcmp(where, want))
						fprintf(stderr, "%s socket %d: imc %d at %s, PCM's SCF BAR + 0x24E800 + 0x4000 n is %s\n", specs[i], sock, n, where, want);
					CU_ASSERT_STRING_EQUAL(where, want);
				}
			}
			CU_ASSERT_EQUAL(found, 1);
			CU_ASSERT_EQUAL(b2cmi, 12);
			CU_ASSERT_EQUAL(upi, 4);
			CU_ASSERT(msr_rd(u, sock * sim->cores, 0x3fed, &chas) == 0);
			CU_ASSERT_EQUAL((int)(chas & 511), uncore_unit_boxes(u, cha, sock));
		}
		uncore_close(u);
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "D2: 0x700 freezes a socket until unfrz_all (HSX/BDX bits 31/29, SKX/CLX/ICX 63/61); status MSRs", test_global_freeze },
		{ "D3: MSR 0x702 bits 5:0 the CAPID registers' CHAs", test_ncu_pmon_config },
		{ "D4: SKX UBox 08.1/08.2, CPUBUSNO the stacks' root buses", test_skx_cpubusno },
		{ "PCM's UPI check: SKX/CLX UPI box control 0x378 reads bit 16 back", test_skx_upi_box_ctl },
		{ "D5: MSR_PLATFORM_INFO's ratio and the TSC give the simulated clock", test_platform_info },
		{ "D8: SPR and EMR PCU CR3's CAPID6/7 count the spec's CHAs", test_spr_capid },
		{ "PCM's QPI speed: HSX/BDX QPI links' function 0, QPI_RATE_STATUS the profile's rate; two links on two sockets",
		  test_qpi_rate },
		{ "PCM's QPI and UPI traffic: data and non-data flits together fill the link to its use", test_link_flits },
		{ "UPI flits count by slot: data a slot a flit, idle slots, received non-data", test_upi_slots },
		{ "D9: Ice Lake-SP's and Sapphire Rapids' uncore functions in their socket's NUMA node", test_icx_numa },
		{ "PCM's uncore clock on SPR/EMR: the UCLK fixed counter counts through the UBox unit's freeze", test_spr_uclk },
		{ "PCM 202502's discovery walk: the 09A7's status, PCIe capability, DVSEC and a 32-bit BAR on SPR and EMR", test_disc_device },
		{ "PCM 202502 on Birch Stream (GNR, SRF, CWF): UBox 3251's SCF BAR places the iMC channels, B2CMI 324a at 05.1-06.5, UPI 3241, MSR 0x3FED the CHAs", test_birch_stream },
		{ NULL, NULL },
	};
	return run_suite("peer_regs", tests);
}
