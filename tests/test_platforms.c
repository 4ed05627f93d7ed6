/*
 * What the IVB-EP, Nehalem-EP and Montecito platforms do differently, on their simulators:
 * overflow sampling (seed 002), unaligned IRP counters and the split CBo filter, the Nehalem
 * global control and its one-at-a-time MSRs, Montecito's counter restrictions and socket-wide
 * bus events.
 */
#include <math.h>
#include <string.h>
#include "sim_helpers.h"
#include "sim_truth.h"
#include "util/error.h"

/* Seed 002: QPI port 0 data flits preloaded to overflow after N; the overflow freezes the socket (so
 * memory reads stop too) until the handler re-arms and resumes; the other socket goes on. */
static void test_ivbep_sampling(void)
{
	uncore_t *u = open_sim("sim:ivbep,clock=manual");
	struct sim *sim = sim_of(u->acc);
	const uint64_t N = 1000000;
	static const char *const specs[] = { "UNC_Q_RxL_FLITS_G0.DATA:socket=0:box=0:sample=1000000",
					      "UNC_M_CAS_COUNT.RD", "UNC_U_CLOCKTICKS" };
	uncore_session_t *s = start_session(u, specs, 3);
	uncore_overflow_t ov[4];
	double flit_rate = sim->prof.qpi_rx_bps[0] / 3 / 8, t_ov = (double)N / flit_rate; /* 7.5 ms */
	double cas0 = sim->prof.mem_read_bps[0] / 64, cas1 = sim->prof.mem_read_bps[1] / 64;
	CU_ASSERT_EQUAL(uncore_session_overflows(s, ov, 4), 0); /* nothing yet */
	uncore_sleep_ns(u, 1000000000);
	sim_advance_scope(sim, -1); /* the simulator's registers brought up to now, as an access would */
	CU_ASSERT_NOT_EQUAL(sim->gstatus[0][0], 0); /* frozen until a read or uncore_session_overflows() */
	CU_ASSERT_EQUAL(sim->gfrz[0], 1);
	CU_ASSERT_EQUAL(uncore_session_read(s), 0);
	/* the read serviced it first (issue 45): found, re-armed, resumed, and kept for the caller */
	CU_ASSERT_EQUAL(sim->gstatus[0][0], 0);
	CU_ASSERT_EQUAL(sim->gfrz[0], 0);
	/* the sampled counter stopped at N, give or take the freeze latency */
	uint64_t flits = val(s, 0, 0);
	CU_ASSERT(flits >= N && flits <= N + 50);
	/* socket 0 froze with it: its memory reads counted for t_ov only; socket 1 counted the whole second */
	ASSERT_NEAR(val(s, 1, 0), cas0 * t_ov, cas0 * t_ov * 0.001);
	ASSERT_NEAR(val(s, 1, 1), cas1, cas1 * 0.001);
	ASSERT_NEAR(val(s, 2, 0), sim->prof.uncore_hz * t_ov, sim->prof.uncore_hz * t_ov * 0.001);
	/* who caused the freeze: global status, then the QPI box's status, counter found */
	int n = uncore_session_overflows(s, ov, 4);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT(n >= 1 && ov[0].event == 0 && ov[0].socket == 0 && ov[0].box == 0);
	CU_ASSERT_EQUAL(sim->gstatus[0][0], 0);
	CU_ASSERT_EQUAL(sim->gfrz[0], 0);
	CU_ASSERT_EQUAL(uncore_session_overflows(s, ov, 4), 0); /* cleared */
	/* re-armed: the next N flits overflow again, and counting went on meanwhile */
	uint64_t before = val(s, 1, 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_EQUAL(uncore_session_read(s), 0);
	CU_ASSERT(val(s, 0, 0) >= 2 * N && val(s, 0, 0) <= 2 * N + 100);
	ASSERT_NEAR(val(s, 1, 0) - before, cas0 * t_ov, cas0 * t_ov * 0.002);
	CU_ASSERT_EQUAL(uncore_session_overflows(s, ov, 4), 1);
	uncore_session_free(s);
	CU_ASSERT_EQUAL(sim->gfrz[0], 0);
	CU_ASSERT_EQUAL(sim->gstatus[0][0], 0);
	assert_left_as_found(sim);
	uncore_close(u);
}

/* "More than one counter may overflow at any given time": three ports and two events, same period. */
static void test_ivbep_several_overflow(void)
{
	uncore_t *u = open_sim("sim:ivbep,clock=manual");
	static const char *const specs[] = { "UNC_Q_RxL_FLITS_G0.DATA:socket=1:sample=500000",
					      "qpi/event=0x1,umask=0x2/:socket=1:box=1:sample=500000" };
	uncore_session_t *s = start_session(u, specs, 2);
	uncore_overflow_t ov[8];
	uncore_sleep_ns(u, 100000000);
	int n = uncore_session_overflows(s, ov, 8);
	CU_ASSERT_EQUAL(n, 4); /* ports 0, 1, 2 for the first event, port 1 for the second */
	int seen[2] = { 0, 0 };
	for (int i = 0; i < n && i < 8; i++) {
		CU_ASSERT_EQUAL(ov[i].socket, 1);
		seen[ov[i].event]++;
	}
	CU_ASSERT_EQUAL(seen[0], 3);
	CU_ASSERT_EQUAL(seen[1], 1);
	CU_ASSERT_EQUAL(uncore_session_overflows(s, ov, 1), 0);
	/* a room of one still counts every overflow */
	uncore_sleep_ns(u, 100000000);
	CU_ASSERT_EQUAL(uncore_session_overflows(s, ov, 1), 4);
	finish(u, s);
}

/* U_MSR_PMON_GLOBAL_CTL: frz_all stops every box of the socket at once, unfrz_all lets them go on
 * (seed 002 L18 "enable counting at the global level"); the other socket is untouched. */
static void test_ivbep_global_freeze(void)
{
	uncore_t *u = open_sim("sim:ivbep,clock=manual");
	struct sim *sim = sim_of(u->acc);
	struct access *a = u->acc;
	static const char *const specs[] = { "UNC_M_CAS_COUNT.RD", "UNC_C_CLOCKTICKS:box=3" };
	uncore_session_t *s = start_session(u, specs, 2);
	double cas0 = sim->prof.mem_read_bps[0] / 64, cas1 = sim->prof.mem_read_bps[1] / 64;
	uncore_sleep_ns(u, 500000000);
	CU_ASSERT_EQUAL(a->ops->msr_write(a, u->host.socket_cpu[0], 0xc00, 1ull << 31), 0); /* frz_all */
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_EQUAL(a->ops->msr_write(a, u->host.socket_cpu[0], 0xc00, 1ull << 29), 0); /* unfrz_all */
	uncore_sleep_ns(u, 500000000);
	CU_ASSERT_EQUAL(uncore_session_read(s), 0);
	ASSERT_NEAR(val(s, 0, 0), cas0, cas0 * 1e-6);      /* 1 s of the 2 s counted */
	ASSERT_NEAR(val(s, 0, 1), 2 * cas1, cas1 * 1e-6); /* socket 1 counted all along */
	ASSERT_NEAR(val(s, 1, 0), sim->prof.uncore_hz, sim->prof.uncore_hz * 1e-6);
	finish(u, s);
}

static void test_sampling_refused(void)
{
	uncore_t *u = open_sim("sim:ivbep");
	uncore_session_t *s;
	uncore_session_new(u, &s);
	CU_ASSERT(uncore_session_add(s, "UNC_C_CLOCKTICKS:sample=1000") < 0);
	CU_ASSERT(strstr(uncore_error(), "their overflows reach no documented status register") != NULL);
	CU_ASSERT(uncore_session_add(s, "UNC_M_CAS_COUNT.RD:sample=0") < 0);
	CU_ASSERT(strstr(uncore_error(), "at least 1") != NULL);
	CU_ASSERT(uncore_session_add(s, "UNC_M_CAS_COUNT.RD:sample=0x1000000000000") < 0);
	CU_ASSERT(strstr(uncore_error(), "out of range") != NULL);
	uncore_session_free(s);
	uncore_close(u);
	u = open_sim("sim:snbep"); /* seed 000 L251: no interrupt-based sampling on SNB-EP */
	uncore_session_new(u, &s);
	CU_ASSERT(uncore_session_add(s, "UNC_M_CAS_COUNT.RD:sample=1000") < 0);
	uncore_session_free(s);
	uncore_close(u);
	u = open_sim("sim:emr"); /* seed 001 L14329: CXL CM sends no overflow message */
	uncore_session_new(u, &s);
	CU_ASSERT(uncore_session_add(s, "UNC_CXLCM_CLOCKTICKS:sample=1000") < 0);
	CU_ASSERT(strstr(uncore_error(), "cxlcm counters cannot be sampled on emr") != NULL);
	uncore_session_free(s);
	uncore_close(u);
}

/* Seed 001 1.10.4-1.10.6: a counter preloaded to overflow after N with frz_ovf; the UBox sets the
 * unit's Global Status Position bit (from discovery; here above 63, in the second status MSR
 * 0x2FF3) and freezes the socket; free-running counters go on; frz_all = 0 resumes. */
static void test_emr_sampling(void)
{
	uncore_t *u = open_sim("sim:emr,clock=manual");
	struct sim *sim = sim_of(u->acc);
	const uint64_t N = 1000000;
	static const char *const specs[] = { "UNC_M_CAS_COUNT.RD:socket=0:box=5:sample=1000000",
					      "UNC_CHA_CLOCKTICKS:socket=0:box=7", "UNC_M_CAS_COUNT.RD:socket=1",
					      "UNC_IIO_BANDWIDTH_IN.PART0_FREERUN:socket=0" };
	uncore_session_t *s = start_session(u, specs, 4);
	uncore_overflow_t ov[4];
	const struct box *imc = box_named(u, "imc", 0, 5);
	CU_ASSERT_FATAL(imc != NULL && imc->gsp >= 64 && imc->gsp < 128);
	double cas = sim->prof.mem_read_bps[0] / 64 / 8, t_ov = (double)N / cas; /* one of 8 channels: 40 ms */
	CU_ASSERT_EQUAL(uncore_session_overflows(s, ov, 4), 0);
	uncore_sleep_ns(u, 1000000000);
	sim_advance_scope(sim, -1); /* the simulator's registers brought up to now, as an access would */
	/* exactly the channel's Global Status Position is set, in 0x2FF3 */
	CU_ASSERT_EQUAL(sim->gstatus[0][0], 0);
	CU_ASSERT_EQUAL(sim->gstatus[0][1], 1ull << (imc->gsp - 64));
	CU_ASSERT_EQUAL(sim->gfrz[0], 1);
	uint64_t reads0 = u->acc->stats.reads;
	int n = uncore_session_overflows(s, ov, 4);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT(n == 1 && ov[0].event == 0 && ov[0].socket == 0 && ov[0].box == 5);
	/* the global words name the IMC alone: the sampled socket's CHA status is not read.  4 reads: the
	 * 2 global words, the IMC's unit status, its counters (one block read); its control words are read back
	 * once a second, at the read whose turn it is (doc/cost.md), not at this one */
	CU_ASSERT_EQUAL(u->acc->stats.reads - reads0, 4);
	CU_ASSERT_EQUAL(sim->gstatus[0][1], 0);
	CU_ASSERT_EQUAL(sim->gfrz[0], 0);
	CU_ASSERT_EQUAL(uncore_session_overflows(s, ov, 4), 0);
	CU_ASSERT_EQUAL(uncore_session_read(s), 0); /* at the same instant: the counts up to the freeze */
	CU_ASSERT(val(s, 0, 0) >= N && val(s, 0, 0) <= N + 50);
	ASSERT_NEAR(val(s, 1, 0), sim->prof.uncore_hz * t_ov, sim->prof.uncore_hz * t_ov * 0.001); /* frozen too */
	ASSERT_NEAR(val(s, 2, 1), sim->prof.mem_read_bps[1] / 64, sim->prof.mem_read_bps[1] / 64 * 0.001);
	/* free-running: port 0's share of the whole second */
	ASSERT_NEAR(val(s, 3, 0) * 32.0, truth_of(sim, "iio_bw_write_port0", 0).v * 1e9, 32 * 6);
	uint64_t clk = val(s, 1, 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_EQUAL(uncore_session_read(s), 0);
	CU_ASSERT(val(s, 0, 0) >= 2 * N && val(s, 0, 0) <= 2 * N + 100);
	ASSERT_NEAR(val(s, 1, 0) - clk, sim->prof.uncore_hz * t_ov, sim->prof.uncore_hz * t_ov * 0.002);
	CU_ASSERT(sim->gfrz[0] == 0 && sim->gstatus[0][1] == 0); /* the read serviced it, and kept it: */
	CU_ASSERT_EQUAL(uncore_session_overflows(s, ov, 4), 1);
	finish(u, s);
}

/* IRP counters at 0xA0, 0xB0, 0xB8, 0xC0; the CBo opcode filter lives in FILTER1 (0xD1A + 0x20 n). */
static void test_ivbep_irregular_registers(void)
{
	uncore_t *u = open_sim("sim:ivbep,clock=manual");
	struct sim *sim = sim_of(u->acc);
	static const char *const specs[] = { "irp/event=0x0/:socket=0", "irp/event=0x0/:socket=0:thresh=0",
					      "irp/event=0x0/:socket=0:box=0", "irp/event=0x0/:socket=0:edge=0",
					      "UNC_C_TOR_INSERTS.OPCODE:opc=0x182:socket=0:box=14" };
	uncore_session_t *s = start_session(u, specs, 5);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_EQUAL(uncore_session_read(s), 0);
	for (int e = 0; e < 4; e++)
		ASSERT_NEAR(val(s, e, 0), sim->prof.uncore_hz, sim->prof.uncore_hz * 1e-6);
	ASSERT_NEAR(val(s, 4, 0), sim->prof.llc_lookups[0] / 15, sim->prof.llc_lookups[0] / 15 * 1e-6);
	for (int i = 0; i < sim->nboxes; i++) {
		struct sim_box *b = &sim->boxes[i];
		if (!strcmp(b->u->name, "irp") && b->socket == 0)
			for (int c = 0; c < 4; c++) /* every counter programmed and counting */
				CU_ASSERT(b->ctl[c] != 0 && b->cnt[c].v > 1000000);
		if (!strcmp(b->u->name, "cbo") && b->socket == 0 && b->idx == 14)
			CU_ASSERT_EQUAL(b->filt[1] >> 20 & 0x1ff, 0x182);
	}
	finish(u, s);
}

/* Nehalem: counting is switched by the global control 0x391 (restored on close), the fixed counter
 * counts uncore clocks, and the shared MSRs 0x301 and 0x396 take one setting at a time. */
static void test_nhm(void)
{
	uncore_t *u = open_sim("sim:nhm,clock=manual");
	struct sim *sim = sim_of(u->acc);
	static const char *const specs[] = { "UNC_CLK_UNHALTED", "UNC_IMC_NORMAL_READS.CH1", "UNC_QMC_NORMAL_READS.ANY",
					      "UNC_GQ_SNOOP.GOTO_S_HIT_M", "UNC_ADDR_OPCODE_MATCH.LOCAL.RSPFWDI" };
	uncore_session_t *s = start_session(u, specs, 5);
	CU_ASSERT_EQUAL(sim->boxes[0].box_ctl, 0xffull | 1ull << 32); /* EN_PC0-7, EN_FC0 */
	CU_ASSERT_EQUAL(sim->boxes[0].filt[0], 0x4000190000000000ull);
	CU_ASSERT_EQUAL(sim->boxes[0].filt[1], 0x01);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_EQUAL(uncore_session_read(s), 0);
	ASSERT_NEAR(val(s, 0, 1), sim->prof.uncore_hz, 1);
	ASSERT_NEAR(val(s, 1, 1), sim->prof.mem_read_bps[1] / 64 / 3, 1);
	ASSERT_NEAR(val(s, 2, 1), sim->prof.mem_read_bps[1] / 64, 1);
	uncore_session_free(s);
	assert_left_as_found(sim);

	uncore_session_new(u, &s);
	CU_ASSERT(uncore_session_add(s, "UNC_GQ_SNOOP.GOTO_S_HIT_M") == 0);
	CU_ASSERT(uncore_session_add(s, "UNC_GQ_SNOOP.GOTO_I_HIT_E") < 0);
	CU_ASSERT(strstr(uncore_error(), "MSR_GQ_SNOOP_MESF") != NULL);
	CU_ASSERT(uncore_session_add(s, "UNC_ADDR_OPCODE_MATCH.IOH.RSPFWDS") >= 0);
	CU_ASSERT(uncore_session_add(s, "UNC_ADDR_OPCODE_MATCH.REMOTE.NONE") < 0);
	CU_ASSERT(strstr(uncore_error(), "MSR_UNCORE_ADDR_OPCODE_MATCH") != NULL);
	uncore_session_free(s);
	CU_ASSERT(strstr(uncore_platform_caveat(u), "bus lock") != NULL);

	/* overflow status 0x392, cleared through 0x393; counting goes on after the overflow */
	static const char *const sampled[] = { "UNC_IMC_NORMAL_READS.ANY:socket=1:sample=1000000", "UNC_CLK_UNHALTED" };
	uncore_overflow_t ov[2];
	s = start_session(u, sampled, 2);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_EQUAL(uncore_session_overflows(s, ov, 2), 1);
	CU_ASSERT(ov[0].event == 0 && ov[0].socket == 1 && ov[0].counter >= 0);
	CU_ASSERT_EQUAL(uncore_session_overflows(s, ov, 2), 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_EQUAL(uncore_session_read(s), 0);
	ASSERT_NEAR(val(s, 0, 1), 2 * sim->prof.mem_read_bps[1] / 64, 2); /* nothing lost across the re-arm */
	CU_ASSERT_EQUAL(uncore_session_overflows(s, ov, 2), 1);
	finish(u, s);
}

/* Montecito: bus events only on PMC/PMD4-9, socket-wide forms counted once, SELF per core; PMC0 holds
 * the overflow bits and fr, and an overflow freezes that core's PMU only. */
static void test_montecito(void)
{
	uncore_t *u = open_sim("sim:montecito,clock=manual");
	struct sim *sim = sim_of(u->acc);
	const struct sim_profile *p = &sim->prof;
	static const char *const specs[] = { "BUS_MEM_READ.ALL.EITHER", "BUS_MEM_READ.ALL.SELF", "CPU_OP_CYCLES",
					      "BUS_MEM_READ.BRL.SELF:box=1:sample=100000" };
	uncore_session_t *s = start_session(u, specs, 4);
	uncore_overflow_t ov[4];
	double rd = p->mem_read_bps[0] / 128;
	CU_ASSERT_EQUAL(uncore_session_event_boxes(s, 0, 0), 1); /* socket-wide: core 0 alone */
	CU_ASSERT_EQUAL(uncore_session_event_boxes(s, 1, 0), 2);
	uncore_sleep_ns(u, 1000000000);
	sim_advance_scope(sim, -1); /* the simulator's registers brought up to now, as an access would */
	/* PMC0 of core 1: fr and the overflow bit of PMD4 + its counter, until the read services it */
	for (int i = 0; i < sim->nboxes; i++)
		if (sim->boxes[i].socket == 0 && sim->boxes[i].idx == 1)
			CU_ASSERT(sim->boxes[i].box_ctl & 1 && sim->boxes[i].status);
	CU_ASSERT_EQUAL(uncore_session_read(s), 0);
	ASSERT_NEAR(val(s, 0, 0), rd, 2);          /* not twice: counted once per socket */
	uint64_t core0 = 0, core1 = 0;
	CU_ASSERT(uncore_session_value(s, 1, 0, 0, &core0) == 0);
	CU_ASSERT(uncore_session_value(s, 1, 0, 1, &core1) == 0);
	ASSERT_NEAR(core0, rd / 2, 2);            /* core 0 never froze */
	double t_ov = 100000 / (rd / 2 * 0.9);     /* core 1 froze when its BRL reads reached the period */
	ASSERT_NEAR(core1, rd / 2 * t_ov, rd / 2 * t_ov * 0.001);
	int n = uncore_session_overflows(s, ov, 4); /* what the read's IVB-style walk found */
	CU_ASSERT_EQUAL(n, 2); /* core 1 of both sockets */
	CU_ASSERT(n >= 1 && ov[0].event == 3 && ov[0].box == 1);
	for (int i = 0; i < sim->nboxes; i++)
		CU_ASSERT_EQUAL(sim->boxes[i].box_ctl & 1, 0);
	uncore_session_free(s);
	assert_left_as_found(sim);

	/* seven bus events cannot share the six counters PMC4-9; CPU_OP_CYCLES can use PMC10-15 */
	static const char *const bus[] = { "BUS_ALL.SELF", "BUS_IO.SELF", "BUS_HITM.SELF", "BUS_MEMORY.ALL.SELF",
					    "BUS_RD_HIT.SELF", "BUS_WR_WB.ALL.SELF", "BUS_RD_DATA.SELF" };
	uncore_session_new(u, &s);
	for (int i = 0; i < 6; i++)
		CU_ASSERT(uncore_session_add(s, bus[i]) == i);
	CU_ASSERT(uncore_session_add(s, "CPU_OP_CYCLES") == 6);
	CU_ASSERT(uncore_session_add(s, bus[6]) < 0);
	CU_ASSERT(strstr(uncore_error(), "counter restrictions") != NULL);
	uncore_session_free(s);
	uncore_session_new(u, &s);
	CU_ASSERT(uncore_session_add(s, "BUS_ALL.SELF:edge") < 0); /* no edge bit in a PMC */
	CU_ASSERT(uncore_session_add(s, "BUS_ALL.SELF:thresh=8") < 0); /* 3-bit threshold */
	CU_ASSERT(uncore_session_add(s, "BUS_ALL.SELF:thresh=7:all=1") == 0);
	uncore_session_free(s);
	CU_ASSERT(strstr(uncore_platform_caveat(u), "simulator only") != NULL);
	uncore_close(u);
	/* a hardware backend refuses the platform outright: the direct backend never reports IA-64, so
	 * the refusal is checked through its message in uncore_open's code path by name */
	CU_ASSERT(platform_by_name("montecito")->sim_only);
}

/* Skylake-SP's box counts are the driver's, not the cores': the CHAs as many as CAPID6 (8086:2083 config
 * 0x9C, bits 27:0) has bits set (skx_count_chabox), read here from the simulated device itself; six IIO
 * stacks and IRPs whatever the cores (num_boxes 6); the PCI boxes each at its dev.fn on every socket. */
static void test_skx_box_counts(void)
{
	static const struct { const char *unit; int n; } fixed[] = { { "iio", 6 }, { "irp", 6 }, { "imc", 6 }, { "m2m", 2 },
								   { "upi", 3 }, { "m2pcie", 4 }, { "m3upi", 3 } };
	uncore_t *u = open_sim("sim:skx,cores=4");
	const struct sim *sim = sim_of(u->acc);
	int capid = -1;
	for (int d = 0; d < sim->ndevs; d++)
		if (sim->devs[d].info.device == 0x2083) {
			uint32_t v;
			memcpy(&v, sim->devs[d].cfg + 0x9c, 4);
			capid = __builtin_popcount(v & 0x0fffffffu);
		}
	CU_ASSERT_FATAL(capid > 4); /* more slices than cores */
	for (int sock = 0; sock < 2; sock++) {
		CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_named(u, "cha"), sock), capid);
		for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
			CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_named(u, fixed[i].unit), sock), fixed[i].n);
	}
	uncore_close(u);
}

