/*
 * Which memory channels hold DIMMs (issue 91, doc/memory.md): the population Linux's EDAC driver of the generation
 * writes under /sys/devices/system/edac/mc (mem_edac.c), and the DIMMs' configured speed from SMBIOS type 17
 * (mem_smbios.c), read through the one file view; a channel neither says anything of is "unknown", never guessed.
 * Built once and kept by the handle's node (mem_pop.c); the public calls are in mem_api.c.
 */
#ifndef UNCORE_MEMORY_H
#define UNCORE_MEMORY_H

#include <stddef.h>
#include <stdint.h>
#include "uncore.h"
#include "access/access.h"
#include "devices/dev_fs.h"

struct mem_layout;

#define MEM_MAX_BOXES 64    /* iMC channel boxes a socket looked at (Granite Rapids has 12, Ice Lake-SP 12) */
#define MEM_MAX_MCS 256     /* EDAC controllers looked at: more are said and left out */
#define MEM_MAX_HBM 64      /* HBM channel boxes a socket (Xeon Max: 32) */
#define MEM_MAX_DIMM_DIRS 64 /* dimmN entries of one controller looked at (i10nm: 2 channels x 2 slots) */
#define MEM_EDAC_DIR "/sys/devices/system/edac/mc"
#define MEM_SMBIOS_PATH "/sys/firmware/dmi/tables/DMI"
#define MEM_SMBIOS_MAX (1 << 20) /* a table larger than this is refused (SMBIOS 3 allows 4 GiB; boards write KiBs) */

/* One channel box of a socket. */
struct mem_chan {
	int state;          /* UNCORE_CHAN_* */
	int ctrl, chan;     /* the EDAC controller (its logical number) and channel; -1 unknown */
	int dimms;          /* DIMMs EDAC lists on it */
	uint64_t mib;       /* their size */
	char type[40];      /* dimm_mem_type of its first DIMM ("Registered-DDR4") */
	char labels[96];    /* dimm_label of each, ", " between */
};

/* SMBIOS type 17, summed (mem_smbios.c). */
struct mem_smbios {
	int devices;        /* type-17 structures */
	int present;        /* of them with a size (a DIMM in the slot), DRAM or not */
	int mts_min, mts_max; /* the speeds of the DRAM present: configured, else rated, MT/s (0: none said) */
	int configured;     /* DRAM devices present whose Configured Memory Speed is said */
	int rated;          /* ... whose speed is their rated Speed alone (SMBIOS 2.6's 28 bytes have no configured) */
	int unknown;        /* ... whose speed the table says is "Unknown" (0) */
	int nonvolatile;    /* devices present that are no DRAM (PMem, NVDIMM, Flash): kept out of the speed */
	char nv_kind[40];   /* what the first of them is ("Intel Optane persistent memory") */
	char first_locator[32];
};

struct mem_pop {
	struct mem_chan ch[UC_MAX_SOCKETS][MEM_MAX_BOXES];
	struct mem_chan hbm[UC_MAX_SOCKETS][MEM_MAX_HBM]; /* Xeon Max's HBM channels, by hbm box: apart from DDR's */
	int edac_mcs;            /* controllers EDAC showed that the layout names */
	int hbm_mcs;             /* ... of them HBM's (not in edac_mcs, nor in the DDR channels) */
	int smbios_read;         /* 1: the table was read (smbios holds it) */
	struct mem_smbios smbios;
	char edac_why[1280];     /* "" where EDAC was read, else why not (with the notes, uncut) */
	char smbios_why[192];    /* "" where SMBIOS was read, else why not */
	char notes[1024];        /* what was left out of what EDAC shows, or placed other than named: every note */
	int nnotes;              /* notes made (each kind, every time), also those past notes' room */
	int notes_cut;           /* of them, not in notes for want of room */
	int uncounted;           /* DIMMs EDAC lists that the node does not have (size 0, a socket mapped out) */
	char source[2560];       /* where the population comes from, for uncore info */
};

