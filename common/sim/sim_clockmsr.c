/*
 * MSR_PLATFORM_INFO and the TSC of the simulated part (issue 90 D5).
 *
 * MSR_PLATFORM_INFO (0xCE), Intel SDM Vol. 3C chapter 35 "Model-Specific Registers" (2016 editions; Vol. 4
 * chapter 2 since): bits 15:8 the maximum non-turbo ratio, "the ratio of the frequency that invariant TSC runs
 * at", times 133.33 MHz on Nehalem and Westmere (their table, page 35-108) and 100 MHz from Sandy Bridge on
 * (page 35-177: "Frequency = ratio * 100 MHz"); bits 47:40 the maximum efficiency ratio, the lowest the part
 * runs at, in the same units; the other bits capability flags, read 0 here.  PCM
 * takes the ratio the same way, 100 MHz on JAKETOWN (SNB-EP) and later and 133.33 MHz before
 * (cpucounters.cpp detectNominalFrequency).  The TSC here ticks at exactly that ratio times the bus clock on
 * the simulator's clock, so TSC / (ratio x bus) is the simulated time: the profile's tsc_hz rounded to the
 * bus clock (2.6e9 by default: ratio 26).  The efficiency ratio is the simulator's choice (8: 0.8 GHz, the
 * floor sim_ufreq.c gives the uncore).  Each read of the TSC is counted as any register access.
 */
#include <math.h>
#include <stddef.h>
#include "sim.h"
#include "sim_clockmsr.h"
#include "util/error.h"

#define EFFICIENCY_RATIO 8u

/* The 133.33 MHz bus of Nehalem and Westmere (the SDM's table for them) for the simulated Nehalem-EP, model 26
 * (0x1A), and the others of the two where cpu= names them (0x1E, 0x1F, 0x2E; 0x25, 0x2C, 0x2F); 100 MHz for the
 * later parts; none on IA-64. */
static int nehalem(const struct sim *s)
{
	static const int models[] = { 0x1a, 0x1e, 0x1f, 0x2e, 0x25, 0x2c, 0x2f };
	for (size_t i = 0; s->family == 6 && i < sizeof(models) / sizeof(models[0]); i++)
		if (s->model == models[i])
			return 1;
	return 0;
}

double sim_clock_bus_hz(const struct sim *s)
{
	if (s->family != 6 && s->family != 0x13) /* IA-64 (Montecito): no MSRs */
		return 0;
	return nehalem(s) ? 400e6 / 3 : 100e6;
}

int sim_clock_ratio(const struct sim *s)
{
	double bus = sim_clock_bus_hz(s);
	long r = bus > 0 && s->prof.tsc_hz > 0 ? lround(s->prof.tsc_hz / bus) : 0;
	return bus <= 0 ? 0 : r < 1 ? 1 : r > 255 ? 255 : (int)r;
}

int sim_clock_msr(const struct sim *s, int scope, uint32_t reg, uint64_t *val)
{
	(void)scope; /* one clock for the machine: every package's TSC and ratio are the same */
	if (!SIM_CLOCK_REG(reg))
		return 0;
	int ratio = sim_clock_ratio(s);
	if (!ratio) {
		uc_err("MSR 0x%x: I/O error (the simulated %s has no MSRs)", reg, s->name);
		return -1;
	}
	if (reg == SIM_MSR_PLATFORM_INFO) {
		*val = (uint64_t)ratio << 8 | (uint64_t)EFFICIENCY_RATIO << 40;
		return 1;
	}
	/* ratio x bus ticks a second: ratio / 10 a nanosecond at 100 MHz, ratio x 2 / 15 at 133.33 MHz; exact in
	 * integers for some two years of simulated time (ns x 510 < 2^64) */
	uint64_t ns = sim_clock(s);
	*val = nehalem(s) ? ns / 15 * 2 * (uint64_t)ratio + ns % 15 * 2 * (uint64_t)ratio / 15
			  : ns / 10 * (uint64_t)ratio + ns % 10 * (uint64_t)ratio / 10;
	return 1;
}
