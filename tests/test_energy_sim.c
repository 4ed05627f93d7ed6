/*
 * The simulated machine's energy interfaces (issue 68 point 4) at the register and file level, against the
 * truth of tests/sim_truth.h (the profile's watts and the bytes the memory moved) on every platform from
 * SNB-EP to DMR: the RAPL MSRs (0x606 with the part's units, 0x611, 0x619, 0x64D on SPR/EMR), powercap's
 * /sys/class/powercap/intel-rapl:N[:M] files and the simulated kernel's `power` PMU, read across their 32-bit
 * wraps at 1 s and 60 s; DRAM energy rising with the traffic; the faults stuck:energy-* and badunit:rapl; and
 * Nehalem-EP and Montecito, which have no RAPL.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "access/access.h"
#include "access/perf_kernel.h"
#include "sim_kernel/sim_kernel.h"
#include "sim/sim.h"
#include "sim_truth.h"

/* What each part shows, from the datasheets and Linux 6.12 (not from the simulator's table): 0x606's value
 * (SNB-EP and IVB-EP 0xA1003, energy 2^-16 J; later 0xA0E03, 2^-14 J), the DRAM counter's own unit (2^-16 J on
 * HSX, BDX, BDX-DE, SKX, ICX: "fixed 15.3 uJ", Xeon E5 v3 datasheet 330784-001 5.3.3), the picojoules powercap
 * takes DRAM's count for (nanojoules: rapl_defaults_hsw_server 15300; rapl_defaults_core on BDX-DE and the rest:
 * 0x606's, 1e9 >> ESU), and whether MSR_PLATFORM_ENERGY_STATUS counts: 1 on SPR, EMR (1 J, RAPL_UNIT_QUIRK_INTEL_SPR,
 * the kernel shows it), 2 on GNR, SRF (the MSR alone, 1 J: PCM cpucounters.h systemEnergyMetricAvailable and
 * getSystemConsumedJoules, intel/pcm 0fae0de1; Linux 6.12 reads their RAPL through TPMI, whose system domain is
 * the firmware's to give, and the simulated firmware gives none). */
struct part {
	const char *name;
	uint64_t unit_msr;
	int dram_esu;
	uint64_t powercap_dram_nj;
	int psys;
};
static const struct part parts[] = {
	{ "snbep", 0xa1003, 16, 15258, 0 }, { "ivbep", 0xa1003, 16, 15258, 0 }, { "hsx", 0xa0e03, 16, 15300, 0 },
	{ "bdx", 0xa0e03, 16, 15300, 0 },   { "bdxde", 0xa0e03, 16, 61035, 0 }, { "skx", 0xa0e03, 16, 15300, 0 },
	{ "clx", 0xa0e03, 16, 15300, 0 },   { "icx", 0xa0e03, 16, 15300, 0 },   { "spr", 0xa0e03, 14, 61035, 1 },
	{ "emr", 0xa0e03, 14, 61035, 1 },   { "gnr", 0xa0e03, 14, 61035, 2 },   { "srf", 0xa0e03, 14, 61035, 2 },
	{ "cwf", 0xa0e03, 14, 61035, 0 },   { "dmr", 0xa0e03, 14, 61035, 0 },
};
#define NPARTS (sizeof(parts) / sizeof(parts[0]))
static const uint32_t status_msr[SIM_RAPL_DOMAINS] = { 0x611, 0x619, 0x64d };

/* The joules one count of domain d is (the hardware's unit). */
static double unit_of(const struct part *p, int d)
{
	int esu = (int)(p->unit_msr >> 8 & 0x1f);
	return d == SIM_RAPL_PSYS ? 1.0 : ldexp(1.0, -(d == SIM_RAPL_DRAM ? p->dram_esu : esu));
}

static int has(const struct part *p, int d) { return d != SIM_RAPL_PSYS || p->psys; }
/* ... and the kernel shows it (powercap, perf) */
static int kernel_has(const struct part *p, int d) { return d != SIM_RAPL_PSYS || p->psys == 1; }

/* A CPU of socket s that is not its first (a package's counters answer on every CPU of it). */
static int cpu_of(const struct sim *sim, int s) { return s * sim->dies * sim->cores + sim->cores - 1; }

