/*
 * Emerald Rapids through its discovery tables, on the simulator: every unit is
 * found per socket; counts equal the profile's truth; the register protocol is
 * kept; corrupted entries are named and skipped; the generic platform counts
 * events loaded from a perfmon JSON file.  Also its sibling Sapphire Rapids (sim:spr), whose
 * tables list more CHAs than there are.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "sim_helpers.h"
#include "sim_truth.h"

#define FIXTURES SRCDIR "/tests/fixtures/"

static int unit_idx(uncore_t *u, const char *name)
{
	for (int i = 0; i < uncore_num_units(u); i++) {
		struct uncore_unit_info ui;
		uncore_unit_info(u, i, &ui);
		if (!strcmp(ui.name, name))
			return i;
	}
	return -1;
}


static void test_units_per_socket(void)
{
	static const struct { const char *name; int s0, s1, ctrs; const char *space; } want[] = {
		/* iio, irp, m2pcie: IIO PMUs 0-9 of the board sim:emr is laid out as (platforms/emr/board.c, SPR's XCC) */
		{ "cha", 60, 60, 4, "msr" }, { "iio", 10, 10, 4, "msr" },   { "irp", 10, 10, 2, "msr" },
		{ "m2pcie", 10, 10, 4, "msr" }, { "pcu", 1, 1, 4, "msr" },   { "ubox", 1, 1, 2, "msr" },
		{ "imc", 8, 8, 4, "mmio" },  { "m2m", 4, 4, 4, "pci" },   { "upi", 4, 4, 4, "pci" },
		{ "m3upi", 4, 4, 4, "pci" }, { "mdf", 4, 4, 4, "msr" },   { "cxlcm", 1, 0, 8, "mmio" },
		{ "cxldp", 1, 0, 4, "mmio" },
	};
	uncore_t *u = open_sim("sim:emr");
	char loc[96];
	CU_ASSERT_STRING_EQUAL(uncore_platform_name(u), "emr");
	CU_ASSERT_STRING_EQUAL(uncore_warnings(), ""); /* the broken third UPI entry is replaced silently */
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		int t = unit_idx(u, want[k].name);
		struct uncore_unit_info ui;
		CU_ASSERT_FATAL(t >= 0);
		uncore_unit_info(u, t, &ui);
		CU_ASSERT_EQUAL(uncore_unit_boxes(u, t, 0), want[k].s0);
		CU_ASSERT_EQUAL(uncore_unit_boxes(u, t, 1), want[k].s1);
		CU_ASSERT_EQUAL(ui.counters, want[k].ctrs);
		CU_ASSERT_STRING_EQUAL(ui.space, want[k].space);
	}
	/* addresses from the tables: CHA 59 at 0x2000 + 0x10 * 59; socket 0 is bus 0xfe, socket 1 bus 0x7e;
	 * IMC channel 1 of controller 0 at MEM0 + 0x2A800 as the 0x3251 registers give it */
	CU_ASSERT(uncore_box_location(u, unit_idx(u, "cha"), 1, 59, loc, sizeof(loc)) == 0);
	CU_ASSERT_STRING_EQUAL(loc, "msr 0x23b0 cpu 60");
	uncore_box_location(u, unit_idx(u, "m2m"), 1, 2, loc, sizeof(loc));
	CU_ASSERT_STRING_EQUAL(loc, "pci 0000:7e:0e.0+0x438");
	uncore_box_location(u, unit_idx(u, "upi"), 0, 2, loc, sizeof(loc));
	CU_ASSERT_STRING_EQUAL(loc, "pci 0000:fe:03.1+0x318");
	uncore_box_location(u, unit_idx(u, "imc"), 0, 1, loc, sizeof(loc));
	CU_ASSERT_STRING_EQUAL(loc, "mmio 0xc82aa800");
	uncore_close(u);
}

/* Linux 38776cc4 (spr_uncore_cpu_init): on some SPR parts the discovery table lists more CHAs than
 * exist, and MSR 0x2FFE (SPR_MSR_UNC_CBO_CONFIG) holds the real count.  sim:spr is such a part: 56
 * CHAs (its kind's core count), 60 CHA entries in each table, MSR 0x2FFE = 56.  The four extra
 * entries must not become boxes (nothing answers at 0x23C0..0x23F0), nor warnings. */