/* Ice Lake-SP: the CHAs as many as CAPID6 and CAPID7 (8086:345B config 0x9C and 0xA0) have bits set together
 * (icx_count_chabox: hweight64), read here from the simulated device, whose bits span both dwords; the twelve
 * iMC channels where the memory controller's config registers (8086:3451, 0xD0 and 0xD8 + 4 c) place them.
 * A window the registers leave at 0 (as a BIOS that hides the controller does) or all ones places nothing:
 * the channels are left out with a warning, or the open fails, and no register at 0x22800 is ever touched. */
static void test_icx_box_counts(void)
{
	static const struct { const char *unit; int n; } fixed[] = { { "iio", 6 }, { "irp", 6 }, { "m2pcie", 6 }, { "imc", 12 },
								   { "m2m", 4 }, { "upi", 3 }, { "m3upi", 3 } };
	uncore_t *u = open_sim("sim:icx,cores=36");
	struct sim *sim = sim_of(u->acc);
	uint32_t lo = 0, hi = 0;
	struct sim_dev *mc = NULL;
	for (int d = 0; d < sim->ndevs; d++) {
		if (sim->devs[d].info.device == 0x345b) {
			memcpy(&lo, sim->devs[d].cfg + 0x9c, 4);
			memcpy(&hi, sim->devs[d].cfg + 0xa0, 4);
		}
		if (sim->devs[d].info.device == 0x3451 && !mc)
			mc = &sim->devs[d];
	}
	CU_ASSERT_FATAL(hi != 0 && lo != 0 && mc); /* both dwords hold CHAs */
	for (int sock = 0; sock < 2; sock++) {
		CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_named(u, "cha"), sock), __builtin_popcount(lo) + __builtin_popcount(hi));
		CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_named(u, "cha"), sock), 36);
		for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
			CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_named(u, fixed[i].unit), sock), fixed[i].n);
	}
	/* the first socket's controller registers cleared, then all ones: discovery again over the same machine */
	struct box *boxes = NULL;
	int n = 0, imc = 0;
	memset(mc->cfg + 0xd0, 0, 4);
	memset(mc->cfg + 0xd8, 0, 16);
	uc_clear_warnings();
	CU_ASSERT_FATAL(boxes_discover(u->acc, &u->host, u->plat, &boxes, &n) == 0);
	for (int i = 0; i < n; i++)
		imc += !strcmp(boxes[i].t->name, "imc");
	CU_ASSERT_EQUAL(imc, 12); /* the other socket's only */
	CU_ASSERT(strstr(uc_warnings(), "is not a plausible register address; skipped") != NULL);
	free(boxes);
	memset(mc->cfg + 0xd0, 0xff, 4);
	CU_ASSERT(boxes_discover(u->acc, &u->host, u->plat, &boxes, &n) < 0);
	CU_ASSERT(strstr(uncore_error(), "read all-ones") != NULL);
	uncore_close(u);
}

