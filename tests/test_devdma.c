/*
 * The simulated devices' DMA and byte counters (issue 66 point 5): on sim: and perf+sim: of SKX, ICX, SPR and
 * GNR each device group's IIO port bytes over a measured window equal its devices' DMA truth (payload and
 * overhead, sim_devdma.h) within 1 %, through the free-running port counters and the general counters' port
 * masks; the devices' own counters (netdev, InfiniBand, block stat, at their Linux paths and units) equal their
 * truth; each device fault changes what it names and nothing else.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim_helpers.h"
#include "sim_truth.h"
#include "devices/dev_fs.h"
#include "sim/sim_devdma.h"
#include "sim/sim_pcitree.h"

#define SECS 2.0
#define MAXG 32

/* One device group of the library's map and what its port counted over the window, bytes in and out. */
struct group {
	struct uncore_device_group g;
	char names[4][64], bdfs[4][16];
	double fr[2], req[2]; /* free-running bw_in/out_port<port>; DATA_REQ_OF_CPU.MEM_WRITE/READ.PART<port> */
	double req_secs;      /* the latter's window */
};

/* The simulator's device by name: its index in the machine's table, or -1 */
static int sim_dev(const struct sim *s, const char *name)
{
	for (int i = 0; i < s->npdev; i++)
		if (!strcmp(s->pdev[i].name, name))
			return i;
	return -1;
}

/* Bytes a count of an event: perf's scale in MiB where it has one (skx bw_in_port 3.814697266e-6 = 4 bytes,
 * later 3.0517578125e-5 = 32); else 32 for a free-running BANDWIDTH_IN/OUT count from ICX on (README, "IIO
 * bandwidth scale"), 4 for DATA_REQ_OF_CPU (Intel's perfmon JSON counts it in 4-byte units) */
static double unit_bytes(uncore_session_t *s, int ev, int fr)
{
	const char *unit = NULL;
	double sc = uncore_session_event_scale(s, ev, &unit);
	return unit && !strcmp(unit, "MiB") ? sc * 1048576.0 : fr ? 32 : 4;
}

/* One session over SECS seconds of the simulated clock counting, for the groups whose round is r, bw_in and
 * bw_out of their port (r -1: every group) or DATA_REQ_OF_CPU.MEM_WRITE and MEM_READ of it (the general
 * counters: two a box at once, DATA_REQ_OF_CPU taking counters 0-1), into fr or req; the window's seconds. */
static double window(uncore_t *u, const char *spec, struct group *g, const int *round, int n, int r)
{
	uncore_session_t *s;
	int ev[MAXG][2];
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	for (int i = 0; i < n; i++)
		for (int w = 0; w < 2; w++) {
			char e[128];
			ev[i][w] = -1;
			if (r >= 0 && round[i] != r)
				continue;
			if (r < 0)
				snprintf(e, sizeof(e), "iio_free_running/%s_port%d/:socket=%d:box=%d", w ? "bw_out" : "bw_in",
					 g[i].g.port, g[i].g.socket, g[i].g.stack);
			else
				snprintf(e, sizeof(e), "UNC_IIO_DATA_REQ_OF_CPU.MEM_%s.PART%d:socket=%d:box=%d", w ? "READ" : "WRITE",
					 g[i].g.port, g[i].g.socket, g[i].g.stack);
			ev[i][w] = uncore_session_add(s, e);
			if (ev[i][w] < 0 && r < 0) { /* Linux's ICX-on driver lists bw_in alone: Intel's perfmon names */
				snprintf(e, sizeof(e), "UNC_IIO_BANDWIDTH_%s.PART%d_FREERUN:socket=%d:box=%d", w ? "OUT" : "IN",
					 g[i].g.port, g[i].g.socket, g[i].g.stack);
				ev[i][w] = uncore_session_add(s, e);
			}
			if (ev[i][w] < 0 && r < 0 && w && strstr(spec, "sim:icx,"))
				continue; /* ICX counts bytes in alone free-running (Linux icx_iio_freerunning: bw_in_port0-7) */
			if (ev[i][w] < 0)
				fprintf(stderr, "%s: %s: %s\n", spec, e, uncore_error());
			CU_ASSERT_FATAL(ev[i][w] >= 0);
		}
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	uncore_sleep_ns(u, (uint64_t)(SECS * 1e9));
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	double secs = (double)uncore_session_elapsed_ns(s) / 1e9;
	for (int i = 0; i < n; i++)
		for (int w = 0; w < 2 && ev[i][0] >= 0; w++) {
			uint64_t v = 0;
			if (ev[i][w] < 0) {
				g[i].fr[w] = NAN; /* not counted there */
				continue;
			}
			CU_ASSERT(uncore_session_value(s, ev[i][w], g[i].g.socket, g[i].g.stack, &v) == 0);
			(r < 0 ? g[i].fr : g[i].req)[w] = (double)v * unit_bytes(s, ev[i][w], r < 0);
			if (r >= 0)
				g[i].req_secs = secs;
		}
	uncore_session_free(s);
	return secs;
}

