/*
 * The simulator backend: a register-level model of a platform's uncore.
 * Tests reach it through sim_of() to advance the clock, inject faults and
 * check the register protocol.
 */
#ifndef UNCORE_SIM_H
#define UNCORE_SIM_H

#include <math.h>
#include <stddef.h>
#include <string.h>
#include <stdint.h>
#include "access/access.h"
#include "sim_model.h"
#include "sim_pcitree.h"
#include "sim_ufreq.h"
#include "sim_rapl.h"
#include "sim_numa.h"

#define SIM_MAX_BOXES 1024
/* cores=N at most: the largest part simulated, Clearwater Forest's 288 (struct sim_kind max_cores) */
#define SIM_MAX_CORES 288
#define SIM_MAX_DEVS 256
#define SIM_MAX_KEYS 32
#define SIM_DIMM_BOXES 64 /* iMC boxes a socket a memory board populates */
#define SIM_IIO_PORTS 8 /* ports of an IIO stack with bandwidth counters (Linux spr/gnr_iio_freerunning: 8 each way) */

/* A job of the profile (issue 46): its CPUs, and the bytes/s its cores read from and write to memory, spread
 * evenly over its CPUs (profile keys job.NAME.cpus, job.NAME.mem_read_bytes_per_s, ..._write_...). */
#define SIM_MAX_JOBS 8
#define SIM_MAX_DEVRATES 32 /* devices the profile gives rates of (device.NAME.*) */
#define SIM_MAX_PCIDEV 64   /* endpoints of a device set (sim_pcitree.c: 32 items, a switch two) */
struct sim_job {
	char name[24];
	uint8_t cpus[UC_MAX_CPUS / 8];
	int ncpus;
	double rd_bps, wr_bps;
	uint8_t gpus[UC_MAX_CPUS / 8]; /* job.NAME.gpus: the GPU indexes it holds (sim_jobs.c) */
	int ngpus;
	unsigned cgroup_uid; /* job.NAME.cgroup_uid: who owns its cgroup directory (0, root, as slurmstepd makes it;
			      * another: a directory a user made, for the library to leave out) */
};

/* The simulated node as a Slurm node (profile keys slurm.*, sim_slurm.c): its jobs' cgroups (cgroup 2 or 1; 0:
 * none, its GPU jobs in the spool alone) and its gres.conf: the GPU minors in Slurm's index order (ngres 0:
 * no File= line) and AutoDetect= ("": none; neither given: no gres.conf). */
#define SIM_MAX_GRES 64
struct sim_slurm {
	int cgroup;
	int ngres;
	int gres_minor[SIM_MAX_GRES];
	char autodetect[16];
};

/* Workload truth, per socket (the profile keys are listed in doc/user-guide.md, "Simulator profile"). */
struct sim_profile {
	double mem_read_bps[UC_MAX_SOCKETS], mem_write_bps[UC_MAX_SOCKETS];
	double llc_lookups[UC_MAX_SOCKETS], llc_miss_ratio[UC_MAX_SOCKETS];
	double qpi_rx_bps[UC_MAX_SOCKETS], qpi_tx_bps[UC_MAX_SOCKETS]; /* QPI or UPI */
	double iio_in_bps[UC_MAX_SOCKETS], iio_out_bps[UC_MAX_SOCKETS];
	double llc_miss_lat_ns[UC_MAX_SOCKETS], llc_hit_lat_ns[UC_MAX_SOCKETS]; /* TOR residency */
	double mem_read_lat_ns[UC_MAX_SOCKETS];                                  /* iMC RPQ residency */
	double link_util[UC_MAX_SOCKETS]; /* QPI Rx / UPI Tx: used share of the link's flit slots */
	/* Montecito front-side bus: shares of the bus memory transactions that hit a modified line
	 * elsewhere or are partial, and the share of all bus transactions that are I/O */
	double bus_hitm_ratio[UC_MAX_SOCKETS], bus_partial_ratio[UC_MAX_SOCKETS], bus_io_ratio[UC_MAX_SOCKETS];
	double pcu_thermal[UC_MAX_SOCKETS], pcu_power[UC_MAX_SOCKETS], pcu_os[UC_MAX_SOCKETS], pcu_current[UC_MAX_SOCKETS];
	/* what perf's metric files also ask (doc/user-guide.md, "Simulator profile"): LLC data-read misses
	 * outstanding per CBo/CHA while it has any; EMR: the share homed on another socket (of misses, I/O and
	 * memory requests) and served by PMem, PMem latency and traffic, I/O requests' LLC misses and partial
	 * writes, directory-update writes, cores in C0 and C6 */
	double llc_miss_parallel[UC_MAX_SOCKETS], remote_ratio[UC_MAX_SOCKETS], llc_miss_pmem_ratio[UC_MAX_SOCKETS];
	double pmem_read_lat_ns[UC_MAX_SOCKETS], pmem_read_bps[UC_MAX_SOCKETS], pmem_write_bps[UC_MAX_SOCKETS];
	double io_miss_ratio[UC_MAX_SOCKETS], io_partial_ratio[UC_MAX_SOCKETS], dir_update_bps[UC_MAX_SOCKETS];
	double cores_c0[UC_MAX_SOCKETS], cores_c6[UC_MAX_SOCKETS]; /* shares of the socket's cores */
	/* Xeon Max (sim:spr,hbm=flat|cache): the bytes/s its HBM channels read and write, and in cache mode the
	 * share of the reads HBM serves (sim_traffic.c's cache model) */
	double hbm_read_bps[UC_MAX_SOCKETS], hbm_write_bps[UC_MAX_SOCKETS], hbm_hit_ratio[UC_MAX_SOCKETS];
	double mem_sch0_ratio[UC_MAX_SOCKETS]; /* GNR/SRF/CWF: share of a channel's CASes its scheduler 0 serves */
	/* GNR/SRF/CWF with CXL memory (cxl=1): the bytes/s the socket's CXL memory expanders read and write */
	double cxl_read_bps[UC_MAX_SOCKETS], cxl_write_bps[UC_MAX_SOCKETS];
	/* discovery machines: how each IIO stack's bytes in and out spread over its ports, as weights (a port's
	 * share is its weight over the socket's sum); a row per port, so each is a per-socket profile key */
	double iio_port_share[SIM_IIO_PORTS][UC_MAX_SOCKETS];
	double pmem; /* the machine has persistent memory (perf's #has_pmem) */
	/* jobs: with any, a socket's memory traffic is its jobs' cores' (core_rd/wr_bps) plus its devices' DMA,
	 * and the cores' data-read misses are the reads (sim_jobs.c); mem_given: a socket's total was set */
	struct sim_job jobs[SIM_MAX_JOBS];
	int njobs, mem_given;
	struct sim_slurm slurm; /* slurm.*: the node's Slurm files (sim_slurm.c) */
	double dma_rd_bps[UC_MAX_SOCKETS], dma_wr_bps[UC_MAX_SOCKETS];
	/* the PCI devices' DMA (sim_devdma.c): per kind (SIM_DEV_*) payload bytes/s in and out and the overhead
	 * ratio, and the devices the profile names (device.NAME.*: NAN where it gives none) */
	double dev_in_bps[SIM_DEV_KINDS], dev_out_bps[SIM_DEV_KINDS], dev_overhead[SIM_DEV_KINDS];
	struct { char name[24]; double in_bps, out_bps; } devrate[SIM_MAX_DEVRATES];
	int ndevrate;
	double core_rd_bps[UC_MAX_SOCKETS], core_wr_bps[UC_MAX_SOCKETS];
	double uncore_hz, dram_hz, qpi_hz, pcu_hz, iio_hz, tsc_hz;
	double uncore_min_hz, uncore_max_hz; /* the uncore clock's limits (sim_ufreq.c; 0: the platform's) */
	/* energy (sim_rapl.c): package watts; DRAM's idle watts and its watts per GB/s of the socket's memory
	 * traffic (mem_read + mem_write); the platform's watts beyond its sockets' (psys) */
	double pkg_w[UC_MAX_SOCKETS], dram_idle_w[UC_MAX_SOCKETS], dram_w_per_gbps[UC_MAX_SOCKETS], psys_rest_w;
};

