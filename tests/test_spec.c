/* Event specs: encodings match the seed's worked examples; bad specs are refused by name. */
#include <math.h>
#include <string.h>
#include "harness.h"
#include "open/uncore_priv.h"
#include "events/perf_spell.h"

static uncore_t *u;

static void expect_ctl(const char *spec, uint64_t ctl)
{
	struct encoded e;
	int rc = spec_parse(u, spec, &e);
	if (rc)
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	if (e.ctl != ctl)
		fprintf(stderr, "%s: ctl 0x%llx, want 0x%llx\n", spec, (unsigned long long)e.ctl, (unsigned long long)ctl);
	CU_ASSERT_EQUAL(e.ctl, ctl);
}

static void expect_refused(const char *spec, const char *words)
{
	struct encoded e;
	CU_ASSERT(spec_parse(u, spec, &e) < 0);
	if (!strstr(uncore_error(), words))
		fprintf(stderr, "%s: message '%s' lacks '%s'\n", spec, uncore_error(), words);
	CU_ASSERT(strstr(uncore_error(), words) != NULL);
}

/* Worked encodings, derived by hand from seed 000's control-register tables (event, umask, enable and
 * filter fields); the expected words below are the whole of the reference. */
static void test_encodings(void)
{
	struct encoded e;
	expect_ctl("UNC_M_CAS_COUNT.RD", 0x00400304);
	expect_ctl("UNC_M_CAS_COUNT.WR", 0x00400c04);
	expect_ctl("UNC_C_LLC_VICTIMS.M_STATE", 0x00400137);
	expect_ctl("UNC_H_REQUESTS.READS", 0x00400301);
	expect_ctl("UNC_Q_RxL_CREDITS_CONSUMED_VN0.DRS", 0x0060011e);
	expect_ctl("UNC_Q_RxL_FLITS_G1.DRS_DATA", 0x00600802);
	expect_ctl("UNC_P_POWER_STATE_OCCUPANCY.CORES_C0", 0x00404080);
	expect_ctl("UNC_P_FREQ_MAX_LIMIT_THERMAL_CYCLES:edge", 0x01440004);
	expect_ctl("UNC_M_POWER_CKE_CYCLES.RANK0:inv:thresh=1", 0x01c00183);
	expect_ctl("UNC_Q_L1_POWER_CYCLES:edge:thresh=1", 0x01440012);
	expect_ctl("imc/event=0x4,umask=0x3/", 0x00400304);
	expect_ctl("UNC_C_TxR_INSERTS.AD_CORE:tid=3", 0x00481002);
	/* filters: LLC_LOOKUP defaults to any state; misses with state=I (notes 6.4 CBo 1) */
	CU_ASSERT(spec_parse(u, "UNC_C_LLC_LOOKUP.DATA_READ", &e) == 0);
	CU_ASSERT_EQUAL(e.ctl, 0x00400334);
	CU_ASSERT_EQUAL(e.fval[0], 0x007c0000);
	CU_ASSERT(spec_parse(u, "UNC_C_LLC_LOOKUP.DATA_READ:state=1", &e) == 0);
	CU_ASSERT_EQUAL(e.fval[0], 0x00040000);
	CU_ASSERT(spec_parse(u, "UNC_C_TOR_INSERTS.MISS_OPCODE:opc=0x182", &e) == 0);
	CU_ASSERT_EQUAL(e.ctl, 0x00400335);
	CU_ASSERT_EQUAL(e.fval[0], 0xc1000000);
	CU_ASSERT(spec_parse(u, "UNC_P_FREQ_BAND0_CYCLES:band=0x14", &e) == 0);
	CU_ASSERT_EQUAL(e.fval[0], 0x14);
	CU_ASSERT(spec_parse(u, "UNC_P_FREQ_BAND2_CYCLES:band=32", &e) == 0);
	CU_ASSERT_EQUAL(e.fval[0], 32u << 16);
	CU_ASSERT(spec_parse(u, "UNC_Q_CTO_COUNT:match0=0x1c00:mask0=0x1f80", &e) == 0);
	CU_ASSERT_EQUAL(e.ctl, 0x00600038);
	CU_ASSERT_EQUAL(e.fval[0], 0x1c00);
	CU_ASSERT_EQUAL(e.fval[2], 0x1f80);
	CU_ASSERT(spec_parse(u, "UNC_M_CLOCKTICKS", &e) == 0 && e.fixed);
	CU_ASSERT(spec_parse(u, "unc_m_cas_count.rd:socket=1:box=3", &e) == 0);
	CU_ASSERT(e.socket == 1 && e.box == 3);
}