static uint64_t rdmsr(struct access *a, int cpu, uint32_t reg)
{
	uint64_t v = 0;
	int rc = a->ops->msr_read(a, cpu, reg, &v);
	if (rc)
		fprintf(stderr, "rdmsr 0x%x on CPU %d: %s\n", reg, cpu, uncore_error());
	CU_ASSERT(rc == 0);
	return v;
}

/* The steps of a run: 1 s apart, then 60 s apart, with a stretch of heavy traffic between (DRAM's energy
 * follows it), over more than a wrap of each counter (prewrap: they start 30 s short of it). */
#define FAST_STEPS 40
#define SLOW_STEPS 70
static void step(struct sim *sim, int i)
{
	if (i == FAST_STEPS) {
		int rc = sim_workload(sim, sim->nsockets - 1, 400e9, 200e9, 20000000000ull); /* 30 GB/s for 20 s */
		if (rc)
			fprintf(stderr, "%s: %s\n", sim->name, uncore_error());
		CU_ASSERT(rc == 0);
	} else
		sim_advance(sim, i < FAST_STEPS ? 1000000000ull : 60000000000ull);
}

/* A difference of two reads of a counter that wraps at range + 1. */
static uint64_t wrapped(uint64_t now, uint64_t before, uint64_t range, int *wraps)
{
	*wraps += now < before;
	return now >= before ? now - before : now + (range + 1) - before;
}

/* The MSRs: each delta times the unit adds up to the truth, wraps included, on every socket and domain. */
static void msr_part(const struct part *p)
{
	char spec[96];
	snprintf(spec, sizeof(spec), "%s,clock=manual,prewrap=30", p->name);
	struct access *a = access_sim_open(spec);
	CU_ASSERT_FATAL(a != NULL);
	struct sim *sim = a->priv;
	uint64_t prev[UC_MAX_SOCKETS][SIM_RAPL_DOMAINS], sum[UC_MAX_SOCKETS][SIM_RAPL_DOMAINS] = { { 0 } };
	double t0[UC_MAX_SOCKETS][SIM_RAPL_DOMAINS];
	int wraps[UC_MAX_SOCKETS][SIM_RAPL_DOMAINS] = { { 0 } };
	if (rdmsr(a, cpu_of(sim, sim->nsockets - 1), 0x606) != p->unit_msr)
		fprintf(stderr, "%s: MSR_RAPL_POWER_UNIT 0x%llx, want 0x%llx\n", p->name,
			(unsigned long long)rdmsr(a, 0, 0x606), (unsigned long long)p->unit_msr);
	CU_ASSERT_EQUAL(rdmsr(a, cpu_of(sim, sim->nsockets - 1), 0x606), p->unit_msr);
	uint64_t tdp8 = rdmsr(a, 0, 0x614) & 0x7fff; /* thermal spec power in 1/8 W: a server part's 40..600 W */
	CU_ASSERT(tdp8 >= 8 * 40 && tdp8 <= 8 * 600);
	for (int s = 0; s < sim->nsockets; s++)
		for (int d = 0; d < SIM_RAPL_DOMAINS; d++)
			if (has(p, d)) {
				prev[s][d] = rdmsr(a, cpu_of(sim, s), status_msr[d]);
				t0[s][d] = truth_energy_j(sim, s, d);
			}
	for (int i = 0; i < FAST_STEPS + SLOW_STEPS; i++) {
		step(sim, i);
		for (int s = 0; s < sim->nsockets; s++)
			for (int d = 0; d < SIM_RAPL_DOMAINS; d++) {
				if (!has(p, d))
					continue;
				uint64_t v = rdmsr(a, cpu_of(sim, s), status_msr[d]);
				CU_ASSERT(v <= 0xffffffffull); /* 32 bits of count */
				sum[s][d] += wrapped(v, prev[s][d], 0xffffffffull, &wraps[s][d]);
				prev[s][d] = v;
			}
	}
	for (int s = 0; s < sim->nsockets; s++)
		for (int d = 0; d < SIM_RAPL_DOMAINS; d++) {
			if (!has(p, d))
				continue;
			double got = (double)sum[s][d] * unit_of(p, d), want = truth_energy_j(sim, s, d) - t0[s][d];
			int ok = fabs(got - want) <= 2 * unit_of(p, d) && (wraps[s][d] >= 1 || (d == SIM_RAPL_PSYS && s));
			printf("%s socket %d %s: %.3f J counted over %d wraps, truth %.3f J%s\n", p->name, s, sim_rapl_name(d),
			       got, wraps[s][d], want, ok ? "" : " (wrong)");
			CU_ASSERT(ok);
		}
	a->ops->close(a);
}

