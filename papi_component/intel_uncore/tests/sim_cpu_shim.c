/*
 * LD_PRELOAD shim for PAPI's perf_event_uncore tests on the simulator.  Those tests choose their
 * uncore event (and the CPU of each socket) from PAPI_get_hardware_info(): on the simulator the
 * uncore is the simulated CPU's, so this reports that CPU instead of the host's.  Nothing else of
 * PAPI is changed.  IU_SIM_CPU="MODEL SOCKETS CPUS_PER_SOCKET" (Intel family 6).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>

const PAPI_hw_info_t *PAPI_get_hardware_info(void)
{
	static PAPI_hw_info_t hw;
	const PAPI_hw_info_t *(*real)(void);
	const char *sim = getenv("IU_SIM_CPU");
	int model, sockets, per;
	*(void **)&real = dlsym(RTLD_NEXT, "PAPI_get_hardware_info");
	const PAPI_hw_info_t *h = real ? real() : NULL;
	if (!h || !sim || sscanf(sim, "%d %d %d", &model, &sockets, &per) != 3)
		return h;
	hw = *h;
	hw.vendor = PAPI_VENDOR_INTEL;
	snprintf(hw.vendor_string, sizeof(hw.vendor_string), "GenuineIntel");
	hw.cpuid_family = 6;
	hw.cpuid_model = model;
	hw.sockets = sockets;
	hw.cores = per;
	hw.threads = 1;
	hw.totalcpus = hw.ncpu = sockets * per;
	return &hw;
}
