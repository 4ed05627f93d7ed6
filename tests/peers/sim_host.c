/*
 * A simulated machine as a host's device files (issue 90): the machine the backend sim:SPEC opens (with
 * shared=FILE, the one every process naming FILE shares), its registers served over a socket to the preload
 * (devfiles.c) that presents them behind /dev/cpu/N/msr, PCI configuration space and /dev/mem, and the files
 * a node's kernel shows of it written once into DIR/root: /proc/cpuinfo, /sys/devices/system/cpu, the PCI
 * tree (sysfs, /proc/bus/pci with its devices list), the ACPI MCFG table.  Only the raw-register API of the
 * simulator is used (uncore_sim_raw.h), never its internals.
 *
 *     sim_host SPEC DIR          serve until SIGTERM or SIGINT; DIR/ready appears once the files and the socket
 *                                are there; on the way out DIR/counts gets the accesses and protocol checks
 *                                (with PEER_TRACE set, DIR/trace gets every register access as it is
 *                                answered: "NS r|w msr CPU REG VAL", "NS r|w pci DOM:BUS:DEV.FN OFF VAL",
 *                                "NS r|w mmio ADDR VAL", NS the simulator's own clock, CLOCK_MONOTONIC,
 *                                so a test can take the window a peer's counters counted over)
 *     sim_host --counts DIR      print those of the running host
 *                                (and on SIGUSR1 the host writes them to DIR/snap.N, N = 1, 2, ... the
 *                                signals it took: between two requests, so a snapshot splits the accesses
 *                                exactly where it was asked for, as tools/bench/bench_peers.sh needs)
 *     sim_host --probe SPEC msr CPU REG | pci BUS DEV FN OFF | pciid VENDOR DEVICE
 *                                read one register of a private machine of SPEC (shared= left out): its value,
 *                                or exit 1 saying why it is refused (whether the simulator models it yet)
 *     sim_host --host-tsc        print the rate of this host's own TSC in Hz (0 where it has none), measured
 *                                against CLOCK_MONOTONIC: what RDTSC and RDTSCP answer a program under
 *                                qemu-user, which a peer's machine must never be timed by (issue 96)
 *
 * The cores' own registers are not the uncore simulator's: the TSC (0x10) counts at the profile's rate from
 * the host's start, and the core PMU's registers (IA32_PERFEVTSELx, IA32_PMCx, the fixed counters and their
 * controls, the global control and status, the offcore response and PEBS registers; Intel SDM vol. 3B ch. 18
 * and vol. 4 table 2-2) are a plain register file here, reading back what was written, counting nothing, so
 * that a peer which programs core counters beside the uncore (PCM, likwid's groups) runs; they are counted
 * apart (core_reads, core_writes) and never reach the simulator's bad_accesses.
 */
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "uncore.h"
#include "uncore_sim_raw.h"
#include "peer_proto.h"
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

static uncore_sim_raw_t *R;
static struct uncore_sim_raw_cpu cpu;
static char root[1100];
static volatile sig_atomic_t stop, snap_asked;
static int nsnaps;
static uint64_t t0_ns;
static uint64_t core_reads, core_writes;
static FILE *trace; /* DIR/trace, where PEER_TRACE asks for it */
/* the functions the machine's tree lists without configuration space in the simulator: what their header
 * reads (vendor and device at 0x00, class at 0x08, header type at 0x0c), the rest what the tree's config file
 * holds (cfg: the uncore functions whose registers the simulated kernel shows there, sim_pcicfg.c: the stacks'
 * 09a2, SPR's MSM and PCU CR3 with its CAPIDs), or 0 (a function whose tree has no config file) */
#define MAX_TREE 1024
static struct tree_fn { int dom, bus, dev, fn; uint16_t ven, did; uint32_t cls; uint8_t *cfg; } tree[MAX_TREE];
static int ntree;

/* ---- the refused accesses, by message (the report names what each peer tripped on) ---- */
#define MAX_REFUSED 1024 /* distinct messages: PCM's pcm on a 2-socket SPR names 144 */
static struct { char msg[200]; uint64_t n; } refused[MAX_REFUSED];
static int nrefused;
static uint64_t refused_unlisted; /* past the table: counted, said as one line */

