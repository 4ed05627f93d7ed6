/* Parts with several dies per socket (issue 33 point 3): Linux keeps an uncore per logical die, so every
 * die's boxes must be counted.  The truth is independent of the library: the simulator's profile (per
 * socket, spread over every die's boxes) and hand-written sysfs trees in both kernels' die_id styles. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "sim_helpers.h"
#include "sim_truth.h"
#include "fake_tree.h"
#include "util/error.h"

/* Every metric of the machine named prefix* (those the profile gives a truth for), per socket and per box,
 * against the profile, socket s against the truth of socket from[s] (NULL: its own); returns the values
 * checked. */
static int metric_truth_from(const char *backend, const char *prefix, const int *from)
{
	char spec[128], what[200];
	int checked = 0;
	snprintf(spec, sizeof(spec), "%s,clock=manual", backend);
	uncore_t *u = open_sim(spec);
	struct sim *sim = sim_of(u->acc);
	for (int m = 0; m < uncore_num_metrics(u); m++) {
		struct uncore_metric_info mi;
		uncore_session_t *s;
		uncore_metric_info(u, m, &mi);
		if (strncmp(mi.name, prefix, strlen(prefix)) || isnan(truth_of(sim, mi.name, 0).v))
			continue;
		if (strstr(mi.name, "_local_") || strstr(mi.name, "_remote_"))
			continue; /* counted at the CHAs, not the channels: test_localremote holds them to the truth */
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		int sm = uncore_session_add_metric(s, mi.name);
		CU_ASSERT_FATAL(sm >= 0);
		CU_ASSERT_FATAL(uncore_session_start(s) == 0);
		uncore_sleep_ns(u, 1000000000);
		CU_ASSERT_FATAL(uncore_session_read(s) == 0);
		double secs = (double)uncore_session_elapsed_ns(s) / 1e9, v;
		int integral = strstr(mi.group, "totals") != NULL;
		for (int sock = 0; sock < uncore_num_sockets(u); sock++) {
			struct truth t = truth_of(sim, mi.name, from ? from[sock] : sock);
			CU_ASSERT_FATAL(!isnan(t.v));
			truth_scale(&t, integral ? secs : 1);
			snprintf(what, sizeof(what), "%s %s socket %d", backend, mi.name, sock);
			CU_ASSERT(uncore_session_metric_value(s, sm, sock, -1, UNCORE_SINCE_START, &v) == 0);
			checked += check_truth(what, v, t.v);
			int nb = mi.box_unit >= 0 ? uncore_unit_boxes(u, mi.box_unit, sock) : 0;
			if (!strncmp(mi.name, "mem_", 4)) /* every channel of every die, as many as the simulator built */
				CU_ASSERT(nb == sim->mem_channels[sock]);
			if (nb > 1 && uncore_session_event_boxes(s, 0, sock) == 1)
				nb = 1; /* a socket-wide event counted on one box, which holds the whole truth */
			for (int k = 0; k < nb; k++) {
				int box = uncore_box_number(u, mi.box_unit, sock, k);
				snprintf(what, sizeof(what), "%s %s socket %d box %d", backend, mi.name, sock, box);
				CU_ASSERT(uncore_session_metric_value(s, sm, sock, box, UNCORE_SINCE_START, &v) == 0);
				check_truth(what, v, truth_box(t, k, nb));
			}
		}
		uncore_session_free(s);
	}
	fprintf(stderr, "%s: %d %s* metric values per socket equal the truth\n", backend, checked, prefix);
	uncore_close(u);
	return checked;
}

static int metric_truth(const char *backend, const char *prefix) { return metric_truth_from(backend, prefix, NULL); }

static void memory_truth(const char *backend)
{
	/* mem_bw_read, _write, _total, mem_read_bytes, mem_write_bytes on each socket at least */
	CU_ASSERT(metric_truth(backend, "mem_") >= 5 * (strstr(backend, "sockets=1") ? 1 : 2));
}

static void test_truth_gnr(void)
{
	memory_truth("perf+sim:gnr,dies=2"); /* first: a library that cannot open sim:'s dies stops the test */
	memory_truth("sim:gnr,dies=2");
}

static void test_truth_emr(void)
{
	memory_truth("perf+sim:emr,dies=2");
	memory_truth("sim:emr,dies=2");
}

