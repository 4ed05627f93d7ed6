/*
 * The simulated kernel's sysfs tree equals what Linux 6.12's driver creates on the same machine: the
 * listings platforms/<p>/linux_pmus*.txt, written by tools/vectors/linux_pmus.py from the driver's source (not
 * from the simulated kernel's tables).  Every file of the tree's PMUs but `type` (a dynamic number) must
 * be in the listing with the same text, and every line of the listing in the tree; each difference is
 * printed on its own line.  Then what the tree's names and the generic driver mean for the perf
 * backend: a one-box type's alias, and perf+sim:emr,generic=1 counting what the generic driver counts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sim_helpers.h"
#include "pmu_listing.h"
#include "access/perf_kernel.h"
#include "sim_kernel/sim_kernel.h"

#define PMUS "/sys/bus/event_source/devices"

struct walk {
	struct perf_kernel *k;
	struct lines *out;
	const char *dir; /* relative to PMUS ("" at the top) */
};

/* One entry: a directory is walked, a file becomes "<rel path> <text>". */
static int visit(void *arg, const char *name)
{
	struct walk *w = arg;
	char rel[512], abs[600], text[512];
	snprintf(rel, sizeof(rel), "%s%s%s", w->dir, *w->dir ? "/" : "", name);
	if (!*w->dir && strncmp(name, "uncore", 6))
		return 0; /* only the uncore driver's PMUs */
	if (*w->dir && !strchr(w->dir, '/') && !strcmp(name, "type"))
		return 0; /* <pmu>/type: dynamic, not in the listing */
	snprintf(abs, sizeof(abs), PMUS "/%s", rel);
	if (!w->k->ops->list_dir(w->k, abs, visit, &(struct walk){ w->k, w->out, rel }))
		return 0;
	if (w->k->ops->read_line(w->k, abs, text, sizeof(text))) {
		fprintf(stderr, "%s: neither a directory nor a readable file\n", abs);
		CU_FAIL("unreadable entry");
		return 0;
	}
	char line[1100];
	snprintf(line, sizeof(line), "%s %s", rel, text);
	add_line(w->out, line);
	return 0;
}

/* Every file below the uncore PMUs' directories, sorted. */
static void walk_pmus(struct perf_kernel *k, struct lines *out)
{
	struct walk w = { k, out, "" };
	CU_ASSERT(k->ops->list_dir(k, PMUS, visit, &w) == 0);
	qsort(out->v, (size_t)out->n, sizeof(*out->v), by_str);
}

/* Both sorted lists, merged: each difference on its own line; the number of differences. */
static int compare(const char *spec, const struct lines *want, const struct lines *have)
{
	int i = 0, j = 0, diffs = 0;
	while (i < want->n || j < have->n) {
		int c = i == want->n ? 1 : j == have->n ? -1 : cmp_path(want->v[i], have->v[j]);
		if (c < 0) {
			fprintf(stderr, "%s: missing %.*s (expected '%s')\n", spec, (int)path_len(want->v[i]), want->v[i],
				want->v[i] + path_len(want->v[i]) + !!want->v[i][path_len(want->v[i])]);
			i++, diffs++;
		} else if (c > 0) {
			fprintf(stderr, "%s: extra %.*s (found '%s')\n", spec, (int)path_len(have->v[j]), have->v[j],
				have->v[j] + path_len(have->v[j]) + !!have->v[j][path_len(have->v[j])]);
			j++, diffs++;
		} else {
			if (strcmp(want->v[i], have->v[j])) {
				size_t p = path_len(want->v[i]);
				fprintf(stderr, "%s: %.*s: expected '%s', found '%s'\n", spec, (int)p, want->v[i],
					want->v[i] + p + !!want->v[i][p], have->v[j] + p + !!have->v[j][p]);
				diffs++;
			}
			i++, j++;
		}
	}
	return diffs;
}

struct types {
	struct perf_kernel *k;
	unsigned seen[512];
	int n, dup;
};