/* The map's groups with devices, and each one's port bytes over windows of SECS seconds of the simulated
 * clock ([0] in, [1] out): free-running in one, the general counters in a window per group of a box. */
static int measure(const char *spec, struct group *out, double *secs)
{
	uncore_t *u = open_sim(spec);
	int n = 0, ng = uncore_num_device_groups(u), round[MAXG] = { 0 }, rounds = 0;
	CU_ASSERT_FATAL(ng > 0);
	for (int k = 0; k < ng && n < MAXG; k++) {
		struct group *x = &out[n];
		memset(x, 0, sizeof(*x));
		CU_ASSERT_FATAL(uncore_device_group_info(u, k, &x->g) == 0);
		if (!x->g.ndevices || x->g.port < 0)
			continue;
		for (int i = 0; i < x->g.ndevices && i < 4; i++) {
			struct uncore_device d;
			CU_ASSERT_FATAL(uncore_device_info(u, k, i, &d) == 0);
			snprintf(x->names[i], sizeof(x->names[i]), "%s", d.name);
			snprintf(x->bdfs[i], sizeof(x->bdfs[i]), "%s", d.bdf);
		}
		round[n] = 0; /* the how-manieth group of its box */
		for (int j = 0; j < n; j++)
			round[n] += out[j].g.socket == x->g.socket && out[j].g.stack == x->g.stack;
		rounds = round[n] + 1 > rounds ? round[n] + 1 : rounds;
		n++;
	}
	*secs = window(u, spec, out, round, n, -1);
	for (int r = 0; r < rounds; r++)
		window(u, spec, out, round, n, r);
	uncore_close(u);
	return n;
}

/* Within 1 % of the truth (an exact 0 where the truth is 0), named on stderr when not. */
static int near1(const char *what, double got, double want)
{
	int ok = want == 0 ? got == 0 : fabs(got - want) <= 0.01 * want;
	if (!ok)
		fprintf(stderr, "%s: %.6g, truth %.6g\n", what, got, want);
	CU_ASSERT(ok);
	return ok;
}

/* The simulator's device at bdf: its index, or -1 */
static int sim_dev_at(const struct sim *s, const char *bdf)
{
	for (int i = 0; i < s->npdev; i++)
		if (!strcmp(s->pdev[i].bdf, bdf))
			return i;
	return -1;
}

/* The group's truth over secs: what the simulator's port of the group's first device carries, the payload of
 * every device it has there times 1 + their overhead, as the simulator was given them (a port the map splits
 * into groups, as the DMI stack's part 7 or an accelerator stack's part 0, is read whole by each; the library's
 * group matched to the simulator's devices by BDF, so a group placed on the wrong port reads another's bytes) */
static double group_truth(const struct sim *s, const struct group *x, int in, double secs)
{
	int d = sim_dev_at(s, x->bdfs[0]);
	CU_ASSERT(d >= 0);
	if (d < 0)
		return 0;
	const struct sim_pcidev *p = &s->pdev[d];
	return sim_group_iio_bytes(s, p->socket, p->die, p->stack, p->port, in, secs);
}