static void test_truth_srf(void)
{
	memory_truth("perf+sim:srf,dies=3,sockets=2");
	memory_truth("sim:srf,dies=2,sockets=1");
}

/* The other metrics too (LLC, UPI, IIO, clocks): a socket's dies add up to its truth. */
static void test_truth_all(void)
{
	CU_ASSERT(metric_truth("sim:gnr,dies=2", "") >= 2 * 15);
	CU_ASSERT(metric_truth("perf+sim:emr,dies=2", "") >= 2 * 15);
}

/* A UBox whose node-id map disagrees with the NUMA nodes (fault swapped:busmap: socket 0's node named group 1):
 * GNR, SRF and CWF place each discovery table, and every unit it lists, by its device's NUMA node, as Linux 6.12
 * does (gnr_uncore_pci_init reads no UBox, get_device_die_id), so every metric keeps its socket's truth. */
static void test_ubox_not_read(void)
{
	CU_ASSERT(metric_truth("sim:gnr,fault=swapped:busmap", "") >= 2 * 15);
	memory_truth("sim:srf,fault=swapped:busmap");
	memory_truth("sim:cwf,fault=swapped:busmap");
}

/* SPR and EMR read the same tables and Linux places them the same way, by the NUMA node of the table's device
 * (get_device_die_id; spr_uncore_pci_init's UBox map only places the UPI/M3UPI replacement and the iMC
 * free-running counters): a UBox map that disagrees leaves the memory metrics, counted on the tables' MMIO iMC
 * channels, with their own socket's truth.  Fails with the map first: socket 0 reads socket 1's 12.8 GB/s. */
static void test_node_over_map(void)
{
	memory_truth("sim:emr,fault=swapped:busmap");
	memory_truth("sim:spr,fault=swapped:busmap");
	memory_truth("sim:emr,dies=2,fault=swapped:busmap");
}

/* numa=off: no device has a node.  The library falls back to the UBox map, which places every table where
 * the simulator has it (and where the map is swapped, swaps them); Linux assumes the order the tables are
 * found in (logical_die_id++), and the simulator's buses are not in socket order (socket 0's table on bus
 * 0xfe, socket 1's on 0x7e): the simulated kernel, as Linux, gives its socket 0 PMUs socket 1's iMC channels
 * and the other way round. */
static void test_numa_off(void)
{
	static const int swapped[] = { 1, 0 };
	memory_truth("sim:emr,numa=off");
	/* the map decides: swapped, it swaps the sockets' channels */
	CU_ASSERT(metric_truth_from("sim:emr,numa=off,fault=swapped:busmap", "mem_", swapped) >= 2 * 5);
	CU_ASSERT(metric_truth_from("perf+sim:emr,numa=off", "mem_", swapped) >= 2 * 5);
}

/* Boxes of die 1 follow die 0's in a socket, sit on die 1's CPU and are named by die; one die: no die. */
static void test_box_dies(void)
{
	static const char *const backends[] = { "sim:gnr,dies=2", "perf+sim:gnr,dies=2" };
	for (int i = 0; i < 2; i++) {
		uncore_t *u = open_sim(backends[i]);
		int imc = -1, cha = -1;
		struct uncore_unit_info ui;
		for (int t = 0; t < uncore_num_units(u); t++) {
			uncore_unit_info(u, t, &ui);
			imc = strcmp(ui.name, "imc") ? imc : t;
			cha = strcmp(ui.name, "cha") ? cha : t;
		}
		CU_ASSERT_FATAL(imc >= 0 && cha >= 0);
		CU_ASSERT(uncore_socket_dies(u, 0) == 2 && uncore_socket_dies(u, 1) == 2 && uncore_socket_dies(u, 2) == 0);
		/* sim:gnr has 12 channels and 72 CHAs a die (platforms/gnr/sim.c) */
		CU_ASSERT_EQUAL(uncore_unit_boxes(u, imc, 1), 24);
		CU_ASSERT_EQUAL(uncore_box_number(u, imc, 1, 23), 23);
		CU_ASSERT_EQUAL(uncore_box_die(u, imc, 1, 11), 0);
		CU_ASSERT_EQUAL(uncore_box_die(u, imc, 1, 12), 1);
		CU_ASSERT_EQUAL(uncore_box_die(u, imc, 1, 24), -1);
		/* CPUs die by die, 72 each: socket 1's die 1 starts at CPU 216 */
		const struct box *b = box_named(u, "cha", 1, 5);
		CU_ASSERT_FATAL(b != NULL);
		CU_ASSERT_EQUAL(b->cpu, 144);
		int found = 0;
		for (int k = 0; k < u->nboxes; k++)
			if (u->boxes[k].t == b->t && u->boxes[k].socket == 1 && u->boxes[k].idx == 72 + 5) {
				CU_ASSERT_EQUAL(u->boxes[k].die, 1);
				CU_ASSERT_EQUAL(u->boxes[k].unit_id, 5);
				CU_ASSERT_EQUAL(u->boxes[k].cpu, 216);
				found++;
			}
		CU_ASSERT_EQUAL(found, 1);
		uncore_close(u);
	}
	uncore_t *u = open_sim("sim:gnr");
	CU_ASSERT_EQUAL(uncore_box_die(u, 0, 0, 0), -1);
	CU_ASSERT_EQUAL(uncore_socket_dies(u, 1), 1);
	CU_ASSERT_EQUAL(u->host.socket_dies[0], 1);
	uncore_close(u);
}