static int check_type(void *arg, const char *name)
{
	struct types *t = arg;
	char path[160], line[32] = "";
	snprintf(path, sizeof(path), PMUS "/%s/type", name);
	CU_ASSERT(t->k->ops->read_line(t->k, path, line, sizeof(line)) == 0);
	unsigned v = (unsigned)strtoul(line, NULL, 10);
	for (int i = 0; i < t->n; i++)
		if (t->seen[i] == v) {
			fprintf(stderr, "%s: type %u, as another PMU's\n", name, v);
			t->dup++;
		}
	if (t->n < 512)
		t->seen[t->n++] = v;
	return 0;
}

/* The tree of a simulated kernel against a listing; the number of differences.  And each PMU's type
 * number its own (perf_pmu_register never gives one twice). */
static int tree_vs_listing(const char *spec, const char *listing)
{
	struct access *inner = NULL;
	struct perf_kernel *k = sim_kernel_open(spec, &inner);
	struct lines want = { 0 }, have = { 0 };
	if (!k)
		fprintf(stderr, "%s: %s\n", spec, uncore_error());
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_FATAL(read_listing(listing, &want) == 0);
	walk_pmus(k, &have);
	int diffs = compare(spec, &want, &have);
	struct types t = { .k = k };
	CU_ASSERT(k->ops->list_dir(k, PMUS, check_type, &t) == 0);
	CU_ASSERT(t.n > 0);
	CU_ASSERT_EQUAL(t.dup, 0);
	fprintf(stderr, "%s: %d files, %d listed, %d differences\n", spec, have.n, want.n, diffs);
	CU_ASSERT(want.n > 10);
	free_lines(&want);
	free_lines(&have);
	k->ops->free(k);
	return diffs;
}

static void test_nhm(void) { CU_ASSERT_EQUAL(tree_vs_listing("nhm", "nhm/linux_pmus.txt"), 0); }
static void test_snbep(void) { CU_ASSERT_EQUAL(tree_vs_listing("snbep", "snbep/linux_pmus.txt"), 0); }
static void test_ivbep(void) { CU_ASSERT_EQUAL(tree_vs_listing("ivbep", "ivbep/linux_pmus.txt"), 0); }
static void test_skx(void)
{
	CU_ASSERT_EQUAL(tree_vs_listing("skx", "skx/linux_pmus.txt"), 0);
	CU_ASSERT_EQUAL(tree_vs_listing("clx", "clx/linux_pmus.txt"), 0); /* Cascade Lake: skx_uncore_init too */
}
/* icx_uncore_init: 40 CHAs from CAPID6 + CAPID7, the PCI boxes by id and dev.fn, the MMIO iMC channels and free-running
 * counters on every die, the IIO free-running PMU among the MSR types */
static void test_icx(void) { CU_ASSERT_EQUAL(tree_vs_listing("icx", "icx/linux_pmus.txt"), 0); }
static void test_emr(void) { CU_ASSERT_EQUAL(tree_vs_listing("emr", "emr/linux_pmus.txt"), 0); }
static void test_hsx(void) { CU_ASSERT_EQUAL(tree_vs_listing("hsx", "hsx/linux_pmus.txt"), 0); }
static void test_bdx(void)
{
	CU_ASSERT_EQUAL(tree_vs_listing("bdx", "bdx/linux_pmus.txt"), 0);
	CU_ASSERT_EQUAL(tree_vs_listing("bdxde", "bdxde/linux_pmus.txt"), 0); /* no SBox, QPI or R3QPI PMU */
}
static void test_spr(void)
{
	CU_ASSERT_EQUAL(tree_vs_listing("spr", "spr/linux_pmus.txt"), 0);
	CU_ASSERT_EQUAL(tree_vs_listing("spr,hbm=1", "spr/linux_pmus_hbm.txt"), 0); /* Xeon Max: uncore_hbm_0..31 */
}
/* dmr_uncore_init (Linux 7.0): both domains' units by dmr_uncores[] name, MSE and SB2UCIE ignored, the DMR formats
 * (platforms/dmr/linux_pmus.txt, written from platforms/dmr/README.md) */