/* A counter's count and the fraction of an event it has counted towards the next; rate: the events a second
 * a fast advance adds (sim_box_advance_fast), the rate cache's (rc) copied next to the count it advances.  (rate is
 * kept in a shared machine's file too, unused: an advance there never takes the fast way.) */
struct sim_count {
	uint64_t v;
	double frac;
	double rate;
};

struct sim_box {
	/* what every advance of a counting box looks at, first and together: with the clock of its last advance
	 * and its first three counts, its first two cache lines (a read at 100 Hz advances every box, its caches
	 * cold after the sleep between reads; each box starts a line, and a CHA counting three events touches no
	 * third) */
	_Alignas(64) const struct sim_unit *u;
	/* what an advance counts while nothing changes (sim_box_advance_fast): valid while fast_gen is the
	 * machine's rate_gen + 1 -- a write to the box, a strike or an overflow sets it 0 -- and the machine
	 * neither freezes the box's die nor arms a counter: the counters that count (bits) and the fixed one, at
	 * the rates their counts keep (struct sim_count) */
	uint64_t fast_gen;
	double phantom;   /* fault phantom: events a second every counter adds whatever it counts */
	int fault;        /* 0, or an errno every access fails with ... (from fault_from_ns) */
	uint16_t fast_mask;
	uint8_t fast_fixed;
	uint8_t width;    /* of its counters (a discovery fault may make it 64) */
	uint8_t nfr;      /* free-running counters (fr_base: where) */
	uint8_t allones;  /* reads return all ones */
	uint8_t agent;    /* fault agent: 1 another agent reprograms the box at fault_from_ns, 2 it has; fault borrow:
			   * SIM_BORROW_DUE, _HELD while it has its own events on the box, _DONE once it put them back */
	uint8_t socket, die; /* die: its logical die in the socket (dies=N; 0 on one-die sockets) */
	/* register state, last_ns to fr_frac: what a shared simulator keeps in its file (sim_shared.c); the clock
	 * of the last advance and the general counts it advances lead, right after the header */
	uint64_t last_ns;
	struct sim_count cnt[SIM_MAX_CTR];
	struct sim_count fixed;
	uint64_t ctl[SIM_MAX_CTR];
	uint64_t box_ctl;
	uint64_t fixed_ctl;
	uint64_t filt[SIM_MAX_FILT];
	uint64_t status;  /* overflow bits of the box status register (or of PMC0 on Montecito) */
	uint64_t fr[SIM_MAX_FR];
	double fr_frac[SIM_MAX_FR];
	/* (end of the register state) */
	int idx;
	uint64_t base;       /* its registers are at base + the unit's addresses (sim_model.h) */
	uint64_t fr_base;    /* free-running counters: base */
	int disc_entry;      /* entry in its discovery table, -1 = none */
	int disc_blob;       /* that table (s->blobs: a die's, or a domain's of several a die) */
	int gsp;             /* its Global Status Position there, -1 = none */
	uint64_t fault_from_ns; /* faults' time (fault, allones, agent and those below) */
	int dead;         /* fault dead: its counters never move (a PMU the hardware does not clock) */
	int stuck;        /* fault stuck: its counters hold one value, counting nothing and taking no write */
	int sched_lost;   /* fault onesched (GNR family IMC): scheduler 1's CAS counts never move */
	int port_skew;    /* fault portmap (IIO): free-running port N counts port N+1's traffic */
	double fr_scale;  /* fault frhalf: its free-running counters count this share of their traffic (0: all) */
	int tidless;      /* fault tidless (CBo/CHA): its tid filter is ignored, it counts every thread */
	/* each counter's last rate (general, then fixed, then free-running), with what it was computed for: its
	 * control word, the box's filters and the machine's rate_gen (sim_core.c box_rate) */
	struct { uint64_t ctl, filt, gen; double rate; } rc[SIM_MAX_CTR + 1 + SIM_MAX_FR];
	uint64_t lent[SIM_MAX_CTR]; /* fault borrow: the control words it found, and puts back */
	/* a box with a counter armed for overflows: before ov_safe_ns none of them can overflow, as its last full
	 * advance counted them -- valid, as fast_gen, while ov_gen is the machine's rate_gen + 1 (sim_box_stale) --
	 * so the walk that brings armed boxes up before another counts (sim_core.c advance_armed_in) can leave it */
	uint64_t ov_gen, ov_safe_ns;
};

/* What box b's last full advance worked out for the next ones (its fast way, its first overflow) is stale: a write
 * to it, a strike or an overflow changed what it counts. */
static inline void sim_box_stale(struct sim_box *b)
{
	b->fast_gen = 0;
	b->ov_gen = 0;
}

/* Fault borrow: another tool puts its own event on every general counter of the box at the fault's time,
 * counts SIM_BORROW_NS, and writes the control words it found back (a tool that saves and restores what it
 * borrows): between two reads of the library's its words are never seen (sim_core.c sim_borrow_to). */
enum { SIM_BORROW_DUE = 3, SIM_BORROW_HELD, SIM_BORROW_DONE };
#define SIM_BORROW_NS 600000000ull

/* (a box counting three general events advances within its first two cache lines) */
_Static_assert(offsetof(struct sim_box, cnt) + 3 * sizeof(struct sim_count) <= 128,
	       "struct sim_box: the header outgrew what leaves three counts in the first two cache lines");

struct sim_dev {
	struct pci_devinfo info;
	uint8_t cfg[4096];
	struct sim_box *box; /* PMON registers of this function */
	int companion;       /* the function holds box's match/mask registers */
	int present;
};

struct sim;
/* Events per second of a counter: ctr >= 0 a general counter with control word ctl, -1 the fixed
 * counter, -2 - k free-running counter k. */
typedef double (*sim_rate_fn)(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr);

/* Memory-mapped regions that are plain bytes (discovery tables). */
struct sim_blob {
	uint64_t phys;
	uint8_t *data;
	size_t len;
};
#define SIM_MAX_BLOBS 8
/* read-only MSRs: SPR/EMR's UNC_CBO_CONFIG, the uncore ratio limit and status, the discovery MSRs 0x201e and
 * 0x710 (0x201e is one where no CHA 1 has its filter there: cores=1) -- five; room for more */
#define SIM_MAX_ROMSR 8
#define SIM_MAX_GLOB_STATUS 2

/* The register map: absolute address (space, socket or PCI function, address) -> box register. */
struct sim_reg {
	uint64_t key;
	uint32_t box;  /* box index + 1; 0 = empty slot */
	uint8_t kind, idx;
	uint16_t at;   /* where the register's value is in the box (sim_reg_at) */
};