/* Whether socket sock's NUMA node (the node of its CPU cpu) has memory, as the kernel's node files say: 1, 0 (CPUs
 * and no memory: the BIOS mapped its DIMMs out), or -1 where not known; *node its node (-1 unknown). */
int mem_socket_memory(const struct dev_fs *fs, int cpu, int *node);

/* The EDAC tree below fs into p (p's channels UNKNOWN on entry): controllers whose mc_name lay names, their
 * channels EMPTY or POPULATED, boxes past a controller's channels NONE.  0; -1 with p->edac_why where there is no
 * tree to read (none, or the platform's controllers are not known).  Odd entries are left out and said in notes;
 * bounded: at most MEM_MAX_MCS controllers and MEM_MAX_DIMM_DIRS DIMMs each, every file read without blocking. */
int mem_edac_read(const struct dev_fs *fs, const struct mem_layout *lay, int nsockets, struct mem_pop *p);
/* ... each socket's memory as its NUMA node has it (mem[s]: mem_socket_memory's answer; NULL: all unknown): a
 * controller placed by order is held against it, and a socket whose node has CPUs and no memory counts none of
 * the DIMMs EDAC lists for it (named in the notes). */
int mem_edac_read_on(const struct dev_fs *fs, const struct mem_layout *lay, int nsockets, const int *mem,
		     struct mem_pop *p);

/* A type-17 summary of the SMBIOS structure table t (len bytes, as /sys/firmware/dmi/tables/DMI holds it): 0; -1
 * with why (a structure running past the table).  Never reads past len. */
int mem_smbios_parse(const uint8_t *t, size_t len, struct mem_smbios *s, char *why, size_t n);
/* The table's bytes below fs (MEM_SMBIOS_PATH: root's alone on a real node) into a buffer of its own (*out, free
 * it), at most MEM_SMBIOS_MAX, read without blocking: 0, or -1 with why (a replayed snapshot without it: unknown). */
int mem_smbios_table(const struct dev_fs *fs, uint8_t **out, size_t *len, char *why, size_t n);
/* The table below fs (MEM_SMBIOS_PATH: root's alone on a real node) parsed into s: 0; -1 with why. */
int mem_smbios_read(const struct dev_fs *fs, struct mem_smbios *s, char *why, size_t n);

/* The handle's population, built when the front end plans (or at a query's first use) and kept by its node (node.h
 * NODE_MEMORY), with the peaks it hands down (handle.h mem_peak); NULL out of memory. */
const struct mem_pop *mem_pop_get(uncore_t *u);
/* Build it where it is not built yet (a failure kept with its reason): 0. */
int mem_pop_node_build(uncore_t *u);
/* The population of u's sockets built from fs (the tests' way in): 0, or -1 out of memory. */
int mem_pop_build(const struct dev_fs *fs, const struct mem_layout *lay, int nsockets, struct mem_pop *p);
/* ... with each socket's CPU (socket_cpu[s], NULL: none known), by which its NUMA node is found and the controllers
 * EDAC lists are held against the memory the node has. */
int mem_pop_build_on(const struct dev_fs *fs, const struct mem_layout *lay, int nsockets, const int *socket_cpu,
		     struct mem_pop *p);
/* The peak DRAM bandwidth of socket sock's channel boxes boxes[0..n) (their numbers): populated ones x the
 * configured MT/s x 8 bytes, into *bps: 0; -1 with why (a box's population or the speed unknown). */
int mem_pop_peak(const struct mem_pop *p, int sock, const int *boxes, int n, double *bps, char *why, size_t len);
/* Whether every DDR channel box of socket sock's boxes[0..n) is known to hold no DIMM (EMPTY or NONE; none unknown)
 * while EDAC lists HBM there: a Xeon Max in HBM-only mode, whose memory traffic is HBM's. */
int mem_pop_hbm_only(const struct mem_pop *p, int sock, const int *boxes, int n);
/* State of the channel box box (its number) of socket sock: UNCORE_CHAN_*. */
int mem_pop_state(const struct mem_pop *p, int sock, int box);

#endif
