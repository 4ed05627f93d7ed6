/* The simulated kernel's state, shared by its syscall side (sim_kernel.c), its scheduler
 * (sim_kernel_sched.c) and its sysfs tree (sim_kernel_tree.c). */
#ifndef UNCORE_SIM_KERNEL_PRIV_H
#define UNCORE_SIM_KERNEL_PRIV_H

#include "access/access.h"
#include "sim/sim.h"
#include "sim/sim_perf.h"
#include "util/memfs.h"

#define SK_FD0 1000     /* fds it hands out: SK_FD0 + event index */
#define SK_MAX_FIELDS 24 /* filter fields (config1/config2 formats) of one PMU */

struct sk_pmu {
	char name[64];
	unsigned type;
	const struct sim_perf_type *t;
	int fr;                                  /* a free-running PMU */
	int idx;                                 /* box index, or free-running ordinal */
	struct sim_box *box[UC_MAX_SOCKETS];     /* its box on each logical die (sim_box_scope; NULL: none there) */
	int missing;                             /* left out of the tree: the driver did not probe it */
	int generic;                             /* the generic driver's setup: its formats, mask, no aliases, no
						  * constraints, no fixed counter (generic=1, or a type the kernel does
						  * not name: uncore_type_<t>) */
	int nfld;
	struct { int word; uint64_t mask; } fld[SK_MAX_FIELDS]; /* its filter fields' bits in config1/2 */
	uint64_t keep[3];                        /* config bits it keeps, per word */
	int dword;                               /* its enable_event writes bits 31:0 of config alone (sim_perf.h ctl_write) */
};

struct sk_event {
	int used;
	int pmu, socket;
	struct sim_box *box;
	int leader;       /* its group leader's index (its own for a leader) */
	uint64_t config[3];
	int fixed, fr;    /* the fixed counter; a free-running counter of the unit (-1: none) */
	unsigned xidx;    /* the shared filter fields it uses (bit i: field i of its type's xfld) */
	int enabled, pinned, error;
	int ctr;          /* counter while scheduled (-1: not) */
	int on;           /* counting now (scheduled, or free-running and enabled) */
	uint64_t seq;     /* place in the rotation */
	uint64_t id;      /* its id (PERF_FORMAT_ID, PERF_EVENT_IOC_ID): unique, in creation order */
	uint64_t count, last;
	uint64_t enabled_ns, running_ns, mark_ns;
	uint64_t read_format;
};

struct sk_box {
	uint64_t rot_ns; /* last rotation */
	int can_rotate;  /* a group waits for the counters and one is on them (to_rotate, as the last placing left them) */
	int inited;
	int *ev, nev, cap; /* its events (indices), so that a read walks one box, not the whole machine */
	uint64_t er[3];    /* the shared filter's image (config1, config2 words), as the driver keeps it */
};

struct sim_kernel {
	struct perf_kernel k;
	struct access *acc; /* the simulated machine, which it owns */
	struct sim *s;
	struct sk_pmu *pmus;
	int npmus, cap_pmus; /* (room in pmus, grown by doubling) */
	struct sk_event *ev;
	int nev, cap, nfds;
	struct sk_box *kbox; /* per simulator box */
	uint64_t seq;
	int no_lost;      /* lost=0: a kernel before 6.0, without PERF_FORMAT_LOST */
	uint64_t next_id; /* the last event id given */
	long paranoid;
	int perfmon, sys_admin, maxfds;
	int generic;      /* 1: Linux's generic discovery driver; -1 until chosen for the CPU (sk_choose_driver) */
	int scale_quotes; /* 1: .scale files with literal double quotes, as 7.0-rc kernels before 16bcbe6738be wrote
			   * them (INTEL_UNCORE_FR_EVENT_DESC's stringified string, 8a4bd1c0d6bb) */
	int linux_6120;   /* kernel=6.12.0: Linux 6.12.0's GNR/SRF/CWF driver (sim_perf_type.linux_6120) */
	char **files; /* its sysfs and procfs tree: "path\0text", sorted by path */
	unsigned pmu_gen; /* the simulator's pmu_gen its type numbers follow (sk_follow) */
	uint8_t cpus_off[UC_MAX_CPUS / 8]; /* the simulator's offline CPUs its cpumask files follow (sk_follow) */
	int nfiles, fcap;
	uint64_t mux_ns;
	struct sk_power *power;  /* the `power` PMU (sim_kernel_power.c; NULL: the part has no RAPL) */
	struct memfs powercap;   /* /sys/class/powercap, made at each read (sim/sim_rapl.c) */
};