/* The MSR space of each scope as a table (sim_map.c), the registers from msr_lo on: what the map says of
 * them, and which address is also a global control or read-only MSR (those are found first). */
struct sim_msr_slot {
	uint32_t box_at; /* where its box is in struct sim; 0 = no box register */
	uint16_t off;    /* sim_reg_value_at's at, less its low bit ... */
	uint8_t shift;   /* ... which gives this (0 or 32) */
	uint8_t kind;    /* SIM_MSR_OTHER: a global control or read-only MSR (also) has the address */
};
#define SIM_MSR_OTHER 0xff

struct sim {
	const struct sim_kind *kind;
	const struct sim_unit *units; /* the platform's units (sim_model.h) */
	int nunits;
	const struct sim_global *glob; /* NULL: no global control */
	const struct sim_ubox_dev *ubox;
	int nsockets, cores; /* cores: per die (one die per socket unless dies=N) */
	int chas;            /* CHAs a die where the kind has fewer than cores (sim_chas); 0: one a core */
	int variant;         /* which part of its platform the machine is, by the kind's option (-1: its default) */
	int dies;            /* logical dies per socket (dies=N, discovery platforms): each its own table,
			      * units, CPUs and MSR space, as Linux keys uncore boxes by die */
	int build_die;       /* the die the builder is placing units on (sim_add_box) */
	int numa_off;        /* numa=off: no PCI device has a NUMA node (-1, as Linux booted with numa=off or
			      * firmware without proximity data shows), one node 0 holds every CPU */
	char devset[256];    /* devices=: the PCI devices behind the IIO stacks (sim_pcitree.h); "": its default */
	int iio_mapping_off; /* iio_mapping=off: the kernel shows no uncore_iio_<n>/die<d> (an older kernel) */
	struct sim_pcidev pdev[SIM_MAX_PCIDEV]; /* ... laid out once built, with their DMA and faults (sim_devdma.c) */
	int npdev;
	int stack_swap;      /* fault swapped:stackmap[:N]: stacks N and N+1 show each other's root bus (N + 1; 0 none) */
	struct sim_box boxes[SIM_MAX_BOXES];
	int nboxes;
	struct sim_reg *map; /* open addressing, map_cap slots (sim_map.c) */
	size_t map_cap;
	int map_bits;        /* map_cap = 1 << map_bits */
	struct sim_msr_slot *msr_tab; /* msr_span slots a scope, scope by scope; NULL (msr_span 0): the map alone */
	uint32_t msr_lo, msr_span;
	struct sim_dev devs[SIM_MAX_DEVS];
	int ndevs;
	struct sim_profile prof;
	sim_rate_fn rate;
	sim_rate_fn rate_unfaulted; /* the kind's rate, where fault frhalf wraps it (sim_machine.c) */
	uint64_t rate_gen; /* changed with anything a rate depends on but the box's control word and filters (the
			    * profile, its jobs, a fault): the boxes' cached rates are stale (sim_rate_changed) */
	struct sim_blob blobs[SIM_MAX_BLOBS];
	int nblobs;
	uint64_t blob_lo, blob_hi; /* the lowest address of a blob, and the highest end of one */
	/* read-only MSRs outside boxes: scope k's reads val + k * step (a per-die discovery MSR: Linux 7.0
	 * CBB_UNCORE_DISCOVERY_MSR 0x710 names each die's own table) */
	struct { uint32_t addr; uint64_t val, step; } romsr[SIM_MAX_ROMSR];
	int nromsr;
	/* global controls in MMIO (a discovery table's, Diamond Rapids' compute dies: Linux 7.0 b575fc0e3357):
	 * freeze_all, bit 0, freezes scope's boxes as the MSR global control does; gfrz_boot: frozen at power-on */
	struct { uint64_t phys; int scope; } mglob[SIM_MAX_BLOBS];
	int nmglob;
	int gfrz_boot[UC_MAX_SOCKETS];
	int family, model, stepping; /* the CPU id host() reports: the kind's, or the cpu= option's */
	int mem_channels[UC_MAX_SOCKETS]; /* memory channels built per socket: traffic is spread over them */
	/* the DIMMs on iMC box i of a socket (sim_dimms.c, where the kind has a memory board): -1 no channel, 0 an empty
	 * one; dimms_on 0: no population modelled, every box a channel that carries traffic */
	signed char dimms[UC_MAX_SOCKETS][SIM_DIMM_BOXES];
	int dimms_on;
	int edac_off;       /* edac=off: no EDAC driver loaded, its tree absent (the SMBIOS table stays) */
	int edac_form;      /* edac=old|csrow|repeat: SIM_EDAC_* (sim_dimms.c) */
	int mapout;         /* mapout=S: socket S + 1 whose DIMMs the BIOS mapped out (0: none) */
	int smbios26;       /* smbios=2.6: type 17 of 28 bytes, no configured speed */
	int one_ha;         /* ha=1 (hsx, bdx): the die has home agent 0 alone, its iMC's 4 channels (sim.c) */
	const struct sim_mem_board *mem; /* the machine's memory board: the kind's, or the one its build chose */
	char dimms_opt[80]; /* dimms=: the population asked for ("": the board's) */
	int hbm_mode;                     /* SIM_HBM_FLAT, _CACHE or _ONLY: the machine has HBM (0: none) */
	int cxl_mem;                      /* CXL memory expanders on every socket (sim:gnr,cxl=1): a node each */
	int hbm_channels[UC_MAX_SOCKETS]; /* its HBM channels per socket */
	/* sub-NUMA clustering (snc=N, sim_numa.c): domains a socket (0 or 1: off); faults swapped:sncmap (domains 0
	 * and 1 trade channels) and hidden:snc (every node shows an L3 of its own); DDR and HBM channels a domain */
	int snc, snc_swap, snc_hide;
	struct sim_ufreq ufreq; /* the uncore clock's limits and how the kernel shows them (sim_ufreq.c) */
	int snc_only; /* node + 1 a workload is placed on (sim_workload_on "nodeN"): its channels alone move it;
		       * -1: a socket's workload, interleaved over all its channels alike */
	int snc_nch[2][UC_MAX_SOCKETS][UC_MAX_DIES];
	/* what resctrl's mbm_total_bytes would give per socket: the bytes its memory moved, up to mbm_ns */
	double mbm[UC_MAX_SOCKETS];
	uint64_t mbm_ns;
	const char *name;
	int manual_clock;
	double prewrap_s;  /* reset counters to wrap after this many seconds (0: reset to 0) */
	uint64_t wraps;    /* counter wrap-arounds so far */
	struct sim_rapl_state rapl; /* the energy counters' starts and faults (sim_rapl.c) */
	/* global control (IVB-EP UBox): per socket the control word, overflow status and a freeze,
	 * by software (frz_all) or by an overflow, in effect from gfrz_ns; from gctl to armed the
	 * machine's own state, which a shared file holds with the boxes' (sim_shared.c) */
	uint64_t gctl[UC_MAX_SOCKETS], gstatus[UC_MAX_SOCKETS][SIM_MAX_GLOB_STATUS], gfrz_ns[UC_MAX_SOCKETS];
	int gfrz[UC_MAX_SOCKETS];
	/* the boxes (bit i: boxes[i]) that may have a counter armed: every box that has one, and maybe others
	 * (sim_note_armed where a control word changes); advance_armed walks these, not the whole machine,
	 * which costs every access on a platform of hundreds of boxes (EMR) while a counter is armed */
	uint64_t armed_box[SIM_MAX_BOXES / 64];
	int armed;         /* some counter reports overflows: advance those boxes first */
	int advancing;
	uint64_t now_ns, tick_ns, epoch_ns;
	int held;         /* the clock stands at hold_ns: the simulated kernel replays a rotation it owed */
	uint64_t hold_ns;
	int reading;      /* the library's holds of a real-time clock over a read (access ops hold_clock), nested */
	int reading_holds; /* ... and held is theirs */
	/* protocol checks */
	uint64_t unfrozen_ctl_writes; /* control words changed while their box was counting */
	uint64_t bad_accesses;        /* accesses outside every modelled PMON register */
	/* crash tests (kill_at=N): register accesses made so far, and the one before which the process is
	 * killed with SIGKILL (0: never), as a power cut or kill -9 would stop it */
	uint64_t accesses, kill_at;
	uint64_t snapshot_taken;
	struct sim_box snap[SIM_MAX_BOXES];
	/* tests: told of every MSR access the library makes (write 0 = a read), e.g. to check an allowlist */
	void (*msr_hook)(void *ctx, int cpu, uint32_t reg, int write, uint64_t val);
	void *msr_hook_ctx;
	/* shared=FILE: the boxes' register state lives in FILE */
	uint8_t *shm;
	size_t shm_len;
	int shm_fd;
	int shm_depth;    /* nested sim_shared_in calls: the lock and the machine's state are taken once */
	/* changes=FILE (sim_changes.c): the node's changes a test appends there, each made once, in order */
	char changes[400];
	long changes_done;                /* bytes of the file made so far */
	uint8_t cpu_off[UC_MAX_CPUS / 8]; /* CPUs taken offline */
	char gone[8][16];                 /* PCI functions removed (their BDF), with what is below them */
	int ngone;
	unsigned pmu_gen;                 /* the uncore PMU driver's reloads (sim_kernel: new type numbers) */
	int wall_set;                     /* the changes' "realtime": the wall clock read wall_ns at clock wall_at */
	uint64_t wall_ns, wall_at;
};