static void test_dmr(void) { CU_ASSERT_EQUAL(tree_vs_listing("dmr", "dmr/linux_pmus.txt"), 0); }
static void test_gnr_family(void)
{
	CU_ASSERT_EQUAL(tree_vs_listing("gnr", "gnr/linux_pmus.txt"), 0);
	CU_ASSERT_EQUAL(tree_vs_listing("srf", "srf/linux_pmus.txt"), 0);
	CU_ASSERT_EQUAL(tree_vs_listing("cwf", "cwf/linux_pmus.txt"), 0);
}
/* kernel=6.12.0: Linux 6.12.0's gnr_uncore_init (before 6d642735cdb6 and 6a8a48644c4b; CWF without its entry,
 * b6ccddd6fe1f), listings written by tools/vectors/linux_pmus.py --linux-6.12.0; other machines refuse it */
static void test_gnr_family_6120(void)
{
	struct access *inner = NULL;
	CU_ASSERT_EQUAL(tree_vs_listing("gnr,kernel=6.12.0", "gnr/linux_pmus_6.12.0.txt"), 0);
	CU_ASSERT_EQUAL(tree_vs_listing("srf,kernel=6.12.0", "srf/linux_pmus_6.12.0.txt"), 0);
	CU_ASSERT_EQUAL(tree_vs_listing("cwf,kernel=6.12.0", "cwf/linux_pmus_6.12.0.txt"), 0);
	CU_ASSERT_EQUAL(tree_vs_listing("gnr,kernel=6.12.117", "gnr/linux_pmus.txt"), 0);
	CU_ASSERT(sim_kernel_open("emr,kernel=6.12.0", &inner) == NULL && strstr(uncore_error(), "gnr_uncore_init"));
	CU_ASSERT(sim_kernel_open("gnr,kernel=6.13", &inner) == NULL && strstr(uncore_error(), "kernel=6.12.0|6.12.117"));
}

/* The library on Linux 6.12.0's GNR driver next to the newer one and the registers: what 6.12.0 registers
 * counts the registers' counts (its CXL DP as uncore_type_13, one event a box, on counter 0); a unit it ignores
 * is refused by the kernel's name, and so is what its generic MMIO ops would count wrong (a CXL CM event of
 * counters 4-7, a second event on the CXL DP). */
