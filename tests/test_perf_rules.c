/*
 * The simulated kernel places events as Linux 6.12's uncore driver does (uncore.c
 * uncore_assign_events / uncore_validate_group, uncore_snbep.c): the per-event counter constraints of
 * SNB-EP's and IVB-EP's CBo, R2PCIe and R3QPI and EMR's CHA, IIO, M2PCIe, M3UPI and CXL CM; the shared
 * filter registers held per field by the events the driver's tables select; PCU band events moved to a
 * free band; and, through the library, every metric still counting its truth.  The groups below are
 * written from the driver's constraint lists, not from the simulated kernel's tables.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include "sim_helpers.h"

static struct perf_kernel *kern(uncore_t *u) { return u->perf->k; }

#define RF (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* An event: its config words. */
struct ev {
	uint64_t c0, c1, c2;
};

static int kopen(uncore_t *u, const char *pmu, struct ev e, int group)
{
	const struct perf_pmu *p = perf_pmu_named(u->perf, pmu);
	if (!p)
		fprintf(stderr, "no PMU %s\n", pmu);
	CU_ASSERT_FATAL(p != NULL);
	struct perf_event_attr a = { .type = p->type, .size = sizeof(a), .config = e.c0, .config1 = e.c1,
				     .config2 = e.c2, .read_format = RF };
	return kern(u)->ops->open(kern(u), &a, -1, 0, group, 0);
}

/* Open events ev[0..n-1] as one group on pmu (CPU 0); fd[] gets their descriptors.  Returns the last
 * open's result (a descriptor, or the errno of the first refusal). */
static int open_group(uncore_t *u, const char *pmu, const struct ev *ev, int n, int *fd)
{
	int rc = -1;
	for (int i = 0; i < n; i++)
		fd[i] = -1;
	for (int i = 0; i < n; i++) {
		rc = fd[i] = kopen(u, pmu, ev[i], i ? fd[0] : -1);
		if (rc < 0)
			break;
	}
	return rc;
}

static void close_all(uncore_t *u, int *fd, int n)
{
	for (int i = n - 1; i >= 0; i--)
		if (fd[i] >= 0)
			kern(u)->ops->close(kern(u), fd[i]);
}

/* The group's values after ns of simulated time: vals[i], and whether all of it ran all the time. */
static int read_group(uncore_t *u, int lead, int n, uint64_t ns, uint64_t *vals, uint64_t *enabled)
{
	uint64_t buf[3 + 16];
	uncore_sleep_ns(u, ns);
	ssize_t got = kern(u)->ops->read(kern(u), lead, buf, sizeof(buf));
	CU_ASSERT_FATAL(got == (ssize_t)((3 + n) * 8) && buf[0] == (uint64_t)n);
	for (int i = 0; i < n; i++)
		vals[i] = buf[3 + i];
	*enabled = buf[1];
	return buf[1] == buf[2];
}

/* A group a driver's constraint list refuses, and one it places. */
struct ctest {
	const char *spec, *pmu, *why; /* why: the constraint, named */
	struct ev refused[9];
	int nref;
	struct ev placed[9];
	int nplaced;
	uint64_t clock; /* the config of the clock event among the placed ones (its count is checked) */
};

