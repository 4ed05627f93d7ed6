/*
 * One small interface to the registers, whatever lies behind it: the MSR
 * device, PCI configuration space (libpci, sysfs method), an MMIO window, or
 * the simulator.  Every path goes through the sysroot prefix.
 */
#ifndef UNCORE_ACCESS_H
#define UNCORE_ACCESS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "uncore.h"
#include "util/uc_defs.h"
#include "perf_kernel.h" /* the kernel seam of the perf backend */

struct pci_loc {
	int dom, bus, dev, fn;
};

struct pci_devinfo {
	struct pci_loc loc;
	uint16_t vendor, device;
	int node; /* its NUMA node (sysfs numa_node); -1: unknown */
};

/* What the host looks like: CPU identity and which CPUs sit on each socket. */
#define UC_MAX_SOCKETS 8
#define UC_MAX_DIES 8   /* logical dies per socket (Linux: CPUID leaf 0x1F's die level) */
#define UC_MAX_NODES 64 /* NUMA nodes whose CPUs are looked up */
#define HOST_NODE_NO_CPU (-2) /* host_info.node_die: the node lists no online CPU */
struct host_info {
	char vendor[16];
	int family, model;
	int nsockets;
	int socket_cpu[UC_MAX_SOCKETS];   /* one online CPU per socket */
	int socket_cores[UC_MAX_SOCKETS]; /* cores per socket (not threads) */
	int ncpus;                        /* CPU numbers 0..ncpus-1 exist (some may be offline) */
	signed char cpu_socket[UC_MAX_CPUS]; /* each CPU's socket; -1: offline or absent */
	/* each CPU's core id in its socket (Linux topology/core_id: the one a CBo/CHA tid filter names) and its
	 * thread in the core (its place among thread_siblings_list); -1: unknown */
	short cpu_core[UC_MAX_CPUS];
	signed char cpu_thread[UC_MAX_CPUS];
	int hypervisor;
	double tsc_hz;                    /* TSC frequency; 0 = unknown */
	int stepping;                     /* with vendor, family and model: perf's CPU id string */
	int has_pmem;                     /* persistent memory: an ACPI NFIT table, as perf's #has_pmem */
	/* Dies: Linux keeps an uncore per logical die, not per package (uncore.c uncore_max_dies()).  A
	 * socket's dies are numbered 0.. in the order of their die_id (6.1 gives it relative to the package,
	 * 6.12 with the package bits above it: the order is the same). */
	int socket_dies[UC_MAX_SOCKETS];            /* dies per socket: 1 unless the kernel names several */
	int die_cpu[UC_MAX_SOCKETS][UC_MAX_DIES];   /* one online CPU per die; die 0's is socket_cpu */
	signed char cpu_die[UC_MAX_CPUS];           /* each CPU's die in its socket; -1: offline or absent */
	/* NUMA node -> socket * UC_MAX_DIES + die of its first online CPU; -1: unknown; HOST_NODE_NO_CPU */
	short node_die[UC_MAX_NODES];
	long die_id[UC_MAX_SOCKETS][UC_MAX_DIES]; /* each die's die_id (sysfs), in die order; -1: unknown */
};
/* The socket and die of logical die ld, counted socket by socket (die 0 of socket 0 first, as Linux's
 * logical die ids go): 0, or -1 when there is no such die. */
/* Fill socket_dies, die_cpu and cpu_die from each CPU's die_id (-1: none; nsockets, ncpus and cpu_socket
 * set; host_dies.c). */
void host_dies_from_ids(struct host_info *h, const long *die_id);
int host_logical_die(const struct host_info *h, int ld, int *socket, int *die);
/* The die of physical die pd (die by die, socket by socket, every socket with per_socket dies, online or
 * not: a UBox's GIDNIDMAP group) among the host's online ones: 0; 1 when that die has no online CPU (its
 * die_id is no online CPU's); -1 when there is no such die. */
int host_physical_die(const struct host_info *h, int pd, int per_socket, int *socket, int *die);
/* A CPU of the socket's die (the socket's CPU where the die has none online or is unknown). */
int host_die_cpu(const struct host_info *h, int socket, int die);
/* "socket 1" where the socket has one die, else "socket 1 die 0": for messages. */
const char *host_die_name(const struct host_info *h, int socket, int die, char *buf, size_t len);