/* The real boards' places (issue 76): each device's stack and counter port written from the listing and pcm's
 * rules, never from the program, and the bytes its port counts equal to the simulator's profile rates.
 * SPR: HPE ProLiant DL380 Gen11 (linuxhw/LsPCI c0a4a3a6 .../47A35ED32C): the PCH's root port 00:0d.0 (its device at
 * 01:00.0) and its xHCI 00:14.0 on bus 00, ports 39:01.0 and 39:05.0 (NICs at 3a:00.0, 3b:00.0), 4d:07.0, 61:01.0 and
 * 61:03.0; its CPU buses filled in bus order (00-61: 0-5), which pcm's spr_xcc_sad_to_pmu_id_mapping makes PMUs 1, 6,
 * 7 and 9 of those buses; SPR_DMI_PART_ID 7; other parts "part_id = slot - 1" (pcm-iio-topology.cpp, 0fae0de1).
 * GNR: Intel's Birch Stream board (b6f7d8f2 .../F71EAE46A6): HC stacks' DSA 01.0 and IAA 02.0, QAT at bus+1, DLB
 * at bus+3; root buses 0a and 0f filled as CPU buses 16 and 20, PMUs 14 and 9 since pcm cbeba329; parts 0, 4, 5
 * (SRF_DSA_IAX_PART_NUMBER, SRF_QAT_PART_NUMBER, SRF_HQM_PART_NUMBER); the PCIe stacks' root buses 14 and 3a (CPU
 * buses 0 and 2 filled in bus order: pcm SRF_PE6 PMU 0, SRF_PE0 PMU 3) with the listing's root ports 14:06.0-09.0
 * (NVMe 15:00.0, NIC 16:00.0, the AST VGA 18:00.0 behind its bridge, USB 19:00.0) and 3a:02.0 (NIC 3b:00.0), part =
 * device - 2 ("Bifurcated Root Ports A-H appear as devices 2-9").
 * ICX: the Lenovo SR650 V2 (linuxhw/LsPCI 92efda81, tests/snapshots/field/icx-sr650v2-2s.source): the CBDMA engines
 * 8086:0b00 at 00:01.0-7 of the CBDMA/DMI stack (SAD 0, PMU 5: icx_sad_pmon_mapping), part 3 (pcm
 * WhitleyPlatformMapping ICX_CBDMA_PART_ID; issue 90 D7): one group of 8, counted in bytes alone (Linux
 * icx_iio_freerunning has no bw_out). */
static const struct place {
	const char *bdf;
	int kind, stack, port;
	int copies; /* devices of that kind at that port the group holds (0: 1) */
} spr_places[] = {
	{ "0000:01:00.0", SIM_DEV_NIC, 1, 7, 0 }, { "0000:00:14.0", SIM_DEV_USB, 1, 7, 0 },
	{ "0000:3a:00.0", SIM_DEV_NIC, 6, 0, 0 }, { "0000:3b:00.0", SIM_DEV_NIC, 6, 4, 0 },
	{ "0000:4e:00.0", SIM_DEV_NVME, 7, 6, 0 }, { "0000:62:00.0", SIM_DEV_GPU, 9, 0, 0 },
	{ "0000:63:00.0", SIM_DEV_NVME, 9, 2, 0 }, { NULL, 0, 0, 0, 0 },
}, gnr_places[] = {
	{ "0000:0f:01.0", SIM_DEV_DSA, 9, 0, 0 }, { "0000:0f:02.0", SIM_DEV_IAA, 9, 0, 0 },
	{ "0000:10:00.0", SIM_DEV_QAT, 9, 4, 0 }, { "0000:12:00.0", SIM_DEV_DLB, 9, 5, 0 },
	{ "0000:0a:01.0", SIM_DEV_DSA, 14, 0, 0 }, { "0000:0a:02.0", SIM_DEV_IAA, 14, 0, 0 },
	{ "0000:0b:00.0", SIM_DEV_QAT, 14, 4, 0 }, { "0000:0d:00.0", SIM_DEV_DLB, 14, 5, 0 },
	{ "0000:15:00.0", SIM_DEV_NVME, 0, 4, 0 }, { "0000:16:00.0", SIM_DEV_NIC, 0, 5, 0 },
	{ "0000:18:00.0", SIM_DEV_GPU, 0, 6, 0 }, { "0000:19:00.0", SIM_DEV_USB, 0, 7, 0 },
	{ "0000:3b:00.0", SIM_DEV_NIC, 3, 0, 0 }, { NULL, 0, 0, 0, 0 },
}, icx_places[] = {
	{ "0000:00:01.0", SIM_DEV_CBDMA, 5, 3, 8 }, { NULL, 0, 0, 0, 0 },
};

/* What port stack.port of socket 0 carries by the profile: the rates of the kinds the table puts there */
static double place_truth(const struct sim_profile *pr, const struct place *t, int stack, int port, int in, double secs)
{
	double v = 0;
	for (; t->bdf; t++)
		if (t->stack == stack && t->port == port)
			v += (t->copies ? t->copies : 1) * (in ? pr->dev_in_bps[t->kind] : pr->dev_out_bps[t->kind]) *
			     (1 + pr->dev_overhead[t->kind]) * secs;
	return v;
}

