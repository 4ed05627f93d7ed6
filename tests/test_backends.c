/*
 * The real msr and pci backends against a fake sysroot of regular files:
 * they touch the right offsets, and missing devices, permissions and I/O
 * errors become messages a user can act on.  Also a whole "direct" open and
 * session over a fake two-socket SNB-EP tree.  No descriptor the library opens
 * survives exec.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include "harness.h"
#include "open/uncore_priv.h"
#include "fake_tree.h"

static void test_msr_backend(void)
{
	struct uncore_stats st = { 0 };
	struct msr_backend *m = msr_backend_open();
	uint64_t v = 0;
	char link[512];
	sparse("/dev/cpu/0/msr", 0x10000);
	CU_ASSERT(msr_backend_write(m, 0, 0xd10, 0x00400334, &st) == 0);
	CU_ASSERT_EQUAL(get_at("/dev/cpu/0/msr", 0xd10, 8), 0x00400334);
	CU_ASSERT(msr_backend_read(m, 0, 0xd10, &v, &st) == 0);
	CU_ASSERT_EQUAL(v, 0x00400334);
	CU_ASSERT_EQUAL(st.writes, 1);
	CU_ASSERT_EQUAL(st.reads, 1);
	/* msr_safe is preferred when present */
	sparse("/dev/cpu/1/msr", 0x10000);
	sparse("/dev/cpu/1/msr_safe", 0x10000);
	CU_ASSERT(msr_backend_write(m, 1, 0xc24, 0x10100, &st) == 0);
	CU_ASSERT_EQUAL(get_at("/dev/cpu/1/msr_safe", 0xc24, 8), 0x10100);
	CU_ASSERT_EQUAL(get_at("/dev/cpu/1/msr", 0xc24, 8), 0);
	/* no device: the msr module is not loaded */
	CU_ASSERT(msr_backend_read(m, 5, 0xd10, &v, &st) < 0);
	CU_ASSERT(strstr(uncore_error(), "load the msr module") != NULL);
	/* a register the CPU lacks reads as EIO (here: an unmapped address of /proc/self/mem) */
	snprintf(link, sizeof(link), "%s/dev/cpu/2", root);
	mkdirs(link);
	strcat(link, "/msr");
	CU_ASSERT(symlink("/proc/self/mem", link) == 0);
	CU_ASSERT(msr_backend_read(m, 2, 0xd10, &v, &st) < 0);
	CU_ASSERT(strstr(uncore_error(), "I/O error") != NULL);
	CU_ASSERT(strstr(uncore_error(), "MSR 0xd10") != NULL);
	msr_backend_close(m);
	/* the advice for each errno */
	access_errno_error(EACCES, "/dev/cpu/0/msr", "opening the MSR device");
	CU_ASSERT(strstr(uncore_error(), "needs root or CAP_SYS_RAWIO") != NULL);
	access_errno_error(EPERM, "/sys/bus/pci/devices/0000:7f:10.0/config", "reading");
	CU_ASSERT(strstr(uncore_error(), "needs root") != NULL);
}