/* A socket's memory traffic from now on, in bytes/s, in place of the profile's (a program's reported
 * traffic as the workload): 0, or -1 with a message (sim_traffic.c). */
int sim_traffic(struct sim *s, int socket, double read_bps, double write_bps);
/* read_bytes and write_bytes moved on a socket over ns of the simulator's time, which its clock then
 * skips: counted exactly, whatever the host's timing (0, or -1 with a message). */
int sim_workload(struct sim *s, int socket, double read_bytes, double write_bytes, uint64_t ns);
/* The same with the bytes in one kind of the socket's memory: "ddr" (sim_workload's), or "hbm" (a Xeon Max
 * in flat mode: its HBM NUMA node); in cache mode "ddr" is served as the cache model says (sim_traffic.c). */
#define SIM_HBM_FLAT 1
#define SIM_HBM_CACHE 2
#define SIM_HBM_ONLY 3  /* HBM-only mode: no DDR DIMM, the HBM the sockets' own memory (its NUMA nodes the CPUs') */
int sim_workload_on(struct sim *s, int socket, const char *memory, double read_bytes, double write_bytes, uint64_t ns);
/* n CPU sets (bit masks of UC_MAX_CPUS bits) moving their bytes at once over ns, the machine's only
 * traffic then, as jobs of the profile are (sim_jobs.c). */
int sim_workload_cpus(struct sim *s, int n, const uint8_t *const *cpus, const double *read_bytes,
		      const double *write_bytes, uint64_t ns);
/* The bytes a socket's memory moved since the machine was made (resctrl's mbm_total_bytes of its L3
 * domain): 0, or -1 with a message. */
int sim_mbm_bytes(struct sim *s, int socket, uint64_t *bytes);
/* tests: the msr_hook every simulator gets when it is made, so accesses during open are seen too */
extern void (*sim_new_msr_hook)(void *ctx, int cpu, uint32_t reg, int write, uint64_t val);
extern void *sim_new_msr_hook_ctx;

/* A die's MSR space and global control ("scope"): die by die, socket by socket; CPUs are numbered the
 * same way, s->cores to a die, so CPU c is in scope c / s->cores. */
static inline int sim_scopes(const struct sim *s) { return s->nsockets * s->dies; }
/* The CHAs of a die: one a core unless the kind says fewer (s->chas). */
static inline int sim_chas(const struct sim *s) { return s->chas ? s->chas : s->cores; }
static inline int sim_box_scope(const struct sim *s, const struct sim_box *b) { return b->socket * s->dies + b->die; }
/* What /sys/devices/system/cpu/cpuN/topology/die_id says of CPU cpu: Linux 6.12's die id is the APIC id
 * shifted to the die level (topo_set_ids), the package's bits above the die's, so socket 1's dies are
 * 2 and 3 on a 2-die part, as the simulated APIC ids give (sim_machine.c). */
long sim_cpu_die_id(const struct sim *s, int cpu);

struct sim *sim_of(struct access *a);
/* The node's changes written to changes=FILE since the last call made (sim_changes.c): 1 some, 0 none (a clock line
 * alone changes nothing of the node), -1 with a message (a line it cannot make: the file's line named). */
int sim_changes_poll(struct sim *s);
/* Whether CPU cpu is online; whether a PCI path (a directory, or a link's target) is of a removed function. */
int sim_cpu_online(const struct sim *s, int cpu);
/* The first online CPU of the n from first, or -1. */
int sim_first_online(const struct sim *s, int first, int n);
int sim_pci_gone(const struct sim *s, const char *path);
/* /sys/devices/system/cpu/online as the machine's CPUs now are: 0, or -1 out of memory. */
int sim_cpu_sysfs(const struct sim *s, struct memfs *m);
/* The uncore clock's limits rewritten (as a write of min_freq_khz and max_freq_khz does): 0, or -1. */
int sim_ufreq_set(struct sim *s, int min_ratio, int max_ratio);
/* Every register access (MSR, PCI configuration, MMIO) of the library counts here first. */
void sim_access_point(struct sim *s);
uint64_t sim_now(struct sim *s);
void sim_advance(struct sim *s, uint64_t ns);
/* Number of PMON registers that differ from the state at creation. */
int sim_changed_registers(struct sim *s, char *why, size_t len);
/* Faults: kind "eio", "eacces", "allones", "missing", "dead", "phantom", "stuck", "narrow", "portmap", "frhalf",
 * "agent", "borrow"
 * (and the platform's own); box type name and index (-1 = all); "swapped:busmap" swaps sockets 0 and 1 in
 * the UBox bus map. */
int sim_fault(struct sim *s, const char *kind, const char *unit, int idx, uint64_t from_ns);
void sim_set_counter(struct sim *s, const char *unit, int socket, int idx, int ctr, uint64_t val);

/* A machine shared by processes (sim_shared.c): attach after building, bracket box accesses. */
int sim_shared_attach(struct sim *s, const char *path, uint64_t spec_hash);
/* Take the shared file's lock and bring in the machine's state and box b's (NULL: the machine's alone);
 * _out puts them back and lets go.  Calls nest: the outermost takes and releases the lock. */