static void test_board_places(void)
{
	static const struct { const char *spec; const struct place *t; int checks; } m[] = {
		{ "sim:spr,clock=manual,devices=nic@0.1.7+usb@0.1.7+nic@0.6.0+nic@0.6.4+nvme@0.7.6+gpu@0.9.0+nvme@0.9.2", spr_places,
		  14 },
		{ "perf+sim:spr,clock=manual,devices=nic@0.1.7+usb@0.1.7+nic@0.6.0+nic@0.6.4+nvme@0.7.6+gpu@0.9.0+nvme@0.9.2",
		  spr_places, 14 },
		{ "sim:gnr,clock=manual", gnr_places, 26 },
		{ "perf+sim:gnr,clock=manual,fds=4096", gnr_places, 26 },
		{ "sim:icx,clock=manual", icx_places, 1 },
		{ "perf+sim:icx,clock=manual", icx_places, 1 },
	};
	for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		struct group g[MAXG];
		double secs = 0;
		uncore_t *u = open_sim(m[k].spec);
		const struct sim_profile *pr = &sim_of(u->acc)->prof;
		int n = measure(m[k].spec, g, &secs), seen = 0;
		for (const struct place *t = m[k].t; t->bdf; t++) {
			int hit = -1;
			for (int i = 0; i < n && hit < 0; i++)
				for (int d = 0; d < g[i].g.ndevices && d < 4; d++)
					hit = strcmp(g[i].bdfs[d], t->bdf) ? hit : i;
			if (hit < 0 || g[hit].g.socket != 0 || g[hit].g.stack != t->stack || g[hit].g.port != t->port) {
				fprintf(stderr, "%s: %s: stack %d port %d, the board's %d port %d\n", m[k].spec, t->bdf,
					hit < 0 ? -1 : g[hit].g.stack, hit < 0 ? -1 : g[hit].g.port, t->stack, t->port);
				CU_FAIL("a device off its board's stack or port");
				continue;
			}
			char what[200];
			for (int in = 0; in < 2; in++) {
				if (isnan(g[hit].fr[!in]))
					continue; /* not counted free-running there (ICX: bytes in alone) */
				snprintf(what, sizeof(what), "%s %s (iio %d port %d) %s", m[k].spec, t->bdf, t->stack, t->port,
					 in ? "in" : "out");
				seen += near1(what, g[hit].fr[!in], place_truth(pr, m[k].t, t->stack, t->port, in, secs));
			}
		}
		fprintf(stderr, "%s: %d device ports at their board's places count the profile's rates\n", m[k].spec, seen);
		CU_ASSERT(seen == m[k].checks);
		uncore_close(u);
	}
}

static void test_group_bytes(void)
{
	static const char *const plat[] = { "skx", "icx", "spr", "gnr" };
	for (size_t p = 0; p < sizeof(plat) / sizeof(plat[0]); p++)
		for (int perf = 0; perf < 2; perf++) {
			char spec[128], what[200];
			struct group g[MAXG];
			double secs = 0;
			snprintf(spec, sizeof(spec), "%ssim:%s,clock=manual", perf ? "perf+" : "", plat[p]);
			uncore_t *u = open_sim(spec); /* a second machine alike, for its truth */
			const struct sim *s = sim_of(u->acc);
			int n = measure(spec, g, &secs), checked = 0;
			CU_ASSERT(n >= 10); /* the default set's groups with devices on two sockets */
			CU_ASSERT(fabs(secs - SECS) < 0.01);
			for (int i = 0; i < n; i++)
				for (int in = 0; in < 2; in++) {
					double t = group_truth(s, &g[i], in, secs);
					snprintf(what, sizeof(what), "%s group %d.%d.%d (%s%s) %s, free-running", spec, g[i].g.socket,
						 g[i].g.stack, g[i].g.port, g[i].names[0], g[i].g.ndevices > 1 ? ", ..." : "",
						 in ? "in" : "out");
					CU_ASSERT(t > 0);
					CU_ASSERT(!isnan(g[i].fr[!in]) || (!in && !strcmp(plat[p], "icx")));
					checked += isnan(g[i].fr[!in]) ? 0 : near1(what, g[i].fr[!in], t);
					t = group_truth(s, &g[i], in, g[i].req_secs);
					snprintf(what, sizeof(what), "%s group %d.%d.%d (%s) %s, DATA_REQ_OF_CPU", spec, g[i].g.socket,
						 g[i].g.stack, g[i].g.port, g[i].names[0], in ? "MEM_WRITE" : "MEM_READ");
					checked += near1(what, g[i].req[!in], t);
				}
			fprintf(stderr, "%s: %d group byte counts within 1 %% of the devices' DMA\n", spec, checked);
			uncore_close(u);
		}
}