#define C(x) { x, 0, 0 }
static const struct ctest ctests[] = {
	{ "perf+sim:snbep", "uncore_cbox_0", "snbep_uncore_cbox_constraints: event 0x34 goes on counters 0-1 (0x3)",
	  { C(0x0334), C(0x0334), C(0x0334) }, 3, { C(0x0111), C(0x0334), C(0x0000), C(0x001f) }, 4, 0x0000 },
	{ "perf+sim:snbep", "uncore_cbox_0", "snbep_uncore_cbox_constraints: 0x1b, 0x1c, 0x1d on counters 2-3 (0xc)",
	  { C(0x0000), C(0x011b), C(0x011c), C(0x011d) }, 4, { C(0x0000), C(0x0000), C(0x0000), C(0x0111) }, 4, 0x0000 },
	{ "perf+sim:snbep", "uncore_cbox_0", "snbep_uncore_cbox_constraints: 0x01, 0x11, 0x36, 0x3b on counter 0",
	  { C(0x0101), C(0x0136) }, 2, { C(0x0136), C(0x011b), C(0x011c), C(0x0000) }, 4, 0x0000 },
	{ "perf+sim:snbep", "uncore_r2pcie", "snbep_uncore_r2pcie_constraints: event 0x12 on counter 0",
	  { C(0x0112), C(0x0112) }, 2, { C(0x0112), C(0x0110), C(0x0001), C(0x0001) }, 4, 0x0001 },
	{ "perf+sim:snbep", "uncore_r3qpi_0", "snbep_uncore_r3qpi_constraints: 0x10-0x12 on counters 0-1",
	  { C(0x0110), C(0x0111), C(0x0112) }, 3, { C(0x0113), C(0x0110), C(0x0001) }, 3, 0x0001 },
	{ "perf+sim:ivbep", "uncore_cbox_0", "ivbep_uncore_cbox (snbep_uncore_cbox_constraints): 0x11 and 0x36 on counter 0",
	  { C(0x0111), C(0x0136) }, 2, { C(0x0111), C(0x0134), C(0x0000), C(0x0000) }, 4, 0x0000 },
	{ "perf+sim:ivbep", "uncore_r2pcie", "ivbep_uncore_r2pcie (snbep_uncore_r2pcie_constraints): 0x10, 0x11, 0x23 on counters 0-1",
	  { C(0x0110), C(0x0111), C(0x0123) }, 3, { C(0x0110), C(0x0111), C(0x0001) }, 3, 0x0001 },
	{ "perf+sim:ivbep", "uncore_r3qpi_1", "ivbep_uncore_r3qpi (snbep_uncore_r3qpi_constraints): event 0x13 on counter 0",
	  { C(0x0113), C(0x0113) }, 2, { C(0x0113), C(0x0001), C(0x0001) }, 3, 0x0001 },
	{ "perf+sim:hsx", "uncore_cbox_0", "hswep_uncore_cbox_constraints: 0x09 and 0x36 on counter 0",
	  { C(0x0109), C(0x0136) }, 2, { C(0x0109), C(0x0134), C(0x0000), C(0x0000) }, 4, 0x0000 },
	{ "perf+sim:hsx", "uncore_r2pcie", "hswep_uncore_r2pcie_constraints: 0x13 and 0x23 on counter 0",
	  { C(0x0113), C(0x0123) }, 2, { C(0x0113), C(0x0110), C(0x0001), C(0x0001) }, 4, 0x0001 },
	{ "perf+sim:hsx,sockets=4", "uncore_r3qpi_2", "hswep_uncore_r3qpi_constraints: 0x01 on counters 0-1, 0x07 on 0-2",
	  { C(0x0001), C(0x0001), C(0x0001) }, 3, { C(0x0107), C(0x0001), C(0x0001) }, 3, 0x0001 },
	{ "perf+sim:bdx", "uncore_pcu", "bdx_uncore_pcu_constraints: an event with bit 7 (0x80, 0xc0) not on counter 0",
	  { C(0x4080), C(0x40c0), C(0x8080), C(0xc080) }, 4, { C(0x4080), C(0x0000), C(0x80c0), C(0x8080) }, 4, 0x0000 },
	{ "perf+sim:bdx", "uncore_r3qpi_0", "bdx_uncore_r3qpi_constraints: 0x13 on counter 0, 0x01 on any",
	  { C(0x0113), C(0x0113) }, 2, { C(0x0113), C(0x0001), C(0x0001) }, 3, 0x0001 },
	{ "perf+sim:emr", "uncore_cha_0", "skx_uncore_chabox_constraints: 0x11 and 0x36 on counter 0",
	  { C(0x0111), C(0x0136) }, 2, { C(0x0136), C(0x0001), C(0x0001), C(0x0001) }, 4, 0x0001 },
	{ "perf+sim:emr", "uncore_iio_0", "icx_uncore_iio_constraints: 0x02, 0x03, 0x83 on counters 0-1",
	  { C(0x0102), C(0x0103), C(0x0183) }, 3, { C(0x0188), C(0x01c0), C(0x0102), C(0x0001) }, 4, 0x0001 },
	{ "perf+sim:emr", "uncore_iio_0", "icx_uncore_iio_constraints: 0x88, 0xc0, 0xc5 on counters 2-3",
	  { C(0x0188), C(0x01c0), C(0x01c5) }, 3, { C(0x01d5), C(0x0183), C(0x0103), C(0x01c5) }, 4, 0 },
	{ "perf+sim:emr", "uncore_m2pcie_0", "spr_uncore_m2pcie_constraints: 0x14 and 0x2d on counters 0-1",
	  { C(0x0114), C(0x012d), C(0x0114) }, 3, { C(0x0114), C(0x012d), C(0x0001), C(0x0001) }, 4, 0x0001 },
	{ "perf+sim:emr", "uncore_m3upi_0", "icx_uncore_m3upi_constraints: 0x1c-0x1f on counter 0",
	  { C(0x011c), C(0x011f) }, 2, { C(0x011c), C(0x0140), C(0x014e), C(0x0001) }, 4, 0x0001 },
	{ "perf+sim:emr", "uncore_m3upi_0", "icx_uncore_m3upi_constraints: 0x40, 0x4e-0x50 on counters 0-2",
	  { C(0x0140), C(0x014e), C(0x014f), C(0x0150) }, 4, { C(0x0140), C(0x014e), C(0x014f), C(0x0001) }, 4, 0x0001 },
	{ "perf+sim:skx", "uncore_cha_0", "skx_uncore_chabox_constraints: 0x11 and 0x36 on counter 0",
	  { C(0x0111), C(0x0136) }, 2, { C(0x0136), C(0x0000), C(0x0000), C(0x0000) }, 4, 0 },
	{ "perf+sim:skx", "uncore_iio_0", "skx_uncore_iio_constraints: 0x83 on counters 0-1, 0xc0 on 2-3",
	  { C(0x0183), C(0x0183), C(0x0183) }, 3, { C(0x01c0), C(0x0183), C(0x01c0), C(0x0001) }, 4, 0x0001 },
	{ "perf+sim:skx", "uncore_iio_5", "skx_uncore_iio_constraints: 0x88, 0x95, 0xd4 on counters 2-3",
	  { C(0x0188), C(0x0195), C(0x01d4) }, 3, { C(0x01d5), C(0x0188), C(0x0183), C(0x0001) }, 4, 0x0001 },
	{ "perf+sim:skx", "uncore_m2pcie_3", "skx_uncore_m2pcie_constraints: 0x23 on counters 0-1",
	  { C(0x0123), C(0x0123), C(0x0123) }, 3, { C(0x0123), C(0x0001), C(0x0123), C(0x0001) }, 4, 0x0001 },
	{ "perf+sim:skx", "uncore_m3upi_1", "skx_uncore_m3upi_constraints: 0x1d and 0x1e on counter 0",
	  { C(0x011d), C(0x011e) }, 2, { C(0x0140), C(0x011e), C(0x0001) }, 3, 0x0001 },
	{ "perf+sim:icx", "uncore_cha_39", "skx_uncore_chabox_constraints (icx_uncore_chabox): 0x11 and 0x36 on counter 0",
	  { C(0x0111), C(0x0136) }, 2, { C(0x0136), C(0x0000), C(0x0000), C(0x0000) }, 4, 0 },
	{ "perf+sim:icx", "uncore_iio_3", "icx_uncore_iio_constraints: 0x02, 0x03, 0x83 on counters 0-1",
	  { C(0x0102), C(0x0103), C(0x0183) }, 3, { C(0x0188), C(0x01c0), C(0x0102), C(0x0001) }, 4, 0x0001 },
	{ "perf+sim:icx", "uncore_m2pcie_5", "icx_uncore_m2pcie_constraints: 0x14, 0x23 and 0x2d on counters 0-1",
	  { C(0x0114), C(0x0123), C(0x012d) }, 3, { C(0x0114), C(0x0123), C(0x0001), C(0x0001) }, 4, 0x0001 },
	{ "perf+sim:icx", "uncore_m3upi_2", "icx_uncore_m3upi_constraints: 0x1c-0x1f on counter 0",
	  { C(0x011c), C(0x011f) }, 2, { C(0x011c), C(0x0140), C(0x014e), C(0x0001) }, 4, 0x0001 },
	{ "perf+sim:emr", "uncore_cxlcm", "spr_uncore_cxlcm_constraints: 0x40-0x43, 0x4b, 0x52 on counters 4-7",
	  { C(0x0140), C(0x0141), C(0x0142), C(0x0143), C(0x014b) }, 5,
	  { C(0x0102), C(0x0105), C(0x0140), C(0x0141), C(0x0142), C(0x0152), C(0x0001), C(0x0001) }, 8, 0x0001 },
};