struct access;
struct memfs;
struct access_drive;
struct access_ops {
	const char *name;
	int (*host)(struct access *a, struct host_info *out);
	int (*msr_read)(struct access *a, int cpu, uint32_t reg, uint64_t *val);
	int (*msr_write)(struct access *a, int cpu, uint32_t reg, uint64_t val);
	/* len is a multiple of 4, off 4-aligned */
	int (*pci_read)(struct access *a, const struct pci_loc *d, uint32_t off, void *buf, size_t len);
	int (*pci_write32)(struct access *a, const struct pci_loc *d, uint32_t off, uint32_t val);
	int (*pci_list)(struct access *a, struct pci_devinfo **out, int *n);
	/* physical memory-mapped registers; len 4 or 8 (or a multiple of 8 for tables) */
	int (*mmio_read)(struct access *a, uint64_t phys, void *buf, size_t len);
	int (*mmio_write)(struct access *a, uint64_t phys, uint64_t val, int bytes);
	/* optional: n 8-byte registers read as n mmio_read calls would (a box's counters) */
	int (*mmio_read_many)(struct access *a, const uint64_t *phys, int n, uint64_t *v);
	/* optional: n MSRs of one CPU in one call (msr-safe's batch device; the simulator's model of it); *at:
	 * the instant of the clock (now_ns) the values are of where the backend knows it, else left 0 */
	int (*msr_read_batch)(struct access *a, int cpu, const uint32_t *regs, int n, uint64_t *vals, uint64_t *at);
	int (*sleep_ns)(struct access *a, uint64_t ns);
	uint64_t (*now_ns)(struct access *a);
	/* optional: the node's wall clock (CLOCK_REALTIME), Unix ns, where the backend keeps one of its own (a
	 * simulator's, set by its changes file); NULL or 0: the host's (access_real_ns) */
	uint64_t (*real_ns)(struct access *a);
	/* optional: on, the clock stands still until the matching off (holds nest) and the instant it stands at
	 * is returned; a simulator reads a whole read of every box at one instant then, as its MSR batch does,
	 * instead of taking its real-time clock at each register (0: the clock runs, as hardware's does) */
	uint64_t (*hold_clock)(struct access *a, int on);
	/* optional: a session's registers are programmed and its baselines read: a simulator takes now the rates
	 * its boxes will count at (what its first advance of each took), so that the session's first read costs
	 * what the next ones do; hardware has nothing to do */
	void (*settle)(struct access *a);
	void (*close)(struct access *a);
	/* optional: the files the backend presents in place of the host's (a simulated machine's sysfs, /proc,
	 * /run and /etc: its PCI tree, NUMA nodes, powercap, intel_uncore_frequency, cgroups, job spool,
	 * gres.conf, /proc/driver/nvidia; a replayed node's, its snapshot's), all put into m: 0, or -1 out of
	 * memory.  Without it the backend's files are the host's below the sysroot.  Read through access_files
	 * (access_files.c). */
	int (*files)(struct access *a, struct memfs *m);
	/* optional: a simulated machine's changes since the last call made (its kernel's node changing under a
	 * running process: CPUs, devices, memory, clock limits, PMUs), its files made again: 1 some, 0 none, -1 */
	int (*node_poll)(struct access *a);
	/* optional: the simulated machine's drive (what its workload moves): a simulator's, or a replay's over it */
	const struct access_drive *drive;
};

/* What a simulated machine is told to move and what it says it moved (uncore_sim_* of uncore.h): each
 * 0, or -1 with a message.  sets: each a CPU bit set of UC_MAX_CPUS bits. */
struct access_drive {
	int (*traffic)(struct access *a, int socket, double read_bps, double write_bps);
	int (*workload)(struct access *a, int socket, double read_bytes, double write_bytes, uint64_t ns);
	int (*workload_on)(struct access *a, int socket, const char *memory, double read_bytes, double write_bytes,
			   uint64_t ns);
	int (*workload_cpus)(struct access *a, int n, const uint8_t *const *sets, const double *read_bytes,
			     const double *write_bytes, uint64_t ns);
	int (*mbm_bytes)(struct access *a, int socket, uint64_t *bytes);
	/* The machine's IIO stacks' root buses where its kernel shows no stack attributes: *nsockets sockets of
	 * *dies dies, each with the returned count of stacks; bus of (socket, die, stack), -1 for a stack with none. */
	int (*iio_stacks)(struct access *a, int *nsockets, int *dies);
	int (*iio_root_bus)(struct access *a, int socket, int die, int stack);
};

/* The file through which sessions of every process share boxes (session/claims.h), below the sysroot;
 * UNCORE_CLAIMS overrides it. */
#define CLAIMS_DEFAULT "/run/intel-uncore/claims"