static void test_msr(void)
{
	for (size_t i = 0; i < NPARTS; i++)
		msr_part(&parts[i]);
}

/* powercap's zones: names, and energy_uj's deltas (wrapping past max_energy_range_uj) equal to the truth in
 * the unit Linux takes (15300 pJ for the fixed DRAM unit of 2^-16 J: 0.27 % over; BDX-DE's DRAM 4 x). */
static void powercap_part(const struct part *p)
{
	char spec[96], path[160], text[64];
	snprintf(spec, sizeof(spec), "%s,clock=manual,prewrap=30", p->name);
	struct access *a = access_sim_open(spec);
	CU_ASSERT_FATAL(a != NULL);
	struct sim *sim = a->priv;
	struct memfs m = { 0 };
	CU_ASSERT_FATAL(sim_rapl_sysfs(sim, &m) == 0);
	struct { char dir[96]; int s, d; uint64_t prev, sum, range; double t0; int wraps; } z[3 * UC_MAX_SOCKETS];
	int nz = 0, top = 0;
	for (int s = 0; s < sim->nsockets; s++) { /* package-S, its dram, psys (a zone of its own) after package 0 */
		snprintf(z[nz].dir, sizeof(z[nz].dir), "/sys/class/powercap/intel-rapl:%d", top);
		z[nz].s = s, z[nz++].d = SIM_RAPL_PKG;
		snprintf(z[nz].dir, sizeof(z[nz].dir), "/sys/class/powercap/intel-rapl:%d:0", top++);
		z[nz].s = s, z[nz++].d = SIM_RAPL_DRAM;
		if (p->psys == 1 && s == 0) {
			snprintf(z[nz].dir, sizeof(z[nz].dir), "/sys/class/powercap/intel-rapl:%d", top++);
			z[nz].s = s, z[nz++].d = SIM_RAPL_PSYS;
		}
	}
	snprintf(path, sizeof(path), "/sys/class/powercap/intel-rapl:%d", top);
	CU_ASSERT(memfs_find(&m, path) == NULL && memfs_find(&m, strcat(path, "/name")) == NULL); /* no zone more */
	for (int i = 0; i < nz; i++) {
		char want[32];
		const struct memfs_file *f;
		snprintf(want, sizeof(want), z[i].d == SIM_RAPL_PKG ? "package-%d" : z[i].d == SIM_RAPL_DRAM ? "dram" : "psys", z[i].s);
		snprintf(path, sizeof(path), "%s/name", z[i].dir);
		f = memfs_find(&m, path);
		CU_ASSERT_FATAL(f && !memfs_read(f, text, sizeof(text)));
		if (strcmp(text, want))
			fprintf(stderr, "%s: %s is '%s', want '%s'\n", p->name, path, text, want);
		CU_ASSERT_STRING_EQUAL(text, want);
		snprintf(path, sizeof(path), "%s/max_energy_range_uj", z[i].dir);
		f = memfs_find(&m, path);
		CU_ASSERT_FATAL(f && !memfs_read(f, text, sizeof(text)));
		z[i].range = strtoull(text, NULL, 10);
		z[i].sum = 0;
		z[i].wraps = 0;
		z[i].t0 = truth_energy_j(sim, z[i].s, z[i].d);
	}
	for (int i = -1; i < FAST_STEPS + SLOW_STEPS; i++) {
		if (i >= 0)
			step(sim, i);
		for (int k = 0; k < nz; k++) {
			snprintf(path, sizeof(path), "%s/energy_uj", z[k].dir);
			const struct memfs_file *f = memfs_find(&m, path);
			CU_ASSERT_FATAL(f && !memfs_read(f, text, sizeof(text)));
			uint64_t v = strtoull(text, NULL, 10);
			if (i >= 0)
				z[k].sum += wrapped(v, z[k].prev, z[k].range, &z[k].wraps);
			z[k].prev = v;
		}
	}
	for (int k = 0; k < nz; k++) {
		int d = z[k].d;
		double nj = d == SIM_RAPL_DRAM ? (double)p->powercap_dram_nj : d == SIM_RAPL_PSYS ? 1e9 : (double)(1000000000ull >> (p->unit_msr >> 8 & 0x1f));
		double factor = nj / (unit_of(p, d) * 1e9), want = (truth_energy_j(sim, z[k].s, d) - z[k].t0) * factor;
		/* a count's truncation at each end, and at each wrap the count the range is short of 2^32 counts */
		double got = (double)z[k].sum / 1e6, tol = (2 + z[k].wraps) * 2 * nj * 1e-9;
		int ok = fabs(got - want) <= tol && z[k].wraps >= 1 && z[k].range == 0xffffffffull * (uint64_t)nj / 1000;
		printf("%s %s (%s): %.6f J over %d wraps, truth x %.6f = %.6f J%s\n", p->name, z[k].dir + 20,
		       sim_rapl_name(d), got, z[k].wraps, factor, want, ok ? "" : " (wrong)");
		CU_ASSERT(ok);
	}
	memfs_free(&m);
	a->ops->close(a);
}