/* Each constraint list: the group it refuses gets EINVAL at perf_event_open; the one it places goes on
 * whole and its clock counts the simulator's clock. */
static void test_constraints(void)
{
	for (size_t t = 0; t < sizeof(ctests) / sizeof(ctests[0]); t++) {
		const struct ctest *c = &ctests[t];
		char spec[128];
		snprintf(spec, sizeof(spec), "%s,clock=manual", c->spec);
		uncore_t *u = open_sim(spec);
		int fd[9];
		int rc = open_group(u, c->pmu, c->refused, c->nref, fd);
		if (rc != -EINVAL)
			fprintf(stderr, "FAIL %s %s: the group it refuses opened (%d)\n", c->spec, c->why, rc);
		CU_ASSERT(rc == -EINVAL);
		close_all(u, fd, c->nref);
		rc = open_group(u, c->pmu, c->placed, c->nplaced, fd);
		if (rc < 0)
			fprintf(stderr, "FAIL %s %s: the group it places was refused (%d)\n", c->spec, c->why, rc);
		CU_ASSERT_FATAL(rc >= 0);
		uint64_t v[9], en;
		CU_ASSERT(kern(u)->ops->ioctl(kern(u), fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) == 0);
		CU_ASSERT(read_group(u, fd[0], c->nplaced, 100000000, v, &en)); /* all on, all the time */
		const struct sim *sim = sim_of(u->acc);
		double hz = strstr(c->pmu, "iio") ? sim->prof.iio_hz : sim->prof.uncore_hz, want = hz * (double)en / 1e9;
		for (int i = 0; i < c->nplaced; i++)
			if (c->clock && c->placed[i].c0 == c->clock)
				ASSERT_NEAR(v[i], want, want * 1e-6);
		close_all(u, fd, c->nplaced);
		uncore_close(u);
	}
}

/* The box of unit `unit` number idx on socket 0 of the simulated machine. */
static struct sim_box *sim_box0(const struct sim *sim, const char *unit, int idx)
{
	for (int i = 0; i < sim->nboxes; i++)
		if (!strcmp(sim->boxes[i].u->name, unit) && sim->boxes[i].socket == 0 && sim->boxes[i].idx == idx)
			return (struct sim_box *)&sim->boxes[i];
	CU_FAIL_FATAL("no such simulated box");
	return NULL;
}

/* Three things Linux 6.12's Skylake-SP driver does that the registers show (uncore_snbep.c):
 * hswep_pcu_hw_config keeps config1 & (0xff << band) of a band event, not the band's byte, so band 1's
 * threshold 0x20 (config1 bits 15:8) reaches the filter as 0 and its threshold 1 (bit 8) as 1;
 * snbep_uncore_pci_enable_event writes the low dword of the UPI's 64-bit control, so the umask extension
 * (format umask config:32-43) never reaches it; skx_cha_hw_config gives a tid_en event the index 0x1ff,
 * every filter field, so it shares the box only with events that agree on all of config1. */