/* Ice Lake-SP: the PCU 8086:345B (CAPID6/7, the CHA count) sits on the bus above its socket's UBox 8086:3450,
 * as on a real part (linuxhw/LsPCI 28198bc06e2e, Lenovo SR630 V2: UBox fe:00.0, PCU ff:1e.3), a bus the
 * backward-filled UBox map gives the next socket or none.  Each socket's CHAs are those of its own PCU
 * (icx_count_chabox reads the 345B wherever it is): one socket's CAPIDs set to 16 CHAs (CAPID6 0xffff, the
 * SR630 V2's 16-core part) changes that socket alone, with one socket and with two. */
static void test_icx_pcu_above_ubox(void)
{
	static const char *const specs[] = { "sim:icx,cores=36,sockets=1", "sim:icx,cores=36,sockets=2" };
	for (int k = 0; k < 2; k++) {
		uncore_t *u = open_sim(specs[k]);
		struct sim *sim = sim_of(u->acc);
		struct sim_dev *top = NULL;
		int nsock = k + 1, pcus = 0;
		for (int d = 0; d < sim->ndevs; d++) {
			struct sim_dev *dv = &sim->devs[d];
			if (dv->info.device != 0x345b)
				continue;
			pcus++;
			CU_ASSERT(dv->info.loc.dev == 30 && dv->info.loc.fn == 3);
			int ubox_below = 0; /* the UBox at 00.0 of the bus below */
			for (int e = 0; e < sim->ndevs; e++)
				ubox_below |= sim->devs[e].info.device == 0x3450 && sim->devs[e].info.loc.bus + 1 == dv->info.loc.bus &&
					      sim->devs[e].info.loc.dev == 0 && sim->devs[e].info.loc.fn == 0;
			CU_ASSERT(ubox_below);
			if (!top || dv->info.loc.bus > top->info.loc.bus)
				top = dv;
		}
		CU_ASSERT_FATAL(pcus == nsock && top);
		for (int sock = 0; sock < nsock; sock++)
			CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_named(u, "cha"), sock), 36);
		/* the highest bus's PCU (no UBox above it: the map gives its bus no socket) with 16 CHAs */
		uint32_t lo = 0xffff, hi = 0;
		memcpy(top->cfg + 0x9c, &lo, 4);
		memcpy(top->cfg + 0xa0, &hi, 4);
		struct box *boxes = NULL;
		int n = 0, per[2] = { 0, 0 };
		CU_ASSERT_FATAL(boxes_discover(u->acc, &u->host, u->plat, &boxes, &n) == 0);
		for (int i = 0; i < n; i++)
			if (!strcmp(boxes[i].t->name, "cha") && boxes[i].socket < 2)
				per[boxes[i].socket]++;
		if (nsock == 1) {
			CU_ASSERT_EQUAL(per[0], 16);
		} else {
			CU_ASSERT((per[0] == 16 && per[1] == 36) || (per[0] == 36 && per[1] == 16));
		}
		free(boxes);
		uncore_close(u);
	}
}