/* A counter file's number (field k of a block stat line, 0 the first): NAN when it cannot be read */
static double file_num(const struct dev_fs *fs, const char *path, int k)
{
	char line[512], *p = line, *end;
	double v = NAN;
	if (dev_fs_line(fs, path, line, sizeof(line)))
		return NAN;
	for (int i = 0; i <= k; i++, p = end) {
		v = strtod(p, &end);
		if (end == p)
			return NAN;
	}
	return v;
}

/* Each kind's counters at their Linux paths: [0] bytes received / read from disk, [1] sent / written */
struct counters { double v[SIM_MAX_PCIDEV][2]; };
static void read_counters(const struct sim *s, const struct dev_fs *fs, struct counters *c)
{
	for (int i = 0; i < s->npdev; i++) {
		const struct sim_pcidev *d = &s->pdev[i];
		char a[160], b[160];
		switch (d->kind) {
		case SIM_DEV_NIC: /* bytes (net-sysfs.c) */
			snprintf(a, sizeof(a), "/sys/class/net/%s/statistics/rx_bytes", d->name);
			snprintf(b, sizeof(b), "/sys/class/net/%s/statistics/tx_bytes", d->name);
			c->v[i][0] = file_num(fs, a, 0), c->v[i][1] = file_num(fs, b, 0);
			break;
		case SIM_DEV_IB: /* octets divided by 4 (sysfs-class-infiniband) */
			snprintf(a, sizeof(a), "/sys/class/infiniband/%s/ports/1/counters/port_rcv_data", d->name);
			snprintf(b, sizeof(b), "/sys/class/infiniband/%s/ports/1/counters/port_xmit_data", d->name);
			c->v[i][0] = file_num(fs, a, 0) * 4, c->v[i][1] = file_num(fs, b, 0) * 4;
			break;
		case SIM_DEV_NVME: /* read and write sectors, fields 3 and 7, 512 bytes (Documentation/block/stat.rst) */
			snprintf(a, sizeof(a), "/sys/block/%sn1/stat", d->name);
			c->v[i][0] = file_num(fs, a, 2) * 512, c->v[i][1] = file_num(fs, a, 6) * 512;
			break;
		default: /* a GPU keeps none */
			c->v[i][0] = c->v[i][1] = 0;
		}
	}
}

/* The counters of every device over a window equal their payload truth (a sector or a 4-byte word of
 * rounding), at the class paths and through the PCI function's own directory alike; a GPU has none. */
