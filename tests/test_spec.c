/* Event specs: encodings match the seed's worked examples; bad specs are refused by name. */
#include <math.h>
#include <string.h>
#include "harness.h"
#include "uncore_priv.h"

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
	expect_refused("foo/event=1/", "unknown unit 'foo'");
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

int main(void)
{
	static const struct test_case tests[] = {
		{ "encodings match the seed", test_encodings },
		{ "bad specs are refused with a message naming the part", test_refusals },
		{ "every box type fits the per-box arrays", test_limits },
		{ "raw events take filter qualifiers", test_raw_event_filters },
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
