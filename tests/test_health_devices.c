/*
 * The devices against their IIO ports (doc/health.md "Devices against their ports"), end to end on the
 * simulator and its simulated kernel: a clean simulated hour raises nothing and its windows' rows give each
 * group's bytes as the simulator's device counters made them; each of the simulator's device faults raises
 * its condition alone, on the group's IIO box.
 */
#include <math.h>
#include <string.h>
#include "sim_helpers.h"
#include "handle/handle.h"
#include "sim/sim.h"
#include "sim/sim_devdma.h"

#define ROWS 64

static const char *const platforms[] = { "skx", "icx", "spr", "gnr" };
/* each platform's device set: its default, but on GNR, whose Birch Stream set has one NVMe drive, two NICs and
 * no HCA (platforms/gnr/board.c), the set it had before: a NIC, drives, a switch, HCAs and a GPU on PCIe stacks of both
 * sockets and accelerators */
static const char *const sets[] = { "", "", "", ",devices=nic@0.2.0+nvme@0.2.1+gpusw@0.3.0+empty@0.3.1+ib@0.4.0+dsa@0.9.0+qat@0.14.4+gpu@1.2.0+nvme@1.5.2+ib@1.7.0" };
static const char *const backends[] = { "sim", "perf+sim" };
/* perf+sim's kernel options: descriptors for GNR's 15 IIO boxes a socket (platforms/gnr/board.c: more events than
 * the simulated kernel's default 1,024), and groups rotated every 100 ms, not at Linux's default 4 ms: the simulated
 * kernel replays every rotation (900,000 a box over the clean hour, most of this test's time), and nothing judged
 * here depends on the interval, which a site may set (perf_event_mux_interval_ms); the rotation itself at 4 ms is
 * test_perf_rules' */
static const char PERF_OPTS[] = ",fds=4096,mux_ms=100";

struct run {
	int raised[UNCORE_HEALTH_KINDS];
	int at_iio;       /* raised on an IIO box */
	char first[400];
	struct uncore_device_check rows[ROWS]; /* the last window's */
	int nrows;
	int truth_rows; /* compared groups whose rows equal the simulator's truth (TRUTH set) */
	int bad_rows;   /* ... that do not */
};
static int TRUTH; /* run() holds the last window's rows against the simulator's devices */
static int DEFAULT_ONLY; /* run() counts the default set alone (its ports with devices, each on its box) */

/* The simulator's device by name (its index in pdev), or -1 */
static int sim_device(const struct sim *sim, const char *name)
{
	for (int i = 0; i < sim->npdev; i++)
		if (!strcmp(sim->pdev[i].name, name))
			return i;
	return -1;
}

/* Each compared group's row against the simulator's configured rates over the row's window: its devices'
 * bytes their payload (sim_dev_dma_bps), its port's their payload and overhead (sim_dev_iio_bps), within 1 % */
static void rows_truth(uncore_t *u, const char *spec, struct run *r)
{
	const struct sim *sim = sim_of(u->acc);
	for (int k = 0; k < r->nrows && k < ROWS; k++) {
		const struct uncore_device_check *row = &r->rows[k];
		struct uncore_device_group g;
		if (row->group < 0 || isnan(row->dev_in) || uncore_device_group_info(u, row->group, &g) || !g.ndevices)
			continue;
		double want[2][2] = { { 0, 0 }, { 0, 0 } }; /* [in, out][devices, port] */
		for (int i = 0; i < g.ndevices; i++) {
			struct uncore_device d;
			int j = uncore_device_info(u, row->group, i, &d) ? -1 : sim_device(sim, d.name);
			CU_ASSERT_FATAL(j >= 0);
			for (int in = 0; in < 2; in++) {
				want[!in][0] += sim_dev_dma_bps(sim, j, in) * row->seconds;
				want[!in][1] += sim_dev_iio_bps(sim, j, in) * row->seconds;
			}
		}
		double got[2][2] = { { row->dev_in, row->iio_in }, { row->dev_out, row->iio_out } };
		int ok = 1;
		for (int d = 0; d < 2; d++)
			for (int w = 0; w < 2; w++) /* (a port's direction its counters leave out: ICX's outbound) */
				ok &= fabs(got[d][w] - want[d][w]) <= 0.01 * want[d][w] || (w && d && isnan(got[d][w]));
		ok &= !isnan(row->iio_in);
		if (!ok)
			fprintf(stderr, "%s: iio %d port %d: devices in %.4g out %.4g, port in %.4g out %.4g; the simulator's "
				"%.4g %.4g, %.4g %.4g\n", spec, row->stack, row->port, row->dev_in, row->dev_out, row->iio_in,
				row->iio_out, want[0][0], want[1][0], want[0][1], want[1][1]);
		r->truth_rows += ok, r->bad_rows += !ok;
	}
}


