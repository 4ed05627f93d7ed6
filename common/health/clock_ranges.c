/*
 * The clocks each platform's boxes can run at (health's clock condition, doc/health.md): per platform the
 * uncore clock (UBox UCLK, the ring's or mesh's CBo/CHA clock), the memory channels' DCLK and the QPI/UPI link
 * layer's clock, each with where its bounds come from.  A platform this table does not list (a new one, the
 * generic discovery platform) and a kind a row leaves 0 get the broad range, which any clock of any of these
 * parts lies in.  The bounds are the widest the parts of the generation run at, so that no working node of it
 * raises the condition; the counters the condition is for count tens of times faster or slower than that
 * (likwid's 68e9 MHz uncore clock, PerfSpect's 7 GHz one: issue 48).
 */
#include <string.h>
#include <strings.h>
#include "clock_ranges.h"

#define GHZ 1e9
/* Every clock of these parts is a ratio of the 100 MHz reference clock (seed 000 section 2.8: the PCU's band
 * filters are "at 100MHz granularity"; the uncore's ratio limits in MSR 0x620 likewise, Intel SDM vol. 4), and
 * none runs faster than the 5 GHz the library samples every counter by (session_priv.h MAX_CLOCK_HZ). */
static const struct health_clock_range broad = { 0.1 * GHZ, 5 * GHZ,
						 "any clock: 100 MHz reference clock to 5 GHz" };

/* DCLK is half the DDR transfer rate (seed 000 L2255: "dclks - half of DDR speed").  Where a DDR5 channel's
 * DCLK is half or a quarter of its transfer rate no seed says (seed 001 section 2.3 only that it "never
 * changes frequency"), so a DDR5 range spans both: from a quarter of DDR5-3200, the lowest JEDEC speed bin
 * (JESD79-5), to half the platform's top speed. */
#define DDR_HALF(lo_mts, hi_mts) (lo_mts) * 0.5e6, (hi_mts) * 0.5e6
#define DDR5(hi_mts) 3200 * 0.25e6, (hi_mts) * 0.5e6
/* A QPI/UPI link layer clocks at 1/8 of the link's transfer rate (seed 000 L3732: "1/8th the GT/s speed";
 * seed 001's UPI_SPEED metric, L7957: GT/s = clockticks a second x 8 / 1000 MHz). */
#define LINK_GTS(lo_gts, hi_gts) (lo_gts) / 8.0 * GHZ, (hi_gts) / 8.0 * GHZ
/* The mesh's (SKX and later) and the ring's (HSX, BDX) uncore clock is set between the ratio limits of MSR
 * 0x620 per part; no seed gives them.  The one figure at hand, Linux's intel-uncore-frequency driver (the
 * commit adding it, 2019: a two-socket Skylake server's initial limits 1.2-2.4 GHz), lies well inside the
 * conservative 0.8-3 GHz (ratios 8 to 30) used here. */
#define MESH 0.8 * GHZ, 3.0 * GHZ