static void test_pci_backend(void)
{
	struct uncore_stats st = { 0 };
	struct pci_backend *p = pci_backend_open();
	struct pci_loc imc = { 0, 0x7f, 16, 0 }, gone = { 0, 0x7f, 16, 7 }, small = { 0, 0x7f, 16, 1 };
	uint32_t buf[4];
	CU_ASSERT_FATAL(p != NULL);
	make_pci_dev(0x7f, 16, 0, 0x3cb0, 4096);
	make_pci_dev(0x7f, 16, 1, 0x3cb1, 64); /* a file cut short (sysfs itself gives a non-root user 64 bytes of a
						* file it sizes at 4096) */
	put_at("/sys/bus/pci/devices/0000:7f:10.0/config", 0xa0, 0x89abcdef);
	put_at("/sys/bus/pci/devices/0000:7f:10.0/config", 0xa4, 0x1234);
	CU_ASSERT(pci_backend_read(p, &imc, 0xa0, buf, 16, &st) == 0);
	CU_ASSERT_EQUAL(buf[0], 0x89abcdef);
	CU_ASSERT_EQUAL(buf[1], 0x1234);
	CU_ASSERT_EQUAL(st.syscalls, 1); /* one block read */
	CU_ASSERT(pci_backend_write32(p, &imc, 0xd8, 0x00400304, &st) == 0);
	CU_ASSERT_EQUAL(get_at("/sys/bus/pci/devices/0000:7f:10.0/config", 0xd8, 4), 0x00400304);
	CU_ASSERT(pci_backend_read(p, &gone, 0xa0, buf, 4, &st) < 0);
	CU_ASSERT(strstr(uncore_error(), "does not exist") != NULL);
	CU_ASSERT(pci_backend_read(p, &small, 0xa0, buf, 4, &st) < 0);
	CU_ASSERT(strstr(uncore_error(), "holds only 64 bytes") != NULL);
	pci_backend_close(p);
	/* the device list comes from sysfs */
	struct pci_devinfo *devs;
	int n;
	CU_ASSERT(pci_list_sysfs(&devs, &n) == 0);
	CU_ASSERT_EQUAL(n, 2);
	free(devs);
	/* an id beyond the 16 bits of the PCI header (a snapshot's): not the device, not wrapped into Intel's 0x8086 */
	put_str("0x100008086\n", "/sys/bus/pci/devices/0000:7f:10.1/vendor");
	put_str("0x3cb40000\n", "/sys/bus/pci/devices/0000:7f:10.0/device");
	CU_ASSERT(pci_list_sysfs(&devs, &n) == 0);
	CU_ASSERT_EQUAL(n, 0);
	free(devs);
}

/* A fresh tree (no leftovers of other tests) with cpuinfo and two sockets of per_socket CPUs, each with its MSR
 * file. */
static void new_two_socket_tree(const char *cpuinfo, int per_socket)
{
	char rel[128], cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", root, root);
	CU_ASSERT_FATAL(system(cmd) == 0);
	put_str(cpuinfo, "/proc/cpuinfo");
	for (int cpu = 0; cpu < 2 * per_socket; cpu++) {
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		put_str(cpu < per_socket ? "0\n" : "1\n", rel);
		snprintf(rel, sizeof(rel), "/dev/cpu/%d/msr", cpu);
		sparse(rel, 0x10000);
	}
}

/* A whole two-socket SNB-EP: socket 0's uncore is on bus 0xbf, socket 1's on 0x3f. */
static void build_snbep_tree(void)
{
	char rel[128];
	const int bus[2] = { 0xbf, 0x3f }, node[2] = { 5, 2 };
	uint32_t gidnidmap = (uint32_t)node[0] | (uint32_t)node[1] << 3;
	new_two_socket_tree("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 45\n"
			    "model name\t: Intel(R) Xeon(R) CPU E5-2680 0 @ 2.70GHz\nflags\t\t: fpu msr\n\n", 2);
	for (int s = 0; s < 2; s++) {
		static const struct { int dev, fn; unsigned id; } d[] = {
			{ 16, 0, 0x3cb0 }, { 16, 1, 0x3cb1 }, { 16, 4, 0x3cb4 }, { 16, 5, 0x3cb5 },
			{ 14, 1, 0x3c46 }, { 11, 0, 0x3ce0 },
		};
		for (size_t k = 0; k < sizeof(d) / sizeof(d[0]); k++) {
			make_pci_dev(bus[s], d[k].dev, d[k].fn, d[k].id, 4096);
			if (d[k].dev == 11)
				continue; /* the UBox: no PMON block */
			/* what an idle box looks like after another tool: a disabled event, frz_en, counts left */
			snprintf(rel, sizeof(rel), "/sys/bus/pci/devices/0000:%02x:%02x.%d/config", bus[s], d[k].dev, d[k].fn);
			for (int c = 0; c < 4; c++)
				put_at(rel, 0xd8 + 4 * c, 0x00000304);
			put_at(rel, 0xf0, 0);
			put_at(rel, 0xf4, 0x00010000);
		}
		snprintf(rel, sizeof(rel), "/sys/bus/pci/devices/0000:%02x:0b.0/config", bus[s]);
		put_at(rel, 0x40, (uint32_t)node[s]);
		put_at(rel, 0x54, gidnidmap);
	}
}