static int add_ports(uncore_t *u, uncore_session_t *s, void *arg)
{
	(void)u, (void)arg;
	return !DEFAULT_ONLY && uncore_session_add_device_ports(s) <= 0 ? -1 : 0;
}

struct devices_run {
	const char *spec;
	struct run *r;
};

static void count_raised(void *arg, const struct uncore_health *h)
{
	struct run *r = ((struct devices_run *)arg)->r;
	if (!h->raised)
		return;
	r->raised[h->kind]++;
	r->at_iio += !strcmp(h->unit, "iio");
}

static void last_rows(uncore_t *u, uncore_session_t *s, void *arg)
{
	const struct devices_run *d = arg;
	d->r->nrows = uncore_session_device_check(s, d->r->rows, ROWS);
	if (TRUTH)
		rows_truth(u, d->spec, d->r);
}

/* The default set and every port's bytes, read every step_ns for n reads */
static int run(const char *spec, uint64_t step_ns, int n, struct run *r)
{
	struct devices_run d = { spec, r };
	struct health_run h = { .add = add_ports, .change = count_raised, .end = last_rows, .assert_reads = 1 };
	memset(r, 0, sizeof(*r));
	if (health_run(spec, step_ns, n, &h, &d))
		return -1;
	snprintf(r->first, sizeof(r->first), "%s", h.first);
	return 0;
}

static int none_raised(const char *spec, const struct run *r)
{
	for (int k = 0; k < UNCORE_HEALTH_KINDS; k++)
		if (r->raised[k]) {
			fprintf(stderr, "%s: a clean run raised %s\n", spec, r->first);
			return 0;
		}
	return 1;
}

/* An hour in 5 s reads, on each platform and backend: nothing raised; each window judged (the rows there,
 * 10 s long) */
static void test_clean_hour(void)
{
	for (size_t p = 0; p < sizeof(platforms) / sizeof(*platforms); p++)
		for (size_t b = 0; b < 2; b++) {
			char spec[256];
			struct run r;
			snprintf(spec, sizeof(spec), "%s:%s,clock=manual%s%s", backends[b], platforms[p], sets[p], b ? PERF_OPTS : "");
			TRUTH = 1;
			CU_ASSERT_FATAL(run(spec, 5000000000ull, 720, &r) == 0);
			TRUTH = 0;
			CU_ASSERT(none_raised(spec, &r));
			CU_ASSERT(r.nrows >= 4);
			if (r.truth_rows < 4 || r.bad_rows)
				fprintf(stderr, "%s: %d groups' rows equal the simulator's truth, %d do not\n", spec, r.truth_rows,
					r.bad_rows);
			CU_ASSERT(r.truth_rows >= 4 && !r.bad_rows);
			for (int i = 0; i < r.nrows && i < ROWS; i++)
				CU_ASSERT(fabs(r.rows[i].seconds - 10) < 1e-6);
		}
}

/* An idle minute at 100 Hz: the windows judged (10 s each), nothing raised */
static void test_fast_reads(void)
{
	struct run r;
	CU_ASSERT_FATAL(run("sim:spr,clock=manual", 10000000ull, 6000, &r) == 0);
	CU_ASSERT(none_raised("sim:spr at 100 Hz", &r));
	CU_ASSERT(r.nrows >= 4 && r.rows[0].seconds >= 10 && r.rows[0].seconds < 10.02);
}

/* The first window begins at the session's start (its baselines), not at its first read: two reads of 5 s
 * after the start close it, 10 s long, its rows the simulator's truth */
