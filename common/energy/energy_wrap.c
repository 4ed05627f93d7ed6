/* The RAPL energy unit, and a 32-bit energy counter's wraps: the step between two reads and how long a wrap takes. */
#include "energy.h"

/* MSR_RAPL_POWER_UNIT bits 12:8 (Linux rapl.c: (msr >> 8) & 0x1F) */
#define ESU_SHIFT 8
#define ESU_MASK 0x1f

double energy_msr_unit_j(uint64_t power_unit_msr)
{
	unsigned esu = (unsigned)(power_unit_msr >> ESU_SHIFT) & ESU_MASK;
	return 1.0 / (double)(1ull << esu);
}

uint64_t energy_wrap_delta(uint64_t last, uint64_t now, uint64_t modulus)
{
	if (modulus && (last >= modulus || now >= modulus))
		return UINT64_MAX; /* not a value of this counter: no step the caller can add */
	if (!modulus || now >= last)
		return now - last;
	return modulus - last + now; /* one wrap: the caller reads within the wrap time */
}

double energy_wrap_seconds(uint64_t modulus, double unit_j, double max_w)
{
	if (!modulus || max_w <= 0)
		return 0;
	return (double)modulus * unit_j / max_w;
}