/* A two-socket Haswell-EP (model 63) or Broadwell-EP (79) as a Dell R730's lspci shows one: socket 0's uncore on
 * bus 0x7f, socket 1's on 0xff, each with its UBox (ubox, 10.5) and, where capid4 >= 0, its PCU function pcu at
 * 1e.3 whose CAPID4 (config 0x94) reads capid4; four CPUs a socket, so that no box count is capped by the cores. */
static void build_xep_tree(int model, unsigned ubox, unsigned pcu, long capid4)
{
	char rel[128], cpuinfo[160];
	snprintf(cpuinfo, sizeof(cpuinfo), "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: %d\n"
		 "flags\t\t: fpu msr\n\n", model);
	new_two_socket_tree(cpuinfo, 4);
	for (int sock = 0; sock < 2; sock++) {
		int bus = sock ? 0xff : 0x7f;
		make_pci_dev(bus, 16, 5, ubox, 4096);
		snprintf(rel, sizeof(rel), "/sys/bus/pci/devices/0000:%02x:10.5/config", bus);
		put_at(rel, 0x40, (uint32_t)sock); /* CPUNODEID: node id = socket */
		put_at(rel, 0x54, 1u << 3);       /* GIDNIDMAP: node 0 is socket 0, node 1 socket 1 */
		if (capid4 < 0)
			continue;
		make_pci_dev(bus, 0x1e, 3, pcu, 4096);
		snprintf(rel, sizeof(rel), "/sys/bus/pci/devices/0000:%02x:1e.3/config", bus);
		put_at(rel, 0x94, (uint32_t)capid4);
	}
}

/* The direct backend's SBoxes per socket follow the PCU's CAPID4 as Linux's do: a chop (bits 7:6) of 0 leaves a
 * Haswell-EP two (hswep_has_limit_sbox(HSWEP_PCU_DID 0x2fc0)) and a Broadwell-EP none (bdx_uncore_cpu_init:
 * hswep_has_limit_sbox(BDX_PCU_DID 0x6fc0)); any other chop, or no PCU function found, four.  The values are
 * CAPID4 words with the other bits set, so that only bits 7:6 tell; all ones among them. */
static void test_sbox_count_from_capid4(void)
{
	static const struct { const char *plat; int model; unsigned ubox, pcu; long capid4; int sboxes; } cases[] = {
		{ "bdx", 79, 0x6f1e, 0x6fc0, 0xffffff3f, 0 }, { "bdx", 79, 0x6f1e, 0x6fc0, 0x00000040, 4 },
		{ "bdx", 79, 0x6f1e, 0x6fc0, 0xffffffbf, 4 }, { "bdx", 79, 0x6f1e, 0x6fc0, 0x000000c0, 4 },
		{ "bdx", 79, 0x6f1e, 0x6fc0, -1, 4 },
		{ "hsx", 63, 0x2f1e, 0x2fc0, 0x0000003c, 2 }, { "hsx", 63, 0x2f1e, 0x2fc0, 0x000000fc, 4 },
		{ "hsx", 63, 0x2f1e, 0x2fc0, -1, 4 },
		/* CAPID4 reading all ones holds chop 3 (Linux reads the bits whatever the rest, issue 90 D0): four,
		 * not a refusal (the function's id dword reads 8086:2fc0, so it is there) */
		{ "hsx", 63, 0x2f1e, 0x2fc0, 0xffffffff, 4 }, { "bdx", 79, 0x6f1e, 0x6fc0, 0xffffffff, 4 },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uncore_t *u;
		build_xep_tree(cases[i].model, cases[i].ubox, cases[i].pcu, cases[i].capid4);
		int rc = uncore_open("direct", &u);
		if (rc)
			fprintf(stderr, "%s: %s\n", cases[i].plat, uncore_error());
		CU_ASSERT_FATAL(rc == 0);
		CU_ASSERT_STRING_EQUAL(uncore_platform_name(u), cases[i].plat);
		CU_ASSERT_EQUAL(uncore_num_sockets(u), 2);
		int t = -1;
		struct uncore_unit_info ui;
		for (int k = 0; k < uncore_num_units(u); k++)
			if (uncore_unit_info(u, k, &ui) == 0 && !strcmp(ui.name, "sbox"))
				t = k;
		CU_ASSERT_FATAL(t >= 0);
		for (int sock = 0; sock < 2; sock++) {
			int n = uncore_unit_boxes(u, t, sock);
			if (n != cases[i].sboxes)
				fprintf(stderr, "%s, CAPID4 %#lx: socket %d has %d SBoxes, Linux %d\n", cases[i].plat, cases[i].capid4,
					sock, n, cases[i].sboxes);
			CU_ASSERT_EQUAL(n, cases[i].sboxes);
		}
		uncore_close(u);
	}
}