static void test_gnr_6120_backend(void)
{
	static const char *const counted[] = { "UNC_CHA_CLOCKTICKS", "UNC_M_CAS_COUNT_SCH0.RD", "UNC_M_CAS_COUNT_SCH1.RD",
					       "UNC_CXLDP_TxC_AGF_INSERTS.M2S_DATA", "UNC_M_CLOCKTICKS" };
	static const struct { const char *ev[2], *why; } refused[] = {
		{ { "UNC_UPI_CLOCKTICKS" }, "this kernel registers no PMU for upi (uncore_upi[_N], discovery type 8); Linux "
		  "6.14, and 6.12.y after its March 2026 backport (6d642735cdb6) register it" },
		{ { "UNC_B2UPI_CLOCKTICKS" }, "no PMU for b2upi" },
		{ { "UNC_CXLCM_RxC_PACK_BUF_INSERTS.MEM_DATA" }, "only counter 0 counts right" },
		{ { "UNC_CXLDP_TxC_AGF_INSERTS.M2S_DATA", "cxldp/event=0x01/" }, "4 i bytes after the first" },
	};
	uncore_t *h[3] = { open_sim("sim:gnr,cxl=1,clock=manual"), open_sim("perf+sim:gnr,cxl=1,kernel=6.12.0,clock=manual"),
			   open_sim("perf+sim:gnr,cxl=1,clock=manual") };
	const struct box *dp = box_named(h[1], "cxldp", 0, 0);
	CU_ASSERT_FATAL(dp != NULL);
	CU_ASSERT(!strncmp(h[1]->perf->pmus[dp->pmu].name, "uncore_type_13_", 15)); /* cxl=1: a port a socket, several boxes */
	CU_ASSERT(box_named(h[1], "upi", 0, 0) == NULL && box_named(h[2], "upi", 0, 0) != NULL);
	uncore_session_t *s[3];
	for (int b = 0; b < 3; b++) {
		s[b] = start_session(h[b], counted, 5);
		uncore_sleep_ns(h[b], 1000000000);
		CU_ASSERT(uncore_session_read(s[b]) == 0);
	}
	for (int e = 0; e < 5; e++)
		for (int sock = 0; sock < (e == 3 ? 1 : 2); sock++) /* the CXL ports on socket 0 only */
			for (int b = 1; b < 3; b++) {
				uint64_t a = val(s[0], e, sock), p = val(s[b], e, sock);
				if (a != p)
					fprintf(stderr, "%s socket %d: direct %llu, %s %llu\n", counted[e], sock,
						(unsigned long long)a, b == 1 ? "Linux 6.12.0" : "Linux 6.12.117", (unsigned long long)p);
				CU_ASSERT(a == p && a > 0);
			}
	for (int b = 0; b < 3; b++)
		uncore_session_free(s[b]);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		uncore_session_t *r;
		CU_ASSERT_FATAL(uncore_session_new(h[1], &r) == 0);
		int rc = 0;
		for (int k = 0; k < 2 && refused[i].ev[k] && rc >= 0; k++)
			rc = uncore_session_add(r, refused[i].ev[k]);
		if (rc >= 0)
			rc = uncore_session_start(r);
		if (rc >= 0 || !strstr(uncore_error(), refused[i].why))
			fprintf(stderr, "%s: rc %d: %s\n", refused[i].ev[0], rc, uncore_error());
		CU_ASSERT(rc < 0 && strstr(uncore_error(), refused[i].why) != NULL);
		uncore_session_free(r);
		/* the newer kernel counts each */
		CU_ASSERT(uncore_session_new(h[2], &r) == 0 && uncore_session_add(r, refused[i].ev[0]) >= 0 &&
			  uncore_session_start(r) == 0);
		uncore_session_free(r);
	}
	for (int b = 0; b < 3; b++)
		uncore_close(h[b]);
}

static void test_emr_generic(void)
{
	CU_ASSERT_EQUAL(tree_vs_listing("emr,generic=1", "emr/linux_pmus_generic.txt"), 0);
}

static int count_entry(void *arg, const char *name)
{
	*(int *)arg += !strncmp(name, "uncore", 6); /* (rapl.c's power PMU is no uncore driver's) */
	return 0;
}

/* A model without discovery tables and without its entry: intel_uncore_init finds neither and
 * registers no uncore PMU (ENODEV). */
static void test_generic_without_tables(void)
{
	static const char *const specs[] = { "snbep,generic=1", "ivbep,generic=1", "nhm,generic=1" };
	for (int i = 0; i < 3; i++) {
		struct access *inner = NULL;
		struct perf_kernel *k = sim_kernel_open(specs[i], &inner);
		int n = 0;
		CU_ASSERT_FATAL(k != NULL);
		k->ops->list_dir(k, PMUS, count_entry, &n);
		if (n)
			fprintf(stderr, "%s: %d PMUs\n", specs[i], n);
		CU_ASSERT_EQUAL(n, 0);
		k->ops->free(k);
	}
}

struct pmu_count {
	const char *prefix;
	int n;
};

static int count_prefixed(void *arg, const char *name)
{
	struct pmu_count *c = arg;
	c->n += !strncmp(name, c->prefix, strlen(c->prefix));
	return 0;
}

