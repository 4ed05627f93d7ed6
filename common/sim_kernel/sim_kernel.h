/*
 * The simulated kernel (sim_kernel.c): perf_event_open over a simulator, for the perf backend's tests and
 * demos.  Only the backend registry (replay/perf_kernels.c) and the tests name it.
 */
#ifndef UNCORE_SIM_KERNEL_H
#define UNCORE_SIM_KERNEL_H

#include <stddef.h>
#include "access/perf_kernel.h"

/* The simulated kernel over a simulator: "<platform>[,simulator options][,paranoid=N][,caps=none|perfmon|
 * sys_admin][,mux_ms=N][,fds=N][,generic=1][,busy=PMU[:N]][,missing=PMU]".  Its sysfs tree is
 * in memory (no file is written), and it sets *sim to the simulator's access, which it owns. */
struct perf_kernel *sim_kernel_open(const char *spec, struct access **sim);
/* The machine of a simulated kernel's spec: its simulator options without the kernel's (0, or -1). */
int sim_kernel_machine_spec(const char *spec, char *out, size_t len);
/* Events a simulated kernel has open (tests: everything closes); -1 for another kernel. */
int sim_kernel_open_events(struct perf_kernel *k);

#endif