static void test_powercap(void)
{
	for (size_t i = 0; i < NPARTS; i++)
		powercap_part(&parts[i]);
}

static int read_file(struct perf_kernel *k, const char *path, char *buf, size_t len)
{
	int rc = k->ops->read_line(k, path, buf, len);
	if (rc)
		fprintf(stderr, "%s: cannot be read\n", path);
	return rc;
}

/* The power PMU: its files as rapl.c writes them, events opened on a CPU of each package that is not the one
 * its cpumask names, counting the truth in 2^-32 J (TPMI's scale truncated: 262143 for 2^18, 4 ppm under). */
static void perf_part(const struct part *p)
{
	char spec[96], text[128], path[160];
	struct access *acc;
	snprintf(spec, sizeof(spec), "%s,clock=manual,prewrap=30", p->name);
	struct perf_kernel *k = sim_kernel_open(spec, &acc);
	CU_ASSERT_FATAL(k != NULL);
	struct sim *sim = acc->priv;
	CU_ASSERT_FATAL(read_file(k, "/sys/bus/event_source/devices/power/type", text, sizeof(text)) == 0);
	unsigned type = (unsigned)strtoul(text, NULL, 10);
	CU_ASSERT(read_file(k, "/sys/bus/event_source/devices/power/format/event", text, sizeof(text)) == 0 &&
		  !strcmp(text, "config:0-7"));
	CU_ASSERT(read_file(k, "/sys/bus/event_source/devices/power/cpumask", text, sizeof(text)) == 0);
	char mask[64] = "";
	for (int s = 0, n = 0; s < sim->nsockets; s++) /* the first CPU of each package */
		n += snprintf(mask + n, sizeof(mask) - (size_t)n, "%s%d", s ? "," : "", s * sim->dies * sim->cores);
	CU_ASSERT_STRING_EQUAL(text, mask);
	static const char *const ev[SIM_RAPL_DOMAINS] = { "energy-pkg", "energy-ram", "energy-psys" };
	static const uint64_t config[SIM_RAPL_DOMAINS] = { 2, 3, 5 };
	int fd[UC_MAX_SOCKETS][SIM_RAPL_DOMAINS];
	double t0[UC_MAX_SOCKETS][SIM_RAPL_DOMAINS];
	for (int d = 0; d < SIM_RAPL_DOMAINS; d++) {
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/power/events/%s", ev[d]);
		if (!kernel_has(p, d)) {
			CU_ASSERT(k->ops->read_line(k, path, text, sizeof(text)) == -1);
			continue;
		}
		snprintf(mask, sizeof(mask), "event=0x%02llx", (unsigned long long)config[d]);
		CU_ASSERT(read_file(k, path, text, sizeof(text)) == 0 && !strcmp(text, mask));
		strcat(path, ".scale");
		CU_ASSERT(read_file(k, path, text, sizeof(text)) == 0 && !strcmp(text, "2.3283064365386962890625e-10"));
		strcpy(path + strlen(path) - 6, ".unit");
		CU_ASSERT(read_file(k, path, text, sizeof(text)) == 0 && !strcmp(text, "Joules"));
		for (int s = 0; s < sim->nsockets; s++) {
			struct perf_event_attr at = { .type = type, .size = sizeof(at), .config = config[d] };
			fd[s][d] = k->ops->open(k, &at, -1, cpu_of(sim, s), -1, 0);
			CU_ASSERT_FATAL(fd[s][d] >= 0);
			t0[s][d] = truth_energy_j(sim, s, d);
		}
	}
	struct perf_event_attr bad = { .type = type, .size = sizeof(bad), .config = 0x02 | 0x100 };
	CU_ASSERT(k->ops->open(k, &bad, -1, 0, -1, 0) == -EINVAL); /* beyond RAPL_EVENT_MASK */
	bad.config = 0x02;
	CU_ASSERT(k->ops->open(k, &bad, 0, -1, -1, 0) == -EINVAL); /* a task's event */
	for (int i = 0; i < FAST_STEPS + SLOW_STEPS; i++)
		step(sim, i);
	for (int d = 0; d < SIM_RAPL_DOMAINS; d++)
		for (int s = 0; s < sim->nsockets && kernel_has(p, d); s++) {
			uint64_t count = 0;
			CU_ASSERT(k->ops->read(k, fd[s][d], &count, sizeof(count)) == (ssize_t)sizeof(count));
			double got = ldexp((double)count, -32), want = truth_energy_j(sim, s, d) - t0[s][d];
			int ok = fabs(got - want) <= 2 * unit_of(p, d) + 5e-6 * want;
			printf("%s perf %s socket %d: %.3f J, truth %.3f J%s\n", p->name, ev[d], s, got, want, ok ? "" : " (wrong)");
			CU_ASSERT(ok);
			CU_ASSERT(k->ops->close(k, fd[s][d]) == 0);
		}
	CU_ASSERT_EQUAL(sim_kernel_open_events(k), 0);
	k->ops->free(k);
}