/* How many PMUs named prefix* the simulated kernel of spec registers, said when it is not want. */
static int pmus_named(const char *spec, const char *prefix, int want)
{
	struct access *inner = NULL;
	struct perf_kernel *k = sim_kernel_open(spec, &inner);
	struct pmu_count c = { prefix, 0 };
	CU_ASSERT_FATAL(k != NULL);
	k->ops->list_dir(k, PMUS, count_prefixed, &c);
	if (c.n != want)
		fprintf(stderr, "%s: %d %s PMUs, want %d\n", spec, c.n, prefix, want);
	k->ops->free(k);
	return c.n;
}

/* hswep_uncore_cpu_init, bdx_uncore_cpu_init: a Haswell-EP or Broadwell-EP with fewer cores than 18 or 24 has a
 * CBo PMU per core only (the listings above are the 18- and 22-core parts'). */
static void test_hsx_cbox_cap(void)
{
	static const struct { const char *spec; int cboxes; } cases[] = { { "hsx", 18 }, { "hsx,cores=8", 8 }, { "hsx,cores=6", 6 },
									  { "bdx", 22 }, { "bdx,cores=24", 24 }, { "bdx,cores=32", 24 } };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CU_ASSERT_EQUAL(pmus_named(cases[i].spec, "uncore_cbox_", cases[i].cboxes), cases[i].cboxes);
	}
}

/* hswep_uncore_cpu_init: a Haswell-EP whose PCU CAPID4 (0x2fc0, config 0x94) has a chop (bits 7:6) of 0, the 6-8
 * core die, has two SBoxes (hswep_has_limit_sbox), any other four; bdx_uncore_cpu_init: a Broadwell-EP whose PCU
 * (BDX_PCU_DID 0x6fc0) reads so has none (the type dropped), any other four.  The simulated kernel's PMUs, and the
 * boxes the library finds on the registers (sim:) and through the kernel (perf+sim:), each counting the uncore
 * clock, or refusing the SBox's event where there is none. */
static void test_sbox_capid4(void)
{
	static const struct { const char *spec; int sboxes; } cases[] = {
		{ "hsx", 4 }, { "hsx,chop=1", 4 }, { "hsx,chop=2", 4 }, { "hsx,chop=0,cores=8", 2 }, { "hsx,chop=0", 2 },
		{ "bdx", 4 }, { "bdx,chop=1", 4 }, { "bdx,chop=2", 4 }, { "bdx,chop=0", 0 },	   { "bdx,chop=0,cores=8", 0 },
	};
	static const char *const clk[] = { "UNC_S_CLOCKTICKS" };
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char spec[96];
		CU_ASSERT_EQUAL(pmus_named(cases[i].spec, "uncore_sbox", cases[i].sboxes), cases[i].sboxes);
		for (int perf = 0; perf < 2; perf++) {
			snprintf(spec, sizeof(spec), "%ssim:%s,clock=manual", perf ? "perf+" : "", cases[i].spec);
			uncore_t *u = open_sim(spec);
			int t = unit_named(u, "sbox");
			for (int sock = 0; sock < uncore_num_sockets(u); sock++)
				CU_ASSERT_EQUAL(uncore_unit_boxes(u, t, sock), cases[i].sboxes);
			if (strstr(uncore_warnings(), "sbox")) /* a part without SBoxes is as the driver left it */
				fprintf(stderr, "%s: warned '%s'\n", spec, uncore_warnings());
			CU_ASSERT(strstr(uncore_warnings(), "sbox") == NULL);
			if (!cases[i].sboxes) {
				uncore_session_t *s;
				CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
				CU_ASSERT(uncore_session_add(s, clk[0]) < 0);
				if (!strstr(uncore_error(), "no sbox box"))
					fprintf(stderr, "%s: UNC_S_CLOCKTICKS refused with '%s'\n", spec, uncore_error());
				CU_ASSERT(strstr(uncore_error(), "no sbox box") != NULL);
				uncore_session_free(s);
				uncore_close(u);
				continue;
			}
			uncore_session_t *s = start_session(u, clk, 1);
			uncore_sleep_ns(u, 1000000000);
			CU_ASSERT_FATAL(uncore_session_read(s) == 0);
			double secs = (double)uncore_session_elapsed_ns(s) / 1e9;
			for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
				char what[160];
				snprintf(what, sizeof(what), "%s socket %d: %d SBoxes' clocks", spec, sock, cases[i].sboxes);
				check_truth(what, (double)val(s, 0, sock), cases[i].sboxes * sim_of(u->acc)->prof.uncore_hz * secs);
			}
			uncore_session_free(s);
			uncore_close(u);
		}
	}
}