static void test_spr_cha_count(void)
{
	uncore_t *u = open_sim("sim:spr");
	struct sim *sim = sim_of(u->acc);
	int t = unit_idx(u, "cha"), extra = 0;
	char loc[96];
	CU_ASSERT_STRING_EQUAL(uncore_platform_name(u), "spr");
	CU_ASSERT_STRING_EQUAL(uncore_warnings(), "");
	for (int i = 0; i < sim->nboxes; i++) /* the simulator's own CHAs: the truth */
		extra += !strcmp(sim->boxes[i].u->name, "cha") && sim->boxes[i].socket == 0;
	CU_ASSERT_EQUAL(extra, 56);
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, t, 0), 56);
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, t, 1), 56);
	CU_ASSERT(uncore_box_location(u, t, 1, 55, loc, sizeof(loc)) == 0);
	CU_ASSERT_STRING_EQUAL(loc, "msr 0x2370 cpu 56");
	CU_ASSERT(uncore_box_location(u, t, 0, 56, loc, sizeof(loc)) != 0);
	uncore_close(u);
}

/* Truth from the default profile (sim_profile_defaults). */
static void test_truth(void)
{
	uncore_t *u = open_sim("sim:emr,clock=manual");
	const struct sim_profile *p = &sim_of(u->acc)->prof;
	uncore_session_t *s;
	const double T = 3.0;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	int rd = uncore_session_add(s, "UNC_M_CAS_COUNT.RD");
	int wr = uncore_session_add(s, "UNC_M_CAS_COUNT.WR");
	int tor = uncore_session_add(s, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD");
	int torh = uncore_session_add(s, "UNC_CHA_TOR_INSERTS.IA_HIT");
	int tx = uncore_session_add(s, "UNC_UPI_TxL_FLITS.ALL_DATA");
	int rx = uncore_session_add(s, "UNC_UPI_RxL_FLITS.ALL_DATA");
	int bin = uncore_session_add(s, "UNC_IIO_BANDWIDTH_IN.PART0_FREERUN");
	int bout = uncore_session_add(s, "UNC_IIO_BANDWIDTH_OUT.PART0_FREERUN");
	int dclk = uncore_session_add(s, "UNC_M_FIXED_DCLK");
	int frd = uncore_session_add(s, "UNC_M_DCLK_FREERUN");
	/* the misses by the memory they go to (Intel's perfmon, EMR: IA_MISS_DRD_DDR umask_ext 0xc81786, _CXL_ACC
	 * 0x10c81782, bit 28): the profile's all to DDR, none to CXL memory (PCM 202502 reads its CXL memory reads so) */
	int ddr = uncore_session_add(s, "cha/event=0x35,umask=0x1,umask_ext=0xc81786/");
	int cxl = uncore_session_add(s, "cha/event=0x35,umask=0x1,umask_ext=0x10c81782/");
	CU_ASSERT_FATAL(rd >= 0 && wr >= 0 && tor >= 0 && torh >= 0 && tx >= 0 && rx >= 0 && bin >= 0 && bout >= 0 &&
			dclk >= 0 && frd >= 0 && ddr >= 0 && cxl >= 0);
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, (uint64_t)(T * 1e9));
	CU_ASSERT(uncore_session_read(s) == 0);
	for (int sock = 0; sock < 2; sock++) {
		double lookups = p->llc_lookups[sock] * T, miss = p->llc_miss_ratio[sock];
		ASSERT_NEAR(val(s, rd, sock), p->mem_read_bps[sock] * T / 64, 8);
		ASSERT_NEAR(val(s, wr, sock), p->mem_write_bps[sock] * T / 64, 8);
		ASSERT_NEAR(val(s, tor, sock), lookups * miss, 60); /* one count of rounding per CHA */
		ASSERT_NEAR(val(s, torh, sock), lookups * (1 - miss), 60);
		ASSERT_NEAR(val(s, ddr, sock), lookups * miss, 60);
		CU_ASSERT_EQUAL(val(s, cxl, sock), 0);
		ASSERT_NEAR(val(s, tx, sock) * 64.0 / 9, p->qpi_tx_bps[sock] * T, 64);
		ASSERT_NEAR(val(s, rx, sock) * 64.0 / 9, p->qpi_rx_bps[sock] * T, 64);
		/* port 0's share of the stacks' traffic (the profile's iio_port<N>_share) */
		ASSERT_NEAR(val(s, bin, sock) * 32.0, truth_of(sim_of(u->acc), "iio_bw_write_port0", sock).v * 1e9 * T, 32 * 6);
		ASSERT_NEAR(val(s, bout, sock) * 32.0, truth_of(sim_of(u->acc), "iio_bw_read_port0", sock).v * 1e9 * T, 32 * 6);
		ASSERT_NEAR(val(s, dclk, sock), p->dram_hz * T * 8, 8);   /* 8 channels */
		ASSERT_NEAR(val(s, frd, sock), p->dram_hz * T * 4, 4);    /* 4 controllers */
		CU_ASSERT_EQUAL(uncore_session_event_boxes(s, frd, sock), 4);
	}
	uncore_session_free(s);
	uncore_close(u);
}