static void test_refusals(void)
{
	expect_refused("", "empty event name");
	expect_refused("UNC_M_CAS_COUNT.BOGUS", "unknown event 'UNC_M_CAS_COUNT.BOGUS'");
	expect_refused("UNC_M_CAS_COUNT.RD:frob", "unknown qualifier 'frob'");
	expect_refused("UNC_M_CAS_COUNT.RD:socket=2", "'socket=2' in 'UNC_M_CAS_COUNT.RD:socket=2' is out of range (0..1)");
	expect_refused("UNC_M_CAS_COUNT.RD:box=4", "out of range (0..3)");
	expect_refused("UNC_M_CAS_COUNT.RD:thresh=256", "'thresh=256'");
	expect_refused("UNC_M_CAS_COUNT.RD:thresh=abc", "'abc' is not a number");
	expect_refused("UNC_M_CAS_COUNT.RD:thresh", "needs a value");
	expect_refused("UNC_M_CAS_COUNT.RD:socket=-1", "must not be negative");
	expect_refused("UNC_U_LOCK_CYCLES:thresh=32", "out of range (0..31)");
	expect_refused("UNC_M_CAS_COUNT.RD:state=1", "unknown qualifier 'state'");
	expect_refused("UNC_C_CLOCKTICKS:opc=0x182", "does not apply to UNC_C_CLOCKTICKS");
	expect_refused("UNC_C_TOR_INSERTS.OPCODE", "needs the 'opc' qualifier");
	expect_refused("UNC_C_LLC_LOOKUP.NID", "needs the 'nid' qualifier");
	expect_refused("UNC_C_LLC_LOOKUP.DATA_READ:state=0x20", "out of range (0..31)");
	expect_refused("UNC_C_TOR_INSERTS.OPCODE:opc=0x200", "out of range (0..511)");
	expect_refused("UNC_M_CLOCKTICKS:edge", "fixed counter");
	expect_refused("UNC_M_CAS_COUNT.RD::", "empty qualifier");
	/* a trailing ':' (and an empty raw term), in either form */
	expect_refused("UNC_M_CAS_COUNT.RD:", "empty qualifier in 'UNC_M_CAS_COUNT.RD:'");
	expect_refused("UNC_M_CAS_COUNT.RD:socket=1:", "empty qualifier");
	expect_refused("imc/event=0x4/:", "empty qualifier in 'imc/event=0x4/:'");
	expect_refused("imc/event=0x4/::", "empty qualifier");
	expect_refused("imc/event=0x4/:socket=1:", "empty qualifier");
	expect_refused("imc/event=0x4,/", "empty term in 'imc/event=0x4,/'");
	expect_refused("imc/,event=0x4/", "empty term");
	expect_refused("imc/event=0x4,,umask=0x3/", "empty term");
	expect_refused("foo/event=1/", "unknown PMU 'foo'");
	expect_refused("imc/umask=3/", "has no event=");
	expect_refused("imc/event=0x4", "missing its closing '/'");
	expect_refused("imc/event=0x400/", "out of range (0..255)");
	expect_refused("imc/event=4,ext/", "has no such bit");
	expect_refused("imc/event=4/junk", "unexpected 'junk'");
	expect_refused("UNC_P_CLOCKTICKS:band=3", "reads no frequency band");
	char longspec[700];
	memset(longspec, 'A', sizeof(longspec) - 1);
	longspec[sizeof(longspec) - 1] = 0;
	expect_refused(longspec, "too long");
}