static void test_perf(void)
{
	for (size_t i = 0; i < NPARTS; i++)
		perf_part(&parts[i]);
}

/* DRAM's energy over a stretch is its idle watts plus its watts per GB/s times the GB/s its traffic moved. */
static void test_traffic(void)
{
	struct access *a = access_sim_open("skx,clock=manual");
	CU_ASSERT_FATAL(a != NULL);
	struct sim *sim = a->priv;
	uint64_t v0 = rdmsr(a, 0, 0x619);
	CU_ASSERT(sim_workload(sim, 0, 300e9, 100e9, 10000000000ull) == 0); /* 40 GB/s for 10 s */
	double busy = (double)((rdmsr(a, 0, 0x619) - v0) & 0xffffffffull) * ldexp(1, -16);
	v0 = rdmsr(a, 0, 0x619);
	CU_ASSERT(sim_workload(sim, 0, 0, 0, 10000000000ull) == 0); /* idle for 10 s */
	double idle = (double)((rdmsr(a, 0, 0x619) - v0) & 0xffffffffull) * ldexp(1, -16);
	double want_busy = 10 * sim->prof.dram_idle_w[0] + 400 * sim->prof.dram_w_per_gbps[0];
	printf("skx DRAM: %.4f J busy (truth %.4f), %.4f J idle (truth %.4f)\n", busy, want_busy, idle, 10 * sim->prof.dram_idle_w[0]);
	ASSERT_NEAR(busy, want_busy, 2 * ldexp(1, -16));
	ASSERT_NEAR(idle, 10 * sim->prof.dram_idle_w[0], 2 * ldexp(1, -16));
	a->ops->close(a);
}

/* stuck:energy-pkg:1@100: socket 1's package counter stands from 100 s on, in the MSR, powercap and perf, while
 * socket 0's and DRAM's go on; badunit:rapl: 0x606 says 16 x the unit, and Linux's views take it (DRAM's fixed
 * unit on SKX stays right, SPR's DRAM goes 16 x too). */