struct access {
	const struct access_ops *ops;
	struct uncore_stats stats;
	int simulated;
	int virtual_clock; /* time moves only when told to (a simulator's manual clock): sleep under the lock */
	void *priv;
	struct access *inner; /* the perf backend over a simulator: the simulator's access (sim_of finds it) */
	struct write_guard *guard; /* the registers writes may go to (write_guard.c); NULL: none yet */
	/* file through which sessions of every process on the machine share boxes (claims.c); "" = this handle only */
	char claims[512];
	/* where reads run (access_cost.c): placing the thread on a box's CPU is allowed (place_ok); the CPU it
	 * runs on (the simulator's, or the real one while placed) and where it started; the caller's affinity */
	int place_ok, placed, here, home;
	int batch_ok, batch_failed; /* batch reads of a CPU's MSRs where the backend can; it could not */
	uint64_t saved_affinity[16]; /* a cpu_set_t */
	struct msr_prefetch *prefetch;
	/* the files its ops->files presents, made once (access_files.c); freed by access_files_free */
	struct memfs *files;
	int files_made; /* how often ops->files made them (make and refresh): a test's measure of "once" */
};

/* The files a simulated backend presents (ops->files of the first access the handle's backend is or wraps
 * that has them, as a perf backend wraps a simulator or a replay, whose files are its snapshot's): made the first time they are asked for and kept until the access
 * closes, so every feature reads the one tree.  0 with *out NULL where the backend presents none (the host's
 * files below the sysroot are its files); 0 with *out the tree; -1 out of memory. */
int access_files(struct access *a, const struct memfs **out);
/* Make them again: after the simulated machine's job set changed (its spool and cgroups).  0, or -1. */
int access_files_refresh(struct access *a);
/* How often the presenter's files were made (0 where a presents none). */
int access_files_made(struct access *a);
void access_files_free(struct access *a);
/* ops->node_poll of the first access under a that has one (access_files.c): 1 the node changed, 0, -1. */
int access_node_poll(struct access *a);
/* The access whose ops->drive drives the simulated machine under a (the first under a with one, through a
 * perf backend: a replay's own, or the simulator's), or NULL with a message naming backend. */
struct access *access_driven(struct access *a, const char *backend);

/* Where reads run and what they cost (access_cost.c, doc/cost.md). */
enum access_cost_kind { COST_MSR, COST_MSR_BATCH, COST_PCI, COST_MMIO, COST_PERF, COST_MIGRATE, COST_IPI };
/* The model's ns for n accesses of a kind (a batch or group of n; COST_IPI: the interrupt a remote one adds). */
double access_price(enum access_cost_kind k, int n);
/* Account n accesses of a kind aimed at cpu (-1: none in particular) in the stats: a remote one is an
 * interrupt, each has the model's price. */
void access_cost(struct access *a, enum access_cost_kind k, int cpu, int n);
int access_here(const struct access *a);
/* Whether moving to cpu costs less than the interrupts of ops reads aimed at it from here, by the model;
 * whether a CPU's MSRs are read in one batch. */
int access_worth_moving(const struct access *a, int cpu, int ops);
int access_batches(const struct access *a);
/* Run the calling thread on cpu from now (0; -1 when it may not: it reads from where it is), and back. */
int access_place(struct access *a, int cpu);
void access_unplace(struct access *a);
/* One batch of a CPU's MSRs (where the backend has a batch call; else nothing), answering access_msr_read
 * of them until access_msr_forget.  The caller owns it and its arrays (a read at 100 Hz makes one a CPU) and
 * sets cpu, n, reg and val.  Returns 0: a batch the backend refuses leaves each register to be read alone. */
struct msr_prefetch {
	int cpu, n, next;
	uint64_t at; /* the instant its values are of, 0: not known (msr_read_batch) */
	uint32_t *reg;
	uint64_t *val;
};
int access_msr_prefetch(struct access *a, struct msr_prefetch *p);
/* ops->hold_clock where the backend has it: the instant the clock stands at, or 0 (it runs); and release */
static inline uint64_t access_clock_hold_on(struct access *a, int on) { return a->ops->hold_clock ? a->ops->hold_clock(a, on) : 0; }
static inline uint64_t access_clock_hold(struct access *a) { return access_clock_hold_on(a, 1); }
static inline void access_clock_release(struct access *a) { access_clock_hold_on(a, 0); }
/* The node's wall clock, Unix ns: the backend's own where it keeps one, else the host's (access_direct.c). */
uint64_t access_real_ns(struct access *a);
/* ops->settle of a and of each access below it (a perf backend's simulator) */
static inline void access_settle(struct access *a)
{
	for (; a; a = a->inner)
		if (a->ops->settle)
			a->ops->settle(a);
}
void access_msr_forget(struct access *a);
int access_msr_read(struct access *a, int cpu, uint32_t reg, uint64_t *v);
/* ... n of them (addresses as a box's slots hold them) */
int access_msr_read_many(struct access *a, int cpu, const uint64_t *regs, int n, uint64_t *v);