void sim_shared_in(struct sim *s, struct sim_box *b);
void sim_shared_out(struct sim *s, struct sim_box *b);
void sim_shared_wrote(struct sim *s);
/* Every box of a scope (a die's MSR space and global control; -1: the machine) brought up to now, each
 * through the shared file where there is one. */
void sim_advance_scope(struct sim *s, int scope);
uint64_t sim_shared_writes(struct sim *s); /* register writes by every process since the file was made */
void sim_shared_sync(struct sim *s);
void sim_shared_close(struct sim *s);

/* A simulated platform (platforms/<name>/sim.c): its CPUID, cores per socket (one CBo/CHA per core),
 * register map and how its machine is built. */
/* Functions fn0..fn1 of dev on the root bus of IIO stack `stack` (ids did + inc * (fn - fn0), class cls): the
 * uncore's register functions where a real board lists them (platforms/<p>/board.c); the list ends with did 0 */
struct sim_root_fn {
	int stack, dev, fn0, fn1;
	uint16_t did;
	int inc;
	uint32_t cls;
};

/* The DMA engines (CBDMA, ioatdma) on the DMI stack's root bus of every socket (platforms/<p>/board.c): functions
 * 0..nfn-1 of device dev, id did, class 0x0880; their DMA counted at IIO part `part` of that stack */
struct sim_cbdma {
	int dev, nfn;
	uint16_t did;
	int part;
};

/* A real board's IIO stacks (platforms/<p>/board.c): each socket's root bus of each IIO PMU that has one (a
 * real board's socket 1 is not socket 0's + 0x80: Birch Stream's 29 is a6), the CPU bus the MSM's CPUBUSNO
 * registers list it at, the PMU whose bus carries the PCH (and its root port's device) and the one whose bus
 * carries the MSM (03.0).  A PMU the board lists no bus for has none (its box counts, no device sits on it).
 * Used on one- and two-socket machines of one die. */
struct sim_board_stack {
	int pmu;
	int bus[2]; /* socket 0's and socket 1's root bus */
	int cpubus;
	int hc; /* an accelerator stack: DSA/IAA, QAT and DLB (dsa, iaa, qat, dlb items), no root port */
};
struct sim_board {
	const struct sim_board_stack *stacks;
	int nstacks;
	int dmi_pmu, pch_port_dev, dmi_part; /* the DMI stack (-1: none), the PCH's root port (0: the kind places
					      * its PCH itself, pch_nic), its counter part */
	int msm_pmu;                         /* the stack whose root bus holds the MSM 09a6 at 03.0 */
	const char *devices;                 /* the default device set (SIM_DEVICES_DEFAULT's form) */
	int ubox[2]; /* each socket's UBox bus as listed, the PCU's the next (0: 0x7e and 0xfe, Birch Stream's) */
	const struct sim_board *one_socket; /* a one-socket machine laid out as another listing (NULL: as this one) */
};

/* The uncore's PCI registers a kernel or pcm reads on the platform's IIO stacks (sim_pcicfg.c, sim_pcitree.c) */
struct sim_iio_regs {
	int port_dev;      /* PCI device of root port 0 on a stack's root bus (pcm-iio-topology.cpp: Purley 0, Whitley
			    * and Birch Stream 2, Eagle Stream 1) */
	int mapping;       /* Linux 6.12 shows uncore_iio_<n>/die<d> (skx_ and icx_iio_set_mapping; none from SPR on) */
	int sad_id;        /* 09a2's SAD_CONTROL_CFG holds the stack's SAD id, read without CPU buses (ICX) */
	const int *cpubus; /* CPU bus of IIO PMU 0..5 on a machine with no board (pcm's sad_to_pmu_id tables inverted);
			    * NULL: no MSM function listing CPU buses */
	int eagle_fns;     /* 09a4, 09a3 and 0b23 beside 09a2 on each root bus (Eagle Stream: SPR, EMR) */
	int pcu_cr3;       /* the PCU CR3 function 325b beside the MSM: CAPID4 naming the die, CAPID6/7 the CHAs (SPR, EMR) */
};

/* Sub-NUMA clustering as the part allows it (sim_numa.c) */
struct sim_snc_layout {
	const char *allowed; /* "1, 2, 4" */
	const char *why;     /* why those: the dies or tiles a domain takes */
	/* the domain of DDR channel pair p (iMC or B2CMI ids 2p and 2p + 1) with snc=n: ddr[n][p % n] */
	signed char ddr[SIM_MAX_SNC + 1][SIM_MAX_SNC];
};

/* A board's memory as Linux's EDAC driver of its generation and its SMBIOS table show it (sim_dimms.c): the
 * DIMMs of each iMC box's channel, and the driver's names (its own formats, never the library's). */
struct sim_mem_board {
	const char *dimms;   /* a character per iMC box of a socket: '0'-'3' DIMMs on its channel, '-' a box that is no
			      * channel (Ice Lake-SP's third of each controller) */
	int boxes_per_mc;    /* boxes of one controller as the driver numbers them */
	int slots;           /* DIMM slots a channel (SMBIOS lists each; dimms= puts at most this many on one) */
	int layer_slots;     /* the driver's slot layer: DIMM directory dimm<channel * layer_slots + slot> (sb_edac's
			      * MAX_DIMMS 3, skx_common.h NUM_DIMMS 2) */
	const char *mc_name; /* with socket and controller: "Intel_10nm Socket#%d IMC#%d" */
	const char *label;   /* dimm_label with socket, controller, channel, slot */
	const char *type;    /* dimm_mem_type */
	int mib, mts;        /* each DIMM's size and the speed the board configures */
	const char *source;
	/* its SMBIOS table as the board's BIOS writes it (issue 98, each board's source beside it): type 17's length
	 * (0: 40, SMBIOS 2.8), the DIMMs' rated speed where the board runs them below it (0: mts), how it names its
	 * slots (SIM_LOC_*) */
	int t17_len, rated_mts, locators;
	/* Xeon Max's HBM as i10nm_edac lists it after the DDR controllers (sim:spr,hbm=...): hbm_mcs controllers of
	 * hbm_chans channels, one "DIMM" (a stack's pseudo-channel pair) a channel of hbm_mib; 0: none */
	int hbm_mcs, hbm_chans, hbm_mib;
	const char *hbm_label, *hbm_type;
};
/* How a board's SMBIOS names its slots (type 17 Device Locator / Bank Locator), socket p (0-based), channel letter
 * c (A-), slot d (1-based), n the slot's number on the board (1-based): */