static int pmu_type(struct perf_kernel *k, const char *pmu)
{
	char path[160], line[32] = "";
	snprintf(path, sizeof(path), PMUS "/%s/type", pmu);
	CU_ASSERT_FATAL(k->ops->read_line(k, path, line, sizeof(line)) == 0);
	return atoi(line);
}

static int kopen(struct perf_kernel *k, const char *pmu, uint64_t config)
{
	struct perf_event_attr a = { .type = (uint32_t)pmu_type(k, pmu), .size = sizeof(a), .config = config };
	int fd = k->ops->open(k, &a, -1, 0, -1, 0);
	if (fd >= 0)
		k->ops->close(k, fd);
	return fd < 0 ? fd : 0;
}

/* config 0xff: the fixed counter where the model's driver gives one; EINVAL from the generic driver,
 * which sets no fixed_ctl (uncore.c uncore_pmu_event_init), and for a free-running encoding. */
static void test_generic_fixed_refused(void)
{
	struct access *inner = NULL;
	struct perf_kernel *k = sim_kernel_open("emr,clock=manual", &inner);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_EQUAL(kopen(k, "uncore_imc_0", 0xff), 0);
	k->ops->free(k);
	k = sim_kernel_open("emr,generic=1,clock=manual", &inner);
	CU_ASSERT_FATAL(k != NULL);
	CU_ASSERT_EQUAL(kopen(k, "uncore_type_6_0", 0xff), -EINVAL); /* the IMC channel */
	CU_ASSERT_EQUAL(kopen(k, "uncore_type_5", 0xff), -EINVAL);   /* the UBox */
	CU_ASSERT_EQUAL(kopen(k, "uncore_type_1_0", 0x20ff), -EINVAL); /* bw_in_port0's encoding on an IIO */
	CU_ASSERT_EQUAL(kopen(k, "uncore_type_6_0", 0x01), 0);
	k->ops->free(k);
}

/* The library on a kernel with the generic driver: the one-box types' PMUs without a box number
 * (uncore_type_4, uncore_type_12) are found, its events count what the registers count, and what the
 * generic driver cannot count is refused at once, by name. */
