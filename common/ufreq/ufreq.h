/* The uncore clock's limits (uncore.h uncore_freq_domains): the kernel's files, else the MSRs. */
#ifndef UNCORE_UFREQ_H
#define UNCORE_UFREQ_H

#include "uncore.h"
#include "platform/platform_facts.h"

/* MSR_UNCORE_RATIO_LIMIT and MSR_UNCORE_PERF_STATUS (UFREQ_MSR_LIMIT, UFREQ_MSR_STATUS: platform_facts.h): the
 * limits' and the current clock's 7-bit ratios of 100 MHz (UNCORE_FREQ_KHZ_MULTIPLIER) */
#define UFREQ_MAX_SHIFT 0 /* UNCORE_MAX_RATIO_MASK GENMASK_ULL(6, 0) */
#define UFREQ_MIN_SHIFT 8 /* UNCORE_MIN_RATIO_MASK GENMASK_ULL(14, 8) */
#define UFREQ_CUR_SHIFT 0 /* UNCORE_CURRENT_RATIO_MASK GENMASK_ULL(6, 0) */
#define UFREQ_RATIO_MASK 0x7f
#define UFREQ_RATIO_HZ 100e6
#define UFREQ_MAX_DOMAINS 64

/* uncore_freq_domains, the limits alone where limits_only (health at every read: no initial limits, no
 * current clock, no TPMI ids). */
int ufreq_read(uncore_t *u, struct uncore_freq_domain *out, int max, int limits_only);
/* The driver's entries found and kept by the node (node/node.h NODE_CLOCKS), where they are not yet: 0.  A read
 * (ufreq_read) reads their limits and finds none. */
int ufreq_build(uncore_t *u);

#endif
