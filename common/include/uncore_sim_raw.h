/*
 * A simulated machine's registers, raw: what a tool on a real node reaches through its device files
 * (/dev/cpu/N/msr, PCI configuration space, /dev/mem), for a harness that presents the machine behind those
 * files so that unmodified peers (PCM, likwid) and the library's own direct backend program and read it
 * exactly as on hardware (tests/peers/, doc/development.md "Peers").
 *
 * The machine is the one the backend "sim:SPEC" opens, the same register model and workload; opened with
 * shared=FILE it is the machine every process naming FILE shares (uncore --backend sim:SPEC,shared=FILE
 * beside it counts what the peer programmed).  Each call is one register access of the simulator's, made as
 * the hardware takes it: a register it does not model is refused (as rdmsr of a missing MSR faults) and
 * counted in bad_accesses.  Functions return 0, or -1 with a message in uncore_error().
 */
#ifndef UNCORE_SIM_RAW_H
#define UNCORE_SIM_RAW_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct uncore_sim_raw uncore_sim_raw_t;

/* spec: "skx,sockets=1,shared=FILE" ("sim:" before it is taken too); its options as uncore_open's sim:. */
uncore_sim_raw_t *uncore_sim_raw_open(const char *spec);
void uncore_sim_raw_close(uncore_sim_raw_t *r);

/* What CPUID and the kernel's topology say of the machine: CPUs are numbered socket by socket, each socket
 * cores_per_socket CPUs (one thread a core). */
struct uncore_sim_raw_cpu {
	char vendor[16]; /* "GenuineIntel" */
	int family, model, stepping;
	int nsockets, cores_per_socket, ncpus;
	double tsc_hz;   /* the profile's TSC rate */
};
int uncore_sim_raw_cpu(uncore_sim_raw_t *r, struct uncore_sim_raw_cpu *out);

/* rdmsr / wrmsr on CPU cpu (the uncore MSRs of its socket, or die). */
int uncore_sim_raw_msr_read(uncore_sim_raw_t *r, int cpu, uint32_t msr, uint64_t *val);
int uncore_sim_raw_msr_write(uncore_sim_raw_t *r, int cpu, uint32_t msr, uint64_t val);
/* One dword of a PCI function's configuration space (off 4-aligned, below 4096). */
int uncore_sim_raw_pci_read(uncore_sim_raw_t *r, int dom, int bus, int dev, int fn, uint32_t off, uint32_t *val);
int uncore_sim_raw_pci_write(uncore_sim_raw_t *r, int dom, int bus, int dev, int fn, uint32_t off, uint32_t val);
/* A load of len bytes at physical address phys: 4 or 8 of a register, any length of a discovery table. */
int uncore_sim_raw_mmio_read(uncore_sim_raw_t *r, uint64_t phys, void *buf, size_t len);
/* A store of 4 or 8 bytes. */
int uncore_sim_raw_mmio_write(uncore_sim_raw_t *r, uint64_t phys, uint64_t val, int bytes);

/* The i-th PCI function of the machine (i = 0, 1 ... until -1): where it is, its ids and NUMA node (-1: none). */
struct uncore_sim_raw_pci {
	int dom, bus, dev, fn;
	uint16_t vendor, device;
	int node;
};
int uncore_sim_raw_pci_device(uncore_sim_raw_t *r, int i, struct uncore_sim_raw_pci *out);

/* The i-th file of the machine's kernel tree (i = 0, 1 ... until 1, past the last): its PCI devices in sysfs,
 * NUMA nodes, powercap and the like, as the simulated backend presents them.  *path is "/sys/..."; kind 0 a
 * file whose bytes (len of them, made at this call) are in *data until the next call, 1 a symbolic link (*data
 * its target), 2 a directory.  -1 with uncore_error() where the tree cannot be made (a devices= item the
 * machine refuses) or the file's bytes cannot. */
int uncore_sim_raw_file(uncore_sim_raw_t *r, int i, const char **path, const char **data, size_t *len, int *kind);

/* What the machine saw of this handle's accesses: reads and writes by space, and the simulator's protocol
 * checks -- accesses outside every register it models (bad_accesses), control words changed while their box
 * counted (unfrozen_ctl_writes: a tool that programs without freezing first). */
struct uncore_sim_raw_counts {
	uint64_t msr_reads, msr_writes, pci_reads, pci_writes, mmio_reads, mmio_writes;
	uint64_t bad_accesses, unfrozen_ctl_writes;
};
int uncore_sim_raw_counts(uncore_sim_raw_t *r, struct uncore_sim_raw_counts *out);

#ifdef __cplusplus
}
#endif
#endif