/* Sessions and the simulator keep per-box state in fixed arrays: every box type must fit them. */
static void test_limits(void)
{
	for (int p = 0; uc_platforms[p]; p++)
		for (int t = 0; t < uc_platforms[p]->ntypes; t++) {
			const struct box_type *bt = uc_platforms[p]->types[t];
			if (bt->nfilt_regs > UC_MAX_FILT || bt->nctr > UC_MAX_CTR)
				fprintf(stderr, "%s %s: %d filters, %d counters\n", uc_platforms[p]->name, bt->name,
					bt->nfilt_regs, bt->nctr);
			CU_ASSERT(bt->nfilt_regs <= UC_MAX_FILT);
			CU_ASSERT(bt->nctr <= UC_MAX_CTR);
		}
	for (int p = 0; uc_platforms[p]; p++)
		CU_ASSERT(uc_platforms[p]->glob_status_regs <= UC_MAX_GLOB_STATUS);
}

/* A raw event takes any filter qualifier of its unit (it has no event rules to say otherwise); the fuzzer
 * found such a spec dereferencing the missing event's rules. */
static void test_raw_event_filters(void)
{
	uncore_t *iv;
	struct encoded e;
	CU_ASSERT_FATAL(uncore_open("sim:ivbep", &iv) == 0);
	CU_ASSERT_FATAL(spec_parse(iv, "qpi/event=0x0,umask=2/:match1=1:socket=0:box=0", &e) == 0);
	CU_ASSERT(e.ev == NULL);
	int found = 0;
	for (int f = 0; f < UC_MAX_FILT; f++)
		found |= e.fmask[f] && (e.fval[f] & e.fmask[f]) == (1ull & e.fmask[f]) && e.fval[f] == 1;
	CU_ASSERT(found);
	uncore_close(iv);
}

/* perf's spellings: each one as our spec and box, written from the Linux 6.12 driver (uncore_snbep.c,
 * uncore_snb.c: its PMU names, format attrs and event aliases with their .scale and .unit); then the
 * spec encodes as perf's config would (cas_count_read: config 0x0304, our control word with its enable). */
struct spelling {
	const char *platform, *perf, *ours;
	int box;
	double scale;
	const char *unit;
};

