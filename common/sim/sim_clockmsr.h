/*
 * The simulated CPU's clock MSRs (issue 90 D5): MSR_PLATFORM_INFO 0xCE and the time-stamp counter 0x10,
 * so that a peer that times its samples as TSC ticks over the part's ratio (PCM: detectNominalFrequency,
 * then IA32_TIME_STAMP_COUNTER where RDTSCP is not used) reads the simulator's own clock.
 */
#ifndef UNCORE_SIM_CLOCKMSR_H
#define UNCORE_SIM_CLOCKMSR_H

#include <stdint.h>

struct sim;
#define SIM_MSR_TSC 0x10           /* IA32_TIME_STAMP_COUNTER (Intel SDM: the architectural MSRs) */
#define SIM_MSR_PLATFORM_INFO 0xce /* MSR_PLATFORM_INFO (Intel SDM: the model-specific MSRs; sim_clockmsr.c) */
#define SIM_CLOCK_REG(reg) ((reg) == SIM_MSR_TSC || (reg) == SIM_MSR_PLATFORM_INFO)

/* The part's maximum non-turbo ratio: the profile's TSC rate over the bus clock, rounded (0: no such MSR, an
 * Itanium; the ratio field holds 8 bits: 1..255). */
int sim_clock_ratio(const struct sim *s);
/* The bus clock the ratio multiplies, in Hz (0: no such MSR). */
double sim_clock_bus_hz(const struct sim *s);
/* reg read on scope (a die's CPUs): 1 with *val where reg is one of these MSRs, 0 where it is none, -1 with a
 * message where the part has none. */
int sim_clock_msr(const struct sim *s, int scope, uint32_t reg, uint64_t *val);

#endif