/* SPR's IMC clocks, which Intel's SPR files do not list (platforms/spr/driver_events.json): each channel's
 * fixed DCLK counter and each controller's free-running DCLK and queue-cycle counters count the profile's
 * DCLK (queues busy 50 % and 25 % of it in the model), on the registers and through the simulated kernel;
 * with the DCLK on the fixed counter, dram_freq fits beside four queue events on every general counter of
 * a channel, and the read latency counts both pseudo-channels on those. */
static void test_spr_imc_clocks(void)
{
	static const char *const backends[] = { "sim:spr,clock=manual", "perf+sim:spr,clock=manual" };
	static const char *const names[] = { "UNC_M_FIXED_DCLK", "UNC_M_DCLK_FREERUN", "UNC_M_RPQ_CYCLES_NE_FREERUN",
					     "UNC_M_WPQ_CYCLES_NE_FREERUN" };
	static const char *const queues[] = { "UNC_M_RPQ_OCCUPANCY_PCH0", "UNC_M_RPQ_OCCUPANCY_PCH1",
					      "UNC_M_RPQ_INSERTS.PCH0", "UNC_M_RPQ_INSERTS.PCH1" };
	static const double busy[] = { 1, 1, 0.5, 0.25 };
	const double T = 2.0;
	for (int b = 0; b < 2; b++) {
		uncore_t *u = open_sim(backends[b]);
		struct sim *sim = sim_of(u->acc);
		const struct sim_profile *p = &sim->prof;
		uncore_session_t *s;
		int ev[4], freq, lat;
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		for (int i = 0; i < 4; i++)
			CU_ASSERT_FATAL((ev[i] = uncore_session_add(s, names[i])) >= 0);
		for (int i = 0; i < 4; i++) /* every general counter of each channel taken */
			CU_ASSERT_FATAL(uncore_session_add(s, queues[i]) >= 0);
		CU_ASSERT_FATAL((freq = uncore_session_add_metric(s, "dram_freq")) >= 0);
		CU_ASSERT_FATAL((lat = uncore_session_add_metric(s, "mem_read_latency_ns")) >= 0);
		CU_ASSERT_FATAL(uncore_session_start(s) == 0);
		uncore_sleep_ns(u, (uint64_t)(T * 1e9));
		CU_ASSERT(uncore_session_read(s) == 0);
		for (int sock = 0; sock < 2; sock++) {
			int channels = 0, controllers = 0; /* the simulator's own boxes: the truth */
			double v;
			for (int i = 0; i < sim->nboxes; i++)
				if (!strcmp(sim->boxes[i].u->name, "imc") && sim->boxes[i].socket == sock) {
					channels++;
					controllers += sim->boxes[i].nfr > 0;
				}
			CU_ASSERT(channels == 8 && controllers == 4);
			ASSERT_NEAR(val(s, ev[0], sock), p->dram_hz * T * channels, channels);
			CU_ASSERT_EQUAL(uncore_session_event_boxes(s, ev[1], sock), controllers);
			for (int i = 1; i < 4; i++)
				ASSERT_NEAR(val(s, ev[i], sock), p->dram_hz * busy[i] * T * controllers, controllers);
			CU_ASSERT(uncore_session_metric_value(s, freq, sock, -1, UNCORE_SINCE_START, &v) == 0);
			ASSERT_NEAR(v, p->dram_hz * 1e-9, 1e-6);
			CU_ASSERT(uncore_session_metric_value(s, lat, sock, -1, UNCORE_SINCE_START, &v) == 0);
			ASSERT_NEAR(v, p->mem_read_lat_ns[sock], 0.01);
		}
		for (int e = 0; e < uncore_session_num_events(s); e++) { /* the kernel took every event at once */
			uint64_t en = 0, run = 0;
			CU_ASSERT(uncore_session_times(s, e, -1, -1, &en, &run) == 0 && en == run && en > 0);
		}
		close_checked(u, s, sim);
	}
}