/* The simulated kernel's tree: a cpumask with one CPU per die (Linux uncore.c), die_id as 6.12 writes it. */
static void test_kernel_topology(void)
{
	static const struct { const char *path, *want; } files[] = {
		{ "/sys/bus/event_source/devices/uncore_imc_0/cpumask", "0,72,144,216" },
		{ "/sys/bus/event_source/devices/uncore_cha_71/cpumask", "0,72,144,216" },
		{ "/sys/devices/system/cpu/cpu71/topology/die_id", "0" },
		{ "/sys/devices/system/cpu/cpu72/topology/die_id", "1" },
		{ "/sys/devices/system/cpu/cpu216/topology/die_id", "3" }, /* socket 1 << 1 | die 1 */
		{ "/sys/devices/system/cpu/cpu216/topology/physical_package_id", "1" },
	};
	uncore_t *u = open_sim("perf+sim:gnr,dies=2");
	struct perf_kernel *k = u->perf->k;
	char line[128];
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		CU_ASSERT_FATAL(k->ops->read_line(k, files[i].path, line, sizeof(line)) == 0);
		if (strcmp(line, files[i].want))
			fprintf(stderr, "%s: '%s', want '%s'\n", files[i].path, line, files[i].want);
		CU_ASSERT_STRING_EQUAL(line, files[i].want);
	}
	uncore_close(u);
	u = open_sim("perf+sim:gnr"); /* one die a socket: as before */
	k = u->perf->k;
	CU_ASSERT(k->ops->read_line(k, "/sys/bus/event_source/devices/uncore_imc_0/cpumask", line, sizeof(line)) == 0);
	CU_ASSERT_STRING_EQUAL(line, "0,72");
	CU_ASSERT(k->ops->read_line(k, "/sys/devices/system/cpu/cpu72/topology/die_id", line, sizeof(line)) == 0);
	CU_ASSERT_STRING_EQUAL(line, "1"); /* 6.12: the package id where the package has one die */
	uncore_close(u);
}

/* A die whose discovery table is missing: warned about by name, the other dies keep counting. */
static void test_missing_table(void)
{
	uc_clear_warnings();
	uncore_t *u = open_sim("sim:gnr,dies=2,clock=manual,fault=missing:discovery:1");
	CU_ASSERT(warned("no PMON discovery table was found for socket 0 die 1 (CPU 72): its units are not counted"));
	struct sim *sim = sim_of(u->acc);
	const char *const spec[] = { "UNC_M_CAS_COUNT_SCH0.RD", "UNC_M_CAS_COUNT_SCH1.RD" };
	uncore_session_t *s = start_session(u, spec, 2);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_FATAL(uncore_session_read(s) == 0);
	double secs = (double)uncore_session_elapsed_ns(s) / 1e9;
	for (int sock = 0; sock < 2; sock++) { /* socket 0 counts its die 0 only: half its reads */
		double bytes = (double)(val(s, 0, sock) + val(s, 1, sock)) * 64;
		check_truth(sock ? "socket 1, both dies" : "socket 0, die 0 alone", bytes,
		      sim->prof.mem_read_bps[sock] * secs * (sock ? 1 : 0.5));
	}
	uncore_session_free(s);
	uncore_close(u);
	CU_ASSERT(uncore_open("sim:gnr,dies=2,fault=missing:discovery:9", &u) < 0);
	CU_ASSERT(strstr(uncore_error(), "no such discovery table (logical dies 0..3)") != NULL);
	CU_ASSERT(uncore_open("sim:snbep,dies=2", &u) < 0);
	CU_ASSERT(strstr(uncore_error(), "snbep has one die per socket") != NULL);
}