static void test_counters(void)
{
	/* Birch Stream's own set has no HCA: one named on a PCIe stack beside its NIC and drive */
	static const char *const specs[] = { "sim:spr,clock=manual",
					     "perf+sim:gnr,clock=manual,devices=nvme@0.0.4+nic@0.0.5+nic@0.3.0+ib@0.2.0+dsa@0.9.0",
					     "sim:skx,clock=manual" };
	for (size_t k = 0; k < sizeof(specs) / sizeof(specs[0]); k++) {
		uncore_t *u = open_sim(specs[k]);
		struct sim *s = sim_of(u->acc);
		struct memfs m = { 0 };
		struct dev_fs fs = { .mem = &m };
		struct counters c0, c1;
		char what[200], p[600], line[256];
		CU_ASSERT_FATAL(sim_pci_sysfs(s, &m) == 0);
		uncore_sleep_ns(u, 1000000000);
		read_counters(s, &fs, &c0);
		uint64_t t0 = sim_now(s);
		uncore_sleep_ns(u, 3000000000);
		read_counters(s, &fs, &c1);
		double dt = (double)(sim_now(s) - t0) / 1e9;
		CU_ASSERT(dt > 2.99);
		int nic = 0, ib = 0, nvme = 0;
		for (int i = 0; i < s->npdev; i++)
			for (int in = 0; in < 2; in++) {
				const struct sim_pcidev *d = &s->pdev[i];
				/* a GPU, an accelerator and the PCH's USB keep no byte counter in sysfs */
				double got = c1.v[i][!in] - c0.v[i][!in], want = d->kind >= SIM_DEV_GPU ? 0 : (in ? d->in_bps : d->out_bps) * dt;
				snprintf(what, sizeof(what), "%s %s %s counter", specs[k], d->name, in ? "in" : "out");
				int ok = fabs(got - want) <= 512 && !isnan(got);
				if (!ok)
					fprintf(stderr, "%s: %.6g, truth %.6g\n", what, got, want);
				CU_ASSERT(ok);
				nic += d->kind == SIM_DEV_NIC, ib += d->kind == SIM_DEV_IB, nvme += d->kind == SIM_DEV_NVME;
			}
		CU_ASSERT(nic >= 2 && ib >= 2 && nvme >= 2);
		/* the same file below the PCI function; the namespace below its controller */
		const struct sim_pcidev *d = &s->pdev[sim_dev(s, "ens0f0")];
		snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/net/ens0f0/statistics/rx_bytes", d->bdf);
		CU_ASSERT(dev_fs_line(&fs, p, line, sizeof(line)) == 0 && strtod(line, NULL) == c1.v[d - s->pdev][0]);
		d = &s->pdev[sim_dev(s, "nvme0")];
		snprintf(p, sizeof(p), "/sys/bus/pci/devices/%s/nvme/nvme0/nvme0n1/stat", d->bdf);
		CU_ASSERT(dev_fs_line(&fs, p, line, sizeof(line)) == 0 && strtod(line, NULL) > 0);
		CU_ASSERT(dev_fs_line(&fs, "/sys/class/net/card0/statistics/rx_bytes", line, sizeof(line)) < 0);
		/* 17 fields, as Linux 6.12's part_stat_show prints them */
		CU_ASSERT(dev_fs_line(&fs, "/sys/block/nvme0n1/stat", line, sizeof(line)) == 0);
		int fields = 0;
		for (char *t = strtok(line, " "); t; t = strtok(NULL, " "))
			fields++;
		CU_ASSERT_EQUAL(fields, 17);
		memfs_free(&m);
		uncore_close(u);
	}
}

/* fault=uncounted:mlx5_0 (RDMA-style: the IIO port misses the HCA's DMA, its counters have it) and
 * fault=frozen:nvme1@1 (the drive's counters stop at 1 s): against a clean machine, exactly that changes. */
static void test_device_faults(void)
{
	static const char *const plat[] = { "skx", "spr" };
	for (size_t p = 0; p < sizeof(plat) / sizeof(plat[0]); p++) {
		char spec[160], what[200];
		struct group clean[MAXG], bad[MAXG];
		double secs = 0, secs2 = 0;
		snprintf(spec, sizeof(spec), "sim:%s,clock=manual", plat[p]);
		int n = measure(spec, clean, &secs);
		snprintf(spec, sizeof(spec), "sim:%s,clock=manual,fault=uncounted:mlx5_0,fault=frozen:nvme1@1", plat[p]);
		CU_ASSERT_FATAL(measure(spec, bad, &secs2) == n);
		CU_ASSERT(secs == secs2);
		for (int i = 0; i < n; i++)
			for (int w = 0; w < 2; w++) {
				int hca = !strcmp(bad[i].names[0], "mlx5_0");
				snprintf(what, sizeof(what), "%s group %s %s", spec, bad[i].names[0], w ? "out" : "in");
				if (hca) { /* its port counts nothing of it, and it is alone there */
					CU_ASSERT(bad[i].fr[w] == 0 && bad[i].req[w] == 0 && clean[i].fr[w] > 0);
				} else if (bad[i].fr[w] != clean[i].fr[w] || bad[i].req[w] != clean[i].req[w]) {
					fprintf(stderr, "%s: %.6g / %.6g, clean %.6g / %.6g\n", what, bad[i].fr[w], bad[i].req[w],
						clean[i].fr[w], clean[i].req[w]);
					CU_FAIL("a fault changed another group's port bytes");
				}
			}
		/* the counters: the HCA's go on, the drive's stop at 1 s, every other device's as on the clean machine */
		uncore_t *u = open_sim(spec), *uc;
		snprintf(spec, sizeof(spec), "sim:%s,clock=manual", plat[p]);
		uc = open_sim(spec);
		struct sim *s = sim_of(u->acc), *sc = sim_of(uc->acc);
		struct memfs m = { 0 }, mc = { 0 };
		struct dev_fs fs = { .mem = &m }, fsc = { .mem = &mc };
		struct counters c, cc;
		CU_ASSERT_FATAL(sim_pci_sysfs(s, &m) == 0 && sim_pci_sysfs(sc, &mc) == 0);
		uncore_sleep_ns(u, 3000000000);
		uncore_sleep_ns(uc, 3000000000);
		CU_ASSERT(sim_now(s) == sim_now(sc));
		read_counters(s, &fs, &c);
		read_counters(sc, &fsc, &cc);
		int nvme1 = sim_dev(s, "nvme1"), hca = sim_dev(s, "mlx5_0");
		CU_ASSERT_FATAL(nvme1 >= 0 && hca >= 0);
		for (int i = 0; i < s->npdev; i++)
			for (int w = 0; w < 2; w++) {
				double want = i == nvme1 ? floor(s->pdev[i].in_bps * (w ? 0 : 1) + s->pdev[i].out_bps * w) : cc.v[i][w];
				if (i == nvme1) /* a second's bytes, whole sectors */
					want = floor(want / 512) * 512;
				if (c.v[i][w] != want) {
					fprintf(stderr, "%s: %s counter %d: %.6g, truth %.6g\n", plat[p], s->pdev[i].name, w, c.v[i][w], want);
					CU_FAIL("a device counter is not what the fault says");
				}
			}
		CU_ASSERT(c.v[hca][0] > 0 && c.v[hca][0] == cc.v[hca][0]);
		memfs_free(&m);
		memfs_free(&mc);
		uncore_close(u);
		uncore_close(uc);
	}
	uncore_t *u;
	CU_ASSERT(uncore_open_topology("sim:spr,fault=melted:nvme0", &u) < 0 &&
		  strstr(uncore_error(), "unknown simulator fault 'melted' on device nvme0 (uncounted, frozen)"));
	CU_ASSERT(uncore_open_topology("sim:spr,fault=uncounted:nvme0@1", &u) < 0 &&
		  strstr(uncore_error(), "cannot be delayed"));
}

