/* The perf_event backend, as the layers above see it. */
#ifndef UNCORE_PERF_H
#define UNCORE_PERF_H

#include "handle/handle.h"
#include "events/events.h"
#include "perf_pmus.h"

/* The perf_event backend (perf_backend.c): open the kernel named by backend ("perf", "perf+sim:..."),
 * and the boxes from its PMUs; auto's choice between perf and direct. */
/* maker: the kernel of a simulated or replayed backend (replay/perf_kernels.c); NULL for the running kernel's. */
int perf_backend_open(uncore_t *u, const char *backend, const struct kernel_maker *maker);
int perf_boxes(uncore_t *u);
void perf_backend_close(uncore_t *u);
/* auto: 1 when the kernel's PMUs for this platform may be used (why says so), 0 with why saying why not. */
int perf_backend_usable(uncore_t *u);
/* An Intel CPU without a built-in platform (perf_platform.c): its platform from the kernel's PMUs, and
 * the events it gets (Intel's JSON for its mapfile row when built in, else none: the kernel's aliases and
 * raw specs), which the platform's caveat names. */
int perf_platform_open(uncore_t *u);
/* A disc_unnamed platform's generic types: one per uncore_type_<t>[_N] PMU stem of a discovery type it does
 * not name, after its own (perf_platform.c). */
int perf_platform_unnamed(uncore_t *u);
int perf_platform_events(uncore_t *u, const struct uc_catalog **ev);
/* The perf attr words (config, config1, config2) of an event on box b, counted by counter ctr (a general
 * one, UC_CTR_FIXED, or UC_CTR_FREERUN with free-running counter fr), through the PMU's format files. */
int perf_encode(const uncore_t *u, const struct box *b, const struct encoded *e, int ctr, int fr, uint64_t cfg[3]);
/* What of a control word reaches the register through kernel PMU p (perf_reach.c): the bits its event mask
 * keeps, less bits 63:32 where the driver writes 32 bits. */
uint64_t perf_reachable(const struct box_type *t, const struct perf_pmu *p);
/* Whether the driver writes bits 31:0 of config alone to t's control, for a PMU of the type it names or (generic) of
 * one it does not, which has the generic discovery ops. */
int perf_writes_dword(const struct box_type *t, int generic);
/* 1 when control bits ctl would not all reach the register through p, buf naming them and why; else 0. */
int perf_lost_bits(const struct box_type *t, const struct perf_pmu *p, uint64_t ctl, char *buf, size_t len);
/* The fields of t's control word that hold bits, for a message ("inv, port_en"; "bits 0x..." where none). */
void perf_name_bits(const struct box_type *t, uint64_t bits, char *buf, size_t len);
#endif
