/*
 * Every register write the library makes passes here: it goes through only
 * when the register is a PMON register of a box found on this machine (or a
 * socket's global control/status) and the value sets only bits that
 * register defines.  Anything else is refused as an internal error, so no
 * table, file or user input can steer a write elsewhere.
 */
#ifndef UNCORE_WRITE_GUARD_H
#define UNCORE_WRITE_GUARD_H

#include <stdint.h>
#include "access/access.h"

struct uncore;
/* Build the set of writable registers from the boxes found and install it on the handle's access. */
int write_guard_build(struct uncore *u);
void write_guard_free(struct access *a);
/* Guarded writes: refused (-1, an "internal error" message, stats.refused_writes + 1) outside the set. */
int guarded_msr_write(struct access *a, int cpu, uint32_t reg, uint64_t val);
int guarded_pci_write32(struct access *a, const struct pci_loc *l, uint32_t off, uint32_t val);
int guarded_mmio_write(struct access *a, uint64_t phys, uint64_t val, int bytes);
/* The writable bits of an MSR on a CPU (0 for one only read); -1 when it is not in the set. */
int write_guard_msr_mask(const struct access *a, int cpu, uint32_t reg, uint64_t *mask);
/* Every MSR in the set once, in msr-safe's allowlist format ("0xADDR 0xWRITEMASK # what"), the masks
 * of all CPUs merged; title goes in the first comment line.  Returns malloc'd text, or NULL. */
char *write_guard_msr_allowlist(const struct access *a, const char *title, int sampling);

#endif
