/*
 * The MSRs read outside the PMON boxes (reader_msrs.h), from the readers' own lists so that the allowlist
 * follows them: energy_msr_regs (RAPL, on the parts and CPUs the msr source reads) and ufreq_msr_part
 * (MSR_UNCORE_RATIO_LIMIT and MSR_UNCORE_PERF_STATUS on a CPU of each die, where the limits come from the MSRs).
 * All are read only: the library writes no RAPL limit and no uncore ratio.
 */
#include "reader_msrs.h"
#include "energy/energy.h"
#include "ufreq/ufreq.h"

int reader_msrs(const char *platform, int die, struct reader_msr *out, int max)
{
	uint32_t regs[READER_MSRS_MAX];
	const char *names[READER_MSRS_MAX];
	int per_die = 0, n = 0, k = energy_msr_regs(platform, regs, names, READER_MSRS_MAX, &per_die);
	for (int i = 0; i < k && n < max && (per_die || die == 0); i++)
		out[n++] = (struct reader_msr){ regs[i], "rapl", names[i] };
	if (ufreq_msr_part(platform)) {
		if (n < max)
			out[n++] = (struct reader_msr){ UFREQ_MSR_LIMIT, "ufreq", "MSR_UNCORE_RATIO_LIMIT" };
		if (n < max)
			out[n++] = (struct reader_msr){ UFREQ_MSR_STATUS, "ufreq", "MSR_UNCORE_PERF_STATUS" };
	}
	return n;
}