/* The group of a device in the map: its stack, or -1 */
static int stack_of(uncore_t *u, const char *name)
{
	for (int k = 0, n = uncore_num_device_groups(u); k < n; k++) {
		struct uncore_device_group g;
		struct uncore_device d;
		uncore_device_group_info(u, k, &g);
		for (int i = 0; i < g.ndevices; i++)
			if (!uncore_device_info(u, k, i, &d) && !strcmp(d.name, name))
				return g.stack;
	}
	return -1;
}

/* fault=swapped:stackmap[:N]: stacks N and N+1 show each other's root bus -- the kernel's uncore_iio_<n>/die<d> on
 * SKX (stacks 1 and 2) and ICX (0 and 1: its stack 2, the MCP one, has no root bus on the Lenovo boards it is laid
 * out as), the simulator's answer on SPR and GNR (the MSM's CPU bus registers; two PCIe stacks of their boards, 6
 * and 7, 2 and 3) -- so the map names the wrong stack for their devices, while the devices, their DMA and the
 * ports that count it stay where they are. */
static void test_stackmap_fault(void)
{
	static const struct { const char *plat; int a, other; const char *devs; } plat[] = {
		{ "skx", 1, 3, "" }, { "icx", 0, 3, ",devices=nic@0.0.0+nvme@0.0.1+gpu@0.1.0+ib@0.3.0" },
		{ "spr", 6, 9, ",devices=nic@0.6.0+nvme@0.6.4+gpu@0.7.0+ib@0.9.0" },
		{ "gnr", 2, 4, ",devices=nic@0.2.0+nvme@0.2.1+gpu@0.3.0+ib@0.4.0" },
	};
	for (size_t p = 0; p < sizeof(plat) / sizeof(plat[0]); p++) {
		char spec[160];
		int a = plat[p].a;
		snprintf(spec, sizeof(spec), "sim:%s,fault=swapped:stackmap:%d%s", plat[p].plat, a, plat[p].devs);
		uncore_t *u = open_sim(spec);
		struct sim *s = sim_of(u->acc);
		CU_ASSERT(stack_of(u, "ens0f0") == a + 1 && stack_of(u, "nvme0") == a + 1); /* on stack a */
		CU_ASSERT(stack_of(u, "card0") == a);                                       /* on stack a + 1 */
		CU_ASSERT(stack_of(u, "mlx5_0") == plat[p].other);                          /* not swapped */
		CU_ASSERT(s->pdev[sim_dev(s, "ens0f0")].stack == a && s->pdev[sim_dev(s, "card0")].stack == a + 1);
		int kernel = !strcmp(plat[p].plat, "skx") || !strcmp(plat[p].plat, "icx");
		struct memfs m = { 0 };
		struct dev_fs fs = { .mem = &m };
		char b1[32], b2[32], n1[48], n2[48];
		snprintf(n1, sizeof(n1), "/sys/devices/uncore_iio_%d/die0", a);
		snprintf(n2, sizeof(n2), "/sys/devices/uncore_iio_%d/die0", a + 1);
		CU_ASSERT_FATAL(sim_pci_sysfs(s, &m) == 0);
		CU_ASSERT((dev_fs_line(&fs, n1, b1, sizeof(b1)) == 0) == kernel);
		CU_ASSERT((dev_fs_line(&fs, n2, b2, sizeof(b2)) == 0) == kernel);
		memfs_free(&m);
		uncore_close(u);
		/* the clean machine shows them the other way round */
		snprintf(spec, sizeof(spec), "sim:%s%s", plat[p].plat, plat[p].devs);
		u = open_sim(spec);
		CU_ASSERT(stack_of(u, "ens0f0") == a && stack_of(u, "card0") == a + 1);
		s = sim_of(u->acc);
		memset(&m, 0, sizeof(m));
		CU_ASSERT_FATAL(sim_pci_sysfs(s, &m) == 0);
		char c1[32], c2[32];
		if (kernel && !dev_fs_line(&fs, n1, c1, sizeof(c1)) && !dev_fs_line(&fs, n2, c2, sizeof(c2)))
			CU_ASSERT(!strcmp(b1, c2) && !strcmp(b2, c1));
		memfs_free(&m);
		uncore_close(u);
	}
	uncore_t *u;
	CU_ASSERT(uncore_open_topology("sim:spr,fault=swapped:stackmap:9", &u) < 0 &&
		  strstr(uncore_error(), "N and N+1 must be two of them"));
}

