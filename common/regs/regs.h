/*
 * Register access for the layers above: a register by address or as pmon_reg() names it, whatever
 * its space (MSR, PCI, MMIO) and width, every write through the write guard (write_guard.h).
 */
#ifndef UNCORE_REGS_H
#define UNCORE_REGS_H

#include "handle/handle.h"
#include "pmon_regs.h"
#include "write_guard.h"

int reg_read(uncore_t *u, const struct box *b, uint64_t addr, int companion, int bytes, uint64_t *v);
int reg_write(uncore_t *u, const struct box *b, uint64_t addr, int companion, int bytes, uint64_t v);
int reg_read_counter(uncore_t *u, const struct box *b, uint64_t addr, uint64_t *v);
int reg_write_counter(uncore_t *u, const struct box *b, uint64_t addr, uint64_t v);
/* A register named by pmon_reg(), whatever its space and width. */
int pmon_read(uncore_t *u, const struct box *b, const struct pmon_reg *r, uint64_t *v);
int pmon_write(uncore_t *u, const struct box *b, const struct pmon_reg *r, uint64_t v);
/* Read several counters of one box consistently (PCI: 2x32-bit halves). */
int reg_read_counters(uncore_t *u, const struct box *b, const uint64_t *addr, int n, uint64_t *v);
/* The PCI dwords n counters at addr (each two dwords) take, as bits (bit k: *lo + 4k) from the lowest
 * address *lo; 0 when they span more than 64 dwords.  reg_read_counters reads a block a run of set bits. */
uint64_t reg_pci_dwords(const uint64_t *addr, int n, uint32_t *lo);

#endif