/* Freeze, program, reset, unfreeze; nothing outside PMON; everything restored. */
static void test_protocol(void)
{
	uncore_t *u = open_sim("sim:emr,clock=manual");
	struct sim *sim = sim_of(u->acc);
	uncore_session_t *s;
	uint64_t m2m_ctl = 0;
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT(uncore_session_add(s, "UNC_CHA_TOR_INSERTS.IA:tid=0x9:box=3") >= 0);
	CU_ASSERT(uncore_session_add(s, "UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART0") >= 0);
	CU_ASSERT(uncore_session_add(s, "UNC_IIO_DATA_REQ_OF_CPU.MEM_READ.PART0:ch_mask=0xff") >= 0);
	CU_ASSERT(uncore_session_add(s, "UNC_M_CAS_COUNT.ALL") >= 0);
	CU_ASSERT(uncore_session_add(s, "UNC_M2M_DISTRESS_ASSERTED.VERT") >= 0);
	CU_ASSERT(uncore_session_add(s, "UNC_UPI_RxL_BASIC_HDR_MATCH.REQ_OPC") >= 0);
	CU_ASSERT(uncore_session_add(s, "UNC_P_CLOCKTICKS") >= 0);
	CU_ASSERT(uncore_session_add(s, "UNC_U_UCLK") >= 0);
	CU_ASSERT(uncore_session_add(s, "UNC_IIO_CLOCKTICKS_FREERUN") >= 0);
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	for (int i = 0; i < sim->nboxes; i++) {
		const struct sim_box *b = &sim->boxes[i];
		if (!strcmp(b->u->name, "m2m") && b->socket == 0 && b->idx == 0)
			m2m_ctl = b->ctl[0];
		if (!strcmp(b->u->name, "cha") && b->socket == 0 && b->idx == 3) {
			CU_ASSERT_EQUAL(b->filt[0], 0x9);                    /* FILTER0.tid */
			CU_ASSERT(b->ctl[0] & (1ull << 16));                 /* tid_en */
			CU_ASSERT_EQUAL(b->ctl[0] >> 32, 0xc001ffu);         /* umask_ext of TOR_INSERTS.IA */
		}
	}
	CU_ASSERT_EQUAL(m2m_ctl, 0x00800000000001afull); /* the mesh bit 55 reached the upper dword */
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT(uncore_session_stop(s) == 0);
	uncore_session_free(s);
	assert_left_as_found(sim);
	uncore_close(u);
}