static void test_generic_backend(void)
{
	static const char *const counted[] = { "UNC_CHA_CLOCKTICKS", "UNC_P_CLOCKTICKS", "UNC_CXLCM_CLOCKTICKS",
					       "UNC_M_CAS_COUNT.RD_REG" };
	static const struct { const char *ev, *why; } refused[] = {
		{ "UNC_IIO_BANDWIDTH_IN.PART0_FREERUN", "no free-running PMU" },
		{ "UNC_M_FIXED_DCLK", "no fixed counter" },
		{ "UNC_CHA_TOR_INSERTS.IA_MISS", "umask extension" },
	};
	uncore_t *d = open_sim("sim:emr,clock=manual"), *u = open_sim("perf+sim:emr,generic=1,clock=manual");
	const struct box *pcu = box_named(u, "pcu", 1, 0), *cxl = box_named(u, "cxlcm", 0, 0);
	CU_ASSERT_FATAL(pcu != NULL && cxl != NULL);
	CU_ASSERT_STRING_EQUAL(u->perf->pmus[pcu->pmu].name, "uncore_type_4");
	CU_ASSERT_STRING_EQUAL(u->perf->pmus[cxl->pmu].name, "uncore_type_12");
	CU_ASSERT(box_named(u, "cxlcm", 1, 0) == NULL); /* socket 0 only, as its cpumask says */
	/* the third UPI link's table entry names no device: the generic driver registers links 0, 1, 3 */
	CU_ASSERT(box_named(u, "upi", 0, 1) != NULL && box_named(u, "upi", 0, 2) == NULL &&
		  box_named(u, "upi", 0, 3) != NULL);
	uncore_session_t *s[2];
	uncore_t *h[2] = { d, u };
	for (int b = 0; b < 2; b++) {
		s[b] = start_session(h[b], counted, 4);
		uncore_sleep_ns(h[b], 1000000000);
		CU_ASSERT(uncore_session_read(s[b]) == 0);
	}
	for (int e = 0; e < 4; e++)
		for (int sock = 0; sock < (e == 2 ? 1 : 2); sock++) { /* the CXL CM on socket 0 only */
			uint64_t a = val(s[0], e, sock), p = val(s[1], e, sock);
			if (a != p)
				fprintf(stderr, "%s socket %d: direct %llu, perf generic %llu\n", counted[e], sock,
					(unsigned long long)a, (unsigned long long)p);
			CU_ASSERT(a == p && a > 0);
		}
	uncore_session_free(s[0]);
	uncore_session_free(s[1]);
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		uncore_session_t *r;
		CU_ASSERT_FATAL(uncore_session_new(u, &r) == 0);
		int rc = uncore_session_add(r, refused[i].ev);
		if (rc >= 0 || !strstr(uncore_error(), refused[i].why))
			fprintf(stderr, "%s: rc %d: %s\n", refused[i].ev, rc, uncore_error());
		CU_ASSERT(rc < 0 && strstr(uncore_error(), refused[i].why) != NULL);
		uncore_session_free(r);
	}
	uncore_close(d);
	uncore_close(u);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "perf+sim:nhm's tree is Linux 6.12's", test_nhm },
		{ "perf+sim:snbep's tree is Linux 6.12's", test_snbep },
		{ "perf+sim:ivbep's tree is Linux 6.12's", test_ivbep },
		{ "perf+sim:skx and clx trees are Linux 6.12's (CAPID6's CHAs, PCI boxes by id and dev.fn)", test_skx },
		{ "perf+sim:icx's tree is Linux 6.12's (CAPID6+7's CHAs, PCI boxes by id and dev.fn, MMIO iMC)", test_icx },
		{ "perf+sim:emr's tree is Linux 6.12's", test_emr },
		{ "perf+sim:hsx's tree is Linux 6.12's", test_hsx },
		{ "perf+sim:bdx's and perf+sim:bdxde's trees are Linux 6.12's", test_bdx },
		{ "perf+sim:hsx and bdx: one CBo PMU per core, at most 18 and 24 (*_uncore_cpu_init)", test_hsx_cbox_cap },
		{ "hsx: two SBoxes where CAPID4's chop is 0, bdx: none, else four (hswep_has_limit_sbox): PMUs, sim:, perf+sim:",
		  test_sbox_capid4 },
		{ "perf+sim:spr's tree is Linux 6.12's (56 CHAs from MSR 0x2FFE, 60 table entries)", test_spr },
		{ "perf+sim:emr,generic=1's tree is Linux 6.12's generic driver's", test_emr_generic },
		{ "perf+sim:gnr, srf and cwf trees are Linux 6.12's (gnr_uncore_init)", test_gnr_family },
		{ "kernel=6.12.0: gnr, srf and cwf trees are Linux 6.12.0's (before 6d642735cdb6)", test_gnr_family_6120 },
		{ "the library on Linux 6.12.0's GNR driver: counts as the registers, refusals by the kernel's limit",
		  test_gnr_6120_backend },
		{ "perf+sim:dmr's tree is Linux 7.0's (dmr_uncore_init)", test_dmr },
		{ "the generic driver without discovery tables registers nothing", test_generic_without_tables },
		{ "the generic driver refuses config 0xff", test_generic_fixed_refused },
		{ "the library on the generic driver: one-box PMUs, counts, refusals", test_generic_backend },
		{ NULL, NULL },
	};
	return run_suite("kernel_tree", tests);
}