static void test_faults(void)
{
	struct access *acc;
	struct perf_kernel *k = sim_kernel_open("skx,clock=manual,fault=stuck:energy-pkg:1@100", &acc);
	CU_ASSERT_FATAL(k != NULL);
	struct sim *sim = acc->priv;
	char text[32];
	CU_ASSERT_FATAL(read_file(k, "/sys/bus/event_source/devices/power/type", text, sizeof(text)) == 0);
	struct perf_event_attr at = { .type = (unsigned)atoi(text), .size = sizeof(at), .config = 2 };
	int fd = k->ops->open(k, &at, -1, cpu_of(sim, 1), -1, 0);
	CU_ASSERT_FATAL(fd >= 0);
	uint64_t a0, a1, b0, b1, c0 = 0, c1 = 0;
	sim_advance(sim, 90000000000ull);
	CU_ASSERT(acc->ops->msr_read(acc, cpu_of(sim, 1), 0x611, &a0) == 0 && acc->ops->msr_read(acc, 0, 0x611, &b0) == 0);
	CU_ASSERT(k->ops->read(k, fd, &c0, sizeof(c0)) == 8);
	CU_ASSERT(k->ops->read_line(k, "/sys/class/powercap/intel-rapl:1/energy_uj", text, sizeof(text)) == 0);
	uint64_t p0 = strtoull(text, NULL, 10);
	sim_advance(sim, 20000000000ull); /* to 110 s: counted up to 100 s */
	CU_ASSERT(acc->ops->msr_read(acc, cpu_of(sim, 1), 0x611, &a1) == 0);
	sim_advance(sim, 20000000000ull); /* 130 s: stands */
	CU_ASSERT(acc->ops->msr_read(acc, cpu_of(sim, 1), 0x611, &a0) == 0 && a0 == a1);
	CU_ASSERT(k->ops->read(k, fd, &c1, sizeof(c1)) == 8);
	CU_ASSERT(k->ops->read_line(k, "/sys/class/powercap/intel-rapl:1/energy_uj", text, sizeof(text)) == 0);
	uint64_t p1 = strtoull(text, NULL, 10);
	CU_ASSERT(acc->ops->msr_read(acc, 0, 0x611, &b1) == 0);
	double pkg1 = sim->prof.pkg_w[1], pkg0 = sim->prof.pkg_w[0];
	ASSERT_NEAR(ldexp((double)(c1 - c0), -32), 10 * pkg1, 1e-3);                 /* 90 s .. 100 s */
	ASSERT_NEAR((double)(p1 - p0) / 1e6, 10 * pkg1 * (61035.0 / 61035.15625), 1e-3); /* powercap's unit, nJ */
	ASSERT_NEAR((double)((b1 - b0) & 0xffffffffull) * ldexp(1, -14), 40 * pkg0, 1e-3);
	CU_ASSERT(k->ops->close(k, fd) == 0);
	k->ops->free(k);

	static const char *const specs[] = { "skx,clock=manual,fault=badunit:rapl", "spr,clock=manual,fault=badunit:rapl" };
	for (int i = 0; i < 2; i++) {
		k = sim_kernel_open(specs[i], &acc);
		CU_ASSERT_FATAL(k != NULL);
		sim = acc->priv;
		uint64_t unit = 0;
		CU_ASSERT(acc->ops->msr_read(acc, 0, 0x606, &unit) == 0 && (unit >> 8 & 0x1f) == 10);
		CU_ASSERT_FATAL(read_file(k, "/sys/bus/event_source/devices/power/type", text, sizeof(text)) == 0);
		int fds[2];
		double t0[2];
		for (int d = 0; d < 2; d++) {
			struct perf_event_attr e = { .type = (unsigned)atoi(text), .size = sizeof(e), .config = (uint64_t)d + 2 };
			fds[d] = k->ops->open(k, &e, -1, 0, -1, 0);
			CU_ASSERT_FATAL(fds[d] >= 0);
			t0[d] = truth_energy_j(sim, 0, d);
		}
		sim_advance(sim, 10000000000ull);
		for (int d = 0; d < 2; d++) {
			uint64_t c = 0;
			CU_ASSERT(k->ops->read(k, fds[d], &c, sizeof(c)) == 8);
			double f = i == 0 && d == SIM_RAPL_DRAM ? 1 : 16, want = f * (truth_energy_j(sim, 0, d) - t0[d]);
			printf("%s perf %s: %.3f J, 16 x the truth where the unit is taken from 0x606: %.3f J\n", specs[i], d ? "ram" : "pkg",
			       ldexp((double)c, -32), want);
			ASSERT_NEAR(ldexp((double)c, -32), want, 1e-3 * want);
			CU_ASSERT(k->ops->close(k, fds[d]) == 0);
		}
		k->ops->free(k);
	}
	CU_ASSERT(access_sim_open("skx,fault=badunit:rapl@5") == NULL); /* read once, at boot */
	CU_ASSERT(access_sim_open("skx,fault=stuck:energy-psys") == NULL); /* SKX has no psys counter */
	CU_ASSERT(access_sim_open("nhm,fault=stuck:energy-pkg") == NULL);
}