static const struct spelling spellings[] = {
	/* snbep_uncore_imc_events, cas_count_read.scale 6.103515625e-5, .unit MiB; uncore_imc merges the
	 * channels, uncore_imc_2 is one; "imc" without the prefix as perf matches it */
	{ "snbep", "uncore_imc/cas_count_read/", "imc/event=0x4,umask=0x3/", -1, 6.103515625e-5, "MiB" },
	{ "snbep", "uncore_imc_2/cas_count_write/", "imc/event=0x4,umask=0xc/:box=2", 2, 6.103515625e-5, "MiB" },
	{ "snbep", "imc/cas_count_read/:socket=1", "imc/event=0x4,umask=0x3/:socket=1", -1, 6.103515625e-5, "MiB" },
	/* perf matches alias names in any case (pmu.c perf_pmu__find_alias: strcasecmp) */
	{ "snbep", "uncore_imc/CAS_COUNT_READ/", "imc/event=0x4,umask=0x3/", -1, 6.103515625e-5, "MiB" },
	/* clockticks "event=0xff,umask=0x00": the driver's fixed-counter event (UNCORE_FIXED_EVENT) */
	{ "snbep", "uncore_imc_0/clockticks/", "UNC_M_CLOCKTICKS:box=0", 0, 1, "" },
	/* the CBo is uncore_cbox_N (snbep_uncore_cbox .name "cbox"); filter_<x> formats are our fields */
	{ "snbep", "uncore_cbox/event=0x0/", "cbo/event=0x0/", -1, 1, "" },
	{ "snbep", "cbox_3/event=0x34,umask=0x3,filter_state=0x1f/", "cbo/event=0x34,umask=0x3,state=0x1f/:box=3", 3, 1, "" },
	{ "snbep", "uncore_cbo_1/event=0x35,umask=0x1,tid_en=1,filter_tid=0x3/", "cbo/event=0x35,umask=0x1,tid=0x3/:box=1", 1, 1, "" },
	{ "snbep", "uncore_cbox_0/event=0x35,umask=0x1,tid_en/", "cbo/event=0x35,umask=0x1/:tid=0:box=0", 0, 1, "" },
	/* snbep_uncore_qpi_events drs_data "event=0x102,umask=0x08": format event config:0-7,21 */
	{ "snbep", "uncore_qpi_1/drs_data/", "qpi/event=0x2,ext,umask=0x8/:box=1", 1, 1, "" },
	/* match_opc config1:5-8, match_mc config1:9-12, mask_opc config2:5-8, match_rnid30 config1:32-35 */
	{ "snbep", "uncore_qpi/event=0x38,match_opc=0xc,match_mc=0x1,mask_opc=0xf,match_rnid30=0x2/",
	  "qpi/event=0x38,match0=0x380,mask0=0x1e0,match1=0x2/", -1, 1, "" },
	/* PCU occ_sel config:14-15 is the top of the umask byte; occ_invert is our occ_inv */
	{ "snbep", "uncore_pcu/event=0x80,occ_sel=1,occ_invert,occ_edge/", "pcu/event=0x80,umask=0x40,occ_inv,occ_edge/", -1, 1, "" },
	{ "snbep", "uncore_pcu/event=0xb,filter_band0=20/", "pcu/event=0xb,band0=20/", -1, 1, "" },
	/* perf's metric files: EVENT@terms@ (jkt-metrics.json) and PMU@terms@ with '\' escapes */
	{ "snbep", "UNC_C_TOR_OCCUPANCY.MISS_OPCODE@filter_opc\\=0x182\\,thresh\\=1@",
	  "UNC_C_TOR_OCCUPANCY.MISS_OPCODE:opc=0x182:thresh=1", -1, 1, "" },
	{ "snbep", "uncore_cbox_0@event\\=0x0@", "cbo/event=0x0/:box=0", 0, 1, "" },
	{ "snbep", "cbox_5@event\\=0x0@", "cbo/event=0x0/:box=5", 5, 1, "" },
	{ "nhm", "uncore@event\\=0x2c\\,umask\\=0xf@", "unc/event=0x2c,umask=0xf/", -1, 1, "" },
	{ "snbep", "uncore_cbox_1/UNC_C_CLOCKTICKS/", "UNC_C_CLOCKTICKS:box=1", 1, 1, "" },
	/* IVB-EP: filter_nid config1:32-47, filter_opc config1:52-60, filter_nc config1:62 (filter1 fields) */
	{ "ivbep", "uncore_cbox_2/event=0x34,umask=0x3,filter_nid=0x1,filter_opc=0x182,filter_nc=1/",
	  "cbo/event=0x34,umask=0x3,nid=0x1,opc=0x182,nc=1/:box=2", 2, 1, "" },
	{ "ivbep", "uncore_imc_1/cas_count_read/", "imc/event=0x4,umask=0x3/:box=1", 1, 6.103515625e-5, "MiB" },
	/* EMR: PMUs numbered by discovery unit id; CHA umask config:8-15,32-63 (umask_ext5) */
	{ "emr", "uncore_cha_0@event\\=0x1@", "cha/event=0x1/:box=0", 0, 1, "" },
	{ "emr", "cha_3/event=0x35,umask=0xc817fe01/", "cha/event=0x35,umask=0x1,umask_ext=0xc817fe/:box=3", 3, 1, "" },
	{ "emr", "uncore_type_0_5/event=0x1/", "cha/event=0x1/:box=5", 5, 1, "" },
	{ "emr", "uncore_cha_1/event=0x35,umask=0x1,filter_tid=0x8,tid_en=1/", "cha/event=0x35,umask=0x1,tid=0x8/:box=1", 1, 1, "" },
	{ "emr", "uncore_iio/event=0x83,umask=0x1,ch_mask=0x1,fc_mask=0x7/", "iio/event=0x83,umask=0x1,ch_mask=0x1,fc_mask=0x7/",
	  -1, 1, "" },
	/* spr_uncore_imc_events cas_count_read "event=0x05,umask=0xcf"; snr_uncore_iio_freerunning_events
	 * bw_in_port0 "event=0xff,umask=0x20" with .scale 3.0517578125e-5 */
	{ "emr", "uncore_imc/cas_count_read/", "imc/event=0x5,umask=0xcf/", -1, 6.103515625e-5, "MiB" },
	{ "emr", "uncore_iio_free_running/bw_in_port0/", "UNC_IIO_BANDWIDTH_IN.PART0_FREERUN", -1, 3.0517578125e-5, "MiB" },
	{ "emr", "uncore_imc_free_running/dclk/", "UNC_M_DCLK_FREERUN", -1, 1, "" },
	/* Nehalem: the lone "uncore" PMU, nhm_uncore_events, format cmask config:24-31 (our thresh) */
	{ "nhm", "uncore/qmc_normal_reads_any/", "unc/event=0x2c,umask=0xf/", -1, 1, "" },
	{ "nhm", "uncore/clockticks/", "UNC_CLK_UNHALTED", -1, 1, "" },
	{ "nhm", "uncore/event=0x2c,umask=0xf,cmask=2,edge/", "unc/event=0x2c,umask=0xf,thresh=2,edge/", -1, 1, "" },
};