/* The host facts perf's metric files ask: the stepping of perf's CPU id, and #has_pmem (an ACPI NFIT table). */
static void test_host_facts(void)
{
	struct host_info h;
	build_snbep_tree();
	CU_ASSERT_FATAL(host_from_sysfs(&h) == 0);
	CU_ASSERT(h.stepping == 0 && h.has_pmem == 0);
	put_str("processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 45\nstepping\t: 7\n\n"
		"processor\t: 1\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 45\nstepping\t: 6\n\n", "/proc/cpuinfo");
	put_str("NFIT", "/sys/firmware/acpi/tables/NFIT");
	CU_ASSERT_FATAL(host_from_sysfs(&h) == 0);
	CU_ASSERT(h.family == 6 && h.model == 45 && h.stepping == 7 && h.has_pmem == 1); /* the first CPU's */
}

static void test_direct_over_fake_tree(void)
{
	uncore_t *u;
	uncore_session_t *s;
	char loc[64];
	const char *cfg0 = "/sys/bus/pci/devices/0000:bf:10.0/config";
	const char *cfg1 = "/sys/bus/pci/devices/0000:3f:10.0/config";
	build_snbep_tree();
	uint64_t before_ctl = get_at(cfg0, 0xd8, 4), before_box = get_at(cfg0, 0xf4, 4);
	int rc = uncore_open("direct", &u);
	if (rc)
		fprintf(stderr, "%s\n", uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	CU_ASSERT_EQUAL(uncore_num_sockets(u), 2);
	CU_ASSERT_STRING_EQUAL(uncore_platform_name(u), "snbep");
	CU_ASSERT(!uncore_is_simulated(u));
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, 4, 0), 4); /* imc */
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, 4, 1), 4);
	CU_ASSERT_EQUAL(uncore_unit_boxes(u, 1, 0), 2); /* cbo clipped to 2 cores */
	uncore_box_location(u, 4, 0, 0, loc, sizeof(loc));
	CU_ASSERT_STRING_EQUAL(loc, "pci 0000:bf:10.0+0xf4"); /* by GIDNIDMAP, not bus order */
	uncore_box_location(u, 4, 1, 0, loc, sizeof(loc));
	CU_ASSERT_STRING_EQUAL(loc, "pci 0000:3f:10.0+0xf4");
	uncore_box_location(u, 1, 1, 1, loc, sizeof(loc));
	CU_ASSERT_STRING_EQUAL(loc, "msr 0xd24 cpu 2");
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT(uncore_session_add(s, "UNC_M_CAS_COUNT.RD:socket=0:box=0") >= 0);
	CU_ASSERT(uncore_session_add(s, "UNC_C_LLC_LOOKUP.DATA_READ:socket=1:box=1:state=1") >= 0);
	CU_ASSERT_FATAL(uncore_session_start(s) == 0);
	CU_ASSERT_EQUAL(get_at(cfg0, 0xd8, 4), 0x00400304);    /* CTL0 */
	CU_ASSERT_EQUAL(get_at(cfg0, 0xf4, 4), 0x00010000);    /* unfrozen, frz_en */
	CU_ASSERT_EQUAL(get_at(cfg0, 0xa0, 8), 0);             /* counter zeroed: no reset bit on iMC */
	CU_ASSERT_EQUAL(get_at(cfg1, 0xd8, 4), before_ctl);    /* socket 1 untouched */
	CU_ASSERT_EQUAL(get_at("/dev/cpu/2/msr", 0xd30, 8), 0x00400334); /* CBo 1 CTL0 */
	/* (the filter at 0xd34 is not checked here: in a flat file the 8-byte MSRs at consecutive
	 * addresses overlap, so CTL0's write covers it; test_session proves the filter by counts) */
	CU_ASSERT_EQUAL(get_at("/dev/cpu/2/msr", 0xd24, 8), 0x00010000);
	/* the counter advances by 1000 in the "hardware" */
	put_at(cfg0, 0xa0, 1000);
	CU_ASSERT(uncore_session_read(s) == 0);
	uint64_t v;
	CU_ASSERT(uncore_session_value(s, 0, 0, 0, &v) == 0);
	CU_ASSERT_EQUAL(v, 1000);
	uncore_session_free(s);
	/* a metric over the direct backend: the counts of socket 0's channel 0 as bytes per second */
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	int m = uncore_session_add_metric(s, "mem_bw_read");
	rc = m < 0 ? -1 : uncore_session_start(s);
	if (rc)
		fprintf(stderr, "%s\n", uncore_error());
	CU_ASSERT_FATAL(rc == 0);
	put_at(cfg0, 0xa0, 5000);
	CU_ASSERT(uncore_session_read(s) == 0);
	double bw, secs = (double)uncore_session_elapsed_ns(s) / 1e9;
	/* what the rate adds up to is exact; the rate itself divides by the box's own sample times, which
	 * files that never tick cannot pin down (the simulator tests check rates against the truth) */
	CU_ASSERT(uncore_session_metric_value(s, m, 0, 0, UNCORE_SINCE_START_COUNT, &bw) == 0);
	CU_ASSERT_DOUBLE_EQUAL(bw, 5000 * 64 * 1e-9, 1e-15);
	CU_ASSERT(uncore_session_metric_value(s, m, 0, 0, UNCORE_SINCE_START, &bw) == 0);
	CU_ASSERT(bw > 0 && isfinite(bw) && secs > 0);
	CU_ASSERT(uncore_session_metric_value(s, m, 1, -1, UNCORE_SINCE_START, &bw) == 0);
	CU_ASSERT_DOUBLE_EQUAL(bw, 0, 0);
	uncore_session_free(s);
	CU_ASSERT_DOUBLE_EQUAL(u->host.tsc_hz, 2.7e9, 1); /* from the brand string */
	/* this tree has no QPI devices (BIOSes hide them): the QPI metrics exist but are refused by reason */
	CU_ASSERT(uncore_metric_find(u, "qpi_rx_bw") >= 0);
	CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
	CU_ASSERT(uncore_session_add_metric(s, "qpi_rx_bw") < 0);
	CU_ASSERT(strstr(uncore_error(), "metric qpi_rx_bw cannot be measured: 'UNC_Q_RxL_FLITS_G0.DATA': no qpi box") != NULL);
	uncore_session_free(s);
	CU_ASSERT_EQUAL(get_at(cfg0, 0xd8, 4), before_ctl);
	CU_ASSERT_EQUAL(get_at(cfg0, 0xf4, 4), before_box);
	CU_ASSERT_EQUAL(get_at(cfg0, 0xa0, 4), (uint32_t)(0xa0 * 7 & 0xff) | (uint32_t)((0xa1 * 7) & 0xff) << 8 |
						 (uint32_t)((0xa2 * 7) & 0xff) << 16 | (uint32_t)((0xa3 * 7) & 0xff) << 24);
	CU_ASSERT_EQUAL(get_at("/dev/cpu/2/msr", 0xd30, 8), 0);
	/* resctrl's memory-bandwidth monitoring: refused by reason where it is not mounted; else each socket's
	 * L3 domain (its CPU's cache/index3/id) gives mbm_total_bytes */
	uint64_t mbm = 0;
	CU_ASSERT(uncore_resctrl_bytes(u, 0, &mbm) == -1);
	CU_ASSERT(strstr(uncore_error(), "no resctrl memory-bandwidth monitoring here") != NULL);
	put_str("llc_occupancy\nmbm_total_bytes\nmbm_local_bytes\n", "/sys/fs/resctrl/info/L3_MON/mon_features");
	for (int cpu = 0; cpu < 4; cpu++) {
		char rel[128];
		snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/cache/index3/id", cpu);
		put_str(cpu < 2 ? "0\n" : "1\n", rel);
	}
	put_str("123456789\n", "/sys/fs/resctrl/mon_data/mon_L3_00/mbm_total_bytes");
	put_str("Unavailable\n", "/sys/fs/resctrl/mon_data/mon_L3_01/mbm_total_bytes");
	CU_ASSERT(uncore_resctrl_bytes(u, 0, &mbm) == 0);
	CU_ASSERT_EQUAL(mbm, 123456789);
	CU_ASSERT(uncore_resctrl_bytes(u, 1, &mbm) == -1);
	CU_ASSERT(strstr(uncore_error(), "mon_L3_01/mbm_total_bytes does not give a byte count") != NULL);
	put_str("987654321000\n", "/sys/fs/resctrl/mon_data/mon_L3_01/mbm_total_bytes");
	CU_ASSERT(uncore_resctrl_bytes(u, 1, &mbm) == 0);
	CU_ASSERT_EQUAL(mbm, 987654321000ull);
	CU_ASSERT(uncore_resctrl_bytes(u, 2, &mbm) == -1);
	uncore_close(u);
}

