/*
 * The clocks each platform's boxes can run at (health's clock condition, doc/health.md): each platform's
 * descriptor gives its uncore clock (UBox UCLK, the ring's or mesh's CBo/CHA clock), its memory channels' DCLK
 * and its QPI/UPI link layer's clock, each with where its bounds come from (platforms/<p>/platform.c, .clocks).
 * A platform that gives none (a new one, the generic discovery platform) and a kind it leaves 0 get the broad
 * range, which any clock of any of these parts lies in.  The bounds are the widest the parts of the generation
 * run at, so that no working node of it raises the condition; the counters the condition is for count tens of
 * times faster or slower than that (likwid's 68e9 MHz uncore clock, PerfSpect's 7 GHz one: issue 48).
 */
#include <string.h>
#include <strings.h>
#include "clock_ranges.h"
#include "platform/platform.h"

/* Every clock of these parts is a ratio of the 100 MHz reference clock (seed 000 section 2.8: the PCU's band
 * filters are "at 100MHz granularity"; the uncore's ratio limits in MSR 0x620 likewise, Intel SDM vol. 4), and
 * none runs faster than the 5 GHz the library samples every counter by (session_priv.h MAX_CLOCK_HZ). */
static const struct clock_range broad = { 0.1 * PLAT_GHZ, 5 * PLAT_GHZ, "any clock: 100 MHz reference clock to 5 GHz" };

const char *const health_clock_kind_names[HEALTH_CLK_KINDS] = { "uncore", "DRAM", "link", "other" };

const struct clock_range *health_clock_range(const struct platform_desc *p, int kind)
{
	if (p && p->clocks && kind >= 0 && kind < PLAT_CLK_RANGED && p->clocks->r[kind].hi > 0)
		return &p->clocks->r[kind];
	return &broad;
}

struct named_clock {
	const char *name;
	int kind;
};

/* The kind of the clock named name, up to len characters of it (any case, as the catalog finds events). */
static int kind_of(const char *name, size_t len, const struct named_clock *list)
{
	for (int i = 0; name && list[i].name; i++)
		if (strlen(list[i].name) == len && !strncasecmp(name, list[i].name, len))
			return list[i].kind;
	return -1;
}

int health_clock_metric(const char *metric)
{
	static const struct named_clock names[] = { { "uncore_freq", HEALTH_CLK_UNCORE }, { "dram_freq", HEALTH_CLK_DRAM },
						    { NULL, 0 } };
	int k = metric ? kind_of(metric, strlen(metric), names) : -1;
	return k >= 0 ? k : HEALTH_CLK_OTHER;
}

/* The clock events of the platforms' catalogs whose clock is sure (Intel's JSON names, as the platforms' metrics
 * use them; Nehalem's UNC_CLK_UNHALTED, seed 003): the iMC's DCLK (seed 000 L2255, seed 001 T2-131), the UBox's
 * UCLK, the CBo/CHA clock, the QPI/UPI link layer's (seed 000 L3732, seed 001 L7957). */
int health_clock_event(const char *event, int *exact)
{
	static const struct named_clock names[] = {
		{ "UNC_M_CLOCKTICKS", HEALTH_CLK_DRAM },      { "UNC_M_DCLOCKTICKS", HEALTH_CLK_DRAM },
		{ "UNC_M_FIXED_DCLK", HEALTH_CLK_DRAM },      { "UNC_M_DCLK_FREERUN", HEALTH_CLK_DRAM },
		{ "UNC_M_CLOCKTICKS_FREERUN", HEALTH_CLK_DRAM }, { "UNC_CHA_CLOCKTICKS", HEALTH_CLK_UNCORE },
		{ "UNC_C_CLOCKTICKS", HEALTH_CLK_UNCORE },    { "UNC_U_CLOCKTICKS", HEALTH_CLK_UNCORE },
		{ "UNC_U_FIXED_UCLK", HEALTH_CLK_UNCORE },    { "UNC_U_UCLK", HEALTH_CLK_UNCORE },
		{ "UNC_CLK_UNHALTED", HEALTH_CLK_UNCORE },    { "UNC_Q_CLOCKTICKS", HEALTH_CLK_LINK },
		{ "UNC_UPI_CLOCKTICKS", HEALTH_CLK_LINK },    { NULL, 0 },
	};
	if (!event)
		return -1;
	const char *colon = strchr(event, ':');
	int k = kind_of(event, colon ? (size_t)(colon - event) : strlen(event), names);
	if (exact)
		*exact = 1;
	if (k < 0 || !colon || !exact)
		return k;
	/* what places the count (the socket, a CPU's socket, the box) or samples it counts every cycle still; a
	 * threshold, an edge, an inversion or a filter counts some of the cycles (spec.c, qualifiers.c) */
	static const struct named_clock placing[] = { { "socket", 1 }, { "cpu", 1 }, { "box", 1 }, { "sample", 1 }, { NULL, 0 } };
	for (const char *q = colon + 1; *exact && *q; q += strcspn(q, ":"), q += *q == ':')
		*exact = kind_of(q, strcspn(q, ":="), placing) > 0;
	return k;
}