static void test_perf_spellings(void)
{
	for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
		const struct spelling *c = &spellings[i];
		char backend[32];
		uncore_t *p;
		struct perf_spelled sp;
		snprintf(backend, sizeof(backend), "sim:%s", c->platform);
		CU_ASSERT_FATAL(uncore_open(backend, &p) == 0);
		int rc = perf_spell(p, c->perf, &sp);
		if (rc || strcmp(sp.spec, c->ours) || sp.box != c->box || sp.scale != c->scale || strcmp(sp.unit, c->unit))
			fprintf(stderr, "%s %s: %d '%s' box %d scale %g '%s' (%s), want '%s' box %d scale %g '%s'\n", c->platform,
				c->perf, rc, sp.spec, sp.box, sp.scale, sp.unit, rc ? uncore_error() : "", c->ours, c->box,
				c->scale, c->unit);
		CU_ASSERT(rc == 0 && !strcmp(sp.spec, c->ours) && sp.box == c->box && sp.scale == c->scale &&
			  !strcmp(sp.unit, c->unit));
		struct encoded e;
		CU_ASSERT(spec_parse(p, c->perf, &e) == 0);
		CU_ASSERT_STRING_EQUAL(e.name, c->perf);
		CU_ASSERT(e.scale == c->scale && !strcmp(e.unit, c->unit) && e.box == c->box);
		uncore_close(p);
	}
}

/* The encodings perf's configs give: config 0x0304 is cas_count_read's (event 4, umask 3); the QPI's
 * drs_data config 0x200802 (event_ext bit 21); EMR's CHA umask 0xc817fe01 is config 0x00c817fe00000135
 * (umask config:8-15,32-63). */
static void test_perf_spelled_encodings(void)
{
	struct encoded e;
	expect_ctl("uncore_imc/cas_count_read/", 0x00400304);
	expect_ctl("uncore_imc_1/event=0x4,umask=0xc/", 0x00400c04);
	expect_ctl("uncore_qpi_0/drs_data/", 0x00600802);
	expect_ctl("uncore_pcu/event=0x80,occ_sel=1/", 0x00404080);
	CU_ASSERT(spec_parse(u, "uncore_cbox_0/event=0x35,umask=0x1,filter_opc=0x182/", &e) == 0);
	CU_ASSERT_EQUAL(e.fval[0], 0x182ull << 23); /* filter_opc config1:23-31 */
	CU_ASSERT(spec_parse(u, "uncore_qpi_1/event=0x38,match_opc=0xc,mask_opc=0xf/", &e) == 0);
	CU_ASSERT_EQUAL(e.fval[0], 0xcull << 5);  /* PKT_MATCH0 */
	CU_ASSERT_EQUAL(e.fval[2], 0xfull << 5);  /* PKT_MASK0 */
	uncore_t *emr;
	CU_ASSERT_FATAL(uncore_open("sim:emr", &emr) == 0);
	CU_ASSERT(spec_parse(emr, "uncore_cha_2/event=0x35,umask=0xc817fe01/", &e) == 0);
	CU_ASSERT_EQUAL(e.ctl & ~(1ull << 22), 0x00c817fe00000135ull);
	CU_ASSERT_EQUAL(e.box, 2);
	uncore_close(emr);
}

