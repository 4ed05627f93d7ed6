/* The clocks each platform's boxes can run at, for health's clock condition (doc/health.md): data only. */
#ifndef HEALTH_CLOCK_RANGES_H
#define HEALTH_CLOCK_RANGES_H

#include "platform/platform_facts.h"

/* What a clock clocks: the uncore (UBox UCLK, the ring's or mesh's CBo/CHA clock), a memory channel (the
 * iMC's DCLK), a QPI/UPI link layer; anything else (a core clock, the IIO's, the PCU's) is judged by the broad
 * range alone. */
enum health_clock {
	HEALTH_CLK_UNCORE = PLAT_CLK_UNCORE,
	HEALTH_CLK_DRAM = PLAT_CLK_DRAM,
	HEALTH_CLK_LINK = PLAT_CLK_LINK,
	HEALTH_CLK_OTHER = PLAT_CLK_RANGED,
	HEALTH_CLK_KINDS
};

struct platform_desc;
/* Platform p's range for clocks of kind k (its descriptor's clocks, platform_facts.h); the broad range for a
 * platform or kind that gives none (never NULL). */
const struct clock_range *health_clock_range(const struct platform_desc *p, int kind);
/* The kind of clock a per-box metric (uncore_freq, dram_freq) or a clock event (UNC_M_CLOCKTICKS, ...)
 * measures; -1 when the name is not one of them.  An event is known by its name whatever qualifiers follow it
 * (UNC_C_CLOCKTICKS:socket=0:box=0); *exact (when given) is set to 0 when one of them makes it count only some
 * of the clock's cycles (thresh, edge, inv, a filter): then it can be judged only against the range's top. */
int health_clock_metric(const char *metric);
int health_clock_event(const char *event, int *exact);
extern const char *const health_clock_kind_names[HEALTH_CLK_KINDS];

#endif
