/*
 * The perf_event backend over the simulated kernel: the kernel's rules (each one refused or handled as
 * Linux does), and the library's handling of them -- permissions, missing PMUs, a kernel that names
 * no type, formats that lack a field, multiplexing with another user, file-descriptor limits, sampling
 * -- and every metric's events counting what the direct backend counts.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <sys/resource.h>
#include "sim_helpers.h"
#include "fake_tree.h"

static struct perf_kernel *kern(uncore_t *u) { return u->perf->k; }

static unsigned type_of(uncore_t *u, const char *pmu)
{
	const struct perf_pmu *p = perf_pmu_named(u->perf, pmu);
	CU_ASSERT_FATAL(p != NULL);
	return p->type;
}

static int kopen(uncore_t *u, const char *pmu, uint64_t config, uint64_t config1, int cpu, int group)
{
	struct perf_event_attr a = { .type = type_of(u, pmu), .size = sizeof(a), .config = config, .config1 = config1,
				     .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
						    PERF_FORMAT_TOTAL_TIME_RUNNING };
	return kern(u)->ops->open(kern(u), &a, -1, cpu, group, 0);
}

static void expect(const char *what, int got, int want)
{
	if (got != want)
		fprintf(stderr, "FAIL %s: %d, expected %d\n", what, got, want);
	CU_ASSERT_EQUAL(got, want);
}

/* perf_event_open's refusals: what Linux refuses for uncore PMUs, the simulated kernel refuses. */
static void test_open_rules(void)
{
	uncore_t *u = open_sim("perf+sim:snbep,clock=manual");
	struct perf_event_attr a = { .type = type_of(u, "uncore_cbox_0"), .size = sizeof(a) };
	struct perf_kernel *k = kern(u);
	struct perf_event_attr x = a;
	x.exclude_kernel = 1;
	expect("exclude_kernel", k->ops->open(k, &x, -1, 0, -1, 0), -EINVAL);
	x = a;
	x.exclude_user = 1;
	expect("exclude_user", k->ops->open(k, &x, -1, 0, -1, 0), -EINVAL);
	x = a;
	x.sample_period = 1000;
	expect("sampling", k->ops->open(k, &x, -1, 0, -1, 0), -EINVAL);
	expect("per task", k->ops->open(k, &a, 0, 0, -1, 0), -EINVAL);
	expect("cpu = -1", k->ops->open(k, &a, -1, -1, -1, 0), -EINVAL);
	expect("cpu beyond the last", k->ops->open(k, &a, -1, 4096, -1, 0), -EINVAL);
	x = a;
	x.type = 9999;
	expect("unknown type", k->ops->open(k, &x, -1, 0, -1, 0), -ENOENT);
	expect("fixed counter on a box without one", kopen(u, "uncore_cbox_0", 0xff, 0, 0, -1), -EINVAL);
	int fx = kopen(u, "uncore_imc_0", 0xff, 0, 0, -1);
	CU_ASSERT(fx >= 0);
	expect("free-running encoding where there is none", kopen(u, "uncore_imc_0", 0x20ff, 0, 0, -1), -EINVAL);
	/* groups: one PMU, one die, no more than the box's counters */
	int lead = kopen(u, "uncore_cbox_0", 0x00, 0, 0, -1);
	CU_ASSERT_FATAL(lead >= 0);
	expect("group spanning PMUs", kopen(u, "uncore_cbox_1", 0x00, 0, 0, lead), -EINVAL);
	expect("group spanning dies", kopen(u, "uncore_cbox_0", 0x00, 0, 8, lead), -EINVAL);
	CU_ASSERT(kopen(u, "uncore_cbox_0", 0x00, 0, 1, lead) >= 0); /* any CPU of the die */
	CU_ASSERT(kopen(u, "uncore_cbox_0", 0x00, 0, 0, lead) >= 0);
	CU_ASSERT(kopen(u, "uncore_cbox_0", 0x00, 0, 0, lead) >= 0);
	expect("fifth event in a group of four counters", kopen(u, "uncore_cbox_0", 0x00, 0, 0, lead), -EINVAL);
	int lead2 = kopen(u, "uncore_cbox_2", 0x00, 0, 0, -1); /* a group with room */
	CU_ASSERT_FATAL(lead2 >= 0);
	x = a;
	x.type = type_of(u, "uncore_cbox_2");
	x.pinned = 1;
	expect("a pinned group member", k->ops->open(k, &x, -1, 0, lead2, 0), -EINVAL);
	x.pinned = 0;
	CU_ASSERT(k->ops->open(k, &x, -1, 0, lead2, 0) >= 0); /* not pinned, it joins */
	/* one shared filter: fields events set must agree within a group; different fields go together */
	int f0 = kopen(u, "uncore_cbox_1", 0x0334, 0x1full << 18, 0, -1); /* filter_state */
	CU_ASSERT_FATAL(f0 >= 0);
	expect("two values of filter_state in a group", kopen(u, "uncore_cbox_1", 0x0334, 0x01ull << 18, 0, f0), -EINVAL);
	CU_ASSERT(kopen(u, "uncore_cbox_1", 0x0135, 0x182ull << 23, 0, f0) >= 0);      /* filter_opc beside it */
	/* (events 0x34 and 0x35 go on counters 0-1 only: the same value shares in a group of its own) */
	int f1 = kopen(u, "uncore_cbox_3", 0x0334, 0x1full << 18, 0, -1);
	CU_ASSERT(f1 >= 0 && kopen(u, "uncore_cbox_3", 0x0334, 0x1full << 18, 0, f1) >= 0);
	/* reads: a buffer too small for the group */
	uint64_t buf[2];
	expect("read into a short buffer", (int)k->ops->read(k, lead, buf, sizeof(buf)), -ENOSPC);
	expect("ioctl on a bad fd", k->ops->ioctl(k, 12345, PERF_EVENT_IOC_ENABLE, 0), -EBADF);
	uncore_close(u);
}