enum {
	SIM_LOC_DIMM,       /* "DIMM n" / "BANK 0" */
	SIM_LOC_SUPERMICRO, /* "P(p+1)-DIMM(c)(d)" / "P(p)_Node(p)_Channel(ch)_Dimm(d-1)": Supermicro X11 */
	SIM_LOC_DELL,       /* "(c)(d)": A1.. socket 0's, B1.. socket 1's / "Not Specified": Dell PowerEdge R720 */
	SIM_LOC_LENOVO,     /* "DIMM n" (n of the board, in the BIOS's slot order) / "CPU p+1": ThinkSystem V2 */
	SIM_LOC_PROLIANT,   /* "PROC p+1 DIMM n" (single-spaced, n of the processor) / "Not Specified": DL380 Gen11 */
};
/* The EDAC tree the simulated kernel writes (edac=): */
enum { SIM_EDAC_NOW, SIM_EDAC_OLD, SIM_EDAC_CSROW, SIM_EDAC_REPEAT };
struct sim_kind {
	const char *name;
	int cores, family, model;
	/* the cores a die of the platform's largest shipped part has (issue 90: every kind opens and counts with
	 * cores= this; doc/platforms.md gives each one's part and source); more are taken where the model allows */
	int max_cores;
	int stepping; /* of a shipped part (SNB-EP C2 0x206D7, IVB-EP E1 0x306E4, NHM-EP D0 0x106A5, EMR 0xC06F2):
		       * perf's CPU id string ends with it */
	int (*build)(struct sim *s);
	const struct sim_unit *units;
	const int *nunits;
	const struct sim_global *glob;   /* NULL: no global control */
	const struct sim_ubox_dev *ubox; /* NULL: no UBox device */
	const char *faults;              /* fault kinds of its own, "corrupt, badaddr" (NULL: none) */
	int (*fault)(struct sim *s, const char *kind, struct sim_box *b);
	const struct sim_perf_type *perf; /* the Linux driver's PMU types over it (sim_perf.h); NULL: none */
	uint16_t ia_read_opc;             /* IDI opcode of the cores' data reads in the CHA's TOR (0: DRd 0x102;
					   * Atom cores, SRF and CWF: DRd_Opt 0x104, perfmon TOR *_DRD_OPT) */
	const int *nperf;
	int multi_die;                    /* dies=N builds a table per logical die (the discovery platforms) */
	int sockets;                      /* sockets by default (0: 2; Broadwell-DE, a one-socket part: 1) */
	/* an option of its own, "chop=0..3" (NULL: none): option() takes key=value into the machine (its
	 * variant) before the build, and returns 0, or -1 with a message */
	const char *option_help;
	int (*option)(struct sim *s, const char *key, const char *value);
	const struct sim_root_fn *root_fns; /* NULL: none in its PCI tree */
	const struct sim_board *board;      /* NULL: stacks' root buses spread evenly, no PCH */
	/* without a board: the DMI stack's PMU (0 unless set: Ice Lake-SP's 5), and whether the PCH's root port
	 * with a NIC below it sits on it (sim_pcitree.c) */
	int dmi_pmu, pch_nic;
	const struct sim_cbdma *cbdma;           /* NULL: no DMA engines on the DMI stack's root bus */
	const struct sim_iio_regs *iio_regs;     /* NULL: none simulated, root ports at devices 1-8 */
	const struct sim_snc_layout *snc_layout; /* NULL: no sub-NUMA clustering simulated */
	/* how the kernel shows its uncore clock limits (SIM_UFREQ_LEGACY, _TPMI; 0: not at all) and the lowest
	 * limit of the simulated part, a 100 MHz ratio (sim_ufreq.c says where the floors come from) */
	int ufreq_mode, ufreq_min_ratio;
	const struct sim_mem_board *mem; /* its board's memory population (NULL: every iMC box a channel, no EDAC files) */
};
/* The kind's board where this machine is laid out by it (one die, at most two sockets; a one-socket machine by the
 * board's one_socket where it has one), else NULL */
const struct sim_board *sim_board_of(const struct sim *s);
/* The UBox bus of the socket on a board (the PCU's is the next), or -1 with no board */
int sim_board_ubox_bus(const struct sim *s, int socket);
/* Whether kind k takes an option key of its own (its option_help names key=...): what its machine can model
 * (cxl: CXL memory nodes, hbm: HBM); sim_kind_takes_help asks an option_help string. */
int sim_kind_takes(const struct sim_kind *k, const char *key);
int sim_kind_takes_help(const char *help, const char *key);
/* Every simulated platform, NULL-terminated: generated from the platform list (Makefile.am). */
extern const struct sim_kind *const sim_kinds[];

/* The Xeon E5 generation's machine (sim_xeon_ep.c): MSR boxes per socket and PCI functions at these
 * places on one uncore bus per socket. */
struct sim_pci_place { const char *unit; int idx, dev, fn, companion; };
int sim_xeon_ep_build(struct sim *s, const struct sim_pci_place *place);
/* Each uncore function on its socket's NUMA node, as a board whose listing gives them one shows it (the Dell
 * R720's; Haswell-EP and Broadwell-EP boards list -1, the default). */
void sim_xeon_ep_nodes(struct sim *s);
/* How the generation's workload profile becomes event rates (the rate sim_xeon_ep_build installs), for a
 * platform that adds events of its own around it (Haswell-EP). */
double sim_xeon_ep_rate(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr);
/* How many boxes of b's unit its socket has placed (a 2-socket Xeon E5 lists two QPI links of the unit's
 * three): what a socket's link traffic is spread over. */
int sim_xeon_ep_peers(const struct sim *s, const struct sim_box *b);
/* The non-data flits a second that fill a QPI or UPI link of socket sock to the profile's use (link_util of
 * slots flits a link clock) beside the data flits a second given: none where the data fill it already. */
static inline double sim_link_nondata(const struct sim_profile *p, int sock, int slots, double data)
{
	double v = p->link_util[sock] * slots * p->qpi_hz - data;
	return v > 0 ? v : 0;
}
/* The value of a named filter field of a box as programmed (0 when the box has no such field). */
uint64_t sim_field(const struct sim_box *b, const char *name);
/* The register semantics (sim_core.c) the access paths (sim_access.c), the machine's inspection
 * (sim_machine.c) and its construction (sim_open.c) act through. */
void sim_box_advance(struct sim *s, struct sim_box *b);
/* ... to now, a time the caller took from the clock (sim_clock) */
void sim_box_advance_full(struct sim *s, struct sim_box *b, uint64_t now);
/* Every box made to count the fast way from where it stands, its rates taken now and nothing counted (a
 * session programmed them: its first read then advances them as its hundredth does); a box that must be
 * looked at in full at each advance is left as it is.  No count changes: what its next advance adds is what
 * the full way would have added. */
void sim_settle(struct sim *s);
/* fault agent: at its time another tool reprograms the box, once (sim_core.c) */
/* A control word of box b changed: it joins armed_box if a counter of it is armed now. */
void sim_note_armed(struct sim *s, const struct sim_box *b);
void sim_agent_strike(struct sim *s, struct sim_box *b);
/* fault borrow: the box counted up to now through the borrower's instants */
void sim_borrow_to(struct sim *s, struct sim_box *b, uint64_t now);
int sim_fault_err(const struct sim_box *b, const char *what);
int sim_faulted(struct sim *s, const struct sim_box *b);
/* fault allones: the box reads all ones (from its time on) */
int sim_allones(struct sim *s, const struct sim_box *b);
uint64_t sim_mono_ns(void);
uint64_t sim_reg_get(struct sim *s, struct sim_box *b, int kind, int i);
void sim_reg_set(struct sim *s, struct sim_box *b, int kind, int i, uint64_t v, int dword);
uint64_t sim_reset_value(const struct sim *s, const struct sim_box *b, uint64_t ctl, int ctr, int width);
void sim_tick(struct sim *s);
/* Whether box b carries memory traffic: every box but an iMC channel the population leaves empty (or no channel). */
static inline int sim_imc_populated(const struct sim *s, int socket, int idx)
{
	return !s->dimms_on || idx < 0 || idx >= SIM_DIMM_BOXES || s->dimms[socket][idx] > 0;
}
static inline int sim_chan_populated(const struct sim *s, const struct sim_box *b)
{
	return strcmp(b->u->name, "imc") || sim_imc_populated(s, b->socket, b->idx);
}
/* The population (sim_dimms.c): dimms= taken, the machine's boxes populated after its build, its EDAC tree and SMBIOS
 * table as files (0, or -1 with a message). */