/* Nehalem-EP and Montecito: no RAPL -- rdmsr fails saying so, no powercap zone, no power PMU. */
static void test_none(void)
{
	static const char *const names[] = { "nhm", "montecito" };
	for (int i = 0; i < 2; i++) {
		struct access *a = access_sim_open(names[i]);
		CU_ASSERT_FATAL(a != NULL);
		uint64_t v;
		CU_ASSERT(a->ops->msr_read(a, 0, 0x611, &v) == -1 && strstr(uncore_error(), "no RAPL"));
		struct memfs m = { 0 };
		CU_ASSERT(sim_rapl_sysfs(a->priv, &m) == 0 && m.n == 0);
		a->ops->close(a);
	}
	struct access *acc;
	struct perf_kernel *k = sim_kernel_open("nhm", &acc);
	CU_ASSERT_FATAL(k != NULL);
	char text[32];
	CU_ASSERT(k->ops->read_line(k, "/sys/bus/event_source/devices/power/type", text, sizeof(text)) == -1);
	k->ops->free(k);
}

/* TPMI's unit register (GNR, SRF): the energy unit 2^-14 J in bits 10:6, power 1/8 W in 3:0, time 2^-10 s in
 * 15:12 (intel_rapl_common.c TPMI_ENERGY_UNIT_MASK 0x7C0, TPMI_POWER_UNIT_MASK, TPMI_TIME_UNIT_MASK 0xF000,
 * Linux 6.12); powercap's unit decoded from it as rapl_check_unit_tpmi does, 10^9 / 2^14 = 61035 nJ (the 14 in
 * bits 12:8 would read 10^9 / 2^3 = 125000000 there).  No TPMI register on a part read by MSR. */
static void test_tpmi_unit(void)
{
	static const char *const names[] = { "gnr", "srf" };
	for (int i = 0; i < 2; i++) {
		struct access *a = access_sim_open(names[i]);
		CU_ASSERT_FATAL(a != NULL);
		uint32_t u = sim_rapl_tpmi_unit(a->priv);
		CU_ASSERT_EQUAL(u, 0xa383u);
		CU_ASSERT_EQUAL((u & 0x7c0) >> 6, 14);
		CU_ASSERT_EQUAL(sim_rapl_powercap_nj(a->priv, SIM_RAPL_PKG), 61035);
		a->ops->close(a);
	}
	struct access *a = access_sim_open("icx");
	CU_ASSERT_FATAL(a != NULL);
	CU_ASSERT_EQUAL(sim_rapl_tpmi_unit(a->priv), 0);
	a->ops->close(a);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "RAPL MSRs equal the truth across wraps, SNB-EP to DMR", test_msr },
		{ "powercap's zones equal the truth in Linux's units", test_powercap },
		{ "the power PMU counts the truth per package", test_perf },
		{ "DRAM energy rises with the traffic", test_traffic },
		{ "stuck and wrong-unit faults", test_faults },
		{ "Nehalem-EP and Montecito have no RAPL", test_none },
		{ "TPMI's unit register: the energy unit in bits 10:6", test_tpmi_unit },
		{ NULL, NULL },
	};
	return run_suite("energy_sim", tests);
}