/* Profile keys: a kind's rates and overhead, one device's rates; a device the machine has not is refused. */
static void test_profile_keys(void)
{
	char prof[400], spec[600];
	snprintf(prof, sizeof(prof), "%s/devdma-%d.prof", test_tmpdir(), (int)getpid());
	FILE *f = fopen(prof, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs("device.gpu.in_bytes_per_s = 1e9\ndevice.gpu.overhead_ratio = 0.25\ndevice.card1.out_bytes_per_s = 7e9\n"
	      "device.nvme0.in_bytes_per_s = 0\n", f);
	fclose(f);
	snprintf(spec, sizeof(spec), "sim:spr,profile=%s", prof);
	uncore_t *u = open_sim(spec);
	struct sim *s = sim_of(u->acc);
	int c0 = sim_dev(s, "card0"), c1 = sim_dev(s, "card1"), n0 = sim_dev(s, "nvme0");
	CU_ASSERT(s->pdev[c0].in_bps == 1e9 && s->pdev[c0].out_bps == 9e9 && s->pdev[c0].overhead == 0.25);
	CU_ASSERT(s->pdev[c1].in_bps == 1e9 && s->pdev[c1].out_bps == 7e9);
	CU_ASSERT(s->pdev[n0].in_bps == 0 && s->pdev[n0].out_bps == 1.2e9);
	CU_ASSERT(sim_dev_iio_bps(s, c1, 0) == 7e9 * 1.25);
	uncore_close(u);
	f = fopen(prof, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs("device.card9.in_bytes_per_s = 1e9\n", f);
	fclose(f);
	CU_ASSERT(uncore_open(spec, &u) < 0 && strstr(uncore_error(), "the machine has no device card9"));
	f = fopen(prof, "w");
	CU_ASSERT_FATAL(f != NULL);
	fputs("device.nic.overhead_ratio = 2\n", f);
	fclose(f);
	CU_ASSERT(uncore_open(spec, &u) < 0 && strstr(uncore_error(), "is a ratio"));
	unlink(prof);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "each device group's port bytes equal its devices' DMA (skx, icx, spr, gnr; sim: and perf+sim:)",
		  test_group_bytes },
		{ "the boards' devices on SPR PMUs 1, 6, 7, 9, GNR PMUs 9, 14 and ICX's CBDMA count the profile's rates",
		  test_board_places },
		{ "device counters at their Linux paths and units equal their truth", test_counters },
		{ "faults uncounted and frozen change what they name alone", test_device_faults },
		{ "fault swapped:stackmap misnames two stacks", test_stackmap_fault },
		{ "profile keys of the devices' DMA", test_profile_keys },
		{ NULL, NULL },
	};
	return run_suite("devdma", tests);
}