/* Backends. */
struct access *access_direct_open(void);
struct access *access_sim_open(const char *spec);
/* A snapshot replayed (replay/sim_replay.c): "FILE[,simulator options]": the node's files, PCI devices,
 * discovery tables and non-PMON registers from the archive, the counters from the simulator's model of
 * the platform the snapshot's CPU is. */
struct access *access_replay_open(const char *spec);
/* The i-th simulated platform's name (NULL past the last). */
const char *access_sim_platform(int i);
/* The perf_event backend's access: the host, its clock and no register at all (every register access is
 * refused: the kernel programs the uncore).  inner: a simulator whose host and clock it takes, or NULL. */
struct access *access_perf_open(struct access *inner);
/* The machine's own host description and clock (direct and perf backends). */
int access_host_info(struct access *a, struct host_info *h);
int access_host_sleep_ns(struct access *a, uint64_t ns);
uint64_t access_host_now_ns(struct access *a);

/* Sysroot-prefixed path; returns buf. */
/* A number (decimal, 0x hex or octal) from a one-line file, read as guarded_read.h does: 0, or -1 when it
 * cannot be read (a FIFO, a huge file or an overlong line planted in a sysroot: with a warning). */
int sysroot_read_long(const char *path, long *val);
/* A file of a machine's tree (host_sysfs.c, pci_sysfs.c): path below the sysroot (m NULL, path made with
 * sysroot_path), or in m (path "/sys/..."), links among its directories followed.  sys_open: as
 * uc_open_sysfile; sys_exists: a file, a link or a directory there; sys_first_line: as uc_read_first_line;
 * sys_read_long: as sysroot_read_long. */
struct stat;
FILE *sys_open(const struct memfs *m, const char *path, int *refused);
int sys_exists(const struct memfs *m, const char *path);
int sys_first_line(const struct memfs *m, const char *path, char *buf, size_t len, struct stat *st);
int sys_read_long(const struct memfs *m, const char *path, long *val);
const char *sysroot_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* ... below root instead (a replayed node's unpacked files; NULL: the sysroot) */
const char *sysroot_path_at(const char *root, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Explain an errno from opening a device or sysfs file in words a user can act on. */
int access_errno_error(int err, const char *path, const char *what);

/* resctrl's mbm_total_bytes of the L3 domain CPU cpu is in (resctrl.c): 0, or -1 with a message. */
int resctrl_mbm_bytes(int cpu, uint64_t *bytes);
/* Host info from sysfs/procfs under the sysroot (used by direct access), or in the tree m (a replayed node's
 * snapshot; NULL: the sysroot). */
int host_from_sysfs(struct host_info *out);
int host_from_tree(const struct memfs *m, struct host_info *out);
/* PCI device list from sysfs under the sysroot, or in the tree m (NULL: the sysroot). */
int pci_list_sysfs(struct pci_devinfo **out, int *n);
int pci_list_tree(const struct memfs *m, struct pci_devinfo **out, int *n);

/* Component backends used by direct access. */
struct msr_backend;
struct msr_backend *msr_backend_open(void);
int msr_backend_read(struct msr_backend *m, int cpu, uint32_t reg, uint64_t *val, struct uncore_stats *st);
int msr_backend_write(struct msr_backend *m, int cpu, uint32_t reg, uint64_t val, struct uncore_stats *st);
/* n MSRs of one CPU with one ioctl of msr-safe's batch device: 0, or -1 (no device, an op refused) */
int msr_backend_read_batch(struct msr_backend *m, int cpu, const uint32_t *regs, int n, uint64_t *vals,
			   struct uncore_stats *st);
void msr_backend_close(struct msr_backend *m);

struct pci_backend;
struct pci_backend *pci_backend_open(void);
int pci_backend_read(struct pci_backend *p, const struct pci_loc *d, uint32_t off, void *buf, size_t len,
		     struct uncore_stats *st);
int pci_backend_write32(struct pci_backend *p, const struct pci_loc *d, uint32_t off, uint32_t val,
			struct uncore_stats *st);
void pci_backend_close(struct pci_backend *p);

struct mmio_window;
/* Map len bytes at offset off of a file (PCI BAR resourceN or /dev/mem), below the sysroot. */
struct mmio_window *mmio_map(const char *path, uint64_t off, size_t len);
int mmio_read32(struct mmio_window *w, uint64_t off, uint32_t *val);
int mmio_read64(struct mmio_window *w, uint64_t off, uint64_t *val);
int mmio_write32(struct mmio_window *w, uint64_t off, uint32_t val);
int mmio_write64(struct mmio_window *w, uint64_t off, uint64_t val);
void mmio_unmap(struct mmio_window *w);

#endif