/* Overflow sampling on die 1: its own global status and freeze (the die's registers, on its CPU), found,
 * re-armed and resumed; die 0 of the same socket counts on through it. */
static void test_die_sampling(void)
{
	uncore_t *u = open_sim("sim:emr,dies=2,clock=manual");
	struct sim *sim = sim_of(u->acc);
	const uint64_t N = 1000000;
	/* sim:emr has 8 channels and 60 CHAs a die: imc 13 is die 1's channel 5, cha 61 die 1's CHA 1 */
	static const char *const specs[] = { "UNC_M_CAS_COUNT.RD:socket=0:box=13:sample=1000000",
					      "UNC_CHA_CLOCKTICKS:socket=0:box=61", "UNC_CHA_CLOCKTICKS:socket=0:box=1" };
	uncore_session_t *s = start_session(u, specs, 3);
	uncore_overflow_t ov[4];
	double cas = sim->prof.mem_read_bps[0] / 64 / 16, t_ov = (double)N / cas, hz = sim->prof.uncore_hz;
	CU_ASSERT_EQUAL(uncore_session_overflows(s, ov, 4), 0);
	uncore_sleep_ns(u, 1000000000);
	sim_advance_scope(sim, -1); /* the simulator's registers brought up to now, as an access would */
	CU_ASSERT(sim->gfrz[1] == 1 && sim->gfrz[0] == 0);       /* scope 1: socket 0's die 1 */
	CU_ASSERT_EQUAL(uncore_session_read(s), 0);              /* services it first */
	CU_ASSERT(val(s, 0, 0) >= N && val(s, 0, 0) <= N + 50);
	ASSERT_NEAR(val(s, 1, 0), hz * t_ov, hz * t_ov * 0.001); /* die 1 froze with its channel */
	ASSERT_NEAR(val(s, 2, 0), hz, hz * 0.001);               /* die 0 did not */
	int n = uncore_session_overflows(s, ov, 4);
	CU_ASSERT_EQUAL(n, 1);
	CU_ASSERT(n == 1 && ov[0].event == 0 && ov[0].socket == 0 && ov[0].box == 13);
	CU_ASSERT(sim->gfrz[1] == 0 && sim->gstatus[1][0] == 0 && sim->gstatus[1][1] == 0);
	uint64_t clk = val(s, 1, 0);
	uncore_sleep_ns(u, 1000000000);
	CU_ASSERT_EQUAL(uncore_session_read(s), 0);
	CU_ASSERT(val(s, 0, 0) >= 2 * N && val(s, 0, 0) <= 2 * N + 100);
	ASSERT_NEAR(val(s, 1, 0) - clk, hz * t_ov, hz * t_ov * 0.002);
	CU_ASSERT(uncore_session_stop(s) == 0); /* leaves no die frozen */
	uncore_session_free(s);
	CU_ASSERT(sim->gfrz[1] == 0 && sim->gfrz[0] == 0);
	CU_ASSERT_EQUAL(sim->bad_accesses, 0);
	uncore_close(u);
}

/* ---- the host's own sysfs, as each kernel writes it ---- */