static const struct {
	const char *platform;
	struct health_clock_range r[HEALTH_CLK_KINDS];
} table[] = {
	/* SNB-EP: the uncore runs in the cores' clock domain; no seed bounds it (the dclk is "generally a bit
	 * slower than the uclk (~800MHz to ~1.066GHz)", seed 000 L2258): conservatively 0.8-4 GHz.  DDR3-800 to
	 * -1600 (L2134), and the seed's ~1.066 GHz dclk (L2258); QPI 5.6-9.6 GT/s (QPI_RATE, L3608-3613). */
	{ "snbep",
	  { { 0.8 * GHZ, 4.0 * GHZ, "SNB-EP uncore clock: conservative 0.8-4 GHz (no seed bound)" },
	    { DDR_HALF(800, 2133), "SNB-EP DCLK: DDR3-800 and up, half the DDR rate; seed 000 L2134, L2255, L2258" },
	    { LINK_GTS(5.6, 9.6), "SNB-EP QPI clock: 5.6-9.6 GT/s / 8; seed 000 L3608-3613, L3732" } } },
	/* IVB-EP: its seed (002) gives no clock; the same socket and memory as SNB-EP (DDR3 to 1866, within the
	 * ~1.066 GHz dclk), so SNB-EP's ranges. */
	{ "ivbep",
	  { { 0.8 * GHZ, 4.0 * GHZ, "IVB-EP uncore clock: conservative 0.8-4 GHz (no seed bound)" },
	    { DDR_HALF(800, 2133), "IVB-EP DCLK: as SNB-EP's (seed 000 L2134, L2255, L2258)" },
	    { LINK_GTS(5.6, 9.6), "IVB-EP QPI clock: as SNB-EP's (seed 000 L3608-3613, L3732)" } } },
	/* HSX, BDX: a ring of its own clock (uncore frequency scaling): conservatively 0.8-3.5 GHz; DDR4 at
	 * 1333-2400 (three DIMMs a channel run at 1333; no seed: Intel's product briefs for E5 v3/v4), DDR3-800 and
	 * up on BDX-DE's DDR3 boards; QPI at SNB-EP's rates (no seed of their own). */
	{ "hsx",
	  { { 0.8 * GHZ, 3.5 * GHZ, "HSX uncore clock: conservative 0.8-3.5 GHz (no seed bound)" },
	    { DDR_HALF(1333, 2400), "HSX DCLK: DDR4-1333 to -2400, half the DDR rate (seed 000 L2255; speeds not in a seed)" },
	    { LINK_GTS(5.6, 9.6), "HSX QPI clock: SNB-EP's QPI rates / 8 (seed 000 L3608-3613, L3732)" } } },
	{ "bdx",
	  { { 0.8 * GHZ, 3.5 * GHZ, "BDX uncore clock: conservative 0.8-3.5 GHz (no seed bound)" },
	    { DDR_HALF(1333, 2400), "BDX DCLK: DDR4-1333 to -2400, half the DDR rate (seed 000 L2255; speeds not in a seed)" },
	    { LINK_GTS(5.6, 9.6), "BDX QPI clock: SNB-EP's QPI rates / 8 (seed 000 L3608-3613, L3732)" } } },
	{ "bdxde",
	  { { 0.8 * GHZ, 3.5 * GHZ, "BDX-DE uncore clock: conservative 0.8-3.5 GHz (no seed bound)" },
	    { DDR_HALF(800, 2400), "BDX-DE DCLK: DDR3-800 to DDR4-2400, half the DDR rate (seed 000 L2134, L2255)" } } },
	/* SKX, CLX: DDR4-1600 (JESD79-4's lowest bin) to -2666 (SKX) and -2933 (CLX); UPI 9.6-11.2 GT/s, taken
	 * down to 4.8 GT/s (a conservative floor: no seed gives UPI speeds before EMR's). */
	{ "skx",
	  { { MESH, "SKX mesh clock: conservative 0.8-3 GHz (Linux intel-uncore-frequency: 1.2-2.4 GHz)" },
	    { DDR_HALF(1600, 2666), "SKX DCLK: DDR4-1600 to -2666, half the DDR rate (seed 000 L2255)" },
	    { LINK_GTS(4.8, 11.2), "SKX UPI clock: 4.8-11.2 GT/s / 8 (seed 001 L7957; speeds conservative)" } } },
	{ "clx",
	  { { MESH, "CLX mesh clock: conservative 0.8-3 GHz (Linux intel-uncore-frequency: 1.2-2.4 GHz)" },
	    { DDR_HALF(1600, 2933), "CLX DCLK: DDR4-1600 to -2933, half the DDR rate (seed 000 L2255)" },
	    { LINK_GTS(4.8, 11.2), "CLX UPI clock: 4.8-11.2 GT/s / 8 (seed 001 L7957; speeds conservative)" } } },
	/* ICX: DDR4 to 3200, UPI 11.2 GT/s. */
	{ "icx",
	  { { MESH, "ICX mesh clock: conservative 0.8-3 GHz" },
	    { DDR_HALF(1600, 3200), "ICX DCLK: DDR4-1600 to -3200, half the DDR rate (seed 000 L2255)" },
	    { LINK_GTS(4.8, 11.2), "ICX UPI clock: 4.8-11.2 GT/s / 8 (seed 001 L7957; speeds conservative)" } } },
	/* SPR: DDR5-4800, UPI 16 GT/s; EMR: DDR5-5600 and UPI 20 GT/s (seed 001's floor plan, L286); Xeon 6 (GNR,
	 * SRF, CWF): MRDIMM 8800 (the speed health's channel bandwidth uses) and UPI 24 GT/s. */
	{ "spr",
	  { { MESH, "SPR mesh clock: conservative 0.8-3 GHz" },
	    { DDR5(4800), "SPR DCLK: DDR5-3200 / 4 to DDR5-4800 / 2 (JESD79-5; seed 000 L2255)" },
	    { LINK_GTS(4.8, 16), "SPR UPI clock: 4.8-16 GT/s / 8 (seed 001 L7957)" } } },
	{ "emr",
	  { { MESH, "EMR mesh clock: conservative 0.8-3 GHz" },
	    { DDR5(5600), "EMR DCLK: DDR5-3200 / 4 to DDR5-5600 / 2 (seed 001 L286)" },
	    { LINK_GTS(4.8, 20), "EMR UPI clock: 4.8-20 GT/s / 8 (seed 001 L286, L7957)" } } },
	{ "gnr",
	  { { MESH, "GNR mesh clock: conservative 0.8-3 GHz" },
	    { DDR5(8800), "GNR DCLK: DDR5-3200 / 4 to MRDIMM-8800 / 2 (JESD79-5C)" },
	    { LINK_GTS(4.8, 24), "GNR UPI clock: 4.8-24 GT/s / 8 (seed 001 L7957)" } } },
	{ "srf",
	  { { MESH, "SRF mesh clock: conservative 0.8-3 GHz" },
	    { DDR5(8800), "SRF DCLK: DDR5-3200 / 4 to MRDIMM-8800 / 2 (JESD79-5C)" },
	    { LINK_GTS(4.8, 24), "SRF UPI clock: 4.8-24 GT/s / 8 (seed 001 L7957)" } } },
	{ "cwf",
	  { { MESH, "CWF mesh clock: conservative 0.8-3 GHz" },
	    { DDR5(8800), "CWF DCLK: DDR5-3200 / 4 to MRDIMM-8800 / 2 (JESD79-5C)" },
	    { LINK_GTS(4.8, 24), "CWF UPI clock: 4.8-24 GT/s / 8 (seed 001 L7957)" } } },
	/* Nehalem-EP: one uncore clock, which no seed gives (seed 003 names none): conservatively 1-3.5 GHz. */
	{ "nhm", { { 1.0 * GHZ, 3.5 * GHZ, "Nehalem uncore clock: conservative 1-3.5 GHz (no seed bound)" } } },
	/* Montecito, generic, and a platform not listed (dmr): the broad range (seed 004 gives Itanium 2's core
	 * clocks, 0.9-1.66 GHz, but for Montecito "Individual SKUs TBD", L311). */
};

const char *const health_clock_kind_names[HEALTH_CLK_KINDS] = { "uncore", "DRAM", "link", "other" };

const struct health_clock_range *health_clock_range(const char *platform, int kind)
{
	for (size_t i = 0; platform && kind >= 0 && kind < HEALTH_CLK_KINDS && i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(table[i].platform, platform))
			return table[i].r[kind].hi > 0 ? &table[i].r[kind] : &broad;
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
