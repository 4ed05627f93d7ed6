/*
 * uncore snapshot (doc/snapshot.md): one archive of what the library reads to decide what a machine is, and
 * nothing else, for the simulator to replay the machine elsewhere (replay/sim_replay.c).
 *
 * The register side is recorded while the library opens the machine: an access that passes every read on
 * to the backend and keeps what came back (the PCI configuration dwords, MMIO ranges and MSRs the discovery
 * read), and refuses every write, so taking a snapshot never changes a register.  What the boxes' own PMON
 * registers held (counts and control words of whoever uses them) is left out before anything is written.
 */
#ifndef UNCORE_SNAPSHOT_H
#define UNCORE_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>
#include "access/access.h"

struct snap_pci { struct pci_loc l; uint32_t off, val; };
struct snap_mmio { uint64_t phys; size_t len; uint8_t *data; };
struct snap_msr { int cpu; uint32_t reg; uint64_t val; };

/* What a recorder saw (snap_record.c). */
struct snap_rec {
	struct snap_pci *pci;
	int npci, cpci;
	struct snap_mmio *mmio;
	int nmmio, cmmio;
	struct snap_msr *msr;
	int nmsr, cmsr;
	int writes_refused;
};

/* The recorder over inner (which it owns and closes): every read passed on and kept in rec; every write
 * refused.  NULL with a message when out of memory. */
struct access *snap_recorder(struct access *inner, struct snap_rec *rec);
void snap_rec_free(struct snap_rec *rec);

/* Member names and their contents, in the order written, with why each is there (the manifest). */
struct snap_out {
	struct snap_member { char *name, *why; uint8_t *data; size_t len; } *m;
	int n, cap;
	char notes[2048]; /* what could not be read, for the caller and the archive's snapshot.txt */
	size_t nnotes;
};
int snap_put(struct snap_out *o, const char *name, const void *data, size_t len, const char *why);
void snap_note(struct snap_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void snap_out_free(struct snap_out *o);

/* The machine's own files below the sysroot (a real node): CPU identity, topology, NUMA nodes, the PCI
 * devices' ids, the NFIT's presence, resctrl's monitoring features (snap_files.c). */
int snap_host_files(struct snap_out *o);
/* The same files as a kernel would show the simulated host h and its PCI devices. */
int snap_sim_host_files(struct snap_out *o, const struct host_info *h, const struct pci_devinfo *devs, int ndevs);
/* The NUMA topology the channel-to-node map reads (snap_numa.c), over the host files' own members of it. */
int snap_numa(struct snap_out *o, const char *regspec);
/* The memory population the library reads (snap_memory.c): the EDAC files and the SMBIOS table, or notes why not. */
int snap_memory(struct snap_out *o, const char *regspec);
/* text (snapshot.txt) with every path of the user's that backend names (profile=, shared=) and the
 * sysroot written as "[path not kept]" (malloc'd; NULL when out of memory). */
char *snap_hide_paths(const char *backend, const char *text);
/* The perf event_source tree of kernel k: every PMU's type and cpumask, and the uncore PMUs' formats,
 * events and aliases; perf_event_paranoid. */
int snap_kernel_files(struct snap_out *o, struct perf_kernel *k);

#endif