int sim_dimms_option(struct sim *s, const char *v);
/* edac=, mapout=, smbios= (sim_dimms.c): 0, or -1 with the error; 1 where opt is none of them. */
int sim_memory_option(struct sim *s, const char *opt, const char *v);
int sim_dimms_build(struct sim *s);
struct memfs;
int sim_dimms_sysfs(const struct sim *s, struct memfs *m);
/* The profile or a fault changed: every counter's rate is computed again. */
static inline void sim_rate_changed(struct sim *s) { s->rate_gen++; }
extern const struct access_ops sim_access_ops;
struct sim *sim_alloc(void); /* a machine's state, all zero (NULL: out of memory) */
void sim_free(struct sim *s); /* a machine, built or partly built (from sim_alloc) */
/* The counter a rate is asked for: a general one (0..), the fixed counter, or free-running counter k. */
#define SIM_CTR_FIXED (-1)
#define SIM_CTR_FR(k) (-2 - (k))
#define SIM_CTR_IS_FR(c) ((c) <= -2)
#define SIM_CTR_FR_INDEX(c) (-2 - (c))

/* Register kinds inside a box (sim_map.c enters them, sim_core.c acts on them). */
enum { R_NONE, R_BOX_CTL, R_CTL, R_CTL_HI, R_CTR, R_CTR_HI, R_FIXED_CTL, R_FIXED_CTR, R_FIXED_CTR_HI, R_FILT,
       R_STATUS, R_FR, R_FR_HI, R_BOX_CTL_HI /* a 64-bit PCI unit control's upper dword: reserved, reads 0 */ };
uint64_t sim_reg_key(enum sim_space sp, unsigned scope, uint64_t addr);
struct sim_box *sim_map_get(struct sim *s, uint64_t key, int *kind, int *idx);
int sim_map_build(struct sim *s); /* once the machine is built */

/* Shared builders (sim_core.c). */
struct sim_box *sim_add_box(struct sim *s, const struct sim_unit *u, int socket, int idx);
const struct sim_unit *sim_unit_named(const struct sim *s, const char *name);
struct sim_dev *sim_add_dev(struct sim *s, int bus, int dev, int fn, uint16_t id);
/* A config dword of a device just added (d NULL: the machine has too many devices, an error). */
int sim_put_cfg32(struct sim_dev *d, uint32_t off, uint32_t v);
/* A die's CAPID mask of chas CHAs among its slots (at most 64), a bit a present slice: every other slot first, then
 * the ones between, so that a part with fewer CHAs than slots has its bits neither contiguous nor, past 32
 * slots, in one dword; chas >= slots sets all slots (the full die reads all ones where it fills a dword). */
uint64_t sim_cha_capid(int chas, int slots);
/* What read-only MSR k reads on scope sc. */
static inline uint64_t sim_romsr_val(const struct sim *s, int k, int sc) { return s->romsr[k].val + (uint64_t)sc * s->romsr[k].step; }
/* The Skylake-style machines' PCI boxes (skx, icx): each place's box on socket sock, its function at bus0 + bus,
 * dev.fn with the unit's id for that box. */
struct sim_bus_place { const char *unit; int idx, bus, dev, fn; };
int sim_place_functions(struct sim *s, int sock, int bus0, const struct sim_bus_place *p, size_t n);
/* MSR 0x702, U_MSR_PMON_GLOBAL_CONFIG ("NCUPMONConfig"), read-only, on Skylake-SP and Ice Lake-SP: the CHAs of
 * the die in bits 5:0 (PCM getMaxNumOfCBoxes: "The number of CHAs in the processor is stored in bits 5:0 of
 * NCUPMONConfig [0x702] MSR", KNL, SKX and ICX; likwid registers.h MSR_UNC_V3_U_PMON_GLOBAL_CONFIG 0x702, the
 * Haswell-EP guide's name, whose content no source read here gives: not modelled there).  The other bits read 0
 * [unverified: no source gives them].  Linux counts the CHAs from CAPID6 instead, never from this MSR. */
#define SIM_MSR_NCU_PMON_CONFIG 0x702
int sim_ncu_pmon_config(struct sim *s, int chas);
/* The UBox device at bus:dev.fn with its node id and the machine's GIDNIDMAP (s->ubox's offsets). */
int sim_ubox_node_device(struct sim *s, int bus, int dev, int fn, uint32_t node, uint32_t gidnidmap);
int sim_profile_load(struct sim_profile *p, const char *file, int nsockets);
/* The profile's jobs made the machine's traffic (sim_jobs.c): 0, or -1 naming the file's mistake. */
int sim_jobs_apply(struct sim *s, const char *file);
/* job.NAME.gpus = LIST into j: 0, or -1 with why. */
int sim_job_gpus(struct sim_job *j, const char *val, char *why, size_t len);
struct memfs;
/* The simulated node's batch-system files (sim_slurm.c): its host name, the spool of its jobs that hold GPUs
 * (/run/intel-uncore/jobs/NAME as root's prolog writes it: the CPU list, or "-" under slurm.cgroup, then
 * gpus=LIST; doc/jobs.md), its jobs' Slurm cgroups and its gres.conf (slurm.*): 0, or -1 out of memory. */
int sim_jobs_files(const struct sim *s, struct memfs *m);
/* A profile key slurm.KEY = val (sim_slurm.c): 0, or -1 naming file and line. */
int sim_slurm_key(struct sim_profile *p, const char *key, const char *val, const char *file, int lineno);
/* The share of its socket's core traffic the thread a CBo/CHA's tid filter selects makes, when ctl turns
 * the filter on (1 when it is off; 0 for a thread that is no simulated core's). */
double sim_tid_share(const struct sim *s, const struct sim_box *b, uint64_t ctl);
int sim_tid_filtered(const struct sim_box *b, uint64_t ctl);
/* What share of the devices' requests such a counter counts: all with the filter off or naming the I/O
 * agent, none when it names a core. */
double sim_tid_devices(const struct sim_box *b, uint64_t ctl);
void sim_profile_defaults(struct sim_profile *p, int nsockets);

/* The hot path of a register access, inline: the library is built as position-independent code with
 * default visibility, so that a call to any exported function goes through the PLT, and a read at 100 Hz
 * makes hundreds of accesses, most to boxes already brought up to the instant of the read. */

/* sim_now */
static inline uint64_t sim_clock(const struct sim *s)
{
	if (s->held)
		return s->hold_ns;
	return s->manual_clock ? s->now_ns : sim_mono_ns() - s->epoch_ns;
}

/* A count advanced by rate events a second over dt seconds: whole events into the counter (wrapping at
 * mask, uc_width_mask of its width), the part of the next kept in frac. */