/* One core a socket on SPR and EMR: one CHA (UNC_CBO_CONFIG, MSR 0x2ffe, says the cores' count: Linux
 * spr_uncore_cpu_init), so MSR 0x201e is no CHA's filter and is answered as the read-only 0 of a probed discovery
 * MSR -- with 0x2ffe, 0x710 and the uncore ratio limit and status, five: the machine did not open ("too many
 * read-only MSRs").  A memory count goes on as with more cores. */
static void test_one_core(void)
{
	static const char *const specs[] = { "sim:spr,cores=1", "sim:emr,cores=1" };
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		uncore_t *u = open_sim(specs[i]);
		for (int sock = 0; sock < 2; sock++)
			CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_named(u, "cha"), sock), 1);
		uint64_t v = 1;
		CU_ASSERT_EQUAL(access_msr_read(u->acc, 0, 0x201e, &v), 0);
		CU_ASSERT_EQUAL(v, 0);
		uncore_close(u);
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "IVB-EP: sample=N overflows after N and freezes the socket; walk, re-arm, resume", test_ivbep_sampling },
		{ "IVB-EP: several counters overflowing at once are all reported", test_ivbep_several_overflow },
		{ "IVB-EP: frz_all and unfrz_all stop and resume a whole socket", test_ivbep_global_freeze },
		{ "sampling refused where no status register exists", test_sampling_refused },
		{ "EMR: sample=N through the discovery Global Status Position; frz_all = 0 resumes", test_emr_sampling },
		{ "IVB-EP: unaligned IRP counters, CBo opcode filter in FILTER1", test_ivbep_irregular_registers },
		{ "Nehalem-EP: global control, fixed clock, one-at-a-time MSRs", test_nhm },
		{ "Montecito: PMC4-9 restriction, socket-wide events, PMC0 overflow", test_montecito },
		{ "Skylake-SP: CHAs from CAPID6, six IIO stacks on four cores, PCI boxes by dev.fn", test_skx_box_counts },
		{ "Ice Lake-SP: CHAs from CAPID6+CAPID7, iMC windows from 0x3451, implausible ones left out", test_icx_box_counts },
		{ "Ice Lake-SP: each socket's CHAs from its PCU on the bus above its UBox (SR630 V2: fe, ff)", test_icx_pcu_above_ubox },
		{ "SPR, EMR with one core: one CHA, MSR 0x201e the read-only 0 of a discovery probe", test_one_core },
		{ NULL, NULL },
	};
	return run_suite("platforms", tests);
}
