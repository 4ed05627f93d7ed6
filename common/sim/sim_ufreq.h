/*
 * The simulated machine's uncore clock limits (issue 68): what Linux's intel_uncore_frequency driver shows of
 * them in sysfs -- per die (package_PP_die_DD) up to Emerald Rapids, per power domain and fabric cluster
 * (uncoreNN, its TPMI form) on Granite Rapids, Sierra Forest and Clearwater Forest -- and the MSRs it reads
 * them from on the parts before TPMI (MSR_UNCORE_RATIO_LIMIT 0x620, MSR_UNCORE_PERF_STATUS 0x621).  The
 * current clock is the uncore clock the machine's UBox and CHA/CBo clockticks count (the profile's
 * uncore_clock_hz); faults pin it (pinned:uclk) or put the limits below it (overlimit:uclk).
 */
#ifndef UNCORE_SIM_UFREQ_H
#define UNCORE_SIM_UFREQ_H

#include "util/memfs.h"

struct sim;
/* How the machine shows its limits: not at all (a part the driver does not know, or ufreq=off), through the
 * driver's per-die files and the MSRs, through the MSRs alone (ufreq=msr: the driver not loaded), through
 * the TPMI driver's files */
enum { SIM_UFREQ_NONE, SIM_UFREQ_LEGACY, SIM_UFREQ_MSR, SIM_UFREQ_TPMI };
struct sim_ufreq {
	int mode;          /* SIM_UFREQ_* (0 until built) */
	int asked;         /* ufreq= given: 1 off, 2 msr, 3 sysfs */
	int min_ratio, max_ratio;   /* the limits now, in 100 MHz ratios (Linux UNCORE_FREQ_KHZ_MULTIPLIER) */
	int init_min, init_max;     /* what the driver read when it loaded (initial_*_freq_khz) */
};

/* ufreq=off|msr|sysfs kept for the build: 0, or -1 with a message. */
int sim_ufreq_option(struct sim *s, const char *v);
/* After the platform's build, before the register map: the limits from the platform and the profile, and
 * MSRs 0x620 and 0x621 where the part has them: 0, or -1 with a message. */
int sim_ufreq_build(struct sim *s);
/* fault pinned:uclk[=MHZ], overlimit:uclk[=MHZ] (arg: what follows "uclk"): 0, or -1 with a message. */
int sim_ufreq_fault(struct sim *s, const char *kind, const char *arg);
/* The driver's files: 0 (none where the machine shows none), or -1 out of memory. */
int sim_ufreq_sysfs(const struct sim *s, struct memfs *m);
/* The truth tests hold the library's values to: the limits and the current clock in hertz. */
void sim_ufreq_truth(const struct sim *s, double *min_hz, double *max_hz, double *cur_hz);

#endif