/* What cannot be said in our words is refused, naming it. */
static void test_perf_spelling_refusals(void)
{
	expect_refused("uncore_xyz/event=1/", "unknown PMU 'uncore_xyz'");
	expect_refused("cpu/event=1/", "unknown PMU 'cpu'");
	expect_refused("uncore_imc_9/cas_count_read/", "no imc box 9");
	expect_refused("uncore_imc/cas_count_rd/", "unknown term 'cas_count_rd'");
	expect_refused("uncore_imc/event=0x4,filter_foo=1/", "unknown term 'filter_foo'");
	expect_refused("uncore_cbox/event=0x34,match_opc=1/", "unknown term 'match_opc'");
	expect_refused("uncore_imc/cas_count_read,cas_count_write/", "give one event alias");
	expect_refused("uncore_imc/cas_count_read,event=0x5/", "'event' is given twice");
	expect_refused("uncore_cbox/UNC_C_CLOCKTICKS,event=0x0/", "gives event= or umask= too");
	expect_refused("uncore_qpi/event=0x302/", "out of range (0..255, or 0x100");
	expect_refused("uncore_qpi/event=0x38,match_opc=0x10/", "out of range (0..15)");
	expect_refused("uncore_imc/umask=0x3/", "no event=<code>");
	expect_refused("uncore_cbox/event=0x34,filter_state=0x0000000000000000000000000000000000000000000000000000000000001f/",
		       "term 'filter_state' in");
}

/* A control word's bits stop at its register's size, whatever the format says: Diamond Rapids' iMC thresh is
 * bits 23-32 (Linux 7.0 dmr_imc_uncore_formats_attr, "config:23-32") of a 32-bit MMIO control (writel, as
 * every discovery MMIO unit's), so a threshold above 0x1ff is refused, not written truncated (which read back
 * as another agent's word and gave the box up). */
static void test_register_width(void)
{
	uncore_t *dmr;
	struct encoded e;
	CU_ASSERT_FATAL(uncore_open("sim:dmr", &dmr) == 0);
	CU_ASSERT(spec_parse(dmr, "imc/event=0x1,thresh=0x200/", &e) < 0);
	CU_ASSERT(strstr(uncore_error(), "bits 0x100000000 are beyond the 32 bits of the imc control register") != NULL);
	CU_ASSERT_FATAL(spec_parse(dmr, "imc/event=0x1,thresh=0x1ff/", &e) == 0);
	CU_ASSERT_EQUAL(e.ctl & (0x1ffull << 23), 0x1ffull << 23);
	uncore_close(dmr);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "encodings match the seed", test_encodings },
		{ "bad specs are refused with a message naming the part", test_refusals },
		{ "every box type fits the per-box arrays", test_limits },
		{ "raw events take filter qualifiers", test_raw_event_filters },
		{ "perf's spellings in our words, on every platform", test_perf_spellings },
		{ "perf's spellings encode as perf's configs", test_perf_spelled_encodings },
		{ "perf's spellings we cannot say are refused by name", test_perf_spelling_refusals },
		{ "a control word stops at its register's size", test_register_width },
		{ NULL, NULL },
	};
	int rc;
	if (uncore_open("sim:snbep", &u)) {
		fprintf(stderr, "%s\n", uncore_error());
		return 1;
	}
	rc = run_suite("spec", tests);
	uncore_close(u);
	return rc;
}