/* The descriptors open now, as a bitmap of the first 1024 (the test opens no more). */
static void fds_open(unsigned char open[1024])
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	memset(open, 0, 1024);
	CU_ASSERT_FATAL(d != NULL);
	while ((de = readdir(d))) {
		int fd = atoi(de->d_name);
		if (de->d_name[0] != '.' && fd != dirfd(d) && fd < 1024)
			open[fd] = 1;
	}
	closedir(d);
}

/* Every descriptor opened since before[] was taken is close-on-exec; those that are not, named. */
static void expect_cloexec(const unsigned char before[1024], const char *backend)
{
	unsigned char now[1024];
	fds_open(now);
	for (int fd = 0; fd < 1024; fd++) {
		if (!now[fd] || before[fd] || (fcntl(fd, F_GETFD) & FD_CLOEXEC))
			continue;
		char link[64], target[512] = "?";
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		target[n > 0 ? n : 1] = 0;
		fprintf(stderr, "%s: descriptor %d (%s) is not close-on-exec\n", backend, fd, target);
		CU_FAIL("a descriptor the library opened crosses exec");
	}
}

/* Open, count and read on each backend that opens files: what it left open must not cross exec. */
static void test_descriptors_cloexec(void)
{
	static const char *const events[] = { "UNC_M_CAS_COUNT.RD:socket=0:box=0", "UNC_M_CAS_COUNT.WR:socket=1",
					      "UNC_C_LLC_LOOKUP.DATA_READ:socket=1:box=1:state=1" };
	unsigned char before[1024];
	char backend[600];
	build_snbep_tree();
	fds_open(before);
	for (int b = 0; b < 3; b++) {
		if (b == 0)
			snprintf(backend, sizeof(backend), "direct");
		else if (b == 1)
			snprintf(backend, sizeof(backend), "sim:snbep,shared=%s/sim-shared", root);
		else
			snprintf(backend, sizeof(backend), "perf+sim:snbep");
		uncore_t *u;
		uncore_session_t *s;
		int rc = uncore_open(backend, &u);
		if (rc)
			fprintf(stderr, "%s: %s\n", backend, uncore_error());
		CU_ASSERT_FATAL(rc == 0);
		CU_ASSERT_FATAL(uncore_session_new(u, &s) == 0);
		for (size_t e = 0; e < sizeof(events) / sizeof(events[0]); e++)
			CU_ASSERT(uncore_session_add(s, events[e]) >= 0);
		rc = uncore_session_start(s);
		if (rc)
			fprintf(stderr, "%s: %s\n", backend, uncore_error());
		CU_ASSERT_FATAL(rc == 0);
		expect_cloexec(before, backend);
		CU_ASSERT(uncore_session_read(s) == 0);
		expect_cloexec(before, backend);
		uncore_session_free(s);
		uncore_close(u);
	}
}