static void test_skx_driver_quirks(void)
{
	uncore_t *u = open_sim("perf+sim:skx,clock=manual");
	const struct sim *sim = sim_of(u->acc);
	struct sim_box *pcu = sim_box0(sim, "pcu", 0), *upi = sim_box0(sim, "upi", 2);
	int fd[2];
	uint64_t v[2], en;
	struct ev band1 = { 0x0c, 0x20ull << 8, 0 }, band1_low = { 0x0c, 0x01ull << 8, 0 };
	CU_ASSERT_FATAL((fd[0] = kopen(u, "uncore_pcu", band1, -1)) >= 0);
	CU_ASSERT(kern(u)->ops->ioctl(kern(u), fd[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	read_group(u, fd[0], 1, 1000000, v, &en);
	CU_ASSERT_EQUAL(pcu->filt[0], 0); /* band 1 = 0x20 asked: masked to bit 8, which 0x20 << 8 lacks */
	close_all(u, fd, 1);
	CU_ASSERT_FATAL((fd[0] = kopen(u, "uncore_pcu", band1_low, -1)) >= 0);
	CU_ASSERT(kern(u)->ops->ioctl(kern(u), fd[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	read_group(u, fd[0], 1, 1000000, v, &en);
	CU_ASSERT_EQUAL(pcu->filt[0], 0x100);
	close_all(u, fd, 1);
	/* UNC_UPI_TxL_BASIC_HDR_MATCH.REQ_OPC: event 0x04, umask 0x08, extension bit 32 (opcode match enable) */
	struct ev opc = { 0x0804 | 1ull << 32, 0, 0 };
	CU_ASSERT_FATAL((fd[0] = kopen(u, "uncore_upi_2", opc, -1)) >= 0);
	CU_ASSERT(kern(u)->ops->ioctl(kern(u), fd[0], PERF_EVENT_IOC_ENABLE, 0) == 0);
	read_group(u, fd[0], 1, 1000000, v, &en);
	CU_ASSERT_EQUAL(upi->ctl[0], 0x400804ull); /* enabled, low dword only */
	close_all(u, fd, 1);
	/* CHA clockticks with tid_en (config1 tid 1) next to LLC_LOOKUP.DATA_READ with state I (config1 bit 17):
	 * different fields, but the tid_en event holds state too, at 0, so the group is refused; with the same
	 * config1 it opens */
	struct ev tid = { 0x0000 | 1ull << 19, 0x1, 0 }, look = { 0x0334, 0x1ull << 17, 0 };
	struct ev both = { 0x0000 | 1ull << 19, 0x1 | 0x1ull << 17, 0 };
	struct ev g1[] = { tid, look }, g2[] = { both, { 0x0334, 0x1 | 0x1ull << 17, 0 } };
	CU_ASSERT(open_group(u, "uncore_cha_3", g1, 2, fd) == -EINVAL);
	close_all(u, fd, 2);
	CU_ASSERT(open_group(u, "uncore_cha_3", g2, 2, fd) >= 0);
	close_all(u, fd, 2);
	/* the library follows: an event with the UPI umask extension is refused on perf, saying why, and counted
	 * on the registers */
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT(uncore_session_add(s, "UNC_UPI_TxL_BASIC_HDR_MATCH.REQ_OPC:socket=0:box=2") < 0 &&
		  strstr(uncore_error(), "drops the umask extension (bits 0x100000000: it writes bits 31:0 of config alone to "
					 "the PCI control, pci_write_config_dword)") != NULL);
	uncore_session_free(s);
	uncore_close(u);
	u = open_sim("sim:skx,clock=manual");
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT(uncore_session_add(s, "UNC_UPI_TxL_BASIC_HDR_MATCH.REQ_OPC:socket=0:box=2") == 0);
	CU_ASSERT(uncore_session_start(s) == 0);
	uncore_session_free(s);
	uncore_close(u);
}

/* Events that cannot all be on at once outside a group multiplex: three lone LLC_LOOKUPs (0x34, counters
 * 0-1 only) on a CBo of four counters take turns, every multiplexing interval whether read or not, and
 * each count scales to the truth.  A group that
 * does not fit also keeps the groups after it off until the rotation reaches it (merge_sched_in). */
static void test_constraint_multiplexing(void)
{
	uncore_t *u = open_sim("perf+sim:snbep,clock=manual");
	const struct sim *sim = sim_of(u->acc);
	struct ev look = { 0x0334, 0x1full << 18, 0 }, clk = C(0x0000);
	int fd[4];
	for (int i = 0; i < 3; i++)
		CU_ASSERT_FATAL((fd[i] = kopen(u, "uncore_cbox_2", look, -1)) >= 0);
	CU_ASSERT_FATAL((fd[3] = kopen(u, "uncore_cbox_2", clk, -1)) >= 0);
	uint64_t v[4], en[4], run[4], buf[4];
	/* the kernel rotates every 4 ms on a timer, read or not: one wait of 1.5 s sees every event take turns */
	uncore_sleep_ns(u, 1500000000);
	for (int i = 0; i < 4; i++) {
		CU_ASSERT_FATAL(kern(u)->ops->read(kern(u), fd[i], buf, sizeof(buf)) == 32);
		v[i] = buf[3], en[i] = buf[1], run[i] = buf[2];
	}
	/* per CBo: the lookups of the socket over its CBos (every state: 0x1f) */
	int nb = sim_unit_named(sim, "cbo")->nboxes, cbos = sim->cores < nb ? sim->cores : nb;
	for (int i = 0; i < 3; i++) {
		double want = sim->prof.llc_lookups[0] / cbos * (double)en[i] / 1e9;
		fprintf(stderr, "LLC_LOOKUP %d alone: running %.1f%% of %.3f s\n", i, 100.0 * (double)run[i] / (double)en[i],
			(double)en[i] / 1e9);
		CU_ASSERT(run[i] > en[i] / 3 && run[i] < en[i]);
		ASSERT_NEAR((double)v[i] * (double)en[i] / (double)run[i], want, want * 0.02);
	}
	CU_ASSERT(run[3] < en[3]); /* the clock waits behind the group that did not fit */
	close_all(u, fd, 4);
	uncore_close(u);
}

/* The CBo filter: only the events the driver's extra_regs select use it; a field is held with one
 * value; config1 of any other event is ignored (neither refused nor written). */
static void test_cbox_filter(void)
{
	const char *specs[] = { "perf+sim:snbep,clock=manual", "perf+sim:ivbep,clock=manual" };
	/* filter_state: SNB-EP config1 18-22, IVB-EP 17-22; filter_opc: 23-31, 52-60 */
	const int state_at[] = { 18, 17 }, opc_at[] = { 23, 52 };
	for (int p = 0; p < 2; p++) {
		uncore_t *u = open_sim(specs[p]);
		const struct sim *sim = sim_of(u->acc);
		uint64_t all = 0x1full << state_at[p], miss = 0x01ull << state_at[p];
		struct ev look_all = { 0x0334, all, 0 }, look_miss = { 0x0334, miss, 0 };
		struct ev other = { 0x0834, miss | 0x1ull << opc_at[p], 0 }; /* umask 0x08: no extra_regs row */
		struct ev clk_f = { 0x0000, miss, 0 };
		int fd[4];
		struct ev two[] = { look_all, look_miss }, g[] = { look_all, look_all, clk_f }, ign[] = { look_all, other };
		CU_ASSERT(open_group(u, "uncore_cbox_0", two, 2, fd) == -EINVAL); /* two values of state */
		close_all(u, fd, 2);
		CU_ASSERT(open_group(u, "uncore_cbox_0", ign, 2, fd) >= 0); /* 0x0834 has no extra_regs row */
		close_all(u, fd, 2);
		CU_ASSERT_FATAL(open_group(u, "uncore_cbox_0", g, 3, fd) >= 0); /* one value shared, the clock's ignored */
		CU_ASSERT(kern(u)->ops->ioctl(kern(u), fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) == 0);
		uint64_t v[3], en;
		CU_ASSERT(read_group(u, fd[0], 3, 100000000, v, &en));
		int nb = sim_unit_named(sim, "cbo")->nboxes, cbos = sim->cores < nb ? sim->cores : nb;
		double want = sim->prof.llc_lookups[0] / cbos * (double)en / 1e9; /* state 0x1f: every lookup */
		ASSERT_NEAR(v[0], want, want * 1e-6);
		ASSERT_NEAR(v[1], want, want * 1e-6);
		ASSERT_NEAR(v[2], sim->prof.uncore_hz * (double)en / 1e9, sim->prof.uncore_hz * 1e-6);
		close_all(u, fd, 3);
		/* a lone event that does not use the filter does not write it: LLC_LOOKUP keeps state 0x01 */
		int a = kopen(u, "uncore_cbox_1", look_miss, -1), b = kopen(u, "uncore_cbox_1", (struct ev){ 0x0000, all, 0 }, -1);
		CU_ASSERT_FATAL(a >= 0 && b >= 0);
		uint64_t buf[4];
		uncore_sleep_ns(u, 100000000);
		CU_ASSERT_FATAL(kern(u)->ops->read(kern(u), a, buf, sizeof(buf)) == 32);
		want = sim->prof.llc_lookups[0] / cbos * sim->prof.llc_miss_ratio[0] * (double)buf[1] / 1e9;
		CU_ASSERT(buf[1] == buf[2]);
		ASSERT_NEAR(buf[3], want, want * 1e-6);
		kern(u)->ops->close(kern(u), b);
		kern(u)->ops->close(kern(u), a);
		uncore_close(u);
	}
}

/* PCU band events (0xb-0xe) each take a byte of the band filter; one whose band is held with another
 * value moves to the next free band, its event with it (snbep_pcu_get_constraint), and counts that
 * band's truth: the PCU clock while the uncore runs at or above the band's frequency. */
static void test_pcu_bands(void)
{
	const char *specs[] = { "perf+sim:snbep,clock=manual", "perf+sim:ivbep,clock=manual" };
	for (int p = 0; p < 2; p++) {
		uncore_t *u = open_sim(specs[p]);
		const struct sim *sim = sim_of(u->acc);
		/* four FREQ_BAND0_CYCLES with 4.0, 1.0, 3.0 and 2.0 GHz: bands 0, 1, 2, 3 */
		const unsigned ghz10[] = { 40, 10, 30, 20 };
		struct ev g[4];
		for (int i = 0; i < 4; i++)
			g[i] = (struct ev){ 0x000b, ghz10[i], 0 };
		int fd[5];
		CU_ASSERT_FATAL(open_group(u, "uncore_pcu", g, 4, fd) >= 0);
		struct ev fifth = { 0x000b, 50, 0 };
		CU_ASSERT(kopen(u, "uncore_pcu", fifth, -1) >= 0); /* alone it fits; it waits for a band */
		CU_ASSERT(kern(u)->ops->ioctl(kern(u), fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) == 0);
		uint64_t v[4], en, buf[3 + 4];
		/* the fifth needs a band the group holds: they take turns every interval (multiplexed) */
		CU_ASSERT(!read_group(u, fd[0], 4, 100000000, v, &en));
		CU_ASSERT_FATAL(kern(u)->ops->read(kern(u), fd[0], buf, sizeof(buf)) == sizeof(buf)); /* no time passed */
		CU_ASSERT(buf[2] > en / 3 && buf[2] < en * 2 / 3);
		for (int i = 0; i < 4; i++) { /* each band counted its truth while the group was on */
			double want = sim->prof.uncore_hz >= ghz10[i] * 100e6 ? sim->prof.pcu_hz * (double)buf[2] / 1e9 : 0;
			fprintf(stderr, "band %d at %.1f GHz: %llu, truth %.0f\n", i, ghz10[i] / 10.0, (unsigned long long)v[i], want);
			ASSERT_NEAR(v[i], want, sim->prof.pcu_hz * 1e-6);
		}
		struct ev other = { 0x0004, 0xffffffff, 0 }; /* not a band event: its config1 is ignored */
		int o = kopen(u, "uncore_pcu", other, fd[0]);
		CU_ASSERT(o == -EINVAL); /* but five events are more than the PCU's four counters */
		close_all(u, fd, 4);
		uncore_close(u);
	}
}

/* QPI: event 0x38 uses the match (config1) and mask (config2) registers, shared only with equal
 * values; other events' config1/config2 are ignored.  EMR's CHA: tid_en uses FILTER0's tid likewise. */
static void test_match_registers(void)
{
	uncore_t *u = open_sim("perf+sim:snbep,clock=manual");
	int fd[4];
	struct ev m1 = { 0x0038, 0x1234, 0xffff }, m2 = { 0x0038, 0x1235, 0xffff }, clk = { 0x0014, 0x9999, 0x1 };
	struct ev bad[] = { m1, m2 }, good[] = { m1, m1, clk };
	CU_ASSERT(open_group(u, "uncore_qpi_0", bad, 2, fd) == -EINVAL);
	close_all(u, fd, 2);
	CU_ASSERT_FATAL(open_group(u, "uncore_qpi_0", good, 3, fd) >= 0);
	CU_ASSERT(kern(u)->ops->ioctl(kern(u), fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) == 0);
	uint64_t v[3], en;
	const struct sim *sim = sim_of(u->acc);
	CU_ASSERT(read_group(u, fd[0], 3, 100000000, v, &en));
	ASSERT_NEAR(v[2], sim->prof.qpi_hz * (double)en / 1e9, sim->prof.qpi_hz * 1e-6); /* QPI clockticks */
	close_all(u, fd, 3);
	uncore_close(u);

	u = open_sim("perf+sim:emr,clock=manual");
	sim = sim_of(u->acc);
	struct ev t5 = { 0x0001 | 1ull << 16, 5, 0 }, t6 = { 0x0001 | 1ull << 16, 6, 0 }, n6 = { 0x0001, 6, 0 };
	struct ev tbad[] = { t5, t6 }, tgood[] = { t5, t5, n6 };
	CU_ASSERT(open_group(u, "uncore_cha_0", tbad, 2, fd) == -EINVAL);
	close_all(u, fd, 2);
	CU_ASSERT_FATAL(open_group(u, "uncore_cha_0", tgood, 3, fd) >= 0);
	CU_ASSERT(kern(u)->ops->ioctl(kern(u), fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) == 0);
	CU_ASSERT(read_group(u, fd[0], 3, 100000000, v, &en));
	ASSERT_NEAR(v[2], sim->prof.uncore_hz * (double)en / 1e9, sim->prof.uncore_hz * 1e-6);
	close_all(u, fd, 3);
	uncore_close(u);
}

/* Through the library, on the registers and on the simulated kernel alike: four FREQ_BAND0_CYCLES with
 * different thresholds all count, each moved to a free band as Linux's driver moves them, and each
 * counts its threshold's truth. */
static void test_library_bands(void)
{
	const char *specs[] = { "sim:snbep,clock=manual", "perf+sim:snbep,clock=manual", "sim:ivbep,clock=manual",
				"perf+sim:ivbep,clock=manual" };
	const unsigned ghz10[] = { 10, 40, 20, 30 };
	for (int p = 0; p < 4; p++) {
		uncore_t *u = open_sim(specs[p]);
		const struct sim *sim = sim_of(u->acc);
		char ev[4][64];
		const char *list[4];
		for (int i = 0; i < 4; i++) {
			snprintf(ev[i], sizeof(ev[i]), "UNC_P_FREQ_BAND0_CYCLES:band0=%u:socket=0", ghz10[i]);
			list[i] = ev[i];
		}
		uncore_session_t *s = start_session(u, list, 4);
		uncore_sleep_ns(u, 100000000);
		CU_ASSERT(uncore_session_read(s) == 0);
		double t = (double)uncore_session_elapsed_ns(s) / 1e9;
		for (int i = 0; i < 4; i++) {
			double want = sim->prof.uncore_hz >= ghz10[i] * 100e6 ? sim->prof.pcu_hz * t : 0;
			ASSERT_NEAR(val(s, i, 0), want, sim->prof.pcu_hz * 1e-6);
		}
		uncore_session_free(s);
		uncore_close(u);
	}
}

/* Haswell-EP's PCU (hswep_pcu_hw_config) keeps config1 & (0xff << band), not the band's byte: through perf a
 * 3.0 GHz threshold of band 1 or 2 reaches the filter as 0 and the event counts every PCU cycle, where the
 * registers, programmed whole, count none at the simulated 2.7 GHz; band 0 is right on both. */
static void test_hsx_pcu_band_mask(void)
{
	const char *evs[] = { "UNC_P_FREQ_BAND0_CYCLES:band0=30:socket=0", "UNC_P_FREQ_BAND1_CYCLES:band1=30:socket=0",
			      "UNC_P_FREQ_BAND2_CYCLES:band2=30:socket=0", "UNC_P_FREQ_BAND3_CYCLES:band3=20:socket=0" };
	for (int perf = 0; perf < 2; perf++) {
		uncore_t *u = open_sim(perf ? "perf+sim:hsx,clock=manual" : "sim:hsx,clock=manual");
		const struct sim *sim = sim_of(u->acc);
		uncore_session_t *s = start_session(u, evs, 4);
		uncore_sleep_ns(u, 100000000);
		CU_ASSERT(uncore_session_read(s) == 0);
		double t = (double)uncore_session_elapsed_ns(s) / 1e9, all = sim->prof.pcu_hz * t;
		const double want[2][4] = { { 0, 0, 0, all }, { 0, all, all, all } };
		for (int i = 0; i < 4; i++) {
			if (fabs((double)val(s, i, 0) - want[perf][i]) > sim->prof.pcu_hz * 1e-6)
				fprintf(stderr, "%s %s: %llu, want %.0f\n", perf ? "perf+sim" : "sim", evs[i],
					(unsigned long long)val(s, i, 0), want[perf][i]);
			ASSERT_NEAR(val(s, i, 0), want[perf][i], sim->prof.pcu_hz * 1e-6);
		}
		uncore_session_free(s);
		uncore_close(u);
	}
}

/* Session events 0 and 2 share a group, event 1 (another value in the shared filter) is in one of its own
 * (perf), or there are two events that share (registers): after 0.1 s the groups took turns or none did. */
static void check_multiplexed(uncore_t *u, uncore_session_t *s, int perf)
{
	uint64_t en, run;
	uncore_sleep_ns(u, 100000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	for (int e = 0; e < 2 + perf; e++) {
		CU_ASSERT(uncore_session_times(s, e, 0, 0, &en, &run) == perf);
		CU_ASSERT(perf ? run > en / 3 && run < en * 2 / 3 : run == en);
	}
}

/* Where the library and the driver would disagree, the library follows the driver: a band filter on a
 * PCU event that is not a band event is refused on perf (snbep_pcu_hw_config ignores it), counted on the
 * registers; IVB-EP's LLC_LOOKUP.NID holds the nid field (ivbep_uncore_cbox_extra_regs 0x4134), so it
 * shares it with another nid event only at the same value, on both backends; so do QPI CTO_COUNTs with
 * the match and mask registers.  Another value is refused on the registers and goes to a group of its own
 * on perf, which the kernel rotates with the first. */
static void test_library_follows_driver(void)
{
	for (int perf = 0; perf < 2; perf++) {
		uncore_t *u = open_sim(perf ? "perf+sim:snbep,clock=manual" : "sim:snbep,clock=manual");
		uncore_session_t *s;
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		int rc = uncore_session_add(s, "UNC_P_DEMOTIONS_CORE1:band0=5");
		CU_ASSERT(perf ? rc < 0 && strstr(uncore_error(), "band events 0x0b-0x0e only") != NULL : rc == 0);
		uncore_session_free(s);
		uncore_close(u);
		u = open_sim(perf ? "perf+sim:ivbep,clock=manual" : "sim:ivbep,clock=manual");
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		CU_ASSERT(uncore_session_add(s, "UNC_C_LLC_LOOKUP.NID:nid=1:box=0:socket=0") == 0);
		/* refused on the registers; perf puts it in a group of its own, which the kernel rotates */
		rc = uncore_session_add(s, "UNC_C_TOR_INSERTS.NID_ALL:nid=5:box=0:socket=0");
		CU_ASSERT(perf ? rc == 1 : rc < 0 && strstr(uncore_error(), "the perf backend multiplexes such sets"));
		CU_ASSERT(uncore_session_add(s, "UNC_C_TOR_INSERTS.NID_ALL:nid=1:box=0:socket=0") == 1 + perf);
		CU_ASSERT_FATAL(uncore_session_start(s) == 0);
		check_multiplexed(u, s, perf);
		uncore_session_free(s);
		uncore_close(u);
		/* every CTO_COUNT holds the whole QPI match and mask (snbep_qpi_hw_config: config1, config2), 0 when
		 * not given: one without match values and one with them do not share a box */
		u = open_sim(perf ? "perf+sim:snbep,clock=manual" : "sim:snbep,clock=manual");
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		CU_ASSERT(uncore_session_add(s, "UNC_Q_CTO_COUNT:box=0:socket=0") == 0);
		rc = uncore_session_add(s, "UNC_Q_CTO_COUNT:match0=0x1c00:box=0:socket=0");
		CU_ASSERT(perf ? rc == 1 : rc < 0);
		CU_ASSERT(uncore_session_add(s, "UNC_Q_CTO_COUNT:match1=0:box=0:socket=0") == 1 + perf);
		CU_ASSERT_FATAL(uncore_session_start(s) == 0);
		check_multiplexed(u, s, perf);
		uncore_session_free(s);
		uncore_close(u);
	}
}

/* Spelling v (0-7) of one event on box 0 of socket 0: the same event, a different spec, so that a
 * session holds it several times. */
static void spelled(char *out, size_t len, const char *name, int v)
{
	static const char *const q[] = { ":box=0:socket=0", ":socket=0:box=0", ":box=0:socket=0:thresh=0",
					 ":box=0:thresh=0:socket=0", ":socket=0:box=0:thresh=0", ":socket=0:thresh=0:box=0",
					 ":thresh=0:box=0:socket=0", ":thresh=0:socket=0:box=0" };
	snprintf(out, len, "%s%s", name, q[v]);
}

/* Does a set the library places (events rep[set[0..n-1]]) open on the simulated kernel?  Returns 1 when
 * the library placed several events, 0 when it refused one (the set is then not tried). */
static int try_set(uncore_t *u, const char *what, char rep[][128], const int *set, int n)
{
	uncore_session_t *s;
	char ev[160];
	int copies[256] = { 0 }, ok = 1;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	for (int j = 0; j < n && ok; j++) {
		spelled(ev, sizeof(ev), rep[set[j]], copies[set[j]]++);
		ok = uncore_session_add(s, ev) >= 0;
	}
	if (ok) {
		int rc = uncore_session_start(s);
		if (rc)
			fprintf(stderr, "FAIL %s: the library placed %d events (%s ...) the kernel refused: %s\n", what, n,
				rep[set[0]], uncore_error());
		CU_ASSERT(rc == 0);
	}
	uncore_session_free(s);
	return ok;
}

/* The library never builds a group the driver refuses: on each constrained unit, one event per event
 * select, k copies of it for every k up to eight and every pair of them once and twice, as far as the
 * library places them on one box, open on the simulated kernel, whose placement is the driver's. */
static void test_library_groups_open(void)
{
	static const struct { const char *plat, *unit; } units[] = {
		{ "snbep", "cbo" }, { "snbep", "r2pcie" }, { "snbep", "r3qpi" }, { "ivbep", "cbo" }, { "ivbep", "r2pcie" },
		{ "ivbep", "r3qpi" }, { "emr", "cha" }, { "emr", "iio" }, { "emr", "m2pcie" }, { "emr", "m3upi" },
		{ "emr", "cxlcm" }, { "skx", "cha" }, { "skx", "iio" }, { "skx", "m3upi" }, /* skx m2pcie: no JSON events */
		{ "icx", "cha" }, { "icx", "iio" }, { "icx", "m2pcie" }, { "icx", "m3upi" },
		{ "hsx", "cbo" }, { "hsx", "r2pcie" }, { "hsx", "r3qpi" }, { "bdx", "cbo" }, { "bdx", "pcu" },
		{ "bdx", "r2pcie" }, { "bdx", "r3qpi" }, { "bdxde", "cbo" }, { "bdxde", "pcu" }, { "bdxde", "r2pcie" },
	};
	for (size_t t = 0; t < sizeof(units) / sizeof(units[0]); t++) {
		char spec[64], what[64], rep[256][128];
		int n = 0, seen[256] = { 0 }, tried = 0, placed = 0;
		snprintf(spec, sizeof(spec), "perf+sim:%s,clock=manual", units[t].plat);
		snprintf(what, sizeof(what), "%s %s", units[t].plat, units[t].unit);
		uncore_t *u = open_sim(spec);
		for (int i = 0; i < uncore_num_events(u); i++) {
			struct uncore_event_info ei;
			if (uncore_event_info(u, i, &ei) || strcmp(ei.unit, units[t].unit) || !ei.counter_mask || seen[ei.code & 0xff])
				continue;
			snprintf(rep[n], sizeof(rep[0]), "%s", ei.name);
			int one[] = { n };
			seen[ei.code & 0xff] = try_set(u, what, rep, one, 1); /* one that needs no qualifier */
			n += seen[ei.code & 0xff];
		}
		CU_ASSERT_FATAL(n > 1);
		for (int x = 0; x < n; x++) {
			int set[8] = { x, x, x, x, x, x, x, x };
			for (int k = 2; k <= 8; k++, tried++)
				placed += try_set(u, what, rep, set, k);
			for (int y = x + 1; y < n; y++) {
				int two[] = { x, y }, three[] = { x, x, y }, four[] = { x, y, y };
				placed += try_set(u, what, rep, two, 2) + try_set(u, what, rep, three, 3) + try_set(u, what, rep, four, 3);
				tried += 3;
			}
		}
		fprintf(stderr, "%s: %d event selects, %d sets, %d placed by the library and opened\n", what, n, tried, placed);
		uncore_close(u);
	}
}

/* The qualifiers that program a shared filter or match register, on the units that have one. */
static int filter_qualifier(const char *name)
{
	static const char *const names[] = { "tid", "state", "nid", "opc", "band0", "band1", "band2", "band3",
					     "match0", "match1", "mask0", "mask1" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

/* Event idx spelled with every filter qualifier it takes set to v (within its range), or 0 if none. */
static int with_filters(uncore_t *u, int idx, unsigned v, char *out, size_t len)
{
	struct uncore_event_info ei;
	struct uncore_qualifier q[32];
	int nq = uncore_event_qualifiers(u, idx, q, 32), any = 0;
	uncore_event_info(u, idx, &ei);
	size_t k = (size_t)snprintf(out, len, "%s", ei.name);
	for (int i = 0; i < nq && i < 32 && k < len; i++)
		if (!q[i].flag && filter_qualifier(q[i].name)) {
			unsigned long long x = v < q[i].min ? q[i].min : v > q[i].max ? q[i].max : v;
			k += (size_t)snprintf(out + k, len - k, ":%s=%llu", q[i].name, x);
			any = 1;
		}
	return any;
}

/* Filters likewise: pairs of a filtered unit's events, with their filter values equal and different, that
 * the library places on one box open on the simulated kernel. */
static void test_library_filters_open(void)
{
	static const struct { const char *plat, *unit; } units[] = {
		{ "snbep", "cbo" }, { "snbep", "pcu" }, { "snbep", "qpi" }, { "ivbep", "cbo" }, { "ivbep", "pcu" },
		{ "ivbep", "qpi" }, { "emr", "cha" }, { "skx", "cha" }, /* skx pcu: no band event in the JSON */
		{ "hsx", "cbo" }, { "hsx", "pcu" }, { "hsx", "qpi" }, { "hsx", "ubox" },
		{ "bdx", "cbo" }, { "bdx", "qpi" },
	};
	for (size_t t = 0; t < sizeof(units) / sizeof(units[0]); t++) {
		char spec[64], what[64], rep[2][64][128];
		int n = 0, seen[256] = { 0 }, tried = 0, placed = 0;
		snprintf(spec, sizeof(spec), "perf+sim:%s,clock=manual", units[t].plat);
		snprintf(what, sizeof(what), "%s %s filters", units[t].plat, units[t].unit);
		uncore_t *u = open_sim(spec);
		for (int i = 0; i < uncore_num_events(u) && n < 64; i++) {
			struct uncore_event_info ei;
			if (uncore_event_info(u, i, &ei) || strcmp(ei.unit, units[t].unit) || !ei.counter_mask)
				continue;
			if (!*ei.filters && seen[ei.code & 0xff]++)
				continue; /* of those that need no filter (tid only), one per event select */
			n += with_filters(u, i, 1, rep[0][n], sizeof(rep[0][n])) && with_filters(u, i, 2, rep[1][n], sizeof(rep[1][n]));
		}
		CU_ASSERT_FATAL(n > 0);
		for (int x = 0; x < n; x++)
			for (int y = x; y < n; y++)
				for (int vy = 0; vy < 2; vy++) {
					char pair[2][128];
					memcpy(pair[0], rep[0][x], sizeof(pair[0])); /* same size: no cut */
					memcpy(pair[1], rep[vy][y], sizeof(pair[1]));
					int set[] = { 0, 1 };
					placed += try_set(u, what, pair, set, 2); /* (the same spec twice is spelled twice) */
					tried++;
				}
		fprintf(stderr, "%s: %d events, %d pairs, %d placed by the library and opened\n", what, n, tried, placed);
		uncore_close(u);
	}
}

/* The default metric set (the collectd plugin's groups memory, llc, interconnect and clock), in one
 * session: under the driver's rules on the simulated kernel each metric equals what the registers give. */
static int default_set(const char *spec, double *vals, char names[][96])
{
	static const char *const groups[] = { "memory", "llc", "interconnect", "clock" };
	uncore_t *u = open_sim(spec);
	uncore_session_t *s;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	int n = 0;
	for (int i = 0; i < uncore_num_metrics(u); i++) {
		struct uncore_metric_info mi;
		uncore_metric_info(u, i, &mi);
		for (int g = 0; g < 4; g++)
			if (!strcmp(mi.group, groups[g]) && n < 64) {
				int rc = uncore_session_add_metric(s, mi.name);
				if (rc < 0)
					fprintf(stderr, "%s %s: %s\n", spec, mi.name, uncore_error());
				CU_ASSERT_FATAL(rc == n);
				snprintf(names[n++], 96, "%s", mi.name);
			}
	}
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT(uncore_session_read(s) == 0);
	for (int m = 0; m < n; m++)
		CU_ASSERT(uncore_session_metric_value(s, m, -1, -1, UNCORE_SINCE_START, &vals[m]) == 0);
	uncore_session_free(s);
	uncore_close(u);
	return n;
}

static void test_default_set(void)
{
	const char *plats[] = { "snbep", "ivbep", "emr", "skx", "icx" };
	for (int p = 0; p < (int)(sizeof(plats) / sizeof(plats[0])); p++) {
		char names[64][96], spec[64];
		double want[64], got[64];
		snprintf(spec, sizeof(spec), "sim:%s,clock=manual", plats[p]);
		int n = default_set(spec, want, names);
		snprintf(spec, sizeof(spec), "perf+sim:%s,clock=manual", plats[p]);
		CU_ASSERT_FATAL(default_set(spec, got, names) == n && n >= 4);
		for (int m = 0; m < n; m++) {
			int same = fabs(got[m] - want[m]) <= fabs(want[m]) * 1e-6 || (isnan(got[m]) && isnan(want[m]));
			if (!same)
				fprintf(stderr, "FAIL %s %s: perf %g, registers %g\n", plats[p], names[m], got[m], want[m]);
			CU_ASSERT(same);
		}
		fprintf(stderr, "%s: the %d metrics of the default set equal on perf and on the registers\n", plats[p], n);
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "the driver's counter constraints refuse and place groups as Linux", test_constraints },
		{ "lone events the constraints keep apart multiplex", test_constraint_multiplexing },
		{ "the CBo filter is held per field by the events the driver selects", test_cbox_filter },
		{ "PCU band events move to a free band and count its truth", test_pcu_bands },
		{ "QPI match/mask and EMR CHA tid filter: equal values share", test_match_registers },
		{ "Skylake-SP: PCU band mask, UPI high dword and CHA tid_en as the driver has them", test_skx_driver_quirks },
		{ "the library moves band events to free bands, on both backends", test_library_bands },
		{ "HSX's driver keeps config1 & (0xff << band) of a band event (hswep_pcu_hw_config)", test_hsx_pcu_band_mask },
		{ "where the library and the driver differ, the driver decides", test_library_follows_driver },
		{ "the library never builds a group the driver refuses", test_library_groups_open },
		{ "the library never builds a filter group the driver refuses", test_library_filters_open },
		{ "the default metric set counts on perf what it counts on the registers", test_default_set },
		{ NULL, NULL },
	};
	return run_suite("perf_rules", tests);
}