/* The kernel masks config bits its driver does not know: no error, and they change nothing. */
static void test_unknown_bits_dropped(void)
{
	uncore_t *u = open_sim("perf+sim:snbep,clock=manual");
	struct perf_kernel *k = kern(u);
	int a = kopen(u, "uncore_cbox_2", 0x00, 0, 0, -1);
	int b = kopen(u, "uncore_cbox_2", 0x00 | 1ull << 60 | 1ull << 17 | 1ull << 20, 0, 0, -1); /* not in the mask */
	CU_ASSERT_FATAL(a >= 0 && b >= 0);
	CU_ASSERT(k->ops->ioctl(k, a, PERF_EVENT_IOC_ENABLE, 0) == 0 && k->ops->ioctl(k, b, PERF_EVENT_IOC_ENABLE, 0) == 0);
	uncore_sleep_ns(u, 1000000000);
	uint64_t ra[4], rb[4];
	CU_ASSERT(k->ops->read(k, a, ra, sizeof(ra)) == 32 && k->ops->read(k, b, rb, sizeof(rb)) == 32);
	CU_ASSERT(ra[0] == 1 && ra[3] > 1000000 && ra[3] == rb[3]);
	uncore_close(u);
}

/* perf_event_paranoid and capabilities, as perf_allow_cpu() (and Debian's level 3) decide. */
static void test_permissions(void)
{
	static const struct { const char *opts; int ok; const char *why; } cases[] = {
		{ "paranoid=2,caps=none", 0, "neither CAP_PERFMON nor CAP_SYS_ADMIN" },
		{ "paranoid=1,caps=none", 0, "perf_event_paranoid is 1" },
		{ "paranoid=2,caps=perfmon", 1, NULL },
		{ "paranoid=3,caps=perfmon", 0, "only CAP_SYS_ADMIN" },
		{ "paranoid=3,caps=sys_admin", 1, NULL },
		{ "paranoid=0,caps=none", 1, NULL },
		{ "paranoid=-1,caps=none", 1, NULL },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char spec[128];
		uncore_t *u = NULL;
		snprintf(spec, sizeof(spec), "perf+sim:snbep,clock=manual,%s", cases[i].opts);
		int rc = uncore_open(spec, &u);
		if ((rc == 0) != cases[i].ok || (!cases[i].ok && !strstr(uncore_error(), cases[i].why)))
			fprintf(stderr, "FAIL %s: rc %d: %s\n", cases[i].opts, rc, uncore_error());
		CU_ASSERT((rc == 0) == cases[i].ok);
		if (!cases[i].ok)
			CU_ASSERT(strstr(uncore_error(), cases[i].why) != NULL &&
				  strstr(uncore_error(), "perf_event_paranoid") != NULL);
		uncore_close(u);
	}
	/* an unreadable perf_event_paranoid below a long sysroot: the reason is whole (gcc 14 saw it cut at 400) */
	struct perf_kernel lk = { .name = "the kernel" };
	memset(lk.root, 'r', sizeof(lk.root) - 1);
	struct perf_sys lps = { .k = &lk, .paranoid = PERF_PARANOID_UNKNOWN };
	CU_ASSERT(perf_errno_error(&lps, EACCES, "uncore_imc_0", 0) == -1);
	const char *e = uncore_error(), *tail = "cannot be read: the kernel has no perf_event support";
	if (strlen(e) < strlen(tail) || strcmp(e + strlen(e) - strlen(tail), tail))
		fprintf(stderr, "FAIL a long sysroot: %s\n", e);
	CU_ASSERT(strlen(e) >= strlen(tail) && !strcmp(e + strlen(e) - strlen(tail), tail));
	/* the kernel's permission comes before the PMU's rules: sampling without it is EACCES, as on Linux */
	struct access *inner = NULL;
	struct perf_kernel *k = sim_kernel_open("snbep,clock=manual,paranoid=2,caps=none", &inner);
	CU_ASSERT_FATAL(k != NULL);
	char type[32] = "";
	CU_ASSERT(k->ops->read_line(k, "/sys/bus/event_source/devices/uncore_cbox_0/type", type, sizeof(type)) == 0);
	struct perf_event_attr a = { .type = (uint32_t)atoi(type), .size = sizeof(a), .sample_period = 1000 };
	expect("sampling without permission", k->ops->open(k, &a, -1, 0, -1, 0), -EACCES);
	a.exclude_kernel = 1; /* perf_allow_kernel is not asked: the PMU refuses first */
	expect("sampling, user only, without permission", k->ops->open(k, &a, -1, 0, -1, 0), -EINVAL);
	k->ops->free(k);
}