/* UNCORE_CLAIMS longer than the path the backend keeps: refused, not cut to another file's name. */
static void test_long_claims_path(void)
{
	uncore_t *u;
	char path[1024];
	build_snbep_tree();
	int n = snprintf(path, sizeof(path), "%s/", root);
	memset(path + n, 'c', sizeof(path) - (size_t)n - 1);
	path[sizeof(path) - 1] = 0;
	setenv("UNCORE_CLAIMS", path, 1);
	int rc = uncore_open("direct", &u);
	if (rc == 0)
		uncore_close(u);
	CU_ASSERT(rc < 0 && strstr(uncore_error(), "UNCORE_CLAIMS is 1023 characters long") != NULL);
	path[n + 10] = 0; /* a path that fits is taken */
	setenv("UNCORE_CLAIMS", path, 1);
	rc = uncore_open("direct", &u);
	CU_ASSERT_FATAL(rc == 0);
	CU_ASSERT_STRING_EQUAL(u->acc->claims, path);
	uncore_close(u);
	unsetenv("UNCORE_CLAIMS");
}

static void test_direct_errors(void)
{
	uncore_t *u;
	char path[512];
	/* not an Intel CPU */
	put_str("vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\n", "/proc/cpuinfo");
	CU_ASSERT(uncore_open("direct", &u) < 0);
	CU_ASSERT(strstr(uncore_error(), "AuthenticAMD") && strstr(uncore_error(), "sim:snbep"));
	/* an unsupported Intel model (Knights Landing: Skylake-SP's 85 is built in now) */
	put_str("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 87\n", "/proc/cpuinfo");
	CU_ASSERT(uncore_open("direct", &u) < 0);
	CU_ASSERT(strstr(uncore_error(), "model 87") != NULL);
	/* no msr module */
	put_str("vendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 45\n", "/proc/cpuinfo");
	for (int cpu = 0; cpu < 4; cpu++) {
		snprintf(path, sizeof(path), "%s/dev/cpu/%d/msr", root, cpu);
		unlink(path);
	}
	CU_ASSERT(uncore_open("direct", &u) < 0);
	CU_ASSERT(strstr(uncore_error(), "load the msr module") != NULL);
	CU_ASSERT(uncore_open("bogus", &u) < 0);
	CU_ASSERT(strstr(uncore_error(), "unknown backend 'bogus'") != NULL);
}