/* 2 packages x 2 dies x 2 CPUs; die_id as 6.1 gives it (package-relative) or 6.12 (the package's bits above). */
static void tree(int linux612)
{
	char path[128], text[16];
	snprintf(root, sizeof(root), "%s/test_dies.%d.%d", test_tmpdir(), (int)getpid(), linux612);
	put_str("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 173\nmodel name\t: Xeon @ 2.00GHz\n", "/proc/cpuinfo");
	put_str("-1\n", "/proc/sys/kernel/perf_event_paranoid");
	for (int c = 0; c < 8; c++) {
		int pkg = c / 4, die = c / 2 % 2;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", c);
		snprintf(text, sizeof(text), "%d\n", pkg);
		put_str(text, path);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/die_id", c);
		snprintf(text, sizeof(text), "%d\n", linux612 ? pkg * 2 + die : die);
		put_str(text, path);
	}
	for (int n = 0; n < 4; n++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		snprintf(text, sizeof(text), "%d-%d\n", 2 * n, 2 * n + 1);
		put_str(text, path);
	}
	/* the driver's cpumask: one CPU per die (uncore.c), here the second of each die */
	put_str("17\n", "/sys/bus/event_source/devices/uncore_imc_0/type");
	put_str("1,3,5,7\n", "/sys/bus/event_source/devices/uncore_imc_0/cpumask");
	put_str("config:0-7\n", "/sys/bus/event_source/devices/uncore_imc_0/format/event");
	put_str("config:8-15\n", "/sys/bus/event_source/devices/uncore_imc_0/format/umask");
	/* a PMU with a box on die 1 only (6.12 keeps a cpumask per PMU: the dies it has boxes on) */
	put_str("18\n", "/sys/bus/event_source/devices/uncore_imc_1/type");
	put_str("3,7\n", "/sys/bus/event_source/devices/uncore_imc_1/cpumask");
	setenv("UNCORE_SYSROOT", root, 1);
}

static void test_sysfs_dies(void)
{
	for (int k612 = 0; k612 < 2; k612++) {
		struct host_info h;
		tree(k612);
		CU_ASSERT_FATAL(host_from_sysfs(&h) == 0);
		CU_ASSERT_EQUAL(h.nsockets, 2);
		CU_ASSERT(h.socket_dies[0] == 2 && h.socket_dies[1] == 2);
		CU_ASSERT(h.die_cpu[0][0] == 0 && h.die_cpu[0][1] == 2 && h.die_cpu[1][0] == 4 && h.die_cpu[1][1] == 6);
		CU_ASSERT(h.cpu_die[3] == 1 && h.cpu_die[4] == 0 && h.cpu_die[7] == 1);
		CU_ASSERT(h.node_die[2] == 1 * UC_MAX_DIES + 0 && h.node_die[3] == 1 * UC_MAX_DIES + 1 && h.node_die[4] == -1);
		uncore_t *u = NULL;
		int rc = uncore_open("perf", &u);
		if (rc)
			fprintf(stderr, "perf on %s: %s\n", root, uncore_error());
		CU_ASSERT_FATAL(rc == 0);
		/* uncore_imc_0 counts on every die: a box on each, on the CPU the cpumask names; uncore_imc_1 on
		 * die 1 alone, which the host's topology (not its place in the mask) says */
		int n = 0;
		for (int i = 0; i < u->nboxes; i++) {
			const struct box *b = &u->boxes[i];
			if (strcmp(b->t->name, "imc"))
				continue;
			CU_ASSERT_EQUAL(b->cpu, 2 * (b->socket * 2 + b->die) + 1);
			CU_ASSERT(b->unit_id == 0 || b->die == 1);
			CU_ASSERT_EQUAL(b->idx, b->unit_id + 2 * b->die); /* unit ids 0..1 on die 0, 2..3 on die 1 */
			n++;
		}
		CU_ASSERT_EQUAL(n, 6);
		uncore_close(u);
		fake_tree_remove();
	}
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "memory metrics equal the truth on gnr with 2 dies (sim, perf+sim)", test_truth_gnr },
		{ "memory metrics equal the truth on emr with 2 dies (sim, perf+sim)", test_truth_emr },
		{ "memory metrics equal the truth on srf with 2 and 3 dies", test_truth_srf },
		{ "every metric equals the truth with 2 dies (sim:gnr, perf+sim:emr)", test_truth_all },
		{ "gnr, srf, cwf: tables placed by NUMA node, a UBox map that disagrees is not read", test_ubox_not_read },
		{ "spr, emr: tables placed by NUMA node as Linux, a UBox map that disagrees is not followed", test_node_over_map },
		{ "numa=off: the library follows the UBox map, the simulated kernel Linux's order", test_numa_off },
		{ "boxes of every die: numbers, CPUs, dies", test_box_dies },
		{ "the simulated kernel: a cpumask CPU per die, die_id as Linux 6.12", test_kernel_topology },
		{ "a die without its discovery table is named, the rest count", test_missing_table },
		{ "overflow sampling on die 1: its own global status and freeze", test_die_sampling },
		{ "die ids from sysfs as Linux 6.1 and 6.12 write them; perf cpumask per die", test_sysfs_dies },
		{ NULL, NULL },
	};
	return run_suite("dies", tests);
}