static void test_corrupt_entries(void)
{
	uncore_t *u = open_sim("sim:emr,clock=manual,fault=corrupt:cha:5,fault=badaddr:iio:2,fault=badaddr:m2m:1,"
			       "fault=badaddr:imc:3,fault=dupid:irp:3,fault=badwidth:mdf:1,fault=nctr:pcu:0");
	const char *w = uncore_warnings();
	uncore_session_t *s;
	const struct sim_profile *p = &sim_of(u->acc)->prof;
	CU_ASSERT(strstr(w, "socket 0, entry 5 (cha unit 5): the entry reads all ones") != NULL);
	CU_ASSERT(strstr(w, "(iio unit 2): MSR 0x1234..") != NULL);
	CU_ASSERT(strstr(w, "(m2m unit 1): PCI device 0000:01:1f.0 does not exist") != NULL);
	CU_ASSERT(strstr(w, "(imc unit 3): MMIO address 0x3 is not a plausible register address") != NULL);
	CU_ASSERT(strstr(w, "socket 1, entry 70: irp unit 2 appears twice; the second is left out") != NULL);
	CU_ASSERT(strstr(w, "(mdf unit 1): counter width 200 bits (16..64 expected)") != NULL);
	CU_ASSERT(strstr(w, "(pcu unit 0): 0 counters (1..12 expected)") != NULL);
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_idx(u, "irp"), 1), 9);
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_idx(u, "mdf"), 0), 3);
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_idx(u, "pcu"), 1), 0);
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_idx(u, "cha"), 0), 59);
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_idx(u, "iio"), 1), 9);
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_idx(u, "m2m"), 0), 3);
	CU_ASSERT(uncore_session_new(u, &s) == 0);
	CU_ASSERT(uncore_session_add(s, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD:box=5") < 0);
	CU_ASSERT(strstr(uncore_error(), "no cha box 5") != NULL);
	int tor = uncore_session_add(s, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD");
	int rd = uncore_session_add(s, "UNC_M_CAS_COUNT.RD:box=2");
	int bin = uncore_session_add(s, "UNC_IIO_BANDWIDTH_IN.PART0_FREERUN:socket=1");
	int irp = uncore_session_add(s, "UNC_I_CLOCKTICKS:box=2");
	CU_ASSERT(uncore_session_add(s, "UNC_I_CLOCKTICKS:box=3") < 0);
	CU_ASSERT(uncore_session_add(s, "UNC_P_CLOCKTICKS") < 0);
	CU_ASSERT_FATAL(tor >= 0 && rd >= 0 && bin >= 0 && irp >= 0);
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 2000000000);
	CU_ASSERT(uncore_session_read(s) == 0);
	ASSERT_NEAR(val(s, tor, 0), p->llc_lookups[0] * 2 * p->llc_miss_ratio[0] * 59 / 60, 60);
	ASSERT_NEAR(val(s, rd, 0), p->mem_read_bps[0] * 2 / 64 / 8, 2);
	struct truth t = truth_of(sim_of(u->acc), "iio_bw_write_port0", 1); /* the stacks but iio 2's */
	ASSERT_NEAR(val(s, bin, 1) * 32.0, (t.v - truth_box(t, 2, 6)) * 1e9 * 2, 32 * 6);
	ASSERT_NEAR(val(s, irp, 1), p->uncore_hz * 2, 1); /* the unit whose id was copied still counts */
	uncore_session_free(s);
	uncore_close(u);
}

static void test_generic_with_json(void)
{
	uncore_t *u = open_sim("sim:generic,clock=manual");
	const struct sim_profile *p = &sim_of(u->acc)->prof;
	uncore_session_t *s;
	CU_ASSERT_STRING_EQUAL(uncore_platform_name(u), "generic");
	CU_ASSERT(strstr(uncore_platform_desc(u), "model 0xee") != NULL);
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_idx(u, "type0"), 0), 4);
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_idx(u, "type6"), 1), 2);
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_idx(u, "type7"), 0), 1);
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, unit_idx(u, "type21"), 0), 1);
	/* built in: the events of the newest server P-core discovery platform (gnr, not the E-core srf or cwf),
	 * on the units of the same type: GNR's CHA (type 0) and IMC (type 6) events but the fixed counter's, which a
	 * generic unit lacks; GNR has no type 7 or 21 events */
	const struct platform_desc *gnr = platform_by_name("gnr");
	int n = uncore_num_events(u), k = uncore_event_find(u, "UNC_CHA_TOR_INSERTS.IA_MISS"), want = 0;
	for (int i = 0; i < gnr->events->n; i++) {
		struct uc_event e;
		uc_catalog_event(gnr->events, i, &e);
		want += (!strcmp(e.unit, "cha") || !strcmp(e.unit, "imc")) && !(e.flags & UC_EV_FIXED);
	}
	CU_ASSERT(want > 400);
	CU_ASSERT_EQUAL(n, want);
	CU_ASSERT(uncore_event_find(u, "UNC_M_CAS_COUNT_SCH0.RD") >= 0); /* GNR's name, not EMR's */
	CU_ASSERT_FATAL(k >= 0);
	CU_ASSERT_STRING_EQUAL(u->events[k].unit, "type0");
	CU_ASSERT(strstr(uncore_platform_caveat(u), "events of gnr, the newest built-in server P-core platform") != NULL);
	CU_ASSERT_EQUAL(uncore_load_events(u, FIXTURES "generic_events.json"), 3);
	CU_ASSERT(strstr(uncore_warnings(), "NOSUCH") != NULL);
	CU_ASSERT(uncore_event_find(u, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD") >= 0);
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	int clk = uncore_session_add(s, "UNC_CHA_CLOCKTICKS");
	int raw = uncore_session_add(s, "type0/event=0x1/");
	int rd = uncore_session_add(s, "UNC_M_CAS_COUNT.RD");
	int tor = uncore_session_add(s, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD:socket=1");
	int unk = uncore_session_add(s, "type21/event=0x1/");
	CU_ASSERT_FATAL(clk >= 0 && raw >= 0 && rd >= 0 && tor >= 0 && unk >= 0);
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 2000000000);
	CU_ASSERT(uncore_session_read(s) == 0);
	ASSERT_NEAR(val(s, clk, 0), p->uncore_hz * 2 * 4, 4);
	CU_ASSERT_EQUAL(val(s, raw, 0), val(s, clk, 0));
	/* every read of the socket, over the 2 channels it has (not an 8-channel share of it) */
	CU_ASSERT_EQUAL(uncore_session_event_boxes(s, rd, 1), 2);
	ASSERT_NEAR(val(s, rd, 1), p->mem_read_bps[1] * 2 / 64, 2);
	ASSERT_NEAR(val(s, tor, 1), p->llc_lookups[1] * 2 * p->llc_miss_ratio[1], 4);
	ASSERT_NEAR(val(s, unk, 0), p->uncore_hz * 2, 1);
	uncore_session_free(s);
	uncore_close(u);
}

static void test_json_errors_and_override(void)
{
	uncore_t *u = open_sim("sim:emr");
	CU_ASSERT(uncore_load_events(u, FIXTURES "bad_syntax.json") < 0);
	CU_ASSERT(strstr(uncore_error(), "bad_syntax.json:3:") != NULL);
	CU_ASSERT(uncore_load_events(u, FIXTURES "bad_field.json") < 0);
	CU_ASSERT(strstr(uncore_error(), "bad_field.json:3: event UNC_CHA_BAD_CODE: field \"EventCode\"") != NULL);
	CU_ASSERT(uncore_load_events(u, FIXTURES "no_such_file.json") < 0);
	CU_ASSERT_STRING_EQUAL(uncore_error(), "cannot open " FIXTURES "no_such_file.json: No such file or directory");
	CU_ASSERT(uncore_load_events(u, FIXTURES) < 0);
	CU_ASSERT_STRING_EQUAL(uncore_error(), "cannot open " FIXTURES ": Is a directory");
	uncore_close(u);
	/* UNCORE_EVENTS at open: a built-in event is replaced, others stay */
	setenv("UNCORE_EVENTS", FIXTURES "generic_events.json", 1);
	u = open_sim("sim:emr");
	unsetenv("UNCORE_EVENTS");
	int i = uncore_event_find(u, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD");
	struct uncore_event_info ei;
	CU_ASSERT_FATAL(i >= 0);
	uncore_event_info(u, i, &ei);
	CU_ASSERT_STRING_EQUAL(ei.desc, "TOR inserts of core data reads that miss");
	CU_ASSERT_EQUAL(ei.umask_ext, 0xc817feu);
	CU_ASSERT(uncore_num_events(u) == platform_by_name("emr")->events->n);
	uncore_close(u);
}

/* 64-bit counters (discovery allows widths up to 64): sampling preloads 2^64 - N without shifting by 64. */
static void test_64bit_counters(void)
{
	uncore_t *u = open_sim("sim:emr,clock=manual,fault=width64:cha:2");
	const struct box *b = box_named(u, "cha", 0, 2);
	CU_ASSERT_FATAL(b != NULL);
	CU_ASSERT_EQUAL(b->r.width, 64);
	static const char *const specs[] = { "UNC_CHA_CLOCKTICKS:socket=0:box=2:sample=1000000" };
	uncore_session_t *s = start_session(u, specs, 1);
	uint64_t v = 0;
	struct access *a = u->acc;
	CU_ASSERT(a->ops->msr_read(a, b->cpu, (uint32_t)box_ctr_addr(b, 0), &v) == 0);
	CU_ASSERT_EQUAL(v, 0 - 1000000ull); /* 2^64 - N */
	finish(u, s);
}

/* The IMC config registers place IMC 1 a page away from its discovery entries: the table is the hardware's
 * word, so the channels keep the table's address (nothing is written at the computed one), a warning says
 * so, and that IMC's free-running counters, whose base only the config registers give, are left out. */
static void test_imc_base_disagrees(void)
{
	uncore_t *u = open_sim("sim:emr,clock=manual,fault=imcbase:imc:2");
	struct sim *sim = sim_of(u->acc);
	const struct sim_profile *p = &sim->prof;
	const char *w = uncore_warnings();
	uncore_session_t *s;
	const double T = 2.0;
	CU_ASSERT(strstr(w, "socket 0: imc unit 2 is at 0xc8322800, but the IMC config registers place it at "
			    "0xc8323800; keeping the table's address, without the IMC's free-running counters") != NULL);
	CU_ASSERT(strstr(w, "socket 1: imc unit 2 is at 0xc9322800") != NULL);
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	int rd = uncore_session_add(s, "UNC_M_CAS_COUNT.RD:box=2");
	int frd = uncore_session_add(s, "UNC_M_DCLK_FREERUN");
	CU_ASSERT_FATAL(rd >= 0 && frd >= 0);
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, (uint64_t)(T * 1e9));
	CU_ASSERT(uncore_session_read(s) == 0);
	for (int sock = 0; sock < 2; sock++) {
		ASSERT_NEAR(val(s, rd, sock), p->mem_read_bps[sock] * T / 64 / 8, 2);
		CU_ASSERT_EQUAL(uncore_session_event_boxes(s, frd, sock), 3);
		ASSERT_NEAR(val(s, frd, sock), p->dram_hz * T * 3, 3);
	}
	CU_ASSERT(uncore_session_stop(s) == 0);
	uncore_session_free(s);
	CU_ASSERT_EQUAL(sim->bad_accesses, 0);
	assert_left_as_found(sim);
	uncore_close(u);
}

/* Every unit's discovery entry broken: the open fails naming why, rather than "succeeding" with no box. */
static void test_no_unit_left(void)
{
	uncore_t *u = NULL;
	CU_ASSERT_EQUAL(uncore_open("sim:generic,fault=corrupt:cha,fault=corrupt:type21,fault=corrupt:imc,"
				    "fault=corrupt:m2m", &u), -1);
	CU_ASSERT(u == NULL);
	CU_ASSERT(strstr(uncore_error(), "no usable uncore unit was found") != NULL);
	CU_ASSERT(strstr(uncore_error(), "the entry reads all ones") != NULL);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "every unit found through discovery, per socket", test_units_per_socket },
		{ "SPR: the CHA count is MSR 0x2FFE's where the table lists more", test_spr_cha_count },
		{ "CAS, TOR, UPI flits, IIO free-running equal the truth", test_truth },
		{ "SPR: IMC fixed and free-running clocks equal the truth (sim: and perf+sim:)", test_spr_imc_clocks },
		{ "register protocol and restore", test_protocol },
		{ "corrupt discovery entries are named and skipped", test_corrupt_entries },
		{ "generic platform counts events from a JSON file", test_generic_with_json },
		{ "JSON errors name file, line and field; overrides", test_json_errors_and_override },
		{ "no unit left: the open fails with the reason", test_no_unit_left },
		{ "IMC config registers disagree with discovery: the table wins", test_imc_base_disagrees },
		{ "64-bit counters sample without an overflowing shift", test_64bit_counters },
		{ NULL, NULL },
	};
	return run_suite("emr", tests);
}