/* uncore_open_topology (issue 63): the machine's sockets and CPUs where no uncore can be opened (another
 * vendor's CPU, no msr module, no perf PMU), the same layout the full open gives where one can. */
static void test_topology_handle(void)
{
	uncore_t *u, *t;
	uncore_session_t *s = NULL;
	char a[256], b[256];
	static const char *const mine[] = { "auto", "perf", "direct" };
	put_str("vendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 1\nflags\t\t: fpu hypervisor\n", "/proc/cpuinfo");
	for (int cpu = 0; cpu < 4; cpu++) { /* the tree's truth: CPUs 0-1 on socket 0, 2-3 on socket 1 */
		snprintf(a, sizeof(a), "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
		put_str(cpu < 2 ? "0\n" : "1\n", a);
	}
	for (size_t i = 0; i < sizeof(mine) / sizeof(mine[0]); i++) {
		CU_ASSERT(uncore_open(mine[i], &u) < 0); /* nothing to count here */
		CU_ASSERT_FATAL(uncore_open_topology(mine[i], &t) == 0);
		CU_ASSERT_EQUAL(uncore_num_sockets(t), 2);
		CU_ASSERT(uncore_socket_cpus(t, 0, a, sizeof(a)) == 2 && !strcmp(a, "0-1"));
		CU_ASSERT(uncore_socket_cpus(t, 1, a, sizeof(a)) == 2 && !strcmp(a, "2-3"));
		CU_ASSERT_EQUAL(uncore_cpu_socket(t, 3), 1);
		CU_ASSERT_STRING_EQUAL(uncore_platform_name(t), "none");
		CU_ASSERT(uncore_num_units(t) == 0 && uncore_num_events(t) == 0 && uncore_metric_find(t, "mem_read_bytes") < 0);
		CU_ASSERT(uncore_jobs_scan(t) == 0); /* the tree has no batch system */
		/* a session on it counts nothing, and says so */
		CU_ASSERT_FATAL(uncore_session_new(t, &s) == 0);
		CU_ASSERT(uncore_session_add(s, "UNC_M_CAS_COUNT.RD") < 0 && strstr(uncore_error(), "unknown event"));
		CU_ASSERT(uncore_session_start(s) < 0);
		uncore_session_free(s);
		uncore_close(t);
	}
	/* every simulated machine: its layout, as the full open has it */
	const char *name, *desc;
	for (int i = 0; uncore_sim_platform(i, &name, &desc) == 0; i++)
		for (int k = 0; k < 2; k++) {
			char be[64];
			snprintf(be, sizeof(be), "%s%s", k ? "perf+sim:" : "sim:", name);
			if (uncore_open(be, &u))
				continue; /* a platform without a perf model */
			CU_ASSERT_FATAL(uncore_open_topology(be, &t) == 0);
			CU_ASSERT_EQUAL(uncore_num_sockets(t), uncore_num_sockets(u));
			CU_ASSERT(uncore_is_simulated(t));
			for (int sk = 0; sk < uncore_num_sockets(u); sk++) {
				uncore_socket_cpus(u, sk, a, sizeof(a));
				uncore_socket_cpus(t, sk, b, sizeof(b));
				CU_ASSERT_STRING_EQUAL(a, b);
			}
			uncore_close(t);
			uncore_close(u);
		}
	CU_ASSERT(uncore_open_topology("bogus", &t) < 0 && strstr(uncore_error(), "unknown backend 'bogus'"));
}

/* MMIO window over a regular file standing in for a PCI BAR resource. */
static void test_mmio_backend(void)
{
	uint32_t v32 = 0;
	uint64_t v64 = 0;
	struct mmio_window *w;
	sparse("/sys/bus/pci/devices/0000:00:00.0/resource0", 0x4000);
	w = mmio_map("/sys/bus/pci/devices/0000:00:00.0/resource0", 0x2000, 0x100);
	CU_ASSERT_FATAL(w != NULL);
	CU_ASSERT(mmio_write32(w, 0x10, 0xdeadbeef) == 0);
	CU_ASSERT(mmio_write64(w, 0x18, 0x0123456789abcdefull) == 0);
	CU_ASSERT(mmio_read32(w, 0x10, &v32) == 0 && v32 == 0xdeadbeef);
	CU_ASSERT(mmio_read64(w, 0x18, &v64) == 0 && v64 == 0x0123456789abcdefull);
	CU_ASSERT(mmio_read32(w, 0x100, &v32) < 0); /* outside the window */
	CU_ASSERT(strstr(uncore_error(), "outside") != NULL);
	CU_ASSERT(mmio_read64(w, 0x14, &v64) < 0); /* unaligned */
	mmio_unmap(w);
	CU_ASSERT_EQUAL(get_at("/sys/bus/pci/devices/0000:00:00.0/resource0", 0x2010, 4), 0xdeadbeef);
	CU_ASSERT(mmio_map("/sys/bus/pci/devices/0000:00:00.0/resource9", 0, 0x100) == NULL);
	CU_ASSERT(strstr(uncore_error(), "does not exist") != NULL);
}

int main(void)
{
	static const struct test_case tests[] = {
		{ "msr backend offsets and errors", test_msr_backend },
		{ "pci backend offsets and errors", test_pci_backend },
		{ "mmio backend", test_mmio_backend },
		{ "direct open and session over a fake SNB-EP", test_direct_over_fake_tree },
		{ "host facts for perf's metric files: stepping, PMem", test_host_facts },
		{ "HSX/BDX SBoxes on direct follow the PCU's CAPID4 (hswep_has_limit_sbox)", test_sbox_count_from_capid4 },
		{ "no descriptor the library opens crosses exec", test_descriptors_cloexec },
		{ "UNCORE_CLAIMS longer than its buffer is refused", test_long_claims_path },
		{ "direct open errors", test_direct_errors },
		{ "a topology handle where no uncore opens, and each simulator's layout", test_topology_handle },
		{ NULL, NULL },
	};
	return run_in_fake_tree("backends", tests);
}