/* Sampling, a filter the kernel does not pass, a control field no format covers: refused at add, named. */
static void test_refusals(void)
{
	uncore_t *u = open_sim("perf+sim:snbep,clock=manual"), *d = open_sim("sim:snbep,clock=manual");
	uncore_session_t *s, *ds;
	uncore_session_new(u, &s);
	uncore_session_new(d, &ds);
	uncore_t *iv = open_sim("perf+sim:ivbep,clock=manual"); /* IVB-EP's counters can sample on the registers */
	uncore_session_t *is;
	uncore_session_new(iv, &is);
	CU_ASSERT(uncore_session_add(is, "UNC_M_CAS_COUNT.RD:sample=1000") < 0 && strstr(uncore_error(), "do not sample"));
	uncore_session_free(is);
	uncore_close(iv);
	const char *match = "UNC_H_ADDR_OPC_MATCH.FILT:addr_lo=0x100:opc=0x1";
	CU_ASSERT(uncore_session_add(ds, match) >= 0); /* the registers can */
	CU_ASSERT(uncore_session_add(s, match) < 0);
	CU_ASSERT(strstr(uncore_error(), "uncore_ha has no format for the 'addr_lo' qualifier") != NULL);
	CU_ASSERT(uncore_session_add(s, "UNC_C_LLC_LOOKUP.DATA_READ:state=0x1f") >= 0); /* filter_state exists */
	uncore_session_free(s);
	uncore_session_free(ds);
	uncore_close(u);
	uncore_close(d);
	/* a kernel without the model's entry names every type uncore_type_<t>_<id>, with generic formats */
	u = open_sim("perf+sim:emr,clock=manual,generic=1");
	uncore_session_new(u, &s);
	CU_ASSERT(uncore_session_add(s, "UNC_CHA_TOR_INSERTS.IA_MISS_DRD") < 0);
	CU_ASSERT(strstr(uncore_error(), "uncore_type_0_0 has no format for the umask extension") != NULL);
	int e = uncore_session_add(s, "UNC_CHA_CLOCKTICKS");
	CU_ASSERT_FATAL(e >= 0 && uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT(uncore_session_read(s) == 0);
	double want = sim_of(u->acc)->prof.uncore_hz * (double)uncore_session_elapsed_ns(s) / 1e9 *
		      uncore_unit_boxes(u, 0, 0);
	ASSERT_NEAR(val(s, e, 0), want, want * 1e-6);
	uncore_session_free(s);
	assert_perf_closed(u);
	uncore_close(u);
}

/* A PMU the kernel did not register leaves its unit out, with a warning; the rest counts. */
static void test_missing_pmus(void)
{
	uncore_t *u = open_sim("perf+sim:snbep,clock=manual,missing=uncore_ha,missing=uncore_imc_2");
	int ha = -1, imc = -1;
	for (int i = 0; i < uncore_num_units(u); i++) {
		struct uncore_unit_info ui;
		uncore_unit_info(u, i, &ui);
		if (!strcmp(ui.name, "ha"))
			ha = i;
		if (!strcmp(ui.name, "imc"))
			imc = i;
	}
	CU_ASSERT(uncore_unit_boxes(u, ha, 0) == 0 && uncore_unit_boxes(u, imc, 0) == 3);
	CU_ASSERT(strstr(uncore_warnings(), "ha: the kernel has no PMU uncore_ha") != NULL);
	uncore_close(u);
	CU_ASSERT(uncore_open("perf+sim:montecito", &u) < 0 && strstr(uncore_error(), "Linux has no uncore PMUs"));
}

/* Another perf user holds the box's counters: the kernel multiplexes, the times say so, and scaling
 * (asked for) recovers the rate. */
static void test_multiplexing(void)
{
	for (int scale = 0; scale < 2; scale++) {
		uncore_t *u = open_sim("perf+sim:snbep,clock=manual,busy=uncore_cbox_0:3");
		uncore_set_scaling(u, scale);
		uncore_session_t *s;
		uncore_session_new(u, &s);
		int e = uncore_session_add(s, "UNC_C_CLOCKTICKS:box=0:socket=0");
		int f = uncore_session_add(s, "UNC_C_CLOCKTICKS:box=0:socket=0:thresh=0"); /* a second counter: no fit */
		CU_ASSERT_FATAL(e >= 0 && f >= 0 && uncore_session_start(s) == 0);
		for (int i = 0; i < 200; i++) { /* every read past the 4 ms interval rotates */
			uncore_sleep_ns(u, 5000000);
			CU_ASSERT(uncore_session_read(s) == 0);
		}
		uint64_t en, run, v = val(s, e, 0);
		CU_ASSERT(uncore_session_times(s, e, 0, 0, &en, &run) == 1);
		CU_ASSERT(run > en / 4 && run < en * 3 / 4);
		double truth = sim_of(u->acc)->prof.uncore_hz * (double)en / 1e9;
		/* each 5 ms read interval is wholly in or out: scaled counts are the rate times the time */
		double want = scale ? truth : truth * (double)run / (double)en;
		ASSERT_NEAR(v, want, want * 1e-6);
		fprintf(stderr, "multiplexed%s: running %.1f%% of %.3f s, count %llu, truth %.0f\n", scale ? ", scaled" : "",
			100.0 * (double)run / (double)en, (double)en / 1e9, (unsigned long long)v, truth);
		uncore_session_free(s);
		uncore_close(u);
	}
	/* alone on the box: never multiplexed */
	uncore_t *u = open_sim("perf+sim:snbep,clock=manual");
	uncore_session_t *s;
	uncore_session_new(u, &s);
	int e = uncore_session_add(s, "UNC_C_CLOCKTICKS");
	CU_ASSERT_FATAL(e >= 0 && uncore_session_start(s) == 0);
	uncore_sleep_ns(u, 100000000);
	uncore_session_read(s);
	uint64_t en, run;
	CU_ASSERT(uncore_session_times(s, e, -1, -1, &en, &run) == 0 && en == run && en > 0);
	uncore_session_free(s);
	uncore_close(u);
}

/* Out of file descriptors: the error names the limit and how to raise it, and nothing stays open.  The
 * simulated kernel's is its fds=N (the process's own RLIMIT_NOFILE does not bound it: "ulimit -n" said
 * there was wrong); the kernel's, the process's soft and hard RLIMIT_NOFILE, as getrlimit(2) gives them. */
static void test_fd_limit(void)
{
	uncore_t *u = open_sim("perf+sim:emr,clock=manual,fds=20");
	uncore_session_t *s;
	uncore_session_new(u, &s);
	CU_ASSERT(uncore_session_add(s, "UNC_CHA_CLOCKTICKS") >= 0); /* 60 CHAs x 2 sockets */
	CU_ASSERT(uncore_session_start(s) < 0);
	if (!strstr(uncore_error(), "the simulated kernel lets a process open 20 (its fds=N)"))
		fprintf(stderr, "fds=20: %s\n", uncore_error());
	CU_ASSERT(strstr(uncore_error(), "the simulated kernel lets a process open 20 (its fds=N)") != NULL);
	assert_perf_closed(u);
	uncore_session_free(s);
	uncore_close(u);

	struct perf_kernel k = { .name = "the kernel" };
	struct perf_sys ps = { .k = &k };
	struct rlimit rl;
	char want[160];
	CU_ASSERT_FATAL(getrlimit(RLIMIT_NOFILE, &rl) == 0);
	snprintf(want, sizeof(want), "uncore_imc_0 on CPU 3: out of file descriptors: this process may open %llu "
		 "(RLIMIT_NOFILE's soft limit; its hard limit ", (unsigned long long)rl.rlim_cur);
	CU_ASSERT(perf_errno_error(&ps, EMFILE, "uncore_imc_0", 3) == -1);
	if (strncmp(uncore_error(), want, strlen(want)))
		fprintf(stderr, "EMFILE: %s\n", uncore_error());
	CU_ASSERT(strncmp(uncore_error(), want, strlen(want)) == 0);
	if (rl.rlim_max != RLIM_INFINITY) {
		snprintf(want, sizeof(want), "its hard limit %llu)", (unsigned long long)rl.rlim_max);
		CU_ASSERT(strstr(uncore_error(), want) != NULL);
	}
	CU_ASSERT(strstr(uncore_error(), rl.rlim_cur < rl.rlim_max ? "raise it (ulimit -n " : "as root") != NULL);
}

/* Every event of every metric counts through the perf backend what it counts on the registers. */
static void test_equal_to_direct(void)
{
	static const char *const plats[] = { "snbep", "ivbep", "nhm", "emr", "skx", "clx", "icx" };
	for (int p = 0; p < (int)(sizeof(plats) / sizeof(plats[0])); p++) {
		char ds[64], ps[64];
		snprintf(ds, sizeof(ds), "sim:%s,clock=manual", plats[p]);
		snprintf(ps, sizeof(ps), "perf+sim:%s,clock=manual", plats[p]);
		uncore_t *d = open_sim(ds), *u = open_sim(ps);
		int n = uncore_num_metrics(d), events = 0;
		for (int m = 0; m < n; m++) {
			struct uncore_metric_info mi;
			uncore_session_t *s[2];
			uncore_metric_info(d, m, &mi);
			uncore_t *h[2] = { d, u };
			for (int b = 0; b < 2; b++) {
				uncore_session_new(h[b], &s[b]);
				CU_ASSERT_FATAL(uncore_session_add_metric(s[b], mi.name) >= 0);
				CU_ASSERT_FATAL(uncore_session_start(s[b]) == 0);
				uncore_sleep_ns(h[b], 500000000);
				CU_ASSERT(uncore_session_read(s[b]) == 0);
			}
			CU_ASSERT_EQUAL(uncore_session_num_events(s[0]), uncore_session_num_events(s[1]));
			for (int e = 0; e < uncore_session_num_events(s[0]); e++)
				for (int sock = 0; sock < uncore_num_sockets(d); sock++) {
					uint64_t a = val(s[0], e, sock), b = val(s[1], e, sock);
					/* the windows differ by the reads' own ticks, one more for each box read after the first (the
					 * CHAs' local/remote requests: 60 boxes a socket on emr) */
					int nb = uncore_session_event_boxes(s[0], e, sock);
					double tol = 1 + (double)a * 1e-6 * (nb > 1 ? nb : 1);
					if (fabs((double)a - (double)b) > tol)
						fprintf(stderr, "%s %s %s socket %d: direct %llu, perf %llu\n", plats[p], mi.name,
							uncore_session_event_name(s[0], e), sock, (unsigned long long)a,
							(unsigned long long)b);
					CU_ASSERT(fabs((double)a - (double)b) <= tol);
					events++;
				}
			uncore_session_free(s[0]);
			uncore_session_free(s[1]);
			assert_perf_closed(u);
		}
		fprintf(stderr, "%s: %d metrics, %d event values equal between direct and perf\n", plats[p], n, events);
		uncore_close(d);
		uncore_close(u);
	}
}

/* auto: the kernel's PMUs when this platform has them and they may be used, else the registers, else both
 * reasons (a fake machine: a Sandy Bridge-EP without /dev/cpu). */
static void test_auto(void)
{
	snprintf(root, sizeof(root), "%s/test_perf_auto.%d", test_tmpdir(), (int)getpid());
	put_str("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 45\nmodel name\t: Xeon @ 2.70GHz\n", "/proc/cpuinfo");
	put_str("0\n", "/sys/devices/system/cpu/cpu0/topology/physical_package_id");
	setenv("UNCORE_SYSROOT", root, 1);
	uncore_t *u = NULL;
	CU_ASSERT(uncore_open("auto", &u) < 0);
	if (!strstr(uncore_error(), "perf: no uncore PMUs") || !strstr(uncore_error(), "direct: "))
		fprintf(stderr, "auto: %s\n", uncore_error());
	CU_ASSERT(strstr(uncore_error(), "perf: no uncore PMUs") && strstr(uncore_error(), "direct: "));
	put_str("-1\n", "/proc/sys/kernel/perf_event_paranoid");
	put_str("17\n", "/sys/bus/event_source/devices/uncore_imc_0/type");
	put_str("0\n", "/sys/bus/event_source/devices/uncore_imc_0/cpumask");
	put_str("config:0-7\n", "/sys/bus/event_source/devices/uncore_imc_0/format/event");
	put_str("config:8-15\n", "/sys/bus/event_source/devices/uncore_imc_0/format/umask");
	int rc = uncore_open("auto", &u);
	if (rc)
		fprintf(stderr, "auto: %s\n", uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	CU_ASSERT_STRING_EQUAL(uncore_backend_name(u), "perf");
	CU_ASSERT(strstr(uncore_backend_reason(u), "the kernel has 1 uncore PMUs and perf_event_paranoid -1") != NULL);
	CU_ASSERT(strstr(uncore_warnings(), "cbo: the kernel has no PMU uncore_cbox[_N]") != NULL);
	uncore_close(u);
	fake_tree_remove();
}

/* Only the uncore driver's PMUs are taken: a PMU named uncore_* whose type is one of the kernel's generic
 * types (software 1, raw 4) is left out with a warning naming it, and PMUs of other names are ignored. */
static void test_only_uncore_pmus(void)
{
	static const struct { const char *name, *type; int taken; } pmus[] = {
		{ "uncore_imc_0", "1", 0 }, { "uncore_imc_1", "4", 0 }, { "uncore_imc_2", "17", 1 },
		{ "uncorefoo", "18", 0 },   { "msr", "9", 0 },          { "software", "1", 0 },
	};
	char path[160];
	snprintf(root, sizeof(root), "%s/test_perf_types.%d", test_tmpdir(), (int)getpid());
	put_str("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 45\nmodel name\t: Xeon @ 2.70GHz\n", "/proc/cpuinfo");
	put_str("0\n", "/sys/devices/system/cpu/cpu0/topology/physical_package_id");
	put_str("-1\n", "/proc/sys/kernel/perf_event_paranoid");
	for (size_t i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++) {
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmus[i].name);
		put_str(pmus[i].type, path);
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/cpumask", pmus[i].name);
		put_str("0\n", path);
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/format/event", pmus[i].name);
		put_str("config:0-7\n", path);
	}
	setenv("UNCORE_SYSROOT", root, 1);
	uncore_t *u = NULL;
	int rc = uncore_open("perf", &u);
	if (rc)
		fprintf(stderr, "perf: %s\n", uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	for (size_t i = 0; i < sizeof(pmus) / sizeof(pmus[0]); i++) {
		int taken = perf_pmu_named(u->perf, pmus[i].name) != NULL;
		if (taken != pmus[i].taken)
			fprintf(stderr, "PMU %s (type %s) %s\n", pmus[i].name, pmus[i].type, taken ? "taken" : "left out");
		CU_ASSERT_EQUAL(taken, pmus[i].taken);
	}
	CU_ASSERT_EQUAL(u->perf->npmus, 1);
	const char *w = uncore_warnings();
	CU_ASSERT(strstr(w, "uncore_imc_0: type 1 in ") && strstr(w, "uncore_imc_1: type 4 in "));
	CU_ASSERT(strstr(w, "is one of the kernel's generic event types") != NULL);
	CU_ASSERT(!strstr(w, "uncorefoo") && !strstr(w, "msr:"));
	uncore_close(u);
	fake_tree_remove();
}

/* Group values by id: an unrelated event on the same box, opened before the group and closed while it
 * counts, changes nothing in what each member reads (Linux keeps a group's order, and the backend
 * matches ids, never places). */
static void test_group_read_by_id(void)
{
	uncore_t *u = open_sim("perf+sim:snbep,clock=manual");
	const struct sim *sim = sim_of(u->acc);
	uncore_session_t *a, *b;
	CU_ASSERT_FATAL(uncore_session_new(u, &b) == 0 && uncore_session_add(b, "UNC_M_ACT_COUNT:socket=0:box=0") == 0);
	CU_ASSERT_FATAL(uncore_session_start(b) == 0);
	CU_ASSERT_FATAL(uncore_session_new(u, &a) == 0);
	int rd = uncore_session_add(a, "UNC_M_CAS_COUNT.RD:socket=0:box=0");
	int wr = uncore_session_add(a, "UNC_M_CAS_COUNT.WR:socket=0:box=0");
	CU_ASSERT_FATAL(rd == 0 && wr == 1 && uncore_session_start(a) == 0);
	uncore_session_free(b); /* the unrelated event goes */
	uncore_sleep_ns(u, 100000000);
	CU_ASSERT(uncore_session_read(a) == 0);
	/* one channel's reads and writes over one window: their ratio is the profile's */
	double got = (double)val(a, rd, 0) / (double)val(a, wr, 0), want = sim->prof.mem_read_bps[0] / sim->prof.mem_write_bps[0];
	fprintf(stderr, "reads/writes of imc 0: %.4f, profile %.4f\n", got, want);
	ASSERT_NEAR(got, want, want * 1e-3);
	uncore_session_free(a);
	uncore_close(u);
	/* a kernel before 6.0 refuses PERF_FORMAT_LOST: the backend reads without it, the same values */
	u = open_sim("perf+sim:snbep,clock=manual,lost=0");
	sim = sim_of(u->acc);
	CU_ASSERT_FATAL(uncore_session_new(u, &a) == 0);
	CU_ASSERT_FATAL(uncore_session_add(a, "UNC_C_CLOCKTICKS:socket=0:box=0") == 0 && uncore_session_start(a) == 0);
	uncore_sleep_ns(u, 100000000);
	uint64_t en, run;
	CU_ASSERT(uncore_session_read(a) == 0 && uncore_session_times(a, 0, 0, 0, &en, &run) == 0 && en == run && en > 0);
	ASSERT_NEAR(val(a, 0, 0), sim->prof.uncore_hz * (double)en / 1e9, sim->prof.uncore_hz * 1e-6);
	uncore_session_free(a);
	uncore_close(u);
	/* and the simulated kernel reads a group as Linux does: the leader, then its members as made */
	u = open_sim("perf+sim:snbep,clock=manual");
	struct perf_event_attr at = { .type = type_of(u, "uncore_imc_0"), .size = sizeof(at), .config = 0x0304,
				      .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID };
	int x = kern(u)->ops->open(kern(u), &at, -1, 0, -1, 0);
	int l = kern(u)->ops->open(kern(u), &at, -1, 0, -1, 0);
	at.config = 0x0c04;
	int m = kern(u)->ops->open(kern(u), &at, -1, 0, l, 0);
	uint64_t idl = 0, idm = 0, buf[8] = { 0 };
	CU_ASSERT_FATAL(x >= 0 && l >= 0 && m >= 0);
	CU_ASSERT(kern(u)->ops->ioctl(kern(u), l, PERF_EVENT_IOC_ID, (unsigned long)&idl) == 0);
	CU_ASSERT(kern(u)->ops->ioctl(kern(u), m, PERF_EVENT_IOC_ID, (unsigned long)&idm) == 0);
	CU_ASSERT(idl != idm && idl != (uint64_t)l && idm != (uint64_t)m); /* ids are not file descriptors */
	CU_ASSERT(kern(u)->ops->close(kern(u), x) == 0);
	CU_ASSERT(kern(u)->ops->read(kern(u), l, buf, sizeof(buf)) == 5 * 8); /* nr, {value, id} x 2 */
	CU_ASSERT(buf[0] == 2 && buf[2] == idl && buf[4] == idm);
	kern(u)->ops->close(kern(u), m);
	kern(u)->ops->close(kern(u), l);
	uncore_close(u);
}

/* EMR's CHA umask runs over config bits 8-15 and 32-63 in Linux (umask_ext5): every CHA event of the
 * catalog goes through perf+sim:emr, those with umask extension bits above 55 (bit 23 of the
 * extension) included. */
static void test_emr_cha_umask(void)
{
	uncore_t *u = open_sim("perf+sim:emr,clock=manual");
	int n = 0, high = 0, refused = 0;
	for (int i = 0; i < uncore_num_events(u); i++) {
		struct uncore_event_info ei;
		uncore_session_t *s;
		if (uncore_event_info(u, i, &ei) || strcmp(ei.unit, "cha") || ei.freerun)
			continue;
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		n++;
		high += (ei.umask_ext >> 24) != 0;
		if (uncore_session_add(s, ei.name) < 0) {
			if (refused++ < 3)
				fprintf(stderr, "refused: %s (umask_ext 0x%x): %s\n", ei.name, ei.umask_ext, uncore_error());
		}
		uncore_session_free(s);
	}
	fprintf(stderr, "perf+sim:emr: %d CHA events, %d with umask bits above 55, %d refused\n", n, high, refused);
	CU_ASSERT(n > 100 && high > 0);
	CU_ASSERT_EQUAL(refused, 0);
	uncore_close(u);
}

static int add_name(void *arg, const char *name)
{
	char *list = arg;
	size_t n = strlen(list);
	snprintf(list + n, 1024 - n, "%s%s", n ? " " : "", name);
	return 0;
}

/* IVB-EP's QPI PMU has the formats ivbep_uncore_qpi_formats_attr gives it in Linux 6.1 and 6.12 (the
 * same match and mask fields as SNB-EP's, and no inv), listed here in the driver's order. */
static void test_ivbep_qpi_formats(void)
{
	static const char *const linux_qpi[] = { "event", "umask", "edge", "thresh", "match_rds", "match_rnid30",
		"match_rnid4", "match_dnid", "match_mc", "match_opc", "match_vnw", "match0", "match1", "mask_rds",
		"mask_rnid30", "mask_rnid4", "mask_dnid", "mask_mc", "mask_opc", "mask_vnw", "mask0", "mask1", NULL };
	uncore_t *u = open_sim("perf+sim:ivbep,clock=manual");
	char list[1024] = "", line[64] = "";
	int n = 0;
	CU_ASSERT(kern(u)->ops->list_dir(kern(u), "/sys/bus/event_source/devices/uncore_qpi_0/format", add_name, list) == 0);
	for (int i = 0; linux_qpi[i]; i++, n++) {
		char word[40];
		snprintf(word, sizeof(word), " %s ", linux_qpi[i]);
		char padded[1040];
		snprintf(padded, sizeof(padded), " %s ", list);
		if (!strstr(padded, word))
			fprintf(stderr, "uncore_qpi_0 has no format %s (it has: %s)\n", linux_qpi[i], list);
		CU_ASSERT(strstr(padded, word) != NULL);
	}
	int have = 1;
	for (const char *c = list; *c; c++)
		have += *c == ' ';
	CU_ASSERT_EQUAL(have, n); /* and nothing else */
	CU_ASSERT(kern(u)->ops->read_line(kern(u), "/sys/bus/event_source/devices/uncore_qpi_0/format/match_rds", line,
					  sizeof(line)) == 0 && !strcmp(line, "config1:48-51"));
	uncore_close(u);
}

/* The aliases' .scale and .unit files, as the driver writes them: what perf stat multiplies a count by. */
static void test_alias_scale_unit(void)
{
	static const struct { const char *spec, *file, *text; } files[] = {
		{ "perf+sim:snbep", "uncore_imc_0/events/cas_count_read.scale", "6.103515625e-5" },
		{ "perf+sim:snbep", "uncore_imc_0/events/cas_count_write.unit", "MiB" },
		{ "perf+sim:ivbep", "uncore_imc_0/events/cas_count_write.scale", "6.103515625e-5" },
		{ "perf+sim:emr", "uncore_imc_0/events/cas_count_read.unit", "MiB" },
		{ "perf+sim:emr", "uncore_imc_0/events/cas_count_write.scale", "6.103515625e-5" },
		{ "perf+sim:emr", "uncore_iio_free_running_0/events/bw_in_port0.scale", "3.0517578125e-5" },
		{ "perf+sim:emr", "uncore_iio_free_running_0/events/bw_in_port7.unit", "MiB" },
	};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		uncore_t *u = open_sim(files[i].spec);
		char path[160], line[64] = "";
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s", files[i].file);
		int rc = kern(u)->ops->read_line(kern(u), path, line, sizeof(line));
		if (rc || strcmp(line, files[i].text))
			fprintf(stderr, "%s: %s: '%s', expected '%s'\n", files[i].spec, files[i].file, line, files[i].text);
		CU_ASSERT(rc == 0 && !strcmp(line, files[i].text));
		uncore_close(u);
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "perf_event_open refuses what Linux refuses", test_open_rules },
		{ "config bits the driver does not know are dropped silently", test_unknown_bits_dropped },
		{ "perf_event_paranoid and capabilities decide, named", test_permissions },
		{ "sampling, missing formats and filters are refused by name", test_refusals },
		{ "PMUs the kernel did not register are left out with a warning", test_missing_pmus },
		{ "multiplexing is reported, and scaled when asked", test_multiplexing },
		{ "out of file descriptors: the limit is named", test_fd_limit },
		{ "every metric's events count as on the registers", test_equal_to_direct },
		{ "auto picks perf when it may, else says why", test_auto },
		{ "only uncore PMUs: generic types and other names are left out", test_only_uncore_pmus },
		{ "a group's values go by id, after an unrelated event on the box closed", test_group_read_by_id },
		{ "EMR CHA umask over config bits 8-15 and 32-63, as Linux", test_emr_cha_umask },
		{ "IVB-EP QPI formats as Linux lists them", test_ivbep_qpi_formats },
		{ "the aliases' .scale and .unit files, as the driver writes them", test_alias_scale_unit },
		{ NULL, NULL },
	};
	return run_suite("perf", tests);
}
