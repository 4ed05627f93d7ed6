/*
 * Energy per socket (issue 68, doc/energy.md): package, DRAM and platform (psys) joules from the first of three
 * sources that works -- the kernel's perf `power` PMU, powercap's intel-rapl zones, the RAPL MSRs -- with
 * their 32-bit counters' wraps handled and an interval too long to see every wrap refused.
 */
#ifndef UNCORE_ENERGY_H
#define UNCORE_ENERGY_H

#include <stdint.h>
#include "uncore.h"
#include "access/access.h"
#include "devices/dev_fs.h"
#include "platform/platform_facts.h"

/* ---- what each part has: its descriptor's energy (platform_facts.h, platforms/<p>/platform.c) ---- */
struct platform_desc;
/* Platform p's part, or NULL with why it reads no energy (Nehalem-EP, Montecito, unknown parts, p NULL). */
const struct energy_part *energy_part_of(const struct platform_desc *p, char *why, size_t len);

/* ---- units and wraps (energy_wrap.c) ---- */
/* MSR_RAPL_POWER_UNIT (0x606) bits 12:8, the energy status unit: 1/2^ESU J (Intel SDM vol. 3B, RAPL interfaces;
 * Linux rapl.c rapl_check_hw_unit, intel_rapl_common.c ENERGY_UNIT_MASK 0x1F00). */
double energy_msr_unit_j(uint64_t power_unit_msr);
/* The counter's step from last to now, raw units, counting one wrap at modulus (0: a counter that does not
 * wrap, as the perf PMU's 64-bit count). */
uint64_t energy_wrap_delta(uint64_t last, uint64_t now, uint64_t modulus);
/* The most a step between two reads may add: ENERGY_STEP_MARGIN x max_w x (the time between them +
 * ENERGY_STEP_SLACK_S).  The slack because the counter and the clock are not read at one instant and RAPL's
 * counters step about every millisecond (Intel SDM vol. 3B, RAPL interfaces); the margin because a unit 16 x
 * off (a wrong MSR_RAPL_POWER_UNIT) is health's energyunit to name, with every step kept.  A step above it is
 * a value no counter of the part gives (a reset, a hostile file): dropped. */
#define ENERGY_STEP_SLACK_S 0.1
#define ENERGY_STEP_MARGIN 16
/* Seconds a counter of modulus raw units of unit_j J takes to wrap at max_w W (0 modulus: never, 0). */
double energy_wrap_seconds(uint64_t modulus, double unit_j, double max_w);

/* ---- the counters of a source ---- */
struct energy_counter {
	int socket, die, domain;
	double unit_j;        /* J per raw unit */
	uint64_t modulus;     /* the raw count wraps here (0: never) */
	/* the source's own: an MSR (cpu, reg), a perf fd, a powercap file */
	int cpu, fd;
	uint32_t reg;
	char path[160];
	const struct energy_source_ops *ops; /* the source that reads it: the energy's (NULL), or the MSRs' (psys) */
	uint64_t max_raw;     /* the highest raw value the counter can show (powercap: max_energy_range_uj) */
	uint64_t last;        /* the raw value at the last read */
	/* a read refused (a raw value above max_raw, a step above the part's power): in the interval read now,
	 * in the last closed one, and why (the last closed one's) */
	int bad_cur, bad_last;
	char bad_why[160], bad_why_cur[160];
	double total_j;       /* joules since the start */
	double mark_j, prev_j; /* total_j at the last read that closed an interval, and at the one before */
};

struct energy_source_ops;
struct uncore_energy {
	uncore_t *u;
	const struct energy_part *part;
	const char *plat;      /* its platform's name, for messages */
	const struct energy_source_ops *ops;
	char source[256];      /* what it reads, for people */
	char missing[UNCORE_ENERGY_DOMAINS][160]; /* why a domain is not read (""): the source has none */
	struct energy_counter c[UC_MAX_SOCKETS * UC_MAX_DIES * UNCORE_ENERGY_DOMAINS];
	int n;
	/* the sources' handles: the kernel (perf), the files (powercap), the MSR device (msr, outside a backend) */
	struct perf_kernel *k;
	int own_kernel;
	struct dev_fs fs;
	struct msr_backend *msr;
	int started;
	/* the library's clock at the start, the last two reads that closed an interval, the last read or sample */
	uint64_t t_start, t_prev, t_mark, t_last;
	/* a read came later than a counter's wrap time: since the start, in the last closed interval, since then */
	int gap, gap_last, gap_cur;
};

struct energy_source_ops {
	const char *name;      /* "perf", "powercap", "msr" */
	/* find the counters of e (e->c, e->n, e->source, e->missing): 0; -1 with why this source cannot */
	int (*open)(struct uncore_energy *e);
	/* a counter's raw value now: 0, or -1 with a message */
	int (*read)(struct uncore_energy *e, struct energy_counter *c, uint64_t *raw);
	void (*close)(struct uncore_energy *e);
};
extern const struct energy_source_ops energy_perf_ops, energy_powercap_ops, energy_msr_ops;

/* Open e (u and part set) on source ("auto", NULL: each in turn; "perf", "powercap", "msr"): 0, or -1 with every
 * source's reason (energy_api.c; tests give e a kernel or a tree of their own first: e->k, e->fs). */
int energy_open_source(struct uncore_energy *e, const char *source);
/* Where the chosen kernel source (perf, powercap) has no psys counter, the part's MSR 0x64D read beside it
 * (energy_msr.c: a part a public source reads it on, GNR and SRF through PCM): the counters added (0: none,
 * e->missing says why). */
int energy_msr_psys(struct uncore_energy *e);
/* Add a counter to e (socket, die, domain, unit, modulus; the source fills its own fields after): it, or NULL
 * when e is full. */
struct energy_counter *energy_add(struct uncore_energy *e, int socket, int die, int domain, double unit_j,
				  uint64_t modulus);

/* The node's energy domains (its platform's RAPL part) found and kept by the node (node/node.h NODE_ENERGY), where
 * they are not yet: 0. */
int energy_node_build(uncore_t *u);

#endif