static void note_refused(const char *fmt, ...)
{
	char m[200];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	for (int i = 0; i < nrefused; i++)
		if (!strcmp(refused[i].msg, m)) {
			refused[i].n++;
			return;
		}
	if (nrefused < MAX_REFUSED) {
		snprintf(refused[nrefused].msg, sizeof(refused[0].msg), "%s", m);
		refused[nrefused++].n = 1;
	} else
		refused_unlisted++;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- the cores' registers (see the header) ---- */
#define CORE_MAX 64
static struct { uint32_t msr; uint64_t v[512]; } core[CORE_MAX];
static int ncore;

/* The addresses among the core PMU's that are the uncore's on this part (uncore_owned): Nehalem-EP's global
 * control, status and overflow control 0x391-0x393 (seed 003; Linux NHM_UNC_PERF_GLOBAL_CTL), which PMU version 4
 * took for IA32_PERF_GLOBAL_STATUS_SET and _INUSE (SDM vol. 4 table 2-2).  Asked of a private machine at start. */
#define OWNED_MAX 16
static uint32_t owned[OWNED_MAX];
static int nowned;

static int core_msr(uint32_t m)
{
	for (int i = 0; i < nowned; i++)
		if (owned[i] == m)
			return 0;
	return (m >= 0xc1 && m <= 0xc8) ||   /* IA32_PMC0..7 */
	       (m >= 0x186 && m <= 0x18d) || /* IA32_PERFEVTSEL0..7 */
	       (m >= 0x309 && m <= 0x30c) || /* IA32_FIXED_CTR0..3 (3, TOPDOWN.SLOTS: Ice Lake on) */
	       m == 0x329 ||                 /* MSR_PERF_METRICS (Ice Lake on) */
	       (m >= 0x38d && m <= 0x392) || /* FIXED_CTR_CTRL, PERF_GLOBAL_STATUS, _CTRL, _OVF_CTRL (_STATUS_RESET),
	                                        * _STATUS_SET, IA32_PERF_GLOBAL_INUSE (PMU version 4: PCM's PMUinUse) */
	       m == 0x1a6 || m == 0x1a7 ||   /* MSR_OFFCORE_RSP_0/1 */
	       m == 0x3f1 || m == 0x3f6 ||   /* IA32_PEBS_ENABLE, MSR_PEBS_LD_LAT */
	       m == 0x1d9;                   /* IA32_DEBUGCTL */
}

static uint64_t *core_reg(int c, uint32_t m)
{
	if (c < 0 || c >= 512)
		return NULL;
	for (int i = 0; i < ncore; i++)
		if (core[i].msr == m)
			return &core[i].v[c];
	if (ncore == CORE_MAX)
		return NULL;
	core[ncore].msr = m;
	return &core[ncore++].v[c];
}

/* ---- one request ---- */
static int answer(const struct peer_req *q, struct peer_rsp *p, uint8_t *data)
{
	uint32_t v32;
	p->rc = 0;
	p->len = 0;
	p->val = 0;
	switch (q->op) {
	case PEER_MSR_READ:
	case PEER_MSR_WRITE: {
		int w = q->op == PEER_MSR_WRITE;
		uint32_t m = (uint32_t)q->addr;
		if (q->a < 0 || q->a >= cpu.ncpus)
			return p->rc = ENXIO, 0; /* no such CPU: the msr driver's open would have failed */
		if (m == 0x10) { /* IA32_TIME_STAMP_COUNTER */
			core_reads += !w;
			p->val = (uint64_t)((double)(mono_ns() - t0_ns) * cpu.tsc_hz / 1e9);
			return 0;
		}
		if (core_msr(m)) {
			uint64_t *r = core_reg(q->a, m);
			if (!r)
				return p->rc = EIO, 0;
			w ? (void)(*r = q->val) : (void)(p->val = *r);
			w ? core_writes++ : core_reads++;
			return 0;
		}
		if (w ? uncore_sim_raw_msr_write(R, q->a, m, q->val) : uncore_sim_raw_msr_read(R, q->a, m, &p->val)) {
			note_refused("%s MSR 0x%x: %s", w ? "wrmsr" : "rdmsr", m, uncore_error());
			p->rc = EIO; /* as the msr driver answers a #GP */
		}
		return 0;
	}
	case PEER_PCI_READ:
		if (!uncore_sim_raw_pci_read(R, q->a, q->b, q->c, q->d, (uint32_t)q->addr, &v32)) {
			p->val = v32;
			return 0;
		}
		p->val = ~0u; /* a function that is not there reads all ones */
		for (int i = 0; i < ntree; i++)
			if (tree[i].dom == q->a && tree[i].bus == q->b && tree[i].dev == q->c && tree[i].fn == q->d) {
				uint32_t off = (uint32_t)q->addr;
				/* PCI Local Bus Specification 3.0 6.1: ids, class code with revision 0, header type 1 for
				 * a PCI-to-PCI bridge (class 0x0604) */
				p->val = off == 0 ? (uint32_t)tree[i].ven | (uint32_t)tree[i].did << 16
					 : off == 8 ? tree[i].cls << 8
					 : off == 0xc ? ((tree[i].cls >> 8) == 0x0604 ? 1u << 16 : 0) : 0;
				if (tree[i].cfg && off > 0xc && off <= 4092)
					memcpy(&p->val, tree[i].cfg + off, 4); /* little-endian, as the host */
				return 0;
			}
		note_refused("PCI read of %04x:%02x:%02x.%d: %s", q->a, q->b, q->c, q->d, uncore_error());
		return 0;
	case PEER_PCI_WRITE:
		if (uncore_sim_raw_pci_write(R, q->a, q->b, q->c, q->d, (uint32_t)q->addr, (uint32_t)q->val)) {
			note_refused("PCI write %04x:%02x:%02x.%d 0x%llx = 0x%llx: %s", q->a, q->b, q->c, q->d,
				     (unsigned long long)q->addr, (unsigned long long)q->val, uncore_error());
			p->rc = EIO;
		}
		return 0;
	case PEER_MMIO_READ:
		if (q->len == 0 || q->len > PEER_MAX_DATA)
			return p->rc = EINVAL, 0;
		if (uncore_sim_raw_mmio_read(R, q->addr, data, q->len)) {
			note_refused("MMIO read 0x%llx (%u bytes): %s", (unsigned long long)q->addr, q->len, uncore_error());
			memset(data, 0xff, q->len); /* nothing decodes the address: all ones */
		}
		p->len = q->len;
		return 0;
	case PEER_MMIO_WRITE:
		if (uncore_sim_raw_mmio_write(R, q->addr, q->val, (int)q->len)) {
			note_refused("MMIO write 0x%llx = 0x%llx (%u bytes): %s", (unsigned long long)q->addr,
				     (unsigned long long)q->val, q->len, uncore_error());
			p->rc = EIO;
		}
		return 0;
	case PEER_COUNTS: {
		struct uncore_sim_raw_counts n;
		uncore_sim_raw_counts(R, &n);
		int k = snprintf((char *)data, PEER_MAX_DATA,
				 "msr_reads %llu\nmsr_writes %llu\npci_reads %llu\npci_writes %llu\nmmio_reads %llu\n"
				 "mmio_writes %llu\nbad_accesses %llu\nunfrozen_ctl_writes %llu\ncore_reads %llu\n"
				 "core_writes %llu\n",
				 (unsigned long long)n.msr_reads, (unsigned long long)n.msr_writes,
				 (unsigned long long)n.pci_reads, (unsigned long long)n.pci_writes,
				 (unsigned long long)n.mmio_reads, (unsigned long long)n.mmio_writes,
				 (unsigned long long)n.bad_accesses, (unsigned long long)n.unfrozen_ctl_writes,
				 (unsigned long long)core_reads, (unsigned long long)core_writes);
		p->len = (uint32_t)(k < PEER_MAX_DATA ? k : PEER_MAX_DATA - 1);
		return 0;
	}
	}
	return p->rc = EINVAL, 0;
}

/* ---- the files ---- */
static int mkdirs(const char *path) /* every directory above path */
{
	char b[4096];
	snprintf(b, sizeof(b), "%s", path);
	for (char *s = b + 1; (s = strchr(s, '/')); s++) {
		*s = 0;
		if (mkdir(b, 0755) && errno != EEXIST)
			return -1;
		*s = '/';
	}
	return 0;
}

static int put(const char *rel, const void *data, size_t len)
{
	char p[8192];
	snprintf(p, sizeof(p), "%s%s", root, rel);
	if (mkdirs(p))
		return -1;
	FILE *f = fopen(p, "w");
	if (!f || fwrite(data, 1, len, f) != len) {
		if (f)
			fclose(f);
		return -1;
	}
	return fclose(f);
}

static int putf(const char *rel, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int putf(const char *rel, const char *fmt, ...)
{
	char b[8192];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= sizeof(b) ? -1 : put(rel, b, (size_t)n);
}

static int exists(const char *rel)
{
	char p[8192];
	struct stat st;
	snprintf(p, sizeof(p), "%s%s", root, rel);
	return lstat(p, &st) == 0;
}

/* The entries of the real directory p moved into the directory target (absolute paths), then p gone. */
static int merge_into(const char *p, const char *target)
{
	char from[8192], to[8192];
	struct stat st;
	DIR *d;
	if (lstat(p, &st) || !S_ISDIR(st.st_mode))
		return 0;
	if (snprintf(to, sizeof(to), "%s/", target) >= (int)sizeof(to))
		return -1;
	if (mkdirs(to) || !(d = opendir(p)))
		return -1;
	for (struct dirent *e; (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (snprintf(from, sizeof(from), "%s/%s", p, e->d_name) >= (int)sizeof(from) ||
		    snprintf(to, sizeof(to), "%s/%s", target, e->d_name) >= (int)sizeof(to) || rename(from, to)) {
			closedir(d);
			return -1;
		}
	}
	closedir(d);
	return rmdir(p);
}

/* The uncore functions the simulated kernel shows as a directory /sys/devices/pciDDDD:BB/<bdf> (ids, class, node)
 * and their config file at /sys/bus/pci/devices/<bdf>/config (sim_pcicfg.c): one directory behind the kernel's
 * link, as a node has them, so that a reader of /sys/bus/pci/devices finds their ids. */
static int link_functions(void)
{
	char bus[4096], p[8192], target[8192], rel[128];
	unsigned dom, b, dev, fn;
	struct stat st;
	snprintf(bus, sizeof(bus), "%s/sys/bus/pci/devices", root);
	DIR *d = opendir(bus);
	for (struct dirent *e; d && (e = readdir(d));) {
		if (sscanf(e->d_name, "%x:%x:%x.%x", &dom, &b, &dev, &fn) != 4 ||
		    snprintf(p, sizeof(p), "%s/%s", bus, e->d_name) >= (int)sizeof(p) || lstat(p, &st) || !S_ISDIR(st.st_mode))
			continue;
		snprintf(rel, sizeof(rel), "../../../devices/pci%04x:%02x/%.16s", dom, b, e->d_name);
		if (snprintf(target, sizeof(target), "%s/sys/devices/pci%04x:%02x/%s", root, dom, b, e->d_name) >=
			    (int)sizeof(target) || stat(target, &st) || !S_ISDIR(st.st_mode))
			continue;
		if (merge_into(p, target) || symlink(rel, p)) {
			closedir(d);
			return -1;
		}
	}
	if (d)
		closedir(d);
	return 0;
}

/* The machine's kernel tree as the simulated backend presents it. */
static int put_tree(void)
{
	const char *path, *data;
	size_t len;
	int kind, rc;
	for (int i = 0; (rc = uncore_sim_raw_file(R, i, &path, &data, &len, &kind)) == 0; i++) {
		char p[4096];
		snprintf(p, sizeof(p), "%s%s", root, path);
		if (mkdirs(p))
			return -1;
		if (kind == 2 && mkdir(p, 0755) && errno != EEXIST)
			return -1;
		if (kind == 1) { /* an absolute link made relative, as sysfs has them: it stays inside the tree */
			char t[4096] = "";
			for (const char *c = path + 1; data[0] == '/' && (c = strchr(c, '/')); c++)
				strcat(t, "../");
			snprintf(t + strlen(t), sizeof(t) - strlen(t), "%s", data[0] == '/' ? data + 1 : data);
			if (symlink(t, p) && errno != EEXIST)
				return -1;
		}
		if (kind == 0 && put(path, data, len))
			return -1;
	}
	if (rc < 0) { /* no tree: a peer would find no device at all */
		fprintf(stderr, "sim_host: the machine's kernel tree: %s\n", uncore_error());
		errno = EINVAL;
		return -1;
	}
	return link_functions();
}

/* CPUs lo..hi as sysfs writes a CPU mask (lib/bitmap.c bitmap_print_to_pagebuf): 32-bit words in hex, the
 * highest first, commas between, for every CPU of the machine */
static const char *cpumask(char *buf, int lo, int hi)
{
	buf[0] = 0;
	for (int w = (cpu.ncpus - 1) / 32; w >= 0; w--) {
		uint32_t m = 0;
		for (int b = 0; b < 32; b++)
			if (w * 32 + b >= lo && w * 32 + b <= hi)
				m |= 1u << b;
		sprintf(buf + strlen(buf), "%08x%s", m, w ? "," : "\n");
	}
	return buf;
}

/* CPU topology: /proc/cpuinfo and /sys/devices/system/cpu, one thread a core, socket by socket; the MSR
 * devices of each CPU. */
static int put_cpus(void)
{
	static char info[1 << 20];
	size_t n = 0;
	int per = cpu.cores_per_socket, last = cpu.ncpus - 1;
	/* (no rdtscp among the flags: PCM's CPU model leaves it out, so that PCM reads the time stamp through MSR
	 * 0x10, the machine's own, not the host's: tests/peers/machines.sh) */
	for (int c = 0; c < cpu.ncpus; c++) {
		int s = c / per, k = c % per;
		n += (size_t)snprintf(info + n, sizeof(info) - n,
				      "processor\t: %d\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\n"
				      "model name\t: Intel(R) Xeon(R) CPU (simulated)\nstepping\t: %d\nmicrocode\t: 0x1\n"
				      "cpu MHz\t\t: %.3f\ncache size\t: 1024 KB\nphysical id\t: %d\nsiblings\t: %d\n"
				      "core id\t\t: %d\ncpu cores\t: %d\napicid\t\t: %d\ninitial apicid\t: %d\nfpu\t\t: yes\n"
				      "fpu_exception\t: yes\ncpuid level\t: 22\nwp\t\t: yes\n"
				      "flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush "
				      "mmx fxsr sse sse2 ss syscall nx pdpe1gb lm constant_tsc arch_perfmon nopl "
				      "xtopology nonstop_tsc cpuid aperfmperf pni pclmulqdq ssse3 fma cx16 pdcm pcid sse4_1 "
				      "sse4_2 x2apic movbe popcnt aes xsave avx f16c rdrand lahf_lm abm invpcid_single fsgsbase "
				      "bmi1 avx2 smep bmi2 erms invpcid rdt_a avx512f avx512dq rdseed adx smap clflushopt clwb "
				      "avx512cd avx512bw avx512vl xsaveopt xsavec xgetbv1 xsaves arat\n"
				      "bogomips\t: %.2f\nclflush size\t: 64\ncache_alignment\t: 64\n"
				      "address sizes\t: 46 bits physical, 48 bits virtual\npower management:\n\n",
				      c, cpu.vendor, cpu.family, cpu.model, cpu.stepping, cpu.tsc_hz / 1e6, s, per, k, per,
				      s << 6 | k << 1, s << 6 | k << 1, 2 * cpu.tsc_hz / 1e6);
		if (n >= sizeof(info))
			return -1;
		char d[128], m1[1024], mp[1024];
		snprintf(d, sizeof(d), "/sys/devices/system/cpu/cpu%d", c);
#define TOPO(f, ...) (snprintf(p, sizeof(p), "%s/%s", d, f), putf(p, __VA_ARGS__))
		char p[256];
		if (TOPO("online", "1\n") || TOPO("topology/physical_package_id", "%d\n", s) ||
		    TOPO("topology/die_id", "0\n") || TOPO("topology/core_id", "%d\n", k) ||
		    TOPO("topology/thread_siblings_list", "%d\n", c) || TOPO("topology/core_cpus_list", "%d\n", c) ||
		    TOPO("topology/core_siblings_list", "%d-%d\n", s * per, s * per + per - 1) ||
		    TOPO("topology/package_cpus_list", "%d-%d\n", s * per, s * per + per - 1) ||
		    TOPO("topology/thread_siblings", "%s", cpumask(m1, c, c)) ||
		    TOPO("topology/core_cpus", "%s", m1) ||
		    TOPO("topology/core_siblings", "%s", cpumask(mp, s * per, s * per + per - 1)) ||
		    TOPO("topology/package_cpus", "%s", mp))
			return -1;
#undef TOPO
		snprintf(p, sizeof(p), "/dev/cpu/%d/msr", c);
		if (put(p, "", 0))
			return -1;
		snprintf(p, sizeof(p), "/dev/cpu/%d/msr_safe", c);
		if (put(p, "", 0))
			return -1;
	}
	return put("/proc/cpuinfo", info, n) || putf("/sys/devices/system/cpu/online", "0-%d\n", last) ||
			       putf("/sys/devices/system/cpu/possible", "0-%d\n", last) ||
			       putf("/sys/devices/system/cpu/present", "0-%d\n", last) ||
			       putf("/sys/devices/system/cpu/offline", "\n") || putf("/sys/devices/system/cpu/kernel_max", "%d\n", 8191)
		       ? -1 : 0;
}

/* A function's local_cpus and local_cpulist: its NUMA node's CPUs (every CPU where it has none), as Linux
 * shows them (drivers/pci/pci-sysfs.c); hwloc places the function below that node's package by them. */
static int put_local_cpus(const char *dir, int node)
{
	char list[256] = "", p[4096], mask[1024] = "";
	int lo = 0, hi = cpu.ncpus - 1;
	if (node >= 0) {
		snprintf(p, sizeof(p), "%s/sys/devices/system/node/node%d/cpulist", root, node);
		FILE *f = fopen(p, "r");
		if (f) {
			if (!fgets(list, sizeof(list), f) || sscanf(list, "%d-%d", &lo, &hi) < 1)
				lo = 0, hi = cpu.ncpus - 1;
			else if (!strchr(list, '-'))
				hi = lo;
			fclose(f);
		}
	}
	snprintf(p, sizeof(p), "%s/local_cpus", dir);
	if (putf(p, "%s", cpumask(mask, lo, hi)))
		return -1;
	snprintf(p, sizeof(p), "%s/local_cpulist", dir);
	return lo == hi ? putf(p, "%d\n", lo) : putf(p, "%d-%d\n", lo, hi);
}

/* A number (decimal or 0x hex) from a file of a function's sysfs directory, left as it is where there is none. */
static void read_num(const char *dir, const char *name, long *v)
{
	char p[8192];
	snprintf(p, sizeof(p), "%s%s/%s", root, dir, name);
	FILE *f = fopen(p, "r");
	if (f) {
		if (fscanf(f, "%li", v) != 1)
			*v = -1;
		fclose(f);
	}
}

static int in_config_space(int dom, int bus, int dev, int fn)
{
	struct uncore_sim_raw_pci d;
	for (int i = 0; uncore_sim_raw_pci_device(R, i, &d) == 0; i++)
		if (d.dom == dom && d.bus == bus && d.dev == dev && d.fn == fn)
			return 1;
	return 0;
}

/* Whether the simulator's configuration space holds functions of these ids (at its own places). */
static int uncore_id(uint16_t ven, uint16_t did)
{
	struct uncore_sim_raw_pci d;
	for (int i = 0; uncore_sim_raw_pci_device(R, i, &d) == 0; i++)
		if (d.vendor == ven && d.device == did)
			return 1;
	return 0;
}

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(p);
}

/* A function taken out of the tree: its sysfs link and the directory it names. */
static int drop_function(const char *dir)
{
	char link[8192], target[PATH_MAX];
	snprintf(link, sizeof(link), "%s%s", root, dir);
	if (!realpath(link, target) || nftw(target, rm_one, 8, FTW_DEPTH | FTW_PHYS) || unlink(link))
		return -1;
	return 0;
}

static uint8_t zero[4096];

/* A function's /proc/bus/pci file (its reads and writes go to the host through the preload) */
static int proc_fn(unsigned dom, unsigned bus, unsigned dev, unsigned fn)
{
	char p[256];
	if (dom)
		snprintf(p, sizeof(p), "/proc/bus/pci/%04x:%02x/%02x.%x", dom, bus, dev, fn);
	else
		snprintf(p, sizeof(p), "/proc/bus/pci/%02x/%02x.%x", bus, dev, fn);
	return put(p, zero, sizeof(zero));
}

/* Its row of /proc/bus/pci/devices (Linux's proc_bus_pci_devices show(): bus and devfn, vendor and device, irq,
 * 7 resources, 7 sizes) appended to list at *n */
static int dev_row(char *list, size_t cap, size_t *n, unsigned bus, unsigned dev, unsigned fn, uint16_t ven,
		   uint16_t did)
{
	*n += (size_t)snprintf(list + *n, cap - *n, "%02x%02x\t%04x%04x\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\t0\n", bus,
			       dev << 3 | fn, ven, did);
	return *n >= cap ? -1 : 0;
}

/* The 4096 bytes of a config file below root (NULL: it cannot be read whole) */
static uint8_t *read_config(const char *rel)
{
	char p[8192];
	snprintf(p, sizeof(p), "%s%s", root, rel);
	FILE *f = fopen(p, "rb");
	uint8_t *b = malloc(4096);
	if (b && (!f || fread(b, 1, 4096, f) != 4096)) {
		free(b);
		b = NULL;
	}
	if (f)
		fclose(f);
	return b;
}

/* A PCI segment among the MCFG table's (at most 16) */
static void add_seg(int *segs, int *nsegs, int dom)
{
	int k;
	for (k = 0; k < *nsegs && segs[k] != dom; k++)
		;
	if (k == *nsegs && *nsegs < 16)
		segs[(*nsegs)++] = dom;
}

/* The PCI functions: /proc/bus/pci (the devices list, a config file each), sysfs where the machine's tree has
 * no directory of the function, and the ACPI MCFG table over the segments they are in. */
/* A node's kernel lists each PCI bus it has in /sys/class/pci_bus (DDDD:BB, a directory of the bus): likwid 5.4.1
 * scans only the buses found there for the discovery device (intel_perfmon_uncore_discovery.c pci_test_bus). */
static int put_buses(const char *sysdev)
{
	DIR *dd = opendir(sysdev);
	if (!dd && errno == ENOENT)
		return 0; /* a part without PCI uncore functions (Nehalem-EP: MSRs only) has no bus to show */
	for (struct dirent *e; dd && (e = readdir(dd));) {
		unsigned dom, bus, dev, fn;
		char p[PATH_MAX];
		if (e->d_name[0] == '.' || sscanf(e->d_name, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
			continue;
		snprintf(p, sizeof(p), "%s/sys/class/pci_bus/%04x:%02x/", root, dom, bus);
		if (mkdirs(p)) {
			closedir(dd);
			return -1;
		}
	}
	return dd ? closedir(dd) : -1;
}

static int put_pci(void)
{
	static char list[1 << 20];
	size_t n = 0;
	struct uncore_sim_raw_pci d;
	int segs[16], nsegs = 0;
	for (int i = 0; uncore_sim_raw_pci_device(R, i, &d) == 0; i++) {
		char p[256];
		if (proc_fn((unsigned)d.dom, (unsigned)d.bus, (unsigned)d.dev, (unsigned)d.fn) ||
		    dev_row(list, sizeof(list), &n, (unsigned)d.bus, (unsigned)d.dev, (unsigned)d.fn, d.vendor, d.device))
			return -1;
		char dir[128];
		snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%04x:%02x:%02x.%d", d.dom, d.bus, d.dev, d.fn);
		snprintf(p, sizeof(p), "%s/config", dir);
		if (!exists(dir)) {
			char f[160];
			snprintf(f, sizeof(f), "%s/vendor", dir);
			if (putf(f, "0x%04x\n", d.vendor))
				return -1;
			snprintf(f, sizeof(f), "%s/device", dir);
			if (putf(f, "0x%04x\n", d.device))
				return -1;
			snprintf(f, sizeof(f), "%s/numa_node", dir);
			if (putf(f, "%d\n", d.node))
				return -1;
		}
		if (!exists(p) && put(p, zero, sizeof(zero)))
			return -1;
		if (put_local_cpus(dir, d.node))
			return -1;
		add_seg(segs, &nsegs, d.dom);
	}
	/* the functions of the machine's tree outside the simulator's configuration space (its board's: root ports,
	 * the PCH, endpoints; the uncore functions of sim_pcicfg.c): a config file and local CPUs each as well, their
	 * configuration header from their ids, their registers from the tree's config file where it has one */
	char sysdev[4096];
	snprintf(sysdev, sizeof(sysdev), "%s/sys/bus/pci/devices", root);
	DIR *dd = opendir(sysdev);
	for (struct dirent *e; dd && (e = readdir(dd));) {
		char dir[512], p[4096];
		unsigned dom, bus, dev, fn;
		long node = -1, ven = 0, did = 0, cls = 0;
		if (e->d_name[0] == '.' || sscanf(e->d_name, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
			continue;
		snprintf(dir, sizeof(dir), "/sys/bus/pci/devices/%s", e->d_name);
		read_num(dir, "numa_node", &node);
		if (!in_config_space((int)dom, (int)bus, (int)dev, (int)fn)) {
			read_num(dir, "vendor", &ven);
			read_num(dir, "device", &did);
			read_num(dir, "class", &cls);
			if (uncore_id((uint16_t)ven, (uint16_t)did)) { /* the board's copy of a register function (D10) */
				if (drop_function(dir))
					goto fail;
				continue;
			}
			snprintf(p, sizeof(p), "%s/config", dir);
			uint8_t *cfg = exists(p) ? read_config(p) : NULL;
			if (ntree < MAX_TREE)
				tree[ntree++] = (struct tree_fn){ (int)dom, (int)bus, (int)dev, (int)fn, (uint16_t)ven,
								  (uint16_t)did, (uint32_t)cls, cfg };
			else
				free(cfg), cfg = NULL;
			/* a function with registers of its own is in /proc/bus/pci, as every function is on a node (PCM
			 * finds SPR's PCU CR3 there); the board's bridges and endpoints have no bus numbers in the tree, and
			 * a scan below a bridge whose secondary bus reads 0 would find bus 0 again: they stay out of it */
			if (cfg && (proc_fn(dom, bus, dev, fn) ||
				    dev_row(list, sizeof(list), &n, bus, dev, fn, (uint16_t)ven, (uint16_t)did)))
				goto fail;
			if (cfg)
				add_seg(segs, &nsegs, (int)dom);
		}
		snprintf(p, sizeof(p), "%s/config", dir);
		if ((!exists(p) && put(p, zero, sizeof(zero))) || put_local_cpus(dir, (int)node))
			goto fail;
	}
	if (dd)
		closedir(dd);
	if (put_buses(sysdev))
		return -1;
	/* ACPI 6.4 table 5.5 (the common header) and the PCI Firmware Specification 3.2 table 4-3 (MCFG): after
	 * the 36-byte header 8 reserved bytes, then per segment base address, segment, start and end bus */
	uint8_t t[44 + 16 * 16] = { 0 };
	uint32_t len = 44 + 16 * (uint32_t)nsegs;
	memcpy(t, "MCFG", 4);
	memcpy(t + 4, &len, 4);
	t[8] = 1;
	memcpy(t + 10, "UNCSIM", 6);
	memcpy(t + 16, "SIMHOST ", 8);
	for (int k = 0; k < nsegs; k++) {
		uint64_t base = PEER_ECAM_BASE + (uint64_t)segs[k] * PEER_ECAM_SEG_LEN;
		uint16_t seg = (uint16_t)segs[k];
		memcpy(t + 44 + 16 * k, &base, 8);
		memcpy(t + 52 + 16 * k, &seg, 2);
		t[54 + 16 * k] = 0;
		t[55 + 16 * k] = 0xff;
	}
	uint8_t sum = 0;
	for (uint32_t i = 0; i < len; i++)
		sum = (uint8_t)(sum + t[i]);
	t[9] = (uint8_t)(0x100 - sum);
	return put("/proc/bus/pci/devices", list, n) || put("/sys/firmware/acpi/tables/MCFG", t, len) ? -1 : 0;
fail:
	closedir(dd);
	return -1;
}

/* ---- the socket ---- */
static void on_signal(int sig) { (void)sig; stop = 1; }
static void on_snap(int sig) { (void)sig; snap_asked = 1; }

/* len bytes through fd, read or written whole (a short transfer resumed, EINTR retried) */
static int xfer_all(int fd, void *buf, size_t len, int wr)
{
	for (size_t k = 0; k < len;) {
		ssize_t r = wr ? write(fd, (char *)buf + k, len - k) : read(fd, (char *)buf + k, len - k);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			return -1;
		}
		k += (size_t)r;
	}
	return 0;
}

static int read_all(int fd, void *buf, size_t len)
{
	return xfer_all(fd, buf, len, 0);
}

static int write_all(int fd, const void *buf, size_t len)
{
	return xfer_all(fd, (void *)buf, len, 1);
}

static int sock_at(const char *dir, struct sockaddr_un *a)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if ((size_t)snprintf(a->sun_path, sizeof(a->sun_path), "%s/sock", dir) >= sizeof(a->sun_path)) {
		fprintf(stderr, "sim_host: %s/sock: the path is too long for a socket\n", dir);
		return -1;
	}
	return 0;
}

static void write_counts(FILE *f)
{
	struct peer_req q = { .op = PEER_COUNTS };
	struct peer_rsp p;
	uint8_t data[PEER_MAX_DATA + 1];
	answer(&q, &p, data);
	data[p.len] = 0;
	fputs((char *)data, f);
	for (int i = 0; i < nrefused; i++)
		fprintf(f, "refused %llu x %s\n", (unsigned long long)refused[i].n, refused[i].msg);
	if (refused_unlisted) /* (no test explains these: a peer's refusals are all named or it fails) */
		fprintf(f, "refused %llu x more accesses past the %d messages sim_host lists\n",
			(unsigned long long)refused_unlisted, MAX_REFUSED);
}

/* one answered access in DIR/trace (the header): the time it was answered at, on the simulator's clock, and after
 * the value "t=" the peer's thread that asked; a write the simulator counted among its unfrozen_ctl_writes (a
 * control word changed while its box counted) ends in " unfrozen" */
static void trace_access(const struct peer_req *q, const struct peer_rsp *r)
{
	static uint64_t unfrozen; /* the machine's count after the last write traced */
	uint64_t t = mono_ns();
	int w = q->op == PEER_MSR_WRITE || q->op == PEER_PCI_WRITE || q->op == PEER_MMIO_WRITE;
	unsigned long long v = w ? q->val : r->val;
	const char *tag = "";
	if (w) {
		struct uncore_sim_raw_counts n;
		uncore_sim_raw_counts(R, &n);
		tag = n.unfrozen_ctl_writes > unfrozen ? " unfrozen" : "";
		unfrozen = n.unfrozen_ctl_writes;
	}
	switch (q->op) {
	case PEER_MSR_READ:
	case PEER_MSR_WRITE:
		fprintf(trace, "%llu %c msr %d 0x%llx 0x%llx t=%d%s\n", (unsigned long long)t, w ? 'w' : 'r', q->a,
			(unsigned long long)q->addr, v, q->tid, tag);
		break;
	case PEER_PCI_READ:
	case PEER_PCI_WRITE:
		fprintf(trace, "%llu %c pci %04x:%02x:%02x.%d 0x%llx 0x%llx t=%d%s\n", (unsigned long long)t,
			w ? 'w' : 'r', q->a, q->b, q->c, q->d, (unsigned long long)q->addr, v, q->tid, tag);
		break;
	case PEER_MMIO_READ:
	case PEER_MMIO_WRITE: /* a read's value: its first bytes, up to 8 (a window read whole is one line) */
		fprintf(trace, "%llu %c mmio 0x%llx 0x%llx t=%d%s\n", (unsigned long long)t, w ? 'w' : 'r',
			(unsigned long long)q->addr, v, q->tid, tag);
		break;
	}
}

/* DIR/snap.N, whole once it has its name (written aside, then renamed) */
static int write_snapshot(const char *dir)
{
	char p[4096], q[4200];
	snprintf(p, sizeof(p), "%s/snap.%d", dir, ++nsnaps);
	snprintf(q, sizeof(q), "%s.part", p);
	FILE *f = fopen(q, "w");
	if (!f)
		return -1;
	write_counts(f);
	return fclose(f) || rename(q, p) ? -1 : 0;
}

static int serve(const char *dir)
{
	struct sockaddr_un a;
	struct pollfd pf[65];
	int n = 1;
	if (sock_at(dir, &a))
		return 1;
	int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	unlink(a.sun_path);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof(a)) || listen(l, 16)) {
		fprintf(stderr, "sim_host: %s: %s\n", a.sun_path, strerror(errno));
		return 1;
	}
	char p[4096];
	snprintf(p, sizeof(p), "%s/ready", dir);
	FILE *f = fopen(p, "w");
	if (!f || fclose(f)) {
		fprintf(stderr, "sim_host: %s: %s\n", p, strerror(errno));
		return 1;
	}
	snprintf(p, sizeof(p), "%s/trace", dir);
	if (getenv("PEER_TRACE") && !(trace = fopen(p, "w"))) {
		fprintf(stderr, "sim_host: %s: %s\n", p, strerror(errno));
		return 1;
	}
	pf[0] = (struct pollfd){ .fd = l, .events = POLLIN };
	/* SIGUSR1 is taken only inside ppoll, so a snapshot never falls inside a request's answer */
	sigset_t usr1, waiting;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &waiting);
	sigdelset(&waiting, SIGUSR1);
	const struct timespec tick = { 0, 200000000 };
	while (!stop) {
		int k = ppoll(pf, (nfds_t)n, &tick, &waiting);
		if (snap_asked) {
			snap_asked = 0;
			if (write_snapshot(dir))
				fprintf(stderr, "sim_host: %s/snap.%d: %s\n", dir, nsnaps, strerror(errno));
		}
		if (k < 0)
			continue;
		if ((pf[0].revents & POLLIN) && n < 65) {
			int c = accept4(l, NULL, NULL, SOCK_CLOEXEC);
			if (c >= 0)
				pf[n++] = (struct pollfd){ .fd = c, .events = POLLIN };
		}
		for (int i = 1; i < n; i++) {
			struct peer_req q;
			struct peer_rsp r;
			uint8_t data[PEER_MAX_DATA];
			if (!pf[i].revents)
				continue;
			int bad = 0;
			if (read_all(pf[i].fd, &q, sizeof(q)) || (bad = 1, answer(&q, &r, data)) ||
			    (bad = 2, write_all(pf[i].fd, &r, sizeof(r))) || write_all(pf[i].fd, data, r.len)) {
				if (bad) /* (a peer's exit ends its connection before a request: not said) */
					fprintf(stderr, "sim_host: a connection ended %s: %s\n",
						bad == 1 ? "in the answer to its request" : "while answering", strerror(errno));
				close(pf[i].fd);
				pf[i--] = pf[--n];
				continue;
			}
			if (trace && r.rc == 0) {
				if (q.op == PEER_MMIO_READ) /* its first bytes as the value */
					memcpy(&r.val, data, r.len < 8 ? r.len : 8);
				trace_access(&q, &r);
			}
		}
	}
	if (trace)
		fclose(trace);
	snprintf(p, sizeof(p), "%s/counts", dir);
	if (!(f = fopen(p, "w")))
		return 1;
	write_counts(f);
	fclose(f);
	unlink(a.sun_path);
	return 0;
}

static int ask_counts(const char *dir)
{
	struct sockaddr_un a;
	struct peer_req q = { .op = PEER_COUNTS };
	struct peer_rsp r;
	char data[PEER_MAX_DATA + 1];
	int c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (sock_at(dir, &a) || c < 0 || connect(c, (struct sockaddr *)&a, sizeof(a)) || write_all(c, &q, sizeof(q)) ||
	    read_all(c, &r, sizeof(r)) || r.len > PEER_MAX_DATA || read_all(c, data, r.len)) {
		fprintf(stderr, "sim_host: the host at %s does not answer: %s\n", dir, strerror(errno));
		return 1;
	}
	data[r.len] = 0;
	fputs(data, stdout);
	close(c);
	return 0;
}

/* A private machine of spec (shared= dropped: what it is asked leaves the shared one alone). */
static uncore_sim_raw_t *private_machine(const char *spec)
{
	char s[1024] = "", *save = NULL, buf[1024];
	snprintf(buf, sizeof(buf), "%s", spec);
	for (char *o = strtok_r(buf, ",", &save); o; o = strtok_r(NULL, ",", &save))
		if (strncmp(o, "shared=", 7))
			snprintf(s + strlen(s), sizeof(s) - strlen(s), "%s%s", s[0] ? "," : "", o);
	return uncore_sim_raw_open(s);
}

/* owned[]: each core PMU address that a private machine of spec answers as an uncore register. */
static int uncore_owned(const char *spec)
{
	uncore_sim_raw_t *r = private_machine(spec);
	uint64_t v;
	if (!r)
		return -1;
	for (uint32_t m = 0; m < 0x400 && nowned < OWNED_MAX; m++)
		if (core_msr(m) && uncore_sim_raw_msr_read(r, 0, m, &v) == 0)
			owned[nowned++] = m;
	uncore_sim_raw_close(r);
	return 0;
}

/* One register of a private machine of spec. */
static int probe(const char *spec, int argc, char **argv)
{
	uncore_sim_raw_t *r = private_machine(spec);
	uint64_t v = 0;
	uint32_t v32;
	int rc;
	if (!r) {
		fprintf(stderr, "sim_host: %s\n", uncore_error());
		return 2;
	}
	if (argc == 3 && !strcmp(argv[0], "msr"))
		rc = uncore_sim_raw_msr_read(r, atoi(argv[1]), (uint32_t)strtoul(argv[2], NULL, 0), &v);
	else if (argc == 5 && !strcmp(argv[0], "pci")) {
		rc = uncore_sim_raw_pci_read(r, 0, (int)strtol(argv[1], NULL, 0), (int)strtol(argv[2], NULL, 0),
					     (int)strtol(argv[3], NULL, 0), (uint32_t)strtoul(argv[4], NULL, 0), &v32);
		v = v32;
	} else if (argc == 3 && !strcmp(argv[0], "pciid")) { /* a function of these ids in configuration space */
		struct uncore_sim_raw_pci d;
		unsigned long ven = strtoul(argv[1], NULL, 16), did = strtoul(argv[2], NULL, 16);
		rc = -1;
		for (int i = 0; uncore_sim_raw_pci_device(r, i, &d) == 0 && rc; i++)
			if (d.vendor == ven && d.device == did) {
				rc = 0;
				v = (uint64_t)d.bus << 8 | (uint64_t)(d.dev << 3 | d.fn);
			}
		if (rc)
			printf("refused: no function %04lx:%04lx\n", ven, did);
		rc = rc ? 1 : 0;
		if (rc)
			goto out;
	} else {
		fprintf(stderr, "usage: sim_host --probe SPEC msr CPU REG | pci BUS DEV FN OFF | pciid VENDOR DEVICE\n");
		rc = 2;
	}
	if (rc == -1)
		printf("refused: %s\n", uncore_error());
	else if (rc == 0)
		printf("0x%llx\n", (unsigned long long)v);
out:
	uncore_sim_raw_close(r);
	return rc ? (rc < 0 ? 1 : rc) : 0;
}

/* The host's TSC rate: ticks over 100 ms of CLOCK_MONOTONIC, each end the pair of the closest TSC readings
 * around a clock reading (of 8), so a preemption between them costs no more than the tightest pair's width. */
static int host_tsc(void)
{
#if defined(__x86_64__) || defined(__i386__)
	uint64_t tsc[2] = { 0, 0 }, ns[2] = { 0, 0 };
	for (int end = 0; end < 2; end++) {
		if (end) {
			struct timespec d = { 0, 100000000 };
			while (nanosleep(&d, &d) && errno == EINTR) {}
		}
		uint64_t best = UINT64_MAX;
		for (int i = 0; i < 8; i++) {
			uint64_t a = __rdtsc(), t = mono_ns(), b = __rdtsc();
			if (b - a < best)
				best = b - a, tsc[end] = a + (b - a) / 2, ns[end] = t;
		}
	}
	printf("%.0f\n", ns[1] > ns[0] ? (double)(tsc[1] - tsc[0]) * 1e9 / (double)(ns[1] - ns[0]) : 0.0);
#else
	printf("0\n");
#endif
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--host-tsc"))
		return host_tsc();
	if (argc == 3 && !strcmp(argv[1], "--counts"))
		return ask_counts(argv[2]);
	if (argc >= 4 && !strcmp(argv[1], "--probe"))
		return probe(argv[2], argc - 3, argv + 3);
	if (argc != 3 || argv[1][0] == '-') {
		fprintf(stderr, "usage: sim_host SPEC DIR | --counts DIR | --host-tsc | --probe SPEC msr CPU REG | pci BUS DEV FN OFF | pciid VENDOR DEVICE\n");
		return 2;
	}
	char here[4096];
	if (!realpath(argv[2], here) || snprintf(root, sizeof(root), "%s/root", here) >= (int)sizeof(root)) {
		fprintf(stderr, "sim_host: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	if (!(R = uncore_sim_raw_open(argv[1]))) {
		fprintf(stderr, "sim_host: %s\n", uncore_error());
		return 1;
	}
	uncore_sim_raw_cpu(R, &cpu);
	if (uncore_owned(argv[1])) {
		fprintf(stderr, "sim_host: %s\n", uncore_error());
		return 1;
	}
	t0_ns = mono_ns();
	if (put_tree() || put_cpus() || put_pci() || putf("/proc/sys/kernel/nmi_watchdog", "0\n") || put("/dev/mem", "", 0) ||
	    putf("/../info", "ncpus %d\nsockets %d\n", cpu.ncpus, cpu.nsockets)) {
		fprintf(stderr, "sim_host: writing the files below %s: %s\n", root, strerror(errno));
		return 1;
	}
	struct sigaction sa = { .sa_handler = on_signal };
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	struct sigaction su = { .sa_handler = on_snap };
	sigaction(SIGUSR1, &su, NULL);
	int rc = serve(argv[2]);
	uncore_sim_raw_close(R);
	return rc;
}