static inline void sim_count_add(struct sim *s, double rate, double dt, double *frac, uint64_t *ctr, uint64_t mask)
{
	uint64_t old = *ctr, inc, bits;
	double f = *frac + rate * dt;
	memcpy(&bits, &f, sizeof(bits));
	if (bits < 0x4340000000000000ull) { /* 0 <= f < 2^53 (the sign bit clear): floor is truncation there */
		int64_t n = (int64_t)f;
		f -= (double)n;
		inc = (uint64_t)n;
	} else {
		double fl = floor(f);
		f -= fl;
		inc = (uint64_t)fl;
	}
	*frac = f;
	*ctr = (old + inc) & mask;
	if (*ctr < old)
		s->wraps++;
}

/* An advance of dt seconds of a box whose counting is as its last full advance left it (fast_gen): the
 * cached rates of the counters that count, nothing else looked at. */
static inline void sim_box_advance_fast(struct sim *s, struct sim_box *b, double dt)
{
	const struct sim_unit *u = b->u;
	uint64_t wmask = uc_width_mask(b->width);
	double ph = b->phantom;
	for (int k = 0; k < b->nfr; k++)
		sim_count_add(s, b->rc[SIM_MAX_CTR + 1 + k].rate + ph, dt, &b->fr_frac[k], &b->fr[k],
			      uc_width_mask(u->fr[k].width));
	for (unsigned m = b->fast_mask, c = 0; m; m >>= 1, c++)
		if (m & 1)
			sim_count_add(s, b->cnt[c].rate + ph, dt, &b->cnt[c].frac, &b->cnt[c].v, wmask);
	if (b->fast_fixed)
		sim_count_add(s, b->fixed.rate + ph, dt, &b->fixed.frac, &b->fixed.v, uc_width_mask(u->fixed_width));
}

/* Bring a box's counters up to now (the clock's time when the access began).  A box that counts as its last
 * full advance left it (fast_gen current, its die not frozen, no counter armed) is advanced here, inline: a
 * read at 100 Hz advances every box, and the call into the full advance cost more than the counting. */
static inline void sim_box_advance_to(struct sim *s, struct sim_box *b, uint64_t now)
{
	if (!s->armed && b->fast_gen == s->rate_gen + 1 && now != b->last_ns && !s->gfrz[sim_box_scope(s, b)]) {
		double dt = (double)(now - b->last_ns) / 1e9; /* (a time before it is one far ahead, as in the full way) */
		b->last_ns = now;
		sim_box_advance_fast(s, b, dt);
		return;
	}
	sim_box_advance_full(s, b, now);
}

/* The instant an access finds box b at: the clock's.  A shared machine's box another process brought past
 * the instant this one holds (s_hold_clock) is taken as that process left it, not counted backwards. */
static inline uint64_t sim_box_now(const struct sim *s, const struct sim_box *b)
{
	uint64_t now = sim_clock(s);
	return s->shm && s->held && (int64_t)(now - b->last_ns) < 0 ? b->last_ns : now;
}

/* sim_box_advance: nothing to do for a box already at now, with no armed counter to bring up first */
static inline void sim_box_catch_up(struct sim *s, struct sim_box *b)
{
	uint64_t now = sim_box_now(s, b);
	if (now != b->last_ns || (s->armed && !s->advancing))
		sim_box_advance_to(s, b, now);
}

/* What a register of a box brought up to date reads. */
static inline uint64_t sim_reg_value(const struct sim_box *b, int kind, int i)
{
	switch (kind) {
	case R_BOX_CTL: /* reset commands read 0; on the discovery generation every bit is write-only */
		if (b->u->bc->pmc0)
			return (b->box_ctl & b->u->bc->frz) | b->status;
		return b->box_ctl & b->u->bc->readable;
	case R_STATUS: return b->status;
	case R_CTL: return b->ctl[i];
	case R_CTL_HI: return b->ctl[i] >> 32;
	case R_FR: return b->fr[i];
	case R_FR_HI: return b->fr[i] >> 32;
	case R_CTR: return b->cnt[i].v;
	case R_CTR_HI: return b->cnt[i].v >> 32;
	case R_FIXED_CTL: return b->fixed_ctl;
	case R_FIXED_CTR: return b->fixed.v;
	case R_FIXED_CTR_HI: return b->fixed.v >> 32;
	case R_FILT: return b->filt[i];
	}
	return 0;
}

/* sim_reg_value by a register's place in the box (at, from the map): the uint64_t at at & ~1, its high
 * half where at & 1 (a PCI counter's upper dword); at 0: none (the box control), sim_reg_value. */
static inline uint64_t sim_reg_value_at(const struct sim_box *b, unsigned at, int kind, int i)
{
	if (at)
		return *(const uint64_t *)(const void *)((const char *)b + (at & ~1u)) >> (at & 1u) * 32;
	return sim_reg_value(b, kind, i);
}

/* sim_reg_get, of the register at at (sim_reg_value_at) */
static inline uint64_t sim_reg_read_at(struct sim *s, struct sim_box *b, unsigned at, int kind, int i)
{
	if (s->shm) /* the box's state comes from the shared file, under its lock */
		return sim_reg_get(s, b, kind, i);
	sim_box_catch_up(s, b);
	if (b->agent == 1)
		sim_agent_strike(s, b);
	return sim_reg_value_at(b, at, kind, i);
}

/* sim_reg_get */
static inline uint64_t sim_reg_read(struct sim *s, struct sim_box *b, int kind, int i)
{
	return sim_reg_read_at(s, b, 0, kind, i);
}

/* sim_reg_key */
static inline uint64_t sim_key(enum sim_space sp, unsigned scope, uint64_t addr)
{
	return (uint64_t)sp << 62 | (uint64_t)scope << 50 | (addr & ((1ull << 50) - 1));
}

/* The map's slot for a key: its 64-byte block of addresses hashed (Fibonacci hashing: the product's top bits
 * mix in every bit of the key, so that the socket and the space in its top bits count as much as the
 * address in its low ones), then its 8-byte register within the block -- a box's registers of one block
 * (an iMC's counters over MMIO) lie side by side in the map, a read of them a line or two, not one each. */
static inline size_t sim_map_slot(const struct sim *s, uint64_t key)
{
	size_t block = (size_t)(((key >> 6) * 0x9e3779b97f4a7c15ull) >> (64 - s->map_bits));
	return ((block << 3) | (size_t)(key >> 3 & 7)) & (s->map_cap - 1);
}

/* The map's entry of a key, or NULL. */
static inline const struct sim_reg *sim_map_entry(const struct sim *s, uint64_t key)
{
	if (!s->map)
		return NULL;
	for (size_t h = sim_map_slot(s, key); s->map[h].box; h = (h + 1) & (s->map_cap - 1))
		if (s->map[h].key == key)
			return &s->map[h];
	return NULL;
}

/* sim_map_get */
static inline struct sim_box *sim_map_find(struct sim *s, uint64_t key, int *kind, int *idx)
{
	const struct sim_reg *r = sim_map_entry(s, key);
	if (!r)
		return NULL;
	*kind = r->kind;
	*idx = r->idx;
	return &s->boxes[r->box - 1];
}

/* sim_faulted, sim_allones */
static inline int sim_faulted_now(const struct sim *s, const struct sim_box *b)
{
	return b->fault && sim_clock(s) >= b->fault_from_ns;
}
static inline int sim_allones_now(const struct sim *s, const struct sim_box *b)
{
	return b->allones && sim_clock(s) >= b->fault_from_ns;
}

#endif