static inline struct sim_kernel *sk_of(struct perf_kernel *k) { return (struct sim_kernel *)k; }
static inline struct sk_box *sk_box_of(const struct sim_kernel *k, const struct sim_box *b) { return &k->kbox[b - k->s->boxes]; }
/* for each event i on box b (its sk_box found once: a division by the size of a box) */
#define SK_FOR_BOX(k, b, i)                                                                                    \
	for (struct sk_box *i##_kb = sk_box_of(k, b); i##_kb; i##_kb = NULL)                                   \
		for (int i##_j = 0, i = 0; i##_j < i##_kb->nev && ((i = i##_kb->ev[i##_j]), 1); i##_j++)
static inline uint64_t sk_now(struct sim_kernel *k) { return sim_clock(k->s); }
/* Bring every event of a box up to now, then place its enabled groups on the counters again. */
void sk_settle(struct sim_kernel *k, struct sim_box *b);
void sk_resched(struct sim_kernel *k, struct sim_box *b);
/* Rotate a box's groups once for every multiplexing interval passed since its last rotation. */
void sk_rotate_due(struct sim_kernel *k, struct sim_box *b);
/* sk_rotate_due where an interval has passed and a group waits (inline: every read(2) asks it, and a box whose
 * groups all fit has nothing to rotate, its timer only restarted) */
static inline void sk_rotate(struct sim_kernel *k, struct sim_box *b)
{
	struct sk_box *kb = sk_box_of(k, b);
	uint64_t now = sk_now(k);
	if (now - kb->rot_ns < k->mux_ns)
		return;
	if (kb->can_rotate)
		sk_rotate_due(k, b);
	else
		kb->rot_ns = now;
}
/* uncore_validate_group: do the group led by leader, with its new event ev, fit an empty box? */
int sk_group_fits(struct sim_kernel *k, int leader, int ev);
/* The shared filter fields an event's config selects (the driver's hw_config). */
unsigned sk_extra_fields(const struct sim_perf_type *t, uint64_t config);
/* generic= when not given: as Linux 6.12 for the CPU the machine reports (sim_kernel_models.c); 0, or -1
 * with a message (a model Linux drives with a driver not simulated). */
int sk_choose_driver(struct sim_kernel *k);
/* The PMUs over the machine, and their sysfs tree in memory (sim_kernel_tree.c). */
int sk_build_pmus(struct sim_kernel *k);
int sk_write_tree(struct sim_kernel *k);
void sk_free_tree(struct sim_kernel *k);
/* The kernel ops that read the tree (perf_kernel.h). */
int sk_read_line(struct perf_kernel *pk, const char *path, char *buf, size_t len);
int sk_list_dir(struct perf_kernel *pk, const char *dir, int (*fn)(void *arg, const char *name), void *arg);
/* What read(2) of an event gives (Linux perf_read_one, perf_read_group): its value, or with PERF_FORMAT_GROUP nr
 * and the first nv members' values (at most SK_READ_VALUES), the times and ids read_format rf asks for. */
#define SK_READ_VALUES 64
struct sk_value { uint64_t count, id; };
ssize_t sk_read_image(uint64_t rf, uint64_t enabled_ns, uint64_t running_ns, const struct sk_value *v, int nr, int nv,
		      void *buf, size_t len);
/* One file into the tree (sk_write_tree sorts it): 0, or -1 out of memory. */
int sk_tree_put(struct sim_kernel *k, const char *path, const char *text);
/* A file of the tree given new text: 0, or -1 where it is not there or out of memory. */
int sk_tree_replace(struct sim_kernel *k, const char *path, const char *text);
/* What the simulator changed since the last call, followed before a system call sees the kernel: the PMUs' type
 * numbers as its driver reloads (pmu_gen) made them, their cpumasks as its offline CPUs (cpu_off) moved them. */
void sk_follow(struct sim_kernel *k);
/* A cpumask file's text: the first online CPU of each of nscopes runs of per CPUs (where has[scope], has NULL: every
 * one), a run with none left out. */
void sk_cpumask(const struct sim_kernel *k, int per, int nscopes, struct sim_box *const *has, char *text, size_t len);

/* The `power` PMU (sim_kernel_power.c): made with its type number where the part has RAPL (0, or -1); hidden by
 * missing=power; its files into the tree; its events' system calls, on fds sk_power_fd says are its. */
int sk_power_build(struct sim_kernel *k, unsigned type);
void sk_power_missing(struct sim_kernel *k);
int sk_power_tree(struct sim_kernel *k);
void sk_power_follow_cpus(struct sim_kernel *k); /* its cpumask file after a CPU's change */
int sk_power_is_type(const struct sim_kernel *k, unsigned type);
int sk_power_fd(struct sim_kernel *k, int fd);
int sk_power_open(struct sim_kernel *k, const struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd, int perm);
ssize_t sk_power_read(struct sim_kernel *k, int fd, void *buf, size_t len);
int sk_power_ioctl(struct sim_kernel *k, int fd, unsigned long req, unsigned long arg);
int sk_power_close(struct sim_kernel *k, int fd);
void sk_power_free(struct sim_kernel *k);

#endif