static void test_first_window(void)
{
	struct run r;
	TRUTH = 1;
	CU_ASSERT_FATAL(run("sim:spr,clock=manual", 5000000000ull, 2, &r) == 0);
	TRUTH = 0;
	CU_ASSERT(r.nrows >= 4 && r.truth_rows >= 4 && !r.bad_rows);
	for (int i = 0; i < r.nrows && i < ROWS; i++)
		CU_ASSERT(fabs(r.rows[i].seconds - 10) < 1e-6);
}

/* Only kind was raised, at least once on an IIO box; said on stderr when not */
static int only(const char *spec, const struct run *r, int kind)
{
	int ok = r->raised[kind] > 0 && r->at_iio > 0;
	for (int k = 0; k < UNCORE_HEALTH_KINDS; k++)
		ok &= k == kind || !r->raised[k];
	if (!ok) {
		fprintf(stderr, "%s: expected %s alone; raised:", spec, uncore_health_name(kind));
		for (int k = 0; k < UNCORE_HEALTH_KINDS; k++)
			if (r->raised[k])
				fprintf(stderr, " %s x%d", uncore_health_name(k), r->raised[k]);
		fprintf(stderr, " (first %s)\n", r->first);
	}
	return ok;
}

/* Each of the simulator's device faults raises its condition alone, within 40 s of 1 s reads (a condition
 * stands from its second window of 10 s): a NIC's DMA its port does not count (RDMA-style), an NVMe drive's
 * counters that stop, the stack map of stacks 1 and 2 swapped */
static void test_faults(void)
{
	static const struct {
		const char *fault;
		int kind;
	} faults[] = {
		{ "uncounted:ens0f0", UNCORE_HEALTH_UNCOUNTED },
		{ "uncounted:mlx5_0", UNCORE_HEALTH_UNCOUNTED },
		{ "frozen:nvme0", UNCORE_HEALTH_DEVSTOPPED },
		{ "frozen:ens0f0@5", UNCORE_HEALTH_DEVSTOPPED },
		{ "swapped:stackmap", UNCORE_HEALTH_DEVMAP },
	};
	for (size_t p = 0; p < sizeof(platforms) / sizeof(*platforms); p++)
		for (size_t b = 0; b < 2; b++)
			for (size_t f = 0; f < sizeof(faults) / sizeof(*faults); f++) {
				char spec[256];
				struct run r;
				/* SPR's and GNR's boards: two PCIe stacks with devices swapped (6 and 7, 2 and 3), not the DMI or an
				 * accelerator stack */
				int sw = f == 4 && p >= 2;
				snprintf(spec, sizeof(spec), "%s:%s,clock=manual%s,fault=%s%s%s", backends[b], platforms[p], sets[p],
					 faults[f].fault, sw ? (p == 2 ? ":6" : ":2") : "", b ? PERF_OPTS : "");
				CU_ASSERT_FATAL(run(spec, 1000000000ull, 40, &r) == 0);
				CU_ASSERT(only(spec, &r, faults[f].kind));
			}
}

/* The default set of collectd and the exporter counts the ports with devices, each on its box: the faults
 * raise their conditions there too */
static void test_default_set(void)
{
	static const char *const specs[] = { "sim:spr,clock=manual,fault=uncounted:ens0f0", "perf+sim:gnr,fds=4096,clock=manual,fault=frozen:nvme0" };
	static const int kinds[] = { UNCORE_HEALTH_UNCOUNTED, UNCORE_HEALTH_DEVSTOPPED };
	DEFAULT_ONLY = 1;
	for (int i = 0; i < 2; i++) {
		struct run r;
		CU_ASSERT_FATAL(run(specs[i], 1000000000ull, 40, &r) == 0);
		CU_ASSERT(only(specs[i], &r, kinds[i]));
	}
	struct run r;
	CU_ASSERT_FATAL(run("sim:icx,clock=manual", 5000000000ull, 120, &r) == 0);
	CU_ASSERT(none_raised("sim:icx, the default set", &r) && r.nrows >= 4);
	DEFAULT_ONLY = 0;
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "a clean simulated hour raises nothing", test_clean_hour },
		{ "a minute at 100 Hz raises nothing", test_fast_reads },
		{ "the first window begins at the session's start", test_first_window },
		{ "each device fault raises its condition alone", test_faults },
		{ "the default set's ports judged too", test_default_set },
		{ NULL, NULL },
	};
	return run_suite("health_devices", tests);
}
